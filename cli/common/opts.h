/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_OPTS_H
#define EXT4DEV_OPTS_H

/*
 * A command's options, declared once.  One table per command makes the
 * getopt_long() optstring and struct option array, the option lines of
 * its --help, its "mutually exclusive arguments" errors, the man-page
 * check (test/unit/test_opts.c) and, through --help, bash completion.
 * The idea is libgit2's cli_opt_spec (parsing and usage from one
 * declaration) and util-linux's ul_excl_t (exclusions as data); the
 * reading is still getopt_long()'s, so permutation, "--", abbreviated
 * long options and getopt's error words are unchanged.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

/* Vals of options that have no letter, past any char getopt returns. */
enum {
	EXT4DEV_OPT_LONG = 0x100,
	EXT4DEV_OPT_WAIT = EXT4DEV_OPT_LONG,	/* --wait, every command */
	EXT4DEV_OPT_OWN = EXT4DEV_OPT_LONG + 16	/* a command's own start here */
};

/* What opts_next() returns for an option that excludes an earlier one. */
enum { EXT4DEV_OPT_CONFLICT = -2 };

/* The most options one table may hold (mkfs has mke2fs's 38). */
#define EXT4DEV_OPTS_MAX 48

/* --help's option lines: " LABEL" padded to this column, then the help. */
#define EXT4DEV_OPTS_HELP_COLUMN 23

/*
 * One option.  @help may hold '\n': the rest goes on a line below, at
 * the help column; a NULL @help is an option getopt accepts (and the
 * command refuses in its own words) that --help does not list.
 */
struct opts_spec {
	int val;		/* its letter, or EXT4DEV_OPT_LONG and up */
	const char *name;	/* its long name without "--", or NULL */
	const char *arg;	/* its argument as --help shows it, NULL: none */
	const char *help;	/* --help's text, or NULL */
};

/* The rows every command has; --wait for those that take a lock. */
#define EXT4DEV_OPTS_HELP { 'h', "help", NULL, "display this help" }
#define EXT4DEV_OPTS_VERSION { 'V', "version", NULL, "display the version" }
#define EXT4DEV_OPTS_WAIT { EXT4DEV_OPT_WAIT, "wait", "<seconds>", \
	"give up if another process holds the device that long" }

/*
 * Two sets of options that exclude each other: an option of @one given
 * with one of @other is a usage error, "mutually exclusive arguments:
 * --EARLIER --LATER", naming of the other set the option given last.
 * Options in the same set go together.  The rows are tried in order.
 * Sets are vals ended by 0: EXT4DEV_OPTS_SET('J', 'r').
 */
struct opts_excl {
	const int *one;
	const int *other;
};

#define EXT4DEV_OPTS_SET(...) ((const int[]){ __VA_ARGS__, 0 })

/* Everything a command's command line may hold. */
struct opts_table {
	const struct opts_spec *specs;	/* ended by a row with val 0 */
	const struct opts_excl *excl;	/* ended by a NULL @one; or NULL */
	bool in_order;			/* stop at the first operand ('+') */
};

/* One run of getopt_long() over a table. */
struct opts_parser {
	const struct opts_table *table;
	const char *cmd;		/* report_usage()'s command */
	char optstring[3 + 2 * EXT4DEV_OPTS_MAX];
	struct option longopts[EXT4DEV_OPTS_MAX + 1];
	unsigned int given[EXT4DEV_OPTS_MAX];	/* when each came last */
	unsigned int count;		/* options read so far */
	int conflict[2];		/* the pair opts_error() names */
};

/*
 * Get ready to read a command line by @t, from its start (optind = 0,
 * opterr = 0: errors are ours to word, through opts_error()).
 */
void opts_start(struct opts_parser *p, const struct opts_table *t,
		const char *cmd);

/*
 * getopt_long()'s next answer: an option's val (its argument in
 * optarg), '?' or ':' as with a leading ':' in the optstring,
 * EXT4DEV_OPT_CONFLICT for an option that excludes one given earlier,
 * or -1 when the options are over (optind is at the first operand).
 */
int opts_next(struct opts_parser *p, int argc, char **argv);

/*
 * After opts_next() returned '?', ':' or EXT4DEV_OPT_CONFLICT: say
 * what was wrong, as a usage error; returns 16.
 */
int opts_error(const struct opts_parser *p, int c, char **argv);

/* The row of @val, or NULL. */
const struct opts_spec *opts_find(const struct opts_table *t, int val);

/* How messages name an option: "--check", or "-b" if it has no name. */
const char *opts_name(const struct opts_spec *s, char *buf, size_t len);

/*
 * The left of its --help line: "-c, --check <state>", "-b <size>",
 * "    --wait <seconds>".  Returns its length.
 */
size_t opts_label(const struct opts_spec *s, char *buf, size_t len);

/* The option lines of --help, in table order, hidden rows left out. */
void opts_print_help(const struct opts_table *t);

#endif
