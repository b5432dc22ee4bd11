# shellcheck shell=bash
# The modular suite (guest/suite-modular.sh): the kernel with ext4 as a
# module, its initramfs carrying /lib/modules and kmod (--initrd); the
# require suite's three disks.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/images.sh
. "$boot_dir/images.sh"

BOOT_APPEND="ext4dev.suite=modular kunit.enable=0"
GUEST_SUITE="../guest/suite-modular.sh TESTS"
HOST_CHECKS="disks_clean untouched_unchanged"

boot_disks() {
	require_disks
}
