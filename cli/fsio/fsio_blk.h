/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_FSIO_BLK_H
#define EXT4DEV_FSIO_BLK_H

/*
 * Inside fsio only (not part of the front door, fsio.h): block devices
 * as sysfs lists them, their /dev nodes, and what a loop device is
 * bound to.  fsio_alias.c finds the other names of a device's bytes
 * with it, fsio_lock_backing() a loop device's backing file.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/loop.h>

#define FSIO_SECTOR 512ULL

/* A block device as sysfs lists it: "loop1", "loop1p2". */
struct fsio_blk {
	char name[NAME_MAX + 1];
	dev_t rdev;
	bool is_part;
	uint64_t start, size;	/* a partition's, in sectors */
};

/*
 * Read the sysfs directory @dir of one block device (its name is the
 * last component) into @b; false when it has no "dev" attribute.
 */
bool fsio_blk_read(const char *dir, struct fsio_blk *b);

/* Open /dev/NAME with @flags only if it is @b's device; -errno if not. */
int fsio_blk_open(const struct fsio_blk *b, int flags);

/* LOOP_GET_STATUS64 of loop device @b; false if it is not bound. */
bool fsio_blk_loop_status(const struct fsio_blk *b, struct loop_info64 *li);

/* The st_dev of the file a loop device is bound to. */
dev_t fsio_blk_loop_file_dev(const struct loop_info64 *li);

/* The partitions sysfs lists under block device @name, at most @max. */
unsigned int fsio_blk_parts(const char *name, struct fsio_blk *p,
			    unsigned int max);

/*
 * The block device @path names: *@self, and its whole disk *@whole (the
 * same for a whole disk).  False for anything but a block device.
 */
bool fsio_blk_of_path(const char *path, struct fsio_blk *self,
		      struct fsio_blk *whole);

#endif
