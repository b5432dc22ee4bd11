// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the mke2fs.conf parser and the profile lookups mkfs
 * makes on top of it.
 *
 * The input is a conf file.  It is parsed twice, as text and as a stream
 * (fmemopen), and the two must agree: same error, same line, same tree.
 * A file that parses is then consulted the way mkfs consults it, for
 * each -t type with and without a -T usage type.  An error must name a
 * line inside the file and carry a NUL-terminated reason.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkfs_conf.h"
#include "mkfs_prof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
	if (!ok)
		abort();
}

static int lines_in(const char *text)
{
	int n = 1;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static bool same_tree(const struct mkfs_conf_node *a,
		      const struct mkfs_conf_node *b)
{
	for (; a && b; a = a->next, b = b->next) {
		if (strcmp(a->name ? a->name : "", b->name ? b->name : "") ||
		    !a->value != !b->value ||
		    (a->value && strcmp(a->value, b->value)) ||
		    a->line != b->line || !same_tree(a->child, b->child))
			return false;
	}
	return !a && !b;
}

static void consult(const struct mkfs_conf *conf)
{
	static const char *const types[] = { NULL, "ext2", "ext3", "ext4",
					     "ext4dev", "hurd" };
	static const char *const usages[] = { NULL, "news,largefile",
					      "small", "floppy" };
	const char *s;
	unsigned int u;
	double d;
	bool b;
	int n;

	for (size_t t = 0; t < sizeof(types) / sizeof(*types); t++) {
		for (size_t u_i = 0; u_i < sizeof(usages) / sizeof(*usages);
		     u_i++) {
			struct mkfs_prof p;
			errcode_t err;

			/* ENOENT: no such fs_type, which mkfs -F goes on
			 * with; either way mkfs frees the profile. */
			err = mkfs_prof_init(&p, conf, types[t], usages[u_i],
					     "default");
			if (err && err != ENOENT) {
				mkfs_prof_free(&p);
				continue;
			}
			mkfs_prof_string(&p, "base_features", "", &s);
			check(!!s);
			mkfs_prof_string(&p, "default_mntopts", "acl", &s);
			mkfs_prof_int(&p, "blocksize", 4096, &n);
			mkfs_prof_uint(&p, "inode_size", 256, &u);
			mkfs_prof_double(&p, "reserved_ratio", 5.0, &d);
			mkfs_prof_bool(&p, "lazy_itable_init", true, &b);
			for (int i = 0; i < p.ntypes; i++) {
				mkfs_prof_type_value(&p, i, "features");
				mkfs_prof_type_value(&p, i, "options");
			}
			mkfs_prof_free(&p);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mkfs_conf a, b;
	errcode_t ea, eb;
	char *text;
	FILE *f;

	/* The stream reader stops at no NUL, the text one at the first. */
	if (memchr(data, '\0', size))
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	f = fmemopen(text, size, "r");
	if (!f) {
		free(text);
		return 0;
	}
	ea = mkfs_conf_parse_text(&a, "fuzz.conf", text);
	eb = mkfs_conf_parse_file(&b, "fuzz.conf", f);
	fclose(f);
	check(ea == eb);
	if (ea) {
		check(a.err.line == b.err.line);
		check(a.err.line >= 0 && a.err.line <= lines_in(text));
		check(!!memchr(a.err.why, 0, sizeof(a.err.why)));
	} else {
		check(same_tree(a.root.child, b.root.child));
		consult(&a);
	}
	mkfs_conf_free(&a);
	mkfs_conf_free(&b);
	free(text);
	return 0;
}
