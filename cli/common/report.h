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

/*
 * "ext4dev: MSG", then "Try 'ext4dev CMD --help' ..."; returns 16.  A
 * @cmd with a dot is a program name of its own: "Try 'mount.ext4dev
 * --help' ...".
 */
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

/*
 * report_fs_error(), and the line it printed, without "ext4dev: " and
 * with control characters escaped, in @msg (show-flags --json says it
 * again in its output).
 */
int report_fs_error_msg(const struct fsio_dev *dev, errcode_t err,
			char *msg, size_t len);

/* Longest name report_dev_name() gives (longer ones are cut). */
#define EXT4DEV_NAME_MAX 1024

/*
 * How messages name @dev: its path, or "SPEC (PATH)" for a LABEL=/UUID=
 * (the device it resolved to), with SPEC in quotes when @quote.
 * Returns @buf.  Control characters are escaped later, by the printer.
 */
const char *report_dev_name(const struct fsio_dev *dev, bool quote,
			    char *buf, size_t len);

/* Copy @in to @buf with control characters as \xNN; returns length. */
size_t report_escape(const char *in, char *buf, size_t len);

/*
 * "ext4dev: warning: 'DEV': MSG", or "ext4dev: warning: MSG" when @dev
 * is NULL (a message about a device already named, e.g. with
 * report_dev_name(), passes NULL and puts the name in @fmt).
 */
void report_warn(const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * fsio_lock_wait's notice: "ext4dev: waiting for another process to
 * release 'PATH' ...", once, after a second of waiting.
 */
void report_lock_notice(const char *path, int seconds);

/*
 * What libblkid found on @dev (foreign_type, foreign_usage) as a noun
 * without article: "xfs filesystem", "swap area", "LUKS volume",
 * "dos partition table".
 */
void report_signature(const struct fsio_dev *dev, char *buf, size_t len);

/* "a" or "an" before @noun (an xfs filesystem, a vfat filesystem). */
const char *report_article(const char *noun);

#endif
