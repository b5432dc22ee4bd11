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
#include "report.h"

static int conflict(const struct mkfs_ctl *ctl, const char *what)
{
	return report_failure("'%s': %s", ctl->device, what);
}

static int pick_ratios(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	int cluster = ctl->cluster_size;

	if (ctl->journal_size)
		ext2fs_set_feature_journal(p);
	if (ctl->reserved_ratio < 0) {
		if (mkfs_prof_double(&ctl->prof, "reserved_ratio", 5.0,
				     &ctl->reserved_ratio))
			return mkfs_prof_error(ctl);
		if (ctl->reserved_ratio > 50 || ctl->reserved_ratio < 0)
			return report_failure("'%s': invalid reserved_ratio "
					      "%g", ctl->conf.file,
					      ctl->reserved_ratio);
	}
	if (ext2fs_has_feature_64bit(p) && !ext2fs_has_feature_extents(p))
		return conflict(ctl, "the 64bit feature needs extents "
				"(-O extents, or -O ^64bit)");
	if (ext2fs_has_feature_bigalloc(p)) {
		if (!cluster && mkfs_prof_int(&ctl->prof, "cluster_size",
					      ctl->blocksize * 16, &cluster))
			return mkfs_prof_error(ctl);
		p->s_log_cluster_size = (__u32)mkfs_log2((unsigned)cluster >> 10);
		if (p->s_log_cluster_size &&
		    p->s_log_cluster_size < p->s_log_block_size)
			return conflict(ctl, "the cluster size (-C) may not be "
					"smaller than the block size (-b)");
	} else if (cluster) {
		return conflict(ctl, "a cluster size (-C) needs the bigalloc "
				"feature (-O bigalloc)");
	} else {
		p->s_log_cluster_size = p->s_log_block_size;
	}
	if (!ctl->inode_ratio) {
		if (mkfs_prof_int(&ctl->prof, "inode_ratio", 8192,
				  &ctl->inode_ratio))
			return mkfs_prof_error(ctl);
		if (ctl->inode_ratio < ctl->blocksize)
			ctl->inode_ratio = ctl->blocksize;
		if (ctl->inode_ratio < (int)EXT2_CLUSTER_SIZE(p))
			ctl->inode_ratio = (int)EXT2_CLUSTER_SIZE(p);
	}
	return EXT4DEV_CONTINUE;
}

/* RAID geometry from the block layer, as mke2fs takes it. */
static void device_topology(struct mkfs_ctl *ctl)
{
	unsigned long min_io, opt_io, bs = (unsigned long)ctl->blocksize;
	blkid_topology tp;
	blkid_probe pr;

	if (!ctl->dev_is_blk)
		return;
	pr = blkid_new_probe_from_filename(ctl->device);
	tp = pr ? blkid_probe_get_topology(pr) : NULL;
	if (tp) {
		min_io = blkid_topology_get_minimum_io_size(tp);
		opt_io = blkid_topology_get_optimal_io_size(tp);
		if (!min_io && ctl->phys_sector_size > bs)
			min_io = ctl->phys_sector_size;
		if (!opt_io && min_io)
			opt_io = min_io;
		if (!opt_io && ctl->phys_sector_size > bs)
			opt_io = ctl->phys_sector_size;
		if (min_io > bs)
			ctl->param.s_raid_stride = (__u16)(min_io / bs);
		if (opt_io > bs)
			ctl->param.s_raid_stripe_width = (__u32)(opt_io / bs);
	}
	if (pr)
		blkid_free_probe(pr);
}

static int conf_switches(struct mkfs_ctl *ctl)
{
	struct mkfs_prof *pr = &ctl->prof;
	const char *loc;
	bool lazy_it = true, discard, lazy_j, packed, huge;

	/* lazy_itable_init defaults on: every kernel since 2.6.37. */
	if (mkfs_prof_int(pr, "num_backup_sb", 2, &ctl->num_backups) ||
	    mkfs_prof_bool(pr, "lazy_itable_init", lazy_it, &lazy_it) ||
	    mkfs_prof_bool(pr, "discard", true, &discard) ||
	    mkfs_prof_bool(pr, "lazy_journal_init", false, &lazy_j) ||
	    mkfs_prof_bool(pr, "packed_meta_blocks", false, &packed) ||
	    mkfs_prof_bool(pr, "make_hugefiles", false, &huge))
		return mkfs_prof_error(ctl);
	if (huge)
		report_warn(ctl->conf.file, "make_hugefiles is not supported "
			    "by ext4dev mkfs; no huge files are made");
	ctl->lazy_itable_init = lazy_it;
	ctl->discard = discard;
	ctl->lazy_journal_init = lazy_j;
	ctl->packed_meta_blocks = packed;
	ctl->assume_prezeroed = 0;
	loc = ctl->journal_location;
	if (!loc)
		mkfs_prof_string(pr, "journal_location", "", &loc);
	if (loc && *loc) {
		ctl->journal_blk_loc = mkfs_parse_num(loc, (int)
						ctl->param.s_log_block_size);
		if (!ctl->journal_blk_loc && strcmp(loc, "0"))
			return report_usage(EXT4DEV_MKFS_CMD, "invalid journal "
					    "location '%s'", loc);
	}
	if (packed)
		ctl->journal_blk_loc = 0;
	return EXT4DEV_CONTINUE;
}

