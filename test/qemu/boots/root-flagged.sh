# shellcheck shell=bash
# A root flagged with -E test_fs mounts as ext4, with no gate line.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="mounted_as_ext4 no_gate_line"
BOOT_APPEND=$(root_append)

boot_disks() {
	root_image -E test_fs
}
