// SPDX-License-Identifier: GPL-2.0
/*
 * The small things every mkfs stage spells the same way: the keyword
 * tables that both the parsers and the setup read (error behaviours,
 * UUID keywords, quota types), the one whole-number parser, the one
 * "key=value,..." tokenizer, sizes with units, log2 of a power of two,
 * and -J's few keywords.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <e2p/e2p.h>

#include "mkfs.h"
#include "report.h"

/* -e and mke2fs.conf's "errors": mke2fs's names. */
static const struct mkfs_errors_entry errors_table[] = {
	{ "continue", EXT2_ERRORS_CONTINUE },
	{ "remount-ro", EXT2_ERRORS_RO },
	{ "panic", EXT2_ERRORS_PANIC },
	{ NULL, 0 },
};

/* -U's words; anything else must be a UUID. */
static const struct mkfs_uuid_entry uuid_table[] = {
	{ "clear", uuid_clear },
	{ "null", uuid_clear },
	{ "random", uuid_generate },
	{ "time", uuid_generate_time },
	{ NULL, NULL },
};

/* quotatype=: each type by both its names. */
static const char *const quota_table[][2] = {
	{ "usr", "usrquota" }, { "grp", "grpquota" }, { "prj", "prjquota" },
};

int mkfs_errors_by_name(const char *name)
{
	for (const struct mkfs_errors_entry *e = errors_table; e->name; e++)
		if (!strcmp(e->name, name))
			return e->behaviour;
	return 0;
}

const struct mkfs_uuid_entry *mkfs_uuid_by_name(const char *name)
{
	for (const struct mkfs_uuid_entry *e = uuid_table; e->name; e++)
		if (!strcasecmp(e->name, name))
			return e;
	return NULL;
}

const char *mkfs_parse_quota_types(const char *list, unsigned int *bits,
				   int *len)
{
	const char *p = list;

	*bits = 0;
	while (*p) {
		size_t n = strcspn(p, ":,");
		bool not = *p == '^';
		int t;

		for (t = 0; t < 3; t++)
			if ((n - not == strlen(quota_table[t][0]) &&
			     !strncmp(p + not, quota_table[t][0], n - not)) ||
			    (n - not == strlen(quota_table[t][1]) &&
			     !strncmp(p + not, quota_table[t][1], n - not)))
				break;
		if (t == 3) {
			*len = (int)n;
			return p;
		}
		*bits = not ? *bits & ~(1U << t) : *bits | 1U << t;
		p += n + (p[n] != '\0');
	}
	return NULL;
}

bool mkfs_parse_ulong(const char *arg, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(arg, &end, 0);
	return *arg && !*end && !errno && arg[0] != '-';
}

char *mkfs_next_token(char **cursor, char **arg)
{
	char *tok = *cursor, *next;

	if (!tok || !*tok)
		return NULL;
	next = strchr(tok, ',');
	if (next)
		*next++ = '\0';
	*cursor = next;
	*arg = strchr(tok, '=');
	if (*arg)
		*(*arg)++ = '\0';
	return tok;
}

unsigned long long mkfs_parse_num(const char *arg, int log_block_size)
{
	if (!arg || arg[0] < '0' || arg[0] > '9')
		return 0;
	return parse_num_blocks2(arg, log_block_size);
}

int mkfs_log2(unsigned long long v)
{
	int l = 0;

	while (v >>= 1)
		l++;
	return l;
}

/* -J size= (MiB) and fast_commit_size= (KiB). */
static int journal_size(struct mkfs_opts *o, const char *key,
			const char *arg)
{
	unsigned long v;

	if (!arg)
		return report_usage(EXT4DEV_MKFS_CMD, "-J: '%s' needs a "
				    "value", key);
	if (!mkfs_parse_ulong(arg, &v))
		return report_usage(EXT4DEV_MKFS_CMD, "-J: invalid %s '%s'",
				    key, arg);
	if (v > 0x7fffffffUL / 1024)
		return report_usage(EXT4DEV_MKFS_CMD, "-J %s=%s is too large",
				    key, arg);
	if (key[0] == 's')
		o->journal_size = (int)v;
	else
		o->journal_fc_size = (int)v;
	return EXT4DEV_CONTINUE;
}

static int journal_one(struct mkfs_opts *o, const char *key, const char *arg)
{
	if (!strcmp(key, "size") || !strcmp(key, "fast_commit_size"))
		return journal_size(o, key, arg);
	if (!strcmp(key, "location")) {
		if (!arg)
			return report_usage(EXT4DEV_MKFS_CMD, "-J location "
					    "needs a value");
		o->journal_location = arg;
		return EXT4DEV_CONTINUE;
	}
	if (!strcmp(key, "device") || !strcmp(key, "v1_superblock"))
		return report_usage(EXT4DEV_MKFS_CMD, "mke2fs journal option "
				    "'%s' is not supported by ext4dev mkfs",
				    key);
	return report_usage(EXT4DEV_MKFS_CMD, "unknown journal option '%s'",
			    key);
}

/* -J size=,fast_commit_size=,location=; keeps pointers into @opts. */
int mkfs_parse_journal_opts(struct mkfs_opts *o, char *opts)
{
	char *cursor = opts, *tok, *arg;
	int rc = EXT4DEV_CONTINUE;

	while (rc == EXT4DEV_CONTINUE &&
	       (tok = mkfs_next_token(&cursor, &arg)))
		rc = journal_one(o, tok, arg);
	return rc;
}
