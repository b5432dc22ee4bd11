// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev show-flags: read-only.  One device prints dumpe2fs's
 * "Filesystem flags:" line; several devices, or any table option, print
 * a libsmartcols table; --check turns the answer into an exit code.
 */
#include <stdio.h>
#include <string.h>

#include <uuid/uuid.h>

#include "cmd_show_flags.h"
#include "commands.h"
#include "exitcodes.h"
#include "flags.h"
#include "fsio.h"
#include "opts.h"
#include "report.h"
#include "show_table.h"
#include "version.h"

#define CMD "show-flags"
/* Room for what stderr said about a device, again in its JSON row. */
#define SHOW_MSG_MAX 4096

const struct opts_table show_flags_options = {
	.specs = (const struct opts_spec[]) {
		{ 'c', "check", "<state>", "exit 0 if every device is in "
		  "<state> (test or\nproduction), 1 if one is not; prints "
		  "nothing" },
		{ 'v', "verbose", NULL, "with --check, say what each device "
		  "is" },
		{ 'o', "output", "<list>", "table columns to print (+<list> "
		  "adds to the default)" },
		{ 'J', "json", NULL, "print the table as JSON" },
		{ 'r', "raw", NULL, "print the table without alignment" },
		{ 'n', "noheadings", NULL, "do not print a header line" },
		EXT4DEV_OPTS_WAIT,
		EXT4DEV_OPTS_HELP,
		EXT4DEV_OPTS_VERSION,
		{ 0 }
	},
	/*
	 * --check prints no table, and a table is JSON or raw, not both.
	 * Two rows for --check: when a style and a column option were
	 * both given, the style is the one named.
	 */
	.excl = (const struct opts_excl[]) {
		{ EXT4DEV_OPTS_SET('c'), EXT4DEV_OPTS_SET('J', 'r') },
		{ EXT4DEV_OPTS_SET('c'), EXT4DEV_OPTS_SET('o', 'n') },
		{ EXT4DEV_OPTS_SET('J'), EXT4DEV_OPTS_SET('r') },
		{ NULL, NULL }
	},
};

static int print_help(void)
{
	printf("Usage:\n"
	       " ext4dev show-flags [options] <device>...\n\n"
	       "Print the superblock flags of ext2/ext3/ext4 filesystems.\n"
	       "<device> is a block device, an image file, LABEL=<label> or "
	       "UUID=<uuid>.\n\n"
	       "Options:\n");
	opts_print_help(&show_flags_options);
	show_table_list_columns();
	return EXT4DEV_EXIT_OK;
}

static int parse_check(struct show_flags_ctl *ctl, const char *arg)
{
	int want;

	if (!strcmp(arg, "test"))
		want = EXT4DEV_CHECK_TEST;
	else if (!strcmp(arg, "production"))
		want = EXT4DEV_CHECK_PRODUCTION;
	else
		return report_usage(CMD, "invalid --check state '%s' "
				    "(use test or production)", arg);
	/* A script that asks for both has a bug: say so, not the last. */
	if (ctl->check != EXT4DEV_CHECK_NONE && ctl->check != want)
		return report_usage(CMD, "--check given twice with different "
				    "states");
	ctl->check = want;
	return -1;
}

/* One option; -1 to go on, or the exit code. */
static int parse_one(struct show_flags_ctl *ctl,
		     const struct opts_parser *p, int c, char **argv)
{
	switch (c) {
	case 'c':
		return parse_check(ctl, optarg);
	case 'v':
		ctl->verbose = true;
		return -1;
	case 'o':
		ctl->columns = optarg;
		break;
	case 'J':
		ctl->json = true;
		break;
	case 'r':
		ctl->raw = true;
		break;
	case 'n':
		ctl->noheadings = true;
		break;
	case EXT4DEV_OPT_WAIT:
		if (!fsio_parse_wait(optarg, &ctl->wait_secs))
			return report_usage(CMD, "invalid --wait seconds "
					    "'%s'", optarg);
		return -1;
	case 'h':
		return print_help();
	case 'V':
		return ext4dev_print_version();
	default:
		return opts_error(p, c, argv);
	}
	ctl->table = true;	/* any table option */
	return -1;
}

