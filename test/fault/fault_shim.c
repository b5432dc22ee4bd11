// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only LD_PRELOAD shim that breaks the writes a process makes to
 * one file, to see what a crash or an I/O error at each point leaves on
 * disk.  Never built into ext4dev itself.
 *
 * Environment:
 *   EXT4DEV_FAULT_FILE  the image; writes to any other file pass through
 *   EXT4DEV_FAULT_MODE  none      count and log only
 *                       eio       write number AT fails with EIO, and so
 *                                 does every later write to the same
 *                                 bytes (a bad sector: libext2fs retries
 *                                 a failed pwrite once with lseek+write)
 *                       eio-once  only write number AT fails (a transient
 *                                 error the retry gets past)
 *                       powerloss write AT and every later one is dropped
 *                                 (reported as done, as a volatile disk
 *                                 cache would before the power goes);
 *                                 the process still reads back what it
 *                                 wrote, as it would from that cache,
 *                                 so it goes on as it would until the
 *                                 power went
 *                       torn      write AT lands only its first 512-byte
 *                                 sector, then as powerloss
 *                       fsync-eio fsync/fdatasync number AT fails with EIO
 *                       signal    write number AT is not made: the
 *                                 process gets $EXT4DEV_FAULT_SIGNAL
 *                                 (a number, default SIGINT) instead,
 *                                 as if the user interrupted it there
 *   EXT4DEV_FAULT_AT    1-based index of the write (or fsync) to break
 *   EXT4DEV_FAULT_DELAY_US  sleep this long before each write to the
 *                       image (widens race windows for the stress tests)
 *   EXT4DEV_FAULT_LOG   file that gets one line per event on the image:
 *                       "W <offset> <length> <ok|eio|dropped|torn>",
 *                       "D ..." the same for a discard or zeroing
 *                       fallocate(), which counts as a write, or
 *                       "S <ok|eio|dropped>"
 *
 * The file is recognised by device and inode, so every descriptor that
 * refers to it counts, whatever name it was opened by.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SECTOR 512

enum fault_mode { FAULT_NONE, FAULT_EIO, FAULT_EIO_ONCE, FAULT_POWERLOSS,
		  FAULT_TORN, FAULT_FSYNC_EIO, FAULT_SIGNAL };

/* A write (or a discard: data NULL, zeros) that the disk never got. */
struct dropped {
	off_t off;
	size_t len;
	char *data;
};

static struct {
	bool active;
	dev_t dev;
	ino_t ino;
	enum fault_mode mode;
	long at;
	long delay_us;
	long writes, syncs;
	bool lost;		/* the power is gone: drop everything */
	off_t bad_off;		/* FAULT_EIO: the bad bytes, once known */
	size_t bad_len;
	int log_fd;
	struct dropped *cache;	/* what the lost power never wrote */
	size_t ncache, cache_cap;
} shim = { .log_fd = -1 };

static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_fallocate)(int, int, off_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

static enum fault_mode parse_mode(const char *s)
{
	if (!s || !strcmp(s, "none"))
		return FAULT_NONE;
	if (!strcmp(s, "eio"))
		return FAULT_EIO;
	if (!strcmp(s, "eio-once"))
		return FAULT_EIO_ONCE;
	if (!strcmp(s, "powerloss"))
		return FAULT_POWERLOSS;
	if (!strcmp(s, "torn"))
		return FAULT_TORN;
	if (!strcmp(s, "fsync-eio"))
		return FAULT_FSYNC_EIO;
	if (!strcmp(s, "signal"))
		return FAULT_SIGNAL;
	fprintf(stderr, "fault_shim: unknown EXT4DEV_FAULT_MODE '%s'\n", s);
	abort();
}

static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		fprintf(stderr, "fault_shim: no %s: %s\n", name, dlerror());
		abort();
	}
	return fn;
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *file = getenv("EXT4DEV_FAULT_FILE");
	const char *log = getenv("EXT4DEV_FAULT_LOG");
	const char *at = getenv("EXT4DEV_FAULT_AT");
	struct stat st;

	real_pwrite64 = next("pwrite64");
	real_pread64 = next("pread64");
	real_read = next("read");
	real_write = next("write");
	real_pwritev = next("pwritev");
	real_writev = next("writev");
	real_fallocate = next("fallocate");
	real_fsync = next("fsync");
	real_fdatasync = next("fdatasync");
	if (!file || stat(file, &st))
		return;
	shim.dev = st.st_dev;
	shim.ino = st.st_ino;
	shim.mode = parse_mode(getenv("EXT4DEV_FAULT_MODE"));
	shim.at = at ? atol(at) : 0;
	if (getenv("EXT4DEV_FAULT_DELAY_US"))
		shim.delay_us = atol(getenv("EXT4DEV_FAULT_DELAY_US"));
	if (log)
		shim.log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND |
				   O_CLOEXEC, 0644);
	shim.active = true;
}

