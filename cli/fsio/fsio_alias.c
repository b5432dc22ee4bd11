// SPDX-License-Identifier: GPL-2.0
/*
 * Every other name of the same bytes.  The kernel knows an image's
 * bytes by more names than the one the user typed: each loop device of
 * the file, each partition of those, a loop device's partitions and
 * holders.  A filesystem mounted under any of them (in any mount
 * namespace) is corrupted by a write through another.  So before a
 * write, every other name is claimed with an exclusive open -- O_EXCL
 * on a block device fails with EBUSY while it is mounted or held
 * anywhere -- and held until fsio_close(), so that nobody can mount it
 * meanwhile.  Only when a claim fails do we look for the reason
 * (fsio_mounts.c), to name it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/loop.h>

#include "fsio.h"

#define FSIO_SECTOR 512ULL
#define FSIO_TO_END UINT64_MAX
#define FSIO_MAX_PARTS 128

/* A byte range of one regular file: what one name of it covers. */
struct span {
	dev_t file_dev;
	ino_t file_ino;
	uint64_t start, end;	/* end exclusive; FSIO_TO_END: to EOF */
};

/* A block device as sysfs lists it: "loop1", "loop1p2". */
struct blk {
	char name[NAME_MAX + 1];
	dev_t rdev;
	uint64_t start, size;	/* a partition's, in sectors */
};

static uint64_t span_end(uint64_t start, uint64_t len)
{
	return (!len || len > FSIO_TO_END - start) ? FSIO_TO_END :
						     start + len;
}

static bool overlaps(const struct span *s, uint64_t start, uint64_t end)
{
	return start < s->end && s->start < end;
}

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

/* Open /dev/@name only if it is the block device @rdev. */
static int open_node(const char *name, dev_t rdev, int flags)
{
	char node[PATH_MAX];
	struct stat st;
	int fd;

	snprintf(node, sizeof(node), "/dev/%s", name);
	fd = open(node, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != rdev) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

/* LOOP_GET_STATUS64 of loop device @b; false if it is not bound. */
static bool loop_status(const struct blk *b, struct loop_info64 *li)
{
	int fd = open_node(b->name, b->rdev, O_RDONLY);
	bool ok;

	if (fd < 0)
		return false;
	/* Zeroed first: valgrind cannot see what this ioctl fills in. */
	memset(li, 0, sizeof(*li));
	ok = !ioctl(fd, LOOP_GET_STATUS64, li);
	close(fd);
	return ok;
}

/* lo_device is the kernel's huge_encode_dev() of the file's st_dev. */
static dev_t loop_file_dev(const struct loop_info64 *li)
{
	return makedev((unsigned int)((li->lo_device & 0xfff00) >> 8),
		       (unsigned int)((li->lo_device & 0xff) |
				      ((li->lo_device >> 12) & 0xfff00)));
}

/* The partitions sysfs lists under block device @name. */
static unsigned int list_parts(const char *name, struct blk *p,
			       unsigned int max)
{
	char dir[NAME_MAX + 16], sub[PATH_MAX];
	unsigned int n = 0;
	struct dirent *d;
	uint64_t v;
	DIR *sys;

	snprintf(dir, sizeof(dir), "/sys/block/%s", name);
	sys = opendir(dir);
	if (!sys)
		return 0;
	while (n < max && (d = readdir(sys))) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
		if (d->d_name[0] == '.' || !sysfs_u64(sub, "partition", &v) ||
		    !sysfs_dev(sub, &p[n].rdev) ||
		    !sysfs_u64(sub, "start", &p[n].start) ||
		    !sysfs_u64(sub, "size", &p[n].size))
			continue;
		snprintf(p[n].name, sizeof(p[n].name), "%s", d->d_name);
		n++;
	}
	closedir(sys);
	return n;
}

/*
 * The block device dev->path names, as sysfs sees it: *@self, and the
 * whole disk *@whole (the same for a whole disk).  False for a file.
 */
