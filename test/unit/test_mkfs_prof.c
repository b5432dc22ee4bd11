// SPDX-License-Identifier: GPL-2.0
/* fs_types resolution and typed lookups, with mke2fs's precedence. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "mkfs_prof.h"

static const char conf_text[] =
	"[defaults]\n"
	"blocksize = 4096\n"
	"inode_ratio = 16384\n"
	"reserved_ratio = 2.5\n"
	"hash_alg = tea\n"
	"lazy_itable_init = no\n"
	"bad_int = 12x\n"
	"bad_bool = maybe\n"
	"[fs_types]\n"
	"ext4 = {\n"
	"features = has_journal\n"
	"inode_ratio = 8192\n"
	"}\n"
	"ext4dev = {\n"
	"inode_ratio = 4096\n"
	"hash_alg = legacy\n"
	"}\n"
	"small = {\n"
	"blocksize = 1024\n"
	"lazy_itable_init = On\n"
	"}\n"
	"news = {\n"
	"inode_ratio = 2048\n"
	"}\n"
	"empty = {\n"
	"}\n";

static void test_size_types(void **state)
{
	/* In 1 KiB blocks (log 0) before the block size is known. */
	assert_string_equal(mkfs_prof_size_type(3 * 1024 - 1, 0), "floppy");
	assert_string_equal(mkfs_prof_size_type(3 * 1024, 0), "small");
	assert_string_equal(mkfs_prof_size_type(512 * 1024 - 1, 0), "small");
	assert_string_equal(mkfs_prof_size_type(512 * 1024, 0), "default");
	assert_string_equal(mkfs_prof_size_type(4ULL << 30, 0), "big");
	assert_string_equal(mkfs_prof_size_type((4ULL << 30) - 1, 0),
			    "default");
	assert_string_equal(mkfs_prof_size_type(16ULL << 30, 0), "huge");
	/* With -b 4096, 2^30 blocks are 4 TiB: big. */
	assert_string_equal(mkfs_prof_size_type(1ULL << 30, 2), "big");
}

static void test_type_list(void **state)
{
	struct mkfs_conf c;
	struct mkfs_prof p;

	assert_int_equal(mkfs_conf_parse_text(&c, "t.conf", conf_text), 0);
	assert_int_equal(mkfs_prof_init(&p, &c, NULL, NULL, "small"), 0);
	assert_int_equal(p.ntypes, 3);
	assert_string_equal(p.types[0], "ext4");
	assert_string_equal(p.types[1], "ext4dev");
	assert_string_equal(p.types[2], "small");
	mkfs_prof_free(&p);

	/* -T: a list; types the file lacks are noted, "default" is not. */
	assert_int_equal(mkfs_prof_init(&p, &c, "ext4dev", "news,nope,default,"
					 "empty", "small"), 0);
	assert_int_equal(p.ntypes, 3);
	assert_string_equal(p.types[2], "news");
	assert_string_equal(p.unknown, "nope, empty");
	mkfs_prof_free(&p);

	/* -t ext3 is not ext4: no ext4dev stanza, and it must exist. */
	assert_int_equal(mkfs_prof_init(&p, &c, "ext3", NULL, "default"),
			 ENOENT);
	assert_string_equal(p.types[0], "ext3");
	assert_int_equal(p.ntypes, 1);
	mkfs_prof_free(&p);
	assert_int_equal(mkfs_prof_init(&p, &c, "ext2", NULL, "default"), 0);
	mkfs_prof_free(&p);
	mkfs_conf_free(&c);
}

static void test_precedence(void **state)
{
	struct mkfs_conf c;
	struct mkfs_prof p;
	const char *s;
	double d;
	bool b;
	int i;

	assert_int_equal(mkfs_conf_parse_text(&c, "t.conf", conf_text), 0);
	assert_int_equal(mkfs_prof_init(&p, &c, NULL, "news", "small"), 0);
	/* The last type that sets it wins: news over ext4dev over ext4. */
	assert_int_equal(mkfs_prof_int(&p, "inode_ratio", 1, &i), 0);
	assert_int_equal(i, 2048);
	/* Not in any type: [defaults]; nowhere: the built-in default. */
	assert_int_equal(mkfs_prof_int(&p, "blocksize", 1, &i), 0);
	assert_int_equal(i, 4096);
	assert_int_equal(mkfs_prof_int(&p, "cluster_size", 77, &i), 0);
	assert_int_equal(i, 77);
	assert_int_equal(mkfs_prof_string(&p, "hash_alg", "x", &s), 0);
	assert_string_equal(s, "legacy");
	assert_int_equal(mkfs_prof_double(&p, "reserved_ratio", 5, &d), 0);
	assert_true(d > 2.49 && d < 2.51);
	assert_int_equal(mkfs_prof_bool(&p, "lazy_itable_init", true, &b), 0);
	assert_false(b);
	mkfs_prof_free(&p);

	assert_int_equal(mkfs_prof_init(&p, &c, NULL, NULL, "small"), 0);
	assert_int_equal(mkfs_prof_bool(&p, "lazy_itable_init", false, &b),
			 0);
	assert_true(b);
	assert_string_equal(mkfs_prof_type_value(&p, 0, "features"),
			    "has_journal");
	assert_null(mkfs_prof_type_value(&p, 1, "features"));
	mkfs_prof_free(&p);
	mkfs_conf_free(&c);
}

static void test_bad_values_name_the_line(void **state)
{
	struct mkfs_conf c;
	struct mkfs_prof p;
	unsigned int u;
	bool b;
	int i;

	assert_int_equal(mkfs_conf_parse_text(&c, "t.conf", conf_text), 0);
	assert_int_equal(mkfs_prof_init(&p, &c, NULL, NULL, "default"), 0);
	assert_int_equal(mkfs_prof_int(&p, "bad_int", 3, &i), EINVAL);
	assert_int_equal(i, 3);
	assert_string_equal(p.err.file, "t.conf");
	assert_int_equal(p.err.line, 7);
	assert_non_null(strstr(p.err.why, "bad_int"));
	assert_int_equal(mkfs_prof_bool(&p, "bad_bool", true, &b), EINVAL);
	assert_int_equal(p.err.line, 8);
	assert_int_equal(mkfs_prof_uint(&p, "bad_int", 3, &u), EINVAL);
	mkfs_prof_free(&p);
	mkfs_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_types),
		cmocka_unit_test(test_type_list),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_bad_values_name_the_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
