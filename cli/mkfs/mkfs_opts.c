// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev mkfs's command line: mke2fs(8)'s options with mke2fs's
 * meaning, into struct mkfs_opts, checked here for form only (a bad
 * number, an unknown option); how they combine is for the geometry and
 * parameter stages.  An mke2fs option we do not
 * implement is a usage error that names it, never silently ignored.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uuid/uuid.h>

#include "commands.h"
#include "exitcodes.h"
#include "mkfs.h"
#include "opts.h"
#include "report.h"
#include "version.h"

#define CMD EXT4DEV_MKFS_CMD

/* parse_switch() and parse_valued(): the letter is the other's. */
enum { EXT4DEV_NOT_MINE = -2 };

enum { EXT4DEV_MKFS_OPT_PRODUCTION = EXT4DEV_OPT_OWN };

/*
 * mke2fs's letters, with mke2fs's meaning.  The rows without help are
 * the mke2fs options we leave out: getopt reads them (and their
 * argument) so that the error can name them.
 */
const struct opts_table mkfs_options = {
	.specs = (const struct opts_spec[]) {
		{ 'b', NULL, "<size>", "block size in bytes" },
		{ 'C', NULL, "<size>", "cluster size (bigalloc)" },
		{ 'i', NULL, "<bytes>", "bytes per inode" },
		{ 'I', NULL, "<size>", "inode size in bytes" },
		{ 'N', NULL, "<count>", "number of inodes" },
		{ 'm', NULL, "<percent>", "blocks reserved for the super user" },
		{ 'L', NULL, "<label>", "volume label" },
		{ 'U', NULL, "<uuid>", "UUID (or clear, random, time)" },
		{ 'M', NULL, "<dir>", "last-mounted directory" },
		{ 'O', NULL, "<features>", "features to set, ^feature to "
		  "clear" },
		{ 'E', NULL, "<options>", "extended options, see below" },
		{ 'j', NULL, NULL, "add a journal" },
		{ 'J', NULL, "size=<MiB>", "journal size" },
		{ 'T', NULL, "<usage-types>", "mke2fs.conf usage types" },
		{ 't', NULL, "<fs-type>", "mke2fs.conf filesystem type "
		  "(default ext4,\nthen ext4dev if the file has it)" },
		{ 'g', NULL, "<blocks>", "blocks per group" },
		{ 'G', NULL, "<groups>", "groups per flex_bg" },
		{ 'e', NULL, "<behaviour>", "continue, remount-ro or panic on "
		  "errors" },
		{ 'F', NULL, NULL, "overwrite an existing filesystem or "
		  "signature" },
		{ 'd', NULL, "<root-directory>", "copy this tree into the "
		  "filesystem (as mke2fs -d)" },
		{ 'n', NULL, NULL, "print the layout, write nothing" },
		{ 'q', NULL, NULL, "print nothing on success" },
		{ 'v', NULL, NULL, "print the details" },
		{ EXT4DEV_MKFS_OPT_PRODUCTION, "production", NULL,
		  "leave the test_filesystem flag clear" },
		EXT4DEV_OPTS_WAIT,
		EXT4DEV_OPTS_VERSION,
		EXT4DEV_OPTS_HELP,
		{ 'c', NULL, NULL, NULL },
		{ 'D', NULL, NULL, NULL },
		{ 'l', NULL, "<bad-blocks-file>", NULL },
		{ 'o', NULL, "<creator-os>", NULL },
		{ 'r', NULL, "<revision>", NULL },
		{ 's', NULL, "<sparse-flag>", NULL },
		{ 'S', NULL, NULL, NULL },
		{ 'K', NULL, NULL, NULL },
		{ 'R', NULL, "<raid-options>", NULL },
		{ 'z', NULL, "<undo-file>", NULL },
		{ 0 }
	},
};

static int print_help(void)
{
	printf("Usage:\n"
	       " ext4dev mkfs [options] <device> [<size>]\n"
	       " mkfs.ext4dev [options] <device> [<size>]\n\n"
	       "Make an ext4 filesystem with the test_filesystem flag set, "
	       "as\n'mke2fs -t ext4 -E test_fs' would, through libext2fs; "
	       "the settings of\nan [fs_types] ext4dev stanza in "
	       "mke2fs.conf apply after the ext4 stanza's.\n"
	       "<size> is in blocks, or in bytes with a K, M, G or T suffix;"
	       "\na missing image file is created with that size.\n\n"
	       "Options (as in mke2fs(8)):\n");
	opts_print_help(&mkfs_options);
	printf("\nExtended options (-E, comma-separated, as in mke2fs(8)):\n");
	mkfs_print_ext_help();
	return EXT4DEV_EXIT_OK;
}

void mkfs_opts_init(struct mkfs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reserved_ratio = -1.0;
	o->wait_secs = -1;
}

