// SPDX-License-Identifier: GPL-2.0
/*
 * Every other name of the same bytes.  The kernel knows an image's
 * bytes by more names than the one the user typed: each loop device of
 * the file, each partition of those, loop devices on those loop
 * devices, the file as an overlay shows it, a loop device's partitions
 * and holders.  A filesystem mounted under any of them (in any mount
 * namespace) is corrupted by a write through another.  So every name
 * is followed down to its base (fsio_ident.c), and before a write every
 * bound loop device whose base overlaps ours is claimed with an
 * exclusive open -- O_EXCL on a block device fails with EBUSY while it
 * is mounted or held anywhere -- and held until fsio_close(), so that
 * nobody can mount it meanwhile.  Only when a claim fails do we look
 * for the reason (fsio_mounts.c), to name it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"
#include "fsio_blk.h"

#define FSIO_MAX_PARTS 128
/* A loop device that changes under the scan is read again this often. */
#define FSIO_CLAIM_TRIES 3

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
static errcode_t claim(struct fsio_dev *dev, const struct fsio_blk *b,
		       bool keep)
{
	int fd = fsio_blk_open(b, O_RDONLY | O_EXCL);

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
static bool why_busy(struct fsio_dev *dev, const struct fsio_blk *b)
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
static errcode_t alias_busy(struct fsio_dev *dev, const struct fsio_blk *b,
			    const struct fsio_blk *whole)
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
 * The busy alias's window @a in the target's own bytes (@t is the
 * target's from dev->offset on), for the message: which window.
 */
static void note_window(struct fsio_dev *dev, const struct fsio_base *t,
			const struct fsio_base *a)
{
	uint64_t zero = t->start - (uint64_t)dev->offset;

	dev->alias_start = a->start > zero ? a->start - zero : 0;
	dev->alias_end = a->end == FSIO_TO_END ? FSIO_TO_END :
			 a->end > zero ? a->end - zero : 0;
}

/*
 * Another loop device @l over our bytes (its base @lb): claim it whole,
 * which also keeps its partitions from being mounted.  Busy: claim
 * instead each partition over our bytes; a busy one refuses.  A loop
 * device busy with none of its partitions busy is mounted or held
 * itself.
 */
static errcode_t claim_loop(struct fsio_dev *dev, const struct fsio_base *t,
			    const struct fsio_blk *l,
			    const struct fsio_base *lb)
{
	struct fsio_blk parts[FSIO_MAX_PARTS];
	unsigned int n;
	bool any_busy = false;
	errcode_t err = claim(dev, l, true);

	if (err != EBUSY)
		return err;
	n = fsio_blk_parts(l->name, parts, FSIO_MAX_PARTS);
	for (unsigned int i = 0; i < n; i++) {
		struct fsio_base pb = *lb;
		bool ours;

		pb.start = lb->start + parts[i].start * FSIO_SECTOR;
		pb.end = fsio_span_end(pb.start, parts[i].size * FSIO_SECTOR);
		if (pb.end > lb->end)
			pb.end = lb->end;
		ours = fsio_base_overlap(t, &pb);
		err = claim(dev, &parts[i], ours);
		if (err == EBUSY && ours) {
			note_window(dev, t, &pb);
			return alias_busy(dev, &parts[i], l);
		}
		if (err && err != EBUSY)
			return err;
		any_busy |= err == EBUSY;
	}
	note_window(dev, t, lb);
	return any_busy ? 0 : alias_busy(dev, l, NULL);
}

/* Is loop device @l bound over @t's bytes?  Its base in *@lb. */
static bool is_alias(const struct fsio_base *t, const struct fsio_blk *l,
		     struct fsio_base *lb)
{
	return fsio_base_of_dev(l->rdev, lb) && fsio_base_overlap(t, lb);
}

/*
 * Loop devices come and go under the scan (udev, other tools): one that
 * fails to claim is read again, and skipped if it is no longer over our
 * bytes; a busy one that still is refuses.
 */
static errcode_t claim_if_alias(struct fsio_dev *dev,
				const struct fsio_base *t,
				const struct fsio_blk *l)
{
	struct fsio_base lb;
	errcode_t err = 0;

	for (int i = 0; i < FSIO_CLAIM_TRIES; i++) {
		if (!is_alias(t, l, &lb))
			return 0;
		err = claim_loop(dev, t, l, &lb);
		if (!err)
			return 0;
		/* Still ours after the failure: the failure stands. */
		if (is_alias(t, l, &lb) && (err != ENXIO && err != ENODEV &&
					    err != ENOENT && err != EINVAL))
			return err;
	}
	return is_alias(t, l, &lb) ? err : 0;
}

/* The loop device @path names itself (not another name), or 0. */
static dev_t own_loop(const char *path)
{
	struct fsio_blk self, whole;

	return fsio_blk_of_path(path, &self, &whole) ? whole.rdev : 0;
}

/* Our base: the device's window from dev->offset on, dev->length long. */
static bool target_base(const struct fsio_dev *dev, struct fsio_base *t)
{
	uint64_t start, end;

	if (!fsio_base_of_path(dev->path, t))
		return false;
	if (dev->offset <= 0 && dev->length <= 0)
		return true;
	start = fsio_span_end(t->start, (uint64_t)dev->offset);
	end = fsio_span_end(start, (uint64_t)dev->length);
	t->start = start < t->end ? start : t->end;
	t->end = end < t->end ? end : t->end;
	return true;
}

errcode_t fsio_claim_aliases(struct fsio_dev *dev)
{
	char dir[PATH_MAX];
	struct dirent *d;
	struct fsio_base t;
	struct fsio_blk l;
	errcode_t err = 0;
	dev_t own;
	DIR *sys;

	if (!target_base(dev, &t))
		return 0;
	own = own_loop(dev->path);
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
		if (!fsio_blk_read(dir, &l) || l.rdev == own)
			continue;
		err = claim_if_alias(dev, &t, &l);
	}
	closedir(sys);
	return err;
}

errcode_t fsio_explain_busy(struct fsio_dev *dev)
{
	struct fsio_blk self, whole, parts[FSIO_MAX_PARTS];
	unsigned int n;

	if (!fsio_blk_of_path(dev->path, &self, &whole))
		return EXT4DEV_ERR_BUSY;
	if (why_busy(dev, &self))
		return dev->mountpoint[0] ? EXT4DEV_ERR_MOUNTED :
					    EXT4DEV_ERR_BUSY;
	/* A partition is busy while its whole disk is mounted or held. */
	if (self.rdev != whole.rdev && why_busy(dev, &whole))
		return alias_busy(dev, &whole, NULL);
	/* A whole disk is busy while one of its partitions is. */
	n = self.rdev == whole.rdev ?
	    fsio_blk_parts(self.name, parts, FSIO_MAX_PARTS) : 0;
	for (unsigned int i = 0; i < n; i++)
		if (claim(dev, &parts[i], false) == EBUSY)
			return alias_busy(dev, &parts[i], NULL);
	return EXT4DEV_ERR_BUSY;
}

/*
 * The file at the bottom of the chain (a loop device's backing file,
 * the layer file under an overlay's view) is locked too, before the
 * name itself: every name of the bytes, one lock, taken in one order.
 */
errcode_t fsio_lock_backing(struct fsio_dev *dev, int how)
{
	struct fsio_base b;
	struct stat st, own;
	errcode_t err;
	int fd;

	if (!fsio_base_of_path(dev->path, &b) || !b.is_file || !b.path[0])
		return 0;
	/* The name is the file itself: its own lock is the one. */
	if (dev->lock_fd >= 0 && !fstat(dev->lock_fd, &own) &&
	    own.st_dev == b.dev && own.st_ino == b.ino)
		return 0;
	/* Not reachable from here (another namespace, deleted): no lock. */
	if (fsio_open_kind(b.path, O_RDONLY, &fd))
		return 0;
	if (fstat(fd, &st) || st.st_dev != b.dev || st.st_ino != b.ino) {
		close(fd);
		return 0;
	}
	err = hold(dev, fd);
	return err ? err : fsio_lock_fd(fd, how, dev->path, dev->lock_wait);
}
