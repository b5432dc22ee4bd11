// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration stage: load mke2fs.conf, pick the fs_types list the
 * way mke2fs does ([devices] stanza, -t, "ext4dev" when the file has
 * it, -T or the size class) and resolve every setting mkfs uses along
 * that list, once, into struct mkfs_config.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mkfs.h"
#include "mkfs_config.h"
#include "report.h"

enum cfg_kind { CFG_STRING, CFG_INT, CFG_UINT, CFG_DOUBLE, CFG_BOOL };

/* Every relation mkfs reads, its kind, and where it goes. */
static const struct cfg_key {
	const char *name;
	enum cfg_kind kind;
	size_t off;
} cfg_keys[] = {
#define KEY(name, kind, field) \
	{ name, kind, offsetof(struct mkfs_config, field) }
	KEY("base_features", CFG_STRING, base_features),
	KEY("default_features", CFG_STRING, default_features),
	KEY("default_mntopts", CFG_STRING, default_mntopts),
	KEY("blocksize", CFG_INT, blocksize),
	KEY("cluster_size", CFG_INT, cluster_size),
	KEY("inode_ratio", CFG_INT, inode_ratio),
	KEY("inode_size", CFG_INT, inode_size),
	KEY("reserved_ratio", CFG_DOUBLE, reserved_ratio),
	KEY("flex_bg_size", CFG_UINT, flex_bg_size),
	KEY("num_backup_sb", CFG_INT, num_backup_sb),
	KEY("auto_64-bit_support", CFG_BOOL, auto_64bit),
	KEY("lazy_itable_init", CFG_BOOL, lazy_itable_init),
	KEY("discard", CFG_BOOL, discard),
	KEY("lazy_journal_init", CFG_BOOL, lazy_journal_init),
	KEY("packed_meta_blocks", CFG_BOOL, packed_meta_blocks),
	KEY("make_hugefiles", CFG_BOOL, make_hugefiles),
	KEY("warn_y2038_dates", CFG_BOOL, warn_y2038_dates),
	KEY("enable_periodic_fsck", CFG_BOOL, enable_periodic_fsck),
	KEY("journal_location", CFG_STRING, journal_location),
	KEY("encoding", CFG_STRING, encoding),
	KEY("hash_alg", CFG_STRING, hash_alg),
	KEY("errors", CFG_STRING, errors),
#undef KEY
};

int mkfs_config_load(struct mkfs_config *cfg)
{
	errcode_t err;

	memset(cfg, 0, sizeof(*cfg));
	err = mkfs_conf_load(&cfg->conf);
	cfg->file = cfg->conf.file;
	if (err == EINVAL || (err && cfg->conf.err.file))
		return mkfs_conf_error(&cfg->conf.err);
	if (err)
		return report_failure("mke2fs.conf: %s", error_message(err));
	return EXT4DEV_CONTINUE;
}

void mkfs_config_free(struct mkfs_config *cfg)
{
	mkfs_prof_free(&cfg->prof);
	mkfs_conf_free(&cfg->conf);
}

/* One setting along the list, parsed by the profile's own rules. */
static void resolve(struct mkfs_prof *p, const struct cfg_key *k,
		    struct mkfs_setting *s)
{
	unsigned int u = 0;
	errcode_t err = 0;
	bool b = false;
	int i = 0;

	mkfs_prof_string(p, k->name, NULL, &s->text);
	if (!s->text)
		return;
	switch (k->kind) {
	case CFG_INT:
		err = mkfs_prof_int(p, k->name, 0, &i);
		s->num = i;
		break;
	case CFG_UINT:
		err = mkfs_prof_uint(p, k->name, 0, &u);
		s->num = u;
		break;
	case CFG_DOUBLE:
		err = mkfs_prof_double(p, k->name, 0, &s->real);
		break;
	case CFG_BOOL:
		err = mkfs_prof_bool(p, k->name, false, &b);
		s->num = b;
		break;
	case CFG_STRING:
		break;
	}
	if (err) {
		s->bad = true;
		s->err = p->err;
	}
}

