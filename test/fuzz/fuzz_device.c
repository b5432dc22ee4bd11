// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: raw device bytes -> ext4dev's decisions.
 *
 * The input is the head of a device (seeds: the first 64 KiB of images
 * mke2fs made).  It goes into a memfd, which is then made as large as
 * the superblock claims (up to FUZZ_MAX_DEV; beyond that the device is
 * left short, which fsio must refuse), and opened by name through
 * /proc/self/fd, so that it takes exactly the path show-flags and
 * mark-* take:
 *
 *   fsio_open_read()   -> flags_format(), show_table_cell() per column
 *   fsio_open_change() -> mark_new_flags(), fsio_commit_flags()
 *
 * The commit writes only to the memfd, a copy: the input is never
 * touched.  After a commit the target checks what mark promises: the
 * primary reads back with the new flags and a good checksum, and not one
 * byte outside the superblock copies changed.  Any violation aborts,
 * which libFuzzer reports as a crash.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd_mark.h"
#include "flags.h"
#include "fsio.h"
#include "show_table.h"

#define FUZZ_MAX_DEV (64ULL << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const columns[] = {
	"DEVICE", "TYPE", "FLAGS", "TEST", "UUID", "LABEL", "device", "BOGUS",
};

#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_device: %s:%d: %s\n", __FILE__,	\
			__LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

/* What the superblock says the device should hold, capped. */
static uint64_t claimed_size(const uint8_t *data, size_t size)
{
	struct ext2_super_block sb;
	uint64_t blocks;

	if (size < SUPERBLOCK_OFFSET + SUPERBLOCK_SIZE)
		return size;
	memcpy(&sb, data + SUPERBLOCK_OFFSET, sizeof(sb));
	if (sb.s_log_block_size > 6)
		return size;
	blocks = sb.s_blocks_count;
	if (sb.s_feature_incompat & EXT4_FEATURE_INCOMPAT_64BIT)
		blocks |= (uint64_t)sb.s_blocks_count_hi << 32;
	if (blocks > FUZZ_MAX_DEV >> (10 + sb.s_log_block_size))
		return size;	/* too big: stays short, must be refused */
	blocks <<= 10 + sb.s_log_block_size;
	return blocks > size ? blocks : size;
}

static void read_side(const char *path)
{
	char buf[EXT4DEV_FLAGS_BUFSZ], uuid[40], label[EXT2_LABEL_LEN + 1];
	struct show_row row = { .device = path, .type = "", .uuid = uuid,
				.label = label };
	struct fsio_dev dev;
	size_t n;

	if (fsio_init(&dev, path))
		abort();
	if (!fsio_open_read(&dev)) {
		struct ext2_super_block *sb = dev.fs->super;

		row.s_flags = sb->s_flags;
		snprintf(uuid, sizeof(uuid), "%02x%02x", sb->s_uuid[0],
			 sb->s_uuid[15]);
		snprintf(label, sizeof(label), "%.*s", EXT2_LABEL_LEN,
			 (const char *)sb->s_volume_name);
		n = flags_format(sb->s_flags, buf, sizeof(buf));
		FUZZ_ASSERT(n == strlen(buf) && n < sizeof(buf));
		for (size_t i = 0; i < sizeof(columns) / sizeof(*columns); i++)
			show_table_cell(columns[i], &row, buf, sizeof(buf));
		/* Too small a buffer must truncate, never overflow. */
		n = flags_format(sb->s_flags, buf, 7);
		FUZZ_ASSERT(n < 7 && n == strlen(buf));
		fsio_probe_type(&dev, true);
	}
	fsio_release(&dev);
}

/* Bytes @fd holds at [@off, @off + @len) that differ from @want. */
static int differs(int fd, uint64_t off, const uint8_t *want, size_t len)
{
	uint8_t buf[4096];

	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		FUZZ_ASSERT(pread(fd, buf, n, (off_t)off) == (ssize_t)n);
		if (want ? memcmp(buf, want, n) :
			   buf[0] || memcmp(buf, buf + 1, n - 1))
			return 1;
		off += n;
		len -= n;
		if (want)
			want += n;
	}
	return 0;
}

