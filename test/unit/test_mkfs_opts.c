// SPDX-License-Identifier: GPL-2.0
/* mkfs's command line, -E and -J: form checks and what they set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "exitcodes.h"
#include "mkfs.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int parse(struct mkfs_opts *ctl, int argc, char **argv)
{
	mkfs_opts_init(ctl);
	return mkfs_parse_args(ctl, argc, argv);
}

static void test_options(void **state)
{
	char j[] = "size=32,location=1M";
	char *argv[] = { "mkfs", "-b", "4096", "-i", "64k", "-I", "512",
			 "-N", "1000", "-m", "1.5", "-L", "lbl", "-O", "^64bit",
			 "-O", "bigalloc", "-C", "64K", "-E", "first", "-E",
			 "stride=4", "-J", j, "-T", "news", "-t", "ext4dev",
			 "-G", "32", "-g", "8192", "-e", "panic", "-U", "time",
			 "-Fqnv", "--production", "img", "16M", NULL };
	struct mkfs_opts ctl;

	assert_int_equal(parse(&ctl, ARGC(argv), argv), -1);
	assert_int_equal(ctl.blocksize, 4096);
	assert_int_equal(ctl.inode_ratio, 65536);
	assert_int_equal(ctl.inode_size, 512);
	assert_int_equal(ctl.num_inodes, 1000);
	assert_true(ctl.reserved_ratio > 1.49 && ctl.reserved_ratio < 1.51);
	assert_string_equal(ctl.label, "lbl");
	assert_string_equal(ctl.features, "^64bit,bigalloc");
	assert_int_equal(ctl.cluster_size, 65536);
	/* Like mke2fs, the last -E counts. */
	assert_string_equal(ctl.ext_opts, "stride=4");
	assert_int_equal(ctl.journal_size, 32);
	assert_string_equal(ctl.journal_location, "1M");
	assert_string_equal(ctl.usage_types, "news");
	assert_string_equal(ctl.fs_type, "ext4dev");
	assert_int_equal(ctl.flex_bg_size, 32);
	assert_int_equal(ctl.blocks_per_group, 8192);
	assert_int_equal(ctl.errors_behavior, EXT2_ERRORS_PANIC);
	assert_true(ctl.force && ctl.quiet && ctl.noaction && ctl.verbose &&
		    ctl.production);
	assert_string_equal(ctl.device, "img");
	/* SIZE in -b units: 16 MiB of 4 KiB blocks. */
	assert_int_equal(ctl.fs_blocks, 4096);
	mkfs_opts_free(&ctl);
}

static void test_size_units(void **state)
{
	char *kib[] = { "mkfs", "img", "8M", NULL };
	char *blocks[] = { "mkfs", "img", "3000", NULL };
	char *j[] = { "mkfs", "-j", "img", NULL };
	struct mkfs_opts ctl;

	/* Without -b SIZE counts 1 KiB units; the block size comes later. */
	assert_int_equal(parse(&ctl, ARGC(kib), kib), -1);
	assert_int_equal(ctl.fs_blocks, 8192);
	assert_int_equal(parse(&ctl, ARGC(blocks), blocks), -1);
	assert_int_equal(ctl.fs_blocks, 3000);
	assert_int_equal(parse(&ctl, ARGC(j), j), -1);
	assert_int_equal(ctl.journal_size, -1);
	assert_null(ctl.size_arg);
}

static void expect_usage(char **argv, int argc)
{
	struct mkfs_opts ctl;

	assert_int_equal(parse(&ctl, argc, argv), EXT4DEV_EXIT_USAGE);
	mkfs_opts_free(&ctl);
}

static void test_usage_errors(void **state)
{
	char *none[] = { "mkfs", "-q", NULL };
	char *extra[] = { "mkfs", "a", "1M", "b", NULL };
	char *size[] = { "mkfs", "a", "12Q", NULL };
	char *bs[] = { "mkfs", "-b", "3000", "a", NULL };
	char *cs[] = { "mkfs", "-C", "1024", "a", NULL };
	char *ir[] = { "mkfs", "-i", "512", "a", NULL };
	char *m[] = { "mkfs", "-m", "51", "a", NULL };
	char *g[] = { "mkfs", "-g", "1001", "a", NULL };
	char *flex[] = { "mkfs", "-G", "3", "a", NULL };
	char *uuid[] = { "mkfs", "-U", "not-a-uuid", "a", NULL };
	char *t2[] = { "mkfs", "-t", "ext4", "-t", "ext4", "a", NULL };
	char *e[] = { "mkfs", "-e", "explode", "a", NULL };
	char *c[] = { "mkfs", "-c", "a", NULL };
	char *z[] = { "mkfs", "-z", "undo", "a", NULL };
	char *jd[] = { "mkfs", "-J", (char[]){ "device=/dev/x" }, "a", NULL };
	char *jbad[] = { "mkfs", "-J", (char[]){ "size=x" }, "a", NULL };
	char *miss[] = { "mkfs", "a", "-b", NULL };

	expect_usage(none, ARGC(none));
	expect_usage(extra, ARGC(extra));
	expect_usage(size, ARGC(size));
	expect_usage(bs, ARGC(bs));
	expect_usage(cs, ARGC(cs));
	expect_usage(ir, ARGC(ir));
	expect_usage(m, ARGC(m));
	expect_usage(g, ARGC(g));
	expect_usage(flex, ARGC(flex));
	expect_usage(uuid, ARGC(uuid));
	expect_usage(t2, ARGC(t2));
	expect_usage(e, ARGC(e));
	expect_usage(c, ARGC(c));
	expect_usage(z, ARGC(z));
	expect_usage(jd, ARGC(jd));
	expect_usage(jbad, ARGC(jbad));
	expect_usage(miss, ARGC(miss));
}

