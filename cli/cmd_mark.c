// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mark-test / mark-production: one implementation, two table
 * rows.  Validates read-only first, writes only when the flag really
 * changes, and then touches nothing but the superblock copies.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd_mark.h"
#include "commands.h"
#include "e2fsck_conf.h"
#include "exitcodes.h"
#include "fsio.h"
#include "report.h"

static int print_help(const struct mark_ctl *ctl)
{
	printf("Usage:\n"
	       " ext4dev %s [options] <device>...\n\n"
	       "%s the test_filesystem flag in the primary and every backup "
	       "superblock.\n"
	       "<device> is a block device, an image file, LABEL=<label> or "
	       "UUID=<uuid>;\n"
	       "it must not be mounted.\n\n"
	       "Options:\n"
	       " -n, --dry-run         say what would change, write "
	       "nothing\n"
	       " -q, --quiet           print nothing on success\n"
	       " -z, --undo <file>     save the old bytes to an e2undo(8) "
	       "file first\n"
	       " -h, --help            display this help\n",
	       ctl->name, ctl->set ? "Set" : "Clear");
	return EXT4DEV_EXIT_OK;
}

int mark_parse(struct mark_ctl *ctl, const char *name, bool set, int argc,
	       char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "undo", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(ctl, 0, sizeof(*ctl));
	ctl->name = name;
	ctl->set = set;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:nqz:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			ctl->dry_run = true;
			break;
		case 'q':
			ctl->quiet = true;
			break;
		case 'z':
			ctl->undo_file = optarg;
			break;
		case 'h':
			return print_help(ctl);
		default:
			return report_bad_option(name, c, argv);
		}
	}
	ctl->devices = argv + optind;
	ctl->ndevices = argc - optind;
	if (!ctl->ndevices)
		return report_usage(name, "no device specified");
	if (ctl->undo_file && ctl->ndevices > 1)
		return report_usage(name, "--undo takes one device at a time");
	return -1;
}

static void say(const struct mark_ctl *ctl, const char *spec,
		const char *what)
{
	if (!ctl->quiet)
		printf("%s: test filesystem flag %s\n", spec, what);
}

static int mark_one(const struct mark_ctl *ctl, const char *spec)
{
	struct fsio_write_opts opts = { .undo_file = ctl->undo_file };
	uint32_t old_flags, new_flags;
	struct fsio_dev dev;
	errcode_t err;
	int rc = EXT4DEV_EXIT_OK;

	err = fsio_init(&dev, spec);
	if (!err)
		err = fsio_open_change(&dev);
	if (err)
		goto out;
	old_flags = dev.fs->super->s_flags;
	new_flags = mark_new_flags(old_flags, ctl->set);
	if (new_flags == old_flags) {
		say(ctl, spec, ctl->set ? "already set" : "already clear");
	} else if (ctl->dry_run) {
		say(ctl, spec, ctl->set ? "would be set" : "would be cleared");
	} else {
		err = fsio_commit_flags(&dev, new_flags, &opts);
		if (!err)
			say(ctl, spec, ctl->set ? "set" : "cleared");
	}
out:
	if (err)
		rc = report_fs_error(&dev, err);
	fsio_release(&dev);
	return rc;
}

int cmd_mark(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct mark_ctl ctl;
	int rc = mark_parse(&ctl, cmd->name, cmd->arg == EXT4DEV_MARK_TEST,
			    argc, argv);

	if (rc >= 0)
		return rc;
	rc = EXT4DEV_EXIT_OK;
	for (int i = 0; i < ctl.ndevices; i++)
		rc = ext4dev_exit_worst(rc, mark_one(&ctl, ctl.devices[i]));
	if (ctl.set && !ctl.quiet && rc == EXT4DEV_EXIT_OK)
		e2fsck_conf_warn();
	return rc;
}
