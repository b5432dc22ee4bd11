/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_INODE_H
#define EXT4DEV_MKFS_INODE_H

/*
 * mkfs_inode.c: -d's inodes, one of each kind, made with the libext2fs
 * calls mke2fs -d makes, so that the same tree gets the same bytes.
 * mkfs_populate.c walks the tree and decides the order; these only
 * write.  Each returns a libext2fs (or errno) code and never prints.
 */

#include <sys/stat.h>

#include <ext2fs/ext2fs.h>

/* mke2fs's read size when it copies a file. */
#define MKFS_INODE_CHUNK 65536

/*
 * Scratch for copying: a chunk, a block of zeros to skip, and the errno
 * of reading the source, set when that (not the filesystem) failed.
 */
struct mkfs_inode_buf {
	char *chunk;
	char *zero;
	int read_err;
};

errcode_t mkfs_inode_link(ext2_filsys fs, ext2_ino_t dir, const char *name,
			  ext2_ino_t ino);
errcode_t mkfs_inode_special(ext2_filsys fs, ext2_ino_t dir,
			     const char *name, const struct stat *st);
errcode_t mkfs_inode_symlink(ext2_filsys fs, ext2_ino_t dir,
			     const char *name, const char *target);
errcode_t mkfs_inode_dir(ext2_filsys fs, ext2_ino_t dir, const char *name);
/* A regular file of @st->st_size bytes, its data read from @fd. */
errcode_t mkfs_inode_file(ext2_filsys fs, struct mkfs_inode_buf *buf,
			  ext2_ino_t dir, const char *name, int fd,
			  const struct stat *st);
/* Owner, permission bits and times from @st. */
errcode_t mkfs_inode_attrs(ext2_filsys fs, ext2_ino_t ino,
			   const struct stat *st);
/* @path's extended attributes, in llistxattr() order. */
errcode_t mkfs_inode_xattrs(ext2_filsys fs, struct mkfs_inode_buf *buf,
			    ext2_ino_t ino, const char *path);

#endif
