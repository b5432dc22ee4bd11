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
 * makes the inodes.  The walk is relative to directory descriptors
 * (openat, fstatat, readlinkat), never through a whole path, so a tree
 * of any depth copies, deeper than PATH_MAX too, as mke2fs's chdir()
 * walk copies it; the path DIR/a/b is kept only to name a file in an
 * error, its middle elided when long.  Nothing is opened that could
 * block: symbolic links are read, never followed, a FIFO is made, never
 * opened, and a directory is opened O_NOFOLLOW and checked to be the
 * one that was seen.
 */
#define _GNU_SOURCE		/* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>

#include "mkfs.h"
#include "mkfs_inode.h"
#include "mkfs_run.h"
#include "mkfs_walk.h"
#include "report.h"

struct populate {
	ext2_filsys fs;
	const char *device;
	struct mkfs_links links;	/* files with more than one name */
	struct mkfs_inode_buf buf;
	struct mkfs_path path;		/* DIR/a/b of the entry, for errors */
	int cwd;			/* to come back to after an xattr read */
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
static int populate_fail(const struct populate *p, errcode_t err,
			 const char *what)
{
	bool full = err == EXT2_ET_BLOCK_ALLOC_FAIL ||
		    err == EXT2_ET_INODE_ALLOC_FAIL;
	char buf[MKFS_PATH_SHOWN + 8];
	const char *path = mkfs_path_shown(&p->path, buf, sizeof(buf));

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

/* "'DIR/a/b': why", the entry named as the user would find it. */
static int entry_fail(const struct populate *p, const char *why,
		      const char *when)
{
	char buf[MKFS_PATH_SHOWN + 8];

	return report_failure("'%s': %s%s", mkfs_path_shown(&p->path, buf, sizeof(buf)), why,
			      when);
}

/* Did @fd open the very object fstatat() saw as @st? */
static bool same_object(int fd, const struct stat *st, mode_t type,
			struct stat *now)
{
	return !fstat(fd, now) && (now->st_mode & S_IFMT) == type &&
	       now->st_dev == st->st_dev && now->st_ino == st->st_ino;
}

/*
 * The regular file @name in @dfd, which fstatat() saw as @st: opened
 * without following a link or waiting on a FIFO put in its place, and
 * copied only if it is still the file that was seen.
 */
static int copy_file(struct populate *p, ext2_ino_t dir, int dfd,
		     const char *name, const struct stat *st)
{
	struct stat now;
	errcode_t err;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
			O_NONBLOCK);

	if (fd < 0)
		return entry_fail(p, strerror(errno), "");
	if (!same_object(fd, st, S_IFREG, &now)) {
		close(fd);
		return entry_fail(p, "it changed while being read", "");
	}
	err = mkfs_inode_file(p->fs, &p->buf, dir, name, fd, &now);
	close(fd);
	return err ? populate_fail(p, err, "copying it into the filesystem") :
		     EXT4DEV_CONTINUE;
}

static int copy_symlink(struct populate *p, ext2_ino_t dir, int dfd,
			const char *name, const struct stat *st)
{
	char target[PATH_MAX + 1];
	ssize_t len = readlinkat(dfd, name, target, sizeof(target));
	errcode_t err;

	if (len < 0)
		return entry_fail(p, strerror(errno),
				  " (while reading the symbolic link)");
	if (len > st->st_size || len >= (ssize_t)sizeof(target))
		return entry_fail(p, "it changed while being read", "");
	target[len] = '\0';
	err = mkfs_inode_symlink(p->fs, dir, name, target);
	return err ? populate_fail(p, err, "copying it into the filesystem") :
		     EXT4DEV_CONTINUE;
}

/* Make the inode for @name (of type st->st_mode) in @dir. */
static int make_entry(struct populate *p, ext2_ino_t dir, int dfd,
		      const char *name, const struct stat *st)
{
	errcode_t err = 0;

	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		return copy_file(p, dir, dfd, name, st);
	case S_IFLNK:
		return copy_symlink(p, dir, dfd, name, st);
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
		return entry_fail(p, "not a file mke2fs can copy", "");
	}
	return err ? populate_fail(p, err, "copying it into the filesystem") :
		     EXT4DEV_CONTINUE;
}

/*
 * @name's extended attributes, read by a short name from inside its
 * directory (there is no lgetxattr() relative to a descriptor), so
 * depth costs nothing; the working directory is restored at once.
 */
static errcode_t copy_xattrs(struct populate *p, ext2_ino_t ino, int dfd,
			     const char *name)
{
	errcode_t err;

	if (fchdir(dfd))
		return p->buf.read_err = errno;
	err = mkfs_inode_xattrs(p->fs, &p->buf, ino, name);
	if (fchdir(p->cwd) && !err)
		err = errno;
	return err;
}

