// SPDX-License-Identifier: GPL-2.0
/*
 * Quota files for -O quota, written the way mke2fs writes them (e2fsprogs'
 * quota library is not a public API): the VFS v1 ("vfsv1") format, a
 * 1 KiB header block, a four-level radix tree over the id's bytes and
 * data blocks of 72-byte entries.  A new filesystem has two inodes with
 * usage to account, root and lost+found, so the file is built in memory
 * and written in one piece through ext2fs_file_write().
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exitcodes.h"
#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

#define QT_BLK		1024	/* quota file block */
#define QT_TREEOFF	1	/* the tree's root block */
#define QT_DEPTH	4
#define QT_HDR		16	/* data block header */
#define QT_ENTRY	72	/* struct v2r1_disk_dqblk */
#define QT_PER_BLK	((QT_BLK - QT_HDR) / QT_ENTRY)
#define QT_GRACE	604800	/* a week, for blocks and inodes */
#define QT_MAX_IDS	8	/* root, lost+found: two at most */

static const __u32 qt_magic[] = { 0xd9c01f11, 0xd9c01927, 0xd9c03f14 };
static const unsigned char qt_zero_entry[QT_ENTRY];

struct qt_use {
	__u32 id;
	__u64 inodes, space;
};

/* One read or write of the quota file, in e2fsprogs' order. */
struct qt_io {
	char op;			/* 'r' or 'w' */
	unsigned int off, len;
};

#define QT_MAX_IO 64

struct qt_file {
	unsigned char *buf;		/* the final contents */
	unsigned int blocks;
	unsigned int free_entry;	/* data block with room, or 0 */
	unsigned int entry_off;		/* where the last entry went */
	struct qt_io io[QT_MAX_IO];
	int nio;
};

static void put32(unsigned char *p, __u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, __u64 v)
{
	put32(p, (__u32)v);
	put32(p + 4, (__u32)(v >> 32));
}

static __u32 get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

static unsigned char *qt_block(struct qt_file *q, unsigned int blk)
{
	return q->buf + (size_t)blk * QT_BLK;
}

static void qt_log(struct qt_file *q, char op, unsigned int off,
		   unsigned int len)
{
	if (q->nio < QT_MAX_IO)
		q->io[q->nio++] = (struct qt_io){ op, off, len };
}

static void qt_log_blk(struct qt_file *q, char op, unsigned int blk)
{
	qt_log(q, op, blk * QT_BLK, QT_BLK);
}

static errcode_t qt_new_block(struct qt_file *q, unsigned int *blk)
{
	unsigned char *grown = realloc(q->buf, (size_t)(q->blocks + 1) * QT_BLK);

	if (!grown)
		return EXT2_ET_NO_MEMORY;
	q->buf = grown;
	memset(qt_block(q, q->blocks), 0, QT_BLK);
	*blk = q->blocks++;
	qt_log_blk(q, 'w', *blk);
	return 0;
}

/*
 * The first free slot of the data block with room; a block that fills
 * leaves the list of blocks with free entries.
 */
static errcode_t qt_entry(struct qt_file *q, const struct qt_use *u,
			  unsigned int *blk)
{
	unsigned char *b, *slot;
	unsigned int n;
	errcode_t err;

	if (q->free_entry) {
		qt_log_blk(q, 'r', q->free_entry);
	} else {
		err = qt_new_block(q, &q->free_entry);
		if (err)
			return err;
	}
	*blk = q->free_entry;
	b = qt_block(q, *blk);
	n = b[8] | b[9] << 8;
	if (n + 1 >= QT_PER_BLK) {
		q->free_entry = get32(b);
		qt_log_blk(q, 'w', *blk);
	}
	b[8] = (unsigned char)(n + 1);
	b[9] = (unsigned char)((n + 1) >> 8);
	qt_log_blk(q, 'w', *blk);
	slot = b + QT_HDR;
	while (memcmp(slot, qt_zero_entry, QT_ENTRY))
		slot += QT_ENTRY;
	q->entry_off = (unsigned int)(slot - q->buf);
	put32(slot, u->id);
	put64(slot + 24, u->inodes);
	put64(slot + 48, u->space);
	return 0;
}

/*
 * e2fsprogs' do_insert_tree(): down the tree, new blocks on the way
 * down, each changed block written on the way back up.
 */
