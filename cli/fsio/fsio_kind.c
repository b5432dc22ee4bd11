// SPDX-License-Identifier: GPL-2.0
/*
 * What a path is, before anything opens it: only a regular file or a
 * block device is ever opened, so a FIFO never blocks us and a tape
 * never rewinds.  A leaf: every other fsio file may call it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"

errcode_t fsio_kind_error(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return EISDIR;
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode))
		return EXT4DEV_ERR_NOT_BLOCK_OR_FILE;
	return 0;
}

errcode_t fsio_check_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	return fsio_kind_error(&st);
}

/*
 * stat() first, so a FIFO, a socket, a tty or a tape is never opened
 * (a tape rewinds on open, a FIFO blocks); then O_NONBLOCK and fstat(),
 * because the path may have become one of them in between.
 */
errcode_t fsio_open_kind(const char *path, int flags, int *fd)
{
	struct stat st;
	errcode_t err;
	int fl;

	*fd = -1;
	if (!stat(path, &st)) {
		err = fsio_kind_error(&st);
		if (err)
			return err;
	} else if (errno != ENOENT || !(flags & O_CREAT)) {
		return errno;
	}
	*fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
	if (*fd < 0)
		return errno;
	err = fstat(*fd, &st) ? (errcode_t)errno : fsio_kind_error(&st);
	fl = fcntl(*fd, F_GETFL);
	if (!err && (fl < 0 || fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK)))
		err = errno;
	if (err) {
		close(*fd);
		*fd = -1;
	}
	return err;
}
