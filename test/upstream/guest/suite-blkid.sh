# shellcheck shell=bash
# The checks of the blkid boot (ext4dev.boot=blkid, boots/blkid-stock.sh):
# Debian's own kernel, which has no ext4dev type, the machine's blkid and
# mount(8), and our patched libblkid.so.1 in $PATCHED, loaded with
# LD_LIBRARY_PATH.  Sourced by the system guest's checks.sh after lib.sh
# and scenarios.sh.  SUITE_TESTS is the one list of its checks (CMake
# reads it).  Disks:
#   root      unflagged ext4, /
#   flagged   flagged ext4, not in fstab
# shellcheck disable=SC2034 # read by checks.sh
SUITE_TESTS="stock_says_ext4dev stock_mount_fails patched_library_loaded
patched_says_ext4 patched_mount_works"

PATCHED=/opt/ext4dev-upstream/lib

# The machine's libblkid: this kernel has no ext4dev, yet the flagged
# disk is called ext4dev (the bug the patch fixes).
t_stock_says_ext4dev() {
	local dev type

	dev=$(disk flagged)
	! grep -qw ext4dev /proc/filesystems || fail "this kernel registers ext4dev"
	type=$(blkid -p -s TYPE -o value "$dev")
	[ "$type" = ext4dev ] || fail "the stock blkid says '$type', not ext4dev"
	echo "stock blkid: $dev is $type"
}

# ... so mount(8) without a helper (-i: no mount.ext4dev) fails.
t_stock_mount_fails() {
	local dev out

	dev=$(disk flagged)
	if out=$(mount -i "$dev" /mnt 2>&1); then
		umount /mnt
		fail "the stock mount -i $dev mounted it"
	fi
	case $out in
	*"unknown filesystem type 'ext4dev'"*) echo "$out" | head -n 1 ;;
	*) fail "mount -i $dev failed otherwise: $out" ;;
	esac
}

# blkid and mount load the patched library, not the machine's.
t_patched_library_loaded() {
	local bin libs

	for bin in blkid mount; do
		libs=$(LD_LIBRARY_PATH=$PATCHED ldd "$(command -v "$bin")")
		case $libs in
		*"libblkid.so.1 => $PATCHED/libblkid.so.1 "*) ;;
		*) fail "$bin does not load $PATCHED/libblkid.so.1: $libs" ;;
		esac
	done
	echo "blkid and mount load $PATCHED/libblkid.so.1"
}

t_patched_says_ext4() {
	local dev type

	dev=$(disk flagged)
	type=$(LD_LIBRARY_PATH=$PATCHED blkid -p -s TYPE -o value "$dev")
	[ "$type" = ext4 ] || fail "the patched blkid says '$type', not ext4"
	echo "patched blkid: $dev is $type"
}

# mount(8) without a helper and without -t mounts it as ext4, and the
# flag stays.
t_patched_mount_works() {
	local dev out

	dev=$(disk flagged)
	out=$(LD_LIBRARY_PATH=$PATCHED mount -i "$dev" /mnt 2>&1) ||
		fail "the patched mount -i $dev: $out"
	[ "$(findmnt -n -o FSTYPE /mnt)" = ext4 ] ||
		fail "/mnt is '$(findmnt -n -o FSTYPE /mnt)', not ext4"
	findmnt -n /mnt
	umount /mnt || fail "umount /mnt failed"
	flagged "$dev" || fail "$dev lost its flag"
}
