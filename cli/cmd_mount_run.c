// SPDX-License-Identifier: GPL-2.0
/*
 * mount.ext4dev's second half: once cmd_mount.c has decided, build
 * util-linux mount's command line and exec it, after asking the running
 * kernel whether it has the ext4dev type.
 *
 * Root's run may be redirected by the environment ($EXT4DEV_MOUNT,
 * $EXT4DEV_PROC_FILESYSTEMS: the tests use both).  A user's may not:
 * for a user mount we read the kernel's own files and run the setuid
 * mount(8) from where util-linux installs it, never one from $PATH.
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

/*
 * setuid mount(8) lets a user give -i, -r, -v, -s and one of source or
 * target, nothing else, and then takes type, source and options from
 * fstab; anything more makes it drop root's rights.  So the -o options
 * mount(8) handed us stay behind (the entry's own come back from fstab)
 * and only a read-only request goes on, as -r, which the user may ask
 * for anyway.  Flags and -N go on unchanged: mount(8) judges them as it
 * would on the user's own command line.
 */
void mount_build_user_argv(const struct mount_ctl *ctl, char **argv)
{
	static char flags[sizeof(((struct mount_ctl *)0)->flags) + 2];
	bool add_r = ctl->ro && !strchr(ctl->flags, 'r');
	int n = 0;

	argv[n++] = "mount";
	argv[n++] = "-i";
	if (ctl->flags[0] || add_r) {
		snprintf(flags, sizeof(flags), "-%s%s", ctl->flags,
			 add_r ? "r" : "");
		argv[n++] = flags;
	}
	if (ctl->ns) {
		argv[n++] = "-N";
		argv[n++] = (char *)ctl->ns;
	}
	argv[n++] = "--target";
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

bool mount_kernel_has_type(const struct mount_ctl *ctl)
{
	return kernel_has_ext4dev(ctl->user ? NULL :
				  getenv("EXT4DEV_PROC_FILESYSTEMS"));
}

/*
 * @prog if not NULL, else mount on $PATH when @search, else (and when
 * $PATH has none) where util-linux puts it.
 */
static int exec_mount(char **argv, const char *prog, bool search)
{
	static const char *const fixed[] = { "/usr/bin/mount", "/bin/mount",
					     NULL };

	fflush(stdout);
	if (prog) {
		execvp(prog, argv);
		report_failure("cannot run mount '%s': %s", prog,
			       strerror(errno));
		return EXT4DEV_MOUNT_SYSERR;
	}
	errno = ENOENT;
	if (search)
		execvp("mount", argv);
	for (const char *const *p = fixed; errno == ENOENT && *p; p++)
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
	return exec_mount(argv, getenv("EXT4DEV_MOUNT"), true);
}

int mount_run_user(const struct mount_ctl *ctl)
{
	char *argv[EXT4DEV_MOUNT_MAX_ARGS];

	mount_build_user_argv(ctl, argv);
	return exec_mount(argv, NULL, false);
}
