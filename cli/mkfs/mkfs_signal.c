// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT, SIGTERM and SIGHUP while mkfs writes: leave nothing a tool
 * would take for a filesystem.  The handler zeroes the ext2 magic at
 * every place a superblock goes (primary and backups), so neither
 * blkid nor "e2fsck -b" finds a half-made filesystem, removes an image
 * file this run created, and exits 128 + the signal.  Only
 * async-signal-safe calls (pwrite, fsync, unlink, _exit) run in it; the
 * offsets are computed before the first write.  SIGKILL cannot be
 * caught: what it leaves is what mke2fs leaves (see ext4dev(8)).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "fsio.h"
#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

/* s_magic's place in a superblock. */
#define MKFS_MAGIC_OFFSET 56

static const int mkfs_signals[] = { SIGINT, SIGTERM, SIGHUP };

static struct {
	int fd;
	off_t *offs;
	unsigned int n;
	const char *unlink_path;	/* the file this run created */
} wipe = { .fd = -1 };

static void on_signal(int sig)
{
	static const char zero[2];

	if (wipe.unlink_path)
		unlink(wipe.unlink_path);
	/* Before the first write (wipe.n == 0) there is nothing to erase. */
	for (unsigned int i = 0; i < wipe.n; i++)
		if (pwrite(wipe.fd, zero, sizeof(zero),
			   wipe.offs[i] + MKFS_MAGIC_OFFSET) < 0)
			break;
	fsync(wipe.fd);
	_exit(128 + sig);
}

/* Where the superblocks go, in bytes into the device (-E offset= on). */
static int where_supers(ext2_filsys fs, off_t offset)
{
	dgrp_t groups = fs->group_desc_count;

	wipe.offs = calloc((size_t)groups + 1, sizeof(*wipe.offs));
	if (!wipe.offs)
		return -1;
	wipe.offs[wipe.n++] = offset + SUPERBLOCK_OFFSET;
	for (dgrp_t g = 1; g < groups; g++)
		if (ext2fs_bg_has_super(fs, g))
			wipe.offs[wipe.n++] = offset +
				(off_t)ext2fs_group_first_block2(fs, g) *
				fs->blocksize;
	return 0;
}

void mkfs_signal_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(mkfs_signals) / sizeof(int); i++)
		sigaction(mkfs_signals[i], &sa, NULL);
}

void mkfs_signal_block(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(mkfs_signals) / sizeof(int); i++)
		sigaddset(&set, mkfs_signals[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int mkfs_signal_arm(struct mkfs_run *run)
{
	wipe.fd = open(run->plan->device, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	if (wipe.fd < 0 || where_supers(run->fs, run->dev->offset))
		return report_failure("'%s': cannot prepare for an "
				      "interruption: out of memory or "
				      "descriptors", run->plan->device);
	if (run->dev->target_created)
		wipe.unlink_path = run->plan->device;
	return EXT4DEV_CONTINUE;
}

void mkfs_signal_disarm(void)
{
	for (size_t i = 0; i < sizeof(mkfs_signals) / sizeof(int); i++)
		signal(mkfs_signals[i], SIG_DFL);
	if (wipe.fd >= 0)
		close(wipe.fd);
	free(wipe.offs);
	wipe.fd = -1;
	wipe.offs = NULL;
	wipe.n = 0;
	wipe.unlink_path = NULL;
}