/* -t and -T, unless given, from the [devices] stanza for this device. */
static int pick_types(const struct mkfs_opts *o, const struct mkfs_plan *plan,
		      struct mkfs_config *cfg)
{
	const struct mkfs_conf_node *n;
	const char *type = o->fs_type, *usage = o->usage_types;
	errcode_t err;

	n = mkfs_conf_find(&cfg->conf, "devices", plan->device, "fs_type");
	if (!type && n)
		type = n->value;
	n = mkfs_conf_find(&cfg->conf, "devices", plan->device,
			   "usage_types");
	if (!usage && n)
		usage = n->value;
	err = mkfs_prof_init(&cfg->prof, &cfg->conf, type, usage,
			     mkfs_prof_size_type(plan->fs_blocks, (int)
						 plan->param.s_log_block_size));
	if (err == ENOENT && !o->force)
		return report_failure("'%s' does not define the filesystem "
				      "type '%s' (-F to go on without it)",
				      cfg->file, cfg->prof.types[0]);
	if (err && err != ENOENT)
		return report_failure("%s", error_message(err));
	if (cfg->prof.unknown[0])
		report_warn(cfg->file, "does not define the usage type(s) %s",
			    cfg->prof.unknown);
	return EXT4DEV_CONTINUE;
}

int mkfs_configure(const struct mkfs_opts *o, const struct mkfs_plan *plan,
		   struct mkfs_config *cfg)
{
	struct mkfs_prof *p = &cfg->prof;
	int rc = pick_types(o, plan, cfg);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	cfg->ntypes = p->ntypes;
	for (int i = 0; i < p->ntypes; i++) {
		cfg->types[i] = p->types[i];
		cfg->type_features[i] = mkfs_prof_type_value(p, i, "features");
		cfg->type_options[i] = mkfs_prof_type_value(p, i, "options");
	}
	cfg->types[p->ntypes] = NULL;
	cfg->unknown_types = p->unknown;
	for (size_t i = 0; i < sizeof(cfg_keys) / sizeof(cfg_keys[0]); i++)
		resolve(p, &cfg_keys[i], (struct mkfs_setting *)
			((char *)cfg + cfg_keys[i].off));
	if (o->verbose) {
		printf("fs_types for mke2fs.conf resolution: ");
		for (int i = 0; i < cfg->ntypes; i++)
			printf("'%s'%s", cfg->types[i],
			       i + 1 < cfg->ntypes ? ", " : "\n");
	}
	return EXT4DEV_CONTINUE;
}

static int bad_setting(const struct mkfs_setting *s)
{
	return mkfs_conf_error(&s->err);
}

int mkfs_cfg_int(const struct mkfs_setting *s, int def, int *out)
{
	*out = s->text && !s->bad ? (int)s->num : def;
	return s->bad ? bad_setting(s) : EXT4DEV_CONTINUE;
}

int mkfs_cfg_uint(const struct mkfs_setting *s, unsigned int def,
		  unsigned int *out)
{
	*out = s->text && !s->bad ? (unsigned int)s->num : def;
	return s->bad ? bad_setting(s) : EXT4DEV_CONTINUE;
}

int mkfs_cfg_double(const struct mkfs_setting *s, double def, double *out)
{
	*out = s->text && !s->bad ? s->real : def;
	return s->bad ? bad_setting(s) : EXT4DEV_CONTINUE;
}

int mkfs_cfg_bool(const struct mkfs_setting *s, bool def, bool *out)
{
	*out = s->text && !s->bad ? s->num != 0 : def;
	return s->bad ? bad_setting(s) : EXT4DEV_CONTINUE;
}

const char *mkfs_cfg_str(const struct mkfs_setting *s, const char *def)
{
	return s->text ? s->text : def;
}
