# shellcheck shell=dash
# TESTS is read by guest/run; run() in lib.sh sets $rc and $out.
# shellcheck disable=SC2034,SC2154
# The checks of the modular kernel (build.sh --flavour modular): ext4 is
# a module, loaded the ways a distribution kernel loads it.  Disks, by
# virtio serial, as for the require suite (see test/qemu/boots/normal.sh):
#   unflagged   plain "mke2fs -t ext4"
#   flagged     "mke2fs -t ext4 -E test_fs"
#   untouched   unflagged; every mount must be refused, and the host checks
#               afterwards that not a byte of it changed
# Each test starts by unloading ext4, so none depends on the one before.

TESTS="not_loaded_at_boot modprobe_require_test_fs mount_autoloads_ext4dev
modprobe_ext4dev rmmod_removes_links refused_mount_untouched"

# kmod's, by path: busybox sh would run its own applets first.
MODPROBE=/usr/sbin/modprobe
RMMOD=/usr/sbin/rmmod
PARAM=/sys/module/ext4/parameters/require_test_fs
# The /sys/fs names of the types ext4 serves here (ext2 too: the flavour
# sets CONFIG_EXT4_USE_FOR_EXT2).
SYSFS_NAMES="ext4 ext4dev ext3 ext2"

loaded() {
	grep -q '^ext4 ' /proc/modules
}

registered() {
	grep -qw "$1" /proc/filesystems
}

unload_ext4() {
	! loaded && return 0
	run "$RMMOD" ext4
	[ "$rc" = 0 ] || fail "rmmod ext4 exited $rc: $out"
	! loaded || fail "ext4 is still loaded after rmmod"
}

load_ext4() {
	run "$MODPROBE" "$@"
	[ "$rc" = 0 ] || fail "modprobe $* exited $rc: $out"
	loaded || fail "modprobe $* did not load ext4"
}

t_not_loaded_at_boot() {
	! loaded || fail "ext4 is loaded before anything asked for it"
	! registered ext4dev || fail "ext4dev is in /proc/filesystems"
	[ ! -e /sys/fs/ext4 ] || fail "/sys/fs/ext4 exists without the module"
	[ -f "/lib/modules/$(uname -r)/modules.alias" ] ||
		fail "no modules.alias for $(uname -r)"
	grep -q '^alias fs-ext4dev ext4$' "/lib/modules/$(uname -r)/modules.alias" ||
		fail "modules.alias has no 'fs-ext4dev ext4' (MODULE_ALIAS_FS)"
}

# The parameter given to modprobe, as a distribution's modprobe.d would.
t_modprobe_require_test_fs() {
	unload_ext4
	load_ext4 ext4 require_test_fs=1
	[ "$(cat "$PARAM")" = Y ] || fail "$PARAM is '$(cat "$PARAM")', expected Y"
	expect_refused ext4 "$(disk unflagged)" require
	expect_mount ext4 "$(disk flagged)"
	write_files flagged
	expect_umount
	unload_ext4
	[ ! -e "$PARAM" ] || fail "$PARAM still exists after rmmod"
}

# "mount -t ext4dev" with ext4 not loaded: the kernel asks modprobe for
# fs-ext4dev, which MODULE_ALIAS_FS("ext4dev") maps to ext4.
t_mount_autoloads_ext4dev() {
	unload_ext4
	expect_mount ext4dev "$(disk flagged)"
	loaded || fail "mounting as ext4dev did not load ext4"
	verify_files flagged
	expect_umount
	expect_refused ext4dev "$(disk unflagged)" ext4dev
}

# MODULE_ALIAS("ext4dev"), as ext2 and ext3 have theirs.
t_modprobe_ext4dev() {
	unload_ext4
	load_ext4 ext4dev
	registered ext4dev || fail "modprobe ext4dev did not register ext4dev"
	[ "$(cat "$PARAM")" = N ] || fail "$PARAM is '$(cat "$PARAM")', expected N"
}

# Unloading undoes what loading made: every /sys/fs name goes with ext4.
t_rmmod_removes_links() {
	local name

	unload_ext4
	load_ext4 ext4
	for name in $SYSFS_NAMES; do
		[ -d "/sys/fs/$name" ] || fail "no /sys/fs/$name with ext4 loaded"
	done
	for name in ext4dev ext3 ext2; do
		[ -L "/sys/fs/$name" ] || fail "/sys/fs/$name is not a link"
	done
	unload_ext4
	for name in $SYSFS_NAMES; do
		if [ -e "/sys/fs/$name" ] || [ -L "/sys/fs/$name" ]; then
			fail "/sys/fs/$name is left after rmmod ext4"
		fi
		! registered "$name" || fail "$name is still in /proc/filesystems"
	done
}

t_refused_mount_untouched() {
	unload_ext4
	load_ext4 ext4 require_test_fs=1
	expect_refused ext4 "$(disk untouched)" require
	expect_refused ext4dev "$(disk untouched)" ext4dev
	unload_ext4
}
