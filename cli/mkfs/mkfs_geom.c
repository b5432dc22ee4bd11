// SPDX-License-Identifier: GPL-2.0
/*
 * The first half of mke2fs's decisions, in mke2fs's order: the device's
 * size, the fs_types list, the features, the block size and the block
 * count.  Order matters: the size class is taken in 1 KiB units before
 * the block size is known, and the features before the block size
 * decide whether 2^32 blocks fit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <e2p/e2p.h>

#include "exitcodes.h"
#include "fsio.h"
#include "mkfs.h"
#include "report.h"

/* What mke2fs lets -O and the conf file turn on (its ok_features). */
static __u32 ok_features[3] = {
	EXT3_FEATURE_COMPAT_HAS_JOURNAL | EXT2_FEATURE_COMPAT_RESIZE_INODE |
	EXT2_FEATURE_COMPAT_DIR_INDEX | EXT2_FEATURE_COMPAT_EXT_ATTR |
	EXT4_FEATURE_COMPAT_SPARSE_SUPER2 | EXT4_FEATURE_COMPAT_FAST_COMMIT |
	EXT4_FEATURE_COMPAT_STABLE_INODES | EXT4_FEATURE_COMPAT_ORPHAN_FILE,
	EXT2_FEATURE_INCOMPAT_FILETYPE | EXT3_FEATURE_INCOMPAT_EXTENTS |
	EXT3_FEATURE_INCOMPAT_JOURNAL_DEV | EXT2_FEATURE_INCOMPAT_META_BG |
	EXT4_FEATURE_INCOMPAT_FLEX_BG | EXT4_FEATURE_INCOMPAT_EA_INODE |
	EXT4_FEATURE_INCOMPAT_MMP | EXT4_FEATURE_INCOMPAT_64BIT |
	EXT4_FEATURE_INCOMPAT_INLINE_DATA | EXT4_FEATURE_INCOMPAT_ENCRYPT |
	EXT4_FEATURE_INCOMPAT_CASEFOLD | EXT4_FEATURE_INCOMPAT_CSUM_SEED |
	EXT4_FEATURE_INCOMPAT_LARGEDIR,
	EXT2_FEATURE_RO_COMPAT_LARGE_FILE | EXT4_FEATURE_RO_COMPAT_HUGE_FILE |
	EXT4_FEATURE_RO_COMPAT_DIR_NLINK | EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE |
	EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT4_FEATURE_RO_COMPAT_GDT_CSUM |
	EXT4_FEATURE_RO_COMPAT_BIGALLOC | EXT4_FEATURE_RO_COMPAT_QUOTA |
	EXT4_FEATURE_RO_COMPAT_METADATA_CSUM | EXT4_FEATURE_RO_COMPAT_PROJECT |
	EXT4_FEATURE_RO_COMPAT_VERITY,
};

int mkfs_probe_device(struct mkfs_ctl *ctl, const struct fsio_dev *dev)
{
	int bs = ctl->blocksize > 0 ? ctl->blocksize : EXT2_MIN_BLOCK_SIZE;
	struct fsio_target t;
	errcode_t err = fsio_stat_target(dev, (unsigned int)bs, &t);

	if (err == ENOENT && ctl->size_arg)
		return EXT4DEV_CONTINUE;	/* an image file to be created */
	if (err)
		return report_failure("'%s': %s%s", ctl->device,
				      error_message(err), err == ENOENT ?
				      " (give a size to create an image "
				      "file)" : "");
	ctl->dev_exists = true;
	ctl->dev_is_blk = t.is_blk;
	ctl->dev_all_holes = t.all_holes;
	ctl->dev_size = t.size;
	ctl->sector_size = t.sector_size;
	ctl->phys_sector_size = t.phys_sector_size;
	if (ctl->dev_is_blk && ctl->size_arg && ctl->fs_blocks > ctl->dev_size)
		return report_failure("'%s': size %s is larger than the device "
				      "(%llu blocks of %d bytes)", ctl->device,
				      ctl->size_arg,
				      (unsigned long long)ctl->dev_size, bs);
	return EXT4DEV_CONTINUE;
}

