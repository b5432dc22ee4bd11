// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "exitcodes.h"

static void test_values_are_util_linux_mkfs_codes(void **state)
{
	assert_int_equal(EXT4DEV_EXIT_OK, 0);
	assert_int_equal(EXT4DEV_EXIT_CHECK_FAILED, 1);
	assert_int_equal(EXT4DEV_EXIT_FAILURE, 8);
	assert_int_equal(EXT4DEV_EXIT_USAGE, 16);
}

static void test_worst_wins(void **state)
{
	assert_int_equal(ext4dev_exit_worst(EXT4DEV_EXIT_OK,
					    EXT4DEV_EXIT_CHECK_FAILED), 1);
	assert_int_equal(ext4dev_exit_worst(EXT4DEV_EXIT_FAILURE,
					    EXT4DEV_EXIT_CHECK_FAILED), 8);
	assert_int_equal(ext4dev_exit_worst(EXT4DEV_EXIT_OK,
					    EXT4DEV_EXIT_OK), 0);
}

/* EXIT STATUS in the man page lists exactly the enum's values. */
static void test_man_page_lists_codes(void **state)
{
	static const int codes[] = { EXT4DEV_EXIT_OK,
		EXT4DEV_EXIT_CHECK_FAILED, EXT4DEV_EXIT_FAILURE,
		EXT4DEV_EXIT_USAGE };
	char line[512], want[16];
	bool in_section = false;
	int found = 0;
	FILE *f = fopen(EXT4DEV_MAN_PAGE, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".SH", 3))
			in_section = strstr(line, "EXIT STATUS") != NULL;
		if (!in_section || strncmp(line, ".B ", 3))
			continue;
		for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
			snprintf(want, sizeof(want), ".B %d\n", codes[i]);
			found += !strcmp(line, want);
		}
	}
	fclose(f);
	assert_int_equal(found, 4);
}

static void test_mount_codes_are_mount8s(void **state)
{
	assert_int_equal(EXT4DEV_MOUNT_OK, 0);
	assert_int_equal(EXT4DEV_MOUNT_USAGE, 1);
	assert_int_equal(EXT4DEV_MOUNT_PERM, 1);
	assert_int_equal(EXT4DEV_MOUNT_SYSERR, 2);
	assert_int_equal(EXT4DEV_MOUNT_FAILURE, 32);
}

/* ... and EXIT STATUS says so, in one sentence about mount.ext4dev. */
static void test_man_page_lists_mount_codes(void **state)
{
	char line[512], text[4096] = "";
	bool in_section = false;
	FILE *f = fopen(EXT4DEV_MAN_PAGE, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".SH", 3))
			in_section = strstr(line, "EXIT STATUS") != NULL;
		if (in_section && strlen(text) + strlen(line) < sizeof(text))
			strcat(text, line);
	}
	fclose(f);
	assert_non_null(strstr(text, "mount.ext4dev"));
	assert_non_null(strstr(text, "0 when mounted, 1 for an incorrect "
			       "invocation or permissions, 2 when"));
	assert_non_null(strstr(text, "32 when the mount is refused or fails"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_are_util_linux_mkfs_codes),
		cmocka_unit_test(test_worst_wins),
		cmocka_unit_test(test_man_page_lists_codes),
		cmocka_unit_test(test_mount_codes_are_mount8s),
		cmocka_unit_test(test_man_page_lists_mount_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