/* Owner, mode, times and xattrs, once the entry (and what it holds) exists. */
static int finish_entry(struct populate *p, ext2_ino_t ino, int dfd,
			const char *name, const struct stat *st)
{
	errcode_t err = mkfs_inode_attrs(p->fs, ino, st);

	if (err)
		return populate_fail(p, err, "setting its owner, mode and "
				     "times");
	err = copy_xattrs(p, ino, dfd, name);
	if (err)
		return populate_fail(p, err, "copying its extended "
				     "attributes");
	return EXT4DEV_CONTINUE;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, int dfd);

/* Directory @name in @dfd, seen as @st: opened, checked, copied. */
static int descend(struct populate *p, ext2_ino_t ino, int dfd,
		   const char *name, const struct stat *st)
{
	struct stat now;
	int rc, fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC);

	if (fd < 0)
		return entry_fail(p, strerror(errno),
				  " (while reading the directory)");
	if (!same_object(fd, st, S_IFDIR, &now))
		rc = entry_fail(p, "it changed while being read", "");
	else
		rc = populate_dir(p, ino, fd);
	close(fd);
	return rc;
}

/* The entry @name of @dfd, seen as @st, copied into @dir. */
static int copy_entry(struct populate *p, ext2_ino_t dir, int dfd,
		      const char *name, const struct stat *st)
{
	const struct mkfs_link *link = mkfs_links_find(&p->links, st);
	ext2_ino_t ino;
	errcode_t err;
	int rc;

	if (link) {
		err = mkfs_inode_link(p->fs, dir, name, link->dst);
		return err ? populate_fail(p, err, "linking it") :
			     EXT4DEV_CONTINUE;
	}
	rc = make_entry(p, dir, dfd, name, st);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	err = ext2fs_namei(p->fs, EXT2_ROOT_INO, dir, name, &ino);
	if (err)
		return populate_fail(p, err, "looking it up");
	if (S_ISDIR(st->st_mode))
		rc = descend(p, ino, dfd, name, st);
	if (rc == EXT4DEV_CONTINUE)
		rc = finish_entry(p, ino, dfd, name, st);
	if (rc == EXT4DEV_CONTINUE && mkfs_links_add(&p->links, st, ino))
		rc = report_failure("out of memory");
	return rc;
}

/* One name of directory @dfd, copied into @dir. */
static int populate_entry(struct populate *p, ext2_ino_t dir, int dfd,
			  const char *name)
{
	struct stat st;
	size_t old = mkfs_path_push(&p->path, name);
	int rc;

	if (old == SIZE_MAX)
		return report_failure("out of memory");
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		rc = entry_fail(p, strerror(errno), "");
	else
		rc = copy_entry(p, dir, dfd, name, &st);
	mkfs_path_pop(&p->path, old);
	return rc;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, int dfd)
{
	struct mkfs_names l = { 0 };
	int rc = EXT4DEV_CONTINUE, err = mkfs_names_read(dfd, &l);

	if (err)
		return entry_fail(p, strerror(err),
				  " (while reading the directory)");
	for (size_t i = 0; i < l.n && rc == EXT4DEV_CONTINUE; i++)
		rc = populate_entry(p, dir, dfd, l.names[i]);
	mkfs_names_free(&l);
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
	int rc, fd;

	if (err)
		return populate_fail(p, err, "copying its extended "
				     "attributes");
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return entry_fail(p, strerror(errno),
				  " (while reading the directory)");
	rc = populate_dir(p, EXT2_ROOT_INO, fd);
	close(fd);
	return rc;
}

int mkfs_populate(struct mkfs_run *run)
{
	struct populate p = { .fs = run->fs, .device = run->plan->device,
			      .cwd = -1 };
	const char *root = run->opts->root_dir;
	int rc;

	if (!root)
		return EXT4DEV_CONTINUE;
	mkfs_step(run->opts, "Copying files into the device: ");
	p.buf.chunk = malloc(MKFS_INODE_CHUNK);
	p.buf.zero = calloc(1, run->fs->blocksize);
	p.cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!p.buf.chunk || !p.buf.zero || !mkfs_path_init(&p.path, root))
		rc = report_failure("out of memory");
	else if (p.cwd < 0)
		rc = report_failure("'.': %s (the working directory)",
				    strerror(errno));
	else
		rc = populate_root(&p, root);
	if (p.cwd >= 0)
		close(p.cwd);
	mkfs_path_free(&p.path);
	free(p.buf.chunk);
	free(p.buf.zero);
	mkfs_links_free(&p.links);
	if (rc == EXT4DEV_CONTINUE)
		mkfs_step(run->opts, "done\n");
	return rc;
}