void mkfs_opts_free(struct mkfs_opts *o)
{
	free(o->features);
	o->features = NULL;
}

/* -O may repeat: mke2fs joins them with commas. */
static int append_list(char **list, const char *arg)
{
	size_t old = *list ? strlen(*list) : 0;
	char *grown = realloc(*list, old + strlen(arg) + 2);

	if (!grown)
		return report_failure("out of memory");
	if (old)
		grown[old++] = ',';
	strcpy(grown + old, arg);
	*list = grown;
	return EXT4DEV_CONTINUE;
}

/* A whole unsigned number in C notation, or a usage error. */
static int parse_ulong(const char *opt, const char *arg, unsigned long *out)
{
	if (!mkfs_parse_ulong(arg, out))
		return report_usage(CMD, "invalid %s '%s'", opt, arg);
	return EXT4DEV_CONTINUE;
}

static int parse_block_size(struct mkfs_opts *o, const char *arg)
{
	long long v = (long long)mkfs_parse_num(arg[0] == '-' ? arg + 1 : arg,
						 -1);

	if (v < EXT2_MIN_BLOCK_SIZE || v > EXT2_MAX_BLOCK_SIZE ||
	    (v & (v - 1)))
		return report_usage(CMD, "invalid block size '%s' (a power "
				    "of two, 1024 to 65536)", arg);
	o->blocksize = arg[0] == '-' ? -(int)v : (int)v;
	return EXT4DEV_CONTINUE;
}

static int parse_cluster_size(struct mkfs_opts *o, const char *arg)
{
	unsigned long long v = mkfs_parse_num(arg, -1);

	if (v <= EXT2_MIN_CLUSTER_SIZE || v > EXT2_MAX_CLUSTER_SIZE ||
	    (v & (v - 1)))
		return report_usage(CMD, "invalid cluster size '%s'", arg);
	o->cluster_size = (int)v;
	return EXT4DEV_CONTINUE;
}

static int parse_inode_ratio(struct mkfs_opts *o, const char *arg)
{
	unsigned long long v = mkfs_parse_num(arg, -1);

	if (v < EXT2_MIN_BLOCK_SIZE || v > EXT2_MAX_BLOCK_SIZE * 1024ULL)
		return report_usage(CMD, "invalid inode ratio '%s' (min %d/"
				    "max %d)", arg, EXT2_MIN_BLOCK_SIZE,
				    EXT2_MAX_BLOCK_SIZE * 1024);
	o->inode_ratio = (int)v;
	return EXT4DEV_CONTINUE;
}

static int parse_reserved(struct mkfs_opts *o, const char *arg)
{
	char *end;

	o->reserved_ratio = strtod(arg, &end);
	if (!*arg || *end || o->reserved_ratio > 50 ||
	    o->reserved_ratio < 0)
		return report_usage(CMD, "invalid reserved blocks percent "
				    "'%s'", arg);
	return EXT4DEV_CONTINUE;
}

static int parse_errors(struct mkfs_opts *o, const char *arg)
{
	o->errors_behavior = mkfs_errors_by_name(arg);
	if (!o->errors_behavior)
		return report_usage(CMD, "invalid error behaviour '%s'", arg);
	return EXT4DEV_CONTINUE;
}

static int parse_group_opt(struct mkfs_opts *o, int c, const char *arg)
{
	unsigned long v;
	int rc = parse_ulong(c == 'g' ? "blocks per group" : "flex_bg size",
			     arg, &v);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (c == 'g') {
		if (v % 8 || v > 0xffffffffUL)
			return report_usage(CMD, "blocks per group must be a "
					    "multiple of 8: '%s'", arg);
		o->blocks_per_group = (unsigned int)v;
	} else {
		if (!v || (v & (v - 1)) || v > (1UL << 31))
			return report_usage(CMD, "flex_bg size must be a "
					    "power of 2 up to 2^31: '%s'", arg);
		o->flex_bg_size = v;
	}
	return EXT4DEV_CONTINUE;
}

static int parse_small(struct mkfs_opts *o, int c, const char *arg)
{
	unsigned long v;
	uuid_t uu;
	int rc = EXT4DEV_CONTINUE;

	switch (c) {
	case 'I':
		rc = parse_ulong("inode size", arg, &v);
		o->inode_size = v > UINT_MAX ? UINT_MAX : (unsigned int)v;
		break;
	case 'N':
		rc = parse_ulong("number of inodes", arg, &v);
		o->num_inodes = v;
		break;
	case 'L':
		o->label = arg;
		if (strlen(arg) > EXT2_LABEL_LEN)
			report_warn(NULL, "label '%s' is longer than %d bytes; "
				    "it is truncated", arg, EXT2_LABEL_LEN);
		break;
	case 'U':
		if (!mkfs_uuid_by_name(arg) && uuid_parse(arg, uu))
			return report_usage(CMD, "invalid UUID '%s'", arg);
		o->uuid = arg;
		break;
	}
	return rc;
}

