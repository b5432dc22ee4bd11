// SPDX-License-Identifier: GPL-2.0
/*
 * Backup superblocks that disagree with the primary.  A foreign tool,
 * or an e2fsck that rewrote only the primary, can leave the primary
 * with the wanted flag and backups without it; a later restore from a
 * backup would bring the old state back.  Reading the copies costs one
 * kilobyte each (about two dozen on 15 TiB with sparse_super), and
 * only the copies that differ are written, primary untouched.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"

/* Where group @g keeps its superblock copy, in bytes; 0 for none. */
static off_t backup_offset(ext2_filsys fs, dgrp_t g)
{
	blk64_t super_blk = 0;

	if (!ext2fs_bg_has_super(fs, g))
		return 0;
	ext2fs_super_and_bgd_loc2(fs, g, &super_blk, NULL, NULL, NULL);
	return (off_t)super_blk * fs->blocksize;
}

/* Magic, @mask bits of s_flags and checksum: does copy @raw agree? */
static bool copy_agrees(ext2_filsys fs, struct ext2_super_block *raw,
			uint32_t mask)
{
#ifdef WORDS_BIGENDIAN
	ext2fs_swap_super(raw);
#endif
	if (raw->s_magic != EXT2_SUPER_MAGIC)
		return false;
	if ((raw->s_flags ^ fs->super->s_flags) & mask)
		return false;
	return ext2fs_superblock_csum_verify(fs, raw);
}

static errcode_t note_stale(struct fsio_dev *dev, dgrp_t g)
{
	errcode_t err;

	err = ext2fs_resize_mem(dev->nstale * sizeof(dgrp_t),
				(dev->nstale + 1) * sizeof(dgrp_t),
				&dev->stale);
	if (!err)
		dev->stale[dev->nstale++] = g;
	return err;
}

errcode_t fsio_find_stale_backups(struct fsio_dev *dev, uint32_t mask)
{
	struct ext2_super_block *raw;
	ext2_filsys fs = dev->fs;
	errcode_t err;

	if (!fs || dev->lock_fd < 0)
		return EXT2_ET_INVALID_ARGUMENT;
	ext2fs_free_mem(&dev->stale);
	dev->nstale = 0;
	/* A journal device has no backups (libext2fs writes none). */
	if (ext2fs_has_feature_journal_dev(fs->super))
		return 0;
	err = ext2fs_get_mem(SUPERBLOCK_SIZE, &raw);
	if (err)
		return err;
	for (dgrp_t g = 1; g < fs->group_desc_count && !err; g++) {
		off_t off = backup_offset(fs, g);
		ssize_t n;

		if (!off)
			continue;
		/* Our own descriptor: no libext2fs cache block of 4 KiB. */
		n = pread(dev->lock_fd, raw, SUPERBLOCK_SIZE, off);
		if (n != SUPERBLOCK_SIZE)
			err = n < 0 ? (errcode_t)errno : EXT2_ET_SHORT_READ;
		else if (!copy_agrees(fs, raw, mask))
			err = note_stale(dev, g);
	}
	ext2fs_free_mem(&raw);
	return err;
}

/* libext2fs's backup form: group number, state as flush writes it. */
static errcode_t write_backup(ext2_filsys fs, struct ext2_super_block *sb,
			      dgrp_t g)
{
	errcode_t err;

	sb->s_block_group_nr = g > 0xffff ? 0xffff : g;
	err = ext2fs_superblock_csum_set(fs, sb);
	if (err)
		return err;
#ifdef WORDS_BIGENDIAN
	ext2fs_swap_super(sb);
#endif
	err = io_channel_write_blk64(fs->io, backup_offset(fs, g) /
				     fs->blocksize, -SUPERBLOCK_SIZE, sb);
#ifdef WORDS_BIGENDIAN
	ext2fs_swap_super(sb);
#endif
	return err;
}

errcode_t fsio_commit_backups(struct fsio_dev *dev,
			      const struct fsio_write_opts *opts)
{
	struct ext2_super_block *sb;
	ext2_filsys fs;
	errcode_t err;

	err = fsio_reopen_rw(dev, opts, &fs);
	if (err)
		return err;
	err = ext2fs_get_mem(SUPERBLOCK_SIZE, &sb);
	if (err)
		goto out;
	memcpy(sb, fs->super, SUPERBLOCK_SIZE);
	/* As ext2fs_flush() writes every backup. */
	sb->s_state &= ~EXT2_VALID_FS;
	ext2fs_clear_feature_journal_needs_recovery(sb);
	for (unsigned int i = 0; i < dev->nstale && !err; i++)
		err = write_backup(fs, sb, dev->stale[i]);
	ext2fs_free_mem(&sb);
	/* flush is fsync: the backups are on disk before we say so. */
	if (!err)
		err = io_channel_flush(fs->io);
out:
	/* Never ext2fs_close(): it would rewrite every copy. */
	ext2fs_free(fs);
	return err;
}
