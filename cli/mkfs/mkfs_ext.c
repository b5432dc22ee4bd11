// SPDX-License-Identifier: GPL-2.0
/*
 * -E extended options with mke2fs's keywords and meaning, in one table
 * in the style of e2p's name tables (keyword, kind of value, setter,
 * help; the help is what mkfs --help prints).  mkfs_params() applies -E
 * where mke2fs does: once the block size and features are known, after
 * the "options" of mke2fs.conf's fs_types.
 */
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
	struct mkfs_plan *plan;
	const char *where;		/* NULL for -E */
	const char *enc_flags;		/* encoding_flags=, applied last */
};

/* What a keyword's value may be. */
enum ext_kind {
	EXT_BARE,		/* no value (one is ignored, as in mke2fs) */
	EXT_NUMBER,		/* a whole number, required */
	EXT_ONOFF,		/* "key" is 1, "key=N" is N != 0 */
	EXT_TEXT,		/* the setter checks it, NULL included */
	EXT_UNSUPPORTED,	/* mke2fs's, not ours: an error naming it */
};

struct ext_key {
	const char *name;
	enum ext_kind kind;
	int (*set)(struct ext_src *src, const char *key, const char *arg,
		   unsigned long num);
	const char *help;	/* NULL: an alias, left out of --help */
};

static __attribute__((format(printf, 2, 3)))
int bad(const struct ext_src *src, const char *fmt, ...)
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

/* A whole number for keyword @key, or an error. */
static int number(const struct ext_src *src, const char *key,
		  const char *arg, unsigned long *out)
{
	if (!arg)
		return bad(src, "'%s' needs a value", key);
	if (!mkfs_parse_ulong(arg, out))
		return bad(src, "invalid %s '%s'", key, arg);
	return EXT4DEV_CONTINUE;
}

