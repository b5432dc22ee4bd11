# shellcheck shell=bash
# The require suite (guest/suite-require.sh) on the patched kernel with
# ext4.require_test_fs=1, from the busybox initramfs (--initrd).
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/images.sh
. "$boot_dir/images.sh"

BOOT_APPEND="ext4dev.suite=require ext4.require_test_fs=1 kunit.enable=0"
GUEST_SUITE="../guest/suite-require.sh TESTS"
HOST_CHECKS="disks_clean untouched_unchanged"

boot_disks() {
	require_disks
}
