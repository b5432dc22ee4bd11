/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_CMD_MARK_H
#define EXT4DEV_CMD_MARK_H

#include <stdbool.h>
#include <stdint.h>

#include <ext2fs/ext2_fs.h>

/* What `ext4dev mark-test|mark-production` was asked to do. */
struct mark_ctl {
	const char *name;	/* the subcommand, for messages */
	bool set;		/* mark-test sets, mark-production clears */
	bool dry_run;		/* -n */
	bool quiet;		/* -q */
	const char *undo_file;	/* -z */
	int wait_secs;		/* --wait, -1 when not given */
	char **devices;
	int ndevices;
};

/* Returns -1 to go on, or an exit code (16, or 0 after --help). */
int mark_parse(struct mark_ctl *ctl, const char *name, bool set, int argc,
	       char **argv);

/* s_flags after the change: only the test bit moves. */
static inline uint32_t mark_new_flags(uint32_t s_flags, bool set)
{
	return set ? s_flags | EXT2_FLAGS_TEST_FILESYS
		   : s_flags & ~(uint32_t)EXT2_FLAGS_TEST_FILESYS;
}

#endif
