// SPDX-License-Identifier: GPL-2.0
/* Options declared once: getopt's strings, exclusions, --help's lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "exitcodes.h"
#include "opts.h"
#include "report.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

enum { OPT_ONLY_LONG = EXT4DEV_OPT_OWN };

/* Shaped like show-flags', with a row of each kind. */
static const struct opts_spec specs[] = {
	{ 'c', "check", "<state>", "exit 0 if it is\nin <state>" },
	{ 'J', "json", NULL, "JSON" },
	{ 'r', "raw", NULL, "raw" },
	{ 'n', "noheadings", NULL, "no header" },
	{ 'o', "output", "<list>", "columns" },
	{ 'b', NULL, "<size>", "block size" },
	{ 's', NULL, NULL, "sloppy" },
	{ 'z', NULL, "<file>", NULL },
	{ OPT_ONLY_LONG, "only-long", NULL, "no letter" },
	EXT4DEV_OPTS_WAIT,
	EXT4DEV_OPTS_HELP,
	{ 0 }
};

static const struct opts_excl excl[] = {
	{ EXT4DEV_OPTS_SET('c'), EXT4DEV_OPTS_SET('J', 'r') },
	{ EXT4DEV_OPTS_SET('c'), EXT4DEV_OPTS_SET('o', 'n') },
	{ EXT4DEV_OPTS_SET('J'), EXT4DEV_OPTS_SET('r') },
	{ NULL, NULL }
};

static const struct opts_table table = { specs, excl, false };

/* Where stdout or stderr went while capture_start() was in force. */
static char cap_path[] = "/tmp/ext4dev-unit-opts.XXXXXX";
static int cap_saved;

static void capture_start(int fd)
{
	int tmp;

	strcpy(cap_path, "/tmp/ext4dev-unit-opts.XXXXXX");
	tmp = mkstemp(cap_path);
	assert_true(tmp >= 0);
	fflush(stdout);
	fflush(stderr);
	cap_saved = dup(fd);
	assert_true(dup2(tmp, fd) >= 0);
	close(tmp);
}

static void capture_end(int fd, char *buf, size_t len)
{
	FILE *f;
	size_t n;

	fflush(stdout);
	fflush(stderr);
	assert_true(dup2(cap_saved, fd) >= 0);
	close(cap_saved);
	f = fopen(cap_path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(cap_path);
}

static void test_getopt_strings(void **state)
{
	static const struct opts_table in_order = { specs, NULL, true };
	struct opts_parser p;
	int n = 0;

	opts_start(&p, &table, "cmd");
	assert_string_equal(p.optstring, ":c:Jrno:b:sz:h");
	for (; p.longopts[n].name; n++)
		assert_int_equal(p.longopts[n].val,
				 opts_find(&table, p.longopts[n].val)->val);
	assert_int_equal(n, 8);
	assert_string_equal(p.longopts[0].name, "check");
	assert_int_equal(p.longopts[0].has_arg, required_argument);
	assert_string_equal(p.longopts[5].name, "only-long");
	assert_int_equal(p.longopts[5].has_arg, no_argument);
	assert_int_equal(p.longopts[6].val, EXT4DEV_OPT_WAIT);
	assert_int_equal(p.longopts[6].has_arg, required_argument);
	opts_start(&p, &in_order, "cmd");
	assert_string_equal(p.optstring, "+:c:Jrno:b:sz:h");
}

static void test_reads_as_getopt_long(void **state)
{
	char *argv[] = { "cmd", "dev", "-Jb1", "--wait", "5", "--only",
			 "--check=test", "-z", "f", "--", "-s", NULL };
	struct opts_parser p;

	opts_start(&p, &table, "cmd");
	assert_int_equal(opts_next(&p, ARGC(argv), argv), 'J');
	assert_int_equal(opts_next(&p, ARGC(argv), argv), 'b');
	assert_string_equal(optarg, "1");
	assert_int_equal(opts_next(&p, ARGC(argv), argv), EXT4DEV_OPT_WAIT);
	assert_string_equal(optarg, "5");
	assert_int_equal(opts_next(&p, ARGC(argv), argv), OPT_ONLY_LONG);
	/* -J came first: --check excludes it. */
	assert_int_equal(opts_next(&p, ARGC(argv), argv),
			 EXT4DEV_OPT_CONFLICT);
	assert_int_equal(opts_next(&p, ARGC(argv), argv), 'z');
	assert_string_equal(optarg, "f");
	assert_int_equal(opts_next(&p, ARGC(argv), argv), -1);
	/* GNU permutation: the operands after the options, "--" gone. */
	assert_int_equal(ARGC(argv) - optind, 2);
	assert_string_equal(argv[optind], "dev");
	assert_string_equal(argv[optind + 1], "-s");
}

static void test_in_order_stops_at_an_operand(void **state)
{
	static const struct opts_table in_order = { specs, NULL, true };
	char *argv[] = { "ext4dev", "-s", "show-flags", "-J", NULL };
	struct opts_parser p;

	opts_start(&p, &in_order, NULL);
	assert_int_equal(opts_next(&p, ARGC(argv), argv), 's');
	assert_int_equal(opts_next(&p, ARGC(argv), argv), -1);
	assert_int_equal(optind, 2);
}

/* The pair @argv's options end on, or "ok". */
static const char *conflict_of(int argc, char **argv, char *buf,
			       size_t len)
{
	char a[32], b[32];
	struct opts_parser p;
	int c;

	opts_start(&p, &table, "cmd");
	while ((c = opts_next(&p, argc, argv)) != -1) {
		assert_true(c > 0 || c == EXT4DEV_OPT_CONFLICT);
		if (c != EXT4DEV_OPT_CONFLICT)
			continue;
		snprintf(buf, len, "%s %s",
			 opts_name(opts_find(&table, p.conflict[0]), a,
				   sizeof(a)),
			 opts_name(opts_find(&table, p.conflict[1]), b,
				   sizeof(b)));
		return buf;
	}
	return "ok";
}

#define CONFLICT(want, ...) do {					\
	char *v[] = { "cmd", __VA_ARGS__, NULL };			\
	assert_string_equal(conflict_of(ARGC(v), v, buf, sizeof(buf)),	\
			    want);					\
} while (0)

