/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_H
#define EXT4DEV_MKFS_H

/*
 * ext4dev mkfs: what the stages hand each other.  mkfs_pipeline() in
 * cmd_mkfs.c runs them in order (README.md in this folder lists them):
 * the options stage fills struct mkfs_opts, the configuration stage
 * struct mkfs_config (mkfs_config.h), the decision stages struct
 * mkfs_plan, and the writing stages struct mkfs_run (mkfs_run.h).
 * Each stage reads the earlier ones' structs as const, prints its own
 * errors (report.h) and returns EXT4DEV_CONTINUE to go on, or the exit
 * code to stop with.
 */

#include <stdbool.h>

#include <ext2fs/ext2fs.h>
#include <uuid/uuid.h>

#include "mkfs_conf.h"

#define EXT4DEV_MKFS_CMD "mkfs"

struct mkfs_config;		/* mkfs_config.h */

/* Tri-state for settings the conf file may also give. */
enum { EXT4DEV_UNSET = -1 };

/* A stage's "go on to the next stage"; any other value is an exit code. */
enum { EXT4DEV_CONTINUE = -1 };

/* The largest count that fits a 32-bit superblock field. */
#define EXT4DEV_MAX_32 0xffffffffULL

/* What the user asked: the command line, untouched after parsing. */
struct mkfs_opts {
	const char *device;		/* as typed: path, LABEL=, UUID= */
	const char *size_arg;		/* SIZE, or NULL */
	blk64_t fs_blocks;		/* SIZE: -b blocks, else KiB; 0 unset */
	int blocksize;			/* -b: bytes, < 0 a minimum, 0 unset */
	int cluster_size;		/* -C, 0 unset */
	int inode_ratio;		/* -i, 0 unset */
	unsigned int inode_size;	/* -I, 0 unset */
	unsigned long long num_inodes;	/* -N, 0 unset */
	double reserved_ratio;		/* -m, < 0 unset */
	const char *label;		/* -L */
	const char *uuid;		/* -U */
	const char *mount_dir;		/* -M */
	const char *root_dir;		/* -d: the tree to copy in */
	char *features;			/* every -O, joined with ',' */
	const char *ext_opts;		/* the last -E, as in mke2fs */
	const char *fs_type;		/* -t */
	const char *usage_types;	/* -T */
	unsigned int blocks_per_group;	/* -g */
	unsigned long flex_bg_size;	/* -G */
	int errors_behavior;		/* -e, 0 unset */
	bool force, quiet, noaction, verbose, production;
	int wait_secs;			/* --wait, -1 for ever */
	/* -J, and -j (-1: the default size). */
	int journal_size;		/* MiB */
	int journal_fc_size;		/* KiB */
	const char *journal_location;
};

/* What was decided, from the options, the configuration and the device. */
struct mkfs_plan {
	const char *device;		/* the resolved path */

	/* What the device is. */
	bool dev_exists, dev_is_blk;
	bool dev_all_holes;		/* an image file never written to */
	blk64_t dev_size;		/* in blocks of 1024 << param.log */
	unsigned int sector_size, phys_sector_size;
	unsigned int sys_page_size;

	/* The decisions. */
	int blocksize;			/* bytes, once the geometry is known */
	int inode_ratio;
	unsigned int inode_size;
	double reserved_ratio;
	blk64_t fs_blocks;
	blk64_t journal_blk_loc;	/* ~0: libext2fs picks */

	/* -E keywords (and their conf defaults) kept outside the superblock. */
	int lazy_itable_init;		/* EXT4DEV_UNSET, 0 or 1 */
	int lazy_journal_init;
	int discard;
	int packed_meta_blocks;
	int num_backups;
	int assume_prezeroed;
	bool root_owner_set;
	unsigned int root_uid, root_gid;
	blk64_t orphan_file_blocks;
	bool hash_seed_set;
	unsigned int quota_types;	/* 1 << 0 usr, 1 grp, 2 prj */
	__u64 offset;			/* -E offset=: bytes before the fs */

