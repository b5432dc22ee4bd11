# shellcheck shell=bash
# qemu.root.require_fsck with our e2fsprogs patch: a flagged root mounted
# read-only under ext4.require_test_fs=1, on our kernel, with the patched
# e2fsck (upstream.e2fsprogs builds it) as /sbin/e2fsck.  init runs
# "e2fsck -fp" on it and judges its exit status as systemd-fsck does;
# e2fsck keeps the flag the kernel requires, so the remount read-write
# goes through: no refusal is needed.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/../../qemu/boots/root.sh"

GUEST_CHECKS="e2fsck_fp_ran flag_kept remount_rw"
BOOT_APPEND=$(root_append ro ext4.require_test_fs=1)

boot_disks() {
	local bin=${EXT4DEV_BUILD:?}/test/upstream/e2fsprogs/patched/e2fsck/e2fsck

	[[ -x $bin ]] ||
		skip_boot "no patched e2fsck in '$bin' (the upstream.e2fsprogs test builds it)"
	copy_e2fsck "$bin"
	root_image 16 -E test_fs
}
