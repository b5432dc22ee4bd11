// SPDX-License-Identifier: GPL-2.0
/*
 * The table and JSON forms of show-flags, through libsmartcols so they
 * look and parse like lsblk's and findmnt's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ext2fs/ext2_fs.h>
#include <libsmartcols.h>

#include "flags.h"
#include "show_table.h"

enum col_id { COL_DEVICE, COL_TYPE, COL_FLAGS, COL_TEST, COL_UUID,
	      COL_LABEL, COL_COUNT };

struct col_info {
	const char *name;
	double width_hint;
	int scols_flags;
	int json_type;
	const char *help;
};

static const struct col_info col_infos[COL_COUNT] = {
	[COL_DEVICE] = { "DEVICE", 0.2, 0, SCOLS_JSON_STRING,
			 "device or image as named" },
	[COL_TYPE] = { "TYPE", 0.1, 0, SCOLS_JSON_STRING,
		       "filesystem type as libblkid reports it" },
	[COL_FLAGS] = { "FLAGS", 0.4, SCOLS_FL_TRUNC, SCOLS_JSON_STRING,
			"superblock flags, as dumpe2fs names them" },
	[COL_TEST] = { "TEST", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN,
		       "test_filesystem flag set (yes/no)" },
	[COL_UUID] = { "UUID", 36, 0, SCOLS_JSON_STRING,
		       "filesystem UUID" },
	[COL_LABEL] = { "LABEL", 0.1, SCOLS_FL_TRUNC, SCOLS_JSON_STRING,
			"filesystem label" },
};

#define DEFAULT_COLUMNS "DEVICE,TYPE,FLAGS,TEST"
#define MAX_COLUMNS 16

struct show_table {
	struct libscols_table *tb;
	enum col_id cols[MAX_COLUMNS];
	int ncols;
	bool json;
};

static int col_by_name(const char *name, size_t len)
{
	for (int i = 0; i < COL_COUNT; i++)
		if (strlen(col_infos[i].name) == len &&
		    !strncasecmp(col_infos[i].name, name, len))
			return i;
	return -1;
}

/* dumpe2fs's list without its trailing blank, which a cell must not keep. */
static int flags_cell(uint32_t s_flags, char *buf, size_t len)
{
	size_t n = flags_format(s_flags, buf, len);

	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return (int)n;
}

int show_table_cell(const char *column, const struct show_row *row,
		    char *buf, size_t len)
{
	bool test = row->s_flags & EXT2_FLAGS_TEST_FILESYS;

	switch (col_by_name(column, strlen(column))) {
	case COL_DEVICE:
		return snprintf(buf, len, "%s", row->device);
	case COL_TYPE:
		return snprintf(buf, len, "%s", row->type ? row->type : "");
	case COL_FLAGS:
		return flags_cell(row->s_flags, buf, len);
	case COL_TEST:
		/* libsmartcols writes JSON false for a cell that reads "no". */
		return snprintf(buf, len, "%s", test ? "yes" : "no");
	case COL_UUID:
		return snprintf(buf, len, "%s", row->uuid ? row->uuid : "");
	case COL_LABEL:
		return snprintf(buf, len, "%s", row->label ? row->label : "");
	}
	return -1;
}

/* Parse "DEVICE,FLAGS" into column ids; the bad name goes in @bad. */
static int parse_columns(struct show_table *t, const char *list,
			 const char **bad)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		int id = col_by_name(p, len);

		if (id < 0 || t->ncols == MAX_COLUMNS) {
			*bad = p;
			return -1;
		}
		t->cols[t->ncols++] = id;
		p += len + (p[len] == ',');
	}
	if (!t->ncols)
		*bad = list;
	return t->ncols ? 0 : -1;
}

/* JSON readers get the flag under its own name, whatever -o said. */
static void ensure_test_column(struct show_table *t)
{
	for (int i = 0; i < t->ncols; i++)
		if (t->cols[i] == COL_TEST)
			return;
	if (t->ncols < MAX_COLUMNS)
		t->cols[t->ncols++] = COL_TEST;
}

static int add_columns(struct show_table *t)
{
	for (int i = 0; i < t->ncols; i++) {
		const struct col_info *ci = &col_infos[t->cols[i]];
		/* The JSON key is the header in lower case. */
		const char *header = t->json && t->cols[i] == COL_TEST ?
				     "test_filesystem" : ci->name;
		struct libscols_column *cl;

		cl = scols_table_new_column(t->tb, header, ci->width_hint,
					    ci->scols_flags);
		if (!cl)
			return -1;
		if (t->json)
			scols_column_set_json_type(cl, ci->json_type);
	}
	return 0;
}

struct show_table *show_table_new(const char *columns,
				  enum show_table_style style,
				  bool noheadings, const char **bad)
{
	struct show_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->json = style == SHOW_TABLE_JSON;
	/* lsblk's "-o +COL": the default columns, then those. */
	if (columns && columns[0] == '+') {
		if (parse_columns(t, DEFAULT_COLUMNS, bad))
			goto fail;
		columns++;
	}
	if (parse_columns(t, columns ? columns : DEFAULT_COLUMNS, bad))
		goto fail;
	if (t->json)
		ensure_test_column(t);
	t->tb = scols_new_table();
	if (!t->tb)
		goto fail;
	scols_table_enable_json(t->tb, t->json);
	scols_table_set_name(t->tb, "filesystems");
	scols_table_enable_raw(t->tb, style == SHOW_TABLE_RAW);
	scols_table_enable_noheadings(t->tb, noheadings);
	if (add_columns(t))
		goto fail;
	return t;
fail:
	show_table_free(t);
	return NULL;
}

/* Bytes in the UTF-8 sequence at @s (1-4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 :
		s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;

	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong three- and four-byte forms, surrogates, > U+10FFFF. */
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
	    (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/*
 * JSON is UTF-8: a byte that starts no valid sequence becomes the four
 * characters \xHH (libsmartcols then writes the backslash as \\), as
 * our messages write control bytes.  Truncates to fit @len.
 */
void show_table_utf8(const char *in, char *out, size_t len)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t n = 0;

	while (*s && n + 1 < len) {
		int k = utf8_len(s);

		if (k && n + k < len) {
			memcpy(out + n, s, k);
			n += k;
			s += k;
		} else if (!k && n + 4 < len) {
			snprintf(out + n, len - n, "\\x%02x", *s++);
			n += 4;
		} else {
			break;
		}
	}
	out[n] = '\0';
}

int show_table_add(struct show_table *t, const struct show_row *row)
{
	struct libscols_line *ln = scols_table_new_line(t->tb, NULL);
	char buf[EXT4DEV_FLAGS_BUFSZ], safe[EXT4DEV_FLAGS_BUFSZ * 4];

	if (!ln)
		return -1;
	for (int i = 0; i < t->ncols; i++) {
		const char *name = col_infos[t->cols[i]].name;

		if (show_table_cell(name, row, buf, sizeof(buf)) < 0)
			return -1;
		if (t->json)
			show_table_utf8(buf, safe, sizeof(safe));
		if (scols_line_set_data(ln, i, t->json ? safe : buf))
			return -1;
	}
	return 0;
}

int show_table_print(struct show_table *t)
{
	return scols_print_table(t->tb);
}

void show_table_free(struct show_table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	free(t);
}

void show_table_list_columns(void)
{
	printf("\nAvailable output columns (default %s):\n",
	       DEFAULT_COLUMNS);
	for (int i = 0; i < COL_COUNT; i++)
		printf(" %-8s %s\n", col_infos[i].name, col_infos[i].help);
}
