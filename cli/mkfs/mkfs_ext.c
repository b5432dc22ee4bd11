// SPDX-License-Identifier: GPL-2.0
/*
 * -E extended options and -J journal options, with mke2fs's keywords and
 * meaning.  -E is applied where mke2fs applies it: after the block size
 * and features are known (resize= and desc_size= depend on them), after
 * the "options" relations of mke2fs.conf's fs_types.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <e2p/e2p.h>
#include <uuid/uuid.h>

#include "exitcodes.h"
#include "flags.h"
#include "mkfs.h"
#include "report.h"

/* Where an option came from: the command line, or the conf file. */
struct ext_src {
	struct mkfs_ctl *ctl;
	const char *where;		/* NULL for -E */
};

static int bad(const struct ext_src *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct ext_src *src, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!src->where)
		return report_usage(EXT4DEV_MKFS_CMD, "-E: %s", msg);
	return report_failure("%s: %s", src->where, msg);
}

unsigned long long mkfs_parse_num(const char *arg, int log_block_size)
{
	if (!arg || arg[0] < '0' || arg[0] > '9')
		return 0;
	return parse_num_blocks2(arg, log_block_size);
}

/* A whole number for keyword @key, or an error. */
static int number(const struct ext_src *src, const char *key,
		  const char *arg, unsigned long *out)
{
	char *end;

	if (!arg)
		return bad(src, "'%s' needs a value", key);
	errno = 0;
	*out = strtoul(arg, &end, 0);
	if (!*arg || *end || errno || arg[0] == '-')
		return bad(src, "invalid %s '%s'", key, arg);
	return EXT4DEV_CONTINUE;
}

/* "key" alone means 1, "key=N" means N (lazy_itable_init and kin). */
static int onoff(const struct ext_src *src, const char *key, const char *arg,
		 int *out)
{
	unsigned long v = 1;
	int rc = arg ? number(src, key, arg, &v) : EXT4DEV_CONTINUE;

	*out = v != 0;
	return rc;
}

static int set_resize(const struct ext_src *src, const char *arg)
{
	struct ext2_super_block *p = &src->ctl->param;
	unsigned long long max, bpg, groups, gdpb, desc_blocks;
	long long rsv;

	max = arg ? mkfs_parse_num(arg, (int)p->s_log_block_size) : 0;
	if (!max)
		return bad(src, "invalid resize '%s'", arg ? arg : "");
	if (max <= ext2fs_blocks_count(p))
		return report_failure("'%s': -E resize=%s must be larger "
				      "than the filesystem (%llu blocks)",
				      src->ctl->device, arg,
				      (unsigned long long)
				      ext2fs_blocks_count(p));
	bpg = p->s_blocks_per_group ? p->s_blocks_per_group :
				      EXT2_BLOCK_SIZE(p) * 8ULL;
	gdpb = EXT2_DESC_PER_BLOCK(p);
	groups = (ext2fs_blocks_count(p) + bpg - 1) / bpg;
	desc_blocks = (groups + gdpb - 1) / gdpb;
	rsv = (long long)(((max + bpg - 1) / bpg + gdpb - 1) / gdpb) -
	      (long long)desc_blocks;
	if (rsv > (long long)EXT2_ADDR_PER_BLOCK(p))
		rsv = (long long)EXT2_ADDR_PER_BLOCK(p);
	if (rsv > 0) {
		ext2fs_set_feature_resize_inode(p);
		p->s_reserved_gdt_blocks = (__u16)rsv;
	}
	return EXT4DEV_CONTINUE;
}

static int set_desc_size(const struct ext_src *src, const char *key,
			 const char *arg)
{
	struct ext2_super_block *p = &src->ctl->param;
	unsigned long v;
	int rc;

	if (!ext2fs_has_feature_64bit(p))
		return bad(src, "%s requires '-O 64bit'", key);
	if (p->s_reserved_gdt_blocks)
		return bad(src, "%s must come before resize=", key);
	rc = number(src, key, arg, &v);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (v & (v - 1) || v < EXT2_MIN_DESC_SIZE_64BIT ||
	    v > EXT2_MAX_DESC_SIZE)
		return bad(src, "invalid %s '%s'", key, arg);
	p->s_desc_size = (__u16)v;
	return EXT4DEV_CONTINUE;
}

