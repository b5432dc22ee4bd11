// SPDX-License-Identifier: GPL-2.0
/*
 * -d DIR: copy a directory tree into the new filesystem, as
 * "mke2fs -d DIR" does, through the same libext2fs calls in the same
 * order, so that the same tree makes the same bytes.  mke2fs's order is
 * what decides where every inode and block lands: entries in strcmp()
 * order (its alphasort under mke2fs's C collation), depth first; each
 * entry's inode made and linked, then its owner, mode and times, then
 * its extended attributes; a second name of a file (same st_dev and
 * st_ino, not a directory or symbolic link) only linked.  The root
 * directory takes DIR's extended attributes, not its owner or mode
 * (-E root_owner= sets those), and an existing lost+found is filled,
 * not made again.
 *
 * Paths are whole (DIR/a/b), never chdir(): an error names the file.
 */
#define _GNU_SOURCE /* SEEK_DATA, SEEK_HOLE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <et/com_err.h>

#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

/* mke2fs's read size when it copies a file. */
#define POPULATE_CHUNK 65536

struct populate_link {
	dev_t dev;
	ino_t ino;
	ext2_ino_t dst;
};

struct populate {
	ext2_filsys fs;
	struct populate_link *links;	/* files with more than one name */
	size_t nlinks, links_cap;
	char *buf, *zero;		/* a chunk, a block of zeros */
};

/* "'PATH': why" with libext2fs's words, exit 8; a full filesystem says so. */
static int populate_fail(const char *path, errcode_t err, const char *what)
{
	bool full = err == EXT2_ET_BLOCK_ALLOC_FAIL ||
		    err == EXT2_ET_INODE_ALLOC_FAIL || err == ENOSPC;

	return report_failure("'%s': %s%s%s (while %s)", path,
			      full ? strerror(ENOSPC) : "",
			      full && err != ENOSPC ? ": " : "",
			      err == ENOSPC ? "" : error_message(err), what);
}

static int file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return EXT2_FT_REG_FILE;
	case S_IFDIR: return EXT2_FT_DIR;
	case S_IFCHR: return EXT2_FT_CHRDEV;
	case S_IFBLK: return EXT2_FT_BLKDEV;
	case S_IFLNK: return EXT2_FT_SYMLINK;
	case S_IFIFO: return EXT2_FT_FIFO;
	case S_IFSOCK: return EXT2_FT_SOCK;
	default: return EXT2_FT_UNKNOWN;
	}
}

/* ext2fs_link(), growing the directory by a block when it is full. */
static errcode_t link_name(ext2_filsys fs, ext2_ino_t dir, const char *name,
			   ext2_ino_t ino, int type)
{
	errcode_t err = ext2fs_link(fs, dir, name, ino, type);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, dir);
		if (!err)
			err = ext2fs_link(fs, dir, name, ino, type);
	}
	return err;
}

/* Another name for an inode already copied: one more link. */
static errcode_t add_name(ext2_filsys fs, ext2_ino_t dir, const char *name,
			  ext2_ino_t ino)
{
	struct ext2_inode inode;
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (!err)
		err = link_name(fs, dir, name, ino, file_type(inode.i_mode));
	if (err)
		return err;
	inode.i_links_count++;
	return ext2fs_write_inode(fs, ino, &inode);
}

/* A new inode in @dir, named @name, allocated the way mke2fs does. */
static errcode_t new_inode(ext2_filsys fs, ext2_ino_t dir, const char *name,
			   int type, ext2_ino_t *ino)
{
	errcode_t err = ext2fs_new_inode(fs, dir, 010755, 0, ino);

	if (!err)
		err = link_name(fs, dir, name, *ino, type);
	if (!err)
		ext2fs_inode_alloc_stats2(fs, *ino, 1, 0);
	return err;
}

static __u32 now(ext2_filsys fs)
{
	return (__u32)(fs->now ? fs->now : time(NULL));
}

