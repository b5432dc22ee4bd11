// SPDX-License-Identifier: GPL-2.0
/*
 * -d's inodes, one of each kind, with the libext2fs calls mke2fs 1.47's
 * create_inode.c makes, in its order: allocate, link, mark in use, then
 * write the inode; data block by block with blocks of zeros left as
 * holes; owner, mode and times set afterwards; extended attributes
 * last.  mkfs_populate.c owns the walk and the host side (stat, open,
 * readlink); this file only writes the filesystem.
 */
#define _GNU_SOURCE /* SEEK_DATA, SEEK_HOLE */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "mkfs_inode.h"

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

/* One new entry of directory @dir: a name, a symbolic link or a directory. */
struct dir_add {
	ext2_filsys fs;
	ext2_ino_t dir;
	const char *name;
	ext2_ino_t ino;		/* a name: the inode it names */
	int type;		/* a name: that inode's EXT2_FT_ type */
	const char *target;	/* a symbolic link: where it points */
};

static errcode_t add_name(const struct dir_add *a)
{
	return ext2fs_link(a->fs, a->dir, a->name, a->ino, a->type);
}

static errcode_t add_symlink(const struct dir_add *a)
{
	return ext2fs_symlink(a->fs, a->dir, 0, a->name, a->target);
}

static errcode_t add_dir(const struct dir_add *a)
{
	return ext2fs_mkdir(a->fs, a->dir, 0, a->name);
}

/* @add; when the directory is full, grow it by a block and add again. */
static errcode_t add_to_dir(errcode_t (*add)(const struct dir_add *),
			    const struct dir_add *a)
{
	errcode_t err = add(a);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(a->fs, a->dir);
		if (!err)
			err = add(a);
	}
	return err;
}

/* Another name for an inode already copied: one more link. */
errcode_t mkfs_inode_link(ext2_filsys fs, ext2_ino_t dir, const char *name,
			  ext2_ino_t ino)
{
	struct ext2_inode inode;
	struct dir_add a = { fs, dir, name, ino, 0, NULL };
	errcode_t err = ext2fs_read_inode(fs, ino, &inode);

	if (err)
		return err;
	a.type = file_type(inode.i_mode);
	err = add_to_dir(add_name, &a);
	if (err)
		return err;
	inode.i_links_count++;
	return ext2fs_write_inode(fs, ino, &inode);
}

errcode_t mkfs_inode_symlink(ext2_filsys fs, ext2_ino_t dir,
			     const char *name, const char *target)
{
	struct dir_add a = { fs, dir, name, 0, 0, target };

	return add_to_dir(add_symlink, &a);
}

errcode_t mkfs_inode_dir(ext2_filsys fs, ext2_ino_t dir, const char *name)
{
	struct dir_add a = { fs, dir, name, 0, 0, NULL };

	return add_to_dir(add_dir, &a);
}

/* A new inode in @dir, named @name, allocated the way mke2fs does. */
static errcode_t new_inode(ext2_filsys fs, ext2_ino_t dir, const char *name,
			   int type, ext2_ino_t *ino)
{
	struct dir_add a = { fs, dir, name, 0, type, NULL };
	errcode_t err = ext2fs_new_inode(fs, dir, 010755, 0, ino);

	if (err)
		return err;
	a.ino = *ino;
	err = add_to_dir(add_name, &a);
	if (!err)
		ext2fs_inode_alloc_stats2(fs, *ino, 1, 0);
	return err;
}

/* A fresh inode of @mode, its times the filesystem's now, as mke2fs's. */
static void fresh_inode(ext2_filsys fs, struct ext2_inode *inode, __u16 mode)
{
	__u32 now = (__u32)(fs->now ? fs->now : time(NULL));

	memset(inode, 0, sizeof(*inode));
	inode->i_mode = mode;
	inode->i_atime = now;
	inode->i_ctime = now;
	inode->i_mtime = now;
	inode->i_links_count = 1;
}

/* A device node, FIFO or socket. */
errcode_t mkfs_inode_special(ext2_filsys fs, ext2_ino_t dir,
			     const char *name, const struct stat *st)
{
	struct ext2_inode inode;
	unsigned int major = major(st->st_rdev), minor = minor(st->st_rdev);
	ext2_ino_t ino;
	errcode_t err = new_inode(fs, dir, name, file_type(st->st_mode), &ino);

	if (err)
		return err;
	fresh_inode(fs, &inode, (__u16)(st->st_mode & S_IFMT));
	/* The old encoding when both fit a byte, else the new one. */
	if (major < 256 && minor < 256) {
		inode.i_block[0] = major * 256 + minor;
	} else {
		inode.i_block[1] = (minor & 0xff) | (major << 8) |
				   ((minor & ~0xffU) << 12);
	}
	return ext2fs_write_new_inode(fs, ino, &inode);
}

/* Reading the source failed: errno, noted as the source's. */
static errcode_t read_failed(struct mkfs_inode_buf *buf)
{
	buf->read_err = errno;
	return buf->read_err;
}

/* @len bytes at @data to offset @off of @file. */
static errcode_t write_at(ext2_file_t file, __u64 off, const char *data,
			  unsigned int len)
{
	unsigned int written;
	errcode_t err = ext2fs_file_llseek(file, off, EXT2_SEEK_SET, NULL);

	while (!err && len > 0) {
		err = ext2fs_file_write(file, data, len, &written);
		if (!err && !written)
			err = EIO;
		len -= written;
		data += written;
	}
	return err;
}

