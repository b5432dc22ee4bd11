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

/* A device number as LOOP_GET_STATUS64 encodes it. */
dev_t fsio_blk_decode_dev(uint64_t v);

/* The st_dev of the file a loop device is bound to. */
dev_t fsio_blk_loop_file_dev(const struct loop_info64 *li);

/*
 * The path sysfs gives for loop device @l's backing file, as the
 * process that bound it named it; false when @l is not bound.
 */
bool fsio_blk_backing_file(const struct fsio_blk *l, char *path, size_t len);

/* The partitions sysfs lists under block device @name, at most @max. */
unsigned int fsio_blk_parts(const char *name, struct fsio_blk *p,
			    unsigned int max);

/* Block device @rdev: *@self, and its whole disk *@whole. */
bool fsio_blk_of_rdev(dev_t rdev, struct fsio_blk *self,
		      struct fsio_blk *whole);

/*
 * The block device @path names: *@self, and its whole disk *@whole (the
 * same for a whole disk).  False for anything but a block device.
 */
bool fsio_blk_of_path(const char *path, struct fsio_blk *self,
		      struct fsio_blk *whole);

/*
 * Where a name's bytes are (fsio_ident.c): a byte range of one regular
 * file, or of one block device that is not a loop device, reached by
 * following partitions, loop devices (of files and of block devices)
 * and overlayfs down to the object that holds the bytes.
 */
#define FSIO_TO_END UINT64_MAX

struct fsio_base {
	bool is_file;
	dev_t dev;		/* a file's st_dev; else the block device */
	ino_t ino;		/* a file's st_ino; else 0 */
	uint64_t start, end;	/* end exclusive; FSIO_TO_END: to the end */
	char path[PATH_MAX];	/* a file's path from here, or "" */
};

/* The base of the regular file or block device @path; false if none. */
bool fsio_base_of_path(const char *path, struct fsio_base *b);

/* The base of block device @rdev (a loop device: what it is bound to). */
bool fsio_base_of_dev(dev_t rdev, struct fsio_base *b);

/* Do @a and @b share a byte of the same object? */
bool fsio_base_overlap(const struct fsio_base *a, const struct fsio_base *b);

/* start + len, or FSIO_TO_END when len is 0 or the sum overflows. */
uint64_t fsio_span_end(uint64_t start, uint64_t len);

/*
 * @path is a regular file on overlayfs: the path of the layer file
 * that holds its data (the upper layer's, else the first lower layer's
 * that has it) in @real.  False when it is not on overlayfs or no
 * layer is found (another mount namespace's overlay, a whiteout).
 */
bool fsio_ovl_real(const char *path, char *real, size_t len);

#endif
