// SPDX-License-Identifier: GPL-2.0
/*
 * The second half of mke2fs's decisions, once the block size and count
 * are known: reserved ratio, cluster size, inode ratio and size, flex_bg,
 * the conf's and the user's -E options, the inode count.  Conflicts
 * between options are operational errors (exit 8) that name the option.
 */
#include <stdio.h>
#include <string.h>

#include <blkid/blkid.h>
#include <e2p/e2p.h>

#include "exitcodes.h"
#include "mkfs.h"
#include "mkfs_config.h"
#include "report.h"

static int conflict(const struct mkfs_plan *plan, const char *what)
{
	return report_failure("'%s': %s", plan->device, what);
}

static int pick_ratios(const struct mkfs_opts *o,
		       const struct mkfs_config *cfg, struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	int cluster = o->cluster_size;

	if (o->journal_size)
		ext2fs_set_feature_journal(p);
	if (plan->reserved_ratio < 0) {
		if (mkfs_cfg_double(&cfg->reserved_ratio, 5.0,
				    &plan->reserved_ratio) != EXT4DEV_CONTINUE)
			return EXT4DEV_EXIT_FAILURE;
		if (plan->reserved_ratio > 50 || plan->reserved_ratio < 0)
			return report_failure("'%s': invalid reserved_ratio "
					      "%g", cfg->file,
					      plan->reserved_ratio);
	}
	if (ext2fs_has_feature_64bit(p) && !ext2fs_has_feature_extents(p))
		return conflict(plan, "the 64bit feature needs extents "
				"(-O extents, or -O ^64bit)");
	if (ext2fs_has_feature_bigalloc(p)) {
		if (!cluster && mkfs_cfg_int(&cfg->cluster_size,
					     plan->blocksize * 16, &cluster) !=
				EXT4DEV_CONTINUE)
			return EXT4DEV_EXIT_FAILURE;
		p->s_log_cluster_size =
			(__u32)mkfs_log2((unsigned int)cluster >> 10);
		if (p->s_log_cluster_size &&
		    p->s_log_cluster_size < p->s_log_block_size)
			return conflict(plan, "the cluster size (-C) may not "
					"be smaller than the block size (-b)");
	} else if (cluster) {
		return conflict(plan, "a cluster size (-C) needs the bigalloc "
				"feature (-O bigalloc)");
	} else {
		p->s_log_cluster_size = p->s_log_block_size;
	}
	if (!plan->inode_ratio) {
		if (mkfs_cfg_int(&cfg->inode_ratio, 8192, &plan->inode_ratio) !=
		    EXT4DEV_CONTINUE)
			return EXT4DEV_EXIT_FAILURE;
		if (plan->inode_ratio < plan->blocksize)
			plan->inode_ratio = plan->blocksize;
		if (plan->inode_ratio < (int)EXT2_CLUSTER_SIZE(p))
			plan->inode_ratio = (int)EXT2_CLUSTER_SIZE(p);
	}
	return EXT4DEV_CONTINUE;
}

/* RAID geometry from the block layer, as mke2fs takes it. */
static void device_topology(struct mkfs_plan *plan)
{
	unsigned long min_io, opt_io, bs = (unsigned long)plan->blocksize;
	blkid_topology tp;
	blkid_probe pr;

	if (!plan->dev_is_blk)
		return;
	pr = blkid_new_probe_from_filename(plan->device);
	tp = pr ? blkid_probe_get_topology(pr) : NULL;
	if (tp) {
		min_io = blkid_topology_get_minimum_io_size(tp);
		opt_io = blkid_topology_get_optimal_io_size(tp);
		if (!min_io && plan->phys_sector_size > bs)
			min_io = plan->phys_sector_size;
		if (!opt_io && min_io)
			opt_io = min_io;
		if (!opt_io && plan->phys_sector_size > bs)
			opt_io = plan->phys_sector_size;
		if (min_io > bs)
			plan->param.s_raid_stride = (__u16)(min_io / bs);
		if (opt_io > bs)
			plan->param.s_raid_stripe_width = (__u32)(opt_io / bs);
	}
	if (pr)
		blkid_free_probe(pr);
}

