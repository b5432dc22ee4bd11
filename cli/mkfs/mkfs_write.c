// SPDX-License-Identifier: GPL-2.0
/*
 * The writes, in mke2fs's order, all through libext2fs: discard, the
 * old superblock wiped, group tables allocated, the end of the device
 * wiped, inode tables (lazily where mke2fs is lazy), root, lost+found,
 * reserved and bad-block inodes, resize inode, journal, MMP, orphan file,
 * and the superblocks and group descriptors written by ext2fs_close().
 */
#include <stdio.h>
#include <string.h>

#include "exitcodes.h"
#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

#define DISCARD_STEP_MB 2048ULL

static errcode_t discard_device(ext2_filsys fs)
{
	blk64_t blocks = ext2fs_blocks_count(fs->super), cur = 0;
	blk64_t step = DISCARD_STEP_MB * 1024 * 1024 / fs->blocksize;
	errcode_t err = 0;

	for (; !err && cur < blocks; cur += step)
		err = io_channel_discard(fs->io, cur,
					 blocks - cur < step ? blocks - cur :
							       step);
	return err;
}

/* Zero 512-byte sectors [@sect, @sect + @n): the old superblock. */
static errcode_t zap_sectors(ext2_filsys fs, int sect, int n)
{
	char buf[512 * 8] = { 0 };
	errcode_t err;

	io_channel_set_blksize(fs->io, 512);
	err = io_channel_write_blk64(fs->io, (unsigned long long)sect,
				     -512 * n, buf);
	io_channel_set_blksize(fs->io, fs->blocksize);
	return err;
}

int mkfs_discard_and_wipe(struct mkfs_run *run)
{
	errcode_t err;

	run->lazy_itable = run->plan->lazy_itable_init != 0;
	run->lazy_journal = run->plan->lazy_journal_init != 0;
	if (run->plan->assume_prezeroed > 0) {
		run->lazy_itable = true;
		run->itable_zeroed = true;
		run->lazy_journal = 1;
	}
	/* One block first: a device that cannot discard stays quiet. */
	if (run->plan->discard && run->plan->dev_size &&
	    !io_channel_discard(run->fs->io, 0, 1)) {
		mkfs_step(run->opts, "Discarding device blocks: ");
		err = discard_device(run->fs);
		mkfs_step(run->opts, "%s\n", err ? "failed" : "done");
		if (!err && io_channel_discard_zeroes_data(run->fs->io)) {
			if (run->opts->verbose)
				mkfs_step(run->opts, "Discard succeeded and "
					  "will return 0s - skipping inode "
					  "table wipe\n");
			run->lazy_itable = true;
			run->itable_zeroed = true;
		}
	}
	err = zap_sectors(run->fs, 2, 6);
	if (err)
		report_warn(run->plan->device, "could not erase the old "
			    "superblock: %s", error_message(err));
	return EXT4DEV_CONTINUE;
}

static errcode_t packed_tables(ext2_filsys fs)
{
	blk64_t goal = 0, end = ext2fs_blocks_count(fs->super) - 1;
	errcode_t err = 0;
	dgrp_t g;

	for (g = 0; !err && g < fs->group_desc_count; g++) {
		err = ext2fs_new_block2(fs, goal, NULL, &goal);
		if (!err) {
			ext2fs_block_alloc_stats2(fs, goal, 1);
			ext2fs_block_bitmap_loc_set(fs, g, goal);
		}
	}
	for (g = 0; !err && g < fs->group_desc_count; g++) {
		err = ext2fs_new_block2(fs, goal, NULL, &goal);
		if (!err) {
			ext2fs_block_alloc_stats2(fs, goal, 1);
			ext2fs_inode_bitmap_loc_set(fs, g, goal);
		}
	}
	for (g = 0; !err && g < fs->group_desc_count; g++) {
		err = ext2fs_get_free_blocks2(fs, goal, end,
					      fs->inode_blocks_per_group,
					      fs->block_map, &goal);
		if (err)
			break;
		ext2fs_block_alloc_stats_range(fs, goal,
					       fs->inode_blocks_per_group, 1);
		ext2fs_inode_table_loc_set(fs, g, goal);
		ext2fs_group_desc_csum_set(fs, g);
	}
	return err;
}

/* Clusters the group tables use: part of s_overhead_clusters. */
static errcode_t count_overhead(ext2_filsys fs, blk64_t *overhead)
{
	blk64_t first = fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(fs->super) - 1;

	return ext2fs_count_used_clusters(fs, first, last, overhead);
}

static int allocate_tables(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	errcode_t err;

	mkfs_step(run->opts, "Allocating group tables: ");
	fs->stride = fs->super->s_raid_stride;
	if (ext2fs_has_feature_flex_bg(fs->super) &&
	    run->plan->packed_meta_blocks)
		err = packed_tables(fs);
	else
		err = ext2fs_allocate_tables(fs);
	if (!err)
		err = ext2fs_convert_subcluster_bitmap(fs, &fs->block_map);
	if (!err)
		err = count_overhead(fs, &run->overhead);
	if (err)
		return mkfs_fail(run, err, "allocating group tables");
	mkfs_step(run->opts, "done\n");
	return EXT4DEV_CONTINUE;
}

/* The boot sector goes too, unless it holds a BSD disklabel. */
static void zap_boot_sector(struct mkfs_run *run)
{
	unsigned char buf[512];
	__u32 magic;

	io_channel_set_blksize(run->fs->io, 512);
	if (!io_channel_read_blk64(run->fs->io, 0, -512, buf)) {
		memcpy(&magic, buf + 64, sizeof(magic));
		if (magic == 0x82564557U || magic == 0x57455682U) {
			io_channel_set_blksize(run->fs->io,
					       run->fs->blocksize);
			return;
		}
	}
	io_channel_set_blksize(run->fs->io, run->fs->blocksize);
	if (zap_sectors(run->fs, 0, 2))
		report_warn(run->plan->device, "could not erase the boot "
			    "sector");
}

