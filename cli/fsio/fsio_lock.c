// SPDX-License-Identifier: GPL-2.0
/*
 * The advisory lock every ext4dev subcommand takes on a device before
 * it looks at it: shared to read, exclusive to write, so that two
 * ext4dev processes (or an ext4dev and flock(1)) take turns.  All
 * subcommands wait alike: silently for a second, then with one notice,
 * for ever or until --wait SECONDS runs out.
 */
#define _GNU_SOURCE		/* F_OFD_GETLK, F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"

/* Polling keeps the wait bounded without signals; 20 ms is unnoticed. */
#define FSIO_LOCK_POLL_NS (20 * 1000 * 1000L)

static long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000L +
	       (now.tv_nsec - start->tv_nsec) / 1000000L;
}

errcode_t fsio_lock_fd(int fd, int how, const char *path,
		       const struct fsio_lock_wait *wait)
{
	const struct timespec poll = { 0, FSIO_LOCK_POLL_NS };
	struct timespec start;
	bool told = false;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (!flock(fd, how | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return errno;
		ms = elapsed_ms(&start);
		if (wait && wait->seconds >= 0 && ms >= wait->seconds * 1000L)
			return EXT4DEV_ERR_LOCKED;
		if (!told && ms >= 1000 && wait && wait->notice) {
			wait->notice(path, wait->seconds);
			told = true;
		}
		nanosleep(&poll, NULL);
	}
}

bool fsio_parse_wait(const char *arg, int *seconds)
{
	unsigned long v;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return false;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v > INT_MAX / 1000)
		return false;
	*seconds = (int)v;
	return true;
}

/*
 * QEMU's image locks (its file-posix driver): OFD locks on one byte per
 * permission, 100 + bit for what a user holds, 200 + bit for what it
 * will not share; bit 1 is writing.  A QEMU with the image as a drive
 * holds 201 (nobody else may write) and, unless read-only, 101.
 */
static const off_t vm_lock_bytes[] = { 101, 201 };

static bool vm_locked(int fd)
{
	for (size_t i = 0; i < sizeof(vm_lock_bytes) / sizeof(off_t); i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = vm_lock_bytes[i], .l_len = 1 };

		if (!fcntl(fd, F_OFD_GETLK, &fl) && fl.l_type != F_UNLCK)
			return true;
	}
	return false;
}

/*
 * Hold what QEMU would (we write and share writing with nobody), so a
 * QEMU started meanwhile refuses the image as it refuses a second QEMU.
 * Best effort: a file system without OFD locks has no QEMU locks either.
 */
static void take_vm_locks(int fd)
{
	for (size_t i = 0; i < sizeof(vm_lock_bytes) / sizeof(off_t); i++) {
		struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET,
				    .l_start = vm_lock_bytes[i], .l_len = 1 };

		(void)fcntl(fd, F_OFD_SETLK, &fl);
	}
}

/* The name @fd was opened by, for the message. */
static void name_fd(int fd, char *buf, size_t len)
{
	char link[32];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

errcode_t fsio_check_vm_locks(struct fsio_dev *dev)
{
	if (dev->lock_fd >= 0 && vm_locked(dev->lock_fd))
		return EXT4DEV_ERR_VM_LOCKED;
	for (unsigned int i = 0; i < dev->nclaims; i++) {
		if (vm_locked(dev->claims[i])) {
			name_fd(dev->claims[i], dev->alias, sizeof(dev->alias));
			return EXT4DEV_ERR_VM_LOCKED;
		}
	}
	if (dev->lock_fd >= 0)
		take_vm_locks(dev->lock_fd);
	for (unsigned int i = 0; i < dev->nclaims; i++)
		take_vm_locks(dev->claims[i]);
	return 0;
}
