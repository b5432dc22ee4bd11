// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mkfs_prof.h"

const char *mkfs_prof_size_type(unsigned long long blocks, int log)
{
	unsigned long long meg = (1024ULL * 1024) >> (10 + log);

	if (blocks < 3 * meg)
		return "floppy";
	if (blocks < 512 * meg)
		return "small";
	if (blocks < 4ULL * 1024 * 1024 * meg)
		return "default";
	if (blocks < 16ULL * 1024 * 1024 * meg)
		return "big";
	return "huge";
}

static void push(struct mkfs_prof *p, const char *type)
{
	if (p->ntypes < EXT4DEV_PROF_MAX_TYPES)
		p->types[p->ntypes++] = type;
	p->types[p->ntypes] = NULL;
}

static void note_unknown(struct mkfs_prof *p, const char *type)
{
	size_t used = strlen(p->unknown);

	snprintf(p->unknown + used, sizeof(p->unknown) - used, "%s%s",
		 used ? ", " : "", type);
}

/* -T's comma list: types the file defines join the list. */
static void push_usage(struct mkfs_prof *p)
{
	for (char *t = strtok(p->strings, ","); t; t = strtok(NULL, ",")) {
		if (mkfs_conf_has_sub(p->conf, "fs_types", t))
			push(p, t);
		else if (strcmp(t, "default"))
			note_unknown(p, t);
	}
}

errcode_t mkfs_prof_init(struct mkfs_prof *p, const struct mkfs_conf *conf,
			 const char *fs_type, const char *usage,
			 const char *size_type)
{
	bool dev = !fs_type || !strcmp(fs_type, "ext4dev");
	const char *ext = dev ? "ext4" : fs_type;

	memset(p, 0, sizeof(*p));
	p->conf = conf;
	p->strings = strdup(usage ? usage : size_type);
	if (!p->strings)
		return ENOMEM;
	push(p, ext);
	if (dev && mkfs_conf_has_sub(conf, "fs_types", "ext4dev"))
		push(p, "ext4dev");
	push_usage(p);
	if (strcmp(ext, "ext2") && !mkfs_conf_has_sub(conf, "fs_types", ext))
		return ENOENT;
	return 0;
}

void mkfs_prof_free(struct mkfs_prof *p)
{
	free(p->strings);
	p->strings = NULL;
}

/* The winning relation: the last type that sets @opt, else [defaults]. */
static const struct mkfs_conf_node *lookup(const struct mkfs_prof *p,
					   const char *opt)
{
	const struct mkfs_conf_node *n;

	for (int i = p->ntypes - 1; i >= 0; i--) {
		n = mkfs_conf_find(p->conf, "fs_types", p->types[i], opt);
		if (n)
			return n;
	}
	return mkfs_conf_find(p->conf, "defaults", NULL, opt);
}

const char *mkfs_prof_type_value(const struct mkfs_prof *p, int i,
				 const char *opt)
{
	const struct mkfs_conf_node *n;

	if (i < 0 || i >= p->ntypes)
		return NULL;
	n = mkfs_conf_find(p->conf, "fs_types", p->types[i], opt);
	return n ? n->value : NULL;
}

static errcode_t bad_value(struct mkfs_prof *p, const struct mkfs_conf_node *n,
			   const char *kind)
{
	p->err.file = p->conf->file;
	p->err.line = n->line;
	snprintf(p->err.why, sizeof(p->err.why), "'%s' is not %s: '%s'",
		 n->name, kind, n->value);
	return EINVAL;
}

errcode_t mkfs_prof_string(struct mkfs_prof *p, const char *opt,
			   const char *def, const char **out)
{
	const struct mkfs_conf_node *n = lookup(p, opt);

	*out = n ? n->value : def;
	return 0;
}

/* strtoll/strtoull with the profile library's rules: base 0, all used. */
static bool parse_ll(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return *s && !*end && !errno && *v >= lo && *v <= hi;
}

errcode_t mkfs_prof_int(struct mkfs_prof *p, const char *opt, int def,
			int *out)
{
	const struct mkfs_conf_node *n = lookup(p, opt);
	long long v;

	*out = def;
	if (!n)
		return 0;
	if (!parse_ll(n->value, INT_MIN, INT_MAX, &v))
		return bad_value(p, n, "an integer");
	*out = (int)v;
	return 0;
}

errcode_t mkfs_prof_uint(struct mkfs_prof *p, const char *opt,
			 unsigned int def, unsigned int *out)
{
	const struct mkfs_conf_node *n = lookup(p, opt);
	long long v;

	*out = def;
	if (!n)
		return 0;
	if (n->value[0] == '-' || !parse_ll(n->value, 0, UINT_MAX, &v))
		return bad_value(p, n, "an unsigned integer");
	*out = (unsigned int)v;
	return 0;
}

errcode_t mkfs_prof_double(struct mkfs_prof *p, const char *opt, double def,
			   double *out)
{
	const struct mkfs_conf_node *n = lookup(p, opt);
	char *end;
	double v;

	*out = def;
	if (!n)
		return 0;
	errno = 0;
	v = strtod(n->value, &end);
	if (!n->value[0] || *end || errno)
		return bad_value(p, n, "a number");
	*out = v;
	return 0;
}

errcode_t mkfs_prof_bool(struct mkfs_prof *p, const char *opt, bool def,
			 bool *out)
{
	static const char *const yes[] = { "y", "yes", "true", "t", "1", "on" };
	static const char *const no[] = { "n", "no", "false", "nil", "0",
					  "off" };
	const struct mkfs_conf_node *n = lookup(p, opt);

	*out = def;
	if (!n)
		return 0;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(n->value, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(n->value, no[i])) {
			*out = false;
			return 0;
		}
	}
	return bad_value(p, n, "a boolean");
}