/* Old RAID metadata at the device's end goes; the image gets its size. */
static int wipe_end(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	blk64_t rsv = 65536 / fs->blocksize;
	blk64_t blocks = ext2fs_blocks_count(fs->super);
	blk64_t start = blocks & ~(rsv - 1), bad = 0;
	errcode_t err;

	zap_boot_sector(run);
	if (start > rsv)
		start -= rsv;
	if (!start)
		return EXT4DEV_CONTINUE;
	err = ext2fs_zero_blocks2(fs, start, (int)(blocks - start), &bad,
				  NULL);
	if (err)
		return report_failure("'%s': %s (while zeroing block %llu at "
				      "the end of the filesystem)",
				      run->plan->device, error_message(err),
				      (unsigned long long)bad);
	return EXT4DEV_CONTINUE;
}

/* Inodes 1 to first_ino - 1, zeroed, so their checksums are valid. */
static errcode_t write_reserved_inodes(ext2_filsys fs)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode *inode = NULL;
	errcode_t err = ext2fs_get_memzero(isz, &inode);

	for (ext2_ino_t ino = 1; !err && ino < EXT2_FIRST_INO(fs->super);
	     ino++)
		err = ext2fs_write_inode_full(fs, ino, inode, (int)isz);
	ext2fs_free_mem(&inode);
	return err;
}

static unsigned int used_inodes(ext2_filsys fs, dgrp_t g)
{
	return fs->super->s_inodes_per_group - ext2fs_bg_itable_unused(fs, g);
}

static int write_inode_tables(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	bool zeroed = run->itable_zeroed;
	errcode_t err = 0;

	mkfs_step(run->opts, "Writing inode tables: ");
	for (dgrp_t g = 0; !err && g < fs->group_desc_count; g++) {
		blk64_t blk = ext2fs_inode_table_loc(fs, g);
		int num = (int)fs->inode_blocks_per_group;

		if (run->lazy_itable)
			num = (int)ext2fs_div_ceil(used_inodes(fs, g) * isz,
						   fs->blocksize);
		if (!run->lazy_itable || zeroed) {
			ext2fs_bg_flags_set(fs, g, EXT2_BG_INODE_ZEROED);
			ext2fs_group_desc_csum_set(fs, g);
		}
		if (!zeroed && num)
			err = ext2fs_zero_blocks2(fs, blk, num, NULL, NULL);
	}
	if (!err && ext2fs_has_feature_metadata_csum(fs->super))
		err = write_reserved_inodes(fs);
	if (err)
		return mkfs_fail(run, err, "writing inode tables");
	mkfs_step(run->opts, "done\n");
	return EXT4DEV_CONTINUE;
}

static errcode_t chown_root(struct mkfs_run *run)
{
	struct ext2_inode inode;
	errcode_t err = ext2fs_read_inode(run->fs, EXT2_ROOT_INO, &inode);

	if (err)
		return err;
	inode.i_uid = (__u16)run->plan->root_uid;
	ext2fs_set_i_uid_high(inode, run->plan->root_uid >> 16);
	inode.i_gid = (__u16)run->plan->root_gid;
	ext2fs_set_i_gid_high(inode, run->plan->root_gid >> 16);
	return ext2fs_write_new_inode(run->fs, EXT2_ROOT_INO, &inode);
}

/* lost+found: at least 16 KiB and two blocks, so e2fsck has room. */
static errcode_t make_lost_found(ext2_filsys fs)
{
	const char *name = "lost+found";
	unsigned int size = 0;
	ext2_ino_t ino;
	errcode_t err;

	fs->umask = 077;
	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, name);
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, name,
				    (int)strlen(name), 0, &ino);
	for (int i = 1; !err && i < EXT2_NDIR_BLOCKS; i++) {
		size += fs->blocksize;
		if (size >= 16 * 1024 && size >= 2 * fs->blocksize)
			break;
		err = ext2fs_expand_dir(fs, ino);
	}
	return err;
}

static int make_directories(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	errcode_t err = ext2fs_mkdir(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, 0);

	if (!err && (run->plan->root_uid || run->plan->root_gid))
		err = chown_root(run);
	if (err)
		return mkfs_fail(run, err, "creating the root directory");
	err = make_lost_found(fs);
	if (err)
		return mkfs_fail(run, err, "creating /lost+found");
	for (ext2_ino_t i = EXT2_ROOT_INO + 1; i < EXT2_FIRST_INODE(fs->super);
	     i++)
		ext2fs_inode_alloc_stats2(fs, i, 1, 0);
	ext2fs_mark_ib_dirty(fs);
	ext2fs_mark_inode_bitmap2(fs->inode_map, EXT2_BAD_INO);
	ext2fs_inode_alloc_stats2(fs, EXT2_BAD_INO, 1, 0);
	err = ext2fs_update_bb_inode(fs, NULL);
	if (err)
		return mkfs_fail(run, err, "setting the bad block inode");
	if (ext2fs_has_feature_resize_inode(fs->super)) {
		err = ext2fs_create_resize_inode(fs);
		if (err)
			return mkfs_fail(run, err, "reserving blocks for "
					 "online resize");
	}
	return EXT4DEV_CONTINUE;
}

int mkfs_write(struct mkfs_run *run)
{
	int rc = allocate_tables(run);

	if (rc == EXT4DEV_CONTINUE)
		rc = wipe_end(run);
	if (rc == EXT4DEV_CONTINUE)
		rc = write_inode_tables(run);
	if (rc == EXT4DEV_CONTINUE)
		rc = make_directories(run);
	return rc;
}
