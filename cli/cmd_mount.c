// SPDX-License-Identifier: GPL-2.0
/*
 * mount.ext4dev, util-linux's external helper for the ext4dev type
 * (mount(8), "EXTERNAL HELPERS"): mount, fstab and systemd mount units
 * run it for "-t ext4dev" and for any disk blkid calls ext4dev, which
 * is every ext4 filesystem with the test_filesystem flag.
 *
 * A kernel with the ext4dev series registers the type and its gate
 * decides: we run "mount -i -t ext4dev".  Any other kernel has no such
 * type, so the flag is checked here, in the same superblock read as
 * show-flags, and a flagged filesystem is mounted as ext4.  Either way
 * util-linux's own mount does the mounting (-i: no helper), so loop
 * devices, utab, -o options, -n, -f, -v, remount and the read-only
 * fallback are mount's, not ours; so is nofail, except for a source we
 * could not read before mount ran, which nofail forgives as mount's own
 * rules would.
 *
 * Between our check and the kernel's mount someone may clear the flag.
 * We keep the device's shared lock open across the exec, so ext4dev's
 * own mark-production waits until mount has finished; tune2fs takes no
 * lock, and only the kernel series, which checks at mount time, closes
 * that window for every writer.
 *
 * User mounts (fstab's user, users, owner, group): libmount runs a
 * helper with the user's uid, not root's, and passes the environment
 * on.  So whatever we do then, the user could do by hand; we give
 * nothing away as long as we only run the setuid mount(8) with what the
 * user may type, and let no environment variable choose for us.  On a
 * kernel with the type that is "mount -i --target DIR": mount(8) reads
 * the entry again and mounts it as written.  On any other kernel nothing
 * a user may type mounts an ext4dev entry as ext4, so we refuse, saying
 * why (ext4dev(8), "User mounts").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_mount.h"
#include "commands.h"
#include "exitcodes.h"
#include "fsio.h"
#include "opts.h"
#include "report.h"
#include "version.h"

#define CMD "mount"

/* mount(8)'s options for a helper (mount(8), "EXTERNAL HELPERS"). */
const struct opts_table mount_options = {
	.specs = (const struct opts_spec[]) {
		{ 's', NULL, NULL, "tolerate sloppy mount options" },
		{ 'f', NULL, NULL, "fake: do everything but the mount system "
		  "call" },
		{ 'n', NULL, NULL, "do not write utab" },
		{ 'r', NULL, NULL, "mount read-only" },
		{ 'w', NULL, NULL, "mount read-write" },
		{ 'v', NULL, NULL, "verbose" },
		{ 'N', NULL, "<ns>", "mount in another mount namespace" },
		{ 'o', NULL, "<options>", "mount options, comma separated" },
		{ 't', NULL, "<type>", "ignored (ext4dev has no subtypes)" },
		EXT4DEV_OPTS_HELP,
		EXT4DEV_OPTS_VERSION,
		{ 0 }
	},
};

static int print_help(void)
{
	printf("Usage:\n"
	       " mount.ext4dev <spec> <dir> [-sfnrvw] [-N <ns>] "
	       "[-o <options>] [-t <type>]\n"
	       " ext4dev mount <spec> <dir> [options]\n\n"
	       "mount(8)'s helper for the ext4dev type.  On a kernel with "
	       "the ext4dev type it\n"
	       "runs 'mount -i -t ext4dev'; on any other kernel it mounts "
	       "<spec> as ext4 only\n"
	       "if its test_filesystem flag is set.  <spec> is a block "
	       "device, an image file,\n"
	       "LABEL=, UUID=, PARTLABEL= or PARTUUID=.  With -o nofail "
	       "a missing <spec> is\n"
	       "no error, as for mount(8).  For a user (fstab's user, "
	       "users) it runs\n"
	       "'mount -i --target <dir>' on a kernel with the type and "
	       "refuses on any\n"
	       "other (ext4dev(8), \"User mounts\").  Exit status: "
	       "mount(8)'s.\n\n"
	       "Options (passed on to mount):\n");
	opts_print_help(&mount_options);
	return EXT4DEV_MOUNT_OK;
}

/* report_usage() prints; mount(8) says 1 for an incorrect invocation. */
static int usage_error(int rc)
{
	(void)rc;
	return EXT4DEV_MOUNT_USAGE;
}

