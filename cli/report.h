/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_REPORT_H
#define EXT4DEV_REPORT_H

#include <et/com_err.h>

#include "fsio.h"

/*
 * Message helpers.  Each prints to stderr a line that starts "ext4dev: "
 * (callers word the rest as "WHAT: why") and returns the exit code, so
 * that callers write "return report_usage(...)" and only main() exits.
 */

/* Load the libext2fs and ext4dev com_err tables; once, from main(). */
void report_init(void);

/* "ext4dev: MSG", then "Try 'ext4dev CMD --help' ..."; returns 16. */
int report_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * After getopt_long() with a leading ':' in its optstring returned @c
 * ('?' or ':'): name the bad or incomplete option; returns 16.
 */
int report_bad_option(const char *cmd, int c, char **argv);

/* "ext4dev: MSG"; returns 8. */
int report_failure(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * "ext4dev: 'DEV': <error_message(err)>", with the detail fsio left in
 * @dev (mount point, foreign type) where it has any; returns 8.
 */
int report_fs_error(const struct fsio_dev *dev, errcode_t err);

/* "ext4dev: warning: 'DEV': MSG" (no 'DEV': when NULL); returns nothing. */
void report_warn(const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
