// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "cmd_mark.h"
#include "exitcodes.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static void test_new_flags_moves_only_the_test_bit(void **state)
{
	uint32_t hash = EXT2_FLAGS_SIGNED_HASH | 0x100;

	assert_int_equal(mark_new_flags(hash, true),
			 hash | EXT2_FLAGS_TEST_FILESYS);
	assert_int_equal(mark_new_flags(hash | EXT2_FLAGS_TEST_FILESYS,
					false), hash);
	assert_int_equal(mark_new_flags(hash, false), hash);
	assert_int_equal(mark_new_flags(0xffffffffu, true), 0xffffffffu);
}

static void test_options(void **state)
{
	char *argv[] = { "mark-test", "-n", "--quiet", "--undo", "u.e2undo",
			 "/dev/vdb", NULL };
	struct mark_ctl ctl;

	assert_int_equal(mark_parse(&ctl, "mark-test", true, ARGC(argv),
				    argv), -1);
	assert_true(ctl.set && ctl.dry_run && ctl.quiet);
	assert_string_equal(ctl.undo_file, "u.e2undo");
	assert_int_equal(ctl.ndevices, 1);
	assert_string_equal(ctl.devices[0], "/dev/vdb");
}

static void test_usage_errors(void **state)
{
	char *none[] = { "mark-production", "-q", NULL };
	char *undo_two[] = { "mark-production", "-z", "u", "a", "b", NULL };
	char *no_arg[] = { "mark-production", "-z", NULL };
	char *unknown[] = { "mark-production", "--force", "a", NULL };
	char *empty_undo[] = { "mark-production", "-z", "", "a", NULL };
	struct mark_ctl ctl;

	assert_int_equal(mark_parse(&ctl, "mark-production", false,
				    ARGC(none), none), EXT4DEV_EXIT_USAGE);
	assert_int_equal(mark_parse(&ctl, "mark-production", false,
				    ARGC(undo_two), undo_two),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(mark_parse(&ctl, "mark-production", false,
				    ARGC(no_arg), no_arg), EXT4DEV_EXIT_USAGE);
	assert_int_equal(mark_parse(&ctl, "mark-production", false,
				    ARGC(unknown), unknown),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(mark_parse(&ctl, "mark-production", false,
				    ARGC(empty_undo), empty_undo),
			 EXT4DEV_EXIT_USAGE);
}

static void test_permutation(void **state)
{
	char *argv[] = { "mark-test", "a.img", "-n", "--undo", "u", NULL };
	char *dd[] = { "mark-test", "-q", "--", "-n", NULL };
	struct mark_ctl ctl;

	assert_int_equal(mark_parse(&ctl, "mark-test", true, ARGC(argv),
				    argv), -1);
	assert_true(ctl.dry_run);
	assert_string_equal(ctl.undo_file, "u");
	assert_int_equal(ctl.ndevices, 1);
	assert_string_equal(ctl.devices[0], "a.img");
	assert_int_equal(mark_parse(&ctl, "mark-test", true, ARGC(dd), dd),
			 -1);
	assert_true(ctl.quiet && !ctl.dry_run);
	assert_int_equal(ctl.ndevices, 1);
	assert_string_equal(ctl.devices[0], "-n");
}

static void test_help(void **state)
{
	char *argv[] = { "mark-test", "-h", NULL };
	char *ver[] = { "mark-test", "a.img", "--version", NULL };
	struct mark_ctl ctl;

	assert_int_equal(mark_parse(&ctl, "mark-test", true, ARGC(argv),
				    argv), EXT4DEV_EXIT_OK);
	assert_int_equal(mark_parse(&ctl, "mark-test", true, ARGC(ver),
				    ver), EXT4DEV_EXIT_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_flags_moves_only_the_test_bit),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
