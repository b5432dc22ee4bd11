/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_E2FSCK_CONF_H
#define EXT4DEV_E2FSCK_CONF_H

/*
 * e2fsck.conf(5) as far as the test_filesystem flag goes: e2fsck clears
 * the flag (where ext4 is available) unless the first
 * "clear_test_fs_flag" relation in [options] is false.  fsck.ext4dev
 * hands e2fsck the system's configuration with that relation put first;
 * mark-test and mkfs warn when the system's configuration would clear
 * the flag.  Nothing here prints except e2fsck_conf_warn().
 */

#include <stdbool.h>
#include <stddef.h>

/* $E2FSCK_CONFIG when set (even empty, as e2fsck), else /etc/e2fsck.conf. */
const char *e2fsck_conf_path(void);

/*
 * The configuration e2fsck reads from @path, as one text: the file, or
 * for a directory its regular files named [A-Za-z0-9_-]+ in strcmp()
 * order, as e2fsck's profile code takes them.  Each file's lines before
 * its first section (comments to e2fsck) come out empty, so that files
 * can follow each other, and line numbers stay.  A missing or
 * unreadable path is an empty text, because e2fsck skips those too.
 * Returns 0 and a malloc()ed NUL-terminated *@text, or an errno.
 */
int e2fsck_conf_read(const char *path, char **text);

/* What e2fsck, configured by @text, does with the flag. */
enum e2fsck_conf_verdict {
	E2FSCK_CONF_DEFAULT,	/* no relation: e2fsck's default clears */
	E2FSCK_CONF_CLEARS,	/* the relation says clear */
	E2FSCK_CONF_KEEPS,	/* the relation says false: kept */
};

enum e2fsck_conf_verdict e2fsck_conf_verdict(const char *text);

/* Does e2fsck, configured by @text, keep the flag? */
bool e2fsck_conf_keeps_flag(const char *text);

/*
 * @text (from e2fsck_conf_read()) with "[options] clear_test_fs_flag =
 * false" put first, so that its value is the one e2fsck finds whatever
 * @text says.  e2fsck's line numbers are then @text's plus
 * EXT4DEV_E2FSCK_KEEP_LINES.  malloc()ed; NULL when out of memory.
 */
char *e2fsck_conf_with_keep(const char *text);
#define EXT4DEV_E2FSCK_KEEP_LINES 2

/*
 * The warning for @v (NULL for E2FSCK_CONF_KEEPS, or out of memory):
 * @path is named as the cause only when its relation clears; under
 * e2fsck's default it is only where the fix goes.  malloc()ed.
 */
char *e2fsck_conf_warning(const char *path, enum e2fsck_conf_verdict v);

/*
 * mark-test and mkfs: one line on stderr when the system's e2fsck
 * configuration would clear the flag, saying what keeps it.
 */
void e2fsck_conf_warn(void);

#endif
