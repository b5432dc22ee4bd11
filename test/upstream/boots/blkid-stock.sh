# shellcheck shell=bash
# Debian's own kernel (no ext4dev type) with our libblkid patch: the
# stock guest's image with the patched libblkid.so.1 (upstream.util_linux
# builds it) in /opt/ext4dev-upstream/lib and guest/suite-blkid.sh.  The
# machine's blkid and mount(8) call a flagged disk ext4dev and cannot
# mount it without mount.ext4dev; with the patched library loaded they
# call it ext4 and mount it.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/../../system/boots/debian.sh"

debian_kernel_boot blkid
GUEST_SUITE="../guest/suite-blkid.sh SUITE_TESTS"
HOST_CHECKS="disks_clean"

boot_disks() {
	root_disk
	flagged_disk flagged
}
