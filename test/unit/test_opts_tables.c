// SPDX-License-Identifier: GPL-2.0
/*
 * Every command's options table (commands.c): well formed for opts.c,
 * and every option its --help lists is in the man page, in a section
 * about that command (or the common options).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "commands.h"
#include "opts.h"

/* Each table of the command table once (mark-test and -production share). */
static bool seen_before(const struct ext4dev_cmd *cmd)
{
	for (const struct ext4dev_cmd *c = ext4dev_commands; c != cmd; c++)
		if (c->opts == cmd->opts)
			return true;
	return false;
}

static void check_sets(const struct opts_table *t, const int *one,
		       const int *other)
{
	for (const int *v = one; *v; v++) {
		assert_non_null(opts_find(t, *v));
		for (const int *w = other; *w; w++)
			assert_int_not_equal(*v, *w);
	}
}

static size_t longest_line(const char *text)
{
	size_t most = 0;

	while (text && *text) {
		size_t n = strcspn(text, "\n");

		most = n > most ? n : most;
		text += n + (text[n] == '\n');
	}
	return most;
}

/* What opts.c counts on: letters, unique names, room in the layout. */
static void check_table(const struct opts_table *t)
{
	const struct opts_spec *s = t->specs;
	char label[128];
	int n = 0;

	for (; s[n].val; n++) {
		assert_true(n < EXT4DEV_OPTS_MAX);
		assert_true(s[n].val >= EXT4DEV_OPT_LONG ? s[n].name != NULL :
			    isalnum(s[n].val));
		assert_ptr_equal(opts_find(t, s[n].val), &s[n]);
		for (int i = 0; i < n; i++)
			assert_false(s[i].name && s[n].name &&
				     !strcmp(s[i].name, s[n].name));
		/* Two spaces at least between the label and the help. */
		assert_true(opts_label(&s[n], label, sizeof(label)) <=
			    EXT4DEV_OPTS_HELP_COLUMN - 3);
		/* ... and every line of the help within 80 columns. */
		assert_true(longest_line(s[n].help) <=
			    80 - EXT4DEV_OPTS_HELP_COLUMN);
	}
	for (const struct opts_excl *e = t->excl; e && e->one; e++) {
		check_sets(t, e->one, e->other);
		check_sets(t, e->other, e->one);
	}
}

static void test_every_table_is_well_formed(void **state)
{
	int ntables = 0;

	for (const struct ext4dev_cmd *c = ext4dev_commands; c->name; c++) {
		if (!c->opts || seen_before(c))
			continue;
		check_table(c->opts);
		ntables++;
	}
	/* show-flags, mark-*, mkfs, mount: the loop saw them. */
	assert_true(ntables >= 4);
}

static char *read_man(void)
{
	FILE *f = fopen(EXT4DEV_MAN_PAGE, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	assert_true(n > 0 && n < (1 << 20) - 1);
	fclose(f);
	return text;
}

/*
 * Is @line (after ".SH " or ".SS ") the heading of a section about
 * @cmd: "show\-flags options", "MKFS", "User mounts"?  Or the common
 * options every command has?
 */
static bool heading_covers(const char *line, const char *cmd)
{
	char plain[256];
	size_t n = 0;

	for (; *line && *line != '\n' && n + 1 < sizeof(plain); line++)
		if (*line != '"' && !(line[0] == '\\' && line[1] == '-'))
			plain[n++] = (char)tolower((unsigned char)*line);
	plain[n] = '\0';
	return strstr(plain, cmd) || !strcmp(plain, "common options");
}

/* @tok ("\\-\\-check") in @line as a whole option, not inside another. */
static bool has_token(const char *line, size_t len, const char *tok)
{
	size_t tl = strlen(tok);

	for (size_t i = 0; i + tl <= len; i++) {
		const char *after = line + i + tl;
		bool end = i + tl == len;

		if (strncmp(line + i, tok, tl))
			continue;
		if (i && (isalnum((unsigned char)line[i - 1]) ||
			  line[i - 1] == '-'))
			continue;
		if (!end && (isalnum((unsigned char)*after) || *after == '-' ||
			     (after[0] == '\\' && after[1] == '-')))
			continue;
		return true;
	}
	return false;
}

/* Does @opt ("--dry-run", "-n") appear in a section of @man on @cmd? */
static bool man_has(const char *man, const char *cmd, const char *opt)
{
	char tok[128];
	bool in = false;
	size_t n = 0;

	for (; *opt && n + 3 < sizeof(tok); opt++) {
		if (*opt == '-')
			tok[n++] = '\\';
		tok[n++] = *opt;
	}
	tok[n] = '\0';
	for (const char *l = man; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		size_t len = strcspn(l, "\n");

		if (!strncmp(l, ".SH ", 4) || !strncmp(l, ".SS ", 4))
			in = heading_covers(l + 4, cmd);
		else if (in && has_token(l, len, tok))
			return true;
	}
	return false;
}

static bool man_names(const char *man, const char *cmd, const char *opt)
{
	if (man_has(man, cmd, opt))
		return true;
	print_error("man page: %s has no %s\n", cmd, opt);
	return false;
}

/* How many of @t's listed options the man page leaves out for @cmd. */
static int missing_from_man(const char *man, const char *cmd,
			    const struct opts_table *t)
{
	char opt[64];
	int missing = 0;

	for (const struct opts_spec *s = t->specs; s->val; s++) {
		if (!s->help)
			continue;
		if (s->name)
			missing += !man_names(man, cmd, opts_name(s, opt,
								  sizeof(opt)));
		snprintf(opt, sizeof(opt), "-%c", s->val);
		if (s->val < EXT4DEV_OPT_LONG)
			missing += !man_names(man, cmd, opt);
	}
	return missing;
}

/* Every option --help lists, in the man page where its command is. */
static void test_man_page_has_every_option(void **state)
{
	char *man = read_man();
	int missing = 0;

	for (const struct ext4dev_cmd *c = ext4dev_commands; c->name; c++)
		if (c->opts)
			missing += missing_from_man(man, c->name, c->opts);
	free(man);
	assert_int_equal(missing, 0);
}

/* ... and the check would see one that is not. */
static void test_man_check_finds_a_missing_option(void **state)
{
	static const struct opts_spec ghost_specs[] = {
		{ 'c', "check", "<state>", "in show-flags" },
		{ 'Y', "no-such-option", NULL, "nowhere" },
		{ 'z', NULL, "<file>", NULL },
		{ 0 }
	};
	static const struct opts_table ghost = { ghost_specs, NULL, false };
	char *man = read_man();

	assert_true(man_has(man, "show-flags", "--check"));
	assert_true(man_has(man, "show-flags", "--wait"));
	assert_false(man_has(man, "show-flags", "--undo"));
	assert_false(man_has(man, "mkfs", "--check"));
	assert_false(man_has(man, "show-flags", "--che"));
	assert_int_equal(missing_from_man(man, "show-flags", &ghost), 2);
	free(man);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_table_is_well_formed),
		cmocka_unit_test(test_man_page_has_every_option),
		cmocka_unit_test(test_man_check_finds_a_missing_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