/* The block count from the device when SIZE was not given. */
static int size_from_device(struct mkfs_ctl *ctl)
{
	unsigned int bs = EXT2_BLOCK_SIZE(&ctl->param);

	if (ctl->size_arg)
		return EXT4DEV_CONTINUE;
	if (!ctl->dev_size)
		return report_failure("'%s': the device size is zero (give "
				      "a size to make an image file)",
				      ctl->device);
	ctl->fs_blocks = ctl->dev_size;
	if (ctl->sys_page_size > bs)
		ctl->fs_blocks &= ~((blk64_t)(ctl->sys_page_size / bs) - 1);
	return EXT4DEV_CONTINUE;
}

static int pick_types(struct mkfs_ctl *ctl)
{
	const struct mkfs_conf_node *n;
	const char *type = ctl->fs_type, *usage = ctl->usage_types;
	errcode_t err;

	n = mkfs_conf_find(&ctl->conf, "devices", ctl->device, "fs_type");
	if (!type && n)
		type = n->value;
	n = mkfs_conf_find(&ctl->conf, "devices", ctl->device, "usage_types");
	if (!usage && n)
		usage = n->value;
	err = mkfs_prof_init(&ctl->prof, &ctl->conf, type, usage,
			     mkfs_prof_size_type(ctl->fs_blocks,
						 (int)ctl->param.s_log_block_size));
	if (err == ENOENT && !ctl->force)
		return report_failure("'%s' does not define the filesystem "
				      "type '%s' (-F to go on without it)",
				      ctl->conf.file, ctl->prof.types[0]);
	if (err && err != ENOENT)
		return report_failure("%s", error_message(err));
	if (ctl->prof.unknown[0])
		report_warn(ctl->conf.file, "does not define the usage "
			    "type(s) %s", ctl->prof.unknown);
	if (ctl->verbose) {
		printf("fs_types for mke2fs.conf resolution: ");
		for (int i = 0; i < ctl->prof.ntypes; i++)
			printf("'%s'%s", ctl->prof.types[i],
			       i + 1 < ctl->prof.ntypes ? ", " : "\n");
	}
	return EXT4DEV_CONTINUE;
}

/* Apply one feature list; @where is NULL for -O (a usage error). */
static int edit_features(struct mkfs_ctl *ctl, const char *list,
			 const char *where)
{
	if (!list || !e2p_edit_feature2(list, &ctl->param.s_feature_compat,
					ok_features, NULL, NULL, NULL))
		return EXT4DEV_CONTINUE;
	if (!where)
		return report_usage(EXT4DEV_MKFS_CMD, "invalid filesystem "
				    "feature list '%s'", list);
	return report_failure("'%s': %s: invalid feature list '%s'",
			      ctl->conf.file, where, list);
}

