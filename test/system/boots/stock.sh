# shellcheck shell=bash
# The stock Debian guest: Debian's own kernel and initrd (--kernel,
# --initrd from mkrootfs.sh --stock) with our .deb installed, no kernel of
# ours; guest/suite-stock.sh's SUITE_TESTS.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

debian_kernel_boot stock
GUEST_SUITE="../guest/suite-stock.sh SUITE_TESTS"
HOST_CHECKS="disks_clean"

boot_disks() {
	root_disk
	broken_flagged scratch
	ext4_disk plain
	broken_flagged loose
	truncate -s "${DISK_MB}M" "$out/disks/spare.img"
	vm_add_disk spare "$out/disks/spare.img"
}
