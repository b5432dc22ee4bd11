// SPDX-License-Identifier: GPL-2.0
/*
 * mount.ext4dev's second half: once cmd_mount.c has decided, build
 * util-linux mount's command line and exec it, after asking the running
 * kernel whether it has the ext4dev type.  $EXT4DEV_MOUNT and
 * $EXT4DEV_PROC_FILESYSTEMS stand in for mount and /proc/filesystems in
 * tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd_mount.h"
#include "exitcodes.h"
#include "report.h"

void mount_build_argv(const struct mount_ctl *ctl, const char *type,
		      const char *spec, char **argv)
{
	static char flags[sizeof(((struct mount_ctl *)0)->flags) + 1];
	int n = 0;

	argv[n++] = "mount";
	argv[n++] = "-i";
	argv[n++] = "-t";
	argv[n++] = (char *)type;
	if (ctl->flags[0]) {
		snprintf(flags, sizeof(flags), "-%s", ctl->flags);
		argv[n++] = flags;
	}
	if (ctl->ns) {
		argv[n++] = "-N";
		argv[n++] = (char *)ctl->ns;
	}
	for (int i = 0; i < ctl->nopts; i++) {
		argv[n++] = "-o";
		argv[n++] = (char *)ctl->opts[i];
	}
	argv[n++] = "--";
	argv[n++] = (char *)spec;
	argv[n++] = (char *)ctl->dir;
	argv[n] = NULL;
}

/* Is @word a whole line, or the last field of one, in @text? */
static bool has_line_ending(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		const char *start;
		size_t len;

		if (*p == '\n')
			p++;
		len = (size_t)(strchrnul(p, '\n') - p);
		if (len < n)
			continue;
		/* p + (len - n), never end - n: a size_t offset stays >= 0. */
		start = p + (len - n);
		if (!strncmp(start, word, n) &&
		    (start == p || start[-1] == ' ' || start[-1] == '\t'))
			return true;
	}
	return false;
}

bool mount_kernel_has_ext4dev(const char *filesystems, const char *aliases)
{
	/* "\text4dev" in /proc/filesystems; "alias fs-ext4dev ext4". */
	if (filesystems && has_line_ending(filesystems, "ext4dev"))
		return true;
	return aliases && (strstr(aliases, "\nalias fs-ext4dev ") ||
			   !strncmp(aliases, "alias fs-ext4dev ", 17));
}

/* A whole text file, or NULL; for /proc files, whose size says 0. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	char buf[8192];
	size_t n;

	if (!f)
		return NULL;
	out = open_memstream(&text, &len);
	while (out && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	fclose(f);
	return text;
}

/*
 * /proc/filesystems, else the running kernel's modules.alias: a modular
 * ext4 with the series lists ext4dev only once it is loaded, and mount
 * loads it by the type's name.  @fs_path stands in for
 * /proc/filesystems in tests.
 */
static bool kernel_has_ext4dev(const char *fs_path)
{
	char *fs = slurp(fs_path ? fs_path : "/proc/filesystems");
	char *aliases = NULL, path[512];
	struct utsname u;
	bool has;

	if (!fs_path && !uname(&u)) {
		snprintf(path, sizeof(path), "/lib/modules/%s/modules.alias",
			 u.release);
		if (!fs || !mount_kernel_has_ext4dev(fs, NULL))
			aliases = slurp(path);
	}
	has = mount_kernel_has_ext4dev(fs, aliases);
	free(fs);
	free(aliases);
	return has;
}

bool mount_kernel_has_type(void)
{
	return kernel_has_ext4dev(getenv("EXT4DEV_PROC_FILESYSTEMS"));
}

/* $EXT4DEV_MOUNT, else mount on $PATH, else where util-linux puts it. */
static int exec_mount(char **argv)
{
	static const char *const fallback[] = { "/usr/bin/mount",
						"/bin/mount", NULL };
	const char *mount = getenv("EXT4DEV_MOUNT");

	fflush(stdout);
	if (mount) {
		execvp(mount, argv);
		report_failure("cannot run mount '%s': %s", mount,
			       strerror(errno));
		return EXT4DEV_MOUNT_SYSERR;
	}
	execvp("mount", argv);
	for (const char *const *p = fallback; errno == ENOENT && *p; p++)
		execv(*p, argv);
	report_failure("cannot run mount: %s (install mount)",
		       strerror(errno));
	return EXT4DEV_MOUNT_SYSERR;
}

int mount_run(const struct mount_ctl *ctl, const char *type,
	      const char *spec)
{
	char *argv[EXT4DEV_MOUNT_MAX_ARGS];

	mount_build_argv(ctl, type, spec, argv);
	return exec_mount(argv);
}
