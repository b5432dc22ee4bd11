// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mkfs, also run as mkfs.ext4dev: make an ext4 filesystem with
 * the test_filesystem flag set, deciding every parameter the way
 * `mke2fs -t ext4 -E test_fs` does and writing it through libext2fs.
 * Everything that can refuse (usage, conf file, mounted or busy device,
 * existing signature, conflicting options) is checked before the first
 * write, so a refusal leaves the device's bytes as they were.
 */
#define _GNU_SOURCE		/* SEEK_DATA */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "e2fsck_conf.h"
#include "exitcodes.h"
#include "fsio.h"
#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

static int load_conf(struct mkfs_ctl *ctl)
{
	errcode_t err = mkfs_conf_load(&ctl->conf);

	if (err == EINVAL || (err && ctl->conf.err.file))
		return mkfs_conf_error(&ctl->conf.err);
	if (err)
		return report_failure("mke2fs.conf: %s", error_message(err));
	return -1;
}

/* Mounted, swap, held open exclusively: never, not even with -F. */
static int check_unused(struct mkfs_ctl *ctl, struct fsio_dev *dev)
{
	errcode_t err = fsio_check_unused(dev);

	return err ? report_fs_error(dev, err) : -1;
}

/* An image file that is all holes cannot hold any signature. */
static bool all_holes(const char *path)
{
	struct stat st;
	bool holes = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		holes = lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO;
	close(fd);
	return holes;
}

/* What is on the device already; only -F (or -n) goes past it. */
static int check_signature(struct mkfs_ctl *ctl, struct fsio_dev *dev)
{
	errcode_t err;

	if (!ctl->dev_exists || ctl->force || all_holes(ctl->device))
		return -1;
	err = fsio_probe_type(dev, false);
	if (err)
		return report_fs_error(dev, err);
	if (!dev->foreign_type[0])
		return -1;
	if (ctl->noaction) {
		fprintf(stderr, "ext4dev: warning: '%s': contains an "
			"existing %s %s\n",
			ctl->device, dev->foreign_type, dev->foreign_usage);
		return -1;
	}
	return report_failure("'%s': contains an existing %s %s (use -F to "
			      "overwrite it)", ctl->device, dev->foreign_type,
			      dev->foreign_usage);
}

static void show_journal_plan(const struct mkfs_run *run)
{
	unsigned int total = run->jp.num_journal_blocks +
			     run->jp.num_fc_blocks;

	if (total)
		printf("Journal size: %u blocks\n", total);
}

static void say_done(const struct mkfs_ctl *ctl)
{
	const char *state = ctl->production ? "left clear" : "set";

	if (ctl->quiet)
		return;
	if (ctl->noaction)
		state = ctl->production ? "would be left clear" :
					  "would be set";
	printf("%s: test filesystem flag %s\n", ctl->device, state);
}

static int build(struct mkfs_ctl *ctl)
{
	struct mkfs_run run = { .ctl = ctl, .lock_fd = -1 };
	int rc = mkfs_setup(&run);

	if (rc < 0 && !ctl->noaction)
		rc = mkfs_attach(&run);
	if (rc < 0 && !ctl->noaction)
		rc = mkfs_discard_and_wipe(&run);
	if (rc < 0)
		rc = mkfs_name(&run);
	if (rc < 0 && (!ctl->quiet || ctl->noaction)) {
		mkfs_show_stats(ctl, run.fs);
		if (ctl->noaction)
			show_journal_plan(&run);
	}
	if (rc < 0 && !ctl->noaction)
		rc = mkfs_write(&run);
	mkfs_run_release(&run);
	if (rc >= 0)
		return rc;
	say_done(ctl);
	return EXT4DEV_EXIT_OK;
}

static int run_mkfs(struct mkfs_ctl *ctl)
{
	struct fsio_dev dev;
	errcode_t err;
	int rc = load_conf(ctl);

	if (rc >= 0)
		return rc;
	err = fsio_init(&dev, ctl->device);
	if (err) {
		rc = report_fs_error(&dev, err);
		fsio_release(&dev);
		return rc;
	}
	ctl->device = dev.path;
	rc = mkfs_probe_device(ctl);
	if (rc < 0 && ctl->dev_exists)
		rc = check_unused(ctl, &dev);
	if (rc < 0)
		rc = mkfs_geometry(ctl);
	if (rc < 0 && ctl->production &&
	    (ctl->param.s_flags & EXT2_FLAGS_TEST_FILESYS))
		rc = report_usage(EXT4DEV_MKFS_CMD, "--production and -E "
				  "test_fs contradict each other");
	if (rc < 0)
		rc = check_signature(ctl, &dev);
	if (rc < 0)
		rc = build(ctl);
	ctl->device = dev.spec;
	fsio_release(&dev);
	return rc;
}

int cmd_mkfs(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct mkfs_ctl ctl;
	int rc;

	mkfs_ctl_init(&ctl);
	rc = mkfs_parse_args(&ctl, argc, argv);
	if (rc < 0) {
		rc = run_mkfs(&ctl);
		if (rc == EXT4DEV_EXIT_OK && !ctl.production && !ctl.quiet)
			e2fsck_conf_warn();
	}
	mkfs_ctl_free(&ctl);
	return rc;
}