	struct ext2_super_block param;	/* what ext2fs_initialize() gets */
};

/* mkfs_opts.c: the options stage. */
void mkfs_opts_init(struct mkfs_opts *o);
void mkfs_opts_free(struct mkfs_opts *o);
/* EXT4DEV_CONTINUE, or an exit code (16, or 0 after --help/-V). */
int mkfs_parse_args(struct mkfs_opts *o, int argc, char **argv);

/* mkfs_populate.c: -d's DIR is a readable directory (before writing). */
int mkfs_check_root_dir(const struct mkfs_opts *o);

/* mkfs_ext.c: -E keywords into @plan; @where names the source. */
int mkfs_parse_ext_opts(struct mkfs_plan *plan, const char *opts,
			const char *where);
/* The -E keywords and their help, for --help. */
void mkfs_print_ext_help(void);

/* mkfs_keys.c: the tables and parsers every stage shares. */
struct mkfs_errors_entry {
	const char *name;		/* as -e and mke2fs.conf spell it */
	int behaviour;			/* EXT2_ERRORS_* */
};

struct mkfs_uuid_entry {
	const char *name;		/* -U's keyword, any case */
	void (*make)(uuid_t out);	/* what it writes */
};

/* EXT2_ERRORS_* for @name, or 0 when it is none of them. */
int mkfs_errors_by_name(const char *name);
/* -U's keyword @name ("clear", "random", ...), or NULL. */
const struct mkfs_uuid_entry *mkfs_uuid_by_name(const char *name);
/*
 * quotatype=usr:grp:prj (',' also separates, ^type removes one): the
 * bits (1 usr, 2 grp, 4 prj), and NULL; or the type it does not know
 * and its length in *@len.
 */
const char *mkfs_parse_quota_types(const char *list, unsigned int *bits,
				   int *len);
/* A whole unsigned number in C notation, nothing after it. */
bool mkfs_parse_ulong(const char *arg, unsigned long *out);
/*
 * The next "key" or "key=value" of a ',' list at *@cursor, cut in place;
 * *@arg is the value or NULL.  NULL at the end of the list.
 */
char *mkfs_next_token(char **cursor, char **arg);
/* SIZE, -b, -C and -E size values: blocks, or bytes with K/M/G/T/s. */
unsigned long long mkfs_parse_num(const char *arg, int log_block_size);
/* log2 of a power of two (0 for 0 and 1). */
int mkfs_log2(unsigned long long v);
/* -J size=,fast_commit_size=,location=; keeps pointers into @opts. */
int mkfs_parse_journal_opts(struct mkfs_opts *o, char *opts);

/*
 * mkfs_geom.c: the device stage (what the target is, its size), then
 * the geometry stage (features, block size and count).
 */
struct fsio_dev;
void mkfs_plan_init(struct mkfs_plan *plan, const struct mkfs_opts *o);
int mkfs_probe_device(const struct mkfs_opts *o, const struct fsio_dev *dev,
		      struct mkfs_plan *plan);
int mkfs_device_size(const struct mkfs_opts *o, struct mkfs_plan *plan);
int mkfs_geometry(const struct mkfs_opts *o, const struct mkfs_config *cfg,
		  struct mkfs_plan *plan);

/* mkfs_param.c: every other superblock parameter, -E included. */
int mkfs_params(const struct mkfs_opts *o, const struct mkfs_config *cfg,
		struct mkfs_plan *plan);

/* mkfs_show.c: the summary, the step lines and the shared errors. */
void mkfs_show_stats(const struct mkfs_opts *o, const struct mkfs_plan *plan,
		     ext2_filsys fs);
void mkfs_step(const struct mkfs_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "ext4dev: 'FILE': line N: why"; returns 8. */
int mkfs_conf_error(const struct mkfs_conf_err *err);

#endif
