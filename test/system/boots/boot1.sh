# shellcheck shell=bash
# Boot 1 of the Debian guest on the patched kernel: guest/scenarios.sh's
# BOOT1_TESTS on three broken flagged disks and a plain one; the host
# then checks what the guest left on them.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

BOOT_APPEND=$(debian_append 1)
GUEST_SUITE="../guest/scenarios.sh BOOT1_TESTS"
HOST_CHECKS="disks_clean"

boot_disks() {
	root_disk
	broken_flagged scratch
	broken_flagged scratch4
	ext4_disk plain
	broken_flagged control
}
