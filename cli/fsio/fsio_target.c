// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs's target, through the same module as the flag commands: what the
 * device is (stat, size, sector sizes), its lock, and pointing a
 * filesystem built in memory at it.  See fsio.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"

errcode_t fsio_stat_target(const struct fsio_dev *dev, unsigned int blocksize,
			   struct fsio_target *t)
{
	int sect = 0, phys = 0;
	struct stat st;
	errcode_t err;

	memset(t, 0, sizeof(*t));
	if (stat(dev->path, &st))
		return errno;
	err = fsio_kind_error(&st);
	if (err)
		return err;
	t->exists = true;
	t->is_blk = S_ISBLK(st.st_mode);
	/* No block allocated: no byte of the file was ever written. */
	t->all_holes = S_ISREG(st.st_mode) && st.st_blocks == 0;
	err = ext2fs_get_device_size2(dev->path, (int)blocksize, &t->size);
	if (!err)
		err = ext2fs_get_device_sectsize(dev->path, &sect);
	if (!err)
		err = ext2fs_get_device_phys_sectsize(dev->path, &phys);
	if (err)
		return err;
	t->sector_size = (unsigned int)sect;
	t->phys_sector_size = (unsigned int)(phys ? phys : sect);
	return 0;
}

errcode_t fsio_lock_target(struct fsio_dev *dev, bool create)
{
	errcode_t err;

	err = fsio_open_kind(dev->path, O_RDONLY | (create ? O_CREAT |
			     O_EXCL : 0), &dev->lock_fd);
	if (err)
		return err;
	dev->target_created = create;
	/* Waits like every subcommand; --wait bounds it. */
	err = fsio_lock_backing(dev, LOCK_EX);
	if (err)
		return err;
	return fsio_lock_fd(dev->lock_fd, LOCK_EX, dev->path, dev->lock_wait);
}

/* The largest length @fd takes: a binary search over ftruncate(). */
static off_t largest_size(int fd, off_t over)
{
	off_t lo = 0, hi = over;

	while (hi - lo > 1) {
		off_t mid = lo + (hi - lo) / 2;

		if (ftruncate(fd, mid))
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

static errcode_t size_fd(struct fsio_dev *dev, int fd, off_t bytes)
{
	struct stat st;

	if (fstat(fd, &st))
		return errno;
	if (!S_ISREG(st.st_mode) || st.st_size >= bytes)
		return 0;
	if (!ftruncate(fd, bytes))
		return 0;
	if (errno != EFBIG && errno != EINVAL)
		return errno;
	dev->max_file_size = largest_size(fd, bytes);
	if (ftruncate(fd, st.st_size))
		return errno;
	return EFBIG;
}

errcode_t fsio_size_target(struct fsio_dev *dev, off_t bytes)
{
	errcode_t err;
	int fd = open(dev->path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return errno;
	err = size_fd(dev, fd, dev->offset + bytes);
	close(fd);
	return err;
}

errcode_t fsio_probe_create(struct fsio_dev *dev, off_t bytes)
{
	errcode_t err;
	int fd = open(dev->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		      O_NOFOLLOW, 0666);

	if (fd < 0)
		return errno;
	err = size_fd(dev, fd, dev->offset + bytes);
	close(fd);
	if (unlink(dev->path) && !err)
		err = errno;
	return err;
}

void fsio_remove_created(struct fsio_dev *dev)
{
	struct stat st, fst;

	if (!dev->target_created || dev->lock_fd < 0)
		return;
	if (!stat(dev->path, &st) && !fstat(dev->lock_fd, &fst) &&
	    st.st_dev == fst.st_dev && st.st_ino == fst.st_ino)
		unlink(dev->path);
	dev->target_created = false;
}

static errcode_t open_rw(struct fsio_dev *dev, io_channel *io)
{
	errcode_t err;

	err = unix_io_manager->open(dev->path, IO_FLAG_RW | IO_FLAG_EXCLUSIVE,
				    io);
	if (err == EBUSY)
		return EXT4DEV_ERR_BUSY;
	return fsio_rw_error(dev, err);
}

errcode_t fsio_check_target_rw(struct fsio_dev *dev)
{
	io_channel io;
	errcode_t err = open_rw(dev, &io);

	/* Nothing written, nothing to flush: closing writes nothing. */
	return err ? err : io_channel_close(io);
}

/* Every block of the channel @io from @offset bytes into the device on. */
static errcode_t set_offset(io_channel io, off_t offset)
{
	char opt[32];

	snprintf(opt, sizeof(opt), "offset=%lld", (long long)offset);
	return io_channel_set_options(io, opt);
}

errcode_t fsio_attach(struct fsio_dev *dev, ext2_filsys fs)
{
	io_channel io;
	char *name;
	errcode_t err;

	err = open_rw(dev, &io);
	if (err)
		return err;
	err = io_channel_set_blksize(io, fs->blocksize);
	if (!err && dev->offset)
		err = set_offset(io, dev->offset);
	if (!err)
		err = ext2fs_get_mem(strlen(dev->path) + 1, &name);
	if (err) {
		io_channel_close(io);
		return err;
	}
	strcpy(name, dev->path);
	ext2fs_free_mem(&fs->device_name);
	fs->device_name = name;
	io->app_data = fs;
	io_channel_close(fs->io);
	fs->io = io;
	fs->image_io = io;
	return 0;
}
