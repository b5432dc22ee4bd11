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

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <ext2fs/ext2fs.h>

#include "ext4dev_err.h"

/*
 * How long to wait for another process's lock on the device.  All
 * subcommands take it alike (see fsio_lock.c).
 */
struct fsio_lock_wait {
	int seconds;		/* give up after this long; -1: never */
	/* Called once after a second of waiting, to tell the user. */
	void (*notice)(const char *path, int seconds);
};

struct fsio_dev {
	char *spec;		/* what the user typed: path, LABEL=, UUID= */
	char *path;		/* resolved device or image path */
	ext2_filsys fs;		/* open filesystem, superblock only */
	int lock_fd;		/* flock()ed while open, -1 when not */
	const struct fsio_lock_wait *lock_wait;	/* NULL: wait, silently */
	bool csum_ok;		/* primary superblock checksum verifies */
	bool size_ok;		/* the device holds all the fs's blocks */
	char mountpoint[256];	/* set with EXT4DEV_ERR_MOUNTED */
	char foreign_type[64];	/* libblkid's TYPE or PTTYPE, e.g. "vfat" */
	char foreign_usage[32];	/* "filesystem", "partition table", ... */
	char *saved_super;	/* superblock as validated, to detect races */
	const char *undo_file;	/* the -z path fsio_check_undo() accepted */
	bool undo_err;		/* the error is about undo_file, not path */
	bool undo_created;	/* fsio made undo_file: remove it if empty */
	bool target_created;	/* fsio_lock_target() made the image file */
	off_t max_file_size;	/* with EFBIG from fsio_size_target() */
	char matches[512];	/* with EXT4DEV_ERR_AMBIGUOUS: every match */
	blk64_t good_backup;	/* with EXT4DEV_ERR_PRIMARY_BAD: its block */
	unsigned int good_backup_bs;	/* ... and block size */
	dgrp_t *stale;		/* groups whose backup superblock differs */
	unsigned int nstale;
	int *claims;		/* held until fsio_close(): other names of */
	unsigned int nclaims;	/* the bytes (O_EXCL), the backing file */
	char alias[NAME_MAX + 8];	/* with EXT4DEV_ERR_ALIAS_*: the */
					/* other name, e.g. "/dev/loop1" */
	bool mounted_elsewhere;	/* mountpoint is another namespace's */
	char holder[NAME_MAX + 1];	/* with a busy error: e.g. "dm-0" */
	off_t offset;		/* where the filesystem starts in the */
				/* device: mkfs -E offset=, else 0 */
	off_t length;		/* with an offset: the bytes mkfs writes */
				/* from there (0: to the end) */
	uint64_t alias_start;	/* with EXT4DEV_ERR_ALIAS_*: the bytes */
	uint64_t alias_end;	/* of the base file the alias covers */
};

struct fsio_write_opts {
	const char *undo_file;	/* e2undo file to write first, or NULL */
};

/*
 * Set up @dev for @spec; resolves LABEL=/UUID= through libblkid
 * (fsio_resolve_tag()).  dev->path is NULL unless it returns 0.
 */
errcode_t fsio_init(struct fsio_dev *dev, const char *spec);

/*
 * Is @path a loop device mount(8) made for an image (-o loop, or a
 * file given to mount: it clears itself at umount)?  The image's path
 * in @image, to name what the user typed rather than /dev/loopN.
 */
bool fsio_temp_loop_image(const char *path, char *image, size_t len);

/* Is @spec LABEL=, UUID=, PARTLABEL= or PARTUUID=? */
bool fsio_is_tag(const char *spec);

/*
 * dev->spec is a tag: set dev->path to the one device that carries it.
 * More than one is EXT4DEV_ERR_AMBIGUOUS with every device named in
 * dev->matches; none is EXT4DEV_ERR_NO_DEVICE.
 */
errcode_t fsio_resolve_tag(struct fsio_dev *dev);

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

/*
 * flock(@fd, @how) (LOCK_SH or LOCK_EX), waiting as @wait says (NULL:
 * for ever, silently); EXT4DEV_ERR_LOCKED when @wait's time runs out.
 * For every subcommand, mkfs included: @path only goes to the notice.
 */
errcode_t fsio_lock_fd(int fd, int how, const char *path,
		       const struct fsio_lock_wait *wait);

