/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_SHOW_TABLE_H
#define EXT4DEV_SHOW_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What show-flags learned about one device: one table row. */
struct show_row {
	const char *device;	/* as the user named it */
	const char *type;	/* libblkid's TYPE; "" or NULL: none */
	const char *uuid;
	const char *label;
	uint32_t s_flags;
	/*
	 * No superblock was read: uuid, label and s_flags mean nothing.
	 * The table leaves such a row out (stderr said why); JSON keeps
	 * it, with null for what is unknown, so every device is there.
	 */
	bool unread;
	const char *error;	/* what stderr said (no "ext4dev: "), or NULL */
	int code;		/* the exit code that goes with @error */
};

struct show_table;

enum show_table_style {
	SHOW_TABLE_PLAIN,
	SHOW_TABLE_RAW,
	SHOW_TABLE_JSON,
};

/*
 * A libsmartcols table with the columns named in @columns (comma
 * separated, case-insensitive; NULL for the default).  On an unknown
 * column returns NULL and points @bad at it.
 */
struct show_table *show_table_new(const char *columns,
				  enum show_table_style style,
				  bool noheadings, const char **bad);
int show_table_add(struct show_table *t, const struct show_row *row);
int show_table_print(struct show_table *t);
void show_table_free(struct show_table *t);

/* One cell's text as the table holds it (TEST: yes/no). */
int show_table_cell(const char *column, const struct show_row *row,
		    char *buf, size_t len);

/* The column names and their help text, for --help. */
void show_table_list_columns(void);

/*
 * @s as a JSON string, or null when NULL.  JSON is UTF-8: a byte that
 * starts no valid sequence becomes the four characters \\xHH.
 */
void show_table_json_string(FILE *f, const char *s);

#endif
