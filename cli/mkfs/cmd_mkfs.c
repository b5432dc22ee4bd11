// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mkfs, also run as mkfs.ext4dev: make an ext4 filesystem with
 * the test_filesystem flag set, deciding every parameter the way
 * `mke2fs -t ext4 -E test_fs` does and writing it through libext2fs.
 * Everything that can refuse (usage, conf file, mounted or busy device,
 * existing signature, conflicting options) is checked before the first
 * write, so a refusal leaves the device's bytes as they were.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
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
	return EXT4DEV_CONTINUE;
}

/* LABEL=, UUID=: the stages after this one see the device's path. */
static int resolve_device(struct mkfs_ctl *ctl, struct fsio_dev *dev)
{
	errcode_t err = fsio_init(dev, ctl->device);

	if (err)
		return report_fs_error(dev, err);
	ctl->device = dev->path;
	return EXT4DEV_CONTINUE;
}

/* Mounted, swap, held open exclusively: never, not even with -F. */
static int check_unused(struct fsio_dev *dev)
{
	errcode_t err = fsio_check_unused(dev);

	return err ? report_fs_error(dev, err) : EXT4DEV_CONTINUE;
}

/* What is on the device already; only -F (or -n) goes past it. */
static int check_signature(struct mkfs_ctl *ctl, struct fsio_dev *dev)
{
	errcode_t err;

	if (!ctl->dev_exists || ctl->force || ctl->dev_all_holes)
		return EXT4DEV_CONTINUE;
	err = fsio_probe_type(dev, false);
	if (err)
		return report_fs_error(dev, err);
	if (!dev->foreign_type[0])
		return EXT4DEV_CONTINUE;
	if (ctl->noaction) {
		report_warn(ctl->device, "contains an existing %s %s",
			    dev->foreign_type, dev->foreign_usage);
		return EXT4DEV_CONTINUE;
	}
	return report_failure("'%s': contains an existing %s %s (use -F to "
			      "overwrite it)", ctl->device, dev->foreign_type,
			      dev->foreign_usage);
}

/* The layout as mke2fs prints it before writing (with -n, instead). */
static void show_plan(const struct mkfs_run *run)
{
	const struct mkfs_ctl *ctl = run->ctl;
	unsigned int total = run->jp.num_journal_blocks +
			     run->jp.num_fc_blocks;

	if (ctl->quiet && !ctl->noaction)
		return;
	mkfs_show_stats(ctl, run->fs);
	if (ctl->noaction && total)
		printf("Journal size: %u blocks\n", total);
}

static int say_done(const struct mkfs_ctl *ctl)
{
	const char *state = ctl->production ? "left clear" : "set";

	if (ctl->quiet)
		return EXT4DEV_EXIT_OK;
	if (ctl->noaction)
		state = ctl->production ? "would be left clear" :
					  "would be set";
	printf("%s: test filesystem flag %s\n", ctl->device, state);
	return EXT4DEV_EXIT_OK;
}

static int check_production(const struct mkfs_ctl *ctl)
{
	if (ctl->production && (ctl->param.s_flags & EXT2_FLAGS_TEST_FILESYS))
		return report_usage(EXT4DEV_MKFS_CMD, "--production and -E "
				    "test_fs contradict each other");
	return EXT4DEV_CONTINUE;
}

/*
 * The whole of mkfs after the command line, in order.  Each stage
 * returns EXT4DEV_CONTINUE or the exit code to stop with, and none
 * calls the next.  Everything that can refuse comes before
 * mkfs_attach(), the first stage that touches the device; -n stops
 * short of it and prints what it would have made.
 */
static int mkfs_pipeline(struct mkfs_ctl *ctl, struct fsio_dev *dev)
{
	struct mkfs_run run = { .ctl = ctl, .dev = dev };
	bool write = !ctl->noaction;
	int rc = load_conf(ctl);

	if (rc == EXT4DEV_CONTINUE)
		rc = resolve_device(ctl, dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_probe_device(ctl, dev);
	if (rc == EXT4DEV_CONTINUE && ctl->dev_exists)
		rc = check_unused(dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_geometry(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_params(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_production(ctl);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_signature(ctl, dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_setup(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_attach(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_discard_and_wipe(&run);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_name(&run);
	if (rc == EXT4DEV_CONTINUE)
		show_plan(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_write(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_finish(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_quota(&run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_close(&run);
	mkfs_run_release(&run);
	return rc == EXT4DEV_CONTINUE ? say_done(ctl) : rc;
}

int cmd_mkfs(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct fsio_dev dev = { .lock_fd = -1 };
	struct mkfs_ctl ctl;
	int rc;

	mkfs_ctl_init(&ctl);
	rc = mkfs_parse_args(&ctl, argc, argv);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_pipeline(&ctl, &dev);
	fsio_release(&dev);
	mkfs_ctl_free(&ctl);
	return rc;
}
