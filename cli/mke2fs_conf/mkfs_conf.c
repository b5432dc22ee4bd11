// SPDX-License-Identifier: GPL-2.0
/*
 * A reader for mke2fs.conf with the grammar of e2fsprogs' profile
 * library: lines before the first "[" in column 0 are a comment, "#" and
 * ";" start comments, an unquoted value is one word, a quoted one knows
 * \n, \t and \b, a subsection opens with "{" on its line or the next.
 * Stricter in one place: a "{" still open at the end of the file is an
 * error (the profile library silently closes it).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mkfs_conf.h"

struct conf_parser {
	struct mkfs_conf *conf;
	struct mkfs_conf_node *section;	/* where relations go */
	int depth;			/* open "{" */
	int line;
	bool started;			/* seen a "[" in column 0 */
	bool want_brace;		/* "name =" ended the previous line */
};

static errcode_t parse_fail(struct conf_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static errcode_t parse_fail(struct conf_parser *p, const char *fmt, ...)
{
	va_list ap;

	p->conf->err.file = p->conf->file;
	p->conf->err.line = p->line;
	va_start(ap, fmt);
	vsnprintf(p->conf->err.why, sizeof(p->conf->err.why), fmt, ap);
	va_end(ap);
	return EINVAL;
}

static char *skip_blanks(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static char *skip_word(char *s)
{
	while (*s && !isspace((unsigned char)*s))
		s++;
	return s;
}

static bool end_or_comment(char c)
{
	return c == '\0' || c == '#' || c == ';';
}

/* Unquote in place, stopping at the closing quote. */
static void unquote(char *s)
{
	char *to = s;

	for (; *s && *s != '"'; s++, to++) {
		if (*s == '\\' && s[1]) {
			s++;
			*to = *s == 'n' ? '\n' : *s == 't' ? '\t' :
			      *s == 'b' ? '\b' : *s;
		} else {
			*to = *s;
		}
	}
	*to = '\0';
}

static errcode_t add_node(struct conf_parser *p, struct mkfs_conf_node *parent,
			  const char *name, const char *value,
			  struct mkfs_conf_node **out)
{
	struct mkfs_conf_node *n = calloc(1, sizeof(*n));

	if (!n)
		return ENOMEM;
	n->name = strdup(name);
	n->value = value ? strdup(value) : NULL;
	if (!n->name || (value && !n->value)) {
		free(n->name);
		free(n->value);
		free(n);
		return ENOMEM;
	}
	n->line = p->line;
	n->parent = parent;
	if (parent->last)
		parent->last->next = n;
	else
		parent->child = n;
	parent->last = n;
	if (out)
		*out = n;
	return 0;
}

static struct mkfs_conf_node *find_child(struct mkfs_conf_node *parent,
					 const char *name, bool section)
{
	for (struct mkfs_conf_node *n = parent->child; n; n = n->next)
		if (!strcmp(n->name, name) && !n->value == section)
			return n;
	return NULL;
}

/* "[name]": sections of the same name merge, as in the profile library. */
static errcode_t parse_section(struct conf_parser *p, char *cp)
{
	char *end;

	if (p->depth)
		return parse_fail(p, "section header inside '{ }'");
	cp = skip_blanks(cp + 1);
	end = strchr(cp, ']');
	if (!end)
		return parse_fail(p, "missing ']' in section header");
	if (*cp == '"') {
		unquote(++cp);
	} else {
		*end = '\0';
		for (char *t = end - 1; t >= cp && isspace((unsigned char)*t);
		     t--)
			*t = '\0';
	}
	if (!*cp)
		return parse_fail(p, "empty section name");
	end++;
	if (*end == '*')
		end++;
	if (!end_or_comment(*skip_blanks(end)))
		return parse_fail(p, "unexpected text after ']'");
	p->section = find_child(&p->conf->root, cp, true);
	if (p->section)
		return 0;
	return add_node(p, &p->conf->root, cp, NULL, &p->section);
}

static errcode_t open_sub(struct conf_parser *p, char *tag)
{
	char *star = strchr(tag, '*');

	if (star)
		*star = '\0';
	p->depth++;
	return add_node(p, p->section, tag, NULL, &p->section);
}

/* "tag = value", "tag = {" or "tag =" with "{" on the next line. */
static errcode_t parse_relation(struct conf_parser *p, char *cp)
{
	char *eq = strchr(cp, '='), *tag = cp, *value, *star;

	if (!p->section)
		return parse_fail(p, "relation outside any [section]");
	if (!eq || eq == cp)
		return parse_fail(p, "expected 'name = value'");
	*eq = '\0';
	if (*tag == '"') {
		unquote(++tag);
	} else {
		char *rest = skip_word(tag);

		if (*rest)
			*rest++ = '\0';
		if (*skip_blanks(rest))
			return parse_fail(p, "blank inside name '%s'", tag);
	}
	value = skip_blanks(eq + 1);
	if (end_or_comment(*value)) {
		p->want_brace = true;
		return open_sub(p, tag);
	}
	if (*value == '{') {
		if (!end_or_comment(*skip_blanks(value + 1)))
			return parse_fail(p, "unexpected text after '{'");
		return open_sub(p, tag);
	}
	if (*value == '"') {
		unquote(++value);
	} else {
		char *end = skip_word(value);

		if (!end_or_comment(*skip_blanks(end)))
			return parse_fail(p, "value of '%s' is more than one "
					  "word (quote it)", tag);
		*end = '\0';
	}
	star = strchr(tag, '*');
	if (star)
		*star = '\0';
	return add_node(p, p->section, tag, value, NULL);
}

static errcode_t parse_line(struct conf_parser *p, char *line)
{
	size_t len = strlen(line);
	char *cp;

	p->line++;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	cp = skip_blanks(line);
	if (p->want_brace) {
		p->want_brace = false;
		if (*cp != '{')
			return parse_fail(p, "expected '{' after '%s ='",
					  p->section->name);
		return 0;
	}
	if (!p->started) {
		if (line[0] != '[')
			return 0;
		p->started = true;
	}
	if (end_or_comment(*cp))
		return 0;
	if (*cp == '[')
		return parse_section(p, cp);
	if (*cp == '}') {
		if (!p->depth)
			return parse_fail(p, "'}' without a matching '{'");
		p->depth--;
		p->section = p->section->parent;
		return 0;
	}
	return parse_relation(p, cp);
}

static errcode_t parse_end(struct conf_parser *p)
{
	if (p->want_brace)
		return parse_fail(p, "expected '{' after '%s ='",
				  p->section->name);
	if (p->depth)
		return parse_fail(p, "'{' of '%s' is never closed",
				  p->section->name);
	return 0;
}

static errcode_t conf_begin(struct mkfs_conf *conf, const char *name,
			    struct conf_parser *p)
{
	memset(conf, 0, sizeof(*conf));
	memset(p, 0, sizeof(*p));
	p->conf = conf;
	conf->file = strdup(name);
	conf->root.name = (char *)"";
	return conf->file ? 0 : ENOMEM;
}

errcode_t mkfs_conf_parse_file(struct mkfs_conf *conf, const char *name,
			       FILE *f)
{
	struct conf_parser p;
	char *line = NULL;
	size_t cap = 0;
	errcode_t err = conf_begin(conf, name, &p);

	while (!err && getline(&line, &cap, f) >= 0)
		err = parse_line(&p, line);
	if (!err && ferror(f))
		err = EIO;
	free(line);
	return err ? err : parse_end(&p);
}

errcode_t mkfs_conf_parse_text(struct mkfs_conf *conf, const char *name,
			       const char *text)
{
	struct conf_parser p;
	errcode_t err = conf_begin(conf, name, &p);

	while (!err && *text) {
		size_t len = strcspn(text, "\n");
		char *line = strndup(text, len);

		if (!line)
			return ENOMEM;
		err = parse_line(&p, line);
		free(line);
		text += len + (text[len] == '\n');
	}
	return err ? err : parse_end(&p);
}

errcode_t mkfs_conf_load(struct mkfs_conf *conf)
{
	const char *path = getenv("MKE2FS_CONFIG");
	struct stat st;
	errcode_t err;
	FILE *f;

	if (!path)
		path = "/etc/mke2fs.conf";
	f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return mkfs_conf_parse_text(conf, EXT4DEV_CONF_BUILTIN,
					    mkfs_conf_builtin);
	err = f ? 0 : errno;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		f = NULL;
		err = EISDIR;
	}
	if (!f) {
		memset(conf, 0, sizeof(*conf));
		conf->file = strdup(path);
		conf->err.file = conf->file;
		snprintf(conf->err.why, sizeof(conf->err.why), "%s",
			 strerror((int)err));
		return err;
	}
	err = mkfs_conf_parse_file(conf, path, f);
	fclose(f);
	return err;
}

static void free_children(struct mkfs_conf_node *n)
{
	struct mkfs_conf_node *c = n->child, *next;

	for (; c; c = next) {
		next = c->next;
		free_children(c);
		free(c->name);
		free(c->value);
		free(c);
	}
	n->child = NULL;
	n->last = NULL;
}

void mkfs_conf_free(struct mkfs_conf *conf)
{
	free_children(&conf->root);
	free(conf->file);
	conf->file = NULL;
}
