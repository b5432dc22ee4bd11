// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include <ext2fs/ext2fs.h>

#include "cmd_mount.h"
#include "exitcodes.h"
#include "ext4dev_err.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* mount(8)'s order: SPEC DIR, then the options. */
static void test_helper_interface(void **state)
{
	char *argv[] = { "mount.ext4dev", "/dev/sdb1", "/mnt", "-s", "-f",
			 "-n", "-v", "-N", "/proc/1/ns/mnt", "-o",
			 "ro,noatime", "-t", "ext4dev", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(argv), argv), -1);
	assert_string_equal(ctl.spec, "/dev/sdb1");
	assert_string_equal(ctl.dir, "/mnt");
	assert_string_equal(ctl.flags, "sfnv");
	assert_string_equal(ctl.ns, "/proc/1/ns/mnt");
	assert_int_equal(ctl.nopts, 1);
	assert_string_equal(ctl.opts[0], "ro,noatime");
	assert_true(ctl.verbose);
	assert_false(ctl.remount);
}

static void test_remount_is_a_whole_option(void **state)
{
	char *re[] = { "mount.ext4dev", "s", "d", "-o", "ro,remount", NULL };
	char *not[] = { "mount.ext4dev", "s", "d", "-o", "x-remountable",
			NULL };
	char *two[] = { "mount.ext4dev", "s", "d", "-o", "ro", "-o",
			"remount", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(re), re), -1);
	assert_true(ctl.remount);
	assert_int_equal(mount_parse(&ctl, ARGC(not), not), -1);
	assert_false(ctl.remount);
	assert_int_equal(mount_parse(&ctl, ARGC(two), two), -1);
	assert_true(ctl.remount);
	assert_int_equal(ctl.nopts, 2);
}

static void test_usage_errors_are_mount8s_1(void **state)
{
	char *none[] = { "mount.ext4dev", NULL };
	char *one[] = { "mount.ext4dev", "/dev/sdb1", NULL };
	char *three[] = { "mount.ext4dev", "a", "b", "c", NULL };
	char *bad[] = { "mount.ext4dev", "a", "b", "-x", NULL };
	char *no_arg[] = { "mount.ext4dev", "a", "b", "-o", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(none), none), 1);
	assert_int_equal(mount_parse(&ctl, ARGC(one), one), 1);
	assert_int_equal(mount_parse(&ctl, ARGC(three), three), 1);
	assert_int_equal(mount_parse(&ctl, ARGC(bad), bad), 1);
	assert_int_equal(mount_parse(&ctl, ARGC(no_arg), no_arg), 1);
}

static void test_argv_for_util_linux_mount(void **state)
{
	char *in[] = { "mount.ext4dev", "LABEL=x", "/mnt", "-n", "-r", "-o",
		       "noatime", NULL };
	char *out[EXT4DEV_MOUNT_MAX_ARGS];
	const char *want[] = { "mount", "-i", "-t", "ext4", "-nr", "-o",
			       "noatime", "--", "/dev/sdb1", "/mnt", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(in), in), -1);
	mount_build_argv(&ctl, "ext4", "/dev/sdb1", out);
	for (int i = 0; want[i]; i++)
		assert_string_equal(out[i], want[i]);
	assert_null(out[10]);
}

static void test_argv_plain(void **state)
{
	char *in[] = { "mount.ext4dev", "-dev", "/mnt", NULL };
	char *dd[] = { "mount.ext4dev", "--", "-dev", "/mnt", NULL };
	char *out[EXT4DEV_MOUNT_MAX_ARGS];
	struct mount_ctl ctl;

	/* A SPEC that looks like an option must come after "--". */
	assert_int_equal(mount_parse(&ctl, ARGC(in), in), 1);
	assert_int_equal(mount_parse(&ctl, ARGC(dd), dd), -1);
	mount_build_argv(&ctl, "ext4dev", ctl.spec, out);
	assert_string_equal(out[3], "ext4dev");
	assert_string_equal(out[4], "--");
	assert_string_equal(out[5], "-dev");
	assert_null(out[7]);
}

/* Usage errors say "Try 'mount.ext4dev --help'" when called by that name. */
static void test_name_for_usage_errors(void **state)
{
	char *helper[] = { "/usr/sbin/mount.ext4dev", "s", "d", NULL };
	char *bare[] = { "mount.ext4dev", "s", "d", NULL };
	char *sub[] = { "mount", "s", "d", NULL };
	char *dash[] = { "ext4dev-mount", "s", "d", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(helper), helper), -1);
	assert_string_equal(ctl.cmd, "mount.ext4dev");
	assert_int_equal(mount_parse(&ctl, ARGC(bare), bare), -1);
	assert_string_equal(ctl.cmd, "mount.ext4dev");
	assert_int_equal(mount_parse(&ctl, ARGC(sub), sub), -1);
	assert_string_equal(ctl.cmd, "mount");
	assert_int_equal(mount_parse(&ctl, ARGC(dash), dash), -1);
	assert_string_equal(ctl.cmd, "mount");
}

