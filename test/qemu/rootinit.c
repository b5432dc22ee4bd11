// SPDX-License-Identifier: GPL-2.0
/*
 * /sbin/init of the root-boot images (run-rootboot.sh): the kernel mounts
 * root=/dev/vda itself, with no initramfs, and runs this.  It reports on
 * the console, one line per check, which the host reads:
 *
 *   rootinit: ok NAME [# detail]
 *   rootinit: not ok NAME # why
 *   rootinit: done
 *
 * then reboots, which QEMU (-no-reboot) turns into an exit.  What it
 * checks besides the root mount comes from ROOTINIT=step,step on the
 * kernel command line (the kernel hands unknown NAME=VALUE to init's
 * environment):
 *
 *   sysfs   FS_IOC_GETFSSYSFSPATH on /dev/vdb (a flagged ext3 disk)
 *           mounted as ext4dev, ext3, ext2 and ext4: the path it returns
 *           exists under /sys/fs and holds filesystem_flags
 *   refuse  "mount -t ext4dev" of /dev/vdc (unflagged) with MS_SILENT
 *           fails with EINVAL (the host checks the console for the line)
 *   second  with require_test_fs switched on under a mounted unflagged
 *           /dev/vdb: a second mount as ext4 shares the superblock and
 *           succeeds, ext4dev gets EBUSY, a fresh mount gets EINVAL
 *   ext2    with require_test_fs on, "mount -t ext2" of unflagged ext2
 *           /dev/vdc fails with EINVAL (the host checks that the console
 *           has the refusal and no "mounting ext2 file system" line)
 *   fsck    on a flagged root mounted read-only under require_test_fs:
 *           run the stock "e2fsck -fp /dev/vda" copied into the image,
 *           which clears the flag; the kernel's view of the flags loses
 *           test_filesystem; the remount read-write fails with EROFS
 *           (the host checks the console for the kernel's reason)
 *
 * Static, so the image needs no libraries.  Kernel style, as the series.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>

/* Linux 6.10 UAPI; Debian 12's headers predate it. */
struct rootinit_sysfs_path {
	__u8 len;
	__u8 name[128];
};

#define ROOTINIT_GETFSSYSFSPATH _IOR(0x15, 1, struct rootinit_sysfs_path)
#define ROOTINIT_PARAM "/sys/module/ext4/parameters/require_test_fs"

