// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "fsio.h"

/*
 * Superblock only: group descriptors are never read, so a 15 TiB
 * filesystem costs the same one-kilobyte read as a floppy.
 */
#define FSIO_READ_FLAGS (EXT2_FLAG_SUPER_ONLY | EXT2_FLAG_64BITS | \
			 EXT2_FLAG_JOURNAL_DEV_OK | EXT2_FLAG_SKIP_MMP)

errcode_t fsio_init(struct fsio_dev *dev, const char *spec)
{
	memset(dev, 0, sizeof(*dev));
	dev->lock_fd = -1;
	dev->spec = strdup(spec);
	if (!dev->spec)
		return EXT2_ET_NO_MEMORY;
	if (!fsio_is_tag(spec)) {
		dev->path = strdup(spec);
		return dev->path ? 0 : EXT2_ET_NO_MEMORY;
	}
	return fsio_resolve_tag(dev);
}

/* Open @dev->path ourselves to check its kind and to hold a flock(). */
static errcode_t lock_path(struct fsio_dev *dev, int how)
{
	errcode_t err = fsio_open_kind(dev->path, O_RDONLY, &dev->lock_fd);

	/* The file under a loop device first: every name, one lock. */
	if (!err)
		err = fsio_lock_backing(dev, how);
	if (err)
		return err;
	/* A second ext4dev waits its turn rather than failing. */
	return fsio_lock_fd(dev->lock_fd, how, dev->path, dev->lock_wait);
}

/*
 * The primary superblock is unreadable: is group 1's backup good, at
 * any block size?  Fills dev->good_backup (0 when none is found).
 */
static errcode_t find_good_backup(struct fsio_dev *dev)
{
	ext2_filsys fs;

	dev->good_backup = 0;
	/* Where mke2fs puts group 1's copy for each block size. */
	for (unsigned int bs = EXT2_MIN_BLOCK_SIZE; bs <= EXT2_MAX_BLOCK_SIZE;
	     bs *= 2) {
		blk64_t sb = (blk64_t)bs * 8 + (bs == EXT2_MIN_BLOCK_SIZE);

		if (ext2fs_open2(dev->path, NULL, EXT2_FLAG_SUPER_ONLY |
				 EXT2_FLAG_64BITS | EXT2_FLAG_SKIP_MMP, sb, bs,
				 unix_io_manager, &fs))
			continue;
		ext2fs_close_free(&fs);
		dev->good_backup = sb;
		dev->good_backup_bs = bs;
		return 0;
	}
	return EXT2_ET_BAD_MAGIC;
}

/*
 * libext2fs could not read a superblock: say what is there instead, a
 * foreign signature, too few bytes, or a damaged primary whose backup
 * is good (for e2fsck -b to repair).
 */
static errcode_t explain_open_failure(struct fsio_dev *dev, errcode_t err)
{
	if (err != EXT2_ET_BAD_MAGIC && err != EXT2_ET_SHORT_READ)
		return err;
	if (!fsio_probe_type(dev, false) && dev->foreign_type[0])
		return EXT4DEV_ERR_FOREIGN;
	if (err == EXT2_ET_SHORT_READ)
		return EXT4DEV_ERR_TOO_SMALL;
	return find_good_backup(dev) ? err : EXT4DEV_ERR_PRIMARY_BAD;
}

/*
 * A superblock whose filesystem ends past the end of the device: its
 * backups would land beyond EOF (or on the next partition).
 */
static bool size_fits(struct fsio_dev *dev)
{
	uint64_t bytes = 0;
	struct stat st;

	if (ext2fs_has_feature_journal_dev(dev->fs->super))
		return true;
	/* The descriptor we hold: no second open of the device. */
	if (dev->lock_fd < 0 || fstat(dev->lock_fd, &st))
		return true;	/* size unknown: nothing to hold against it */
	if (S_ISREG(st.st_mode))
		bytes = (uint64_t)st.st_size;
	else if (ioctl(dev->lock_fd, BLKGETSIZE64, &bytes))
		return true;
	return ext2fs_blocks_count(dev->fs->super) <=
	       bytes / dev->fs->blocksize;
}

/*
 * ext2fs_open2() through the descriptor lock_path() opened and locked,
 * rather than opening the path a second time: one open of the device
 * per show-flags.  unixfd closes what it is given, so it gets a
 * duplicate; the lock belongs to the open file and stays.
 */
