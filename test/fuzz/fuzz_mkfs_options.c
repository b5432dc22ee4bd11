// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mkfs's command line, -E and -J keywords and sizes.
 *
 * Input: a selector byte, then the text.  Selector 0: NUL-separated
 * words for mkfs_parse_args() (argv[0] "mkfs"); 1: an -E list for
 * mkfs_parse_ext_opts(); 2: a -J list for mkfs_parse_journal_opts();
 * 3: a size for mkfs_parse_num() at every block size.  The parsers must
 * return -1, 0 or 16 (the usage-error code), never crash or leak.  Run
 * with -close_fd_mask=3: they print help and usage.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "mkfs.h"

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rc(int rc)
{
	if (rc != -1 && rc != EXT4DEV_EXIT_OK && rc != EXT4DEV_EXIT_USAGE &&
	    rc != EXT4DEV_EXIT_FAILURE)
		abort();
}

static void parse_argv(struct mkfs_opts *ctl, char *buf, size_t len)
{
	char *argv[FUZZ_MAX_ARGS + 2];
	int argc = 1;

	argv[0] = (char *)EXT4DEV_MKFS_CMD;
	for (char *p = buf; p < buf + len && argc <= FUZZ_MAX_ARGS;
	     p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	check_rc(mkfs_parse_args(ctl, argc, argv));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mkfs_opts ctl;
	struct mkfs_plan plan;
	char *buf;

	if (size < 1)
		return 0;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	mkfs_opts_init(&ctl);
	mkfs_plan_init(&plan, &ctl);
	switch (data[0] % 4) {
	case 0:
		parse_argv(&ctl, buf, size - 1);
		break;
	case 1:
		check_rc(mkfs_parse_ext_opts(&plan, buf, "-E"));
		break;
	case 2:
		check_rc(mkfs_parse_journal_opts(&ctl, buf));
		break;
	default:
		for (int log = 0; log <= 6; log++)
			mkfs_parse_num(buf, log);
		break;
	}
	mkfs_opts_free(&ctl);
	free(buf);
	return 0;
}