int show_flags_parse(struct show_flags_ctl *ctl, int argc, char **argv)
{
	struct opts_parser p;
	int c, rc;

	memset(ctl, 0, sizeof(*ctl));
	ctl->check = EXT4DEV_CHECK_NONE;
	ctl->wait_secs = -1;
	/* Options may follow the devices, up to "--" (GNU). */
	opts_start(&p, &show_flags_options, CMD);
	while ((c = opts_next(&p, argc, argv)) != -1) {
		rc = parse_one(ctl, &p, c, argv);
		if (rc >= 0)
			return rc;
	}
	if (ctl->verbose && ctl->check == EXT4DEV_CHECK_NONE)
		return report_usage(CMD, "--verbose works only with --check");
	ctl->devices = argv + optind;
	ctl->ndevices = argc - optind;
	if (!ctl->ndevices)
		return report_usage(CMD, "no device specified");
	if (ctl->ndevices > 1)
		ctl->table = true;
	return -1;
}

/* --check for one open device: 0 holds, 1 does not. */
static int check_one(const struct show_flags_ctl *ctl, struct fsio_dev *dev)
{
	bool is_test = dev->fs->super->s_flags & EXT2_FLAGS_TEST_FILESYS;
	bool holds = is_test == (ctl->check == EXT4DEV_CHECK_TEST);

	char name[EXT4DEV_NAME_MAX], esc[EXT4DEV_NAME_MAX * 4];

	report_escape(report_dev_name(dev, false, name, sizeof(name)), esc,
		      sizeof(esc));
	if (ctl->verbose)
		printf("%s: %s filesystem\n", esc,
		       is_test ? "test" : "production");
	return holds ? EXT4DEV_EXIT_OK : EXT4DEV_EXIT_CHECK_FAILED;
}

static void print_flags_line(const struct fsio_dev *dev)
{
	char buf[EXT4DEV_FLAGS_BUFSZ];

	flags_format(dev->fs->super->s_flags, buf, sizeof(buf));
	printf("Filesystem flags:         %s\n", buf);
}

static int add_row(struct show_table *t, struct fsio_dev *dev,
		   const char *msg, int rc)
{
	struct ext2_super_block *sb = dev->fs->super;
	char uuid[UUID_STR_LEN], label[EXT2_LABEL_LEN + 1];
	struct show_row row = { .device = dev->spec, .uuid = uuid,
				.label = label, .s_flags = sb->s_flags,
				.error = msg[0] ? msg : NULL, .code = rc };

	uuid_unparse(sb->s_uuid, uuid);
	snprintf(label, sizeof(label), "%.*s", EXT2_LABEL_LEN,
		 (const char *)sb->s_volume_name);
	/* TYPE is libblkid's word, which is what mount(8) will act on. */
	fsio_probe_type(dev, true);
	row.type = dev->foreign_type;
	if (show_table_add(t, &row))
		return report_failure("'%s': cannot add table row", dev->spec);
	return rc;
}

/*
 * A device that could not be read: no table row, but a JSON one, so
 * that every device named is in the output.  Its TYPE is what libblkid
 * found instead of ext2/3/4, if it found a filesystem or other
 * superblock (a partition table has no TYPE).
 */
static int add_failed_row(struct show_table *t, const struct fsio_dev *dev,
			  const char *spec, const char *msg, int rc)
{
	bool pt = !strcmp(dev->foreign_usage, "partition table");
	struct show_row row = { .device = spec, .unread = true,
				.type = pt ? NULL : dev->foreign_type,
				.error = msg, .code = rc };

	if (show_table_add(t, &row))
		return report_failure("'%s': cannot add table row", spec);
	return rc;
}

