// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

size_t report_escape(const char *in, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return 0;
	for (; *in && n + 1 < len; in++) {
		unsigned char c = *in;

		if (c >= 0x20 && c != 0x7f) {
			buf[n++] = c;
		} else if (n + 4 < len) {
			snprintf(buf + n, len - n, "\\x%02x", c);
			n += 4;
		} else {
			break;
		}
	}
	buf[n] = '\0';
	return n;
}

/* Where report_fs_error_msg() wants the next line kept, or NULL. */
static char *keep_buf;
static size_t keep_len;

/*
 * Every message goes through here: a name with a newline or an escape
 * sequence in it reaches the terminal as \x0a or \x1b, the way
 * libsmartcols shows it in the table, and each message stays one line.
 */
static __attribute__((format(printf, 2, 0)))
void vprint(const char *prefix, const char *fmt, va_list ap)
{
	char *raw = NULL, *esc;
	size_t len;

	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	len = raw ? strlen(raw) * 4 + 1 : 1;
	esc = malloc(len);
	if (raw && esc)
		report_escape(raw, esc, len);
	/* In a log of both streams, what stdout said comes first. */
	fflush(stdout);
	fprintf(stderr, "ext4dev: %s%s\n", prefix,
		raw && esc ? esc : "(out of memory)");
	if (keep_buf)
		snprintf(keep_buf, keep_len, "%s%s", prefix,
			 raw && esc ? esc : "(out of memory)");
	free(esc);
	free(raw);
}

/*
 * A subcommand is tried as "ext4dev CMD"; a name with a dot is a
 * program of its own (mount.ext4dev), which is what its user typed.
 */
int report_usage(const char *cmd, const char *fmt, ...)
{
	bool own = cmd && strchr(cmd, '.');
	va_list ap;

	va_start(ap, fmt);
	vprint("", fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "Try '%s%s%s --help' for more information.\n",
		own ? "" : "ext4dev", cmd && !own ? " " : "", cmd ? cmd : "");
	return EXT4DEV_EXIT_USAGE;
}

/*
 * getopt permutes: argv[optind - 1] may be a device name met before the
 * option, or the bundle "-xy" may still be half read.  A short option
 * is named by optopt alone; only a long one needs its word, which
 * getopt has just stepped over (and moved in front of any devices).
 */
int report_bad_option(const char *cmd, int c, char **argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool is_long = !strncmp(word, "--", 2);

	if (c == ':' && (is_long || !optopt))
		return report_usage(cmd, "option '%s' requires an argument",
				    word);
	if (c == ':')
		return report_usage(cmd, "option requires an argument -- "
				    "'%c'", optopt);
	if (optopt && !is_long)
		return report_usage(cmd, "invalid option -- '%c'", optopt);
	return report_usage(cmd, "unrecognized option '%s'", word);
}

int report_failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint("", fmt, ap);
	va_end(ap);
	return EXT4DEV_EXIT_FAILURE;
}

void report_warn(const char *dev, const char *fmt, ...)
{
	char prefix[EXT4DEV_NAME_MAX + 16];
	va_list ap;

	if (dev)
		snprintf(prefix, sizeof(prefix), "warning: '%s': ", dev);
	else
		snprintf(prefix, sizeof(prefix), "warning: ");
	va_start(ap, fmt);
	vprint(prefix, fmt, ap);
	va_end(ap);
}

const char *report_dev_name(const struct fsio_dev *dev, bool quote,
			    char *buf, size_t len)
{
	const char *q = quote ? "'" : "";

	if (dev->path && dev->spec && strcmp(dev->path, dev->spec))
		snprintf(buf, len, "%s%s%s (%s)", q, dev->spec, q, dev->path);
	else
		snprintf(buf, len, "%s%s%s", q,
			 dev->path ? dev->path : dev->spec, q);
	return buf;
}

/* Names that are spelled out letter by letter: "an xfs filesystem". */
const char *report_article(const char *noun)
{
	static const char *const letters[] = {
		"xfs", "ntfs", "hfs", "hfsplus", "f2fs", "nilfs2", "LVM2_member",
		"LUKS", "MBR", NULL
	};
	size_t n;

	if (strchr("aeiouAEIOU", noun[0]))
		return "an";
	for (const char *const *l = letters; *l; l++) {
		n = strlen(*l);
		if (!strncmp(noun, *l, n) && (!noun[n] || noun[n] == ' '))
			return "an";
	}
	return "a";
}

/*
 * libblkid's USAGE is a class ("other", "crypto", "raid"), not a noun:
 * a swap signature is "swap area", crypto_LUKS a "LUKS volume".
 */
void report_signature(const struct fsio_dev *dev, char *buf, size_t len)
{
	const char *type = dev->foreign_type, *usage = dev->foreign_usage;

	if (!strcmp(type, "swap") || !strcmp(type, "swsuspend"))
		snprintf(buf, len, "%s area", type);
	else if (!strncmp(type, "crypto_", 7))
		snprintf(buf, len, "%s volume", type + 7);
	else if (!strcmp(usage, "raid"))
		snprintf(buf, len, "%s (RAID or volume manager member)", type);
	else if (!strcmp(type, "ambivalent"))
		snprintf(buf, len, "set of several signatures");
	else if (!usage[0] || !strcmp(usage, "filesystem"))
		snprintf(buf, len, "%s filesystem", type);
	else if (!strcmp(usage, "other") || !strcmp(usage, "unknown"))
		snprintf(buf, len, "%s signature", type);
	else
		snprintf(buf, len, "%s %s", type, usage);
}

