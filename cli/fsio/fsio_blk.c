// SPDX-License-Identifier: GPL-2.0
/*
 * Block devices as sysfs lists them (fsio_blk.h): their number, whether
 * they are a partition and where, their /dev node, and a loop device's
 * binding.  Reads /sys and opens device nodes read-only; never writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsio_blk.h"

static bool sysfs_u64(const char *dir, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];
	unsigned long long n;
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu", &n) == 1;
	fclose(f);
	if (ok)
		*v = n;
	return ok;
}

static bool sysfs_dev(const char *dir, dev_t *rdev)
{
	char path[PATH_MAX];
	unsigned int maj, min;
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (ok)
		*rdev = makedev(maj, min);
	return ok;
}

bool fsio_blk_read(const char *dir, struct fsio_blk *b)
{
	const char *slash = strrchr(dir, '/');
	uint64_t v;

	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", slash ? slash + 1 : dir);
	if (!sysfs_dev(dir, &b->rdev))
		return false;
	b->is_part = sysfs_u64(dir, "partition", &v);
	if (b->is_part)
		b->is_part = sysfs_u64(dir, "start", &b->start) &&
			     sysfs_u64(dir, "size", &b->size);
	return true;
}

int fsio_blk_open(const struct fsio_blk *b, int flags)
{
	char node[PATH_MAX];
	struct stat st;
	int fd;

	snprintf(node, sizeof(node), "/dev/%s", b->name);
	fd = open(node, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != b->rdev) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

bool fsio_blk_loop_status(const struct fsio_blk *b, struct loop_info64 *li)
{
	int fd = fsio_blk_open(b, O_RDONLY);
	bool ok;

	if (fd < 0)
		return false;
	/* Zeroed first: valgrind cannot see what this ioctl fills in. */
	memset(li, 0, sizeof(*li));
	ok = !ioctl(fd, LOOP_GET_STATUS64, li);
	close(fd);
	return ok;
}

/* lo_device and lo_rdevice are the kernel's huge_encode_dev(). */
dev_t fsio_blk_decode_dev(uint64_t v)
{
	return makedev((unsigned int)((v & 0xfff00) >> 8),
		       (unsigned int)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

dev_t fsio_blk_loop_file_dev(const struct loop_info64 *li)
{
	return fsio_blk_decode_dev(li->lo_device);
}

bool fsio_blk_backing_file(const struct fsio_blk *l, char *path, size_t len)
{
	char attr[NAME_MAX + 32], *nl;
	bool ok;
	FILE *f;

	snprintf(attr, sizeof(attr), "/sys/block/%s/loop/backing_file",
		 l->name);
	f = fopen(attr, "re");
	if (!f)
		return false;
	ok = fgets(path, (int)len, f) && (nl = strchr(path, '\n'));
	fclose(f);
	if (ok)
		*nl = '\0';
	return ok;
}

unsigned int fsio_blk_parts(const char *name, struct fsio_blk *p,
			    unsigned int max)
{
	char dir[NAME_MAX + 16], sub[PATH_MAX];
	unsigned int n = 0;
	struct dirent *d;
	DIR *sys;

	snprintf(dir, sizeof(dir), "/sys/block/%s", name);
	sys = opendir(dir);
	if (!sys)
		return 0;
	while (n < max && (d = readdir(sys))) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
		if (d->d_name[0] != '.' && fsio_blk_read(sub, &p[n]) &&
		    p[n].is_part)
			n++;
	}
	closedir(sys);
	return n;
}

bool fsio_blk_of_rdev(dev_t rdev, struct fsio_blk *self,
		      struct fsio_blk *whole)
{
	char sys[64], dir[PATH_MAX];

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	if (!realpath(sys, dir) || !fsio_blk_read(dir, self))
		return false;
	*whole = *self;
	if (!self->is_part)
		return true;
	/* A partition's directory sits in its disk's. */
	*strrchr(dir, '/') = '\0';
	return fsio_blk_read(dir, whole);
}

bool fsio_blk_of_path(const char *path, struct fsio_blk *self,
		      struct fsio_blk *whole)
{
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return false;
	return fsio_blk_of_rdev(st.st_rdev, self, whole);
}