static errcode_t open_by_lock_fd(struct fsio_dev *dev, int flags)
{
	char name[16];
	errcode_t err;
	int fd = fcntl(dev->lock_fd, F_DUPFD_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	snprintf(name, sizeof(name), "%d", fd);
	err = ext2fs_open2(name, NULL, flags, 0, 0, unixfd_io_manager,
			   &dev->fs);
	if (err) {
		close(fd);
		dev->fs = NULL;
	}
	return err;
}

errcode_t fsio_open_read(struct fsio_dev *dev)
{
	errcode_t err;

	err = lock_path(dev, LOCK_SH);
	if (err)
		return err;
	/* Like dumpe2fs: show what is there even if it does not verify. */
	err = open_by_lock_fd(dev, FSIO_READ_FLAGS |
			      EXT2_FLAG_IGNORE_CSUM_ERRORS | EXT2_FLAG_FORCE);
	if (err)
		return explain_open_failure(dev, err);
	dev->csum_ok = ext2fs_superblock_csum_verify(dev->fs, dev->fs->super);
	dev->size_ok = size_fits(dev);
	return 0;
}

/*
 * A window of an image file (mkfs -E offset=): libext2fs calls it
 * mounted when any loop device of the file is, whatever bytes that
 * covers; the alias claims compare the windows themselves instead.
 */
static bool is_file_window(const struct fsio_dev *dev)
{
	struct stat st;

	return (dev->offset > 0 || dev->length > 0) && !stat(dev->path, &st) &&
	       S_ISREG(st.st_mode);
}

/* The name the user typed: mounted, swap, held (libext2fs's checks). */
static errcode_t check_name_unused(struct fsio_dev *dev)
{
	bool window = is_file_window(dev);
	int mount_flags = 0;
	errcode_t err;

	dev->mountpoint[0] = '\0';
	err = ext2fs_check_mount_point(dev->path, &mount_flags,
				       dev->mountpoint,
				       sizeof(dev->mountpoint));
	if (err)
		return err;
	if ((mount_flags & EXT2_MF_MOUNTED) && !window)
		return EXT4DEV_ERR_MOUNTED;
	if (mount_flags & EXT2_MF_SWAP)
		return EXT4DEV_ERR_BUSY;
	if (mount_flags & EXT2_MF_BUSY)
		return fsio_explain_busy(dev);
	return 0;
}

errcode_t fsio_check_unused(struct fsio_dev *dev)
{
	errcode_t err = check_name_unused(dev);

	/* The name the user typed is free; every other name must be too. */
	if (!err)
		err = fsio_claim_aliases(dev);
	return err ? err : fsio_check_vm_locks(dev);
}

/* Everything that makes a superblock change unsafe, after the open. */
static errcode_t validate_for_change(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;

	if (ext2fs_has_feature_journal_dev(sb))
		return EXT4DEV_ERR_JOURNAL_DEV;
	if (sb->s_feature_ro_compat & ~EXT2_LIB_FEATURE_RO_COMPAT_SUPP)
		return EXT2_ET_RO_UNSUPP_FEATURE;
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		return EXT4DEV_ERR_NEEDS_RECOVERY;
	return 0;
}

errcode_t fsio_open_change(struct fsio_dev *dev)
{
	errcode_t err;

	/*
	 * The lock first: another ext4dev committing holds the block
	 * device O_EXCL, which the busy check would take for a stranger.
	 */
	err = lock_path(dev, LOCK_EX);
	if (!err)
		err = fsio_check_unused(dev);
	if (err)
		return err;
	/*
	 * No FORCE and no IGNORE_CSUM: libext2fs refuses what it cannot
	 * safely rewrite (unknown incompat features, bad checksum).
	 */
	err = open_by_lock_fd(dev, FSIO_READ_FLAGS);
	if (err)
		return explain_open_failure(dev, err);
	dev->csum_ok = true;
	dev->size_ok = size_fits(dev);
	err = dev->size_ok ? validate_for_change(dev->fs) :
			     EXT4DEV_ERR_TRUNCATED;
	if (err)
		return err;
	err = ext2fs_get_mem(SUPERBLOCK_SIZE, &dev->saved_super);
	if (err)
		return err;
	memcpy(dev->saved_super, dev->fs->super, SUPERBLOCK_SIZE);
	return 0;
}

errcode_t fsio_rw_error(const struct fsio_dev *dev, errcode_t err)
{
	int ro = 0;

	/* A block device the kernel marks read-only (losetup -r, BLKROSET). */
	if (err == EPERM && dev->lock_fd >= 0 &&
	    !ioctl(dev->lock_fd, BLKROGET, &ro) && ro)
		return EROFS;
	return err;
}

static errcode_t open_rw(struct fsio_dev *dev,
			 const struct fsio_write_opts *opts, ext2_filsys *fs,
			 int extra_flags)
{
	io_manager io = unix_io_manager;
	errcode_t err;

	if (opts && opts->undo_file) {
		/*
		 * Checked here too, so no caller can skip it: libext2fs
		 * would open whatever the path names with O_CREAT.
		 */
		err = fsio_check_undo(dev, opts->undo_file, true);
		if (!err)
			err = set_undo_io_backing_manager(unix_io_manager);
		if (!err)
			err = set_undo_io_backup_file((char *)opts->undo_file);
		if (err)
			return err;
		io = undo_io_manager;
	}
	err = ext2fs_open2(dev->path, NULL, EXT2_FLAG_RW |
			   EXT2_FLAG_EXCLUSIVE | EXT2_FLAG_SUPER_ONLY |
			   EXT2_FLAG_64BITS | extra_flags, 0, 0, io, fs);
	if (err == EBUSY)
		err = EXT4DEV_ERR_BUSY;
	/* It resumes only an undo file of this very filesystem. */
	if (err == EXT2_ET_UNDO_FILE_CORRUPT || err == EXT2_ET_UNDO_FILE_WRONG)
		dev->undo_err = true;
	return fsio_rw_error(dev, err);
}

errcode_t fsio_reopen_rw(struct fsio_dev *dev,
			 const struct fsio_write_opts *opts, ext2_filsys *fs)
{
	errcode_t err;

	if (!dev->fs || !dev->saved_super)
		return EXT2_ET_INVALID_ARGUMENT;
	/* The validated read-only handle gives way to the writing one. */
	ext2fs_close_free(&dev->fs);
	err = open_rw(dev, opts, fs, 0);

	if (err)
		return err;
	/*
	 * Someone other than an ext4dev (which waits on our lock) wrote
	 * in between: do not overwrite what we have not validated.
	 */
	if (memcmp((*fs)->super, dev->saved_super, SUPERBLOCK_SIZE)) {
		ext2fs_close_free(fs);
		return EXT4DEV_ERR_CHANGED;
	}
	return 0;
}

errcode_t fsio_check_writable(struct fsio_dev *dev)
{
	struct stat st;
	int attr = 0, ro = 0;

	if (dev->lock_fd < 0 || fstat(dev->lock_fd, &st))
		return EXT2_ET_INVALID_ARGUMENT;
	/* As the real open would find it: mode, read-only mount, ACLs. */
	if (faccessat(AT_FDCWD, dev->path, W_OK, AT_EACCESS))
		return errno;
	if (S_ISBLK(st.st_mode))
		return !ioctl(dev->lock_fd, BLKROGET, &ro) && ro ? EROFS : 0;
	/* open(O_RDWR) of an immutable or append-only file is EPERM. */
	if (!ioctl(dev->lock_fd, FS_IOC_GETFLAGS, &attr) &&
	    (attr & (FS_IMMUTABLE_FL | FS_APPEND_FL)))
		return EPERM;
	return 0;
}

errcode_t fsio_commit_flags(struct fsio_dev *dev, uint32_t s_flags,
			    const struct fsio_write_opts *opts)
{
	ext2_filsys fs;
	errcode_t err;

	err = fsio_reopen_rw(dev, opts, &fs);
	if (err)
		return err;
	fs->super->s_flags = s_flags;
	/* Every copy, like tune2fs; groups' descriptors are untouched. */
	fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
	fs->flags |= EXT2_FLAG_SUPER_ONLY;
	/*
	 * Without orig_super libext2fs writes the primary in one piece
	 * instead of field by field, so a crash cannot leave it torn.
	 */
	ext2fs_free_mem(&fs->orig_super);
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_close2(fs, 0);
	if (err)
		ext2fs_free(fs);
	return err;
}

void fsio_close(struct fsio_dev *dev)
{
	if (dev->fs)
		ext2fs_close_free(&dev->fs);
	if (dev->saved_super)
		ext2fs_free_mem(&dev->saved_super);
	if (dev->stale)
		ext2fs_free_mem(&dev->stale);
	dev->nstale = 0;
	if (dev->lock_fd >= 0)
		close(dev->lock_fd);
	dev->lock_fd = -1;
	for (unsigned int i = 0; i < dev->nclaims; i++)
		close(dev->claims[i]);
	free(dev->claims);
	dev->claims = NULL;
	dev->nclaims = 0;
	fsio_undo_cleanup(dev);
}

void fsio_release(struct fsio_dev *dev)
{
	fsio_close(dev);
	free(dev->spec);
	free(dev->path);
	dev->spec = NULL;
	dev->path = NULL;
}