static errcode_t qt_insert(struct qt_file *q, const struct qt_use *u,
			   unsigned int *treeblk, int depth)
{
	unsigned int idx = (u->id >> ((QT_DEPTH - depth - 1) * 8)) & 0xff;
	unsigned int next;
	errcode_t err;

	if (*treeblk) {
		qt_log_blk(q, 'r', *treeblk);
	} else {
		err = qt_new_block(q, treeblk);
		if (err)
			return err;
	}
	next = get32(qt_block(q, *treeblk) + 4 * idx);
	if (depth < QT_DEPTH - 1 && next)
		return qt_insert(q, u, &next, depth + 1);
	if (depth < QT_DEPTH - 1)
		err = qt_insert(q, u, &next, depth + 1);
	else
		err = qt_entry(q, u, &next);
	if (err)
		return err;
	put32(qt_block(q, *treeblk) + 4 * idx, next);
	qt_log_blk(q, 'w', *treeblk);
	return 0;
}

static __u32 qt_id(ext2_filsys fs, int type,
		   const struct ext2_inode_large *inode)
{
	if (type == 0)
		return inode_uid(*inode);
	if (type == 1)
		return inode_gid(*inode);
	if (EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	    inode->i_extra_isize >= 32)
		return inode->i_projid;
	return 0;
}

/* Usage per id, for each type, kept in id order. */
struct qt_usage {
	struct qt_use use[3][QT_MAX_IDS];
	int n[3];
};

static errcode_t qt_add(struct qt_usage *qu, int type, __u32 id,
			__u64 space)
{
	struct qt_use *use = qu->use[type];
	int i = 0, *n = &qu->n[type];

	while (i < *n && use[i].id < id)
		i++;
	if (i == *n || use[i].id != id) {
		if (*n == QT_MAX_IDS)
			return EXT2_ET_NO_MEMORY;
		memmove(&use[i + 1], &use[i], (size_t)(*n - i) * sizeof(*use));
		use[i] = (struct qt_use){ .id = id };
		(*n)++;
	}
	use[i].inodes++;
	use[i].space += space;
	return 0;
}

/* mke2fs's rule: root and ordinary inodes, not the hidden files. */
static bool qt_counted(ext2_filsys fs, ext2_ino_t ino,
		       const struct ext2_inode_large *inode)
{
	if (!inode->i_links_count)
		return false;
	if (ino != EXT2_ROOT_INO && ino < EXT2_FIRST_INODE(fs->super))
		return false;
	return ino != fs->super->s_prj_quota_inum &&
	       ino != fs->super->s_orphan_file_inum;
}

static errcode_t qt_add_inode(ext2_filsys fs, struct qt_usage *qu,
			      struct ext2_inode_large *inode)
{
	__u64 space = ext2fs_get_stat_i_blocks(fs, EXT2_INODE(inode)) << 9;
	errcode_t err = 0;

	for (int t = 0; !err && t < 3; t++)
		err = qt_add(qu, t, qt_id(fs, t, inode), space);
	return err;
}

/*
 * Scan every inode, as mke2fs does (its reads matter: they flush the io
 * cache, and so decide how many bytes s_kbytes_written counts).  On a
 * new filesystem only root and lost+found are in use.
 */
static errcode_t qt_scan(ext2_filsys fs, struct qt_usage *qu)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *inode = NULL;
	ext2_inode_scan scan;
	ext2_ino_t ino;
	errcode_t err = ext2fs_get_memzero(isz, &inode);

	if (!err)
		err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err) {
		ext2fs_free_mem(&inode);
		return err;
	}
	memset(qu, 0, sizeof(*qu));
	for (;;) {
		err = ext2fs_get_next_inode_full(scan, &ino, EXT2_INODE(inode),
						 (int)isz);
		if (err || !ino)
			break;
		if (qt_counted(fs, ino, inode))
			err = qt_add_inode(fs, qu, inode);
		if (err)
			break;
	}
	ext2fs_close_inode_scan(scan);
	ext2fs_free_mem(&inode);
	return err;
}

static void qt_header(struct qt_file *q, int type)
{
	unsigned char *h = q->buf;

	put32(h, qt_magic[type]);
	put32(h + 4, 1);			/* version: vfsv1 */
	put32(h + 8, QT_GRACE);
	put32(h + 12, QT_GRACE);
	put32(h + 20, q->blocks);
	put32(h + 28, q->free_entry);
}

/* The file, and the reads and writes e2fsprogs makes to write it. */
static errcode_t qt_build(const struct qt_usage *qu, int type,
			  struct qt_file *q)
{
	const struct qt_use *use = qu->use[type];
	unsigned int root;
	int n = qu->n[type];
	errcode_t err = 0;