static bool target_blk(const char *path, struct blk *self, struct blk *whole)
{
	char sys[64], dir[PATH_MAX], *slash;
	struct stat st;
	uint64_t v;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, dir))
		return false;
	memset(self, 0, sizeof(*self));
	self->rdev = st.st_rdev;
	snprintf(self->name, sizeof(self->name), "%s", strrchr(dir, '/') + 1);
	*whole = *self;
	if (!sysfs_u64(dir, "partition", &v))
		return true;
	sysfs_u64(dir, "start", &self->start);
	sysfs_u64(dir, "size", &self->size);
	slash = strrchr(dir, '/');
	*slash = '\0';
	snprintf(whole->name, sizeof(whole->name), "%s", strrchr(dir, '/') + 1);
	return sysfs_dev(dir, &whole->rdev);
}

/*
 * What dev->path covers of a regular file: the whole of an image, or a
 * loop device's window of its backing file (*@own: that loop device,
 * which is not another name).  False when no file is under it.
 */
static bool target_span(const char *path, struct span *s, struct blk *own)
{
	struct loop_info64 li;
	struct blk self;
	struct stat st;

	memset(own, 0, sizeof(*own));
	if (stat(path, &st))
		return false;
	if (S_ISREG(st.st_mode)) {
		*s = (struct span){ st.st_dev, st.st_ino, 0, FSIO_TO_END };
		return true;
	}
	if (!target_blk(path, &self, own) || !loop_status(own, &li))
		return false;
	s->file_dev = loop_file_dev(&li);
	s->file_ino = (ino_t)li.lo_inode;
	s->start = li.lo_offset + self.start * FSIO_SECTOR;
	s->end = span_end(s->start, self.size ? self.size * FSIO_SECTOR :
						li.lo_sizelimit);
	return true;
}

static errcode_t hold(struct fsio_dev *dev, int fd)
{
	int *more = realloc(dev->claims, (dev->nclaims + 1) * sizeof(int));

	if (!more) {
		close(fd);
		return EXT2_ET_NO_MEMORY;
	}
	dev->claims = more;
	dev->claims[dev->nclaims++] = fd;
	return 0;
}

/* Open @b exclusively; hold it when @keep.  0, EBUSY or why not. */
static errcode_t claim(struct fsio_dev *dev, const struct blk *b, bool keep)
{
	int fd = open_node(b->name, b->rdev, O_RDONLY | O_EXCL);

	if (fd < 0)
		return (errcode_t)-fd;
	if (!keep) {
		close(fd);
		return 0;
	}
	return hold(dev, fd);
}

/*
 * Why is @b busy?  Mounted (here or in another namespace) or held by
 * another block device: fills dev's details and returns true.
 */
static bool why_busy(struct fsio_dev *dev, const struct blk *b)
{
	enum fsio_mount_where where;

	where = fsio_find_mount(b->rdev, dev->mountpoint,
				sizeof(dev->mountpoint));
	dev->mounted_elsewhere = where == FSIO_MOUNTED_ELSEWHERE;
	if (where != FSIO_NOT_MOUNTED)
		return true;
	dev->mountpoint[0] = '\0';
	return fsio_find_holder(b->rdev, dev->holder, sizeof(dev->holder));
}

/* Another name, @b, is busy (maybe through its whole disk @whole). */
static errcode_t alias_busy(struct fsio_dev *dev, const struct blk *b,
			    const struct blk *whole)
{
	snprintf(dev->alias, sizeof(dev->alias), "/dev/%s", b->name);
	if (!why_busy(dev, b) && whole && why_busy(dev, whole))
		snprintf(dev->alias, sizeof(dev->alias), "/dev/%s",
			 whole->name);
	if (dev->mountpoint[0])
		return EXT4DEV_ERR_ALIAS_MOUNTED;
	return EXT4DEV_ERR_ALIAS_BUSY;
}

/*
 * Another loop device @l of the same file: claim it whole, which also
 * keeps its partitions from being mounted.  Busy: claim instead each
 * partition over our bytes; a busy one refuses.  A loop device busy
 * with none of its partitions busy is mounted or held itself.
 */
