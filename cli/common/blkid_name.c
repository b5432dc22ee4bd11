// SPDX-License-Identifier: GPL-2.0
/*
 * What util-linux's libblkid will call a filesystem once it carries
 * the test flag.  The rule mirrors its ext2/ext3 probers (features an
 * ext3 driver understands); integration.aliases holds it to blkid -p.
 */
#include "blkid_name.h"
#include "report.h"

/* 0x0004: never used by e2fsprogs, but ext2/ext3 drivers accept it. */
#define EXT4DEV_RO_COMPAT_BTREE_DIR 0x0004

/* What an ext3 driver reads: no feature outside these sets. */
#define EXT4DEV_EXT3_INCOMPAT (EXT2_FEATURE_INCOMPAT_FILETYPE | \
			       EXT3_FEATURE_INCOMPAT_RECOVER | \
			       EXT2_FEATURE_INCOMPAT_META_BG)
#define EXT4DEV_EXT3_RO_COMPAT (EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
				EXT2_FEATURE_RO_COMPAT_LARGE_FILE | \
				EXT4DEV_RO_COMPAT_BTREE_DIR)

const char *blkid_name_rival(const struct ext2_super_block *sb)
{
	if (sb->s_feature_incompat & EXT3_FEATURE_INCOMPAT_JOURNAL_DEV)
		return NULL;
	if (sb->s_feature_incompat & ~EXT4DEV_EXT3_INCOMPAT ||
	    sb->s_feature_ro_compat & ~EXT4DEV_EXT3_RO_COMPAT)
		return NULL;
	return sb->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL ? "ext3" : "ext2";
}

void blkid_name_warn(const char *dev, const char *rival)
{
	if (!rival)
		return;
	report_warn(dev, "blkid will call this flagged %s filesystem "
		    "ambivalent (%s or ext4dev): mount it with -t %s, and "
		    "findfs, mount and fstab will not find its LABEL= or "
		    "UUID= (ext4dev still does)", rival, rival, rival);
}