static int conf_switches(const struct mkfs_opts *o,
			 const struct mkfs_config *cfg, struct mkfs_plan *plan)
{
	const char *loc;
	bool lazy_it, discard, lazy_j, packed, huge;
	int rc = mkfs_cfg_int(&cfg->num_backup_sb, 2, &plan->num_backups);

	/* lazy_itable_init defaults on: every kernel since 2.6.37. */
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_cfg_bool(&cfg->lazy_itable_init, true, &lazy_it);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_cfg_bool(&cfg->discard, true, &discard);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_cfg_bool(&cfg->lazy_journal_init, false, &lazy_j);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_cfg_bool(&cfg->packed_meta_blocks, false, &packed);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_cfg_bool(&cfg->make_hugefiles, false, &huge);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (huge)
		report_warn(cfg->file, "make_hugefiles is not supported by "
			    "ext4dev mkfs; no huge files are made");
	plan->lazy_itable_init = lazy_it;
	plan->discard = discard;
	plan->lazy_journal_init = lazy_j;
	plan->packed_meta_blocks = packed;
	plan->assume_prezeroed = 0;
	loc = o->journal_location;
	if (!loc)
		loc = mkfs_cfg_str(&cfg->journal_location, "");
	if (loc && *loc) {
		plan->journal_blk_loc = mkfs_parse_num(loc, (int)
						plan->param.s_log_block_size);
		if (!plan->journal_blk_loc && strcmp(loc, "0"))
			return report_usage(EXT4DEV_MKFS_CMD, "invalid journal "
					    "location '%s'", loc);
	}
	if (packed)
		plan->journal_blk_loc = 0;
	return EXT4DEV_CONTINUE;
}

