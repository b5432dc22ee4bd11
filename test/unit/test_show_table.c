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
	/* JSON: the key is the flag's own name, the value a boolean. */
	assert_string_equal(printed(t),
			    "{\n"
			    "   \"filesystems\": [\n"
			    "      {\n"
			    "         \"device\": \"/dev/vdb\",\n"
			    "         \"test_filesystem\": true\n"
			    "      }\n"
			    "   ]\n"
			    "}\n");
	show_table_free(t);
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
		cmocka_unit_test(test_raw_table_and_plus_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
