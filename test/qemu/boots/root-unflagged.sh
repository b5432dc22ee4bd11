# shellcheck shell=bash
# An unflagged ext4 root mounts as ext4 with no gate line; a flagged ext3
# vdb mounted as each type shows its sysfs path; unflagged vdc is refused
# as ext4dev.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="mounted_as_ext4 no_gate_line sysfs_path_ext4dev sysfs_path_ext3
	sysfs_path_ext2 sysfs_path_ext4 explicit_ext4dev_refused"
BOOT_APPEND=$(root_append)

boot_disks() {
	root_image
	data_image flagged3 -t ext3 -E test_fs
	data_image unflagged -t ext4
}