static int apply_ext_opts(const struct mkfs_opts *o,
			  const struct mkfs_config *cfg, struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	char where[160];
	const char *opts;
	int rc, enc;

	if (ext2fs_has_feature_64bit(p))
		p->s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	if (ext2fs_has_feature_casefold(p)) {
		opts = mkfs_cfg_str(&cfg->encoding, "utf8");
		enc = e2p_str2encoding(opts);
		if (enc < 0)
			return report_failure("'%s': unknown encoding '%s'",
					      cfg->file, opts);
		p->s_encoding = (__u16)enc;
		p->s_encoding_flags = (__u16)e2p_get_encoding_flags(enc);
	}
	for (int i = 0; i < cfg->ntypes; i++) {
		opts = cfg->type_options[i];
		snprintf(where, sizeof(where), "'%s': [fs_types] %s options",
			 cfg->file, cfg->types[i]);
		rc = opts ? mkfs_parse_ext_opts(plan, opts, where) :
			    EXT4DEV_CONTINUE;
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	return o->ext_opts ? mkfs_parse_ext_opts(plan, o->ext_opts, NULL)
			     : EXT4DEV_CONTINUE;
}

static int check_features(const struct mkfs_opts *o,
			  struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bpg = o->blocks_per_group;

	if (ext2fs_has_feature_metadata_csum(p))
		ext2fs_clear_feature_gdt_csum(p);
	if (ext2fs_has_feature_bigalloc(p) && !ext2fs_has_feature_extents(p))
		return conflict(plan, "bigalloc needs the extent feature");
	if (ext2fs_has_feature_meta_bg(p) && ext2fs_has_feature_resize_inode(p))
		return conflict(plan, "the resize_inode and meta_bg features "
				"cannot both be enabled (-O ^resize_inode)");
	if (!o->quiet && ext2fs_has_feature_bigalloc(p) &&
	    EXT2_CLUSTER_SIZE(p) > 16 * EXT2_BLOCK_SIZE(p))
		report_warn(NULL, "bigalloc with a cluster size above 16 "
			    "blocks is experimental");
	if (ext2fs_has_feature_orphan_file(p) &&
	    !ext2fs_has_feature_journal(p))
		return conflict(plan, "the orphan_file feature needs a "
				"journal");
	if (ext2fs_has_feature_csum_seed(p) &&
	    !ext2fs_has_feature_metadata_csum(p))
		return conflict(plan, "metadata_csum_seed needs metadata_csum");
	if (ext2fs_has_feature_resize_inode(p) &&
	    !ext2fs_has_feature_sparse_super(p))
		return conflict(plan, "resize_inode needs sparse_super "
				"(reserved online resize blocks)");
	if (bpg && (bpg < 256 || bpg > 8U * (unsigned)plan->blocksize))
		return conflict(plan, "blocks per group (-g) out of range");
	/* With bigalloc, -g counts clusters. */
	if (ext2fs_has_feature_bigalloc(p)) {
		p->s_clusters_per_group = p->s_blocks_per_group;
		p->s_blocks_per_group = 0;
	}
	return EXT4DEV_CONTINUE;
}

static int pick_inode_size(const struct mkfs_opts *o,
			   const struct mkfs_config *cfg,
			   struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int isz = plan->inode_size, flex = (unsigned)o->flex_bg_size;
	int conf_isz;
	bool warn;

	if (ext2fs_has_feature_project(p)) {
		plan->quota_types |= 4;
		if (isz == EXT2_GOOD_OLD_INODE_SIZE)
			return conflict(plan, "128-byte inodes (-I 128) are "
					"too small for project quota");
	}
	if (!isz) {
		if (mkfs_cfg_int(&cfg->inode_size, 0, &conf_isz) !=
		    EXT4DEV_CONTINUE)
			return EXT4DEV_EXIT_FAILURE;
		isz = conf_isz < 0 ? 1 : (unsigned int)conf_isz;
		/* Project ids live in the large inode. */
		if (ext2fs_has_feature_project(p) &&
		    isz <= EXT2_GOOD_OLD_INODE_SIZE * 2)
			isz = EXT2_GOOD_OLD_INODE_SIZE * 2;
	}
	if (!flex && ext2fs_has_feature_flex_bg(p) &&
	    mkfs_cfg_uint(&cfg->flex_bg_size, 16, &flex) != EXT4DEV_CONTINUE)
		return EXT4DEV_EXIT_FAILURE;
	if (flex && !ext2fs_has_feature_flex_bg(p))
		return conflict(plan, "a flex_bg size (-G) needs the flex_bg "
				"feature");
	if (flex && (flex & (flex - 1)))
		return report_failure("'%s': flex_bg_size %u is not a power "
				      "of 2", cfg->file, flex);
	if (flex)
		p->s_log_groups_per_flex = (__u8)mkfs_log2(flex);
	if (isz && (isz < EXT2_GOOD_OLD_INODE_SIZE ||
		    isz > (unsigned)plan->blocksize || (isz & (isz - 1))))
		return report_failure("'%s': invalid inode size %u (-I: a "
				      "power of 2, min %d, max the block size "
				      "%d)", plan->device, isz,
				      EXT2_GOOD_OLD_INODE_SIZE,
				      plan->blocksize);
	p->s_inode_size = (__u16)isz;
	plan->inode_size = isz;
	if (ext2fs_has_feature_inline_data(p) &&
	    isz == EXT2_GOOD_OLD_INODE_SIZE)
		return conflict(plan, "128-byte inodes (-I 128) are too small "
				"for inline_data");
	if (mkfs_cfg_bool(&cfg->warn_y2038_dates, true, &warn) !=
	    EXT4DEV_CONTINUE)
		return EXT4DEV_EXIT_FAILURE;
	if (isz == EXT2_GOOD_OLD_INODE_SIZE && warn)
		report_warn(NULL, "128-byte inodes cannot handle dates beyond "
			    "2038 and are deprecated");
	return EXT4DEV_CONTINUE;
}

static int pick_inode_count(const struct mkfs_opts *o,
			    struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned long long n = o->num_inodes, bytes;
	unsigned int isz = plan->inode_size ? plan->inode_size :
					     EXT2_GOOD_OLD_INODE_SIZE;

	bytes = ext2fs_blocks_count(p) * (unsigned long long)plan->blocksize;
	if (!n) {
		n = bytes / (unsigned long long)plan->inode_ratio;
		if (n > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p))
			return report_failure("'%s': too many inodes (%llu); "
					      "raise the inode ratio (-i)",
					      plan->device, n);
		if (n > EXT4DEV_MAX_32)
			n = EXT4DEV_MAX_32;
	} else if (n > EXT4DEV_MAX_32) {
		return report_failure("'%s': too many inodes (-N %llu); "
				      "specify fewer than 2^32", plan->device,
				      n);
	}
	p->s_inodes_count = (__u32)n;
	if (n * isz >= bytes)
		return report_failure("'%s': %llu inodes of %u bytes do not "
				      "fit in %llu blocks; raise the inode "
				      "ratio (-i) or lower the inode count "
				      "(-N)", plan->device, n, isz,
				      (unsigned long long)
				      ext2fs_blocks_count(p));
	ext2fs_r_blocks_count_set(p, (blk64_t)(plan->reserved_ratio *
				  (double)ext2fs_blocks_count(p) / 100.0));
	if (ext2fs_has_feature_sparse_super2(p)) {
		if (plan->num_backups >= 1)
			p->s_backup_bgs[0] = 1;
		if (plan->num_backups >= 2)
			p->s_backup_bgs[1] = ~0U;
	}
	return EXT4DEV_CONTINUE;
}

