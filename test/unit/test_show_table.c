// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <ext2fs/ext2_fs.h>

#include "show_table.h"

static const struct show_row test_row = {
	.device = "/dev/vdb", .type = "ext4dev",
	.uuid = "0b7a4e9c-1111-2222-3333-444455556666", .label = "scratch",
	.s_flags = EXT2_FLAGS_SIGNED_HASH | EXT2_FLAGS_TEST_FILESYS,
};

static void cell_is(const char *col, const struct show_row *row,
		    const char *want)
{
	char buf[512];

	assert_true(show_table_cell(col, row, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void test_cells(void **state)
{
	cell_is("DEVICE", &test_row, "/dev/vdb");
	cell_is("TYPE", &test_row, "ext4dev");
	/* no trailing blank in a cell, unlike dumpe2fs's line */
	cell_is("FLAGS", &test_row, "signed_directory_hash test_filesystem");
	cell_is("TEST", &test_row, "yes");
	cell_is("test", &test_row, "yes");
	cell_is("UUID", &test_row, test_row.uuid);
	cell_is("LABEL", &test_row, "scratch");
}

static void test_production_row(void **state)
{
	struct show_row row = test_row;

	row.s_flags = 0;
	cell_is("TEST", &row, "no");
	cell_is("FLAGS", &row, "(none)");
}

static void test_unknown_column(void **state)
{
	char buf[16];
	const char *bad = NULL;

	assert_int_equal(show_table_cell("SIZE", &test_row, buf, sizeof(buf)),
			 -1);
	assert_null(show_table_new("DEVICE,SIZE", SHOW_TABLE_PLAIN, false,
				   &bad));
	assert_string_equal(bad, "SIZE");
	bad = NULL;
	assert_null(show_table_new("", SHOW_TABLE_PLAIN, false, &bad));
	assert_non_null(bad);
}

/* Print @t with stdout in a file; returns what it printed. */
static char *printed(struct show_table *t)
{
	static char out[4096];
	char path[] = "/tmp/ext4dev-unit-table.XXXXXX";
	int fd = mkstemp(path), saved;
	ssize_t n;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	assert_int_equal(show_table_print(t), 0);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	n = pread(fd, out, sizeof(out) - 1, 0);
	assert_true(n > 0);
	out[n] = '\0';
	close(fd);
	unlink(path);
	return out;
}

static void test_table_builds(void **state)
{
	const char *bad = NULL;
	struct show_table *t = show_table_new("device,Test",
					      SHOW_TABLE_JSON, true, &bad);

	assert_non_null(t);
	assert_int_equal(show_table_add(t, &test_row), 0);
	/* JSON: lsblk's keys (the column in lower case), a boolean. */
	assert_string_equal(printed(t),
			    "{\n"
			    "   \"filesystems\": [\n"
			    "      {\n"
			    "         \"device\": \"/dev/vdb\",\n"
			    "         \"test\": true\n"
			    "      }\n"
			    "   ]\n"
			    "}\n");
	show_table_free(t);
}

/* -o picks the keys, as with lsblk: no column is added behind it. */
static void test_json_only_the_columns_asked(void **state)
{
	const char *bad = NULL;
	struct show_table *t = show_table_new("LABEL", SHOW_TABLE_JSON,
					      false, &bad);

	assert_non_null(t);
	assert_int_equal(show_table_add(t, &test_row), 0);
	assert_string_equal(printed(t),
			    "{\n"
			    "   \"filesystems\": [\n"
			    "      {\n"
			    "         \"label\": \"scratch\"\n"
			    "      }\n"
			    "   ]\n"
			    "}\n");
	show_table_free(t);
}

/* FLAGS is an array of names: [] for none, never the "(none)" cell. */
static void test_json_flags_array(void **state)
{
	const char *bad = NULL;
	struct show_row none = test_row, odd = test_row;
	struct show_table *t = show_table_new("FLAGS", SHOW_TABLE_JSON,
					      false, &bad);

	assert_non_null(t);
	none.s_flags = 0;
	odd.s_flags = EXT2_FLAGS_TEST_FILESYS | 0x100;
	assert_int_equal(show_table_add(t, &test_row), 0);
	assert_int_equal(show_table_add(t, &none), 0);
	assert_int_equal(show_table_add(t, &odd), 0);
	assert_string_equal(printed(t),
			    "{\n"
			    "   \"filesystems\": [\n"
			    "      {\n"
			    "         \"flags\": [\"signed_directory_hash\", "
			    "\"test_filesystem\"]\n"
			    "      },{\n"
			    "         \"flags\": []\n"
			    "      },{\n"
			    "         \"flags\": [\"test_filesystem\", "
			    "\"0x00000100\"]\n"
			    "      }\n"
			    "   ]\n"
			    "}\n");
	show_table_free(t);
}

/*
 * A device that could not be read: in JSON with null for what it could
 * not tell and an "error" object; in the table, not at all.
 */
static void test_failed_row(void **state)
{
	const char *bad = NULL;
	struct show_row failed = {
		.device = "gone.img", .unread = true, .code = 8,
		.error = "'gone.img': No such file or directory",
	};
	struct show_row warned = test_row;
	struct show_table *t = show_table_new("+UUID,LABEL", SHOW_TABLE_JSON,
					      false, &bad);

	warned.error = "warning: 'x': \"quoted\"";
	warned.code = 8;
	assert_non_null(t);
	assert_int_equal(show_table_add(t, &failed), 0);
	assert_int_equal(show_table_add(t, &warned), 0);
	assert_string_equal(printed(t),
			    "{\n"
			    "   \"filesystems\": [\n"
			    "      {\n"
			    "         \"device\": \"gone.img\",\n"
			    "         \"type\": null,\n"
			    "         \"flags\": null,\n"
			    "         \"test\": null,\n"
			    "         \"uuid\": null,\n"
			    "         \"label\": null,\n"
			    "         \"error\": {\"message\": \"'gone.img': No "
			    "such file or directory\", \"code\": 8}\n"
			    "      },{\n"
			    "         \"device\": \"/dev/vdb\",\n"
			    "         \"type\": \"ext4dev\",\n"
			    "         \"flags\": [\"signed_directory_hash\", "
			    "\"test_filesystem\"],\n"
			    "         \"test\": true,\n"
			    "         \"uuid\": \"0b7a4e9c-1111-2222-3333-"
			    "444455556666\",\n"
			    "         \"label\": \"scratch\",\n"
			    "         \"error\": {\"message\": \"warning: 'x': "
			    "\\\"quoted\\\"\", \"code\": 8}\n"
			    "      }\n"
			    "   ]\n"
			    "}\n");
	show_table_free(t);
	t = show_table_new("DEVICE", SHOW_TABLE_RAW, true, &bad);
	assert_non_null(t);
	assert_int_equal(show_table_add(t, &failed), 0);
	assert_int_equal(show_table_add(t, &test_row), 0);
	assert_string_equal(printed(t), "/dev/vdb\n");
	show_table_free(t);
}

/* JSON strings: escapes, and bytes that are not UTF-8 as \xHH. */
static void test_json_string(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	show_table_json_string(f, "a\xff" "b\nc\"d\\e\x01\xc3\xa9");
	fputc(' ', f);
	show_table_json_string(f, NULL);
	fclose(f);
	assert_string_equal(buf, "\"a\\\\xffb\\nc\\\"d\\\\e\\u0001\xc3\xa9\" "
			    "null");
	free(buf);
}

static void test_raw_table_and_plus_columns(void **state)
{
	const char *bad = NULL;
	struct show_row prod = test_row;
	struct show_table *t = show_table_new("+LABEL", SHOW_TABLE_RAW,
					      false, &bad);

	assert_non_null(t);
	prod.device = "b.img";
	prod.type = "ext4";
	prod.s_flags = EXT2_FLAGS_SIGNED_HASH;
	assert_int_equal(show_table_add(t, &test_row), 0);
	assert_int_equal(show_table_add(t, &prod), 0);
	/* Raw: one line per row, the default columns then LABEL. */
	assert_string_equal(printed(t),
			    "DEVICE TYPE FLAGS TEST LABEL\n"
			    "/dev/vdb ext4dev signed_directory_hash\\x20"
			    "test_filesystem yes scratch\n"
			    "b.img ext4 signed_directory_hash no scratch\n");
	show_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_production_row),
		cmocka_unit_test(test_unknown_column),
		cmocka_unit_test(test_table_builds),
		cmocka_unit_test(test_json_only_the_columns_asked),
		cmocka_unit_test(test_json_flags_array),
		cmocka_unit_test(test_failed_row),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_raw_table_and_plus_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
