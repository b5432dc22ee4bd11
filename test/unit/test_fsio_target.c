// SPDX-License-Identifier: GPL-2.0
/*
 * fsio's functions for mkfs's target (fsio_stat_target, _lock_target,
 * fsio_attach) on files in a temporary directory; e2fsprogs' dumpe2fs
 * is the oracle for what fsio_attach() lets libext2fs write.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "report.h"

static char dir[64];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/ext4dev-unit.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static errcode_t stat_path(const char *path, struct fsio_target *t)
{
	struct fsio_dev dev;
	errcode_t err = fsio_init(&dev, path);

	if (!err)
		err = fsio_stat_target(&dev, 1024, t);
	fsio_release(&dev);
	return err;
}

static void test_stat(void **state)
{
	struct fsio_target t;
	char img[96];
	FILE *f;

	snprintf(img, sizeof(img), "%s/sparse.img", dir);
	assert_int_equal(stat_path(img, &t), ENOENT);
	assert_int_equal(stat_path(dir, &t), EISDIR);
	assert_int_equal(stat_path("/dev/null", &t),
			 EXT4DEV_ERR_NOT_BLOCK_OR_FILE);
	f = fopen(img, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 8 << 20), 0);
	fclose(f);
	assert_int_equal(stat_path(img, &t), 0);
	assert_true(t.exists && !t.is_blk && t.all_holes);
	assert_int_equal(t.size, 8192);
	f = fopen(img, "r+");
	assert_non_null(f);
	fputc('x', f);
	fclose(f);
	assert_int_equal(stat_path(img, &t), 0);
	assert_false(t.all_holes);
	assert_int_equal(t.size, 8192);
}

static void test_lock(void **state)
{
	/* --wait 0: give up at once instead of waiting for ever. */
	static const struct fsio_lock_wait no_wait = { 0, NULL };
	struct fsio_dev a, b;
	char img[96];

	snprintf(img, sizeof(img), "%s/lock.img", dir);
	assert_int_equal(fsio_init(&a, img), 0);
	assert_int_equal(fsio_init(&b, img), 0);
	/* Without create a missing file stays missing, and unlocked. */
	assert_int_equal(fsio_lock_target(&a, false), 0);
	assert_int_equal(a.lock_fd, -1);
	assert_int_equal(access(img, F_OK), -1);
	fsio_close(&a);
	assert_int_equal(fsio_lock_target(&a, true), 0);
	assert_true(a.target_created);
	assert_int_equal(access(img, F_OK), 0);
	b.lock_wait = &no_wait;
	/* Made already locked: a second creator waits for it. */
	assert_int_equal(fsio_lock_target(&b, true), EXT4DEV_ERR_LOCKED);
	assert_false(b.target_created);
	fsio_close(&b);
	fsio_close(&a);		/* lets go */
	assert_int_equal(fsio_lock_target(&b, false), 0);
	fsio_release(&a);
	fsio_release(&b);
}

static void test_attach(void **state)
{
	struct ext2_super_block param = { 0 };
	struct fsio_dev dev;
	ext2_filsys fs;
	char img[96], cmd[256];
	FILE *f;

	snprintf(img, sizeof(img), "%s/attach.img", dir);
	f = fopen(img, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 4 << 20), 0);
	fclose(f);
	ext2fs_blocks_count_set(&param, 4096);
	param.s_rev_level = EXT2_DYNAMIC_REV;
	assert_int_equal(ext2fs_initialize("/dev/null", EXT2_FLAG_64BITS,
					   &param, unix_io_manager, &fs), 0);
	assert_int_equal(ext2fs_allocate_tables(fs), 0);
	assert_int_equal(fsio_init(&dev, img), 0);
	assert_int_equal(fsio_attach(&dev, fs), 0);
	assert_string_equal(fs->device_name, img);
	assert_int_equal(ext2fs_close_free(&fs), 0);
	fsio_release(&dev);
	/* libext2fs wrote its superblock to the image, not to /dev/null. */
	snprintf(cmd, sizeof(cmd), "dumpe2fs -h %s 2>/dev/null | "
		 "grep -q '^Block count: *4096$'", img);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_attach),
	};

	report_init();
	return cmocka_run_group_tests(tests, setup, teardown);
}
