// SPDX-License-Identifier: GPL-2.0
/*
 * -d DIR: copy a directory tree into the new filesystem, as
 * "mke2fs -d DIR" does, so that the same tree makes the same bytes.
 * mke2fs's order is what decides where every inode and block lands:
 * entries in strcmp() order (its alphasort under mke2fs's C collation),
 * depth first; each entry's inode made and linked, then its owner, mode
 * and times, then its extended attributes; a second name of a file
 * (same st_dev and st_ino, not a directory or symbolic link) only
 * linked.  The root directory takes DIR's extended attributes, not its
 * owner or mode (-E root_owner= sets those), and an existing lost+found
 * is filled, not made again.
 *
 * This file walks the tree and reads the host's side; mkfs_inode.c
 * makes the inodes.  Paths are whole (DIR/a/b), never chdir(): an error
 * names the file.  Nothing is opened that could block: symbolic links
 * are read, never followed, and a FIFO is made, never opened.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>

#include "mkfs.h"
#include "mkfs_inode.h"
#include "mkfs_run.h"
#include "report.h"

struct populate_link {
	dev_t dev;
	ino_t ino;
	ext2_ino_t dst;
};

struct populate {
	ext2_filsys fs;
	const char *device;
	struct populate_link *links;	/* files with more than one name */
	size_t nlinks, links_cap;
	struct mkfs_inode_buf buf;
};

/* A directory's names but . and .., sorted. */
struct name_list {
	char **names;
	size_t n, cap;
};

/*
 * Whether libext2fs's @err is the device's: an errno from its side
 * (the image's host filesystem full included) or a short read or write.
 * libext2fs's own failures are com_err codes, far above errno's range.
 */
static bool device_error(errcode_t err)
{
	return err == EXT2_ET_SHORT_READ || err == EXT2_ET_SHORT_WRITE ||
	       (err > 0 && err < 256 && err != ENOMEM);
}

/*
 * Why @path could not be copied, exit 8: "'PATH': why (while WHAT)" in
 * libext2fs's words, a full filesystem saying so; or "'PATH': why
 * (while reading it)" when reading the source failed; or, when the
 * device failed a read or write, "'DEVICE': why (while copying 'PATH'
 * into it)": the device is what failed.
 */
static int populate_fail(const struct populate *p, const char *path,
			 errcode_t err, const char *what)
{
	bool full = err == EXT2_ET_BLOCK_ALLOC_FAIL ||
		    err == EXT2_ET_INODE_ALLOC_FAIL;

	if (p->buf.read_err)
		return report_failure("'%s': %s (while reading it)", path,
				      strerror(p->buf.read_err));
	if (device_error(err))
		return report_failure("'%s': %s (while copying '%s' into it)",
				      p->device, error_message(err), path);
	return report_failure("'%s': %s%s%s (while %s)", path,
			      full ? strerror(ENOSPC) : "",
			      full ? ": " : "", error_message(err), what);
}

static void free_names(struct name_list *l)
{
	while (l->n)
		free(l->names[--l->n]);
	free(l->names);
	l->names = NULL;
	l->cap = 0;
}

static int push_name(struct name_list *l, const char *name)
{
	char **more;

	if (l->n == l->cap) {
		more = realloc(l->names, (l->cap ? l->cap * 2 : 32) *
				       sizeof(*more));
		if (!more)
			return ENOMEM;
		l->names = more;
		l->cap = l->cap ? l->cap * 2 : 32;
	}
	l->names[l->n] = strdup(name);
	if (!l->names[l->n])
		return ENOMEM;
	l->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory @path into @l, sorted; 0 or an errno. */
static int read_names(const char *path, struct name_list *l)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int err = 0;

	if (!d)
		return errno;
	while (!err) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			err = errno;
			break;
		}
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			err = push_name(l, de->d_name);
	}
	closedir(d);
	if (err)
		free_names(l);
	else if (l->n)
		qsort(l->names, l->n, sizeof(*l->names), by_name);
	return err;
}

