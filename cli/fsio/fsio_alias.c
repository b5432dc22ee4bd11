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
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"
#include "fsio_blk.h"

#define FSIO_TO_END UINT64_MAX
#define FSIO_MAX_PARTS 128

/* A byte range of one regular file: what one name of it covers. */
struct span {
	dev_t file_dev;
	ino_t file_ino;
	uint64_t start, end;	/* end exclusive; FSIO_TO_END: to EOF */
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

/*
 * What dev->path covers of a regular file: the whole of an image, or a
 * loop device's window of its backing file (*@own: that loop device,
 * which is not another name).  False when no file is under it.
 */
static bool target_span(const char *path, struct span *s, struct fsio_blk *own)
{
	struct loop_info64 li;
	struct fsio_blk self;
	struct stat st;

	memset(own, 0, sizeof(*own));
	if (stat(path, &st))
		return false;
	if (S_ISREG(st.st_mode)) {
		*s = (struct span){ st.st_dev, st.st_ino, 0, FSIO_TO_END };
		return true;
	}
	if (!fsio_blk_of_path(path, &self, own) ||
	    !fsio_blk_loop_status(own, &li))
		return false;
	s->file_dev = fsio_blk_loop_file_dev(&li);
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
 * Another loop device @l of the same file: claim it whole, which also
 * keeps its partitions from being mounted.  Busy: claim instead each
 * partition over our bytes; a busy one refuses.  A loop device busy
 * with none of its partitions busy is mounted or held itself.
 */
static errcode_t claim_loop(struct fsio_dev *dev, const struct span *s,
			    const struct fsio_blk *l, const struct loop_info64 *li)
{
	struct fsio_blk parts[FSIO_MAX_PARTS];
	unsigned int n;
	bool any_busy = false;
	errcode_t err = claim(dev, l, true);

	if (err != EBUSY)
		return err;
	n = fsio_blk_parts(l->name, parts, FSIO_MAX_PARTS);
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
static bool is_alias(const struct span *s, const struct fsio_blk *l,
		     struct loop_info64 *li)
{
	if (!fsio_blk_loop_status(l, li) ||
	    fsio_blk_loop_file_dev(li) != s->file_dev ||
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
	struct fsio_blk own, l;
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
		if (!fsio_blk_read(dir, &l) || l.rdev == own.rdev)
			continue;
		if (is_alias(&s, &l, &li))
			err = claim_loop(dev, &s, &l, &li);
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

errcode_t fsio_lock_backing(struct fsio_dev *dev, int how)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], *nl;
	struct loop_info64 li;
	struct fsio_blk self, whole;
	struct stat st;
	errcode_t err;
	int fd;
	FILE *f;

	if (!fsio_blk_of_path(dev->path, &self, &whole) ||
	    !fsio_blk_loop_status(&whole, &li))
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
	if (fstat(fd, &st) || st.st_dev != fsio_blk_loop_file_dev(&li) ||
	    st.st_ino != (ino_t)li.lo_inode) {
		close(fd);
		return 0;
	}
	err = hold(dev, fd);
	return err ? err : fsio_lock_fd(fd, how, dev->path, dev->lock_wait);
}
