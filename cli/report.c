// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include <ext2fs/ext2fs.h>

#include "exitcodes.h"
#include "ext4dev_err.h"
#include "report.h"

void report_init(void)
{
	/* Without these, error_message() says "Unknown code ext2 19". */
	add_error_table(&et_ext2_error_table);
	add_error_table(&et_e4dv_error_table);
}

static __attribute__((format(printf, 1, 0)))
void vprint(const char *fmt, va_list ap)
{
	fputs("ext4dev: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int report_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'ext4dev%s%s --help' for more information.\n",
		cmd ? " " : "", cmd ? cmd : "");
	return EXT4DEV_EXIT_USAGE;
}

int report_bad_option(const char *cmd, int c, char **argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";

	if (c == ':')
		return report_usage(cmd, "option '%s' requires an argument",
				    word);
	if (optopt && word[0] == '-' && word[1] != '-')
		return report_usage(cmd, "invalid option -- '%c'", optopt);
	return report_usage(cmd, "unrecognized option '%s'", word);
}

int report_failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	return EXT4DEV_EXIT_FAILURE;
}

void report_warn(const char *dev, const char *fmt, ...)
{
	va_list ap;

	fputs("ext4dev: warning: ", stderr);
	if (dev)
		fprintf(stderr, "'%s': ", dev);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int report_fs_error(const struct fsio_dev *dev, errcode_t err)
{
	const char *name = dev->path ? dev->path : dev->spec;

	if (err == EXT4DEV_ERR_MOUNTED && dev->mountpoint[0])
		return report_failure("'%s': filesystem is mounted on '%s' "
				      "(unmount it first: the kernel keeps its "
				      "own copy of the superblock and would "
				      "overwrite the change)",
				      name, dev->mountpoint);
	if (err == EXT4DEV_ERR_FOREIGN && dev->foreign_type[0])
		return report_failure("'%s': contains a %s filesystem, not "
				      "ext2/ext3/ext4", name,
				      dev->foreign_type);
	return report_failure("'%s': %s", name, error_message(err));
}
