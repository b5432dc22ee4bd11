// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatcher: pick a subcommand of commands.c's table from the name
 * we were called by (mkfs.ext4dev, fsck.ext4dev, mount.ext4dev,
 * ext4dev-mark-test, ...) or from argv[1], and hand it the rest.  No
 * filesystem code lives here.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exitcodes.h"
#include "opts.h"
#include "report.h"
#include "version.h"

static const struct ext4dev_cmd *find_command(const char *name)
{
	for (const struct ext4dev_cmd *c = ext4dev_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/*
 * "mkfs.ext4dev" runs mkfs, "fsck.ext4dev" fsck, "mount.ext4dev" mount;
 * "ext4dev-show-flags" runs show-flags.
 */
static const char *command_from_argv0(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	if (!strcmp(base, "mkfs.ext4dev"))
		return "mkfs";
	if (!strcmp(base, "fsck.ext4dev"))
		return "fsck";
	if (!strcmp(base, "mount.ext4dev"))
		return "mount";
	if (!strncmp(base, "ext4dev-", 8))
		return base + 8;
	return NULL;
}

static int print_help(void)
{
	printf("Usage:\n ext4dev <command> [options] <device>...\n"
	       " ext4dev help [<command>]\n"
	       " ext4dev -h|--help\n ext4dev -V|--version\n\n"
	       "Manage ext4's development-filesystem flag "
	       "(test_filesystem).\n\nCommands:\n");
	for (const struct ext4dev_cmd *c = ext4dev_commands; c->name; c++)
		printf(" %-16s %s\n", c->name, c->summary);
	printf("\nRun 'ext4dev help <command>' or 'ext4dev <command> --help' "
	       "for a command's\noptions.  See ext4dev(8) for details.\n");
	return EXT4DEV_EXIT_OK;
}

/*
 * "ext4dev help" is --help; "ext4dev help CMD" is "ext4dev CMD --help",
 * as with git.  @argv[0] is "help".
 */
static int run_help(int argc, char **argv)
{
	const struct ext4dev_cmd *cmd;
	char *args[3] = { NULL, "--help", NULL };

	if (argc > 2)
		return report_usage(NULL, "help takes one command");
	if (argc < 2 || !strcmp(argv[1], "help"))
		return print_help();
	cmd = find_command(argv[1]);
	if (!cmd)
		return report_usage(NULL, "unknown command '%s'", argv[1]);
	args[0] = (char *)cmd->name;
	return cmd->fn(2, args, cmd);
}

/*
 * A full disk on stdout must not pass for success; a closed pipe (the
 * reader had enough, as with "| head") is not our failure.
 */
static int close_stdout(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (errno == EPIPE)
		return rc;
	return ext4dev_exit_worst(rc, report_failure("write error: %s",
						     strerror(errno)));
}

/*
 * The options before the command: -h and -V, as getopt_long() reads
 * them (so "--bogus" is an unrecognized option, not a command), in
 * order: reading stops at the command.
 */
static const struct opts_table top_options = {
	.specs = (const struct opts_spec[]) {
		EXT4DEV_OPTS_HELP,
		EXT4DEV_OPTS_VERSION,
		{ 0 }
	},
	.in_order = true,
};

/* Returns -1 with optind at the command, or an exit code. */
static int parse_top(int argc, char **argv)
{
	struct opts_parser p;
	int c;

	opts_start(&p, &top_options, NULL);
	while ((c = opts_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			return print_help();
		case 'V':
			return ext4dev_print_version();
		default:
			return opts_error(&p, c, argv);
		}
	}
	if (optind >= argc)
		return report_usage(NULL, "no command given");
	return -1;
}

static int dispatch(int argc, char **argv)
{
	const char *name = command_from_argv0(argv[0]);
	const struct ext4dev_cmd *cmd;
	int rc;

	if (!name) {
		rc = parse_top(argc, argv);
		if (rc >= 0)
			return rc;
		argc -= optind;
		argv += optind;
		name = argv[0];
	}
	if (!strcmp(name, "help"))
		return run_help(argc, argv);
	cmd = find_command(name);
	if (!cmd)
		return report_usage(NULL, "unknown command '%s'", name);
	return cmd->fn(argc, argv, cmd);
}

int main(int argc, char **argv)
{
	/* A closed pipe is an error to report, never a signal to die of. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The user's locale, as lsblk: libsmartcols prints a UTF-8 label
	 * as it is in a UTF-8 locale and escapes it (\xHH) under C.  Only
	 * the two categories we use, as e2fsprogs does: LC_ALL would load
	 * a dozen more locale files on every run, and LC_NUMERIC would
	 * make strtod() want "0,5" for mkfs -m and mke2fs.conf numbers.
	 */
	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
	report_init();
	if (argc < 1)
		return EXT4DEV_EXIT_USAGE;
	return close_stdout(dispatch(argc, argv));
}
