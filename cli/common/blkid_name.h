/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_BLKID_NAME_H
#define EXT4DEV_BLKID_NAME_H

#include <ext2fs/ext2fs.h>

/*
 * libblkid's ext4 prober refuses a flagged filesystem and its ext4dev
 * prober takes it; but a filesystem with no feature beyond ext3's is
 * also taken by the ext2 or ext3 prober, and two probers that agree
 * make the result "ambivalent": blkid names no type, and findfs, mount
 * and fstab no longer find it by LABEL= or UUID=.
 *
 * "ext2" or "ext3" when @sb, flagged, is such a filesystem; else NULL.
 */
const char *blkid_name_rival(const struct ext2_super_block *sb);

/* One line for @dev: what blkid and mount do with a flagged @rival. */
void blkid_name_warn(const char *dev, const char *rival);

#endif