/* nofail and ro are whole options; the last of ro and rw wins. */
static void test_nofail_and_ro(void **state)
{
	char *fstab[] = { "mount.ext4dev", "s", "d", "-o",
			  "rw,noatime,nofail,nosuid", NULL };
	char *not[] = { "mount.ext4dev", "s", "d", "-o",
			"x-nofail,nofailx,ro", NULL };
	char *quoted[] = { "mount.ext4dev", "s", "d", "-o",
			   "context=\"a,nofail,ro\",rw", NULL };
	char *last[] = { "mount.ext4dev", "s", "d", "-o", "ro", "-o", "rw",
			 "-o", "nofail", NULL };
	char *r[] = { "mount.ext4dev", "s", "d", "-r", NULL };
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(fstab), fstab), -1);
	assert_true(ctl.nofail);
	assert_false(ctl.ro);
	assert_int_equal(mount_parse(&ctl, ARGC(not), not), -1);
	assert_false(ctl.nofail);
	assert_true(ctl.ro);
	assert_int_equal(mount_parse(&ctl, ARGC(quoted), quoted), -1);
	assert_false(ctl.nofail);
	assert_false(ctl.ro);
	assert_int_equal(mount_parse(&ctl, ARGC(last), last), -1);
	assert_true(ctl.nofail);
	assert_false(ctl.ro);
	assert_int_equal(mount_parse(&ctl, ARGC(r), r), -1);
	assert_true(ctl.ro);
}

/* mount(8) exits 0 under nofail only when the source is not there. */
static void test_nofail_forgives_a_missing_source(void **state)
{
	assert_true(mount_nofail_forgives(ENOENT));
	assert_true(mount_nofail_forgives(ENOTDIR));
	assert_true(mount_nofail_forgives(EISDIR));
	assert_true(mount_nofail_forgives(ENXIO));
	assert_true(mount_nofail_forgives(ENOMEDIUM));
	assert_true(mount_nofail_forgives(EXT4DEV_ERR_NO_DEVICE));
	assert_true(mount_nofail_forgives(EXT4DEV_ERR_NOT_BLOCK_OR_FILE));
	assert_false(mount_nofail_forgives(0));
	assert_false(mount_nofail_forgives(EACCES));
	assert_false(mount_nofail_forgives(EINVAL));
	assert_false(mount_nofail_forgives(EXT2_ET_BAD_MAGIC));
	assert_false(mount_nofail_forgives(EXT4DEV_ERR_AMBIGUOUS));
	assert_false(mount_nofail_forgives(EXT4DEV_ERR_TOO_SMALL));
}

/*
 * A user's mount: what setuid mount(8) lets a user type, nothing more:
 * no type, no source, no -o; a read-only request as -r.
 */
static void test_user_argv(void **state)
{
	char *in[] = { "mount.ext4dev", "/dev/loop0", "/mnt", "-s", "-v",
		       "-o", "ro,noatime,noexec,nosuid,nodev,user", NULL };
	const char *want[] = { "mount", "-i", "-svr", "--target", "/mnt",
			       NULL };
	char *rw[] = { "mount.ext4dev", "/dev/loop0", "/mnt", "-o",
		       "rw,dev,suid,users", "-N", "/proc/1/ns/mnt", NULL };
	const char *want_rw[] = { "mount", "-i", "-N", "/proc/1/ns/mnt",
				  "--target", "/mnt", NULL };
	char *out[EXT4DEV_MOUNT_MAX_ARGS];
	struct mount_ctl ctl;

	assert_int_equal(mount_parse(&ctl, ARGC(in), in), -1);
	mount_build_user_argv(&ctl, out);
	for (int i = 0; want[i]; i++)
		assert_string_equal(out[i], want[i]);
	assert_null(out[5]);
	assert_int_equal(mount_parse(&ctl, ARGC(rw), rw), -1);
	mount_build_user_argv(&ctl, out);
	for (int i = 0; want_rw[i]; i++)
		assert_string_equal(out[i], want_rw[i]);
	assert_null(out[6]);
}

static void test_kernel_type(void **state)
{
	assert_true(mount_kernel_has_ext4dev("nodev\tproc\n\text4\n"
					     "\text4dev\n", NULL));
	assert_true(mount_kernel_has_ext4dev("\text4dev", NULL));
	assert_false(mount_kernel_has_ext4dev("\text4\n\text4devx\n"
					      "nodev\tnotext4dev2\n", NULL));
	assert_false(mount_kernel_has_ext4dev(NULL, NULL));
	/* A modular ext4 with the series, not loaded yet. */
	assert_true(mount_kernel_has_ext4dev("\text2\n",
					     "alias fs-ext4 ext4\n"
					     "alias fs-ext4dev ext4\n"));
	assert_true(mount_kernel_has_ext4dev(NULL,
					     "alias fs-ext4dev ext4\n"));
	assert_false(mount_kernel_has_ext4dev("\text2\n",
					      "alias fs-ext4 ext4\n"
					      "alias fs-ext4devx ext4\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_helper_interface),
		cmocka_unit_test(test_remount_is_a_whole_option),
		cmocka_unit_test(test_usage_errors_are_mount8s_1),
		cmocka_unit_test(test_argv_for_util_linux_mount),
		cmocka_unit_test(test_argv_plain),
		cmocka_unit_test(test_name_for_usage_errors),
		cmocka_unit_test(test_nofail_and_ro),
		cmocka_unit_test(test_nofail_forgives_a_missing_source),
		cmocka_unit_test(test_user_argv),
		cmocka_unit_test(test_kernel_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