/* A device node, FIFO or socket. */
static errcode_t make_special(ext2_filsys fs, ext2_ino_t dir,
			      const char *name, const struct stat *st)
{
	struct ext2_inode inode = { 0 };
	unsigned int major = major(st->st_rdev), minor = minor(st->st_rdev);
	ext2_ino_t ino;
	errcode_t err = new_inode(fs, dir, name, file_type(st->st_mode), &ino);

	if (err)
		return err;
	inode.i_mode = (__u16)(st->st_mode & S_IFMT);
	inode.i_atime = now(fs);
	inode.i_ctime = inode.i_atime;
	inode.i_mtime = inode.i_atime;
	/* The old encoding when both fit a byte, else the new one. */
	if (major < 256 && minor < 256) {
		inode.i_block[0] = major * 256 + minor;
	} else {
		inode.i_block[1] = (minor & 0xff) | (major << 8) |
				   ((minor & ~0xffU) << 12);
	}
	inode.i_links_count = 1;
	return ext2fs_write_new_inode(fs, ino, &inode);
}

static errcode_t make_symlink(ext2_filsys fs, ext2_ino_t dir,
			      const char *name, const char *target)
{
	errcode_t err = ext2fs_symlink(fs, dir, 0, name, target);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, dir);
		if (!err)
			err = ext2fs_symlink(fs, dir, 0, name, target);
	}
	return err;
}

static errcode_t make_dir(ext2_filsys fs, ext2_ino_t dir, const char *name)
{
	errcode_t err = ext2fs_mkdir(fs, dir, 0, name);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, dir);
		if (!err)
			err = ext2fs_mkdir(fs, dir, 0, name);
	}
	return err;
}

/* Bytes [@start, @end) of @fd, block by block, blocks of zeros skipped. */
static errcode_t copy_range(struct populate *p, int fd, ext2_file_t file,
			    off_t start, off_t end)
{
	unsigned int bs = p->fs->blocksize, written;

	for (off_t off = start; off < end; off += POPULATE_CHUNK) {
		ssize_t got = pread(fd, p->buf, POPULATE_CHUNK, off);

		if (got < 0)
			return errno;
		for (ssize_t pos = 0; pos < got; pos += bs) {
			ssize_t len = got - pos < (ssize_t)bs ? got - pos : bs;
			char *ptr = p->buf + pos;
			errcode_t err;

			if (!memcmp(ptr, p->zero, (size_t)len))
				continue;
			err = ext2fs_file_llseek(file, (__u64)(off + pos),
						 EXT2_SEEK_SET, NULL);
			while (!err && len > 0) {
				err = ext2fs_file_write(file, ptr,
							(unsigned int)len,
							&written);
				if (!err && !written)
					err = EIO;
				len -= written;
				ptr += written;
			}
			if (err)
				return err;
		}
	}
	return 0;
}

/* The data of @fd, extent by extent (SEEK_DATA), whole when it cannot. */
static errcode_t copy_data(struct populate *p, int fd, const struct stat *st,
			   ext2_file_t file)
{
	off_t mask = (off_t)p->fs->blocksize - 1, data = 0, hole;
	errcode_t err = 0;

	while (!err && data < st->st_size) {
		data = lseek(fd, data, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 :
				copy_range(p, fd, file, 0, st->st_size);
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return copy_range(p, fd, file, 0, st->st_size);
		err = copy_range(p, fd, file, data & ~mask,
				 (hole + mask) & ~mask);
		data = hole;
	}
	return err;
}

static errcode_t make_file(struct populate *p, ext2_ino_t dir,
			   const char *name, const char *path)
{
	ext2_filsys fs = p->fs;
	struct ext2_inode inode = { 0 };
	ext2_extent_handle_t handle;
	ext2_file_t file;
	struct stat st;
	ext2_ino_t ino;
	errcode_t err, err2;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = S_ISREG(st.st_mode) ? errno : EXT2_ET_FILE_NOT_FOUND;
		goto out;
	}
	err = new_inode(fs, dir, name, EXT2_FT_REG_FILE, &ino);
	if (err)
		goto out;
	inode.i_mode = (__u16)((st.st_mode & ~S_IFMT) | LINUX_S_IFREG);
	inode.i_atime = now(fs);
	inode.i_ctime = inode.i_atime;
	inode.i_mtime = inode.i_atime;
	inode.i_links_count = 1;
	err = ext2fs_inode_size_set(fs, &inode, (__u64)st.st_size);
	if (!err && ext2fs_has_feature_inline_data(fs->super)) {
		inode.i_flags |= EXT4_INLINE_DATA_FL;
	} else if (!err && ext2fs_has_feature_extents(fs->super)) {
		err = ext2fs_extent_open2(fs, ino, &inode, &handle);
		if (!err)
			ext2fs_extent_free(handle);
	}
	if (!err)
		err = ext2fs_write_new_inode(fs, ino, &inode);
	if (!err && (inode.i_flags & EXT4_INLINE_DATA_FL))
		err = ext2fs_inline_data_init(fs, ino);
	if (!err)
		err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &file);
	if (!err) {
		err = copy_data(p, fd, &st, file);
		err2 = ext2fs_file_close(file);
		err = err ? err : err2;
	}
