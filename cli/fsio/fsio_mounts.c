// SPDX-License-Identifier: GPL-2.0
/*
 * Where a block device is mounted, in this mount namespace or in any
 * other one on the machine, and what holds it.  Only asked after an
 * exclusive open failed with EBUSY, to say why in the refusal: the
 * claim itself (O_EXCL) is what keeps the bytes safe, this only names
 * the reason.  A leaf: reads /proc and /sys, never writes, never opens
 * a device.
 */
#include <ctype.h>
#include <limits.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fsio.h"

/* Enough to tell the namespaces of a busy machine apart; more only rescans. */
#define FSIO_MAX_NS 256

/* The mount point of @rdev in the mountinfo file @path, or false. */
static bool mounted_in(const char *path, dev_t rdev, char *mnt, size_t len)
{
	unsigned int maj, min;
	char line[4096], where[1024];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min,
			   where) != 3)
			continue;
		if (makedev(maj, min) != rdev)
			continue;
		snprintf(mnt, len, "%s", where);
		found = true;
	}
	fclose(f);
	return found;
}

static bool seen_ns(ino_t *seen, unsigned int *nseen, ino_t ns)
{
	for (unsigned int i = 0; i < *nseen; i++)
		if (seen[i] == ns)
			return true;
	if (*nseen < FSIO_MAX_NS)
		seen[(*nseen)++] = ns;
	return false;
}

/* Every process's namespace but ours, each read once. */
static bool mounted_elsewhere(dev_t rdev, char *mnt, size_t len)
{
	ino_t seen[FSIO_MAX_NS];
	unsigned int nseen = 0;
	char path[NAME_MAX + 32];
	struct stat st;
	struct dirent *d;
	bool found = false;
	DIR *proc = opendir("/proc");

	if (!proc)
		return false;
	if (!stat("/proc/self/ns/mnt", &st))
		seen_ns(seen, &nseen, st.st_ino);
	while (!found && (d = readdir(proc))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", d->d_name);
		if (stat(path, &st) || seen_ns(seen, &nseen, st.st_ino))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/mountinfo", d->d_name);
		found = mounted_in(path, rdev, mnt, len);
	}
	closedir(proc);
	return found;
}

enum fsio_mount_where fsio_find_mount(dev_t rdev, char *mnt, size_t len)
{
	if (mounted_in("/proc/self/mountinfo", rdev, mnt, len))
		return FSIO_MOUNTED_HERE;
	if (mounted_elsewhere(rdev, mnt, len))
		return FSIO_MOUNTED_ELSEWHERE;
	return FSIO_NOT_MOUNTED;
}

bool fsio_find_holder(dev_t rdev, char *name, size_t len)
{
	char path[64];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
		 major(rdev), minor(rdev));
	dir = opendir(path);
	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(name, len, "%s", d->d_name);
		found = true;
	}
	closedir(dir);
	return found;
}
