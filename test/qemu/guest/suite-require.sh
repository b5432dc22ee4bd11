# shellcheck shell=dash
# TESTS is read by guest/run; run() in lib.sh sets $rc and $out.
# shellcheck disable=SC2034,SC2154
# The checks of the boot with ext4.require_test_fs=1 on the command line.
# Disks, by virtio serial (see test/qemu/boots/normal.sh):
#   unflagged   plain "mke2fs -t ext4"
#   flagged     "mke2fs -t ext4 -E test_fs"
#   untouched   unflagged; every mount must be refused, and the host checks
#               afterwards that not a byte of it changed

TESTS="param_set unflagged_refused flagged_mounts remount_keeps_decision
mark_test_then_mounts refused_mount_untouched"

PARAM=/sys/module/ext4/parameters/require_test_fs

set_param() {
	echo "$1" >"$PARAM" || fail "cannot write $1 to $PARAM"
}

# The command-line setting reached the built-in ext4.
t_param_set() {
	[ "$(cat "$PARAM")" = Y ] || fail "$PARAM is '$(cat "$PARAM")', expected Y"
}

# 7. Plain ext4 refuses an unflagged filesystem, with the gate's message.
t_unflagged_refused() {
	local dev

	dev=$(disk unflagged)
	expect_refused ext4 "$dev" require
	expect_refused ext4dev "$dev" ext4dev
}

# 7. A flagged filesystem mounts, as ext4 and as ext4dev.
t_flagged_mounts() {
	local dev

	dev=$(disk flagged)
	expect_mount ext4 "$dev"
	write_files flagged
	expect_umount
	expect_mount ext4dev "$dev"
	verify_files flagged
	expect_umount
}

# The documented remount semantics: the decision is made at mount time.
# Mounted while the parameter was off, a filesystem stays usable across
# remounts (ro and back to rw) after it is switched on; the next mount
# is refused.
t_remount_keeps_decision() {
	local dev

	dev=$(disk unflagged)
	# Whatever happens, the tests after this one run with the parameter on.
	trap 'echo 1 >"$PARAM"' EXIT
	set_param 0
	expect_mount ext4 "$dev"
	set_param 1
	write_files unflagged
	run busybox mount -o remount,ro "$MNT"
	[ "$rc" = 0 ] || fail "remount,ro failed: $out"
	run busybox mount -o remount,rw "$MNT"
	[ "$rc" = 0 ] || fail "remount,rw failed: $out"
	write_files after_remount
	verify_files unflagged
	expect_umount
	expect_refused ext4 "$dev" require
}

# Marking the filesystem is the way to mount it under require_test_fs.
t_mark_test_then_mounts() {
	local dev

	dev=$(disk unflagged)
	run ext4dev mark-test "$dev"
	[ "$rc" = 0 ] || fail "ext4dev mark-test $dev exited $rc: $out"
	expect_mount ext4 "$dev"
	verify_files unflagged
	verify_files after_remount
	expect_umount
}

t_refused_mount_untouched() {
	expect_refused ext4 "$(disk untouched)" require
}