static int set_root_owner(const struct ext_src *src, const char *arg)
{
	struct mkfs_ctl *ctl = src->ctl;
	char *end;

	ctl->root_owner_set = true;
	if (!arg) {
		ctl->root_uid = getuid();
		ctl->root_gid = getgid();
		return EXT4DEV_CONTINUE;
	}
	ctl->root_uid = (unsigned int)strtoul(arg, &end, 0);
	if (end == arg || *end != ':')
		return bad(src, "invalid root_owner '%s' (uid:gid)", arg);
	arg = end + 1;
	ctl->root_gid = (unsigned int)strtoul(arg, &end, 0);
	if (end == arg || *end)
		return bad(src, "invalid root_owner '%s' (uid:gid)", arg);
	return EXT4DEV_CONTINUE;
}

static int set_encoding(const struct ext_src *src, const char *arg)
{
	int enc = arg ? e2p_str2encoding(arg) : -1;

	if (enc < 0)
		return bad(src, "invalid encoding '%s'", arg ? arg : "");
	src->ctl->param.s_encoding = (__u16)enc;
	src->ctl->param.s_encoding_flags = (__u16)e2p_get_encoding_flags(enc);
	ext2fs_set_feature_casefold(&src->ctl->param);
	return EXT4DEV_CONTINUE;
}

static int set_number_key(const struct ext_src *src, const char *key,
			  const char *arg)
{
	struct mkfs_ctl *ctl = src->ctl;
	unsigned long v;
	int rc = number(src, key, arg, &v);

	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (!strcmp(key, "stride"))
		ctl->param.s_raid_stride = (__u16)v;
	else if (!strcmp(key, "stripe_width") || !strcmp(key, "stripe-width"))
		ctl->param.s_raid_stripe_width = (__u32)v;
	else if (!strcmp(key, "mmp_update_interval"))
		ctl->param.s_mmp_update_interval = (__u16)v;
	else if (v <= 2)
		ctl->num_backups = (int)v;
	else
		return bad(src, "invalid num_backup_sb '%s' (0, 1 or 2)", arg);
	return EXT4DEV_CONTINUE;
}

static int set_orphan_size(const struct ext_src *src, const char *arg)
{
	struct mkfs_ctl *ctl = src->ctl;

	ctl->orphan_file_blocks = arg ? mkfs_parse_num(arg,
				  (int)ctl->param.s_log_block_size) : 0;
	if (!ctl->orphan_file_blocks)
		return bad(src, "invalid orphan_file_size '%s'",
			   arg ? arg : "");
	return EXT4DEV_CONTINUE;
}

/* quotatype=usr:grp:prj (',' also separates; ^type removes it). */
static int set_quota_types(const struct ext_src *src, const char *arg)
{
	static const char *const names[][2] = {
		{ "usr", "usrquota" }, { "grp", "grpquota" },
		{ "prj", "prjquota" },
	};
	unsigned int bits = 0;
	const char *p = arg;

	if (!arg || !*arg)
		return bad(src, "'quotatype' needs a value");
	while (*p) {
		size_t len = strcspn(p, ":,");
		bool not = *p == '^';
		int t;

		for (t = 0; t < 3; t++)
			if ((len - not == strlen(names[t][0]) &&
			     !strncmp(p + not, names[t][0], len - not)) ||
			    (len - not == strlen(names[t][1]) &&
			     !strncmp(p + not, names[t][1], len - not)))
				break;
		if (t == 3)
			return bad(src, "invalid quota type '%.*s'", (int)len,
				   p);
		bits = not ? bits & ~(1U << t) : bits | 1U << t;
		p += len + (p[len] != '\0');
	}
	src->ctl->quota_types = bits;
	if (bits & 4)
		ext2fs_set_feature_project(&src->ctl->param);
	return EXT4DEV_CONTINUE;
}

static int set_flag(const struct ext_src *src, const char *key,
		    const struct flags_entry *flag)
{
	src->ctl->param.s_flags |= flag->mask;
	return EXT4DEV_CONTINUE;
}

static int set_hash_seed(const struct ext_src *src, const char *arg)
{
	if (!arg || uuid_parse(arg, (unsigned char *)src->ctl->param.s_hash_seed))
		return bad(src, "invalid hash_seed '%s'", arg ? arg : "");
	src->ctl->hash_seed_set = true;
	return EXT4DEV_CONTINUE;
}