static int set_resize(struct ext_src *src, const char *key, const char *arg,
		      unsigned long num)
{
	struct ext2_super_block *p = &src->plan->param;
	unsigned long long max, bpg, groups, gdpb, desc_blocks;
	long long rsv;

	max = arg ? mkfs_parse_num(arg, (int)p->s_log_block_size) : 0;
	if (!max)
		return bad(src, "invalid resize '%s'", arg ? arg : "");
	if (max <= ext2fs_blocks_count(p))
		return report_failure("'%s': -E resize=%s must be larger "
				      "than the filesystem (%llu blocks)",
				      src->plan->device, arg,
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

static int set_desc_size(struct ext_src *src, const char *key,
			 const char *arg, unsigned long num)
{
	struct ext2_super_block *p = &src->plan->param;
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

static int set_root_owner(struct ext_src *src, const char *key,
			  const char *arg, unsigned long num)
{
	struct mkfs_plan *plan = src->plan;
	char *end;

	plan->root_owner_set = true;
	if (!arg) {
		plan->root_uid = getuid();
		plan->root_gid = getgid();
		return EXT4DEV_CONTINUE;
	}
	plan->root_uid = (unsigned int)strtoul(arg, &end, 0);
	if (end == arg || *end != ':')
		return bad(src, "invalid root_owner '%s' (uid:gid)", arg);
	arg = end + 1;
	plan->root_gid = (unsigned int)strtoul(arg, &end, 0);
	if (end == arg || *end)
		return bad(src, "invalid root_owner '%s' (uid:gid)", arg);
	return EXT4DEV_CONTINUE;
}

static int set_encoding(struct ext_src *src, const char *key,
			const char *arg, unsigned long num)
{
	int enc = arg ? e2p_str2encoding(arg) : -1;

	if (enc < 0)
		return bad(src, "invalid encoding '%s'", arg ? arg : "");
	src->plan->param.s_encoding = (__u16)enc;
	src->plan->param.s_encoding_flags = (__u16)e2p_get_encoding_flags(enc);
	ext2fs_set_feature_casefold(&src->plan->param);
	return EXT4DEV_CONTINUE;
}

/* Kept until the whole list is read: encoding= may come after it. */
static int set_encoding_flags(struct ext_src *src, const char *key,
			      const char *arg, unsigned long num)
{
	if (!arg || !*arg)
		return bad(src, "'%s' needs a value", key);
	src->enc_flags = arg;
	return EXT4DEV_CONTINUE;
}

/* As mke2fs: flags need an encoding, from encoding= or -O casefold. */
static int apply_encoding_flags(const struct ext_src *src)
{
	struct ext2_super_block *p = &src->plan->param;
	char buf[128];

	if (!src->enc_flags)
		return EXT4DEV_CONTINUE;
	if (!ext2fs_has_feature_casefold(p))
		return bad(src, "encoding_flags needs an encoding (encoding= "
			   "or -O casefold)");
	snprintf(buf, sizeof(buf), "%s", src->enc_flags);
	if (e2p_str2encoding_flags(p->s_encoding, buf, &p->s_encoding_flags))
		return bad(src, "invalid encoding_flags '%s'", src->enc_flags);
	return EXT4DEV_CONTINUE;
}

static int set_stride(struct ext_src *src, const char *key, const char *arg,
		      unsigned long num)
{
	src->plan->param.s_raid_stride = (__u16)num;
	return EXT4DEV_CONTINUE;
}

static int set_stripe_width(struct ext_src *src, const char *key,
			    const char *arg, unsigned long num)
{
	src->plan->param.s_raid_stripe_width = (__u32)num;
	return EXT4DEV_CONTINUE;
}

static int set_mmp_interval(struct ext_src *src, const char *key,
			    const char *arg, unsigned long num)
{
	src->plan->param.s_mmp_update_interval = (__u16)num;
	return EXT4DEV_CONTINUE;
}

static int set_offset(struct ext_src *src, const char *key, const char *arg,
		      unsigned long num)
{
	src->plan->offset = num;
	return EXT4DEV_CONTINUE;
}

static int set_backups(struct ext_src *src, const char *key, const char *arg,
		       unsigned long num)
{
	if (num > 2)
		return bad(src, "invalid num_backup_sb '%s' (0, 1 or 2)", arg);
	src->plan->num_backups = (int)num;
	return EXT4DEV_CONTINUE;
}

static int set_orphan_size(struct ext_src *src, const char *key,
			   const char *arg, unsigned long num)
{
	struct mkfs_plan *plan = src->plan;

	plan->orphan_file_blocks = arg ? mkfs_parse_num(arg,
				  (int)plan->param.s_log_block_size) : 0;
	if (!plan->orphan_file_blocks)
		return bad(src, "invalid orphan_file_size '%s'",
			   arg ? arg : "");
	return EXT4DEV_CONTINUE;
}

static int set_quota_types(struct ext_src *src, const char *key,
			   const char *arg, unsigned long num)
{
	const char *wrong;
	unsigned int bits;
	int len;

	if (!arg || !*arg)
		return bad(src, "'quotatype' needs a value");
	wrong = mkfs_parse_quota_types(arg, &bits, &len);
	if (wrong)
		return bad(src, "invalid quota type '%.*s'", len, wrong);
	src->plan->quota_types = bits;
	if (bits & 4)
		ext2fs_set_feature_project(&src->plan->param);
	return EXT4DEV_CONTINUE;
}

static int set_hash_seed(struct ext_src *src, const char *key,
			 const char *arg, unsigned long num)
{
	unsigned char *seed = (unsigned char *)src->plan->param.s_hash_seed;

	if (!arg || uuid_parse(arg, seed))
		return bad(src, "invalid hash_seed '%s'", arg ? arg : "");
	src->plan->hash_seed_set = true;
	return EXT4DEV_CONTINUE;
}

static int set_discard(struct ext_src *src, const char *key, const char *arg,
		       unsigned long num)
{
	src->plan->discard = key[0] == 'd';
	return EXT4DEV_CONTINUE;
}

/* The EXT_ONOFF keywords: @num is already 0 or 1. */
static int set_onoff(struct ext_src *src, const char *key, const char *arg,
		     unsigned long num)
{
	struct mkfs_plan *plan = src->plan;

	if (!strcmp(key, "lazy_itable_init"))
		plan->lazy_itable_init = (int)num;
	else if (!strcmp(key, "lazy_journal_init"))
		plan->lazy_journal_init = (int)num;
	else if (!strcmp(key, "assume_storage_prezeroed"))
		plan->assume_prezeroed = (int)num;
	else
		plan->packed_meta_blocks = (int)num;
	if (plan->packed_meta_blocks > 0)
		plan->journal_blk_loc = 0;
	return EXT4DEV_CONTINUE;
}

/* Sorted as mke2fs(8) lists them; the s_flags keywords come from flags.c. */
static const struct ext_key ext_keys[] = {
	{ "mmp_update_interval", EXT_NUMBER, set_mmp_interval,
	  "MMP update interval in seconds" },
	{ "stride", EXT_NUMBER, set_stride, "RAID chunk size in blocks" },
	{ "stripe_width", EXT_NUMBER, set_stripe_width,
	  "RAID stripe width in blocks" },
	{ "stripe-width", EXT_NUMBER, set_stripe_width, NULL },
	{ "offset", EXT_NUMBER, set_offset,
	  "bytes before the filesystem in the device" },
	{ "resize", EXT_TEXT, set_resize,
	  "reserve descriptors to grow to this size" },
	{ "packed_meta_blocks", EXT_ONOFF, set_onoff,
	  "bitmaps, inode tables and journal at the start" },
	{ "lazy_itable_init", EXT_ONOFF, set_onoff,
	  "let the kernel zero the inode tables" },
	{ "lazy_journal_init", EXT_ONOFF, set_onoff,
	  "do not zero the journal" },
	{ "assume_storage_prezeroed", EXT_ONOFF, set_onoff,
	  "the device reads as zeros: write no zeros" },
	{ "root_owner", EXT_TEXT, set_root_owner,
	  "uid:gid of the root directory (no value: ours)" },
	{ "discard", EXT_BARE, set_discard, "discard the device first" },
	{ "nodiscard", EXT_BARE, set_discard, "do not discard the device" },
	{ "num_backup_sb", EXT_NUMBER, set_backups,
	  "sparse_super2 backup superblocks: 0, 1 or 2" },
	{ "desc_size", EXT_TEXT, set_desc_size, "group descriptor size" },
	{ "desc-size", EXT_TEXT, set_desc_size, NULL },
	{ "quotatype", EXT_TEXT, set_quota_types,
	  "quota types for -O quota: usr, grp, prj" },
	{ "hash_seed", EXT_TEXT, set_hash_seed,
	  "UUID to seed the directory hash with" },
	{ "encoding", EXT_TEXT, set_encoding, "filename encoding (casefold)" },
	{ "encoding_flags", EXT_TEXT, set_encoding_flags,
	  "encoding flags, e.g. strict" },
	{ "orphan_file_size", EXT_TEXT, set_orphan_size,
	  "size of the orphan file" },
	{ "android_sparse", EXT_UNSUPPORTED, NULL, NULL },
	{ "no_copy_xattrs", EXT_UNSUPPORTED, NULL, NULL },
	{ NULL, EXT_BARE, NULL, NULL },
};

static const struct ext_key *ext_key_by_name(const char *name)
{
	for (const struct ext_key *k = ext_keys; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

static int apply_one(struct ext_src *src, const char *key, const char *arg)
{
	const struct flags_entry *flag = flags_by_option(key);
	const struct ext_key *k = ext_key_by_name(key);
	unsigned long num = 1;
	int rc = EXT4DEV_CONTINUE;

	if (flag) {
		src->plan->param.s_flags |= flag->mask;
		return EXT4DEV_CONTINUE;
	}
	if (!k)
		return bad(src, "unknown extended option '%s'", key);
	if (k->kind == EXT_UNSUPPORTED)
		return bad(src, "mke2fs extended option '%s' is not supported "
			   "by ext4dev mkfs", key);
	if (k->kind == EXT_NUMBER || (k->kind == EXT_ONOFF && arg))
		rc = number(src, key, arg, &num);
	if (k->kind == EXT_ONOFF)
		num = num != 0;
	return rc == EXT4DEV_CONTINUE ? k->set(src, key, arg, num) : rc;
}

int mkfs_parse_ext_opts(struct mkfs_plan *plan, const char *opts,
			const char *where)
{
	struct ext_src src = { plan, where, NULL };
	char *buf = strdup(opts), *cursor = buf, *tok, *arg;
	int rc = EXT4DEV_CONTINUE;

	if (!buf)
		return report_failure("out of memory");
	while (rc == EXT4DEV_CONTINUE &&
	       (tok = mkfs_next_token(&cursor, &arg)))
		rc = apply_one(&src, tok, arg);
	if (rc == EXT4DEV_CONTINUE)
		rc = apply_encoding_flags(&src);
	free(buf);
	if (rc == EXT4DEV_CONTINUE && plan->param.s_raid_stride &&
	    plan->param.s_raid_stripe_width % plan->param.s_raid_stride)
		report_warn(NULL, "RAID stripe_width %u is not a multiple "
			    "of stride %u", plan->param.s_raid_stripe_width,
			    plan->param.s_raid_stride);
	return rc;
}

void mkfs_print_ext_help(void)
{
	for (size_t i = 0; i < flags_table_len; i++)
		if (flags_table[i].option)
			printf(" %-26s %s\n", flags_table[i].option,
			       flags_table[i].help);
	for (const struct ext_key *k = ext_keys; k->name; k++)
		if (k->help)
			printf(" %-26s %s\n", k->name, k->help);
}