out:
	close(fd);
	return err;
}

/* Owner, permission bits and times from @st, as mke2fs sets them. */
static errcode_t set_attrs(ext2_filsys fs, ext2_ino_t ino,
			   const struct stat *st)
{
	struct ext2_inode inode;
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (err)
		return err;
	inode.i_uid = (__u16)st->st_uid;
	ext2fs_set_i_uid_high(inode, st->st_uid >> 16);
	inode.i_gid = (__u16)st->st_gid;
	ext2fs_set_i_gid_high(inode, st->st_gid >> 16);
	inode.i_mode = (__u16)((LINUX_S_IFMT & inode.i_mode) |
			       (~S_IFMT & st->st_mode));
	inode.i_atime = (__u32)st->st_atime;
	inode.i_mtime = (__u32)st->st_mtime;
	inode.i_ctime = (__u32)st->st_ctime;
	return ext2fs_write_inode(fs, ino, &inode);
}

/* @path's extended attributes, in llistxattr() order, onto @ino. */
static errcode_t copy_xattrs(ext2_filsys fs, ext2_ino_t ino, const char *path)
{
	struct ext2_xattr_handle *h;
	ssize_t size = llistxattr(path, NULL, 0);
	char *list = NULL, *value = NULL;
	errcode_t err, err2;

	if (size <= 0)
		return size < 0 && errno != ENOTSUP ? errno : 0;
	err = ext2fs_xattrs_open(fs, ino, &h);
	if (err == EXT2_ET_MISSING_EA_FEATURE)
		return 0;
	if (err)
		return err;
	err = ext2fs_xattrs_read(h);
	list = malloc((size_t)size);
	if (!err && !list)
		err = ENOMEM;
	if (!err) {
		size = llistxattr(path, list, (size_t)size);
		if (size < 0)
			err = errno;
	}
	for (ssize_t i = 0; !err && i < size; i += strlen(list + i) + 1) {
		ssize_t len = lgetxattr(path, list + i, NULL, 0);

		free(value);
		value = len >= 0 ? malloc((size_t)len + 1) : NULL;
		if (value)
			len = lgetxattr(path, list + i, value, (size_t)len);
		if (len < 0 || !value)
			err = errno ? errno : ENOMEM;
		else
			err = ext2fs_xattr_set(h, list + i, value,
					       (size_t)len);
	}
	free(value);
	free(list);
	err2 = ext2fs_xattrs_close(&h);
	return err ? err : err2;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory @path but . and .., sorted; NULL on error. */
static char **read_names(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL, **more;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			more = realloc(names, cap * sizeof(*names));
			if (!more)
				break;
			names = more;
		}
		names[*n] = strdup(de->d_name);
		if (!names[*n])
			break;
		(*n)++;
	}
	if (errno || !names) {
		int saved = errno ? errno : 0;

		while (*n)
			free(names[--*n]);
		free(names);
		closedir(d);
		errno = saved;
		return saved ? NULL : calloc(1, sizeof(char *));
	}
	closedir(d);
	qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, const char *path);

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

/* Make the inode for @path (of type st->st_mode) as @name in @dir. */
static int make_entry(struct populate *p, ext2_ino_t dir, const char *name,
		      const char *path, const struct stat *st)
{
	char target[PATH_MAX + 1];
	ssize_t len;
	errcode_t err = 0;

	switch (st->st_mode & S_IFMT) {
	case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		err = make_special(p->fs, dir, name, st);
		break;
	case S_IFLNK:
		len = readlink(path, target, sizeof(target));
		if (len < 0 || len > st->st_size || len >= (ssize_t)sizeof(target))
			return report_failure("'%s': %s (while reading the "
					      "symbolic link)", path,
					      len < 0 ? strerror(errno) :
					      "it changed while being read");
		target[len] = '\0';
		err = make_symlink(p->fs, dir, name, target);
		break;
	case S_IFREG:
		err = make_file(p, dir, name, path);
		break;
	case S_IFDIR:
		/* The root's lost+found exists already: fill it. */
		if (dir == EXT2_ROOT_INO && !strcmp(name, "lost+found"))
			break;
		err = make_dir(p->fs, dir, name);
		break;
	default:
		return report_failure("'%s': not a file mke2fs can copy",
				      path);
	}
	return err ? populate_fail(path, err, "copying it into the "
				   "filesystem") : EXT4DEV_CONTINUE;
}

