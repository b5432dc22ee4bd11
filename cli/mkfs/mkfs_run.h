/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_RUN_H
#define EXT4DEV_MKFS_RUN_H

/*
 * What is being built, once the plan is settled: the filesystem open in
 * libext2fs, and what the writing stages learn on the way.  The
 * options, configuration and plan are only read from here on.
 */

#include <ext2fs/ext2fs.h>

#include "mkfs.h"

struct fsio_dev;

struct mkfs_run {
	const struct mkfs_opts *opts;
	const struct mkfs_config *cfg;
	const struct mkfs_plan *plan;
	struct fsio_dev *dev;			/* fsio's: lock, attach */
	ext2_filsys fs;
	struct ext2fs_journal_params jp;	/* zero: no journal */
	blk64_t overhead;			/* s_overhead_clusters */
	bool lazy_itable;			/* after discard's verdict */
	bool itable_zeroed;			/* the device reads zeros */
	bool lazy_journal;			/* journal left unzeroed */
	const char *blkid_rival;		/* blkid_name_rival() */
};

/* mkfs_build.c: ext2fs_initialize() and the superblock fields. */
int mkfs_setup(struct mkfs_run *run);
int mkfs_attach(struct mkfs_run *run);

/*
 * mkfs_signal.c: from the first write to the close, SIGINT, SIGTERM or
 * SIGHUP erase every superblock place, remove a file this run created
 * and exit 128 + the signal.  Disarm restores the default actions.
 */
void mkfs_signal_catch(void);
void mkfs_signal_block(bool block);
int mkfs_signal_arm(struct mkfs_run *run);
void mkfs_signal_disarm(void);
int mkfs_check_attach(struct mkfs_run *run);
int mkfs_name(struct mkfs_run *run);
void mkfs_run_release(struct mkfs_run *run);

/* mkfs_write.c: discard and wipes; tables, inode tables, directories. */
int mkfs_discard_and_wipe(struct mkfs_run *run);
int mkfs_write(struct mkfs_run *run);

/* mkfs_finish.c: journal, MMP, accounting; orphan file; close. */
int mkfs_finish(struct mkfs_run *run);
int mkfs_orphan(struct mkfs_run *run);
int mkfs_close(struct mkfs_run *run);

/* mkfs_populate.c: -d DIR's tree, copied in as mke2fs -d copies it. */
int mkfs_populate(struct mkfs_run *run);

/* mkfs_quota.c: the quota inodes, when -O quota asks for them. */
int mkfs_quota(struct mkfs_run *run);

/* mkfs_show.c: "'DEV': <libext2fs error> (while WHAT)"; returns 8. */
int mkfs_fail(const struct mkfs_run *run, errcode_t err, const char *what);

#endif
