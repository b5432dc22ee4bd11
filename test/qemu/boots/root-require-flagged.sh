# shellcheck shell=bash
# Under ext4.require_test_fs=1 a flagged root mounts; a second mount of a
# mounted unflagged vdb shares its superblock, a fresh one is refused;
# unflagged ext2 vdc is refused as ext2.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="mounted_as_ext4 first_mount_param_off
	second_mount_shares_superblock other_type_busy fresh_mount_refused
	ext2_refused"
BOOT_APPEND=$(root_append ext4.require_test_fs=1)

boot_disks() {
	root_image -E test_fs
	data_image unflagged -t ext4
	data_image ext2 -t ext2
}