static errcode_t claim_loop(struct fsio_dev *dev, const struct span *s,
			    const struct blk *l, const struct loop_info64 *li)
{
	struct blk parts[FSIO_MAX_PARTS];
	unsigned int n;
	bool any_busy = false;
	errcode_t err = claim(dev, l, true);

	if (err != EBUSY)
		return err;
	n = list_parts(l->name, parts, FSIO_MAX_PARTS);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t start = li->lo_offset + parts[i].start * FSIO_SECTOR;
		bool ours = overlaps(s, start, span_end(start, parts[i].size *
							   FSIO_SECTOR));

		err = claim(dev, &parts[i], ours);
		if (err == EBUSY && ours)
			return alias_busy(dev, &parts[i], l);
		if (err && err != EBUSY)
			return err;
		any_busy |= err == EBUSY;
	}
	return any_busy ? 0 : alias_busy(dev, l, NULL);
}

/* Is loop device @l, of our file and over our bytes, another name? */
static bool is_alias(const struct span *s, const struct blk *l,
		     struct loop_info64 *li)
{
	if (!loop_status(l, li) || loop_file_dev(li) != s->file_dev ||
	    (ino_t)li->lo_inode != s->file_ino)
		return false;
	return overlaps(s, li->lo_offset, span_end(li->lo_offset,
						   li->lo_sizelimit));
}

errcode_t fsio_claim_aliases(struct fsio_dev *dev)
{
	char dir[PATH_MAX];
	struct loop_info64 li;
	struct dirent *d;
	struct span s;
	struct blk own, l;
	errcode_t err = 0;
	DIR *sys;

	if (!target_span(dev->path, &s, &own))
		return 0;
	sys = opendir("/sys/block");
	if (!sys)
		return errno;
	while (!err && (d = readdir(sys))) {
		if (strncmp(d->d_name, "loop", 4))
			continue;
		/* loop/ is there only while the device is bound to a file. */
		snprintf(dir, sizeof(dir), "/sys/block/%s/loop", d->d_name);
		if (access(dir, F_OK))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s", d->d_name);
		snprintf(l.name, sizeof(l.name), "%s", d->d_name);
		if (!sysfs_dev(dir, &l.rdev) || l.rdev == own.rdev)
			continue;
		if (is_alias(&s, &l, &li))
			err = claim_loop(dev, &s, &l, &li);
	}
	closedir(sys);
	return err;
}

errcode_t fsio_explain_busy(struct fsio_dev *dev)
{
	struct blk self, whole, parts[FSIO_MAX_PARTS];
	unsigned int n;

	if (!target_blk(dev->path, &self, &whole))
		return EXT4DEV_ERR_BUSY;
	if (why_busy(dev, &self))
		return dev->mountpoint[0] ? EXT4DEV_ERR_MOUNTED :
					    EXT4DEV_ERR_BUSY;
	/* A partition is busy while its whole disk is mounted or held. */
	if (self.rdev != whole.rdev && why_busy(dev, &whole))
		return alias_busy(dev, &whole, NULL);
	/* A whole disk is busy while one of its partitions is. */
	n = self.rdev == whole.rdev ?
	    list_parts(self.name, parts, FSIO_MAX_PARTS) : 0;
	for (unsigned int i = 0; i < n; i++)
		if (claim(dev, &parts[i], false) == EBUSY)
			return alias_busy(dev, &parts[i], NULL);
	return EXT4DEV_ERR_BUSY;
}

errcode_t fsio_lock_backing(struct fsio_dev *dev, int how)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], *nl;
	struct loop_info64 li;
	struct blk self, whole;
	struct stat st;
	errcode_t err;
	int fd;
	FILE *f;

	if (!target_blk(dev->path, &self, &whole) || !loop_status(&whole, &li))
		return 0;
	snprintf(dir, sizeof(dir), "/sys/block/%s/loop/backing_file",
		 whole.name);
	f = fopen(dir, "re");
	if (!f)
		return 0;
	nl = fgets(file, sizeof(file), f) ? strchr(file, '\n') : NULL;
	fclose(f);
	if (!nl)
		return 0;
	*nl = '\0';
	/* Not reachable from here (another namespace, deleted): no lock. */
	if (fsio_open_kind(file, O_RDONLY, &fd))
		return 0;
	if (fstat(fd, &st) || st.st_dev != loop_file_dev(&li) ||
	    st.st_ino != (ino_t)li.lo_inode) {
		close(fd);
		return 0;
	}
	err = hold(dev, fd);
	return err ? err : fsio_lock_fd(fd, how, dev->path, dev->lock_wait);
}