static int conf_features(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	const char *s;
	int rc;

	if (mkfs_prof_string(&ctl->prof, "base_features",
			     "sparse_super,large_file,filetype,resize_inode,"
			     "dir_index", &s))
		return mkfs_prof_error(ctl);
	rc = edit_features(ctl, s, "base_features");
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	mkfs_prof_string(&ctl->prof, "default_mntopts", "acl,user_xattr", &s);
	if (s && e2p_edit_mntopts(s, &p->s_default_mount_opts, ~0U))
		return report_failure("'%s': invalid default_mntopts '%s'",
				      ctl->conf.file, s);
	for (int i = 0; i < ctl->prof.ntypes; i++) {
		rc = edit_features(ctl, mkfs_prof_type_value(&ctl->prof, i,
							     "features"),
				   ctl->prof.types[i]);
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	return EXT4DEV_CONTINUE;
}

static int pick_features(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	bool orphan, seed;
	const char *def;
	int rc = conf_features(ctl);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	mkfs_prof_string(&ctl->prof, "default_features", "", &def);
	if (!ctl->features) {
		rc = edit_features(ctl, def, "default_features");
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	orphan = ext2fs_has_feature_orphan_file(p);
	seed = ext2fs_has_feature_csum_seed(p);
	rc = edit_features(ctl, ctl->features, NULL);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	/* Defaults that need what the user turned off go quietly. */
	if (orphan && !ext2fs_has_feature_journal(p))
		ext2fs_clear_feature_orphan_file(p);
	if (seed && !ext2fs_has_feature_metadata_csum(p))
		ext2fs_clear_feature_csum_seed(p);
	if (ext2fs_has_feature_journal_dev(p))
		return report_usage(EXT4DEV_MKFS_CMD, "feature 'journal_dev' "
				    "is not supported by ext4dev mkfs");
	return EXT4DEV_CONTINUE;
}

static int pick_block_size(struct mkfs_ctl *ctl)
{
	int bs = ctl->blocksize, use;

	if (bs <= 0) {
		if (mkfs_prof_int(&ctl->prof, "blocksize", 4096, &use))
			return mkfs_prof_error(ctl);
		if (use == -1)
			use = (int)ctl->sys_page_size;
		if (ctl->sector_size && use < (int)ctl->sector_size)
			use = (int)ctl->sector_size;
		if (bs < 0 && use < -bs)
			use = -bs;
		if (use < EXT2_MIN_BLOCK_SIZE || use > EXT2_MAX_BLOCK_SIZE ||
		    (use & (use - 1)))
			return report_failure("'%s': invalid blocksize %d",
					      ctl->conf.file, use);
		bs = use;
		ctl->fs_blocks /= (blk64_t)(bs / 1024);
	} else if (bs < (int)ctl->sector_size) {
		return report_failure("'%s': block size %d is smaller than "
				      "the device's sector size %u",
				      ctl->device, bs, ctl->sector_size);
	} else if (bs < (int)ctl->phys_sector_size &&
		   ctl->phys_sector_size <= ctl->sys_page_size) {
		report_warn(ctl->device, "block size %d is less than the "
			    "device's physical sector size %u", bs,
			    ctl->phys_sector_size);
	}
	ctl->blocksize = bs;
	ctl->param.s_log_block_size = (__u32)(mkfs_log2((unsigned)bs) - 10);
	return EXT4DEV_CONTINUE;
}

static int check_block_count(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	bool auto64;

	if (mkfs_prof_bool(&ctl->prof, "auto_64-bit_support", false, &auto64))
		return mkfs_prof_error(ctl);
	if (ctl->fs_blocks > EXT4DEV_MAX_32 && ext2fs_has_feature_64bit(p))
		ext2fs_clear_feature_resize_inode(p);
	if (ctl->fs_blocks > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p) &&
	    auto64) {
		ext2fs_set_feature_64bit(p);
		ext2fs_clear_feature_resize_inode(p);
	}
	if (ctl->fs_blocks > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p))
		return report_failure("'%s': %llu blocks of %d bytes do not "
				      "fit in 32 bits without the 64bit "
				      "feature (^64bit conflicts with the "
				      "size)", ctl->device,
				      (unsigned long long)ctl->fs_blocks,
				      ctl->blocksize);
	if (ctl->fs_blocks >
	    (1ULL << (EXT2_BLOCK_SIZE_BITS(p) + 3 + 32)) - 1)
		return report_failure("'%s': %llu blocks are too many for a "
				      "block size of %d", ctl->device,
				      (unsigned long long)ctl->fs_blocks,
				      ctl->blocksize);
	ext2fs_blocks_count_set(p, ctl->fs_blocks);
	return EXT4DEV_CONTINUE;
}

int mkfs_geometry(struct mkfs_ctl *ctl)
{
	long page = sysconf(_SC_PAGESIZE);
	int rc;

	ctl->sys_page_size = page > 0 ? (unsigned int)page : 4096;
	ctl->param.s_rev_level = EXT2_DYNAMIC_REV;
	ctl->param.s_blocks_per_group = ctl->blocks_per_group;
	if (ctl->blocksize > 0)
		ctl->param.s_log_block_size =
			(__u32)(mkfs_log2((unsigned)ctl->blocksize) - 10);
	rc = size_from_device(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_types(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_features(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_block_size(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_block_count(ctl);
	return rc;
}
