// SPDX-License-Identifier: GPL-2.0
/*
 * The -z undo file: checked before the first byte is written, so that
 * a wrong path is refused instead of destroying what it names.
 * libext2fs's undo_io_manager itself opens the path with O_CREAT and
 * reuses what is there; everything it must not meet is stopped here.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"

/* undo_io.c's header magic: the file is an e2undo file. */
#define FSIO_UNDO_MAGIC "E2UNDO02"

static errcode_t undo_error(struct fsio_dev *dev, errcode_t err)
{
	dev->undo_err = true;
	return err;
}

/*
 * What stat() says, before anything is opened: a device node or a FIFO
 * is never opened at all (a tape would rewind, a FIFO would block).
 */
static errcode_t check_kind(struct fsio_dev *dev, const struct stat *st)
{
	struct stat dst;

	if (S_ISDIR(st->st_mode))
		return EISDIR;
	if (!S_ISREG(st->st_mode))
		return EXT4DEV_ERR_UNDO_NOT_FILE;
	/* The image itself, through a hard link or a symlink. */
	if (dev->lock_fd >= 0 && !fstat(dev->lock_fd, &dst) &&
	    st->st_dev == dst.st_dev && st->st_ino == dst.st_ino)
		return EXT4DEV_ERR_UNDO_IS_DEVICE;
	return 0;
}

/* An existing regular file: empty, or already an e2undo file. */
static errcode_t check_contents(const char *path, off_t size)
{
	char magic[sizeof(FSIO_UNDO_MAGIC) - 1];
	ssize_t n;
	int fd;

	if (access(path, W_OK))
		return errno;
	if (!size)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
		  O_NOCTTY);
	if (fd < 0)
		return errno;
	n = pread(fd, magic, sizeof(magic), 0);
	close(fd);
	if (n != (ssize_t)sizeof(magic) ||
	    memcmp(magic, FSIO_UNDO_MAGIC, sizeof(magic)))
		return EXT4DEV_ERR_UNDO_FOREIGN;
	return 0;
}

/* A missing file: create it (O_EXCL, so nothing is replaced). */
static errcode_t create_new(struct fsio_dev *dev, const char *path,
			    bool keep)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		      O_NOFOLLOW, 0600);

	if (fd < 0)
		return errno;
	close(fd);
	if (!keep)
		return unlink(path) ? errno : 0;
	dev->undo_created = true;
	return 0;
}

errcode_t fsio_check_undo(struct fsio_dev *dev, const char *undo_file,
			  bool create)
{
	struct stat st;
	errcode_t err;

	dev->undo_file = undo_file;
	dev->undo_err = false;
	if (!undo_file || !*undo_file)
		return undo_error(dev, ENOENT);
	if (!stat(undo_file, &st)) {
		err = check_kind(dev, &st);
		if (!err)
			err = check_contents(undo_file, st.st_size);
	} else if (errno == ENOENT) {
		err = create_new(dev, undo_file, create);
	} else {
		err = errno;
	}
	return err ? undo_error(dev, err) : 0;
}

/* fsio_close(): an undo file fsio made and nothing went into. */
void fsio_undo_cleanup(struct fsio_dev *dev)
{
	struct stat st;

	if (dev->undo_created && !stat(dev->undo_file, &st) &&
	    S_ISREG(st.st_mode) && !st.st_size)
		unlink(dev->undo_file);
	dev->undo_created = false;
}
