// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs's target, through the same module as the flag commands: what the
 * device is (stat, size, sector sizes), its lock, and pointing a
 * filesystem built in memory at it.  See fsio.h.
 */
#define _GNU_SOURCE		/* O_TMPFILE, AT_EMPTY_PATH */
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

/* The directory @path is in: "." for a bare name, "/" at the root. */
static const char *parent_dir(const char *path, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", path);
	slash = strrchr(buf, '/');
	if (!slash)
		return ".";
	*(slash == buf ? slash + 1 : slash) = '\0';
	return buf;
}

/*
 * A new image file, locked before its name appears: an unnamed file in
 * the directory, flocked, then linked in place (EEXIST if a name got
 * there first).  Without O_TMPFILE (some file systems), O_EXCL.
 */
static errcode_t create_locked(struct fsio_dev *dev)
{
	char dir[PATH_MAX], proc[32];
	int fd;

	fd = open(parent_dir(dev->path, dir, sizeof(dir)),
		  O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		/* A second mkfs may lock it first: it then sees no holes. */
		errcode_t err = fsio_open_kind(dev->path, O_RDONLY | O_CREAT |
					       O_EXCL, &dev->lock_fd);

		return err ? err : flock(dev->lock_fd, LOCK_EX) ? errno : 0;
	}
	if (fd < 0)
		return errno;
	flock(fd, LOCK_EX);	/* nobody else can know the file yet */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(fd, "", AT_FDCWD, dev->path, AT_EMPTY_PATH) &&
	    (errno == EEXIST ||
	     linkat(AT_FDCWD, proc, AT_FDCWD, dev->path, AT_SYMLINK_FOLLOW))) {
		errcode_t err = errno;

		close(fd);
		return err;
	}
	dev->lock_fd = fd;
	return 0;
}

/* Let go of the lock and everything held with it, to start again. */
static void unlock_target(struct fsio_dev *dev)
{
	if (dev->lock_fd >= 0)
		close(dev->lock_fd);
	dev->lock_fd = -1;
	for (unsigned int i = 0; i < dev->nclaims; i++)
		close(dev->claims[i]);
	dev->nclaims = 0;
	dev->target_created = false;
}

/* Is the path still the file we locked (not replaced while we waited)? */
static bool still_locked_file(const struct fsio_dev *dev)
{
	struct stat st, fst;

	return !stat(dev->path, &st) && !fstat(dev->lock_fd, &fst) &&
	       st.st_dev == fst.st_dev && st.st_ino == fst.st_ino;
}

/*
 * One try: 0 locked, EAGAIN when the path changed under us (created,
 * removed or replaced by another process meanwhile), or why not.
 */
static errcode_t lock_once(struct fsio_dev *dev, bool may_create)
{
	struct stat st;
	errcode_t err;

	if (may_create && lstat(dev->path, &st) && errno == ENOENT) {
		err = create_locked(dev);
		if (err == EEXIST)
			return EAGAIN;	/* lost the race: lock theirs */
		if (!err)
			dev->target_created = true;
		return err;
	}
	err = fsio_open_kind(dev->path, O_RDONLY, &dev->lock_fd);
	if (err == ENOENT)
		return EAGAIN;
	if (!err)
		err = fsio_lock_backing(dev, LOCK_EX);
	if (!err)
		err = fsio_lock_fd(dev->lock_fd, LOCK_EX, dev->path,
				   dev->lock_wait);
	if (!err && !still_locked_file(dev))
		err = EAGAIN;
	return err;
}

errcode_t fsio_lock_target(struct fsio_dev *dev, bool may_create)
{
	struct stat st;
	errcode_t err = EAGAIN;

	for (int i = 0; i < 8 && err == EAGAIN; i++) {
		unlock_target(dev);
		/* Nothing there, nothing to make: the caller says so. */
		if (!may_create && stat(dev->path, &st) && errno == ENOENT)
			return 0;
		err = lock_once(dev, may_create);
	}
	if (err)
		unlock_target(dev);
	/* A dangling link: the caller's probe names its target. */
	if (err == EAGAIN && stat(dev->path, &st) && errno == ENOENT)
		return 0;
	return err == EAGAIN ? EXT4DEV_ERR_CHANGED : err;
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
	char dir[PATH_MAX];
	errcode_t err;
	int fd;

	fd = open(parent_dir(dev->path, dir, sizeof(dir)),
		  O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0) {
		err = size_fd(dev, fd, dev->offset + bytes);
		close(fd);
		return err;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR)
		return errno;
	fd = open(dev->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
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
