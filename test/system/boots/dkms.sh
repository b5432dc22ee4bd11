# shellcheck shell=bash
# The DKMS guest: Debian 12's own linux-image-6.12-amd64 with the ext4
# that ext4dev-dkms built for it while the image was made (mkrootfs.sh
# --dkms; --kernel and --initrd from there), booted with
# ext4.require_test_fs=1 on a flagged root; guest/suite-dkms.sh's
# SUITE_TESTS, the last of which purges the package for dkms-purged.sh.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

debian_kernel_boot dkms ext4.require_test_fs=1
GUEST_SUITE="../guest/suite-dkms.sh SUITE_TESTS"
HOST_CHECKS="disks_clean"

boot_disks() {
	root_disk
	flagged_disk flagged
	ext4_disk unflagged
}
