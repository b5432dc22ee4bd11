// SPDX-License-Identifier: GPL-2.0
/*
 * Options declared once (opts.h): getopt_long()'s strings made from the
 * table, exclusions checked as options come, --help's option lines.
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "report.h"

static int spec_index(const struct opts_table *t, int val)
{
	for (int i = 0; i < EXT4DEV_OPTS_MAX && t->specs[i].val; i++)
		if (t->specs[i].val == val)
			return i;
	return -1;
}

const struct opts_spec *opts_find(const struct opts_table *t, int val)
{
	int i = spec_index(t, val);

	return i < 0 ? NULL : &t->specs[i];
}

/*
 * ":" (errors are returned, not printed), "+" first when @t reads in
 * order, then each letter with ':' after one that takes an argument;
 * a struct option for each long name.
 */
static void make_getopt(struct opts_parser *p)
{
	const struct opts_spec *s = p->table->specs;
	char *o = p->optstring;
	int n = 0;

	if (p->table->in_order)
		*o++ = '+';
	*o++ = ':';
	for (int i = 0; i < EXT4DEV_OPTS_MAX && s[i].val; i++) {
		if (s[i].val < EXT4DEV_OPT_LONG) {
			*o++ = (char)s[i].val;
			if (s[i].arg)
				*o++ = ':';
		}
		if (s[i].name)
			p->longopts[n++] = (struct option) {
				s[i].name,
				s[i].arg ? required_argument : no_argument,
				NULL, s[i].val
			};
	}
	*o = '\0';
	p->longopts[n] = (struct option) { NULL, 0, NULL, 0 };
}

void opts_start(struct opts_parser *p, const struct opts_table *t,
		const char *cmd)
{
	memset(p, 0, sizeof(*p));
	p->table = t;
	p->cmd = cmd;
	make_getopt(p);
	optind = 0;
	opterr = 0;
}

static bool in_set(const int *set, int val)
{
	for (; *set; set++)
		if (*set == val)
			return true;
	return false;
}

/* Of @set, the option given last, or 0 if none was. */
static int given_last(const struct opts_parser *p, const int *set)
{
	unsigned int when = 0;
	int val = 0;

	for (; *set; set++) {
		int i = spec_index(p->table, *set);

		if (i >= 0 && p->given[i] > when) {
			when = p->given[i];
			val = *set;
		}
	}
	return val;
}

/* Does @val exclude an option given before it?  Then note the pair. */
static bool excludes(struct opts_parser *p, int val)
{
	const struct opts_excl *e = p->table->excl;
	int other = 0;

	for (; e && e->one && !other; e++) {
		if (in_set(e->one, val))
			other = given_last(p, e->other);
		else if (in_set(e->other, val))
			other = given_last(p, e->one);
	}
	if (!other)
		return false;
	p->conflict[0] = other;
	p->conflict[1] = val;
	return true;
}

int opts_next(struct opts_parser *p, int argc, char **argv)
{
	int c = getopt_long(argc, argv, p->optstring, p->longopts, NULL);
	int i = spec_index(p->table, c);

	if (c == -1 || i < 0)
		return c;
	if (excludes(p, c))
		return EXT4DEV_OPT_CONFLICT;
	p->given[i] = ++p->count;
	return c;
}

const char *opts_name(const struct opts_spec *s, char *buf, size_t len)
{
	if (s->name)
		snprintf(buf, len, "--%s", s->name);
	else
		snprintf(buf, len, "-%c", s->val);
	return buf;
}

int opts_error(const struct opts_parser *p, int c, char **argv)
{
	const struct opts_spec *a, *b;
	char an[64], bn[64];

	if (c != EXT4DEV_OPT_CONFLICT)
		return report_bad_option(p->cmd, c, argv);
	a = opts_find(p->table, p->conflict[0]);
	b = opts_find(p->table, p->conflict[1]);
	return report_usage(p->cmd, "mutually exclusive arguments: %s %s",
			    opts_name(a, an, sizeof(an)),
			    opts_name(b, bn, sizeof(bn)));
}

size_t opts_label(const struct opts_spec *s, char *buf, size_t len)
{
	char letter[8] = "    ";
	int n;

	if (s->val < EXT4DEV_OPT_LONG)
		snprintf(letter, sizeof(letter), "-%c%s", s->val,
			 s->name ? ", " : "");
	n = snprintf(buf, len, "%s%s%s%s%s", letter, s->name ? "--" : "",
		     s->name ? s->name : "", s->arg ? " " : "",
		     s->arg ? s->arg : "");
	return n < 0 ? 0 : (size_t)n;
}

/* @help's lines, the later ones indented to the help column. */
static void print_wrapped(const char *help)
{
	for (;;) {
		size_t n = strcspn(help, "\n");

		printf("%.*s\n", (int)n, help);
		if (!help[n])
			return;
		help += n + 1;
		printf("%*s", EXT4DEV_OPTS_HELP_COLUMN, "");
	}
}

void opts_print_help(const struct opts_table *t)
{
	const struct opts_spec *s = t->specs;
	char label[128];

	for (int i = 0; i < EXT4DEV_OPTS_MAX && s[i].val; i++) {
		if (!s[i].help)
			continue;
		opts_label(&s[i], label, sizeof(label));
		printf(" %-*s ", EXT4DEV_OPTS_HELP_COLUMN - 2, label);
		print_wrapped(s[i].help);
	}
}
