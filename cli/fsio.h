/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_FSIO_H
#define EXT4DEV_FSIO_H

/*
 * fsio owns every path from a device name to the filesystem's bytes:
 * resolving LABEL=/UUID=, refusing what must not be touched, opening the
 * superblock through libext2fs and committing a change to every copy.
 * It never prints and never exits: each call returns an errcode_t that
 * error_message() turns into text (libext2fs's codes or ours from
 * ext4dev_err.et), and fills struct fsio_dev's detail fields so the
 * caller can say more.
 */

#include <stdbool.h>
#include <ext2fs/ext2fs.h>

#include "ext4dev_err.h"

struct fsio_dev {
	char *spec;		/* what the user typed: path, LABEL=, UUID= */
	char *path;		/* resolved device or image path */
	ext2_filsys fs;		/* open filesystem, superblock only */
	int lock_fd;		/* flock()ed while open, -1 when not */
	bool csum_ok;		/* primary superblock checksum verifies */
	bool size_ok;		/* the device holds all the fs's blocks */
	char mountpoint[256];	/* set with EXT4DEV_ERR_MOUNTED */
	char foreign_type[64];	/* libblkid's TYPE or PTTYPE, e.g. "vfat" */
	char foreign_usage[32];	/* "filesystem", "partition table", ... */
	char *saved_super;	/* superblock as validated, to detect races */
};

struct fsio_write_opts {
	const char *undo_file;	/* e2undo file to write first, or NULL */
};

/* Set up @dev for @spec; resolves LABEL=/UUID= through libblkid. */
errcode_t fsio_init(struct fsio_dev *dev, const char *spec);

/*
 * Open read-only: superblock only, checksum errors tolerated (see
 * dev->csum_ok), unknown features tolerated.  Holds a shared lock so a
 * concurrent fsio_commit_flags() is never seen half-written.
 */
errcode_t fsio_open_read(struct fsio_dev *dev);

/*
 * Open and validate for a superblock change, still read-only: refuses
 * mounted or busy devices, foreign or unknown-feature filesystems,
 * journal devices, bad checksums and journals that need recovery.
 * Holds an exclusive lock until fsio_close(), so concurrent writers
 * serialize.  Nothing is written until fsio_commit_flags().
 */
errcode_t fsio_open_change(struct fsio_dev *dev);

/* Is @path mounted or held exclusively?  Fills dev->mountpoint. */
errcode_t fsio_check_unused(struct fsio_dev *dev);

/*
 * Name the signature libblkid finds on dev->path (e.g. "vfat") in
 * dev->foreign_type; returns 0 and leaves it empty when there is none.
 */
errcode_t fsio_probe_type(struct fsio_dev *dev, bool only_ext);

/*
 * After fsio_open_change(): reopen for writing (exclusively, through an
 * undo file when asked), store @s_flags, write every backup superblock,
 * fsync, write the primary in a single write, fsync, close.
 */
errcode_t fsio_commit_flags(struct fsio_dev *dev, uint32_t s_flags,
			    const struct fsio_write_opts *opts);

/* Close without writing; safe on a never-opened or committed @dev. */
void fsio_close(struct fsio_dev *dev);

/* Free what fsio_init() allocated; implies fsio_close(). */
void fsio_release(struct fsio_dev *dev);

/*
 * mkfs's target: what is there before a filesystem is made on it, the
 * lock that keeps others out while it is made, and the device under a
 * filesystem that was set up in memory.
 */
struct fsio_target {
	bool exists;			/* false: an image file to create */
	bool is_blk;
	blk64_t size;			/* in blocks of the size asked for */
	unsigned int sector_size;	/* logical; 0 when unknown */
	unsigned int phys_sector_size;	/* the logical size when unknown */
	bool all_holes;			/* an image file with no data at all */
};

/*
 * stat() dev->path and ask libext2fs its size in @blocksize blocks and
 * its sector sizes; an image file that is all holes (it cannot hold a
 * signature) says so.  ENOENT when there is nothing at the path, EISDIR,
 * EXT4DEV_ERR_NOT_BLOCK_OR_FILE, or the errno/libext2fs code.
 */
errcode_t fsio_stat_target(const struct fsio_dev *dev, unsigned int blocksize,
			   struct fsio_target *t);

/*
 * Open dev->path (creating an image file when @create) and flock() it
 * exclusively without waiting: EXT4DEV_ERR_BUSY when another holds it.
 * The lock lasts until fsio_close().
 */
errcode_t fsio_lock_target(struct fsio_dev *dev, bool create);

/*
 * Point @fs, set up in memory on another channel (mkfs uses /dev/null),
 * at dev->path, opened read-write and exclusively: EXT4DEV_ERR_BUSY
 * when the kernel holds the device.
 */
errcode_t fsio_attach(struct fsio_dev *dev, ext2_filsys fs);

#endif