static int apply_ext_opts(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	char where[160];
	const char *opts;
	int rc, enc;

	if (ext2fs_has_feature_64bit(p))
		p->s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	if (ext2fs_has_feature_casefold(p)) {
		mkfs_prof_string(&ctl->prof, "encoding", "utf8", &opts);
		enc = e2p_str2encoding(opts);
		if (enc < 0)
			return report_failure("'%s': unknown encoding '%s'",
					      ctl->conf.file, opts);
		p->s_encoding = (__u16)enc;
		p->s_encoding_flags = (__u16)e2p_get_encoding_flags(enc);
	}
	for (int i = 0; i < ctl->prof.ntypes; i++) {
		opts = mkfs_prof_type_value(&ctl->prof, i, "options");
		snprintf(where, sizeof(where), "'%s': [fs_types] %s options",
			 ctl->conf.file, ctl->prof.types[i]);
		rc = opts ? mkfs_parse_ext_opts(ctl, opts, where) :
			    EXT4DEV_CONTINUE;
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	return ctl->ext_opts ? mkfs_parse_ext_opts(ctl, ctl->ext_opts, NULL)
			     : EXT4DEV_CONTINUE;
}

static int check_features(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	unsigned int bpg = ctl->blocks_per_group;

	if (ext2fs_has_feature_metadata_csum(p))
		ext2fs_clear_feature_gdt_csum(p);
	if (ext2fs_has_feature_bigalloc(p) && !ext2fs_has_feature_extents(p))
		return conflict(ctl, "bigalloc needs the extent feature");
	if (ext2fs_has_feature_meta_bg(p) && ext2fs_has_feature_resize_inode(p))
		return conflict(ctl, "the resize_inode and meta_bg features "
				"cannot both be enabled (-O ^resize_inode)");
	if (!ctl->quiet && ext2fs_has_feature_bigalloc(p) &&
	    EXT2_CLUSTER_SIZE(p) > 16 * EXT2_BLOCK_SIZE(p))
		report_warn(NULL, "bigalloc with a cluster size above 16 "
			    "blocks is experimental");
	if (ext2fs_has_feature_orphan_file(p) &&
	    !ext2fs_has_feature_journal(p))
		return conflict(ctl, "the orphan_file feature needs a journal");
	if (ext2fs_has_feature_csum_seed(p) &&
	    !ext2fs_has_feature_metadata_csum(p))
		return conflict(ctl, "metadata_csum_seed needs metadata_csum");
	if (ext2fs_has_feature_resize_inode(p) &&
	    !ext2fs_has_feature_sparse_super(p))
		return conflict(ctl, "resize_inode needs sparse_super "
				"(reserved online resize blocks)");
	if (bpg && (bpg < 256 || bpg > 8U * (unsigned)ctl->blocksize))
		return conflict(ctl, "blocks per group (-g) out of range");
	/* With bigalloc, -g counts clusters. */
	if (ext2fs_has_feature_bigalloc(p)) {
		p->s_clusters_per_group = p->s_blocks_per_group;
		p->s_blocks_per_group = 0;
	}
	return EXT4DEV_CONTINUE;
}

static int pick_inode_size(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	unsigned int isz = ctl->inode_size, flex = (unsigned)ctl->flex_bg_size;
	int conf_isz;
	bool warn;

	if (ext2fs_has_feature_project(p)) {
		ctl->quota_types |= 4;
		if (isz == EXT2_GOOD_OLD_INODE_SIZE)
			return conflict(ctl, "128-byte inodes (-I 128) are too "
					"small for project quota");
	}
	if (!isz) {
		if (mkfs_prof_int(&ctl->prof, "inode_size", 0, &conf_isz))
			return mkfs_prof_error(ctl);
		isz = conf_isz < 0 ? 1 : (unsigned int)conf_isz;
		/* Project ids live in the large inode. */
		if (ext2fs_has_feature_project(p) &&
		    isz <= EXT2_GOOD_OLD_INODE_SIZE * 2)
			isz = EXT2_GOOD_OLD_INODE_SIZE * 2;
	}
	if (!flex && ext2fs_has_feature_flex_bg(p) &&
	    mkfs_prof_uint(&ctl->prof, "flex_bg_size", 16, &flex))
		return mkfs_prof_error(ctl);
	if (flex && !ext2fs_has_feature_flex_bg(p))
		return conflict(ctl, "a flex_bg size (-G) needs the flex_bg "
				"feature");
	if (flex && (flex & (flex - 1)))
		return report_failure("'%s': flex_bg_size %u is not a power "
				      "of 2", ctl->conf.file, flex);
	if (flex)
		p->s_log_groups_per_flex = (__u8)mkfs_log2(flex);
	if (isz && (isz < EXT2_GOOD_OLD_INODE_SIZE ||
		    isz > (unsigned)ctl->blocksize || (isz & (isz - 1))))
		return report_failure("'%s': invalid inode size %u (-I: a "
				      "power of 2, min %d, max the block size "
				      "%d)", ctl->device, isz,
				      EXT2_GOOD_OLD_INODE_SIZE, ctl->blocksize);
	p->s_inode_size = (__u16)isz;
	ctl->inode_size = isz;
	if (ext2fs_has_feature_inline_data(p) &&
	    isz == EXT2_GOOD_OLD_INODE_SIZE)
		return conflict(ctl, "128-byte inodes (-I 128) are too small "
				"for inline_data");
	if (mkfs_prof_bool(&ctl->prof, "warn_y2038_dates", true, &warn))
		return mkfs_prof_error(ctl);
	if (isz == EXT2_GOOD_OLD_INODE_SIZE && warn)
		report_warn(NULL, "128-byte inodes cannot handle dates beyond "
			    "2038 and are deprecated");
	return EXT4DEV_CONTINUE;
}

static int pick_inode_count(struct mkfs_ctl *ctl)
{
	struct ext2_super_block *p = &ctl->param;
	unsigned long long n = ctl->num_inodes, bytes;
	unsigned int isz = ctl->inode_size ? ctl->inode_size :
					     EXT2_GOOD_OLD_INODE_SIZE;

	bytes = ext2fs_blocks_count(p) * (unsigned long long)ctl->blocksize;
	if (!n) {
		n = bytes / (unsigned long long)ctl->inode_ratio;
		if (n > EXT4DEV_MAX_32 && !ext2fs_has_feature_64bit(p))
			return report_failure("'%s': too many inodes (%llu); "
					      "raise the inode ratio (-i)",
					      ctl->device, n);
		if (n > EXT4DEV_MAX_32)
			n = EXT4DEV_MAX_32;
	} else if (n > EXT4DEV_MAX_32) {
		return report_failure("'%s': too many inodes (-N %llu); "
				      "specify fewer than 2^32", ctl->device,
				      n);
	}
	p->s_inodes_count = (__u32)n;
	if (n * isz >= bytes)
		return report_failure("'%s': %llu inodes of %u bytes do not "
				      "fit in %llu blocks; raise the inode "
				      "ratio (-i) or lower the inode count "
				      "(-N)", ctl->device, n, isz,
				      (unsigned long long)
				      ext2fs_blocks_count(p));
	ext2fs_r_blocks_count_set(p, (blk64_t)(ctl->reserved_ratio *
				  (double)ext2fs_blocks_count(p) / 100.0));
	if (ext2fs_has_feature_sparse_super2(p)) {
		if (ctl->num_backups >= 1)
			p->s_backup_bgs[0] = 1;
		if (ctl->num_backups >= 2)
			p->s_backup_bgs[1] = ~0U;
	}
	return EXT4DEV_CONTINUE;
}

int mkfs_params(struct mkfs_ctl *ctl)
{
	int rc = pick_ratios(ctl);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	device_topology(ctl);
	if (ctl->blocksize > (int)ctl->sys_page_size) {
		if (!ctl->force)
			return conflict(ctl, "the block size is larger than "
					"the page size (-F to make it anyway)");
		report_warn(NULL, "%d-byte blocks are too big for this system "
			    "(max %u)", ctl->blocksize, ctl->sys_page_size);
	}
	rc = conf_switches(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = apply_ext_opts(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_features(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_inode_size(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = pick_inode_count(ctl);
	return rc;
}
