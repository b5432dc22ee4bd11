# shellcheck shell=bash
# The images the busybox guests' descriptions share (normal.sh,
# require.sh, modular.sh): small ext4 images made by mke2fs on the host.
# shellcheck disable=SC2154 # $out is the runner's

readonly IMAGE_MB=16

# image NAME MKE2FS-ARGS...: $out/disks/NAME.img, IMAGE_MB big.
image() {
	vm_image "$out/disks/$1.img" "${IMAGE_MB}M" "${@:2}"
}

# The three disks of the require suite (and of the modular kernel's):
# unflagged, flagged, and one whose bytes refused mounts must not change.
require_disks() {
	image unflagged -t ext4
	image flagged -t ext4 -E test_fs
	image untouched -t ext4
	vm_add_disk unflagged "$out/disks/unflagged.img"
	vm_add_disk flagged "$out/disks/flagged.img"
	vm_add_disk untouched "$out/disks/untouched.img" same
}
