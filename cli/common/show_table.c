// SPDX-License-Identifier: GPL-2.0
/*
 * The table and JSON forms of show-flags.  The table goes through
 * libsmartcols so that it looks like lsblk's and findmnt's; the JSON is
 * written here, in libsmartcols's layout, because it needs what
 * libsmartcols cannot write: null for what a failed device could not
 * tell, an array of flag names and an "error" object.
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
	const char *help;
};

static const struct col_info col_infos[COL_COUNT] = {
	[COL_DEVICE] = { "DEVICE", 0.2, 0, "device or image as named" },
	[COL_TYPE] = { "TYPE", 0.1, 0,
		       "filesystem type as libblkid reports it" },
	[COL_FLAGS] = { "FLAGS", 0.4, SCOLS_FL_TRUNC,
			"superblock flags, as dumpe2fs names them" },
	[COL_TEST] = { "TEST", 0.05, SCOLS_FL_RIGHT,
		       "test_filesystem flag set (yes/no)" },
	[COL_UUID] = { "UUID", 36, 0, "filesystem UUID" },
	[COL_LABEL] = { "LABEL", 0.1, SCOLS_FL_TRUNC, "filesystem label" },
};

#define DEFAULT_COLUMNS "DEVICE,TYPE,FLAGS,TEST"
#define MAX_COLUMNS 16

struct show_table {
	struct libscols_table *tb;	/* the table; NULL for JSON */
	enum col_id cols[MAX_COLUMNS];
	int ncols;
	bool json;
	FILE *rows;			/* JSON: the rows so far, in @buf */
	char *buf;
	size_t len;
	int nrows;
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

static int add_columns(struct show_table *t)
{
	for (int i = 0; i < t->ncols; i++) {
		const struct col_info *ci = &col_infos[t->cols[i]];

		if (!scols_table_new_column(t->tb, ci->name, ci->width_hint,
					    ci->scols_flags))
			return -1;
	}
	return 0;
}

static int new_scols_table(struct show_table *t, bool raw, bool noheadings)
{
	t->tb = scols_new_table();
	if (!t->tb)
		return -1;
	scols_table_enable_raw(t->tb, raw);
	scols_table_enable_noheadings(t->tb, noheadings);
	return add_columns(t);
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
	if (t->json) {
		t->rows = open_memstream(&t->buf, &t->len);
		if (!t->rows)
			goto fail;
	} else if (new_scols_table(t, style == SHOW_TABLE_RAW, noheadings)) {
		goto fail;
	}
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

static void json_ascii(FILE *f, unsigned char c)
{
	if (c == '"' || c == '\\')
		fprintf(f, "\\%c", c);
	else if (c == '\n')
		fputs("\\n", f);
	else if (c == '\t')
		fputs("\\t", f);
	else if (c < 0x20 || c == 0x7f)
		fprintf(f, "\\u%04x", c);
	else
		fputc(c, f);
}

/*
 * A byte that starts no valid UTF-8 sequence is written as the four
 * characters \xHH (the backslash escaped, as JSON wants), the way our
 * messages write control bytes.  Nothing is cut, however long.
 */
void show_table_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *p; p += n ? n : 1) {
		n = utf8_len(p);
		if (!n)
			fprintf(f, "\\\\x%02x", *p);
		else if (n == 1)
			json_ascii(f, *p);
		else
			fwrite(p, 1, (size_t)n, f);
	}
	fputc('"', f);
}

/* The flag names as an array: [] for none, never "(none)". */
static void json_flags(FILE *f, uint32_t s_flags)
{
	char buf[EXT4DEV_FLAGS_BUFSZ], *save = NULL, *word;
	const char *sep = "";

	fputc('[', f);
	if (s_flags) {
		flags_format(s_flags, buf, sizeof(buf));
		for (word = strtok_r(buf, " ", &save); word;
		     word = strtok_r(NULL, " ", &save)) {
			fputs(sep, f);
			show_table_json_string(f, word);
			sep = ", ";
		}
	}
	fputc(']', f);
}

static void json_value(FILE *f, enum col_id col, const struct show_row *row)
{
	bool test = row->s_flags & EXT2_FLAGS_TEST_FILESYS;

	if (row->unread && col != COL_DEVICE && col != COL_TYPE) {
		fputs("null", f);
		return;
	}
	switch (col) {
	case COL_DEVICE:
		show_table_json_string(f, row->device);
		break;
	case COL_TYPE:
		show_table_json_string(f, row->type && row->type[0] ?
				       row->type : NULL);
		break;
	case COL_FLAGS:
		json_flags(f, row->s_flags);
		break;
	case COL_TEST:
		fputs(test ? "true" : "false", f);
		break;
	case COL_UUID:
		show_table_json_string(f, row->uuid ? row->uuid : "");
		break;
	case COL_LABEL:
		show_table_json_string(f, row->label ? row->label : "");
		break;
	default:
		break;
	}
}

/* lsblk's keys: the column name in lower case. */
static void json_key(FILE *f, const char *name)
{
	fputs("         \"", f);
	for (; *name; name++)
		fputc(*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name,
		      f);
	fputs("\": ", f);
}

/* One object of the "filesystems" array, laid out as libsmartcols. */
static int json_row(struct show_table *t, const struct show_row *row)
{
	FILE *f = t->rows;

	fputs(t->nrows++ ? ",{\n" : "      {\n", f);
	for (int i = 0; i < t->ncols; i++) {
		json_key(f, col_infos[t->cols[i]].name);
		json_value(f, t->cols[i], row);
		fputs(i + 1 < t->ncols || row->error ? ",\n" : "\n", f);
	}
	if (row->error) {
		json_key(f, "error");
		fputs("{\"message\": ", f);
		show_table_json_string(f, row->error);
		fprintf(f, ", \"code\": %d}\n", row->code);
	}
	fputs("      }", f);
	return ferror(f) ? -1 : 0;
}

int show_table_add(struct show_table *t, const struct show_row *row)
{
	struct libscols_line *ln;
	char buf[EXT4DEV_FLAGS_BUFSZ];

	if (t->json)
		return json_row(t, row);
	if (row->unread)
		return 0;
	ln = scols_table_new_line(t->tb, NULL);
	if (!ln)
		return -1;
	for (int i = 0; i < t->ncols; i++) {
		const char *name = col_infos[t->cols[i]].name;

		if (show_table_cell(name, row, buf, sizeof(buf)) < 0)
			return -1;
		if (scols_line_set_data(ln, i, buf))
			return -1;
	}
	return 0;
}

int show_table_print(struct show_table *t)
{
	if (!t->json)
		return scols_print_table(t->tb);
	if (fflush(t->rows) || ferror(t->rows))
		return -1;
	fputs("{\n   \"filesystems\": [", stdout);
	if (t->nrows) {
		putchar('\n');
		fwrite(t->buf, 1, t->len, stdout);
		fputs("\n   ", stdout);
	}
	fputs("]\n}\n", stdout);
	return 0;
}

void show_table_free(struct show_table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	if (t->rows)
		fclose(t->rows);
	free(t->buf);
	free(t);
}

void show_table_list_columns(void)
{
	printf("\nAvailable output columns (default %s):\n",
	       DEFAULT_COLUMNS);
	for (int i = 0; i < COL_COUNT; i++)
		printf(" %-8s %s\n", col_infos[i].name, col_infos[i].help);
}