/* One option of a comma list: up to a comma outside double quotes. */
static size_t opt_len(const char *p)
{
	bool quoted = false;
	size_t n = 0;

	for (; p[n] && (quoted || p[n] != ','); n++)
		if (p[n] == '"')
			quoted = !quoted;
	return n;
}

static bool opt_is(const char *p, size_t n, const char *name)
{
	return n == strlen(name) && !strncmp(p, name, n);
}

/* The options we act on ourselves; the last of ro and rw wins. */
static void scan_opts(struct mount_ctl *ctl, const char *opts)
{
	for (const char *p = opts; *p; ) {
		size_t n = opt_len(p);

		ctl->remount |= opt_is(p, n, "remount");
		ctl->nofail |= opt_is(p, n, "nofail");
		if (opt_is(p, n, "ro") || opt_is(p, n, "rw"))
			ctl->ro = p[1] == 'o';
		p += n + (p[n] == ',');
	}
}

static int add_opts(struct mount_ctl *ctl, const char *arg)
{
	if (ctl->nopts == EXT4DEV_MOUNT_MAX_OPTS)
		return usage_error(report_usage(ctl->cmd,
						"too many -o options"));
	ctl->opts[ctl->nopts++] = arg;
	scan_opts(ctl, arg);
	return -1;
}

/* Usage errors name what the user ran: "Try 'mount.ext4dev --help'". */
static const char *cmd_name(int argc, char **argv)
{
	const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;

	base = base ? base + 1 : argc > 0 && argv[0] ? argv[0] : "";
	return strcmp(base, "mount.ext4dev") ? CMD : "mount.ext4dev";
}

int mount_parse(struct mount_ctl *ctl, int argc, char **argv)
{
	struct opts_parser p;
	size_t nflags = 0;
	int c, rc;

	memset(ctl, 0, sizeof(*ctl));
	ctl->cmd = cmd_name(argc, argv);
	/* mount(8) puts the options after SPEC and DIR: GNU permutes. */
	opts_start(&p, &mount_options, ctl->cmd);
	while ((c = opts_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 's': case 'f': case 'n': case 'r': case 'v': case 'w':
			if (!strchr(ctl->flags, c))
				ctl->flags[nflags++] = (char)c;
			ctl->verbose |= c == 'v';
			if (c == 'r' || c == 'w')
				ctl->ro = c == 'r';
			break;
		case 'N':
			ctl->ns = optarg;
			break;
		case 'o':
			rc = add_opts(ctl, optarg);
			if (rc >= 0)
				return rc;
			break;
		case 't':
			break;
		case 'h':
			return print_help();
		case 'V':
			return ext4dev_print_version();
		default:
			return usage_error(opts_error(&p, c, argv));
		}
	}
	if (argc - optind != 2)
		return usage_error(report_usage(ctl->cmd, "expected <spec> "
						"<dir>, got %d arguments",
						argc - optind));
	ctl->spec = argv[optind];
	ctl->dir = argv[optind + 1];
	return -1;
}

bool mount_nofail_forgives(errcode_t err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
	case EISDIR:
	case ENXIO:
	case ENOMEDIUM:
	case EXT4DEV_ERR_NO_DEVICE:
	case EXT4DEV_ERR_NOT_BLOCK_OR_FILE:
		return true;
	default:
		return false;
	}
}

static int refuse(const struct fsio_dev *dev)
{
	char name[EXT4DEV_NAME_MAX];

	report_dev_name(dev, true, name, sizeof(name));
	report_failure("%s: no test_filesystem flag, not mounting it as "
		       "ext4dev (set it with 'ext4dev mark-test' or "
		       "'tune2fs -E test_fs')", name);
	return EXT4DEV_MOUNT_FAILURE;
}

/*
 * A user mount on a kernel without the type: setuid mount(8) mounts for
 * a user only the fstab entry as written, type ext4dev included, and we
 * run with the user's uid, so nothing here can make it ext4.  Both
 * reasons are in the message, in a form the user can check.
 */
static int refuse_user(const struct mount_ctl *ctl)
{
	report_failure("'%s': only root can mount it: this kernel has no "
		       "ext4dev type (see /proc/filesystems), and "
		       "mount.ext4dev runs as uid %u, not as root, so it "
		       "cannot mount the disk as ext4", ctl->dir,
		       (unsigned int)getuid());
	return EXT4DEV_MOUNT_PERM;
}