/* Owner, mode, times and xattrs, once the entry (and what it holds) exists. */
static int finish_entry(struct populate *p, ext2_ino_t ino, const char *path,
			const struct stat *st)
{
	errcode_t err = set_attrs(p->fs, ino, st);

	if (err)
		return populate_fail(path, err, "setting its owner, mode and "
				     "times");
	err = copy_xattrs(p->fs, ino, path);
	if (err)
		return populate_fail(path, err, "copying its extended "
				     "attributes");
	return EXT4DEV_CONTINUE;
}

/* One name of directory @dir_path, copied into @dir. */
static int populate_entry(struct populate *p, ext2_ino_t dir,
			  const char *dir_path, const char *name)
{
	struct populate_link *link;
	struct stat st;
	ext2_ino_t ino;
	errcode_t err;
	int rc;
	char *path = malloc(strlen(dir_path) + strlen(name) + 2);

	if (!path)
		return report_failure("out of memory");
	sprintf(path, "%s/%s", dir_path, name);
	rc = lstat(path, &st) ? report_failure("'%s': %s", path,
					       strerror(errno)) :
				EXT4DEV_CONTINUE;
	link = rc == EXT4DEV_CONTINUE && !S_ISDIR(st.st_mode) &&
	       !S_ISLNK(st.st_mode) && st.st_nlink > 1 ?
	       known_link(p, &st) : NULL;
	if (link) {
		err = add_name(p->fs, dir, name, link->dst);
		rc = err ? populate_fail(path, err, "linking it") : rc;
		free(path);
		return rc;
	}
	if (rc == EXT4DEV_CONTINUE)
		rc = make_entry(p, dir, name, path, &st);
	err = rc == EXT4DEV_CONTINUE ?
	      ext2fs_namei(p->fs, EXT2_ROOT_INO, dir, name, &ino) : 0;
	if (err)
		rc = populate_fail(path, err, "looking it up");
	if (rc == EXT4DEV_CONTINUE && S_ISDIR(st.st_mode))
		rc = populate_dir(p, ino, path);
	if (rc == EXT4DEV_CONTINUE)
		rc = finish_entry(p, ino, path, &st);
	if (rc == EXT4DEV_CONTINUE && !S_ISDIR(st.st_mode) &&
	    !S_ISLNK(st.st_mode) && st.st_nlink > 1)
		rc = remember_link(p, &st, ino);
	free(path);
	return rc;
}

static int populate_dir(struct populate *p, ext2_ino_t dir, const char *path)
{
	size_t n, i;
	char **names = read_names(path, &n);
	int rc = EXT4DEV_CONTINUE;

	if (!names)
		return report_failure("'%s': %s (while reading the directory)",
				      path, strerror(errno));
	for (i = 0; i < n && rc == EXT4DEV_CONTINUE; i++)
		rc = populate_entry(p, dir, path, names[i]);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
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

int mkfs_populate(struct mkfs_run *run)
{
	struct populate p = { .fs = run->fs };
	const char *root = run->opts->root_dir;
	errcode_t err;
	int rc;

	if (!root)
		return EXT4DEV_CONTINUE;
	mkfs_step(run->opts, "Copying files into the device: ");
	p.buf = malloc(POPULATE_CHUNK);
	p.zero = calloc(1, run->fs->blocksize);
	err = p.buf && p.zero ? copy_xattrs(run->fs, EXT2_ROOT_INO, root) : 0;
	if (!p.buf || !p.zero)
		rc = report_failure("out of memory");
	else if (err)
		rc = populate_fail(root, err, "copying its extended "
				   "attributes");
	else
		rc = populate_dir(&p, EXT2_ROOT_INO, root);
	free(p.buf);
	free(p.zero);
	free(p.links);
	if (rc == EXT4DEV_CONTINUE)
		mkfs_step(run->opts, "done\n");
	return rc;
}