/* --wait's argument: whole seconds, 0 to refuse at once. */
bool fsio_parse_wait(const char *arg, int *seconds);

/*
 * Is dev->path mounted or held, under its own name or any other name of
 * the same bytes (fsio_claim_aliases())?  Fills dev->mountpoint, and
 * dev->alias, dev->mounted_elsewhere and dev->holder to say why.  The
 * other names stay claimed until fsio_close().
 */
errcode_t fsio_check_unused(struct fsio_dev *dev);

/*
 * Claim every other name of dev->path's bytes with an exclusive open
 * and hold it until fsio_close(): every bound loop device whose base
 * (the file or disk under any chain of loop devices, partitions and
 * overlayfs views) overlaps dev->path's from dev->offset on, or those
 * of its partitions that overlap.  One that is busy is
 * EXT4DEV_ERR_ALIAS_MOUNTED or EXT4DEV_ERR_ALIAS_BUSY (dev->alias
 * names it).
 */
errcode_t fsio_claim_aliases(struct fsio_dev *dev);

/*
 * After fsio_claim_aliases(): does a virtual machine (QEMU's OFD image
 * locks) use dev->path, its base file or another name of it?
 * EXT4DEV_ERR_VM_LOCKED (dev->alias names the other name, if it is
 * one).  Otherwise takes the same locks itself until fsio_close(), so
 * that a QEMU started meanwhile refuses the image.
 */
errcode_t fsio_check_vm_locks(struct fsio_dev *dev);

/*
 * dev->path is a block device the kernel holds (EBUSY): mounted in
 * another mount namespace (EXT4DEV_ERR_MOUNTED), held by another
 * device (dev->holder), or a whole disk whose partition is mounted or
 * held (EXT4DEV_ERR_ALIAS_*); EXT4DEV_ERR_BUSY when no reason is found.
 */
errcode_t fsio_explain_busy(struct fsio_dev *dev);

/*
 * For a name on a chain (a loop device, a partition of one, a file on
 * overlayfs): flock() the file at its bottom too (@how, waiting as
 * dev->lock_wait says), so that every name of the same bytes takes the
 * same lock.  0 with nothing to lock.
 */
errcode_t fsio_lock_backing(struct fsio_dev *dev, int how);

/* Where block device @rdev is mounted (its mount point in @mnt). */
enum fsio_mount_where {
	FSIO_NOT_MOUNTED,
	FSIO_MOUNTED_HERE,
	FSIO_MOUNTED_ELSEWHERE,	/* in another mount namespace */
};

enum fsio_mount_where fsio_find_mount(dev_t rdev, char *mnt, size_t len);

/* The first block device sysfs lists as holding @rdev (e.g. "dm-0"). */
bool fsio_find_holder(dev_t rdev, char *name, size_t len);

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

/*
 * Before anything is written: may @undo_file take an e2undo file for
 * @dev (already opened by fsio_open_change())?  It must be a regular
 * file or not exist yet in an existing directory, must not be the
 * device itself through any name, and if it has bytes they must be an
 * e2undo file, which libext2fs then extends (or refuses if it belongs
 * to another filesystem), as tune2fs -z does: nothing else is ever
 * overwritten.  With @create a missing file is created empty (and
 * removed again by fsio_close() if nothing went into it); without, it
 * is created and removed at once, to prove that it can be.  On error
 * dev->undo_err is set, so that the message names @undo_file.
 */
errcode_t fsio_check_undo(struct fsio_dev *dev, const char *undo_file,
			  bool create);

/*
 * The dry run's stand-in for a commit: would opening @dev for writing
 * succeed?  Asked without opening it for writing (which would copy a
 * file on overlayfs up, or move its times): access(W_OK), a read-only
 * block device, an immutable or append-only file, so that -n fails
 * where the real run would, with the same error (EPERM, EACCES, EROFS;
 * a busy device was refused before).  Needs dev->lock_fd open.
 */
errcode_t fsio_check_writable(struct fsio_dev *dev);

/*
 * After fsio_open_change(), when the primary already has the wanted
 * flags: list in dev->stale the groups whose backup superblock has no
 * ext2 magic, a bad checksum, or @mask bits of s_flags that differ from
 * the primary's.  Reads one kilobyte per backup and nothing else.
 */
errcode_t fsio_find_stale_backups(struct fsio_dev *dev, uint32_t mask);

