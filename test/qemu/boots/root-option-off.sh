# shellcheck shell=bash
# The kernel built without CONFIG_EXT4_TEST_FS (kernel/config/
# notype.config, --kernel), ext4.require_test_fs=1, a flagged root:
# there is no ext4dev type, but the parameter is there and refuses
# unflagged vdb as ext4 with its line.  A safety switch that vanished
# with the option would let vdb mount.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="mounted_as_ext4 no_ext4dev_type require_param_on
	unflagged_refused"
BOOT_APPEND=$(root_append ext4.require_test_fs=1)

boot_disks() {
	root_image -E test_fs
	data_image unflagged -t ext4
}
