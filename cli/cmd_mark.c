// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mark-test / mark-production: one implementation, two table
 * rows.  Validates read-only first, writes only when the flag really
 * changes, and then touches nothing but the superblock copies.
 */
#include <stdio.h>
#include <string.h>

#include "blkid_name.h"
#include "cmd_mark.h"
#include "commands.h"
#include "e2fsck_conf.h"
#include "exitcodes.h"
#include "fsio.h"
#include "opts.h"
#include "report.h"
#include "version.h"

const struct opts_table mark_options = {
	.specs = (const struct opts_spec[]) {
		{ 'n', "dry-run", NULL, "say what would change, write "
		  "nothing" },
		{ 'q', "quiet", NULL, "print nothing on success" },
		{ 'z', "undo", "<file>", "save the old bytes to an e2undo(8) "
		  "file first" },
		EXT4DEV_OPTS_WAIT,
		EXT4DEV_OPTS_HELP,
		EXT4DEV_OPTS_VERSION,
		{ 0 }
	},
};

static int print_help(const struct mark_ctl *ctl)
{
	printf("Usage:\n"
	       " ext4dev %s [options] <device>...\n\n"
	       "%s the test_filesystem flag in the primary and every backup "
	       "superblock.\n"
	       "<device> is a block device, an image file, LABEL=<label> or "
	       "UUID=<uuid>;\n"
	       "it must not be mounted.\n\n"
	       "Options:\n",
	       ctl->name, ctl->set ? "Set" : "Clear");
	opts_print_help(&mark_options);
	return EXT4DEV_EXIT_OK;
}

/* One option; -1 to go on, or the exit code. */
static int parse_one(struct mark_ctl *ctl, const struct opts_parser *p,
		     int c, char **argv)
{
	switch (c) {
	case 'n':
		ctl->dry_run = true;
		break;
	case 'q':
		ctl->quiet = true;
		break;
	case 'z':
		if (!*optarg)
			return report_usage(ctl->name, "--undo needs a file "
					    "name");
		ctl->undo_file = optarg;
		break;
	case EXT4DEV_OPT_WAIT:
		if (!fsio_parse_wait(optarg, &ctl->wait_secs))
			return report_usage(ctl->name, "invalid --wait "
					    "seconds '%s'", optarg);
		break;
	case 'h':
		return print_help(ctl);
	case 'V':
		return ext4dev_print_version();
	default:
		return opts_error(p, c, argv);
	}
	return -1;
}

int mark_parse(struct mark_ctl *ctl, const char *name, bool set, int argc,
	       char **argv)
{
	struct opts_parser p;
	int c, rc;

	memset(ctl, 0, sizeof(*ctl));
	ctl->name = name;
	ctl->set = set;
	ctl->wait_secs = -1;
	/* Options may follow the devices, up to "--" (GNU). */
	opts_start(&p, &mark_options, name);
	while ((c = opts_next(&p, argc, argv)) != -1) {
		rc = parse_one(ctl, &p, c, argv);
		if (rc >= 0)
			return rc;
	}
	ctl->devices = argv + optind;
	ctl->ndevices = argc - optind;
	if (!ctl->ndevices)
		return report_usage(name, "no device specified");
	if (ctl->undo_file && ctl->ndevices > 1)
		return report_usage(name, "--undo takes one device at a time");
	return -1;
}

/* "LABEL=x (/dev/sdb1): test filesystem flag set", escaped. */
static void say(const struct mark_ctl *ctl, const struct fsio_dev *dev,
		const char *what)
{
	char name[EXT4DEV_NAME_MAX], esc[EXT4DEV_NAME_MAX * 4];

	if (ctl->quiet)
		return;
	report_escape(report_dev_name(dev, false, name, sizeof(name)), esc,
		      sizeof(esc));
	printf("%s: test filesystem flag %s\n", esc, what);
}

/*
 * The primary already says what we want: make the backups agree, so
 * that "already" is only said when every copy has the flag as asked.
 */
static errcode_t mark_backups(const struct mark_ctl *ctl,
			      struct fsio_dev *dev,
			      const struct fsio_write_opts *opts)
{
	char what[96];
	errcode_t err;

	err = fsio_find_stale_backups(dev, EXT2_FLAGS_TEST_FILESYS);
	if (err)
		return err;
	if (!dev->nstale) {
		say(ctl, dev, ctl->set ? "already set" : "already clear");
		return 0;
	}
	err = ctl->dry_run ? fsio_check_writable(dev) :
			     fsio_commit_backups(dev, opts);
	snprintf(what, sizeof(what), "%s%s in %u backup superblock%s "
		 "(the primary %s)",
		 ctl->dry_run ? "would be " : "",
		 ctl->set ? "set" : "cleared",
		 dev->nstale, dev->nstale == 1 ? "" : "s",
		 ctl->set ? "already had it" : "was already clear");
	if (!err)
		say(ctl, dev, what);
	return err;
}

static int mark_one(const struct mark_ctl *ctl, const char *spec)
{
	struct fsio_write_opts opts = { .undo_file = ctl->undo_file };
	struct fsio_lock_wait wait = { ctl->wait_secs, report_lock_notice };
	uint32_t old_flags, new_flags;
	const char *rival = NULL;
	char name[EXT4DEV_NAME_MAX];
	struct fsio_dev dev;
	errcode_t err;
	int rc = EXT4DEV_EXIT_OK;

	err = fsio_init(&dev, spec);
	dev.lock_wait = &wait;
	if (!err)
		err = fsio_open_change(&dev);
	/* A bad -z path is refused before anything is written. */
	if (!err && ctl->undo_file)
		err = fsio_check_undo(&dev, ctl->undo_file, false);
	if (err)
		goto out;
	old_flags = dev.fs->super->s_flags;
	new_flags = mark_new_flags(old_flags, ctl->set);
	if (ctl->set)
		rival = blkid_name_rival(dev.fs->super);
	if (new_flags == old_flags) {
		err = mark_backups(ctl, &dev, &opts);
	} else if (ctl->dry_run) {
		/* Opened as the real run would: it fails where that fails. */
		err = fsio_check_writable(&dev);
		if (!err)
			say(ctl, &dev, ctl->set ? "would be set" :
				       "would be cleared");
	} else {
		err = fsio_commit_flags(&dev, new_flags, &opts);
		if (!err)
			say(ctl, &dev, ctl->set ? "set" : "cleared");
	}
out:
	if (err)
		rc = report_fs_error(&dev, err);
	if (!err && !ctl->quiet) {
		fflush(stdout);	/* the warning after what it follows */
		blkid_name_warn(report_dev_name(&dev, false, name,
						sizeof(name)), rival);
	}
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
	if (ctl.set && !ctl.quiet && rc == EXT4DEV_EXIT_OK) {
		fflush(stdout);	/* the warning after what it follows */
		e2fsck_conf_warn();
	}
	return rc;
}