/*
 * mount(8)'s answer for a source that could not be read: nofail
 * forgives a missing one, and quietly, as mount(8) does; "can't find
 * LABEL=x" is its 1.  A user who may not read the device gets the
 * reason no user mount works here, not EACCES.
 */
static int source_error(const struct mount_ctl *ctl,
			const struct fsio_dev *dev, errcode_t err)
{
	if (ctl->nofail && mount_nofail_forgives(err))
		return EXT4DEV_MOUNT_OK;
	if (ctl->user && (err == EACCES || err == EPERM))
		return refuse_user(ctl);
	report_fs_error(dev, err);
	return err == EXT4DEV_ERR_NO_DEVICE ? EXT4DEV_MOUNT_USAGE :
					      EXT4DEV_MOUNT_FAILURE;
}

/* Mount @dev, checked and flagged, as ext4; our lock lasts till then. */
static int mount_flagged(const struct mount_ctl *ctl, struct fsio_dev *dev)
{
	char *path = strdup(dev->path);
	/* Not close-on-exec: the lock lasts until mount exits. */
	int rc, keep = path ? fcntl(dev->lock_fd, F_DUPFD, 3) : -1;
	int err = path ? errno : ENOMEM;

	fsio_release(dev);
	if (keep < 0) {
		report_failure("%s", strerror(err));
		free(path);
		return EXT4DEV_MOUNT_SYSERR;
	}
	if (ctl->verbose)
		printf("mount.ext4dev: '%s' has the test_filesystem flag; "
		       "this kernel has no ext4dev type: mounting it as "
		       "ext4\n", ctl->spec);
	rc = mount_run(ctl, "ext4", path);
	close(keep);
	free(path);
	return rc;
}

/*
 * mount(8) hands us the loop device it made for an image file: name
 * the image, as the user typed it, in what we say ("'x.img'
 * (/dev/loop3)").
 */
static void name_the_image(struct fsio_dev *dev)
{
	char image[PATH_MAX], *spec;

	if (!fsio_temp_loop_image(dev->path, image, sizeof(image)))
		return;
	spec = strdup(image);
	if (!spec)
		return;
	free(dev->spec);
	dev->spec = spec;
}

/*
 * The stock-kernel path: check, then mount the device we checked (a
 * tag resolved once) as ext4.  A user's check, with the user's rights,
 * can only tell why even root would not mount it.
 */
static int mount_checked(const struct mount_ctl *ctl)
{
	struct fsio_dev dev;
	errcode_t err = fsio_init(&dev, ctl->spec);
	int rc;

	if (!err)
		name_the_image(&dev);
	if (!err)
		err = fsio_open_read(&dev);
	if (!err && ext2fs_has_feature_journal_dev(dev.fs->super))
		err = EXT4DEV_ERR_JOURNAL_DEV;
	if (err)
		rc = source_error(ctl, &dev, err);
	else if (!(dev.fs->super->s_flags & EXT2_FLAGS_TEST_FILESYS))
		rc = refuse(&dev);
	else if (ctl->user)
		rc = refuse_user(ctl);
	else
		return mount_flagged(ctl, &dev);
	fsio_release(&dev);
	return rc;
}

/*
 * A setuid mount.ext4dev (never meant to be one) keeps nothing of
 * root's for a user: the real uid decides, from the first read on.
 */
static int drop_root(void)
{
	if (geteuid() != 0 || getuid() == 0)
		return -1;
	if (!setgid(getgid()) && !setuid(getuid()))
		return -1;
	report_failure("cannot give up root's rights: %s", strerror(errno));
	return EXT4DEV_MOUNT_SYSERR;
}

int cmd_mount(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct mount_ctl ctl;
	int rc = mount_parse(&ctl, argc, argv);

	(void)cmd;
	if (rc >= 0)
		return rc;
	/* What mount(8) gives a user's helper: the user's uid. */
	ctl.user = getuid() != 0 || geteuid() != 0;
	rc = ctl.user ? drop_root() : -1;
	if (rc >= 0)
		return rc;
	if (mount_kernel_has_type(&ctl))
		return ctl.user ? mount_run_user(&ctl) :
				  mount_run(&ctl, "ext4dev", ctl.spec);
	/*
	 * A remount changes options of a mount that passed the check when
	 * it was made; SPEC may not even be a device we can read then.
	 */
	if (ctl.remount && !ctl.user)
		return mount_run(&ctl, "ext4", ctl.spec);
	return mount_checked(&ctl);
}