	q->blocks = QT_TREEOFF + 1;
	q->buf = err ? NULL : calloc(q->blocks, QT_BLK);
	if (!err && !q->buf)
		err = EXT2_ET_NO_MEMORY;
	qt_log(q, 'w', 0, 8);			/* header */
	qt_log(q, 'w', 8, 24);			/* info */
	for (int i = 0; !err && i < n; i++) {
		/* An id with no usage is not written at all. */
		if (!use[i].inodes && !use[i].space)
			continue;
		root = QT_TREEOFF;
		err = qt_insert(q, &use[i], &root, 0);
		qt_log(q, 'w', q->entry_off, QT_ENTRY);	/* the entry */
	}
	if (err)
		return err;
	qt_header(q, type);
	qt_log(q, 'w', 8, 24);			/* info, at close */
	return 0;
}

/* A fresh regular, immutable inode for the quota file. */
static errcode_t qt_inode(ext2_filsys fs, int type, ext2_ino_t *ino)
{
	struct ext2_inode inode;
	errcode_t err = 0;

	*ino = type == 0 ? EXT4_USR_QUOTA_INO : EXT4_GRP_QUOTA_INO;
	if (type == 2) {
		err = ext2fs_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0600,
				       0, ino);
		if (err)
			return err;
		ext2fs_inode_alloc_stats2(fs, *ino, 1, 0);
		ext2fs_mark_ib_dirty(fs);
	}
	/* mke2fs reads it first; the read keeps the io cache in step. */
	err = ext2fs_read_inode(fs, *ino, &inode);
	if (err)
		return err;
	memset(&inode, 0, sizeof(inode));
	inode.i_atime = (__u32)(fs->now ? fs->now : time(NULL));
	inode.i_mtime = inode.i_atime;
	inode.i_ctime = inode.i_atime;
	inode.i_links_count = 1;
	inode.i_mode = LINUX_S_IFREG | 0600;
	inode.i_flags = EXT2_IMMUTABLE_FL;
	if (ext2fs_has_feature_extents(fs->super))
		inode.i_flags |= EXT4_EXTENTS_FL;
	return ext2fs_write_new_inode(fs, *ino, &inode);
}

/*
 * Replay e2fsprogs' reads and writes with the final contents: the file
 * gets the same blocks in the same order, and the io channel counts the
 * same bytes (s_kbytes_written).
 */
static errcode_t qt_replay(ext2_file_t file, struct qt_file *q)
{
	unsigned char scratch[QT_BLK];
	unsigned int done;
	errcode_t err = 0;

	for (int i = 0; !err && i < q->nio; i++) {
		struct qt_io io = q->io[i];

		err = ext2fs_file_llseek(file, io.off, EXT2_SEEK_SET, NULL);
		if (err)
			break;
		if (io.op == 'r')
			err = ext2fs_file_read(file, scratch, io.len, &done);
		else
			err = ext2fs_file_write(file, q->buf + io.off, io.len,
						&done);
	}
	return err;
}

static errcode_t qt_write(ext2_filsys fs, const struct qt_usage *qu,
			  int type)
{
	struct qt_file q = { 0 };
	ext2_file_t file;
	ext2_ino_t ino;
	errcode_t err = qt_inode(fs, type, &ino), err2;

	if (!err)
		err = qt_build(qu, type, &q);
	if (!err)
		err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE |
				       EXT2_FILE_CREATE, &file);
	if (!err) {
		err = qt_replay(file, &q);
		err2 = ext2fs_file_close(file);
		err = err ? err : err2;
	}
	free(q.buf);
	if (err)
		return err;
	if (type == 0)
		fs->super->s_usr_quota_inum = ino;
	else if (type == 1)
		fs->super->s_grp_quota_inum = ino;
	else
		fs->super->s_prj_quota_inum = ino;
	ext2fs_mark_super_dirty(fs);
	return 0;
}

int mkfs_quota(struct mkfs_run *run)
{
	struct qt_usage qu;
	errcode_t err;

	if (!ext2fs_has_feature_quota(&run->ctl->param))
		return EXT4DEV_CONTINUE;
	err = qt_scan(run->fs, &qu);
	for (int type = 0; !err && type < 3; type++)
		if (run->ctl->quota_types & (1U << type))
			err = qt_write(run->fs, &qu, type);
	if (err)
		return report_failure("'%s': %s (while writing quota inodes)",
				      run->ctl->device, error_message(err));
	return EXT4DEV_CONTINUE;
}