/* Bytes [@start, @end) of @fd, block by block, blocks of zeros skipped. */
static errcode_t copy_range(ext2_filsys fs, struct mkfs_inode_buf *buf,
			    int fd, ext2_file_t file, off_t start, off_t end)
{
	unsigned int bs = fs->blocksize;
	errcode_t err = 0;

	for (off_t off = start; !err && off < end; off += MKFS_INODE_CHUNK) {
		/*
		 * Not past @end: what follows is a hole, or data of the
		 * next range, copied with that.  mke2fs reads whole
		 * chunks; the blocks written, and their order, are the
		 * same, and half the reads of a sparse tree are saved.
		 */
		size_t want = end - off < MKFS_INODE_CHUNK ?
			      (size_t)(end - off) : MKFS_INODE_CHUNK;
		ssize_t got = pread(fd, buf->chunk, want, off);

		if (got < 0)
			return read_failed(buf);
		for (ssize_t pos = 0; !err && pos < got; pos += bs) {
			size_t len = got - pos < (ssize_t)bs ? (size_t)(got - pos) : bs;

			if (memcmp(buf->chunk + pos, buf->zero, len))
				err = write_at(file, (__u64)(off + pos),
					       buf->chunk + pos,
					       (unsigned int)len);
		}
	}
	return err;
}

/* The data of @fd, extent by extent (SEEK_DATA), whole when it cannot. */
static errcode_t copy_data(ext2_filsys fs, struct mkfs_inode_buf *buf,
			   int fd, off_t size, ext2_file_t file)
{
	off_t mask = (off_t)fs->blocksize - 1, data = 0, hole, end;
	errcode_t err = 0;

	while (!err && data < size) {
		data = lseek(fd, data, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 :
				copy_range(fs, buf, fd, file, 0, size);
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return copy_range(fs, buf, fd, file, 0, size);
		/*
		 * Whole blocks, but not past @size: a file growing
		 * meanwhile is copied at the size it had when opened.
		 */
		end = (hole + mask) & ~mask;
		err = copy_range(fs, buf, fd, file, data & ~mask,
				 end < size ? end : size);
		data = hole;
	}
	return err;
}

/* The inode of an empty regular file of @size, inline or with extents. */
static errcode_t new_file_inode(ext2_filsys fs, ext2_ino_t ino, mode_t mode,
				off_t size)
{
	struct ext2_inode inode;
	ext2_extent_handle_t handle;
	errcode_t err;

	fresh_inode(fs, &inode, (__u16)((mode & ~S_IFMT) | LINUX_S_IFREG));
	err = ext2fs_inode_size_set(fs, &inode, (__u64)size);
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
	return err;
}

errcode_t mkfs_inode_file(ext2_filsys fs, struct mkfs_inode_buf *buf,
			  ext2_ino_t dir, const char *name, int fd,
			  const struct stat *st)
{
	ext2_file_t file;
	ext2_ino_t ino;
	errcode_t err, err2;

	buf->read_err = 0;
	err = new_inode(fs, dir, name, EXT2_FT_REG_FILE, &ino);
	if (!err)
		err = new_file_inode(fs, ino, st->st_mode, st->st_size);
	if (!err)
		err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &file);
	if (err)
		return err;
	err = copy_data(fs, buf, fd, st->st_size, file);
	err2 = ext2fs_file_close(file);
	return err ? err : err2;
}

errcode_t mkfs_inode_attrs(ext2_filsys fs, ext2_ino_t ino,
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

/* Each attribute named in @list (@size bytes of names) from @path into @h. */
static errcode_t copy_xattr_list(struct ext2_xattr_handle *h,
				 struct mkfs_inode_buf *buf, const char *path,
				 const char *list, ssize_t size)
{
	errcode_t err = 0;

	for (ssize_t i = 0; !err && i < size; i += strlen(list + i) + 1) {
		ssize_t len = lgetxattr(path, list + i, NULL, 0);
		char *value = len >= 0 ? malloc((size_t)len + 1) : NULL;

		if (value)
			len = lgetxattr(path, list + i, value, (size_t)len);
		if (len < 0)
			err = read_failed(buf);
		else if (!value)
			err = ENOMEM;
		else
			err = ext2fs_xattr_set(h, list + i, value, (size_t)len);
		free(value);
	}
	return err;
}

errcode_t mkfs_inode_xattrs(ext2_filsys fs, struct mkfs_inode_buf *buf,
			    ext2_ino_t ino, const char *path)
{
	struct ext2_xattr_handle *h;
	ssize_t size = llistxattr(path, NULL, 0);
	char *list;
	errcode_t err, err2;

	buf->read_err = size < 0 && errno != ENOTSUP ? errno : 0;
	if (size <= 0)
		return buf->read_err;
	err = ext2fs_xattrs_open(fs, ino, &h);
	if (err == EXT2_ET_MISSING_EA_FEATURE)
		return 0;
	if (err)
		return err;
	err = ext2fs_xattrs_read(h);
	list = err ? NULL : malloc((size_t)size);
	if (!err && !list)
		err = ENOMEM;
	if (!err) {
		size = llistxattr(path, list, (size_t)size);
		err = size < 0 ? read_failed(buf) :
		      copy_xattr_list(h, buf, path, list, size);
	}
	free(list);
	err2 = ext2fs_xattrs_close(&h);
	return err ? err : err2;
}