static int parse_once(const char **slot, const char *arg, int c)
{
	if (*slot)
		return report_usage(CMD, "the -%c option may only be used "
				    "once", c);
	*slot = arg;
	return EXT4DEV_CONTINUE;
}

/* Options that take no argument; EXT4DEV_NOT_MINE for any other. */
static int parse_switch(struct mkfs_opts *o, int c)
{
	switch (c) {
	case 'j':
		if (!o->journal_size)
			o->journal_size = -1;
		if (!o->journal_fc_size)
			o->journal_fc_size = -1;
		return EXT4DEV_CONTINUE;
	case 'F':
		o->force = true;
		return EXT4DEV_CONTINUE;
	case 'n':
		o->noaction = true;
		return EXT4DEV_CONTINUE;
	case 'q':
		o->quiet = true;
		return EXT4DEV_CONTINUE;
	case 'v':
		o->verbose = true;
		return EXT4DEV_CONTINUE;
	case EXT4DEV_MKFS_OPT_PRODUCTION:
		o->production = true;
		return EXT4DEV_CONTINUE;
	case 'h':
		return print_help();
	case 'V':
		return ext4dev_print_version();
	}
	return EXT4DEV_NOT_MINE;
}

/* Options with an argument; EXT4DEV_NOT_MINE for any other. */
static int parse_valued(struct mkfs_opts *o, int c, char *arg)
{
	switch (c) {
	case 'b':
		return parse_block_size(o, arg);
	case 'C':
		return parse_cluster_size(o, arg);
	case 'i':
		return parse_inode_ratio(o, arg);
	case 'm':
		return parse_reserved(o, arg);
	case 'e':
		return parse_errors(o, arg);
	case 'g':
	case 'G':
		return parse_group_opt(o, c, arg);
	case 'I':
	case 'N':
	case 'L':
	case 'U':
		return parse_small(o, c, arg);
	case 'd':
		o->root_dir = arg;
		return EXT4DEV_CONTINUE;
	case 'M':
		o->mount_dir = arg;
		return EXT4DEV_CONTINUE;
	case 'O':
		return append_list(&o->features, arg);
	case 'E':
		o->ext_opts = arg;	/* as in mke2fs, the last one counts */
		return EXT4DEV_CONTINUE;
	case 'J':
		return mkfs_parse_journal_opts(o, arg);
	case 't':
		return parse_once(&o->fs_type, arg, c);
	case 'T':
		return parse_once(&o->usage_types, arg, c);
	case EXT4DEV_OPT_WAIT:
		return fsio_parse_wait(arg, &o->wait_secs) ? EXT4DEV_CONTINUE :
		       report_usage(CMD, "invalid --wait seconds '%s'", arg);
	}
	return EXT4DEV_NOT_MINE;
}

static int parse_one(struct mkfs_opts *o, const struct opts_parser *p,
		     int c, char **argv)
{
	const struct opts_spec *s = opts_find(&mkfs_options, c);
	int rc = parse_switch(o, c);

	if (rc == EXT4DEV_NOT_MINE)
		rc = parse_valued(o, c, optarg);
	if (rc != EXT4DEV_NOT_MINE)
		return rc;
	/* mke2fs options we leave out: name them, do not ignore them. */
	if (s && !s->help)
		return report_usage(CMD, "mke2fs option '-%c' is not "
				    "supported by ext4dev mkfs", c);
	return opts_error(p, c, argv);
}

static int parse_operands(struct mkfs_opts *o, int argc, char **argv)
{
	if (optind >= argc)
		return report_usage(CMD, "no device specified");
	o->device = argv[optind++];
	if (optind < argc)
		o->size_arg = argv[optind++];
	if (optind < argc)
		return report_usage(CMD, "unexpected argument '%s'",
				    argv[optind]);
	if (o->size_arg) {
		int log = o->blocksize > 0 ?
			  mkfs_log2((unsigned int)o->blocksize) - 10 : 0;

		o->fs_blocks = mkfs_parse_num(o->size_arg, log);
		if (!o->fs_blocks)
			return report_usage(CMD, "invalid size '%s' for "
					    "'%s'", o->size_arg,
					    o->device);
	}
	return EXT4DEV_CONTINUE;
}

int mkfs_parse_args(struct mkfs_opts *o, int argc, char **argv)
{
	struct opts_parser p;
	int c, rc;

	opts_start(&p, &mkfs_options, CMD);
	while ((c = opts_next(&p, argc, argv)) != -1) {
		rc = parse_one(o, &p, c, argv);
		if (rc != EXT4DEV_CONTINUE)
			return rc;
	}
	return parse_operands(o, argc, argv);
}