/*
 * Rewrite only the backups in dev->stale from the primary, in the form
 * ext2fs_flush() gives them, then fsync; the primary is not written.
 * Same undo file and race checks as fsio_commit_flags().
 */
errcode_t fsio_commit_backups(struct fsio_dev *dev,
			      const struct fsio_write_opts *opts);

/*
 * fsio_commit_*()'s shared step: close the handle fsio_open_change()
 * left in dev->fs, open @dev for writing (exclusively, through the undo
 * file when asked) and refuse with EXT4DEV_ERR_CHANGED if the primary
 * is no longer what fsio_open_change() validated.
 */
errcode_t fsio_reopen_rw(struct fsio_dev *dev,
			 const struct fsio_write_opts *opts, ext2_filsys *fs);

/* fsio_close()'s part: remove an undo file fsio made and left empty. */
void fsio_undo_cleanup(struct fsio_dev *dev);

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
 * What a path must be before we open it: a regular file or a block
 * device.  EISDIR, EXT4DEV_ERR_NOT_BLOCK_OR_FILE (a FIFO, socket or
 * character device: opening one could block or act), or 0.
 */
errcode_t fsio_kind_error(const struct stat *st);

/* fsio_kind_error() of what stat(@path) finds; errno if nothing. */
errcode_t fsio_check_kind(const char *path);

/*
 * Open @path with @flags (O_RDONLY, maybe O_CREAT) only if it is a
 * regular file or a block device, checked before the open and again on
 * the open descriptor; a FIFO never blocks us, a tape never rewinds.
 * *@fd is -1 unless it returns 0.
 */
errcode_t fsio_open_kind(const char *path, int flags, int *fd);

/*
 * stat() dev->path and ask libext2fs its size in @blocksize blocks and
 * its sector sizes; an image file that is all holes (it cannot hold a
 * signature) says so.  ENOENT when there is nothing at the path, EISDIR,
 * EXT4DEV_ERR_NOT_BLOCK_OR_FILE, or the errno/libext2fs code.
 */
errcode_t fsio_stat_target(const struct fsio_dev *dev, unsigned int blocksize,
			   struct fsio_target *t);

/*
 * mkfs's first look at the device: open dev->path and flock() it
 * exclusively, waiting as dev->lock_wait says (fsio_lock_fd()), so that
 * everything mkfs decides (signature, mounted, busy) is decided under
 * the lock.  A missing path with @may_create is created already locked
 * (an O_TMPFILE linked in place), so a second mkfs waits and then sees
 * the first one's filesystem; dev->target_created says so.  A missing
 * path without @may_create is 0 with no lock, for the caller to report.
 * The lock lasts until fsio_close().
 */
errcode_t fsio_lock_target(struct fsio_dev *dev, bool may_create);

/*
 * Before anything is written: make the image file dev->offset + @bytes
 * long (only ever longer), so that a host filesystem that cannot hold a
 * file that large says so now (EFBIG, with the largest size it takes in
 * dev->max_file_size) rather than at the last block.
 */
errcode_t fsio_size_target(struct fsio_dev *dev, off_t bytes);

/*
 * mkfs -n: could dev->path, which does not exist, be created and made
 * dev->offset + @bytes long?  Sizes an unnamed file in its directory
 * (O_TMPFILE: no name ever appears; where that is not supported, a
 * file created O_EXCL and removed again), so the dry run fails where
 * the real run would, with the same error.
 */
errcode_t fsio_probe_create(struct fsio_dev *dev, off_t bytes);

/*
 * mkfs failed: remove the image file fsio_lock_target() created in
 * this run (and only that: the same inode as the one still open).
 */
void fsio_remove_created(struct fsio_dev *dev);

/*
 * Point @fs, set up in memory on another channel (mkfs uses /dev/null),
 * at dev->path, opened read-write and exclusively, from dev->offset on:
 * EXT4DEV_ERR_BUSY when the kernel holds the device.
 */
errcode_t fsio_attach(struct fsio_dev *dev, ext2_filsys fs);

/*
 * @err from opening @dev read-write, as the user should read it: the
 * kernel refuses a read-only block device with a bare EPERM, which
 * becomes EROFS.  Needs dev->lock_fd open.
 */
errcode_t fsio_rw_error(const struct fsio_dev *dev, errcode_t err);

#endif
