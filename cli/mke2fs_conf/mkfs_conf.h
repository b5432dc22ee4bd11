/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_CONF_H
#define EXT4DEV_MKFS_CONF_H

/*
 * mke2fs.conf(5), read the way mke2fs reads it: "[section]" headers,
 * "name = value" relations and "name = { ... }" subsections.  Our own
 * parser: e2fsprogs' profile library is not a public API.  It never
 * prints; a syntax error leaves the file, line and reason in
 * struct mkfs_conf_err for the caller to report.
 */

#include <stdbool.h>
#include <stdio.h>

#include <ext2fs/ext2fs.h>

struct mkfs_conf_node {
	char *name;
	char *value;			/* NULL for a section */
	int line;			/* where it was defined, 0 if built in */
	struct mkfs_conf_node *parent;
	struct mkfs_conf_node *child;	/* first child */
	struct mkfs_conf_node *last;	/* last child, for appending */
	struct mkfs_conf_node *next;	/* next sibling */
};

struct mkfs_conf_err {
	const char *file;		/* the conf's name */
	int line;			/* 1-based; 0 when not a line's fault */
	char why[160];
};

struct mkfs_conf {
	char *file;			/* path, or "<built-in>" */
	struct mkfs_conf_node root;
	struct mkfs_conf_err err;	/* the last error */
};

/* The name under which the compiled-in defaults report errors. */
#define EXT4DEV_CONF_BUILTIN "<built-in mke2fs.conf>"

/*
 * Load $MKE2FS_CONFIG, else /etc/mke2fs.conf; a file that does not exist
 * gives mke2fs's own built-in defaults, as mke2fs does.  Returns 0, or
 * an errno (file unreadable) or EINVAL (syntax error, see conf->err).
 */
errcode_t mkfs_conf_load(struct mkfs_conf *conf);

/* Parse @text (NUL-terminated) as a conf named @name. */
errcode_t mkfs_conf_parse_text(struct mkfs_conf *conf, const char *name,
			       const char *text);

/* Parse the stream @f as a conf named @name. */
errcode_t mkfs_conf_parse_file(struct mkfs_conf *conf, const char *name,
			       FILE *f);

void mkfs_conf_free(struct mkfs_conf *conf);

/*
 * The first relation @name in [@section] (@sub == NULL) or in the
 * subsection @sub of [@section], in file order; NULL when there is none.
 */
const struct mkfs_conf_node *mkfs_conf_find(const struct mkfs_conf *conf,
					    const char *section,
					    const char *sub,
					    const char *name);

/* Does [@section] have a subsection @sub with at least one relation? */
bool mkfs_conf_has_sub(const struct mkfs_conf *conf, const char *section,
		       const char *sub);

/* mke2fs's compiled-in profile (Debian's mke2fs.conf for 1.47.0). */
extern const char mkfs_conf_builtin[];

#endif
