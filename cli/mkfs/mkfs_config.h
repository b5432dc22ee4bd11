/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_CONFIG_H
#define EXT4DEV_MKFS_CONFIG_H

/*
 * The configuration stage's result: mke2fs.conf resolved once, for the
 * fs type and usage types of this run, into one plain struct of
 * effective settings.  The decision stages read its fields; none of
 * them calls back into the profile reader (cli/mke2fs_conf/).
 *
 * A value of the wrong kind is an error only when a stage uses it, as
 * before, so each setting keeps where it came from (file, line, why).
 */

#include <stdbool.h>

#include "mkfs_conf.h"
#include "mkfs_prof.h"

struct mkfs_setting {
	const char *text;		/* as written; NULL: not in the file */
	bool bad;			/* not of its kind: @err says where */
	long long num;			/* int, uint and bool (0/1) values */
	double real;			/* double values */
	struct mkfs_conf_err err;
};

struct mkfs_config {
	const char *file;		/* the conf's name, for messages */
	/* fs_types in rising precedence, each one's features and options. */
	const char *types[EXT4DEV_PROF_MAX_TYPES + 1];
	const char *type_features[EXT4DEV_PROF_MAX_TYPES];
	const char *type_options[EXT4DEV_PROF_MAX_TYPES];
	int ntypes;
	const char *unknown_types;	/* -T types the file lacks, or "" */

	struct mkfs_setting base_features, default_features, default_mntopts;
	struct mkfs_setting blocksize, cluster_size, inode_ratio, inode_size;
	struct mkfs_setting reserved_ratio, flex_bg_size, num_backup_sb;
	struct mkfs_setting auto_64bit, lazy_itable_init, discard;
	struct mkfs_setting lazy_journal_init, packed_meta_blocks;
	struct mkfs_setting make_hugefiles, warn_y2038_dates;
	struct mkfs_setting enable_periodic_fsck, journal_location;
	struct mkfs_setting encoding, hash_alg, errors;

	/* The reader's data the strings above point into. */
	struct mkfs_conf conf;
	struct mkfs_prof prof;
};

struct mkfs_opts;
struct mkfs_plan;

/* Read $MKE2FS_CONFIG or /etc/mke2fs.conf (mke2fs's defaults if none). */
int mkfs_config_load(struct mkfs_config *cfg);
/*
 * The fs_types list for this run ([devices], -t, -T, the size class)
 * and every setting, resolved along it.
 */
int mkfs_configure(const struct mkfs_opts *o, const struct mkfs_plan *plan,
		   struct mkfs_config *cfg);
void mkfs_config_free(struct mkfs_config *cfg);

/*
 * A setting's value, or @def when the file does not give it; each
 * returns EXT4DEV_CONTINUE, or reports a value of the wrong kind and
 * returns 8 (*out is then @def).
 */
int mkfs_cfg_int(const struct mkfs_setting *s, int def, int *out);
int mkfs_cfg_uint(const struct mkfs_setting *s, unsigned int def,
		  unsigned int *out);
int mkfs_cfg_double(const struct mkfs_setting *s, double def, double *out);
int mkfs_cfg_bool(const struct mkfs_setting *s, bool def, bool *out);
/* A string setting cannot be of the wrong kind. */
const char *mkfs_cfg_str(const struct mkfs_setting *s, const char *def);

#endif
