// SPDX-License-Identifier: GPL-2.0
/* The mke2fs.conf reader: grammar, lookups, errors with line numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkfs_conf.h"

static const char *value(const struct mkfs_conf *c, const char *sec,
			 const char *sub, const char *name)
{
	const struct mkfs_conf_node *n = mkfs_conf_find(c, sec, sub, name);

	return n ? n->value : NULL;
}

static void test_builtin_is_mke2fs_defaults(void **state)
{
	struct mkfs_conf c;

	assert_int_equal(mkfs_conf_parse_text(&c, "b", mkfs_conf_builtin), 0);
	assert_string_equal(value(&c, "defaults", NULL, "blocksize"), "4096");
	assert_string_equal(value(&c, "defaults", NULL, "inode_ratio"),
			    "16384");
	assert_non_null(strstr(value(&c, "fs_types", "ext4", "features"),
			       "metadata_csum,64bit"));
	assert_string_equal(value(&c, "fs_types", "small", "blocksize"),
			    "1024");
	assert_string_equal(value(&c, "fs_types", "largefile", "blocksize"),
			    "-1");
	assert_true(mkfs_conf_has_sub(&c, "fs_types", "floppy"));
	assert_false(mkfs_conf_has_sub(&c, "fs_types", "ext4dev"));
	assert_null(value(&c, "defaults", NULL, "hash_alg"));
	mkfs_conf_free(&c);
}

static void test_grammar(void **state)
{
	static const char text[] =
		"this line before any section is a comment = {\n"
		" [not column 0] is still a comment\n"
		"[defaults]\n"
		"\t# a comment\n"
		"  ; another\n"
		"a = 1   # trailing comment\n"
		"a = 2\n"
		"q = \"two words\\tand a tab\" ignored\n"
		"\"quoted name\" = x\n"
		"[ fs_types ]  \n"
		"t = {\n"
		"  x = 1\n"
		"}\n"
		"u =\n"
		"  {\n"
		"  y = 2\n"
		"  }\n"
		"empty = {\n"
		"}\n"
		"t = {\n"
		"  z = 3\n"
		"}\n"
		"[defaults]\n"
		"b = 5\n";
	struct mkfs_conf c;

	assert_int_equal(mkfs_conf_parse_text(&c, "g", text), 0);
	assert_string_equal(value(&c, "defaults", NULL, "a"), "1");
	assert_string_equal(value(&c, "defaults", NULL, "b"), "5");
	assert_string_equal(value(&c, "defaults", NULL, "q"),
			    "two words\tand a tab");
	assert_string_equal(value(&c, "defaults", NULL, "quoted name"), "x");
	assert_string_equal(value(&c, "fs_types", "t", "x"), "1");
	assert_string_equal(value(&c, "fs_types", "t", "z"), "3");
	assert_string_equal(value(&c, "fs_types", "u", "y"), "2");
	assert_int_equal(mkfs_conf_find(&c, "fs_types", "u", "y")->line, 16);
	assert_false(mkfs_conf_has_sub(&c, "fs_types", "empty"));
	assert_false(mkfs_conf_has_sub(&c, "fs_types", "missing"));
	assert_null(value(&c, "nosuch", NULL, "a"));
	mkfs_conf_free(&c);
}

static void expect_error(const char *text, int line, const char *why)
{
	struct mkfs_conf c;

	assert_int_equal(mkfs_conf_parse_text(&c, "bad.conf", text), EINVAL);
	assert_string_equal(c.err.file, "bad.conf");
	assert_int_equal(c.err.line, line);
	if (!strstr(c.err.why, why))
		fail_msg("'%s' does not say '%s'", c.err.why, why);
	mkfs_conf_free(&c);
}

static void test_syntax_errors_name_the_line(void **state)
{
	expect_error("[defaults\n", 1, "missing ']'");
	expect_error("[]\n", 1, "empty section");
	expect_error("[defaults] x\n", 1, "after ']'");
	expect_error("[a]\nb = c d\n", 2, "more than one word");
	expect_error("[a]\nb c = d\n", 2, "blank inside name");
	expect_error("[a]\n\nno equals sign\n", 3, "name = value");
	expect_error("[a]\n= x\n", 2, "name = value");
	expect_error("[a]\n}\n", 2, "without a matching");
	expect_error("[a]\nt = {\n x = 1\n", 3, "never closed");
	expect_error("[a]\nt =\n x = 1\n}\n", 3, "expected '{'");
	expect_error("[a]\nt = {\n[b]\n}\n", 3, "inside");
	expect_error("[a]\nt = { x\n", 2, "after '{'");
}

static void test_load_honours_env(void **state)
{
	char path[] = "/tmp/ext4dev-conf-XXXXXX";
	struct mkfs_conf c;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[defaults]\n blocksize = 2048\n", 29), 29);
	close(fd);
	setenv("MKE2FS_CONFIG", path, 1);
	assert_int_equal(mkfs_conf_load(&c), 0);
	assert_string_equal(c.file, path);
	assert_string_equal(value(&c, "defaults", NULL, "blocksize"), "2048");
	mkfs_conf_free(&c);
	unlink(path);
	/* A file that is not there: mke2fs's built-in defaults. */
	assert_int_equal(mkfs_conf_load(&c), 0);
	assert_string_equal(c.file, EXT4DEV_CONF_BUILTIN);
	assert_string_equal(value(&c, "defaults", NULL, "blocksize"), "4096");
	mkfs_conf_free(&c);
	/* A directory cannot be read: an error, not the defaults. */
	setenv("MKE2FS_CONFIG", "/", 1);
	assert_int_not_equal(mkfs_conf_load(&c), 0);
	mkfs_conf_free(&c);
	unsetenv("MKE2FS_CONFIG");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_is_mke2fs_defaults),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_syntax_errors_name_the_line),
		cmocka_unit_test(test_load_honours_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