/* A second name of a file already copied: link it, nothing more. */
static struct populate_link *known_link(struct populate *p,
					const struct stat *st)
{
	for (size_t i = 0; i < p->nlinks; i++)
		if (p->links[i].dev == st->st_dev &&
		    p->links[i].ino == st->st_ino)
			return &p->links[i];
	return NULL;
}

static int remember_link(struct populate *p, const struct stat *st,
			 ext2_ino_t ino)
{
	struct populate_link *more;

	if (p->nlinks == p->links_cap) {
		p->links_cap = p->links_cap ? p->links_cap * 2 : 64;
		more = realloc(p->links, p->links_cap * sizeof(*more));
		if (!more)
			return report_failure("out of memory");
		p->links = more;
	}
	p->links[p->nlinks++] = (struct populate_link){
		st->st_dev, st->st_ino, ino };
	return EXT4DEV_CONTINUE;
}

/* Whether @st names a file whose other names are only linked. */
static bool may_have_names(const struct stat *st)
{
	return !S_ISDIR(st->st_mode) && !S_ISLNK(st->st_mode) &&
	       st->st_nlink > 1;
}

/*
 * The regular file @path, which lstat() saw as @st: opened without
 * following a link or waiting on a FIFO put in its place, and copied
 * only if it is still the file that was seen.
 */
static int copy_file(struct populate *p, ext2_ino_t dir, const char *name,
		     const char *path, const struct stat *st)
{
	struct stat now;
	errcode_t err;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return report_failure("'%s': %s", path, strerror(errno));
	if (fstat(fd, &now) || !S_ISREG(now.st_mode) ||
	    now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return report_failure("'%s': it changed while being read",
				      path);
	}
	err = mkfs_inode_file(p->fs, &p->buf, dir, name, fd, &now);
	close(fd);
	return err ? populate_fail(p, path, err, "copying it into the "
				   "filesystem") : EXT4DEV_CONTINUE;
}

static int copy_symlink(struct populate *p, ext2_ino_t dir, const char *name,
			const char *path, const struct stat *st)
{
	char target[PATH_MAX + 1];
	ssize_t len = readlink(path, target, sizeof(target));
	errcode_t err;

	if (len < 0)
		return report_failure("'%s': %s (while reading the symbolic "
				      "link)", path, strerror(errno));
	if (len > st->st_size || len >= (ssize_t)sizeof(target))
		return report_failure("'%s': it changed while being read",
				      path);
	target[len] = '\0';
	err = mkfs_inode_symlink(p->fs, dir, name, target);
	return err ? populate_fail(p, path, err, "copying it into the "
				   "filesystem") : EXT4DEV_CONTINUE;
}

/* Make the inode for @path (of type st->st_mode) as @name in @dir. */
static int make_entry(struct populate *p, ext2_ino_t dir, const char *name,
		      const char *path, const struct stat *st)
{
	errcode_t err = 0;

	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		return copy_file(p, dir, name, path, st);
	case S_IFLNK:
		return copy_symlink(p, dir, name, path, st);
	case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		err = mkfs_inode_special(p->fs, dir, name, st);
		break;
	case S_IFDIR:
		/* The root's lost+found exists already: fill it. */
		if (dir == EXT2_ROOT_INO && !strcmp(name, "lost+found"))
			break;
		err = mkfs_inode_dir(p->fs, dir, name);
		break;
	default:
		return report_failure("'%s': not a file mke2fs can copy",
				      path);
	}
	return err ? populate_fail(p, path, err, "copying it into the "
				   "filesystem") : EXT4DEV_CONTINUE;
}

/* Owner, mode, times and xattrs, once the entry (and what it holds) exists. */
static int finish_entry(struct populate *p, ext2_ino_t ino, const char *path,
			const struct stat *st)
{
	errcode_t err = mkfs_inode_attrs(p->fs, ino, st);

	if (err)
		return populate_fail(p, path, err, "setting its owner, mode and "
				     "times");
	err = mkfs_inode_xattrs(p->fs, &p->buf, ino, path);
	if (err)
		return populate_fail(p, path, err, "copying its extended "
				     "attributes");
	return EXT4DEV_CONTINUE;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, const char *path);

