// SPDX-License-Identifier: GPL-2.0
/*
 * What e2fsck's configuration says about the test_filesystem flag.  A
 * scanner for the one relation, not a profile parser: e2fsck finds the
 * first "clear_test_fs_flag" in [options] and takes it as a boolean,
 * and that is all we need to know or to change.
 */
#define _GNU_SOURCE		/* open_memstream, strcasecmp */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "e2fsck_conf.h"

/* What e2fsck reads a line at a time (fgets into a buffer this size). */
#define EXT4DEV_E2FSCK_LINE 2048

static const char keep_lines[] = "[options]\n\tclear_test_fs_flag = false\n";

const char *e2fsck_conf_path(void)
{
	const char *path = getenv("E2FSCK_CONFIG");

	return path ? path : "/etc/e2fsck.conf";
}

/*
 * Copy one file's text to @out.  Its lines before the first "[" in
 * column 0 are comments to e2fsck; they become empty lines, so that the
 * next file's text cannot be read as part of this one's last section.
 */
static int append_file(FILE *out, const char *path)
{
	char line[EXT4DEV_E2FSCK_LINE];
	bool preamble = true, fresh = true;
	FILE *f = fopen(path, "r");

	if (!f)
		return errno == ENOENT || errno == EACCES ? 0 : errno;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (fresh && line[0] == '[')
			preamble = false;
		fresh = len && line[len - 1] == '\n';
		if (!preamble)
			fputs(line, out);
		else if (fresh)
			fputc('\n', out);
	}
	if (!fresh)
		fputc('\n', out);
	fclose(f);
	return 0;
}

static int conf_name(const struct dirent *de)
{
	for (const char *c = de->d_name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
			return 0;
	return 1;
}

static int conf_order(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int append_dir(FILE *out, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, conf_name, conf_order), err = 0;

	if (n < 0)
		return errno == EACCES ? 0 : errno;
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;

		if (!err && asprintf(&path, "%s/%s", dir, list[i]->d_name) < 0)
			err = ENOMEM;
		if (!err && !stat(path, &st) && S_ISREG(st.st_mode))
			err = append_file(out, path);
		free(path);
		free(list[i]);
	}
	free(list);
	return err;
}

int e2fsck_conf_read(const char *path, char **text)
{
	size_t len;
	struct stat st;
	FILE *out = open_memstream(text, &len);
	int err;

	if (!out)
		return errno;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		err = append_dir(out, path);
	else
		err = append_file(out, path);
	if (fclose(out) && !err)
		err = ENOMEM;
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

static char *skip_blanks(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The word at @s without quotes or trailing blanks and comments. */
static char *word(char *s)
{
	char *end;

	if (*s == '"') {
		end = strchr(++s, '"');
		if (end)
			*end = '\0';
		return s;
	}
	end = s + strcspn(s, " \t\r\n#;=*");
	*end = '\0';
	return s;
}

/* profile_parse_boolean()'s false words; anything else clears. */
static bool is_false(const char *v)
{
	static const char *const no[] = { "n", "no", "false", "nil", "0",
					  "off", NULL };

	for (const char *const *w = no; *w; w++)
		if (!strcasecmp(v, *w))
			return true;
	return false;
}

/* One line of a [section] body; returns 1 kept, 0 cleared, -1 go on. */
static int scan_line(char *cp, const char *section, int *depth)
{
	char *eq, *value;

	if (*cp == '}') {
		*depth -= *depth > 0;
		return -1;
	}
	eq = strchr(cp, '=');
	if (*cp == '{' || !eq)
		return -1;
	*eq = '\0';
	value = skip_blanks(eq + 1);
	if (!*value || *value == '#' || *value == ';' || *value == '{') {
		(*depth)++;
		return -1;
	}
	if (*depth || strcmp(section, "options") ||
	    strcmp(word(cp), "clear_test_fs_flag"))
		return -1;
	return is_false(word(value));
}

enum e2fsck_conf_verdict e2fsck_conf_verdict(const char *text)
{
	char line[EXT4DEV_E2FSCK_LINE], section[EXT4DEV_E2FSCK_LINE] = "";
	bool started = false;
	int depth = 0, verdict = -1;

	while (*text && verdict < 0) {
		size_t len = strcspn(text, "\n");
		char *cp;

		snprintf(line, sizeof(line), "%.*s", (int)len, text);
		text += len + (text[len] == '\n');
		started |= line[0] == '[';
		cp = skip_blanks(line);
		if (!started || !*cp || *cp == '#' || *cp == ';')
			continue;
		if (*cp == '[') {
			cp = skip_blanks(cp + 1);
			cp[strcspn(cp, "]")] = '\0';
			snprintf(section, sizeof(section), "%s", word(cp));
			depth = 0;
			continue;
		}
		verdict = scan_line(cp, section, &depth);
	}
	if (verdict < 0)
		return E2FSCK_CONF_DEFAULT;
	return verdict ? E2FSCK_CONF_KEEPS : E2FSCK_CONF_CLEARS;
}

bool e2fsck_conf_keeps_flag(const char *text)
{
	return e2fsck_conf_verdict(text) == E2FSCK_CONF_KEEPS;
}

char *e2fsck_conf_with_keep(const char *text)
{
	char *out = NULL;

	if (asprintf(&out, "%s%s", keep_lines, text) < 0)
		return NULL;
	return out;
}

char *e2fsck_conf_warning(const char *path, enum e2fsck_conf_verdict v)
{
	char *msg = NULL;
	int n = -1;

	if (v == E2FSCK_CONF_CLEARS)
		n = asprintf(&msg, "e2fsck clears the test_filesystem flag "
			     "under '%s', which sets clear_test_fs_flag: "
			     "check with fsck.ext4dev (fstab type ext4dev), "
			     "or set 'clear_test_fs_flag = false' there",
			     path);
	else if (v == E2FSCK_CONF_DEFAULT)
		n = asprintf(&msg, "e2fsck clears the test_filesystem flag "
			     "by default: check with fsck.ext4dev (fstab "
			     "type ext4dev), or add 'clear_test_fs_flag = "
			     "false' to [options] in '%s'", path);
	return n < 0 ? NULL : msg;
}

void e2fsck_conf_warn(void)
{
	const char *path = e2fsck_conf_path();
	char *text = NULL, *msg;
	/* An unreadable configuration is one e2fsck skips too. */
	enum e2fsck_conf_verdict v = e2fsck_conf_read(path, &text) ?
				     E2FSCK_CONF_DEFAULT :
				     e2fsck_conf_verdict(text);

	free(text);
	msg = e2fsck_conf_warning(path, v);
	if (msg)
		fprintf(stderr, "ext4dev: warning: %s\n", msg);
	free(msg);
}
