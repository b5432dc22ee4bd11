/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_PROF_H
#define EXT4DEV_MKFS_PROF_H

/*
 * mke2fs.conf as mke2fs consults it: a list of fs_types ("ext4", then
 * "ext4dev" when the file has that stanza, then the size or -T usage
 * types) in rising precedence; a value comes from the last type that
 * sets it, else from [defaults], else from mke2fs's built-in default.
 * A value of the wrong kind is an error naming its file and line (mke2fs
 * silently falls back to the default there).
 */

#include <stdbool.h>

#include "mkfs_conf.h"

#define EXT4DEV_PROF_MAX_TYPES 16

struct mkfs_prof {
	const struct mkfs_conf *conf;
	const char *types[EXT4DEV_PROF_MAX_TYPES + 1];	/* NULL-ended */
	int ntypes;
	char *strings;			/* storage for the usage types */
	char unknown[128];		/* -T types the file lacks, for a warning */
	struct mkfs_conf_err err;	/* the last bad value */
};

/* The size class mke2fs picks for @blocks blocks of 1024 << @log bytes. */
const char *mkfs_prof_size_type(unsigned long long blocks, int log);

/*
 * Build the fs_types list.  @fs_type is -t (NULL: "ext4"); "ext4dev"
 * means ext4 plus the ext4dev stanza.  @usage is -T (NULL: the size
 * type).  Returns 0, ENOENT when the file does not define @fs_type (and
 * it is not ext2), or ENOMEM.
 */
errcode_t mkfs_prof_init(struct mkfs_prof *p, const struct mkfs_conf *conf,
			 const char *fs_type, const char *usage,
			 const char *size_type);
void mkfs_prof_free(struct mkfs_prof *p);

/* Each returns 0 or EINVAL (p->err says where); *out is always set. */
errcode_t mkfs_prof_string(struct mkfs_prof *p, const char *opt,
			   const char *def, const char **out);
errcode_t mkfs_prof_int(struct mkfs_prof *p, const char *opt, int def,
			int *out);
errcode_t mkfs_prof_uint(struct mkfs_prof *p, const char *opt,
			 unsigned int def, unsigned int *out);
errcode_t mkfs_prof_double(struct mkfs_prof *p, const char *opt, double def,
			   double *out);
errcode_t mkfs_prof_bool(struct mkfs_prof *p, const char *opt, bool def,
			 bool *out);

/* The "features" or "options" relation of one fs_type, or NULL. */
const char *mkfs_prof_type_value(const struct mkfs_prof *p, int i,
				 const char *opt);

#endif
