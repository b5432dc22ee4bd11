// SPDX-License-Identifier: GPL-2.0
/*
 * After the directories: the journal, MMP, the overhead count, bigalloc's
 * per-group free counts, the orphan file, and ext2fs_close(), which
 * writes the superblock, its backups, the group descriptors and the
 * bitmaps.
 */
#include <stdio.h>

#include "exitcodes.h"
#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

static int add_journal(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	unsigned int total = run->jp.num_journal_blocks + run->jp.num_fc_blocks;
	int flags = EXT2_MKJOURNAL_NO_MNT_CHECK;
	errcode_t err;

	if (!run->opts->journal_size && !ext2fs_has_feature_journal(fs->super))
		return EXT4DEV_CONTINUE;
	run->overhead += EXT2FS_NUM_B2C(fs, total);
	if (!run->jp.num_journal_blocks) {
		/* Too small for one: no journal, and so no orphan file. */
		ext2fs_clear_feature_journal(fs->super);
		ext2fs_clear_feature_orphan_file(fs->super);
		return EXT4DEV_CONTINUE;
	}
	if (run->lazy_journal)
		flags |= EXT2_MKJOURNAL_LAZYINIT;
	mkfs_step(run->opts, "Creating journal (%u blocks): ", total);
	fflush(stdout);
	err = ext2fs_add_journal_inode3(fs, &run->jp,
					run->plan->journal_blk_loc, flags);
	if (err)
		return mkfs_fail(run, err, "creating the journal");
	mkfs_step(run->opts, "done\n");
	return EXT4DEV_CONTINUE;
}

static int add_mmp(struct mkfs_run *run)
{
	errcode_t err;

	if (!ext2fs_has_feature_mmp(run->fs->super))
		return EXT4DEV_CONTINUE;
	err = ext2fs_mmp_init(run->fs);
	if (err)
		return mkfs_fail(run, err, "enabling multiple mount "
				 "protection");
	mkfs_step(run->opts, "Multiple mount protection is enabled with "
		  "update interval %d seconds.\n",
		  run->fs->super->s_mmp_update_interval);
	return EXT4DEV_CONTINUE;
}

/* bigalloc: free counts in clusters, per group and in total. */
static void fix_cluster_counts(ext2_filsys fs)
{
	blk64_t blk = fs->super->s_first_data_block, next, end;
	blk64_t nblocks = ext2fs_blocks_count(fs->super), total = 0;
	dgrp_t g = 0;
	unsigned int grp_free = 0;

	end = ext2fs_group_last_block2(fs, g);
	while (blk < nblocks) {
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, blk,
							 end, &next)) {
			blk = end + 1;
		} else {
			blk = next;
			if (ext2fs_find_first_set_block_bitmap2(fs->block_map,
								blk, end,
								&next))
				next = end + 1;
			grp_free += (unsigned int)EXT2FS_NUM_B2C(fs, next - blk);
			total += next - blk;
			blk = next;
		}
		if (blk > end) {
			ext2fs_bg_free_blocks_count_set(fs, g, grp_free);
			ext2fs_group_desc_csum_set(fs, g);
			grp_free = 0;
			g++;
			end = ext2fs_group_last_block2(fs, g);
		}
	}
	ext2fs_free_blocks_count_set(fs->super, total);
}

static int add_orphan_file(struct mkfs_run *run)
{
	blk64_t blocks = run->plan->orphan_file_blocks;
	errcode_t err;

	if (!ext2fs_has_feature_orphan_file(run->fs->super))
		return EXT4DEV_CONTINUE;
	if (!ext2fs_has_feature_journal(run->fs->super))
		return report_failure("'%s': the orphan_file feature needs a "
				      "journal", run->plan->device);
	if (!blocks)
		blocks = (blk64_t)ext2fs_default_orphan_file_blocks(run->fs);
	err = ext2fs_create_orphan_file(run->fs, (blk_t)blocks);
	if (err)
		return mkfs_fail(run, err, "creating the orphan file");
	return EXT4DEV_CONTINUE;
}

int mkfs_finish(struct mkfs_run *run)
{
	ext2_filsys fs = run->fs;
	int rc = add_journal(run);

	if (rc == EXT4DEV_CONTINUE)
		rc = add_mmp(run);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	run->overhead += fs->super->s_first_data_block;
	fs->super->s_overhead_clusters = (__u32)run->overhead;
	if (ext2fs_has_feature_bigalloc(run->fs->super))
		fix_cluster_counts(fs);
	return EXT4DEV_CONTINUE;
}

int mkfs_orphan(struct mkfs_run *run)
{
	return add_orphan_file(run);
}

int mkfs_close(struct mkfs_run *run)
{
	errcode_t err;

	mkfs_step(run->opts, "Writing superblocks and filesystem accounting "
		  "information: ");
	err = ext2fs_close2(run->fs, 0);
	if (err)
		return mkfs_fail(run, err, "writing out and closing the "
			    "filesystem");
	run->fs = NULL;		/* ext2fs_close2() freed it */
	mkfs_step(run->opts, "done\n\n");
	return EXT4DEV_CONTINUE;
}
