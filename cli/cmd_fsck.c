// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dev fsck, also run as fsck.ext4dev: the system's e2fsck with
 * exactly the arguments given, configured to keep the test_filesystem
 * flag.  systemd-fsck picks fsck.<blkid type>, and blkid says "ext4dev"
 * for a flagged ext4 filesystem, so this is what checks such a disk at
 * boot; plain e2fsck -p would clear the flag.
 *
 * The configuration travels in a memfd that e2fsck opens as
 * /proc/self/fd/N, and we exec e2fsck in our own place: no file is
 * written anywhere (a read-only root at boot is fine), nothing is left
 * to clean up on any path, signals reach e2fsck itself, and the exit
 * status is e2fsck's because the process is e2fsck.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "commands.h"
#include "e2fsck_conf.h"
#include "fsio.h"
#include "exitcodes.h"
#include "report.h"
#include "version.h"

static int print_help(void)
{
	printf("Usage:\n"
	       " fsck.ext4dev [e2fsck options] <device>\n"
	       " ext4dev fsck [e2fsck options] <device>\n\n"
	       "Check an ext4 filesystem with e2fsck(8) and keep its "
	       "test_filesystem flag:\n"
	       "e2fsck runs with exactly these arguments, and its "
	       "configuration ($E2FSCK_CONFIG\n"
	       "or /etc/e2fsck.conf) gets 'clear_test_fs_flag = false' "
	       "first.  The exit status\n"
	       "is e2fsck's.  $EXT4DEV_E2FSCK names another e2fsck.\n\n"
	       "Options:\n"
	       " -h, --help            display this help (e2fsck has "
	       "none of its own)\n"
	       "     --version         display our version and e2fsck's "
	       "(-V is e2fsck's)\n"
	       " all others            e2fsck's: see e2fsck(8)\n");
	return EXT4DEV_EXIT_OK;
}

/*
 * e2fsck rejects -h and --help as usage errors, so taking them for
 * ourselves changes no command e2fsck would accept.  After "--" they
 * are device names.
 */
static bool wants(int argc, char **argv, const char *a, const char *b)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], a) || (b && !strcmp(argv[i], b)))
			return true;
	return false;
}

static int write_all(int fd, const char *text)
{
	size_t len = strlen(text);

	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The system's configuration with the flag kept, as an open memfd. */
static int conf_fd(int *fd)
{
	const char *path = e2fsck_conf_path();
	char *text = NULL, *conf = NULL;
	int err = e2fsck_conf_read(path, &text);

	if (err)
		return report_failure("cannot read e2fsck configuration "
				      "'%s': %s", path, strerror(err));
	conf = e2fsck_conf_with_keep(text);
	free(text);
	if (!conf)
		return report_failure("%s", strerror(ENOMEM));
	/* No MFD_CLOEXEC: e2fsck must inherit it. */
	*fd = memfd_create("e2fsck.conf", 0);
	err = *fd < 0 ? errno : write_all(*fd, conf);
	free(conf);
	if (err)
		return report_failure("cannot hold the e2fsck configuration "
				      "in memory: %s", strerror(err));
	return -1;
}

/* $EXT4DEV_E2FSCK, else e2fsck on $PATH, else where Debian puts it. */
static int exec_e2fsck(char **argv)
{
	static const char *const fallback[] = { "/usr/sbin/e2fsck",
						"/sbin/e2fsck", NULL };
	const char *e2fsck = getenv("EXT4DEV_E2FSCK");

	if (e2fsck) {
		execvp(e2fsck, argv);
		return report_failure("cannot run e2fsck '%s': %s", e2fsck,
				      strerror(errno));
	}
	execvp("e2fsck", argv);
	for (const char *const *p = fallback; errno == ENOENT && *p; p++)
		execv(*p, argv);
	return report_failure("cannot run e2fsck: %s (install e2fsprogs)",
			      strerror(errno));
}

/*
 * e2fsck opens its device (the last argument) without looking: a FIFO
 * would hold it for ever.  Refuse what every other command refuses.
 */
static int check_device(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[argc - 1] : "-";
	errcode_t err;

	if (dev[0] == '-')
		return -1;
	err = fsio_check_kind(dev);
	if (err != EXT4DEV_ERR_NOT_BLOCK_OR_FILE)
		return -1;
	return report_failure("'%s': %s", dev, error_message(err));
}

int cmd_fsck(int argc, char **argv, const struct ext4dev_cmd *cmd)
{
	char proc_path[64];
	int fd = -1, rc;

	if (wants(argc, argv, "-h", "--help"))
		return print_help();
	/*
	 * e2fsck has no --version (its -V stays its own): ours, then the
	 * e2fsck we run saying its own.
	 */
	if (wants(argc, argv, "--version", NULL)) {
		static char *version_argv[] = { "e2fsck", "-V", NULL };

		ext4dev_print_version();
		printf("runs e2fsck, which says:\n");
		fflush(stdout);
		return exec_e2fsck(version_argv);
	}
	rc = check_device(argc, argv);
	if (rc >= 0)
		return rc;
	rc = conf_fd(&fd);
	if (rc >= 0)
		return rc;
	/* e2fsck reads the memfd through /proc; without it, say so. */
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	if (access(proc_path, R_OK)) {
		rc = report_failure("cannot hand e2fsck its configuration as "
				    "'%s': %s (is /proc mounted?)", proc_path,
				    strerror(errno));
		close(fd);
		return rc;
	}
	if (setenv("E2FSCK_CONFIG", proc_path, 1)) {
		close(fd);
		return report_failure("%s", strerror(errno));
	}
	/* Messages say "fsck.ext4dev: ..." as Debian's say "fsck.ext4: ...". */
	static char e2fsck_name[] = "e2fsck";

	if (!strcmp(argv[0], cmd->name))
		argv[0] = e2fsck_name;
	fflush(stdout);
	rc = exec_e2fsck(argv);
	close(fd);
	return rc;
}
