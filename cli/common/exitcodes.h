/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_EXITCODES_H
#define EXT4DEV_EXITCODES_H

/*
 * The one list of exit codes.  The numbers follow util-linux's interface
 * for mkfs/fsck-type programs (include/exitcodes.h there), so scripts
 * that already know mkfs.* can read ours.  Listed under EXIT STATUS in
 * man/ext4dev.8; a unit test keeps the two in step.
 */
enum ext4dev_exit {
	EXT4DEV_EXIT_OK = 0,
	EXT4DEV_EXIT_CHECK_FAILED = 1,	/* --check did not hold */
	EXT4DEV_EXIT_FAILURE = 8,	/* operational error */
	EXT4DEV_EXIT_USAGE = 16,	/* bad command line */
};

/*
 * mount.ext4dev (cmd_mount.c) speaks mount(8)'s codes instead, because
 * mount, fstab and systemd read its status as mount's.
 */
enum ext4dev_mount_exit {
	EXT4DEV_MOUNT_OK = 0,
	EXT4DEV_MOUNT_USAGE = 1,	/* incorrect invocation */
	EXT4DEV_MOUNT_PERM = 1,		/* ... or permissions: mount(8)'s 1 */
	EXT4DEV_MOUNT_SYSERR = 2,	/* out of memory, mount not found */
	EXT4DEV_MOUNT_FAILURE = 32,	/* refused, or the mount failed */
};

/* Several devices in one call: the caller reports the worst outcome. */
static inline int ext4dev_exit_worst(int a, int b)
{
	return a > b ? a : b;
}

#endif
