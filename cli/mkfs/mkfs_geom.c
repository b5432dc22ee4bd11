// SPDX-License-Identifier: GPL-2.0
/*
 * The device stage (what the target is, how many blocks it holds) and
 * the geometry stage: the first half of mke2fs's decisions, in its
 * order: features, block size, block count.  Order matters: the size
 * class (for the configuration stage, between the two) is taken in
 * 1 KiB units before the block size is known, and the features decide,
 * before the block size, whether 2^32 blocks fit.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <e2p/e2p.h>

#include "exitcodes.h"
#include "fsio.h"
#include "mkfs.h"
#include "mkfs_config.h"
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

void mkfs_plan_init(struct mkfs_plan *plan, const struct mkfs_opts *o)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(plan, 0, sizeof(*plan));
	plan->device = o->device;
	plan->sys_page_size = page > 0 ? (unsigned int)page : 4096;
	plan->blocksize = o->blocksize;
	plan->inode_ratio = o->inode_ratio;
	plan->inode_size = o->inode_size;
	plan->reserved_ratio = o->reserved_ratio;
	plan->fs_blocks = o->fs_blocks;
	plan->journal_blk_loc = ~0ULL;
	plan->lazy_itable_init = EXT4DEV_UNSET;
	plan->lazy_journal_init = EXT4DEV_UNSET;
	plan->discard = EXT4DEV_UNSET;
	plan->packed_meta_blocks = EXT4DEV_UNSET;
	plan->num_backups = EXT4DEV_UNSET;
	plan->assume_prezeroed = EXT4DEV_UNSET;
	plan->quota_types = 3;		/* user and group, as in mke2fs */
	plan->param.s_rev_level = EXT2_DYNAMIC_REV;
	plan->param.s_blocks_per_group = o->blocks_per_group;
	if (o->blocksize > 0)
		plan->param.s_log_block_size =
			(__u32)(mkfs_log2((unsigned int)o->blocksize) - 10);
}

/*
 * Is @path a symbolic link to nothing?  stat() says ENOENT for one, and
 * the image file is created O_EXCL, which does not follow it: "File
 * exists".  mke2fs creates the link's target; we make no file at a
 * path the user did not name, and say so.  Fills @target.
 */
static bool dangling_link(const char *path, char *target, size_t len)
{
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return false;
	n = readlink(path, target, len - 1);
	target[n > 0 ? n : 0] = '\0';
	return true;
}

int mkfs_probe_device(const struct mkfs_opts *o, const struct fsio_dev *dev,
		      struct mkfs_plan *plan)
{
	int bs = plan->blocksize > 0 ? plan->blocksize : EXT2_MIN_BLOCK_SIZE;
	struct fsio_target t;
	errcode_t err = fsio_stat_target(dev, (unsigned int)bs, &t);
	char target[PATH_MAX];

	/* The image file lock_device() just made is the one to create. */
	if (dev->target_created)
		return EXT4DEV_CONTINUE;

	if (err == ENOENT && dangling_link(dev->path, target, sizeof(target)))
		return report_failure("'%s': is a dangling symbolic link to "
				      "'%s' (refusing to create its target)",
				      plan->device, target);
	if (err == ENOENT && o->size_arg)
		return EXT4DEV_CONTINUE;	/* an image file to create */
	if (err)
		return report_failure("'%s': %s%s", plan->device,
				      error_message(err), err == ENOENT ?
				      " (give a size to create an image "
				      "file)" : "");
	plan->dev_exists = true;
	plan->dev_is_blk = t.is_blk;
	plan->dev_all_holes = t.all_holes;
	plan->dev_size = t.size;
	plan->sector_size = t.sector_size;
	plan->phys_sector_size = t.phys_sector_size;
	if (plan->dev_is_blk && o->size_arg && plan->fs_blocks > plan->dev_size)
		return report_failure("'%s': size %s is larger than the device "
				      "(%llu blocks of %d bytes)", plan->device,
				      o->size_arg,
				      (unsigned long long)plan->dev_size, bs);
	return EXT4DEV_CONTINUE;
}

/* The block count from the device when SIZE was not given. */
int mkfs_device_size(const struct mkfs_opts *o, struct mkfs_plan *plan)
{
	unsigned int bs = EXT2_BLOCK_SIZE(&plan->param);

	if (o->size_arg)
		return EXT4DEV_CONTINUE;
	if (!plan->dev_size)
		return report_failure("'%s': the device size is zero (give "
				      "a size to make an image file)",
				      plan->device);
	plan->fs_blocks = plan->dev_size;
	if (plan->sys_page_size > bs)
		plan->fs_blocks &= ~((blk64_t)(plan->sys_page_size / bs) - 1);
	return EXT4DEV_CONTINUE;
}

