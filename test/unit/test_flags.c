// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <ext2fs/ext2_fs.h>

#include "flags.h"

static void format_is(uint32_t s_flags, const char *want)
{
	char buf[EXT4DEV_FLAGS_BUFSZ];

	flags_format(s_flags, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_format_known(void **state)
{
	format_is(EXT2_FLAGS_SIGNED_HASH, "signed_directory_hash ");
	format_is(EXT2_FLAGS_SIGNED_HASH | EXT2_FLAGS_TEST_FILESYS,
		  "signed_directory_hash test_filesystem ");
	format_is(EXT2_FLAGS_UNSIGNED_HASH | EXT2_FLAGS_TEST_FILESYS,
		  "unsigned_directory_hash test_filesystem ");
}

static void test_format_none_and_unknown(void **state)
{
	format_is(0, "(none)");
	format_is(0x100, "0x00000100 ");
	format_is(EXT2_FLAGS_TEST_FILESYS | 0x80000000u,
		  "test_filesystem 0x80000000 ");
}

static void test_format_every_bit_fits(void **state)
{
	char buf[EXT4DEV_FLAGS_BUFSZ];
	size_t len = flags_format(0xffffffffu, buf, sizeof(buf));

	/* all 32 bits, nothing cut off */
	assert_int_equal(len, strlen(buf));
	assert_non_null(strstr(buf, "test_filesystem 0x00000008 "));
	assert_string_equal(buf + len - 11, "0x80000000 ");
}

static void test_format_truncates_safely(void **state)
{
	char buf[8];
	size_t len = flags_format(EXT2_FLAGS_SIGNED_HASH, buf, sizeof(buf));

	assert_int_equal(len, strlen(buf));
	assert_true(len < sizeof(buf));
}

static void test_lookup(void **state)
{
	assert_int_equal(flags_by_option("test_fs")->mask,
			 EXT2_FLAGS_TEST_FILESYS);
	assert_int_equal(flags_by_name("test_filesystem")->mask,
			 EXT2_FLAGS_TEST_FILESYS);
	assert_null(flags_by_option("test_filesystem"));
	assert_null(flags_by_name("bogus"));
}

static void test_table_is_consistent(void **state)
{
	for (size_t i = 0; i < flags_table_len; i++) {
		/* one bit per row, no bit twice */
		assert_int_equal(flags_table[i].mask &
				 (flags_table[i].mask - 1), 0);
		for (size_t j = i + 1; j < flags_table_len; j++)
			assert_int_not_equal(flags_table[i].mask,
					     flags_table[j].mask);
		assert_non_null(flags_table[i].help);
	}
}

/* Every name the table knows is documented in the man page. */
static void test_man_page_lists_every_flag(void **state)
{
	static char page[65536];
	FILE *f = fopen(EXT4DEV_MAN_PAGE, "r");
	size_t n;

	assert_non_null(f);
	n = fread(page, 1, sizeof(page) - 1, f);
	page[n] = '\0';
	fclose(f);
	for (size_t i = 0; i < flags_table_len; i++) {
		assert_non_null(strstr(page, flags_table[i].name));
		if (flags_table[i].option)
			assert_non_null(strstr(page, flags_table[i].option));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_known),
		cmocka_unit_test(test_format_none_and_unknown),
		cmocka_unit_test(test_format_every_bit_fits),
		cmocka_unit_test(test_format_truncates_safely),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_table_is_consistent),
		cmocka_unit_test(test_man_page_lists_every_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
