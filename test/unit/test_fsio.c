// SPDX-License-Identifier: GPL-2.0
/* fsio on images that mke2fs makes in a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "report.h"

struct fixture {
	char dir[64];
	char img[96];
};

__attribute__((format(printf, 1, 2)))
static int run(const char *fmt, ...)
{
	va_list ap;
	char cmd[512];

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static int setup(void **state)
{
	static struct fixture fx;

	snprintf(fx.dir, sizeof(fx.dir), "/tmp/ext4dev-unit.XXXXXX");
	if (!mkdtemp(fx.dir))
		return -1;
	snprintf(fx.img, sizeof(fx.img), "%s/fs.img", fx.dir);
	if (run("mke2fs -q -F -t ext4 -b 1024 %s 16M >/dev/null 2>&1",
		fx.img))
		return -1;
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	run("rm -rf %s", fx->dir);
	return 0;
}

static uint32_t read_flags(const char *img)
{
	struct fsio_dev dev;
	uint32_t flags;

	assert_int_equal(fsio_init(&dev, img), 0);
	assert_int_equal(fsio_open_read(&dev), 0);
	assert_true(dev.csum_ok && dev.size_ok);
	flags = dev.fs->super->s_flags;
	fsio_release(&dev);
	return flags;
}

static void test_read(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(read_flags(fx->img) & EXT2_FLAGS_TEST_FILESYS, 0);
}

/* The fixture's one backup (16 MiB, 1 KiB blocks: group 1, block 8193),
 * as dumpe2fs reads it: has it the test flag? */
static bool backup_has_test(const char *img)
{
	return run("dumpe2fs -h -o superblock=8193 -o blocksize=1024 %s "
		   "2>/dev/null | grep -q '^Filesystem flags:.*test_filesystem'",
		   img) == 0;
}

static void test_commit_sets_and_clears(void **state)
{
	struct fixture *fx = *state;
	struct fsio_dev dev;
	uint32_t flags;

	assert_false(backup_has_test(fx->img));
	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	flags = dev.fs->super->s_flags | EXT2_FLAGS_TEST_FILESYS;
	assert_int_equal(fsio_commit_flags(&dev, flags, NULL), 0);
	fsio_release(&dev);
	assert_int_equal(read_flags(fx->img), flags);
	assert_true(backup_has_test(fx->img));

	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	flags &= ~EXT2_FLAGS_TEST_FILESYS;
	assert_int_equal(fsio_commit_flags(&dev, flags, NULL), 0);
	fsio_release(&dev);
	assert_int_equal(read_flags(fx->img), flags);
	assert_false(backup_has_test(fx->img));
}

/* Primary with the flag, backup without: found, and only it written. */
static void test_stale_backup_found_and_rewritten(void **state)
{
	struct fixture *fx = *state;
	struct fsio_dev dev;

	assert_int_equal(run("cp %s %s.orig && tune2fs -E test_fs %s "
			     ">/dev/null 2>&1 && dd if=%s of=%s.orig bs=1024 "
			     "skip=1 seek=1 count=1 conv=notrunc status=none",
			     fx->img, fx->img, fx->img, fx->img, fx->img), 0);
	assert_int_equal(run("mv %s.orig %s", fx->img, fx->img), 0);
	assert_false(backup_has_test(fx->img));
	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	assert_true(dev.fs->super->s_flags & EXT2_FLAGS_TEST_FILESYS);
	assert_int_equal(fsio_find_stale_backups(&dev,
						 EXT2_FLAGS_TEST_FILESYS), 0);
	assert_int_equal(dev.nstale, 1);
	assert_int_equal(dev.stale[0], 1);
	assert_int_equal(fsio_commit_backups(&dev, NULL), 0);
	fsio_release(&dev);
	assert_true(backup_has_test(fx->img));
	assert_int_equal(run("e2fsck -fn %s >/dev/null 2>&1", fx->img), 0);
	/* Agreeing now: nothing left to write. */
	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	assert_int_equal(fsio_find_stale_backups(&dev,
						 EXT2_FLAGS_TEST_FILESYS), 0);
	assert_int_equal(dev.nstale, 0);
	fsio_release(&dev);
	assert_int_equal(run("tune2fs -E ^test_fs %s >/dev/null 2>&1",
			     fx->img), 0);
}

/* A writer that is not ext4dev changed the superblock in between. */
static void test_commit_refuses_changed_superblock(void **state)
{
	struct fixture *fx = *state;
	struct fsio_dev dev;

	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	assert_int_equal(run("tune2fs -L changed %s >/dev/null 2>&1",
			     fx->img), 0);
	assert_int_equal(fsio_commit_flags(&dev, 0, NULL),
			 EXT4DEV_ERR_CHANGED);
	fsio_release(&dev);
}

static void test_truncated_is_refused(void **state)
{
	struct fixture *fx = *state;
	char small[128];
	struct fsio_dev dev;

	snprintf(small, sizeof(small), "%s/small.img", fx->dir);
	assert_int_equal(run("cp %s /tmp/ext4dev-unit-copy.img", fx->img), 0);
	assert_int_equal(rename("/tmp/ext4dev-unit-copy.img", small), 0);
	assert_int_equal(truncate(small, 65536), 0);
	assert_int_equal(fsio_init(&dev, small), 0);
	assert_int_equal(fsio_open_read(&dev), 0);
	assert_false(dev.size_ok);
	fsio_release(&dev);
	assert_int_equal(fsio_init(&dev, small), 0);
	assert_int_equal(fsio_open_change(&dev), EXT4DEV_ERR_TRUNCATED);
	fsio_release(&dev);
}

