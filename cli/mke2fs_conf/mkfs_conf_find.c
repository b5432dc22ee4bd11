// SPDX-License-Identifier: GPL-2.0
/*
 * Look-ups in a parsed mke2fs.conf: a relation in a section or in one
 * of its subsections, in file order, across sections of the same name.
 */
#include <string.h>

#include "mkfs_conf.h"

/* First relation @name in @n, in file order. */
static const struct mkfs_conf_node *find_rel(const struct mkfs_conf_node *n,
					     const char *name)
{
	for (const struct mkfs_conf_node *c = n->child; c; c = c->next)
		if (c->value && !strcmp(c->name, name))
			return c;
	return NULL;
}

const struct mkfs_conf_node *mkfs_conf_find(const struct mkfs_conf *conf,
					    const char *section,
					    const char *sub, const char *name)
{
	const struct mkfs_conf_node *s, *ss, *hit;

	for (s = conf->root.child; s; s = s->next) {
		if (s->value || strcmp(s->name, section))
			continue;
		if (!sub) {
			hit = find_rel(s, name);
			if (hit)
				return hit;
			continue;
		}
		/* A subsection may be written twice: search both. */
		for (ss = s->child; ss; ss = ss->next) {
			if (ss->value || strcmp(ss->name, sub))
				continue;
			hit = find_rel(ss, name);
			if (hit)
				return hit;
		}
	}
	return NULL;
}

static bool has_relation(const struct mkfs_conf_node *n)
{
	for (const struct mkfs_conf_node *c = n->child; c; c = c->next)
		if (c->value)
			return true;
	return false;
}

bool mkfs_conf_has_sub(const struct mkfs_conf *conf, const char *section,
		       const char *sub)
{
	const struct mkfs_conf_node *s, *ss;

	for (s = conf->root.child; s; s = s->next) {
		if (s->value || strcmp(s->name, section))
			continue;
		for (ss = s->child; ss; ss = ss->next)
			if (!ss->value && !strcmp(ss->name, sub) &&
			    has_relation(ss))
				return true;
	}
	return false;
}
