// SPDX-License-Identifier: GPL-2.0
/* How messages name devices: escaping and LABEL=/UUID= with its device. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report.h"

static void test_escape(void **state)
{
	char buf[64];

	assert_int_equal(report_escape("plain name.img", buf, sizeof(buf)),
			 14);
	assert_string_equal(buf, "plain name.img");
	report_escape("a\nb\x1b[31mc\x7f\t", buf, sizeof(buf));
	assert_string_equal(buf, "a\\x0ab\\x1b[31mc\\x7f\\x09");
	/* UTF-8 passes, only C0 controls and DEL are escaped. */
	report_escape("d\xc3\xa9j\xc3\xa0", buf, sizeof(buf));
	assert_string_equal(buf, "d\xc3\xa9j\xc3\xa0");
}

static void test_escape_never_overflows(void **state)
{
	char buf[6];

	/* "ab" + "\x0a" needs 7 bytes: the escape is dropped, not cut. */
	report_escape("ab\n\n", buf, sizeof(buf));
	assert_string_equal(buf, "ab");
	report_escape("abcdefgh", buf, sizeof(buf));
	assert_string_equal(buf, "abcde");
	assert_int_equal(report_escape("x", buf, 0), 0);
}

static void test_dev_name(void **state)
{
	struct fsio_dev dev;
	char buf[128];

	memset(&dev, 0, sizeof(dev));
	dev.spec = "LABEL=scratch";
	dev.path = "/dev/loop0";
	assert_string_equal(report_dev_name(&dev, false, buf, sizeof(buf)),
			    "LABEL=scratch (/dev/loop0)");
	assert_string_equal(report_dev_name(&dev, true, buf, sizeof(buf)),
			    "'LABEL=scratch' (/dev/loop0)");
	dev.spec = "a.img";
	dev.path = "a.img";
	assert_string_equal(report_dev_name(&dev, true, buf, sizeof(buf)),
			    "'a.img'");
	/* Not resolved (no device with that label): the tag alone. */
	dev.spec = "UUID=1234";
	dev.path = NULL;
	assert_string_equal(report_dev_name(&dev, false, buf, sizeof(buf)),
			    "UUID=1234");
}

/* The line report_fs_error_msg() prints, kept for show-flags --json. */
static void test_fs_error_msg(void **state)
{
	struct fsio_dev dev;
	char msg[128];

	memset(&dev, 0, sizeof(dev));
	dev.spec = "a\nb.img";
	dev.path = "a\nb.img";
	assert_int_equal(report_fs_error_msg(&dev, ENOENT, msg, sizeof(msg)),
			 8);
	assert_string_equal(msg, "'a\\x0ab.img': No such file or directory");
	dev.spec = "z.img";
	dev.path = "z.img";
	snprintf(dev.foreign_type, sizeof(dev.foreign_type), "vfat");
	snprintf(dev.foreign_usage, sizeof(dev.foreign_usage), "filesystem");
	report_fs_error_msg(&dev, EXT4DEV_ERR_FOREIGN, msg, sizeof(msg));
	assert_string_equal(msg, "'z.img': contains a vfat filesystem, not "
			    "ext2/ext3/ext4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_never_overflows),
		cmocka_unit_test(test_dev_name),
		cmocka_unit_test(test_fs_error_msg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