static void test_exclusion(void **state)
{
	char buf[64];

	CONFLICT("--check --json", "-c", "test", "-J");
	CONFLICT("--json --check", "-J", "--check=test");
	CONFLICT("--json --raw", "-J", "-r");
	CONFLICT("--raw --json", "-r", "-o", "X", "-J");
	/* Of the other set, the one given last; rows in order. */
	CONFLICT("--noheadings --check", "-o", "X", "-n", "-c", "t");
	CONFLICT("--output --check", "-n", "-o", "X", "-c", "t");
	CONFLICT("--json --check", "-J", "-n", "-c", "t");
	/* Repeating an option, or options of one set, is fine. */
	CONFLICT("ok", "-J", "-J", "-o", "X", "-n", "-b", "1");
	CONFLICT("ok", "-c", "t", "-c", "t", "-s", "--wait", "1");
}

static void test_error_words(void **state)
{
	char *argv[] = { "cmd", "-c", "t", "-r", "--bogus", NULL };
	struct opts_parser p;
	char err[512];
	int c;

	opts_start(&p, &table, "cmd");
	assert_int_equal(opts_next(&p, ARGC(argv), argv), 'c');
	c = opts_next(&p, ARGC(argv), argv);
	capture_start(STDERR_FILENO);
	assert_int_equal(opts_error(&p, c, argv), EXT4DEV_EXIT_USAGE);
	c = opts_next(&p, ARGC(argv), argv);
	assert_int_equal(opts_error(&p, c, argv), EXT4DEV_EXIT_USAGE);
	capture_end(STDERR_FILENO, err, sizeof(err));
	assert_string_equal(err,
		"ext4dev: mutually exclusive arguments: --check --raw\n"
		"Try 'ext4dev cmd --help' for more information.\n"
		"ext4dev: unrecognized option '--bogus'\n"
		"Try 'ext4dev cmd --help' for more information.\n");
}

static void test_help_lines(void **state)
{
	char out[1024], label[64];

	capture_start(STDOUT_FILENO);
	opts_print_help(&table);
	capture_end(STDOUT_FILENO, out, sizeof(out));
	assert_string_equal(out,
		" -c, --check <state>   exit 0 if it is\n"
		"                       in <state>\n"
		" -J, --json            JSON\n"
		" -r, --raw             raw\n"
		" -n, --noheadings      no header\n"
		" -o, --output <list>   columns\n"
		" -b <size>             block size\n"
		" -s                    sloppy\n"
		"     --only-long       no letter\n"
		"     --wait <seconds>  give up if another process holds the "
		"device that long\n"
		" -h, --help            display this help\n");
	assert_int_equal(opts_label(&specs[9], label, sizeof(label)), 20);
	assert_string_equal(label, "    --wait <seconds>");
	assert_string_equal(opts_name(&specs[5], label, sizeof(label)), "-b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getopt_strings),
		cmocka_unit_test(test_reads_as_getopt_long),
		cmocka_unit_test(test_in_order_stops_at_an_operand),
		cmocka_unit_test(test_exclusion),
		cmocka_unit_test(test_error_words),
		cmocka_unit_test(test_help_lines),
	};

	report_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
