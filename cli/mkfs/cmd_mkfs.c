// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mkfs, also run as mkfs.ext4dev: make an ext4 filesystem with
 * the test_filesystem flag set, deciding every parameter the way
 * `mke2fs -t ext4 -E test_fs` does and writing it through libext2fs.
 * mkfs_pipeline() is the whole of it, stage by stage.  Everything that
 * can refuse (usage, conf file, mounted or busy device, existing
 * signature, conflicting options) is checked before the first write,
 * so a refusal leaves the device's bytes as they were.
 */
#include <stdio.h>

#include "blkid_name.h"
#include "commands.h"
#include "e2fsck_conf.h"
#include "exitcodes.h"
#include "fsio.h"
#include "mkfs.h"
#include "mkfs_config.h"
#include "mkfs_run.h"
#include "report.h"

/* LABEL=, UUID=: the stages after this one see the device's path. */
static int resolve_device(const struct mkfs_opts *o, struct fsio_dev *dev,
			  struct mkfs_plan *plan)
{
	const struct fsio_lock_wait *wait = dev->lock_wait;
	errcode_t err = fsio_init(dev, o->device);

	dev->lock_wait = wait;		/* fsio_init() starts from zero */
	if (err)
		return report_fs_error(dev, err);
	plan->device = dev->path;
	return EXT4DEV_CONTINUE;
}

/*
 * The lock before anything is decided: what the device holds, whether
 * it is mounted or busy, is read while no other ext4dev can change it.
 * A missing image file is made here (locked before its name appears),
 * so a second mkfs of the same name waits and then finds this one's
 * filesystem.  -n makes nothing.
 */
static int lock_device(const struct mkfs_opts *o, struct fsio_dev *dev)
{
	bool create = o->size_arg && !o->noaction;
	errcode_t err = fsio_lock_target(dev, create);

	/* -n fails where the real run would fail to make the file. */
	if (!err && o->noaction && o->size_arg && dev->lock_fd < 0)
		err = fsio_probe_create(dev, 0);
	return err ? report_fs_error(dev, err) : EXT4DEV_CONTINUE;
}

/* Mounted, swap, held open exclusively: never, not even with -F. */
static int check_unused(const struct mkfs_plan *plan, struct fsio_dev *dev)
{
	errcode_t err;

	if (!plan->dev_exists)
		return EXT4DEV_CONTINUE;
	err = fsio_check_unused(dev);
	return err ? report_fs_error(dev, err) : EXT4DEV_CONTINUE;
}

static int check_production(const struct mkfs_opts *o,
			    const struct mkfs_plan *plan)
{
	if (o->production && (plan->param.s_flags & EXT2_FLAGS_TEST_FILESYS))
		return report_usage(EXT4DEV_MKFS_CMD, "--production and -E "
				    "test_fs contradict each other");
	return EXT4DEV_CONTINUE;
}

/* What is on the device already; only -F goes past it. */
static int check_signature(const struct mkfs_opts *o,
			   const struct mkfs_plan *plan, struct fsio_dev *dev)
{
	char what[128];
	errcode_t err;

	if (!plan->dev_exists || o->force || plan->dev_all_holes)
		return EXT4DEV_CONTINUE;
	err = fsio_probe_type(dev, false);
	if (err)
		return report_fs_error(dev, err);
	if (!dev->foreign_type[0])
		return EXT4DEV_CONTINUE;
	/* -n fails here too: it must fail where the real run would. */
	report_signature(dev, what, sizeof(what));
	return report_failure("'%s': contains an existing %s (use -F to "
			      "overwrite it)", plan->device, what);
}

/* The layout as mke2fs prints it before writing (with -n, instead). */
static void show_plan(const struct mkfs_run *run)
{
	const struct mkfs_opts *o = run->opts;
	unsigned int total = run->jp.num_journal_blocks +
			     run->jp.num_fc_blocks;

	if (o->quiet && !o->noaction)
		return;
	mkfs_show_stats(o, run->plan, run->fs);
	if (o->noaction && total)
		printf("Journal size: %u blocks\n", total);
}

static int say_done(const struct mkfs_opts *o, const struct mkfs_plan *plan)
{
	const char *state = o->production ? "left clear" : "set";

	if (o->quiet)
		return EXT4DEV_EXIT_OK;
	if (o->noaction)
		state = o->production ? "would be left clear" : "would be set";
	printf("%s: test filesystem flag %s\n", plan->device, state);
	return EXT4DEV_EXIT_OK;
}

