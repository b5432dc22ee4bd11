# shellcheck shell=bash
# A flagged root mounted read-only under ext4.require_test_fs=1: init
# runs the stock e2fsck on it (copied into the image with the libraries
# ldd lists) and judges its exit status as systemd-fsck does for a root;
# e2fsck clears the flag, and the remount read-write is then refused
# with the kernel's reason.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

GUEST_CHECKS="e2fsck_ran flag_cleared remount_refused_with_reason"
BOOT_APPEND=$(root_append ro ext4.require_test_fs=1)

# The host's stock e2fsck and the libraries it loads, into the tree.
copy_e2fsck() {
	local tree=$out/tree bin lib

	bin=$(command -v e2fsck || echo /sbin/e2fsck)
	[[ -x $bin ]] || skip_boot "no e2fsck on the host (apt-get install e2fsprogs)"
	mkdir -p "$tree/sbin"
	cp "$bin" "$tree/sbin/e2fsck"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$tree$(dirname "$lib")"
		cp -L "$lib" "$tree$lib"
	done
}

boot_disks() {
	copy_e2fsck
	# e2fsck and its libraries (~3.5 MB) need a bigger root.
	root_image 16 -E test_fs
}