/* Apply one feature list; @where is NULL for -O (a usage error). */
static int edit_features(const struct mkfs_config *cfg,
			 struct mkfs_plan *plan, const char *list,
			 const char *where)
{
	if (!list || !e2p_edit_feature2(list, &plan->param.s_feature_compat,
					ok_features, NULL, NULL, NULL))
		return EXT4DEV_CONTINUE;
	if (!where)
		return report_usage(EXT4DEV_MKFS_CMD, "invalid filesystem "
				    "feature list '%s'", list);
	return report_failure("'%s': %s: invalid feature list '%s'",
			      cfg->file, where, list);
}

static int conf_features(const struct mkfs_config *cfg,
			 struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	const char *s;
	int rc;

	s = mkfs_cfg_str(&cfg->base_features, "sparse_super,large_file,"
			 "filetype,resize_inode,dir_index");
	rc = edit_features(cfg, plan, s, "base_features");
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	s = mkfs_cfg_str(&cfg->default_mntopts, "acl,user_xattr");
	if (s && e2p_edit_mntopts(s, &p->s_default_mount_opts, ~0U))
		return report_failure("'%s': invalid default_mntopts '%s'",
				      cfg->file, s);
	for (int i = 0; i < cfg->ntypes; i++) {
		rc = edit_features(cfg, plan, cfg->type_features[i],
				   cfg->types[i]);
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	return EXT4DEV_CONTINUE;
}

static int pick_features(const struct mkfs_opts *o,
			 const struct mkfs_config *cfg, struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	bool orphan, seed;
	int rc = conf_features(cfg, plan);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (!o->features) {
		rc = edit_features(cfg, plan,
				   mkfs_cfg_str(&cfg->default_features, ""),
				   "default_features");
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	orphan = ext2fs_has_feature_orphan_file(p);
	seed = ext2fs_has_feature_csum_seed(p);
	rc = edit_features(cfg, plan, o->features, NULL);
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

static int pick_block_size(const struct mkfs_config *cfg,
			   struct mkfs_plan *plan)
{
	int bs = plan->blocksize, use;

	if (bs <= 0) {
		if (mkfs_cfg_int(&cfg->blocksize, 4096, &use) !=
		    EXT4DEV_CONTINUE)
			return EXT4DEV_EXIT_FAILURE;
		if (use == -1)
			use = (int)plan->sys_page_size;
		if (plan->sector_size && use < (int)plan->sector_size)
			use = (int)plan->sector_size;
		if (bs < 0 && use < -bs)
			use = -bs;
		if (use < EXT2_MIN_BLOCK_SIZE || use > EXT2_MAX_BLOCK_SIZE ||
		    (use & (use - 1)))
			return report_failure("'%s': invalid blocksize %d",
					      cfg->file, use);
		bs = use;
		plan->fs_blocks /= (blk64_t)(bs / 1024);
	} else if (bs < (int)plan->sector_size) {
		return report_failure("'%s': block size %d is smaller than "
				      "the device's sector size %u",
				      plan->device, bs, plan->sector_size);
	} else if (bs < (int)plan->phys_sector_size &&
		   plan->phys_sector_size <= plan->sys_page_size) {
		report_warn(plan->device, "block size %d is less than the "
			    "device's physical sector size %u", bs,
			    plan->phys_sector_size);
	}
	plan->blocksize = bs;
	plan->param.s_log_block_size = (__u32)(mkfs_log2((unsigned)bs) - 10);
	return EXT4DEV_CONTINUE;
}

static int check_block_count(const struct mkfs_config *cfg,
			     struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	bool auto64;
	int rc = mkfs_cfg_bool(&cfg->auto_64bit, false, &auto64);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (plan->fs_blocks > EXT4DEV_MAX_32 && ext2fs_has_feature_64bit(p))
		ext2fs_clear_feature_resize_inode(p);
	if (plan->fs_blocks > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p) &&
	    auto64) {
		ext2fs_set_feature_64bit(p);
		ext2fs_clear_feature_resize_inode(p);
	}
	if (plan->fs_blocks > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p))
		return report_failure("'%s': %llu blocks of %d bytes do not "
				      "fit in 32 bits without the 64bit "
				      "feature (^64bit conflicts with the "
				      "size)", plan->device,
				      (unsigned long long)plan->fs_blocks,
				      plan->blocksize);
	if (plan->fs_blocks >
	    (1ULL << (EXT2_BLOCK_SIZE_BITS(p) + 3 + 32)) - 1)
		return report_failure("'%s': %llu blocks are too many for a "
				      "block size of %d", plan->device,
				      (unsigned long long)plan->fs_blocks,
				      plan->blocksize);
	ext2fs_blocks_count_set(p, plan->fs_blocks);
	return EXT4DEV_CONTINUE;
}

int mkfs_geometry(const struct mkfs_opts *o, const struct mkfs_config *cfg,
		  struct mkfs_plan *plan)
{
	int rc = pick_features(o, cfg, plan);

	if (rc == EXT4DEV_CONTINUE)
		rc = pick_block_size(cfg, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_block_count(cfg, plan);
	return rc;
}