/* Setup to close: the filesystem itself, on the settled plan. */
static int build(struct mkfs_run *run)
{
	bool write = !run->opts->noaction;
	int rc = mkfs_setup(run);

	/* Created and armed as one step: a signal waits till it is armed. */
	mkfs_signal_block(true);
	if (rc == EXT4DEV_CONTINUE)
		rc = write ? mkfs_attach(run) : mkfs_check_attach(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_signal_arm(run);
	mkfs_signal_block(false);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_discard_and_wipe(run);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_name(run);
	if (rc == EXT4DEV_CONTINUE)
		show_plan(run);
	/* blkid names a device, not a filesystem inside it. */
	if (rc == EXT4DEV_CONTINUE && !run->opts->production &&
	    !run->plan->offset)
		run->blkid_rival = blkid_name_rival(run->fs->super);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_write(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_finish(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_quota(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_orphan(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_populate(run);
	if (rc == EXT4DEV_CONTINUE && write)
		rc = mkfs_close(run);
	mkfs_signal_disarm();
	mkfs_run_release(run);
	return rc;
}

/*
 * The whole of mkfs after the command line, in order.  Each stage
 * returns EXT4DEV_CONTINUE or the exit code to stop with, and none
 * calls the next.  Nothing before mkfs_attach() writes anything but
 * the name of a missing image file (removed again if mkfs fails); -n
 * stops short of it and prints what it would have made.
 */
static int mkfs_pipeline(const struct mkfs_opts *o, struct fsio_dev *dev)
{
	struct mkfs_config cfg;
	struct mkfs_plan plan;
	struct mkfs_run run = { .opts = o, .cfg = &cfg, .plan = &plan,
				.dev = dev };
	int rc;

	mkfs_plan_init(&plan, o);
	rc = mkfs_config_load(&cfg);
	if (rc == EXT4DEV_CONTINUE)
		rc = resolve_device(o, dev, &plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = lock_device(o, dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_probe_device(o, dev, &plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_device_size(o, &plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_configure(o, &plan, &cfg);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_geometry(o, &cfg, &plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_params(o, &cfg, &plan);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_production(o, &plan);
	/* From here on the device is read and written from the offset. */
	dev->offset = (off_t)plan.offset;
	if (plan.offset)
		dev->length = (off_t)(plan.fs_blocks *
				      (blk64_t)plan.blocksize);
	/* Under the lock, and only now: the bytes mkfs writes are known. */
	if (rc == EXT4DEV_CONTINUE)
		rc = check_unused(&plan, dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = check_signature(o, &plan, dev);
	if (rc == EXT4DEV_CONTINUE)
		rc = mkfs_check_root_dir(o);
	if (rc == EXT4DEV_CONTINUE)
		rc = build(&run);
	if (rc == EXT4DEV_CONTINUE)
		rc = say_done(o, &plan);
	if (rc == EXT4DEV_EXIT_OK && !o->quiet) {
		fflush(stdout);	/* the warning after what it follows */
		blkid_name_warn(plan.device, run.blkid_rival);
	}
	mkfs_config_free(&cfg);
	return rc;
}

int cmd_mkfs(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct fsio_dev dev = { .lock_fd = -1 };
	struct fsio_lock_wait wait = { -1, report_lock_notice };
	struct mkfs_opts o;
	int rc;

	mkfs_opts_init(&o);
	rc = mkfs_parse_args(&o, argc, argv);
	wait.seconds = o.wait_secs;
	dev.lock_wait = &wait;
	if (rc == EXT4DEV_CONTINUE) {	/* not --help, --version, usage */
		mkfs_signal_catch();	/* 128 + the signal from here on */
		rc = mkfs_pipeline(&o, &dev);
		/* Only a file this run made, and only when it failed. */
		if (rc != EXT4DEV_EXIT_OK)
			fsio_remove_created(&dev);
		if (rc == EXT4DEV_EXIT_OK && !o.production && !o.quiet) {
			fflush(stdout);	/* the warning after what it follows */
			e2fsck_conf_warn();
		}
	}
	fsio_release(&dev);
	mkfs_opts_free(&o);
	return rc;
}
