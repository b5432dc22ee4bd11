/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_COMMANDS_H
#define EXT4DEV_COMMANDS_H

#include <stdbool.h>

struct ext4dev_cmd;
struct opts_table;

/* A subcommand's entry point; returns an enum ext4dev_exit value. */
typedef int (*ext4dev_cmd_fn)(int argc, char **argv,
			      const struct ext4dev_cmd *cmd);

/*
 * One row of the dispatcher's table.  Several rows may share one
 * function (mark-test and mark-production); @arg tells them apart.
 */
struct ext4dev_cmd {
	const char *name;
	ext4dev_cmd_fn fn;
	int arg;
	const char *summary;
	const struct opts_table *opts;	/* opts.h; NULL: reads none itself */
};

/*
 * The table (commands.c), for main.c's lookup and the top-level --help,
 * and for the man-page check, which reads each row's options.
 */
extern const struct ext4dev_cmd ext4dev_commands[];

/*
 * Each command's options (opts.h), defined in its file: getopt, its
 * --help and the man-page check (unit.opts_tables) read them.
 */
extern const struct opts_table show_flags_options;
extern const struct opts_table mark_options;
extern const struct opts_table mkfs_options;
extern const struct opts_table mount_options;

int cmd_show_flags(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mark(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mkfs(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_fsck(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mount(int argc, char **argv, const struct ext4dev_cmd *cmd);

/* cmd_mark's @arg values. */
enum { EXT4DEV_MARK_PRODUCTION = 0, EXT4DEV_MARK_TEST = 1 };

#endif