static bool is_image(int fd)
{
	struct stat st;

	return shim.active && fd != shim.log_fd && !fstat(fd, &st) &&
	       st.st_dev == shim.dev && st.st_ino == shim.ino;
}

static __attribute__((format(printf, 1, 2)))
void shim_log(const char *fmt, ...)
{
	char line[128];
	va_list ap;
	int n;

	if (shim.log_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		real_write(shim.log_fd, line, (size_t)n);
}

/* A dropped write (@data NULL: a discard) kept for the reads. */
static void remember(off_t off, size_t len, const void *data)
{
	struct dropped *more, *d;

	if (!len)
		return;
	if (shim.ncache == shim.cache_cap) {
		shim.cache_cap = shim.cache_cap ? shim.cache_cap * 2 : 64;
		more = realloc(shim.cache, shim.cache_cap * sizeof(*more));
		if (!more)
			abort();
		shim.cache = more;
	}
	d = &shim.cache[shim.ncache++];
	*d = (struct dropped){ off, len, NULL };
	if (data) {
		d->data = malloc(len);
		if (!d->data)
			abort();
		memcpy(d->data, data, len);
	}
}

/* What the process reads: the disk's bytes under the dropped writes. */
static void overlay(off_t off, char *buf, ssize_t got)
{
	for (size_t i = 0; got > 0 && i < shim.ncache; i++) {
		const struct dropped *d = &shim.cache[i];
		off_t from = d->off > off ? d->off : off;
		off_t to = d->off + (off_t)d->len < off + got ?
			   d->off + (off_t)d->len : off + got;

		if (from >= to)
			continue;
		if (d->data)
			memcpy(buf + (from - off), d->data + (from - d->off),
			       (size_t)(to - from));
		else
			memset(buf + (from - off), 0, (size_t)(to - from));
	}
}

/*
 * Decide the fate of one write (@kind 'W') or discard ('D') of @len
 * bytes at *@offp (-1: the file position, filled in).  Returns how many leading
 * bytes really go to disk; *@ret gets what the caller must see when not
 * all of them do.
 */
static size_t decide(int fd, off_t *offp, size_t len, ssize_t *ret,
		     char kind)
{
	off_t off = *offp;
	long n = ++shim.writes;

	if (off < 0)
		off = lseek(fd, 0, SEEK_CUR);
	*offp = off;
	if (shim.delay_us)
		usleep((useconds_t)shim.delay_us);
	*ret = (ssize_t)len;
	if (shim.lost) {
		shim_log("%c %lld %zu dropped\n", kind, (long long)off, len);
		return 0;
	}
	if (n == shim.at && shim.mode == FAULT_SIGNAL) {
		const char *sig = getenv("EXT4DEV_FAULT_SIGNAL");

		shim_log("%c %lld %zu signal\n", kind, (long long)off, len);
		shim.at = 0;	/* the handler's own writes pass */
		raise(sig ? atoi(sig) : SIGINT);
	}
	if (n == shim.at && shim.mode == FAULT_EIO) {
		shim.bad_off = off;
		shim.bad_len = len;
	}
	if ((n == shim.at && shim.mode == FAULT_EIO_ONCE) ||
	    (shim.bad_len && off < shim.bad_off + (off_t)shim.bad_len &&
	     shim.bad_off < off + (off_t)len)) {
		shim_log("%c %lld %zu eio\n", kind, (long long)off, len);
		errno = EIO;
		*ret = -1;
		return 0;
	}
	if (n == shim.at && (shim.mode == FAULT_POWERLOSS ||
			     (shim.mode == FAULT_TORN && kind == 'D'))) {
		shim.lost = true;
		shim_log("%c %lld %zu dropped\n", kind, (long long)off, len);
		return 0;
	}
	if (n == shim.at && shim.mode == FAULT_TORN) {
		shim.lost = true;
		shim_log("%c %lld %zu torn\n", kind, (long long)off, len);
		return len < SECTOR ? len : SECTOR;
	}
	shim_log("%c %lld %zu ok\n", kind, (long long)off, len);
	return len;
}

/* decide(), and what the lost power keeps from the disk remembered. */
static size_t fate(int fd, off_t off, size_t len, ssize_t *ret, char kind,
		   const void *data)
{
	size_t keep = decide(fd, &off, len, ret, kind);
	const char *bytes = data;

	if (shim.lost && *ret >= 0 && keep < len)
		remember(off + (off_t)keep, len - keep,
			 bytes ? bytes + keep : NULL);
	return keep;
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t ret;
	size_t keep;

	if (!is_image(fd))
		return real_pwrite64(fd, buf, len, off);
	keep = fate(fd, off, len, &ret, 'W', buf);
	if (keep == len)
		return real_pwrite64(fd, buf, len, off);
	if (keep && real_pwrite64(fd, buf, keep, off) < 0)
		return -1;
	return ret;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite64(fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	off_t pos;
	ssize_t ret;
	size_t keep;

	if (!is_image(fd))
		return real_write(fd, buf, len);
	keep = fate(fd, -1, len, &ret, 'W', buf);
	if (keep == len)
		return real_write(fd, buf, len);
	pos = lseek(fd, 0, SEEK_CUR);
	if (keep && real_pwrite64(fd, buf, keep, pos) < 0)
		return -1;
	/* The caller's file position moves as if the write happened. */
	if (ret > 0)
		lseek(fd, pos + ret, SEEK_SET);
	return ret;
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	ssize_t got = real_pread64(fd, buf, len, off);

	if (got > 0 && shim.ncache && is_image(fd))
		overlay(off, buf, got);
	return got;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	return pread64(fd, buf, len, off);
}

ssize_t read(int fd, void *buf, size_t len)
{
	off_t pos = shim.ncache && is_image(fd) ? lseek(fd, 0, SEEK_CUR) : -1;
	ssize_t got = real_read(fd, buf, len);

	if (got > 0 && pos >= 0)
		overlay(pos, buf, got);
	return got;
}

/* ext4dev does not use vectored writes; count them so a change shows. */
static size_t iov_len(const struct iovec *iov, int n)
{
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += iov[i].iov_len;
	return len;
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	ssize_t ret;

	if (!is_image(fd))
		return real_pwritev(fd, iov, n, off);
	if (fate(fd, off, iov_len(iov, n), &ret, 'W', NULL) == iov_len(iov, n))
		return real_pwritev(fd, iov, n, off);
	/* Torn vectored writes are not modelled, nor read back. */
	return ret;
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	ssize_t ret;

	if (!is_image(fd))
		return real_writev(fd, iov, n);
	if (fate(fd, -1, iov_len(iov, n), &ret, 'W', NULL) == iov_len(iov, n))
		return real_writev(fd, iov, n);
	return ret;
}

/*
 * Punching a hole or zeroing a range destroys data like a write does
 * (libext2fs discards and zeroes through fallocate), so it counts as
 * one; plain allocation passes through.
 */
int fallocate(int fd, int mode, off_t off, off_t len)
{
	ssize_t ret;

	if (!is_image(fd) ||
	    !(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)))
		return real_fallocate(fd, mode, off, len);
	if (fate(fd, off, (size_t)len, &ret, 'D', NULL) == (size_t)len)
		return real_fallocate(fd, mode, off, len);
	return ret < 0 ? -1 : 0;
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
	return fallocate(fd, mode, off, len);
}

static int sync_fate(void)
{
	long n = ++shim.syncs;

	if (shim.lost) {
		shim_log("S dropped\n");
		return 0;
	}
	if (n == shim.at && shim.mode == FAULT_FSYNC_EIO) {
		shim_log("S eio\n");
		errno = EIO;
		return -1;
	}
	shim_log("S ok\n");
	return 1;
}

int fsync(int fd)
{
	int r;

	if (!is_image(fd))
		return real_fsync(fd);
	r = sync_fate();
	return r > 0 ? real_fsync(fd) : r;
}

int fdatasync(int fd)
{
	int r;

	if (!is_image(fd))
		return real_fdatasync(fd);
	r = sync_fate();
	return r > 0 ? real_fdatasync(fd) : r;
}
