// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command-line parsers, from a fuzzed argv.
 *
 * Input: a selector byte, then NUL-separated words that become argv[1..]
 * (argv[0] is the subcommand's name, as main.c passes it).  The selector
 * picks show_flags_parse(), or mark_parse() for mark-test or
 * mark-production.  Whatever the words, a parser must return -1 (go on),
 * 0 (--help) or 16 (usage error), never read past argv, and leave a
 * consistent struct; show-flags' -o list then goes through the column
 * parser.  Run with -close_fd_mask=3: the parsers print help and usage.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_mark.h"
#include "cmd_show_flags.h"
#include "exitcodes.h"
#include "show_table.h"

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
	if (!ok)
		abort();
}

static void fuzz_show_flags(int argc, char **argv)
{
	struct show_flags_ctl ctl;
	struct show_table *t;
	const char *bad = NULL;
	int rc = show_flags_parse(&ctl, argc, argv);

	check(rc == -1 || rc == EXT4DEV_EXIT_OK || rc == EXT4DEV_EXIT_USAGE);
	if (rc != -1)
		return;
	check(ctl.ndevices >= 1 && ctl.devices + ctl.ndevices == argv + argc);
	check(ctl.check >= EXT4DEV_CHECK_NONE &&
	      ctl.check <= EXT4DEV_CHECK_TEST);
	check(ctl.table || (ctl.ndevices == 1 && !ctl.columns));
	/* Exclusive options never both get through (util-linux's rule). */
	check(ctl.check == EXT4DEV_CHECK_NONE ||
	      !(ctl.json || ctl.raw || ctl.columns || ctl.noheadings));
	check(!(ctl.json && ctl.raw));
	check(!ctl.verbose || ctl.check != EXT4DEV_CHECK_NONE);
	t = show_table_new(ctl.columns, ctl.json ? SHOW_TABLE_JSON :
			   SHOW_TABLE_PLAIN, ctl.noheadings, &bad);
	/* An unknown column names itself, inside the -o argument. */
	check(t || (bad && ctl.columns && bad >= ctl.columns &&
		    bad <= ctl.columns + strlen(ctl.columns)));
	show_table_free(t);
}

static void fuzz_mark(int argc, char **argv, bool set)
{
	struct mark_ctl ctl;
	int rc = mark_parse(&ctl, argv[0], set, argc, argv);

	check(rc == -1 || rc == EXT4DEV_EXIT_OK || rc == EXT4DEV_EXIT_USAGE);
	if (rc != -1)
		return;
	check(ctl.set == set && ctl.ndevices >= 1);
	check(ctl.devices + ctl.ndevices == argv + argc);
	check(!ctl.undo_file || ctl.ndevices == 1);
	/* -z '' is a usage error, never an empty path handed to fsio. */
	check(!ctl.undo_file || ctl.undo_file[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"show-flags", "mark-test", "mark-production",
	};
	char *argv[FUZZ_MAX_ARGS + 2], *buf;
	int argc = 1, which;

	if (size < 1)
		return 0;
	which = data[0] % 3;
	/* A private, NUL-terminated copy: getopt may permute argv. */
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (char *)names[which];
	for (char *p = buf; p < buf + size - 1 && argc <= FUZZ_MAX_ARGS;
	     p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if (which == 0)
		fuzz_show_flags(argc, argv);
	else
		fuzz_mark(argc, argv, which == 1);
	free(buf);
	return 0;
}
