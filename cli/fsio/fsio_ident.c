// SPDX-License-Identifier: GPL-2.0
/*
 * What holds a name's bytes.  A name may sit on a chain of others: a
 * partition on its disk, a loop device on a file or on another block
 * device (itself a loop device, to any depth), a file on overlayfs on
 * the layer file that holds its data.  Following the chain down gives
 * the base: one regular file or one ordinary block device, and the
 * byte range of it the name covers.  Two names are the same bytes
 * exactly when their bases overlap; st_dev and st_ino of the name
 * alone miss every chain (a loop device's own node, an overlay's
 * device number).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fsio.h"
#include "fsio_blk.h"

/* Loop devices and overlays nest; the kernel itself stops far sooner. */
#define FSIO_MAX_DEPTH 16

uint64_t fsio_span_end(uint64_t start, uint64_t len)
{
	return (!len || len > FSIO_TO_END - start) ? FSIO_TO_END :
						     start + len;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > FSIO_TO_END - a ? FSIO_TO_END : a + b;
}

/*
 * The window [start, end) of an object that sits at @off (and @len
 * bytes long, 0: to the end) in the object under it: the same window
 * in the lower object's bytes.
 */
static void narrow(struct fsio_base *b, uint64_t off, uint64_t len)
{
	uint64_t limit = fsio_span_end(off, len);

	b->start = add_sat(off, b->start);
	if (b->end != FSIO_TO_END)
		b->end = add_sat(off, b->end);
	if (b->end > limit)
		b->end = limit;
	if (b->start > b->end)
		b->start = b->end;
}

static bool resolve_dev(dev_t rdev, struct fsio_base *b, int depth);

/* A regular file: its own base, unless overlayfs shows another's. */
static bool resolve_file(const char *path, const struct stat *st,
			 struct fsio_base *b, int depth)
{
	char real[PATH_MAX];
	struct stat rst;

	b->is_file = true;
	b->dev = st->st_dev;
	b->ino = st->st_ino;
	snprintf(b->path, sizeof(b->path), "%s", path);
	if (depth < FSIO_MAX_DEPTH && fsio_ovl_real(path, real, sizeof(real)) &&
	    !stat(real, &rst) && S_ISREG(rst.st_mode))
		return resolve_file(real, &rst, b, depth + 1);
	return true;
}

/* Loop device @l, bound as @li: down to what it is bound to. */
static bool resolve_loop(const struct fsio_blk *l,
			 const struct loop_info64 *li, struct fsio_base *b,
			 int depth)
{
	char path[PATH_MAX];
	struct stat st;

	narrow(b, li->lo_offset, li->lo_sizelimit);
	/* The backing file is itself a block device: go on down. */
	if (li->lo_rdevice)
		return resolve_dev(fsio_blk_decode_dev(li->lo_rdevice), b,
				   depth + 1);
	b->is_file = true;
	b->dev = fsio_blk_loop_file_dev(li);
	b->ino = (ino_t)li->lo_inode;
	b->path[0] = '\0';
	/* Its path is only a hint: used only if it names that file. */
	if (fsio_blk_backing_file(l, path, sizeof(path)) && !stat(path, &st) &&
	    st.st_dev == b->dev && st.st_ino == b->ino)
		return resolve_file(path, &st, b, depth + 1);
	return true;
}

static bool resolve_dev(dev_t rdev, struct fsio_base *b, int depth)
{
	struct fsio_blk self, whole;
	struct loop_info64 li;

	if (!fsio_blk_of_rdev(rdev, &self, &whole))
		return false;
	if (self.is_part)
		narrow(b, self.start * FSIO_SECTOR, self.size * FSIO_SECTOR);
	if (depth < FSIO_MAX_DEPTH && !strncmp(whole.name, "loop", 4) &&
	    fsio_blk_loop_status(&whole, &li))
		return resolve_loop(&whole, &li, b, depth);
	b->is_file = false;
	b->dev = whole.rdev;
	b->ino = 0;
	b->path[0] = '\0';
	return true;
}

bool fsio_base_of_dev(dev_t rdev, struct fsio_base *b)
{
	memset(b, 0, sizeof(*b));
	b->end = FSIO_TO_END;
	return resolve_dev(rdev, b, 0);
}

bool fsio_base_of_path(const char *path, struct fsio_base *b)
{
	struct stat st;

	memset(b, 0, sizeof(*b));
	b->end = FSIO_TO_END;
	if (stat(path, &st))
		return false;
	if (S_ISREG(st.st_mode))
		return resolve_file(path, &st, b, 0);
	if (S_ISBLK(st.st_mode))
		return resolve_dev(st.st_rdev, b, 0);
	return false;
}

bool fsio_base_overlap(const struct fsio_base *a, const struct fsio_base *b)
{
	if (a->is_file != b->is_file || a->dev != b->dev || a->ino != b->ino)
		return false;
	return a->start < b->end && b->start < a->end;
}

bool fsio_temp_loop_image(const char *path, char *image, size_t len)
{
	struct fsio_blk self, whole;
	struct loop_info64 li;

	if (!fsio_blk_of_path(path, &self, &whole) || self.is_part ||
	    strncmp(whole.name, "loop", 4) ||
	    !fsio_blk_loop_status(&whole, &li) ||
	    !(li.lo_flags & LO_FLAGS_AUTOCLEAR) || li.lo_rdevice)
		return false;
	return fsio_blk_backing_file(&whole, image, len);
}