/* Shown as dumpe2fs shows it, but scripts must hear about it. */
static int warn_failure(const struct fsio_dev *dev, errcode_t err, int rc,
			char *msg)
{
	char name[EXT4DEV_NAME_MAX], text[EXT4DEV_NAME_MAX + 128];
	size_t used = strlen(msg);

	report_dev_name(dev, true, name, sizeof(name));
	snprintf(text, sizeof(text), "%s: %s", name, error_message(err));
	report_warn(NULL, "%s", text);
	/* The line as printed, after "ext4dev: "; several joined by "; ". */
	used += snprintf(msg + used, SHOW_MSG_MAX - used, "%swarning: ",
			 used ? "; " : "");
	if (used < SHOW_MSG_MAX)
		report_escape(text, msg + used, SHOW_MSG_MAX - used);
	return ext4dev_exit_worst(rc, EXT4DEV_EXIT_FAILURE);
}

/* After the open: the verdict, the line or the row, and the warnings. */
static int show_open(const struct show_flags_ctl *ctl, struct show_table *t,
		     struct fsio_dev *dev)
{
	bool jdev = ext2fs_has_feature_journal_dev(dev->fs->super);
	bool check = ctl->check != EXT4DEV_CHECK_NONE;
	char msg[SHOW_MSG_MAX] = "";
	int rc = EXT4DEV_EXIT_OK;

	/* It has s_flags, but no filesystem's: no verdict on it. */
	if (jdev && check)
		rc = report_fs_error(dev, EXT4DEV_ERR_JOURNAL_DEV);
	else if (check)
		rc = check_one(ctl, dev);
	else if (!t)
		print_flags_line(dev);
	if (!dev->csum_ok)
		rc = warn_failure(dev, EXT2_ET_SB_CSUM_INVALID, rc, msg);
	if (!dev->size_ok)
		rc = warn_failure(dev, EXT4DEV_ERR_TRUNCATED, rc, msg);
	/* Shown as dumpe2fs shows it, and said what it is. */
	if (jdev && !check)
		rc = warn_failure(dev, EXT4DEV_ERR_JOURNAL_DEV, rc, msg);
	return t ? add_row(t, dev, msg, rc) : rc;
}

static int show_one(const struct show_flags_ctl *ctl, struct show_table *t,
		    const char *spec)
{
	struct fsio_lock_wait wait = { ctl->wait_secs, report_lock_notice };
	char msg[SHOW_MSG_MAX] = "";
	struct fsio_dev dev;
	errcode_t err;
	int rc;

	err = fsio_init(&dev, spec);
	dev.lock_wait = &wait;
	if (!err)
		err = fsio_open_read(&dev);
	if (!err) {
		rc = show_open(ctl, t, &dev);
	} else {
		rc = report_fs_error_msg(&dev, err, msg, sizeof(msg));
		if (t)
			rc = add_failed_row(t, &dev, spec, msg, rc);
	}
	fsio_release(&dev);
	return rc;
}

static struct show_table *new_table(const struct show_flags_ctl *ctl,
				    int *rc)
{
	enum show_table_style style = ctl->json ? SHOW_TABLE_JSON :
				      ctl->raw ? SHOW_TABLE_RAW :
				      SHOW_TABLE_PLAIN;
	const char *bad = NULL;
	struct show_table *t;

	t = show_table_new(ctl->columns, style, ctl->noheadings, &bad);
	if (!t)
		*rc = bad ? report_usage(CMD, "unknown column in '%s'", bad)
			  : report_failure("cannot create table");
	return t;
}

int cmd_show_flags(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	struct show_flags_ctl ctl;
	struct show_table *t = NULL;
	int rc = show_flags_parse(&ctl, argc, argv);

	if (rc >= 0)
		return rc;
	rc = EXT4DEV_EXIT_OK;
	if (ctl.table && ctl.check == EXT4DEV_CHECK_NONE) {
		t = new_table(&ctl, &rc);
		if (!t)
			return rc;
	}
	for (int i = 0; i < ctl.ndevices; i++)
		rc = ext4dev_exit_worst(rc, show_one(&ctl, t, ctl.devices[i]));
	if (t && show_table_print(t))
		rc = ext4dev_exit_worst(rc, report_failure("cannot print table"));
	show_table_free(t);
	return rc;
}