/* A plan as mkfs_geometry() leaves it just before -E: 64 MiB of 1 KiB. */
static void small_fs(struct mkfs_plan *ctl)
{
	struct mkfs_opts o;

	mkfs_opts_init(&o);
	o.device = "img";
	mkfs_plan_init(ctl, &o);
	ctl->param.s_log_block_size = 0;
	ext2fs_blocks_count_set(&ctl->param, 65536);
}

static void test_ext_opts(void **state)
{
	struct mkfs_plan ctl;

	small_fs(&ctl);
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "test_fs,stride=8,"
			 "stripe-width=32,num_backup_sb=1,lazy_itable_init=0,"
			 "lazy_journal_init,root_owner=12:34,nodiscard,"
			 "packed_meta_blocks=1,resize=1G", NULL), -1);
	assert_true(ctl.param.s_flags & EXT2_FLAGS_TEST_FILESYS);
	assert_int_equal(ctl.param.s_raid_stride, 8);
	assert_int_equal(ctl.param.s_raid_stripe_width, 32);
	assert_int_equal(ctl.num_backups, 1);
	assert_int_equal(ctl.lazy_itable_init, 0);
	assert_int_equal(ctl.lazy_journal_init, 1);
	assert_true(ctl.root_owner_set);
	assert_int_equal(ctl.root_uid, 12);
	assert_int_equal(ctl.root_gid, 34);
	assert_int_equal(ctl.discard, 0);
	assert_int_equal(ctl.packed_meta_blocks, 1);
	assert_int_equal(ctl.journal_blk_loc, 0);
	/*
	 * resize=1G in 1 KiB blocks: 128 groups of 8192 blocks need 4
	 * descriptor blocks (32 per block); 8 groups use 1.  3 reserved.
	 */
	assert_int_equal(ctl.param.s_reserved_gdt_blocks, 3);
	assert_true(ext2fs_has_feature_resize_inode(&ctl.param));
}

static void test_ext_opt_errors(void **state)
{
	static const char *const usage[] = {
		"nosuch", "stride", "stride=x", "num_backup_sb=3",
		"root_owner=1", "root_owner=a:b", "desc_size=64",
		"offset=4k", "android_sparse", "quotatype=usr:bogus",
		"hash_seed=zz",
		"encoding=nosuch", "orphan_file_size=0", "resize=0",
	};
	struct mkfs_plan ctl;

	for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		small_fs(&ctl);
		if (mkfs_parse_ext_opts(&ctl, usage[i], NULL) !=
		    EXT4DEV_EXIT_USAGE)
			fail_msg("-E %s is not a usage error", usage[i]);
	}
	/* offset: bytes, in C notation as mke2fs's strtoull(arg, 0). */
	small_fs(&ctl);
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "offset=0x100000", NULL),
			 -1);
	assert_int_equal(ctl.offset, 1048576);
	/* quotatype: a list; prj brings the project feature. */
	small_fs(&ctl);
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "quotatype=grpquota:prj",
					     NULL), -1);
	assert_int_equal(ctl.quota_types, 6);
	assert_true(ext2fs_has_feature_project(&ctl.param));
	/* From the conf file the same mistake is operational: exit 8. */
	small_fs(&ctl);
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "nosuch", "conf"),
			 EXT4DEV_EXIT_FAILURE);
	/* A resize below the size is a conflict, not a typo. */
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "resize=1000", NULL),
			 EXT4DEV_EXIT_FAILURE);
}

/* encoding_flags= goes through e2p_str2encoding_flags(), in any order. */
static void test_encoding_flags(void **state)
{
	static const char *const usage[] = {
		"encoding_flags=strict", "encoding_flags",
		"encoding=utf8,encoding_flags=bogus",
	};
	struct mkfs_plan ctl;

	small_fs(&ctl);
	assert_int_equal(mkfs_parse_ext_opts(&ctl, "encoding_flags=strict,"
					     "encoding=utf8", NULL),
			 EXT4DEV_CONTINUE);
	assert_int_equal(ctl.param.s_encoding, EXT4_ENC_UTF8_12_1);
	assert_int_equal(ctl.param.s_encoding_flags, EXT4_ENC_STRICT_MODE_FL);
	assert_true(ext2fs_has_feature_casefold(&ctl.param));
	for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		small_fs(&ctl);
		if (mkfs_parse_ext_opts(&ctl, usage[i], NULL) !=
		    EXT4DEV_EXIT_USAGE)
			fail_msg("-E %s is not a usage error", usage[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_size_units),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_ext_opts),
		cmocka_unit_test(test_ext_opt_errors),
		cmocka_unit_test(test_encoding_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
