// SPDX-License-Identifier: GPL-2.0
/*
 * /sbin/init of the root boots (boots/root-*.sh): the kernel mounts
 * root=/dev/vda itself, with no initramfs, and runs this.  It runs the
 * checks named in ROOTINIT=name,name,... (the kernel hands unknown
 * NAME=VALUE arguments to init's environment; the description writes
 * them from its GUEST_CHECKS), in that order, and reports them as KTAP on
 * ttyS1, as every guest does; the verdict leaves through isa-debug-exit.
 * The checks that are about what the kernel said read its log
 * (syslog(2)), so each one is judged here, whole.
 *
 * The disks are the description's: vda the root, vdb and vdc as it adds
 * them.  Checks that build on each other say so.
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
#include <sys/klog.h>
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
#define ROOTINIT_MAX_CHECKS 32

/* What the series logs, checked whole (see kernel/patches/). */
#define GATE "test_filesystem flag not set"
#define EXT4DEV_LINE "EXT4-fs (vdc): " GATE ", refusing to mount as " \
	"ext4dev; set it with 'tune2fs -E test_fs'"
#define REQUIRE_LINE(dev) "EXT4-fs (" dev "): " GATE " and " \
	"ext4.require_test_fs=1, refusing to mount; set it with " \
	"'tune2fs -E test_fs'"
#define REMOUNT_LINE "EXT4-fs (vda): test_filesystem flag cleared while " \
	"mounted read-only, refusing to remount read-write; set it again " \
	"with 'tune2fs -E test_fs'"

static void finish(void);

static FILE *ktap;		/* ttyS1, or the console without one */
static const char *current;	/* the check being run */
static int number, failed;