/*
 * The same bytes are mounted or held under another name: say which
 * name, and where or by what, so the user can find it.
 */
static int report_alias(const struct fsio_dev *dev, const char *name,
			errcode_t err)
{
	/* mkfs -E offset=: say which window overlaps the one it writes. */
	if (err == EXT4DEV_ERR_ALIAS_MOUNTED && dev->offset > 0 &&
	    !dev->mounted_elsewhere && dev->alias_end == UINT64_MAX)
		return report_failure("%s: is mounted as %s on '%s' (it "
				      "holds the device's bytes from %llu on, "
				      "over those mkfs writes; unmount it "
				      "first)", name,
				      dev->alias, dev->mountpoint,
				      (unsigned long long)dev->alias_start);
	if (err == EXT4DEV_ERR_ALIAS_MOUNTED && dev->offset > 0 &&
	    !dev->mounted_elsewhere)
		return report_failure("%s: is mounted as %s on '%s' (it "
				      "holds the device's bytes %llu to %llu, "
				      "over those mkfs writes; unmount it "
				      "first)", name,
				      dev->alias, dev->mountpoint,
				      (unsigned long long)dev->alias_start,
				      (unsigned long long)dev->alias_end - 1);
	if (err == EXT4DEV_ERR_ALIAS_MOUNTED && dev->mounted_elsewhere)
		return report_failure("%s: is mounted as %s in another mount "
				      "namespace (on '%s' there; unmount it "
				      "first)", name, dev->alias,
				      dev->mountpoint);
	if (err == EXT4DEV_ERR_ALIAS_MOUNTED)
		return report_failure("%s: is mounted as %s on '%s' (some or "
				      "all of its bytes under another name; "
				      "unmount it first)", name, dev->alias,
				      dev->mountpoint);
	if (dev->holder[0])
		return report_failure("%s: is held by %s through %s (some or "
				      "all of its bytes under another name)", name,
				      dev->holder, dev->alias);
	return report_failure("%s: is in use by another process as %s (some "
			      "or all of its bytes under another name)", name,
			      dev->alias);
}

int report_fs_error(const struct fsio_dev *dev, errcode_t err)
{
	char name[EXT4DEV_NAME_MAX];

	report_dev_name(dev, true, name, sizeof(name));
	if (dev->undo_err)
		return report_failure("%s: undo file '%s': %s", name,
				      dev->undo_file ? dev->undo_file : "",
				      error_message(err));
	if (err == EXT4DEV_ERR_AMBIGUOUS)
		return report_failure("%s: %s: %s (name one by its path)",
				      name, error_message(err), dev->matches);
	if (err == EXT4DEV_ERR_PRIMARY_BAD)
		return report_failure("%s: %s; the first good backup is at "
				      "block %llu (block size %u): repair "
				      "with 'e2fsck -b %llu -B %u'",
				      name, error_message(err),
				      (unsigned long long)dev->good_backup,
				      dev->good_backup_bs,
				      (unsigned long long)dev->good_backup,
				      dev->good_backup_bs);
	if (err == EXT4DEV_ERR_MOUNTED && dev->mountpoint[0] &&
	    dev->mounted_elsewhere)
		return report_failure("%s: filesystem is mounted in another "
				      "mount namespace (on '%s' there; unmount "
				      "it first)", name, dev->mountpoint);
	if (err == EXT4DEV_ERR_MOUNTED && dev->mountpoint[0])
		return report_failure("%s: filesystem is mounted on '%s' "
				      "(unmount it first: the kernel keeps its "
				      "own copy of the superblock and would "
				      "overwrite the change)",
				      name, dev->mountpoint);
	if (err == EXT4DEV_ERR_ALIAS_MOUNTED || err == EXT4DEV_ERR_ALIAS_BUSY)
		return report_alias(dev, name, err);
	if (err == EXT4DEV_ERR_VM_LOCKED && dev->alias[0])
		return report_failure("%s: %s, as '%s' (another name of the "
				      "same bytes)", name, error_message(err),
				      dev->alias);
	if (err == EXT4DEV_ERR_BUSY && dev->holder[0])
		return report_failure("%s: device is held by %s (in use by "
				      "the kernel)", name, dev->holder);
	if (err == EXT4DEV_ERR_FOREIGN && dev->foreign_type[0]) {
		char what[128];

		report_signature(dev, what, sizeof(what));
		return report_failure("%s: contains %s %s, not ext2/ext3/ext4",
				      name, report_article(what), what);
	}
	return report_failure("%s: %s", name, error_message(err));
}

int report_fs_error_msg(const struct fsio_dev *dev, errcode_t err,
			char *msg, size_t len)
{
	int rc;

	if (len)
		msg[0] = '\0';
	keep_buf = len ? msg : NULL;
	keep_len = len;
	rc = report_fs_error(dev, err);
	keep_buf = NULL;
	return rc;
}

void report_lock_notice(const char *path, int seconds)
{
	char limit[48] = "";

	if (seconds >= 0)
		snprintf(limit, sizeof(limit), ", for at most %d s", seconds);
	report_failure("waiting for another process to release '%s'%s "
		       "(--wait SECONDS sets a limit)", path, limit);
}