static void report(int ok, const char *name, const char *fmt, ...)
{
	char detail[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	printf("rootinit: %s%s%s%s\n", ok ? "ok " : "not ok ", name,
	       detail[0] ? " # " : "", detail);
	fflush(stdout);
}

/* The device and type of "/" as /proc/mounts has them. */
static void check_root(void)
{
	char dev[64], dir[256], type[32];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	while (f && fscanf(f, "%63s %255s %31s %*[^\n]", dev, dir, type) == 3) {
		/* the last "/" is the one in use (rootfs is below it) */
		if (!strcmp(dir, "/") && strcmp(type, "rootfs"))
			found = 1;
		if (found)
			break;
	}
	if (f)
		fclose(f);
	if (found)
		report(1, "root", "%s %s", dev, type);
	else
		report(0, "root", "no root filesystem in /proc/mounts");
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Mount vdb as TYPE and follow the path the ioctl returns. */
static void check_sysfs_path(const char *type)
{
	struct rootinit_sysfs_path p = { 0 };
	char name[64], attr[256], flags[256];
	int fd;

	snprintf(name, sizeof(name), "sysfs_path_%s", type);
	if (mount("/dev/vdb", "/mnt/a", type, MS_RDONLY | MS_SILENT, NULL)) {
		report(0, name, "mount -t %s /dev/vdb: %s", type, strerror(errno));
		return;
	}
	fd = open("/mnt/a", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, ROOTINIT_GETFSSYSFSPATH, &p)) {
		report(0, name, "FS_IOC_GETFSSYSFSPATH: %s", strerror(errno));
	} else {
		snprintf(attr, sizeof(attr), "/sys/fs/%.*s/filesystem_flags",
			 p.len, (char *)p.name);
		if (read_file(attr, flags, sizeof(flags)))
			report(0, name, "%s: %s", attr, strerror(errno));
		else if (!strstr(flags, "test_filesystem"))
			report(0, name, "%s: '%s' lacks test_filesystem", attr, flags);
		else
			report(1, name, "%s: %s", attr, flags);
	}
	if (fd >= 0)
		close(fd);
	umount("/mnt/a");
}

/* mount(2) of DEV as TYPE must fail with WANT (0: succeed). */
static void expect_mount(const char *name, const char *dev, const char *dir,
			 const char *type, int want)
{
	int err = mount(dev, dir, type, MS_RDONLY | MS_SILENT, NULL) ? errno : 0;

	if (err == want)
		report(1, name, "mount -t %s %s %s: %s", type, dev, dir,
		       err ? strerror(err) : "mounted");
	else
		report(0, name, "mount -t %s %s %s: %s, expected %s", type, dev,
		       dir, err ? strerror(err) : "mounted",
		       want ? strerror(want) : "success");
}

static void check_second_mount(void)
{
	if (write_file(ROOTINIT_PARAM, "0")) {
		report(0, "second_mount", "cannot write %s", ROOTINIT_PARAM);
		return;
	}
	expect_mount("first_mount_param_off", "/dev/vdb", "/mnt/a", "ext4", 0);
	write_file(ROOTINIT_PARAM, "1");
	expect_mount("second_mount_shares_superblock", "/dev/vdb", "/mnt/b",
		     "ext4", 0);
	expect_mount("other_type_busy", "/dev/vdb", "/mnt/c", "ext4dev", EBUSY);
	umount("/mnt/b");
	umount("/mnt/a");
	expect_mount("fresh_mount_refused", "/dev/vdb", "/mnt/a", "ext4",
		     EINVAL);
}

/* The stock e2fsck clears the flag; the ro->rw remount must then fail. */
static void check_fsck_remount(void)
{
	char flags[256];
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/sbin/e2fsck", "e2fsck", "-fp", "/dev/vda", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 3) {
		report(0, "e2fsck_ran", "e2fsck -fp /dev/vda: status 0x%x", status);
		return;
	}
	report(1, "e2fsck_ran", "e2fsck -fp /dev/vda exited %d",
	       WEXITSTATUS(status));
	if (read_file("/sys/fs/ext4/vda/filesystem_flags", flags, sizeof(flags)))
		report(0, "flag_cleared", "cannot read filesystem_flags");
	else if (strstr(flags, "test_filesystem"))
		report(0, "flag_cleared", "e2fsck kept the flag: '%s'", flags);
	else
		report(1, "flag_cleared", "filesystem_flags now '%s'", flags);
	if (!mount(NULL, "/", NULL, MS_REMOUNT, NULL))
		report(0, "remount_rw_refused", "/ was remounted read-write");
	else if (errno != EROFS)
		report(0, "remount_rw_refused", "remount: %s, expected %s",
		       strerror(errno), strerror(EROFS));
	else
		report(1, "remount_rw_refused", "remount: %s", strerror(errno));
}

static int has_step(const char *steps, const char *step)
{
	size_t len = strlen(step);
	const char *s;

	for (s = steps; (s = strstr(s, step)); s += len)
		if ((s == steps || s[-1] == ',') && (!s[len] || s[len] == ','))
			return 1;
	return 0;
}

int main(void)
{
	const char *steps = getenv("ROOTINIT") ? getenv("ROOTINIT") : "";

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	printf("rootinit: started, steps '%s'\n", steps);
	check_root();
	if (has_step(steps, "sysfs")) {
		check_sysfs_path("ext4dev");
		check_sysfs_path("ext3");
		check_sysfs_path("ext2");
		check_sysfs_path("ext4");
	}
	if (has_step(steps, "refuse"))
		expect_mount("explicit_ext4dev_refused", "/dev/vdc", "/mnt/a",
			     "ext4dev", EINVAL);
	if (has_step(steps, "second"))
		check_second_mount();
	if (has_step(steps, "ext2"))
		expect_mount("ext2_refused", "/dev/vdc", "/mnt/a", "ext2",
			     EINVAL);
	if (has_step(steps, "fsck"))
		check_fsck_remount();
	printf("rootinit: done\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