/* One KTAP result for the current check. */
static void report(int ok, const char *fmt, ...)
{
	char detail[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	if (!ok)
		failed = 1;
	fprintf(ktap, "%sok %d %s%s%s\n", ok ? "" : "not ", ++number, current,
		detail[0] ? " # " : "", detail);
	fflush(ktap);
}

/* The kernel's log so far, NUL-terminated; static, read anew each time. */
static const char *kernel_log(void)
{
	static char buf[1 << 18];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static int logged(const char *text)
{
	return strstr(kernel_log(), text) != NULL;
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

/* The kernel mounted "/" itself, as ext4, and ran us. */
static void check_mounted_as_ext4(void)
{
	char dev[64], dir[256], type[32], found[32] = "";
	FILE *f = fopen("/proc/mounts", "r");

	/* the last "/" is the one in use (rootfs is below it) */
	while (f && fscanf(f, "%63s %255s %31s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(dir, "/") && strcmp(type, "rootfs"))
			snprintf(found, sizeof(found), "%s", type);
	if (f)
		fclose(f);
	if (!strcmp(found, "ext4"))
		report(1, "/ is %s", found);
	else
		report(0, "/ is '%s' in /proc/mounts, not ext4", found);
}

/* Mounting the root logged no refusal of vda: the probe tried ext4 first. */
static void check_no_gate_line(void)
{
	const char *log = kernel_log(), *line;

	for (line = strstr(log, GATE); line; line = strstr(line + 1, GATE)) {
		const char *start = line;

		while (start > log && start[-1] != '\n')
			start--;
		if (strstr(start, "(vda)") && strstr(start, "(vda)") < line) {
			report(0, "the root mount logged the gate");
			return;
		}
	}
	report(1, "no gate line for vda");
}

/* Mount vdb as TYPE and follow the path FS_IOC_GETFSSYSFSPATH returns. */
static void check_sysfs_path(const char *type)
{
	struct rootinit_sysfs_path p = { 0 };
	char attr[256], flags[256];
	int fd;

	if (mount("/dev/vdb", "/mnt/a", type, MS_RDONLY | MS_SILENT, NULL)) {
		report(0, "mount -t %s /dev/vdb: %s", type, strerror(errno));
		return;
	}
	fd = open("/mnt/a", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, ROOTINIT_GETFSSYSFSPATH, &p)) {
		report(0, "FS_IOC_GETFSSYSFSPATH: %s", strerror(errno));
	} else {
		snprintf(attr, sizeof(attr), "/sys/fs/%.*s/filesystem_flags",
			 p.len, (char *)p.name);
		if (read_file(attr, flags, sizeof(flags)))
			report(0, "%s: %s", attr, strerror(errno));
		else if (!strstr(flags, "test_filesystem"))
			report(0, "%s: '%s' lacks test_filesystem", attr, flags);
		else
			report(1, "%s: %s", attr, flags);
	}
	if (fd >= 0)
		close(fd);
	umount("/mnt/a");
}

static void check_sysfs_path_ext4dev(void) { check_sysfs_path("ext4dev"); }
static void check_sysfs_path_ext3(void) { check_sysfs_path("ext3"); }
static void check_sysfs_path_ext2(void) { check_sysfs_path("ext2"); }
static void check_sysfs_path_ext4(void) { check_sysfs_path("ext4"); }

/*
 * mount(2) of DEV as TYPE must fail with WANT (0: succeed); returns
 * whether it did, reporting only a failure when QUIET.
 */
static int expect_mount(const char *dev, const char *dir, const char *type,
			int want, int quiet)
{
	int err = mount(dev, dir, type, MS_RDONLY | MS_SILENT, NULL) ? errno : 0;

	if (err != want) {
		report(0, "mount -t %s %s %s: %s, expected %s", type, dev, dir,
		       err ? strerror(err) : "mounted",
		       want ? strerror(want) : "success");
		return 0;
	}
	if (!quiet)
		report(1, "mount -t %s %s %s: %s", type, dev, dir,
		       err ? strerror(err) : "mounted");
	return 1;
}

/* "mount -t ext4dev" of unflagged vdc fails, and the log says why. */
static void check_explicit_ext4dev_refused(void)
{
	if (!expect_mount("/dev/vdc", "/mnt/a", "ext4dev", EINVAL, 1))
		return;
	if (logged(EXT4DEV_LINE))
		report(1, "EINVAL, and: %s", EXT4DEV_LINE);
	else
		report(0, "EINVAL, but no line '%s'", EXT4DEV_LINE);
}

/*
 * On a kernel built without CONFIG_EXT4_TEST_FS: no ext4dev type, but
 * require_test_fs is there and on, and unflagged vdb is refused as ext4
 * with the parameter's line.
 */
static void check_no_ext4dev_type(void)
{
	char buf[4096];
	int fd = open("/proc/filesystems", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		report(0, "cannot read /proc/filesystems");
		return;
	}
	buf[n] = '\0';
	if (strstr(buf, "\text4dev\n"))
		report(0, "/proc/filesystems lists ext4dev");
	else
		report(1, "no ext4dev in /proc/filesystems");
}

static void check_require_param_on(void)
{
	char value[16];

	if (read_file(ROOTINIT_PARAM, value, sizeof(value)))
		report(0, "%s: %s", ROOTINIT_PARAM, strerror(errno));
	else if (strcmp(value, "Y"))
		report(0, "%s is '%s', not Y", ROOTINIT_PARAM, value);
	else
		report(1, "%s is Y", ROOTINIT_PARAM);
}

static void check_unflagged_refused(void)
{
	if (!expect_mount("/dev/vdb", "/mnt/a", "ext4", EINVAL, 1))
		return;
	if (logged(REQUIRE_LINE("vdb")))
		report(1, "EINVAL, and: %s", REQUIRE_LINE("vdb"));
	else
		report(0, "EINVAL, but no line '%s'", REQUIRE_LINE("vdb"));
}

/*
 * A second mount of a mounted device, in four checks run in this order:
 * with require_test_fs off, unflagged vdb mounts at /mnt/a; with it on, a
 * second mount at /mnt/b shares the superblock, ext4dev gets EBUSY; once
 * both are unmounted a fresh mount is refused.
 */
static void check_first_mount_param_off(void)
{
	if (write_file(ROOTINIT_PARAM, "0")) {
		report(0, "cannot write %s", ROOTINIT_PARAM);
		return;
	}
	expect_mount("/dev/vdb", "/mnt/a", "ext4", 0, 0);
	write_file(ROOTINIT_PARAM, "1");
}

static void check_second_mount_shares_superblock(void)
{
	expect_mount("/dev/vdb", "/mnt/b", "ext4", 0, 0);
}

static void check_other_type_busy(void)
{
	expect_mount("/dev/vdb", "/mnt/c", "ext4dev", EBUSY, 0);
}

static void check_fresh_mount_refused(void)
{
	umount("/mnt/b");
	umount("/mnt/a");
	expect_mount("/dev/vdb", "/mnt/a", "ext4", EINVAL, 0);
}

/*
 * Under require_test_fs, unflagged ext2 vdc is refused as ext2 with the
 * reason, and without a "mounting ext2 file system" line before it.
 */
static void check_ext2_refused(void)
{
	if (!expect_mount("/dev/vdc", "/mnt/a", "ext2", EINVAL, 1))
		return;
	if (!logged(REQUIRE_LINE("vdc")))
		report(0, "EINVAL, but no line '%s'", REQUIRE_LINE("vdc"));
	else if (logged("EXT4-fs (vdc): mounting ext2 file system"))
		report(0, "the refused ext2 mount claims to be mounting");
	else
		report(1, "EINVAL, and: %s", REQUIRE_LINE("vdc"));
}

/*
 * On a flagged root mounted read-only under require_test_fs, in three
 * checks run in this order: the stock e2fsck runs as systemd-fsck runs
 * it for the root and clears the flag (the kernel's filesystem_flags lose
 * test_filesystem), and the remount read-write then fails with EROFS and
 * the kernel's reason.
 *
 * systemd-fsck runs "fsck -a" (e2fsck -a = -p) without -f, and judges its
 * exit status: bit 2 (4, errors left uncorrected) drops to emergency
 * mode, bit 1 (2, the system should be rebooted) for the root starts
 * reboot.target, anything else goes on to the remount.  We do the same,
 * so the checks after this one see what a systemd machine would: on a
 * reboot or an emergency, init ends here and the checks not run are
 * missing from the report, which fails the boot.
 */
/* Run /sbin/e2fsck OPTS /dev/vda and judge its exit status as above. */
static void run_e2fsck(const char *opts)
{
	int status = 0, code;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execl("/sbin/e2fsck", "e2fsck", opts, "/dev/vda", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
		report(0, "e2fsck %s /dev/vda: status 0x%x", opts, status);
		return;
	}
	code = WEXITSTATUS(status);
	if (code & 4) {
		report(0, "e2fsck %s /dev/vda exited %d: errors left, systemd-fsck would drop to emergency mode",
		       opts, code);
		finish();
	}
	if (code & 2) {
		report(1, "e2fsck %s /dev/vda exited %d: reboot asked, rebooting as systemd-fsck does for the root",
		       opts, code);
		finish();
	}
	report(1, "e2fsck %s /dev/vda exited %d: systemd-fsck goes on", opts, code);
}

static void check_e2fsck_ran(void)
{
	run_e2fsck("-a");
}

/*
 * The same with our e2fsprogs patch (test/upstream/): "e2fsck -fp", the
 * forced preen an administrator or another distribution's initramfs
 * runs, keeps the flag the running kernel requires, so the flag stays
 * and the remount read-write goes through.
 */
static void check_e2fsck_fp_ran(void)
{
	run_e2fsck("-fp");
}

static void check_flag_kept(void)
{
	char flags[256];

	if (read_file("/sys/fs/ext4/vda/filesystem_flags", flags, sizeof(flags)))
		report(0, "cannot read filesystem_flags");
	else if (!strstr(flags, "test_filesystem"))
		report(0, "e2fsck cleared the flag: '%s'", flags);
	else
		report(1, "filesystem_flags still '%s'", flags);
}

/* The remount read-write works, and the kernel logged no refusal. */
static void check_remount_rw(void)
{
	if (mount(NULL, "/", NULL, MS_REMOUNT, NULL))
		report(0, "remount read-write: %s", strerror(errno));
	else if (logged(REMOUNT_LINE))
		report(0, "remounted, but the kernel logged '%s'", REMOUNT_LINE);
	else
		report(1, "/ remounted read-write");
}

static void check_flag_cleared(void)
{
	char flags[256];

	if (read_file("/sys/fs/ext4/vda/filesystem_flags", flags, sizeof(flags)))
		report(0, "cannot read filesystem_flags");
	else if (strstr(flags, "test_filesystem"))
		report(0, "e2fsck kept the flag: '%s'", flags);
	else
		report(1, "filesystem_flags now '%s'", flags);
}

static void check_remount_refused_with_reason(void)
{
	if (!mount(NULL, "/", NULL, MS_REMOUNT, NULL))
		report(0, "/ was remounted read-write");
	else if (errno != EROFS)
		report(0, "remount: %s, expected %s", strerror(errno),
		       strerror(EROFS));
	else if (!logged(REMOUNT_LINE))
		report(0, "EROFS, but no line '%s'", REMOUNT_LINE);
	else
		report(1, "EROFS, and: %s", REMOUNT_LINE);
}

static const struct {
	const char *name;
	void (*run)(void);
} checks[] = {
	{ "mounted_as_ext4", check_mounted_as_ext4 },
	{ "no_gate_line", check_no_gate_line },
	{ "sysfs_path_ext4dev", check_sysfs_path_ext4dev },
	{ "sysfs_path_ext3", check_sysfs_path_ext3 },
	{ "sysfs_path_ext2", check_sysfs_path_ext2 },
	{ "sysfs_path_ext4", check_sysfs_path_ext4 },
	{ "explicit_ext4dev_refused", check_explicit_ext4dev_refused },
	{ "first_mount_param_off", check_first_mount_param_off },
	{ "second_mount_shares_superblock",
	  check_second_mount_shares_superblock },
	{ "other_type_busy", check_other_type_busy },
	{ "fresh_mount_refused", check_fresh_mount_refused },
	{ "ext2_refused", check_ext2_refused },
	{ "e2fsck_ran", check_e2fsck_ran },
	{ "flag_cleared", check_flag_cleared },
	{ "remount_refused_with_reason", check_remount_refused_with_reason },
	{ "e2fsck_fp_ran", check_e2fsck_fp_ran },
	{ "flag_kept", check_flag_kept },
	{ "remount_rw", check_remount_rw },
	{ "no_ext4dev_type", check_no_ext4dev_type },
	{ "require_param_on", check_require_param_on },
	{ "unflagged_refused", check_unflagged_refused },
};

static void run_check(const char *name)
{
	size_t i;

	current = name;
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if (!strcmp(checks[i].name, name)) {
			checks[i].run();
			return;
		}
	}
	report(0, "rootinit has no check '%s'", name);
}

/*
 * Leave QEMU through isa-debug-exit (port 0xf4): 0x10 for pass, 0x11 for
 * fail, so QEMU exits 33 or 35.  Without the device, reboot ends the run
 * (status 0, which the host reads as no verdict).
 */
static void finish(void)
{
	unsigned char value = failed ? 0x11 : 0x10;
	int fd = open("/dev/port", O_WRONLY);

	sync();
	if (fd >= 0 && lseek(fd, 0xf4, SEEK_SET) == 0xf4)
		write(fd, &value, 1);
	reboot(RB_AUTOBOOT);
}

int main(void)
{
	const char *env = getenv("ROOTINIT");
	char list[1024], *names[ROOTINIT_MAX_CHECKS], *name, *save;
	int count = 0, i;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	ktap = fopen("/dev/ttyS1", "w");
	if (!ktap)
		ktap = stdout;
	snprintf(list, sizeof(list), "%s", env ? env : "");
	for (name = strtok_r(list, ",", &save); name && count < ROOTINIT_MAX_CHECKS;
	     name = strtok_r(NULL, ",", &save))
		names[count++] = name;
	fprintf(ktap, "KTAP version 1\n1..%d\n", count);
	for (i = 0; i < count; i++)
		run_check(names[i]);
	fflush(ktap);
	finish();
	return 0;
}
