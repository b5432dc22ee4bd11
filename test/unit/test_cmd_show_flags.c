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

#include "cmd_show_flags.h"
#include "commands.h"
#include "exitcodes.h"
#include "report.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* Run show-flags on @argv with stdout in @out (a file); returns rc. */
static int run_captured(int argc, char **argv, char *out, size_t len)
{
	static const struct ext4dev_cmd cmd = { "show-flags", cmd_show_flags,
						0, "", &show_flags_options };
	char path[] = "/tmp/ext4dev-unit-out.XXXXXX";
	int fd = mkstemp(path), saved, rc;
	FILE *f;
	size_t n;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	rc = cmd_show_flags(argc, argv, &cmd);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	close(fd);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
	unlink(path);
	return rc;
}

/* One device, no table option: exactly dumpe2fs -h's flags line. */
static void test_one_device_is_the_dumpe2fs_line(void **state)
{
	char img[] = "/tmp/ext4dev-unit-img.XXXXXX";
	char *argv[] = { "show-flags", img, NULL };
	char out[512], want[512] = "", cmd[256];
	struct show_flags_ctl ctl;
	FILE *p;
	int fd = mkstemp(img);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv), -1);
	assert_false(ctl.table);
	assert_int_equal(ctl.check, EXT4DEV_CHECK_NONE);
	assert_int_equal(ctl.ndevices, 1);
	assert_string_equal(ctl.devices[0], img);
	snprintf(cmd, sizeof(cmd), "mke2fs -q -F -t ext4 -E test_fs %s 8M "
		 ">/dev/null 2>&1", img);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_captured(ARGC(argv), argv, out, sizeof(out)),
			 EXT4DEV_EXIT_OK);
	snprintf(cmd, sizeof(cmd), "dumpe2fs -h %s 2>/dev/null | "
		 "grep '^Filesystem flags:'", img);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(want, sizeof(want), p));
	pclose(p);
	assert_non_null(strstr(want, "test_filesystem"));
	assert_string_equal(out, want);
	unlink(img);
}

/*
 * --json names every device: a missing one has its row, with null
 * values and the stderr line as its error, and the exit status is 8.
 */
static void test_json_every_device(void **state)
{
	char img[] = "/tmp/ext4dev-unit-img.XXXXXX";
	char *argv[] = { "show-flags", "--json", img,
			 "/nonexistent/ext4dev-unit.img", NULL };
	char out[4096], cmd[256], want[512];
	int fd = mkstemp(img);

	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "mke2fs -q -F -t ext4 %s 8M "
		 ">/dev/null 2>&1", img);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_captured(ARGC(argv), argv, out, sizeof(out)),
			 EXT4DEV_EXIT_FAILURE);
	/* signed or unsigned hash: the machine's char decides. */
	snprintf(want, sizeof(want), "\"device\": \"%s\",\n"
		 "         \"type\": \"ext4\",\n"
		 "         \"flags\": [\"", img);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "_directory_hash\"],\n"
			       "         \"test\": false\n      },{\n"));
	assert_non_null(strstr(out,
		"         \"device\": \"/nonexistent/ext4dev-unit.img\",\n"
		"         \"type\": null,\n"
		"         \"flags\": null,\n"
		"         \"test\": null,\n"
		"         \"error\": {\"message\": \"'/nonexistent/ext4dev-"
		"unit.img': No such file or directory\", \"code\": 8}\n"));
	unlink(img);
}

static void test_table_options(void **state)
{
	char *argv[] = { "show-flags", "-r", "--noheadings",
			 "--output=DEVICE,TEST", "a.img", NULL };
	char *two[] = { "show-flags", "a.img", "b.img", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv), -1);
	assert_true(ctl.table && !ctl.json && ctl.raw && ctl.noheadings);
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
	/* GNU permutation: an option after a device is still an option. */
	assert_int_equal(show_flags_parse(&ctl, ARGC(missing), missing),
			 EXT4DEV_EXIT_USAGE);
}

static void test_permutation_and_dashdash(void **state)
{
	char *late[] = { "show-flags", "a", "--json", "b", "-o", "+UUID",
			 NULL };
	char *dd[] = { "show-flags", "-J", "--", "a", "--json", "-x", NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(late), late), -1);
	assert_true(ctl.json && ctl.table);
	assert_string_equal(ctl.columns, "+UUID");
	assert_int_equal(ctl.ndevices, 2);
	assert_string_equal(ctl.devices[0], "a");
	assert_string_equal(ctl.devices[1], "b");
	assert_int_equal(show_flags_parse(&ctl, ARGC(dd), dd), -1);
	assert_int_equal(ctl.ndevices, 3);
	assert_string_equal(ctl.devices[0], "a");
	assert_string_equal(ctl.devices[1], "--json");
	assert_string_equal(ctl.devices[2], "-x");
}

static void test_exclusive_options(void **state)
{
	char *cj[] = { "show-flags", "--check", "test", "-J", "x", NULL };
	char *jr[] = { "show-flags", "x", "-J", "-r", NULL };
	char *oc[] = { "show-flags", "-o", "TEST", "-c", "test", "x", NULL };
	char *v[] = { "show-flags", "-v", "x", NULL };
	char *ok[] = { "show-flags", "-J", "-J", "-o", "TEST", "-n", "x",
		       NULL };
	struct show_flags_ctl ctl;

	assert_int_equal(show_flags_parse(&ctl, ARGC(cj), cj),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(jr), jr),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(oc), oc),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(v), v),
			 EXT4DEV_EXIT_USAGE);
	assert_int_equal(show_flags_parse(&ctl, ARGC(ok), ok), -1);
}

static void test_help_and_version_exit_zero(void **state)
{
	char *argv[] = { "show-flags", "--help", NULL };
	char *ver[] = { "show-flags", "x", "-V", NULL };
	struct show_flags_ctl ctl;
	char out[4096];

	assert_int_equal(show_flags_parse(&ctl, ARGC(argv), argv),
			 EXT4DEV_EXIT_OK);
	assert_int_equal(run_captured(ARGC(argv), argv, out, sizeof(out)),
			 EXT4DEV_EXIT_OK);
	assert_true(!strncmp(out, "Usage:\n ext4dev show-flags ", 27));
	assert_non_null(strstr(out, "--check <state>"));
	assert_non_null(strstr(out, "Available output columns"));
	assert_int_equal(run_captured(ARGC(ver), ver, out, sizeof(out)),
			 EXT4DEV_EXIT_OK);
	assert_true(!strncmp(out, "ext4dev ", 8));
	assert_non_null(strstr(out, "(libext2fs "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_device_is_the_dumpe2fs_line),
		cmocka_unit_test(test_json_every_device),
		cmocka_unit_test(test_table_options),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_permutation_and_dashdash),
		cmocka_unit_test(test_exclusive_options),
		cmocka_unit_test(test_help_and_version_exit_zero),
	};

	report_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
