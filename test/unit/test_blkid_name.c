// SPDX-License-Identifier: GPL-2.0
/*
 * blkid_name_rival(): which flagged filesystems libblkid's ext2 or ext3
 * prober also claims.  integration.aliases holds the same rule to
 * blkid -p on real images; this pins the edges one feature at a time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <ext2fs/ext2fs.h>

#include "blkid_name.h"

static const char *rival_of(uint32_t compat, uint32_t incompat,
			    uint32_t ro_compat)
{
	struct ext2_super_block sb;

	memset(&sb, 0, sizeof(sb));
	sb.s_feature_compat = compat;
	sb.s_feature_incompat = incompat;
	sb.s_feature_ro_compat = ro_compat;
	return blkid_name_rival(&sb);
}

static void test_ext2_and_ext3(void **state)
{
	uint32_t ro = EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER |
		      EXT2_FEATURE_RO_COMPAT_LARGE_FILE;

	(void)state;
	assert_string_equal(rival_of(0, 0, 0), "ext2");
	assert_string_equal(rival_of(0, EXT2_FEATURE_INCOMPAT_FILETYPE, ro),
			    "ext2");
	assert_string_equal(rival_of(EXT3_FEATURE_COMPAT_HAS_JOURNAL,
				     EXT2_FEATURE_INCOMPAT_FILETYPE |
				     EXT2_FEATURE_INCOMPAT_META_BG, ro),
			    "ext3");
	/* A journal that needs recovery is still ext3's. */
	assert_string_equal(rival_of(EXT3_FEATURE_COMPAT_HAS_JOURNAL,
				     EXT3_FEATURE_INCOMPAT_RECOVER, 0),
			    "ext3");
}

static void test_ext4_features_have_no_rival(void **state)
{
	(void)state;
	assert_null(rival_of(EXT3_FEATURE_COMPAT_HAS_JOURNAL,
			     EXT3_FEATURE_INCOMPAT_EXTENTS, 0));
	assert_null(rival_of(0, EXT4_FEATURE_INCOMPAT_64BIT, 0));
	assert_null(rival_of(0, 0, EXT4_FEATURE_RO_COMPAT_METADATA_CSUM));
	assert_null(rival_of(0, 0, EXT4_FEATURE_RO_COMPAT_HUGE_FILE));
	assert_null(rival_of(0, EXT4_FEATURE_INCOMPAT_INLINE_DATA, 0));
}

static void test_journal_device_is_no_filesystem(void **state)
{
	(void)state;
	assert_null(rival_of(0, EXT3_FEATURE_INCOMPAT_JOURNAL_DEV, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext2_and_ext3),
		cmocka_unit_test(test_ext4_features_have_no_rival),
		cmocka_unit_test(test_journal_device_is_no_filesystem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