static int apply_one(const struct ext_src *src, const char *key,
		     const char *arg)
{
	struct mkfs_ctl *ctl = src->ctl;
	const struct flags_entry *flag = flags_by_option(key);
	int rc;

	if (flag)
		return set_flag(src, key, flag);
	if (!strcmp(key, "stride") || !strcmp(key, "stripe_width") ||
	    !strcmp(key, "stripe-width") || !strcmp(key, "num_backup_sb") ||
	    !strcmp(key, "mmp_update_interval"))
		return set_number_key(src, key, arg);
	if (!strcmp(key, "resize"))
		return set_resize(src, arg);
	if (!strcmp(key, "desc_size") || !strcmp(key, "desc-size"))
		return set_desc_size(src, key, arg);
	if (!strcmp(key, "lazy_itable_init"))
		return onoff(src, key, arg, &ctl->lazy_itable_init);
	if (!strcmp(key, "lazy_journal_init"))
		return onoff(src, key, arg, &ctl->lazy_journal_init);
	if (!strcmp(key, "assume_storage_prezeroed"))
		return onoff(src, key, arg, &ctl->assume_prezeroed);
	if (!strcmp(key, "packed_meta_blocks")) {
		rc = onoff(src, key, arg, &ctl->packed_meta_blocks);
		if (ctl->packed_meta_blocks)
			ctl->journal_blk_loc = 0;
		return rc;
	}
	if (!strcmp(key, "discard") || !strcmp(key, "nodiscard")) {
		ctl->discard = key[0] == 'd';
		return EXT4DEV_CONTINUE;
	}
	if (!strcmp(key, "root_owner"))
		return set_root_owner(src, arg);
	if (!strcmp(key, "hash_seed"))
		return set_hash_seed(src, arg);
	if (!strcmp(key, "encoding"))
		return set_encoding(src, arg);
	if (!strcmp(key, "orphan_file_size"))
		return set_orphan_size(src, arg);
	if (!strcmp(key, "quotatype"))
		return set_quota_types(src, arg);
	if (!strcmp(key, "offset") || !strcmp(key, "android_sparse") ||
	    !strcmp(key, "no_copy_xattrs") ||
	    !strcmp(key, "encoding_flags"))
		return bad(src, "mke2fs extended option '%s' is not supported "
			   "by ext4dev mkfs", key);
	return bad(src, "unknown extended option '%s'", key);
}

int mkfs_parse_ext_opts(struct mkfs_ctl *ctl, const char *opts,
			const char *where)
{
	struct ext_src src = { ctl, where };
	char *buf = strdup(opts), *tok, *next, *arg;
	int rc = EXT4DEV_CONTINUE;

	if (!buf)
		return report_failure("out of memory");
	for (tok = buf; tok && *tok && rc == EXT4DEV_CONTINUE; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		arg = strchr(tok, '=');
		if (arg)
			*arg++ = '\0';
		rc = apply_one(&src, tok, arg);
	}
	free(buf);
	if (rc == EXT4DEV_CONTINUE && ctl->param.s_raid_stride &&
	    ctl->param.s_raid_stripe_width % ctl->param.s_raid_stride)
		fprintf(stderr, "ext4dev: warning: RAID stripe_width %u is "
			"not a multiple of stride %u\n",
			ctl->param.s_raid_stripe_width,
			ctl->param.s_raid_stride);
	return rc;
}

static int journal_one(struct mkfs_ctl *ctl, const char *key, const char *arg)
{
	struct ext_src src = { ctl, NULL };
	unsigned long v;
	int rc;

	if (!strcmp(key, "size") || !strcmp(key, "fast_commit_size")) {
		rc = number(&src, key, arg, &v);
		if (rc != EXT4DEV_CONTINUE)
			return rc;
		if (v > 0x7fffffffUL / 1024)
			return report_usage(EXT4DEV_MKFS_CMD, "-J %s=%s is "
					    "too large", key, arg);
		if (key[0] == 's')
			ctl->journal_size = (int)v;
		else
			ctl->journal_fc_size = (int)v;
		return EXT4DEV_CONTINUE;
	}
	if (!strcmp(key, "location")) {
		if (!arg)
			return report_usage(EXT4DEV_MKFS_CMD, "-J location "
					    "needs a value");
		ctl->journal_location = arg;
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
int mkfs_parse_journal_opts(struct mkfs_ctl *ctl, char *opts)
{
	char *tok, *next, *arg;
	int rc = EXT4DEV_CONTINUE;

	for (tok = opts; tok && *tok && rc == EXT4DEV_CONTINUE; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		arg = strchr(tok, '=');
		if (arg)
			*arg++ = '\0';
		rc = journal_one(ctl, tok, arg);
	}
	return rc;
}
