// SPDX-License-Identifier: GPL-2.0
/*
 * The commands: what main.c dispatches to and lists in --help, and
 * each one's options table, which the man-page check (unit.opts) reads.
 */
#include <stddef.h>

#include "commands.h"

const struct ext4dev_cmd ext4dev_commands[] = {
	{ "show-flags", cmd_show_flags, 0,
	  "print a filesystem's superblock flags, or check them",
	  &show_flags_options },
	{ "mark-test", cmd_mark, EXT4DEV_MARK_TEST,
	  "set the test_filesystem flag (ext4dev may mount it)",
	  &mark_options },
	{ "mark-production", cmd_mark, EXT4DEV_MARK_PRODUCTION,
	  "clear the test_filesystem flag", &mark_options },
	{ "mkfs", cmd_mkfs, 0,
	  "make an ext4 filesystem with the test_filesystem flag set",
	  &mkfs_options },
	/* e2fsck's options, passed on; it looks for -h and --version. */
	{ "fsck", cmd_fsck, 0,
	  "run e2fsck so that it keeps the test_filesystem flag", NULL },
	{ "mount", cmd_mount, 0,
	  "mount(8)'s helper: mount only a flagged filesystem",
	  &mount_options },
	{ NULL, NULL, 0, NULL, NULL },
};
