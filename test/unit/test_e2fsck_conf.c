// SPDX-License-Identifier: GPL-2.0
/*
 * What e2fsck.conf says about the flag, and the configuration
 * fsck.ext4dev hands e2fsck.  The integration test (integration.fsck)
 * checks the same against e2fsck itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2fsck_conf.h"

static void test_keeps_only_when_false(void **state)
{
	static const char *const kept[] = {
		"[options]\n\tclear_test_fs_flag = false\n",
		"[options]\nclear_test_fs_flag = 0\n",
		"[options]\nclear_test_fs_flag=off # why\n",
		"[options]\nclear_test_fs_flag = NO\n",
		"[options]\nclear_test_fs_flag = nil\n",
		"[options]\nclear_test_fs_flag = \"false\"\n",
		"[ options ]*\nclear_test_fs_flag* = n\n",
		"[options]\nclear_test_fs_flag = false\n"
		"clear_test_fs_flag = true\n",
		NULL,
	};
	static const char *const cleared[] = {
		"",
		"# nothing\n",
		"[options]\n\tclear_test_fs_flag = true\n",
		"[options]\nclear_test_fs_flag = maybe\n",
		"[options]\nclear_test_fs_flag = true\n"
		"clear_test_fs_flag = false\n",
		/* before any section: a comment to e2fsck */
		"clear_test_fs_flag = false\n[options]\n",
		"[scratch_files]\nclear_test_fs_flag = false\n",
		/* in a subsection of [options], not the relation */
		"[options]\nsub = {\n clear_test_fs_flag = false\n}\n",
		"[options]\nsub =\n{\n clear_test_fs_flag = false\n}\n",
		NULL,
	};

	for (const char *const *t = kept; *t; t++) {
		print_message("kept: %s", *t);
		assert_true(e2fsck_conf_keeps_flag(*t));
	}
	for (const char *const *t = cleared; *t; t++) {
		print_message("cleared: %s", *t);
		assert_false(e2fsck_conf_keeps_flag(*t));
	}
	/* After the subsection closes, [options] counts again. */
	assert_true(e2fsck_conf_keeps_flag(
		"[options]\nsub = {\n x = 1\n}\nclear_test_fs_flag = 0\n"));
}

/* e2fsck's default is not the configuration's doing. */
static void test_verdict_default_or_relation(void **state)
{
	assert_int_equal(e2fsck_conf_verdict(""), E2FSCK_CONF_DEFAULT);
	assert_int_equal(e2fsck_conf_verdict("[options]\nmax_count = 3\n"),
			 E2FSCK_CONF_DEFAULT);
	assert_int_equal(e2fsck_conf_verdict("[scratch_files]\n"
					     "clear_test_fs_flag = 0\n"),
			 E2FSCK_CONF_DEFAULT);
	assert_int_equal(e2fsck_conf_verdict("[options]\n"
					     "clear_test_fs_flag = 1\n"),
			 E2FSCK_CONF_CLEARS);
	assert_int_equal(e2fsck_conf_verdict("[options]\n"
					     "clear_test_fs_flag = no\n"),
			 E2FSCK_CONF_KEEPS);
}

static void test_warning_names_the_file_only_when_it_clears(void **state)
{
	char *m = e2fsck_conf_warning("/etc/e2fsck.conf",
				      E2FSCK_CONF_DEFAULT);

	assert_non_null(m);
	assert_non_null(strstr(m, "clears the test_filesystem flag by "
			       "default:"));
	assert_null(strstr(m, "under"));
	/* ... named only as the place for the fix */
	assert_non_null(strstr(m, "'clear_test_fs_flag = false' to "
			       "[options] in '/etc/e2fsck.conf'"));
	free(m);
	m = e2fsck_conf_warning("/x/e2fsck.conf", E2FSCK_CONF_CLEARS);
	assert_non_null(m);
	assert_non_null(strstr(m, "flag under '/x/e2fsck.conf', which sets "
			       "clear_test_fs_flag"));
	assert_null(strstr(m, "default"));
	free(m);
	assert_null(e2fsck_conf_warning("/etc/e2fsck.conf",
					E2FSCK_CONF_KEEPS));
}

static void test_with_keep_wins(void **state)
{
	static const char text[] =
		"[options]\n\tclear_test_fs_flag = true\n\tmax_count = 3\n";
	char *conf = e2fsck_conf_with_keep(text);
	int lines = 0;

	assert_non_null(conf);
	assert_false(e2fsck_conf_keeps_flag(text));
	assert_true(e2fsck_conf_keeps_flag(conf));
	/* The system's text follows, whole, after the prefix lines. */
	for (const char *c = conf; *c; c++) {
		if (lines == EXT4DEV_E2FSCK_KEEP_LINES) {
			assert_string_equal(c, text);
			break;
		}
		lines += *c == '\n';
	}
	assert_int_equal(lines, EXT4DEV_E2FSCK_KEEP_LINES);
	free(conf);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_read_file_and_dir(void **state)
{
	char dir[] = "/tmp/ext4dev-e2fsck-conf.XXXXXX", path[128];
	char *text = NULL;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(e2fsck_conf_read(path, &text), 0);
	assert_string_equal(text, "");
	free(text);

	/* Leading comment lines stay as empty lines; no newline at EOF. */
	snprintf(path, sizeof(path), "%s/b-conf", dir);
	write_file(path, "prose\n[options]\nclear_test_fs_flag = 0");
	assert_int_equal(e2fsck_conf_read(path, &text), 0);
	assert_string_equal(text, "\n[options]\nclear_test_fs_flag = 0\n");
	free(text);

	/* A directory: its files in strcmp() order, odd names skipped. */
	snprintf(path, sizeof(path), "%s/a_conf", dir);
	write_file(path, "[options]\nclear_test_fs_flag = yes\n");
	snprintf(path, sizeof(path), "%s/c.conf", dir);
	write_file(path, "[options]\nclear_test_fs_flag = no\n");
	assert_int_equal(e2fsck_conf_read(dir, &text), 0);
	assert_string_equal(text, "[options]\nclear_test_fs_flag = yes\n"
			    "\n[options]\nclear_test_fs_flag = 0\n");
	assert_false(e2fsck_conf_keeps_flag(text));
	free(text);

	for (const char *n = "a_conf\0b-conf\0c.conf\0"; *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void test_path(void **state)
{
	unsetenv("E2FSCK_CONFIG");
	assert_string_equal(e2fsck_conf_path(), "/etc/e2fsck.conf");
	setenv("E2FSCK_CONFIG", "/x/y", 1);
	assert_string_equal(e2fsck_conf_path(), "/x/y");
	unsetenv("E2FSCK_CONFIG");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keeps_only_when_false),
		cmocka_unit_test(test_verdict_default_or_relation),
		cmocka_unit_test(test_warning_names_the_file_only_when_it_clears),
		cmocka_unit_test(test_with_keep_wins),
		cmocka_unit_test(test_read_file_and_dir),
		cmocka_unit_test(test_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
