# shellcheck shell=bash
# Under ext4.require_test_fs=1 an unflagged root is refused: the kernel
# says why for vda and gives up on the root; init never runs.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

BOOT_END=panic
BOOT_APPEND=$(root_append ext4.require_test_fs=1)
HOST_CHECKS="refused_with_reason"

boot_disks() {
	root_image
}

host_check_refused_with_reason() {
	local line="EXT4-fs (vda): test_filesystem flag not set and ext4.require_test_fs=1, refusing to mount; set it with 'tune2fs -E test_fs'"

	grep -F "$line" <(console) || { echo "no refusal line for vda: '$line'"; return 1; }
	root_refused
}
