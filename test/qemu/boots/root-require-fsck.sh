# shellcheck shell=bash
# A flagged root mounted read-only under ext4.require_test_fs=1: init
# runs the stock e2fsck on it (copied into the image with the libraries
# ldd lists) and judges its exit status as systemd-fsck does for a root;
# e2fsck clears the flag, and the remount read-write is then refused
# with the kernel's reason.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="e2fsck_ran flag_cleared remount_refused_with_reason"
BOOT_APPEND=$(root_append ro ext4.require_test_fs=1)

boot_disks() {
	local bin

	bin=$(command -v e2fsck || echo /sbin/e2fsck)
	[[ -x $bin ]] || skip_boot "no e2fsck on the host (apt-get install e2fsprogs)"
	copy_e2fsck "$bin"
	# e2fsck and its libraries (~3.5 MB) need a bigger root.
	root_image 16 -E test_fs
}
