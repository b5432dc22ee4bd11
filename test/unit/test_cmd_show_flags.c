// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "cmd_show_flags.h"
#include "exitcodes.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static void test_one_device_is_the_dumpe2fs_line(void **state)
{
	char *argv[] = { "show-flags", "a.img", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv), -1);
	assert_false(ctl.table);
	assert_int_equal(ctl.check, EXT4DEV_CHECK_NONE);
	assert_int_equal(ctl.ndevices, 1);
	assert_string_equal(ctl.devices[0], "a.img");
}

static void test_table_options(void **state)
{
	char *argv[] = { "show-flags", "-J", "-r", "--noheadings",
			 "--output=DEVICE,TEST", "a.img", NULL };
	char *two[] = { "show-flags", "a.img", "b.img", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv), -1);
	assert_true(ctl.table && ctl.json && ctl.raw && ctl.noheadings);
	assert_string_equal(ctl.columns, "DEVICE,TEST");
	assert_int_equal(show_flags_parse(&ctl, ARGC(two), two), -1);
	assert_true(ctl.table);
	assert_int_equal(ctl.ndevices, 2);
}

static void test_check(void **state)
{
	char *test[] = { "show-flags", "--check", "test", "-v", "x", NULL };
	char *prod[] = { "show-flags", "-c", "production", "x", NULL };
	char *bad[] = { "show-flags", "--check=maybe", "x", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(test), test), -1);
	assert_int_equal(ctl.check, EXT4DEV_CHECK_TEST);
	assert_true(ctl.verbose);
	assert_int_equal(show_flags_parse(&ctl, ARGC(prod), prod), -1);
	assert_int_equal(ctl.check, EXT4DEV_CHECK_PRODUCTION);
	assert_int_equal(show_flags_parse(&ctl, ARGC(bad), bad),
			 EXT4DEV_EXIT_USAGE);
}

static void test_usage_errors(void **state)
{
	char *none[] = { "show-flags", NULL };
	char *unknown[] = { "show-flags", "--frob", "x", NULL };
	char *short_unknown[] = { "show-flags", "-Z", "x", NULL };
	char *missing[] = { "show-flags", "x", "-o", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(none), none),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(unknown), unknown),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(short_unknown),
					  short_unknown), EXT4DEV_EXIT_USAGE);
	/* "+" in optstring: options after the first device are devices */
	assert_int_equal(show_flags_parse(&ctl, ARGC(missing), missing), -1);
	assert_int_equal(ctl.ndevices, 2);
}

static void test_help_exits_zero(void **state)
{
	char *argv[] = { "show-flags", "--help", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv),
			 EXT4DEV_EXIT_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_device_is_the_dumpe2fs_line),
		cmocka_unit_test(test_table_options),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_help_exits_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