/* Where superblock copies live: one byte per KiB of the device. */
static uint8_t *superblock_map(ext2_filsys fs, uint64_t dev_size)
{
	uint8_t *map = calloc(dev_size / 1024 + 2, 1);
	blk64_t super;

	FUZZ_ASSERT(map);
	map[1] = 1;
	for (dgrp_t g = 1; g < fs->group_desc_count; g++) {
		if (ext2fs_super_and_bgd_loc2(fs, g, &super, NULL, NULL, NULL))
			continue;
		if (super && super * fs->blocksize / 1024 <= dev_size / 1024)
			map[super * fs->blocksize / 1024] = 1;
	}
	return map;
}

/*
 * Nothing but superblock copies may differ from the input: the input's
 * own bytes are compared KiB by KiB, and past its end (a hole until
 * then) every KiB that holds data must be a superblock copy.
 */
static void check_untouched(int fd, const uint8_t *data, size_t size,
			    uint64_t dev_size, const uint8_t *map)
{
	uint64_t off, end, kib;

	for (off = 0; off < size; off += 1024) {
		size_t len = size - off < 1024 ? size - off : 1024;

		if (!map[off / 1024])
			FUZZ_ASSERT(!differs(fd, off, data + off, len));
	}
	for (off = size; off < dev_size; off = end) {
		off_t data_off = lseek(fd, (off_t)off, SEEK_DATA);

		if (data_off < 0)
			break;
		end = (uint64_t)lseek(fd, data_off, SEEK_HOLE);
		for (kib = (uint64_t)data_off / 1024; kib * 1024 < end; kib++) {
			uint64_t at = kib * 1024;

			if (at < size || map[kib])
				continue;
			FUZZ_ASSERT(!differs(fd, at, NULL, dev_size - at < 1024 ?
					     dev_size - at : 1024));
		}
	}
}

static void change_side(const char *path, int fd, const uint8_t *data,
			size_t size, uint64_t dev_size)
{
	struct fsio_dev dev;
	uint32_t old_flags, new_flags;
	uint8_t *map;

	if (fsio_init(&dev, path))
		abort();
	if (fsio_open_change(&dev)) {
		fsio_release(&dev);
		return;
	}
	/* fsio_open_change() refuses devices shorter than the fs. */
	FUZZ_ASSERT(ext2fs_blocks_count(dev.fs->super) *
		    dev.fs->blocksize <= dev_size);
	old_flags = dev.fs->super->s_flags;
	new_flags = mark_new_flags(old_flags,
				   !(old_flags & EXT2_FLAGS_TEST_FILESYS));
	FUZZ_ASSERT((old_flags ^ new_flags) == EXT2_FLAGS_TEST_FILESYS);
	map = superblock_map(dev.fs, dev_size);
	if (!fsio_commit_flags(&dev, new_flags, NULL)) {
		fsio_release(&dev);
		FUZZ_ASSERT(!fsio_init(&dev, path));
		FUZZ_ASSERT(!fsio_open_read(&dev));
		FUZZ_ASSERT(dev.csum_ok);
		FUZZ_ASSERT(dev.fs->super->s_flags == new_flags);
		check_untouched(fd, data, size, dev_size, map);
	}
	free(map);
	fsio_release(&dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t dev_size = claimed_size(data, size);
	char path[64];
	int fd;

	fd = memfd_create("ext4dev-fuzz", MFD_CLOEXEC);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, data, size) == (ssize_t)size);
	FUZZ_ASSERT(!ftruncate(fd, (off_t)dev_size));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_side(path);
	change_side(path, fd, data, size, dev_size);
	close(fd);
	return 0;
}