static void test_not_a_filesystem(void **state)
{
	struct fixture *fx = *state;
	struct fsio_dev dev;

	assert_int_equal(fsio_init(&dev, fx->dir), 0);
	assert_int_equal(fsio_open_read(&dev), EISDIR);
	fsio_release(&dev);
	assert_int_equal(fsio_init(&dev, "/dev/null"), 0);
	assert_int_equal(fsio_open_read(&dev), EXT4DEV_ERR_NOT_BLOCK_OR_FILE);
	fsio_release(&dev);
	assert_int_equal(fsio_init(&dev, "/nonexistent/x.img"), 0);
	assert_int_equal(fsio_open_change(&dev), ENOENT);
	fsio_release(&dev);
}

/* fsio_check_undo() on @undo for fx->img: the error, and undo_err. */
static errcode_t check_undo(struct fixture *fx, const char *undo,
			    bool create)
{
	struct fsio_dev dev;
	errcode_t err;

	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	err = fsio_check_undo(&dev, undo, create);
	assert_int_equal(dev.undo_err, err != 0);
	assert_ptr_equal(dev.undo_file, undo);
	fsio_release(&dev);
	return err;
}

static void test_undo_refuses_what_it_must_not_touch(void **state)
{
	struct fixture *fx = *state;
	char link[128], notes[128];
	FILE *f;

	assert_int_equal(check_undo(fx, fx->img, true),
			 EXT4DEV_ERR_UNDO_IS_DEVICE);
	snprintf(link, sizeof(link), "%s/link", fx->dir);
	assert_int_equal(symlink(fx->img, link), 0);
	assert_int_equal(check_undo(fx, link, true),
			 EXT4DEV_ERR_UNDO_IS_DEVICE);
	assert_int_equal(check_undo(fx, fx->dir, true), EISDIR);
	assert_int_equal(check_undo(fx, "/dev/null", true),
			 EXT4DEV_ERR_UNDO_NOT_FILE);
	assert_int_equal(check_undo(fx, "/nonexistent/x.undo", true), ENOENT);
	assert_int_equal(check_undo(fx, "", true), ENOENT);
	snprintf(notes, sizeof(notes), "%s/notes", fx->dir);
	f = fopen(notes, "w");
	assert_non_null(f);
	fputs("not an undo file\n", f);
	fclose(f);
	assert_int_equal(check_undo(fx, notes, true), EXT4DEV_ERR_UNDO_FOREIGN);
	assert_int_equal(access(notes, F_OK), 0);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(unlink(notes), 0);
}

/* A new file is made empty, and removed again if nothing went in. */
static void test_undo_new_file_left_only_when_used(void **state)
{
	struct fixture *fx = *state;
	char undo[128];
	struct fsio_dev dev;

	snprintf(undo, sizeof(undo), "%s/new.undo", fx->dir);
	assert_int_equal(check_undo(fx, undo, false), 0);
	assert_int_equal(access(undo, F_OK), -1);
	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	assert_int_equal(fsio_check_undo(&dev, undo, true), 0);
	assert_true(dev.undo_created);
	assert_int_equal(access(undo, F_OK), 0);
	fsio_release(&dev);
	assert_int_equal(access(undo, F_OK), -1);
}

/*
 * close/release twice, on a never-opened and on an opened device: no
 * double free (ASan would say so), the lock really let go, fields reset.
 */
static void test_release_is_idempotent(void **state)
{
	struct fixture *fx = *state;
	struct fsio_dev dev;
	int fd;

	assert_int_equal(fsio_init(&dev, "whatever"), 0);
	fsio_close(&dev);
	fsio_release(&dev);
	fsio_release(&dev);
	assert_null(dev.spec);
	assert_null(dev.path);
	assert_int_equal(dev.lock_fd, -1);

	assert_int_equal(fsio_init(&dev, fx->img), 0);
	assert_int_equal(fsio_open_change(&dev), 0);
	assert_non_null(dev.fs);
	fsio_close(&dev);
	fsio_close(&dev);
	assert_null(dev.fs);
	assert_null(dev.saved_super);
	assert_int_equal(dev.lock_fd, -1);
	/* The exclusive lock is gone: another process could take it. */
	fd = open(fx->img, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	close(fd);
	fsio_release(&dev);
	fsio_release(&dev);
	assert_null(dev.spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_commit_sets_and_clears),
		cmocka_unit_test(test_stale_backup_found_and_rewritten),
		cmocka_unit_test(test_commit_refuses_changed_superblock),
		cmocka_unit_test(test_truncated_is_refused),
		cmocka_unit_test(test_not_a_filesystem),
		cmocka_unit_test(test_undo_refuses_what_it_must_not_touch),
		cmocka_unit_test(test_undo_new_file_left_only_when_used),
		cmocka_unit_test(test_release_is_idempotent),
	};

	report_init();
	return cmocka_run_group_tests(tests, setup, teardown);
}
