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

struct qt_file {
	unsigned char *buf;		/* the final contents */
	unsigned int blocks;
	unsigned int free_entry;	/* data block with room, or 0 */
	unsigned int *order;		/* blocks in the order they fill */
	unsigned int nordered;
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

/*
 * The file's blocks are allocated in the order they are first written,
 * and that order is part of the layout: the quota library writes a new
 * block when it creates it, but the tree's root only once the first
 * id's path below it exists.  We write each block once, in that order.
 */
static void qt_filled(struct qt_file *q, unsigned int blk)
{
	for (unsigned int i = 0; i < q->nordered; i++)
		if (q->order[i] == blk)
			return;
	q->order[q->nordered++] = blk;
}

static errcode_t qt_new_block(struct qt_file *q, unsigned int *blk)
{
	size_t n = (size_t)q->blocks + 1;
	unsigned char *grown = realloc(q->buf, n * QT_BLK);
	unsigned int *order;

	if (!grown)
		return EXT2_ET_NO_MEMORY;
	q->buf = grown;
	order = realloc(q->order, n * sizeof(*order));
	if (!order)
		return EXT2_ET_NO_MEMORY;
	q->order = order;
	memset(qt_block(q, q->blocks), 0, QT_BLK);
	*blk = q->blocks++;
	qt_filled(q, *blk);
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

	if (!q->free_entry) {
		err = qt_new_block(q, &q->free_entry);
		if (err)
			return err;
	}
	*blk = q->free_entry;
	b = qt_block(q, *blk);
	n = b[8] | b[9] << 8;
	if (n + 1 >= QT_PER_BLK)
		q->free_entry = get32(b);
	b[8] = (unsigned char)(n + 1);
	b[9] = (unsigned char)((n + 1) >> 8);
	slot = b + QT_HDR;
	while (memcmp(slot, qt_zero_entry, QT_ENTRY))
		slot += QT_ENTRY;
	put32(slot, u->id);
	put64(slot + 24, u->inodes);
	put64(slot + 48, u->space);
	return 0;
}

/*
 * As e2fsprogs' do_insert_tree(): down the tree by the id's bytes, a
 * new block wherever the path does not exist yet.
 */
static errcode_t qt_insert(struct qt_file *q, const struct qt_use *u,
			   unsigned int *treeblk, int depth)
{
	unsigned int idx = (u->id >> ((QT_DEPTH - depth - 1) * 8)) & 0xff;
	unsigned int next;
	errcode_t err;

	if (!*treeblk) {
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
	qt_filled(q, *treeblk);
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
 * Every inode in use, as mke2fs counts them; on a new filesystem that
 * is root and lost+found.
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

/* The whole file, in memory: header, tree and data blocks. */
static errcode_t qt_build(const struct qt_usage *qu, int type,
			  struct qt_file *q)
{
	const struct qt_use *use = qu->use[type];
	unsigned int root;
	int n = qu->n[type];
	errcode_t err = 0;

	q->blocks = QT_TREEOFF + 1;
	q->buf = calloc(q->blocks, QT_BLK);
	q->order = calloc(q->blocks, sizeof(*q->order));
	if (!q->buf || !q->order)
		err = EXT2_ET_NO_MEMORY;
	else
		qt_filled(q, 0);		/* the header comes first */
	for (int i = 0; !err && i < n; i++) {
		/* An id with no usage is not written at all. */
		if (!use[i].inodes && !use[i].space)
			continue;
		root = QT_TREEOFF;
		err = qt_insert(q, &use[i], &root, 0);
	}
	if (err)
		return err;
	qt_header(q, type);
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

/* Each block once, whole, in the order it filled (see qt_filled()). */
static errcode_t qt_store(ext2_file_t file, struct qt_file *q)
{
	unsigned int done;
	errcode_t err = 0;

	for (unsigned int i = 0; !err && i < q->nordered; i++) {
		err = ext2fs_file_llseek(file, (__u64)q->order[i] * QT_BLK,
					 EXT2_SEEK_SET, NULL);
		if (!err)
			err = ext2fs_file_write(file, qt_block(q, q->order[i]),
						QT_BLK, &done);
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
		err = qt_store(file, &q);
		err2 = ext2fs_file_close(file);
		err = err ? err : err2;
	}
	free(q.buf);
	free(q.order);
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

	if (!ext2fs_has_feature_quota(run->fs->super))
		return EXT4DEV_CONTINUE;
	err = qt_scan(run->fs, &qu);
	for (int type = 0; !err && type < 3; type++)
		if (run->plan->quota_types & (1U << type))
			err = qt_write(run->fs, &qu, type);
	if (err)
		return report_failure("'%s': %s (while writing quota inodes)",
				      run->plan->device, error_message(err));
	return EXT4DEV_CONTINUE;
}
