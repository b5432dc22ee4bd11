/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_CMD_MOUNT_H
#define EXT4DEV_CMD_MOUNT_H

#include <stdbool.h>
#include <et/com_err.h>

/* Most -o arguments we pass on; mount(8) gives a helper one. */
#define EXT4DEV_MOUNT_MAX_OPTS 8
/* "mount -i -t TYPE" + flags + -N + -o's + "--" SPEC DIR NULL. */
#define EXT4DEV_MOUNT_MAX_ARGS (4 + 6 + 2 + 2 * EXT4DEV_MOUNT_MAX_OPTS + 4)

/*
 * What mount(8) asked its helper for:
 * mount.ext4dev SPEC DIR [-sfnrvw] [-N NS] [-o OPTIONS] [-t TYPE].
 */
struct mount_ctl {
	const char *cmd;	/* "mount.ext4dev" or "mount": usage errors */
	const char *spec;
	const char *dir;
	char flags[8];		/* the -s -f -n -r -v -w given, as "fnv" */
	const char *ns;		/* -N */
	const char *opts[EXT4DEV_MOUNT_MAX_OPTS];	/* each -o */
	int nopts;
	bool verbose;		/* -v */
	bool remount;		/* "remount" is among the -o options */
	bool nofail;		/* "nofail" is among them */
	bool ro;		/* -r, or "ro" is the last of ro and rw */
	bool user;		/* run with a user's rights, not root's */
};

/* Returns -1 to go on, or mount(8)'s exit code (1, or 0 after --help). */
int mount_parse(struct mount_ctl *ctl, int argc, char **argv);

/*
 * Would mount(8) exit 0 for @err under nofail?  It does when the source
 * is not there: no such path, no device with that tag, not a block
 * device (a FIFO, a directory), no device or medium behind the node.
 */
bool mount_nofail_forgives(errcode_t err);

/*
 * util-linux mount's command line for @ctl with filesystem @type and
 * source @spec: "mount -i -t TYPE [-FLAGS] [-N NS] [-o OPTS]... -- SPEC
 * DIR" (-i: no helper, or we would call ourselves).  @argv must have
 * EXT4DEV_MOUNT_MAX_ARGS slots; it ends with NULL.
 */
void mount_build_argv(const struct mount_ctl *ctl, const char *type,
		      const char *spec, char **argv);

/*
 * The same for a user: "mount -i [-FLAGS] [-N NS] --target DIR", no
 * type, no source, no -o ("ro" becomes -r): the command line the user
 * could type, which setuid mount(8) completes from DIR's fstab entry.
 */
void mount_build_user_argv(const struct mount_ctl *ctl, char **argv);

/*
 * Does the running kernel know the ext4dev type?  @filesystems is
 * /proc/filesystems' text; @aliases, if not NULL, the running kernel's
 * modules.alias, for an ext4 module that is not loaded yet.
 */
bool mount_kernel_has_ext4dev(const char *filesystems, const char *aliases);

/* cmd_mount_run.c: what runs once cmd_mount.c has decided. */

/* The running kernel's answer; a user's environment decides nothing. */
bool mount_kernel_has_type(const struct mount_ctl *ctl);

/* Exec util-linux mount (mount_build_argv()); returns only on error. */
int mount_run(const struct mount_ctl *ctl, const char *type,
	      const char *spec);

/* Exec mount_build_user_argv()'s mount, found at a fixed path. */
int mount_run_user(const struct mount_ctl *ctl);

#endif