/* The entry @path, seen as @st, copied into @dir as @name. */
static int copy_entry(struct populate *p, ext2_ino_t dir, const char *name,
		      const char *path, const struct stat *st)
{
	struct populate_link *link = may_have_names(st) ?
				     known_link(p, st) : NULL;
	ext2_ino_t ino;
	errcode_t err;
	int rc;

	if (link) {
		err = mkfs_inode_link(p->fs, dir, name, link->dst);
		return err ? populate_fail(p, path, err, "linking it") :
			     EXT4DEV_CONTINUE;
	}
	rc = make_entry(p, dir, name, path, st);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	err = ext2fs_namei(p->fs, EXT2_ROOT_INO, dir, name, &ino);
	if (err)
		return populate_fail(p, path, err, "looking it up");
	if (S_ISDIR(st->st_mode))
		rc = populate_dir(p, ino, path);
	if (rc == EXT4DEV_CONTINUE)
		rc = finish_entry(p, ino, path, st);
	if (rc == EXT4DEV_CONTINUE && may_have_names(st))
		rc = remember_link(p, st, ino);
	return rc;
}

/* One name of directory @dir_path, copied into @dir. */
static int populate_entry(struct populate *p, ext2_ino_t dir,
			  const char *dir_path, const char *name)
{
	struct stat st;
	int rc;
	char *path = malloc(strlen(dir_path) + strlen(name) + 2);

	if (!path)
		return report_failure("out of memory");
	sprintf(path, "%s/%s", dir_path, name);
	if (lstat(path, &st))
		rc = report_failure("'%s': %s", path, strerror(errno));
	else
		rc = copy_entry(p, dir, name, path, &st);
	free(path);
	return rc;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, const char *path)
{
	struct name_list l = { 0 };
	int rc = EXT4DEV_CONTINUE, err = read_names(path, &l);

	if (err)
		return report_failure("'%s': %s (while reading the directory)",
				      path, strerror(err));
	for (size_t i = 0; i < l.n && rc == EXT4DEV_CONTINUE; i++)
		rc = populate_entry(p, dir, path, l.names[i]);
	free_names(&l);
	return rc;
}

/*
 * Before anything is written: -d's DIR is a directory we can read, so
 * that a wrong path costs nothing.  A file in it that cannot be read
 * still fails the copy; the filesystem is then never closed, so no
 * superblock of it is written and blkid finds nothing.
 */
int mkfs_check_root_dir(const struct mkfs_opts *o)
{
	struct stat st;
	DIR *d;

	if (!o->root_dir)
		return EXT4DEV_CONTINUE;
	if (stat(o->root_dir, &st))
		return report_failure("'%s': %s", o->root_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return report_failure("'%s': %s", o->root_dir,
				      strerror(ENOTDIR));
	d = opendir(o->root_dir);
	if (!d)
		return report_failure("'%s': %s", o->root_dir, strerror(errno));
	closedir(d);
	return EXT4DEV_CONTINUE;
}

static int populate_root(struct populate *p, const char *root)
{
	errcode_t err = mkfs_inode_xattrs(p->fs, &p->buf, EXT2_ROOT_INO, root);

	if (err)
		return populate_fail(p, root, err, "copying its extended "
				     "attributes");
	return populate_dir(p, EXT2_ROOT_INO, root);
}

int mkfs_populate(struct mkfs_run *run)
{
	struct populate p = { .fs = run->fs, .device = run->plan->device };
	const char *root = run->opts->root_dir;
	int rc;

	if (!root)
		return EXT4DEV_CONTINUE;
	mkfs_step(run->opts, "Copying files into the device: ");
	p.buf.chunk = malloc(MKFS_INODE_CHUNK);
	p.buf.zero = calloc(1, run->fs->blocksize);
	if (!p.buf.chunk || !p.buf.zero)
		rc = report_failure("out of memory");
	else
		rc = populate_root(&p, root);
	free(p.buf.chunk);
	free(p.buf.zero);
	free(p.links);
	if (rc == EXT4DEV_CONTINUE)
		mkfs_step(run->opts, "done\n");
	return rc;
}
