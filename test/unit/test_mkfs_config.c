// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs's configuration stage: mke2fs.conf resolved once, along the
 * fs_types list, into plain settings; a value of the wrong kind fails
 * only when a stage reads it, naming the file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "exitcodes.h"
#include "mkfs.h"
#include "mkfs_config.h"
#include "report.h"

static const char conf_text[] =
	"[defaults]\n"
	"\tblocksize = 4096\n"
	"\tinode_ratio = 16384\n"
	"\tcluster_size = lots\n"
	"\tlazy_itable_init = no\n"
	"[fs_types]\n"
	"\text4 = {\n"
	"\t\tfeatures = has_journal,extent\n"
	"\t\tinode_ratio = 8192\n"
	"\t}\n"
	"\tsmall = {\n"
	"\t\tblocksize = 1024\n"
	"\t\toptions = stride=4\n"
	"\t}\n";

static char path[64];

static int setup(void **state)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/ext4dev-conf.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, conf_text, strlen(conf_text)) < 0)
		return -1;
	close(fd);
	return setenv("MKE2FS_CONFIG", path, 1);
}

static int teardown(void **state)
{
	return unlink(path);
}

/* 64 MiB: mke2fs's "small" size class. */
static void configure(struct mkfs_config *cfg, struct mkfs_opts *o,
		      struct mkfs_plan *plan)
{
	mkfs_opts_init(o);
	o->device = "img";
	o->fs_blocks = 65536;
	mkfs_plan_init(plan, o);
	assert_int_equal(mkfs_config_load(cfg), EXT4DEV_CONTINUE);
	assert_int_equal(mkfs_configure(o, plan, cfg), EXT4DEV_CONTINUE);
}

static void test_resolved(void **state)
{
	struct mkfs_config cfg;
	struct mkfs_opts o;
	struct mkfs_plan plan;
	bool lazy;
	int v;

	configure(&cfg, &o, &plan);
	assert_string_equal(cfg.file, path);
	assert_int_equal(cfg.ntypes, 2);
	assert_string_equal(cfg.types[0], "ext4");
	assert_string_equal(cfg.types[1], "small");
	assert_null(cfg.types[2]);
	assert_string_equal(cfg.type_features[0], "has_journal,extent");
	assert_null(cfg.type_features[1]);
	assert_string_equal(cfg.type_options[1], "stride=4");
	/* The last type that sets it wins, then [defaults]. */
	assert_int_equal(mkfs_cfg_int(&cfg.blocksize, 0, &v),
			 EXT4DEV_CONTINUE);
	assert_int_equal(v, 1024);
	assert_int_equal(mkfs_cfg_int(&cfg.inode_ratio, 0, &v),
			 EXT4DEV_CONTINUE);
	assert_int_equal(v, 8192);
	assert_int_equal(mkfs_cfg_bool(&cfg.lazy_itable_init, true, &lazy),
			 EXT4DEV_CONTINUE);
	assert_false(lazy);
	/* Not in the file: the caller's default. */
	assert_null(cfg.inode_size.text);
	assert_int_equal(mkfs_cfg_int(&cfg.inode_size, 256, &v),
			 EXT4DEV_CONTINUE);
	assert_int_equal(v, 256);
	assert_string_equal(mkfs_cfg_str(&cfg.hash_alg, "half_md4"),
			    "half_md4");
	mkfs_config_free(&cfg);
	mkfs_opts_free(&o);
}

static void test_bad_value(void **state)
{
	struct mkfs_config cfg;
	struct mkfs_opts o;
	struct mkfs_plan plan;
	int v;

	/* Resolving does not fail on it: only reading it does. */
	configure(&cfg, &o, &plan);
	assert_true(cfg.cluster_size.bad);
	assert_string_equal(cfg.cluster_size.err.file, path);
	assert_int_equal(cfg.cluster_size.err.line, 4);
	assert_non_null(strstr(cfg.cluster_size.err.why, "lots"));
	assert_int_equal(mkfs_cfg_int(&cfg.cluster_size, 7, &v),
			 EXT4DEV_EXIT_FAILURE);
	assert_int_equal(v, 7);
	mkfs_config_free(&cfg);
	mkfs_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_bad_value),
	};

	report_init();
	return cmocka_run_group_tests(tests, setup, teardown);
}
