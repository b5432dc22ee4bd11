/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_COMMANDS_H
#define EXT4DEV_COMMANDS_H

#include <stdbool.h>

struct ext4dev_cmd;

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
};

/* The table, for main.c's lookup and the top-level --help. */
extern const struct ext4dev_cmd ext4dev_commands[];

int cmd_show_flags(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mark(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mkfs(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_fsck(int argc, char **argv, const struct ext4dev_cmd *cmd);
int cmd_mount(int argc, char **argv, const struct ext4dev_cmd *cmd);

/* cmd_mark's @arg values. */
enum { EXT4DEV_MARK_PRODUCTION = 0, EXT4DEV_MARK_TEST = 1 };

#endif
