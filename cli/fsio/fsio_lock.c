// SPDX-License-Identifier: GPL-2.0
/*
 * The advisory lock every ext4dev subcommand takes on a device before
 * it looks at it: shared to read, exclusive to write, so that two
 * ext4dev processes (or an ext4dev and flock(1)) take turns.  All
 * subcommands wait alike: silently for a second, then with one notice,
 * for ever or until --wait SECONDS runs out.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>

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