/*
 * -E offset=: the filesystem starts that many bytes into the device.
 * Without SIZE it ends where the device does, as mke2fs makes it (one
 * warning: the size is then a guess); on a block device it must end
 * there at the latest.  An image file grows to hold it.
 */
static int apply_offset(const struct mkfs_opts *o, struct mkfs_plan *plan)
{
	blk64_t skip = plan->offset / (unsigned int)plan->blocksize;
	__u64 dev_bytes = (__u64)plan->dev_size * (unsigned int)plan->blocksize;

	if (!plan->offset)
		return EXT4DEV_CONTINUE;
	if (!o->size_arg) {
		if (skip >= plan->fs_blocks)
			return report_failure("'%s': offset %llu is past the "
					      "end of the device",
					      plan->device,
					      (unsigned long long)plan->offset);
		plan->fs_blocks -= skip;
		ext2fs_blocks_count_set(&plan->param, plan->fs_blocks);
		report_warn(NULL, "offset without a filesystem size: making "
			    "%llu blocks, to the end of the device",
			    (unsigned long long)plan->fs_blocks);
	} else if (plan->dev_is_blk &&
		   plan->offset + (__u64)plan->fs_blocks * plan->blocksize >
		   dev_bytes) {
		return report_failure("'%s': offset %llu and size %s go past "
				      "the end of the device (%llu bytes)",
				      plan->device,
				      (unsigned long long)plan->offset,
				      o->size_arg,
				      (unsigned long long)dev_bytes);
	}
	return EXT4DEV_CONTINUE;
}

int mkfs_params(const struct mkfs_opts *o, const struct mkfs_config *cfg,
		struct mkfs_plan *plan)
{
	int rc = pick_ratios(o, cfg, plan);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	device_topology(plan);
	if (plan->blocksize > (int)plan->sys_page_size) {
		if (!o->force)
			return conflict(plan, "the block size is larger than "
					"the page size (-F to make it anyway)");
		report_warn(NULL, "%d-byte blocks are too big for this system "
			    "(max %u)", plan->blocksize, plan->sys_page_size);
	}
	rc = conf_switches(o, cfg, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = apply_ext_opts(o, cfg, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = apply_offset(o, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_features(o, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_inode_size(o, cfg, plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_inode_count(o, plan);
	return rc;
}
