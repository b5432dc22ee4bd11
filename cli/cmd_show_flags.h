/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_CMD_SHOW_FLAGS_H
#define EXT4DEV_CMD_SHOW_FLAGS_H

#include <stdbool.h>

/* What `ext4dev show-flags` was asked to do; filled by the parser. */
struct show_flags_ctl {
	const char *columns;	/* -o list, or NULL for the default */
	bool json;		/* -J */
	bool raw;		/* -r */
	bool noheadings;	/* -n */
	bool verbose;		/* -v: say what --check found */
	bool table;		/* any of the above, or several devices */
	int check;		/* EXT4DEV_CHECK_* */
	int wait_secs;		/* --wait, -1 when not given */
	char **devices;
	int ndevices;
};

enum {
	EXT4DEV_CHECK_NONE = -1,
	EXT4DEV_CHECK_PRODUCTION = 0,
	EXT4DEV_CHECK_TEST = 1,
};

/* Returns -1 to go on, or an exit code (16, or 0 after --help). */
int show_flags_parse(struct show_flags_ctl *ctl, int argc, char **argv);

#endif
