#!/bin/bash
# Identity follows the bytes, not the path.  A filesystem reached
# through a chain of names -- a loop device on a loop device (two and
# three deep, both directions), a file seen through an overlayfs mount
# (upper and lower layers, a read-only overlay, with and without a
# journal), a raw image a QEMU process has open as a drive -- is refused
# through every other name by mkfs and both marks, dry runs included:
# exit 8, one stderr line naming the other name and why, and not a byte
# of any image or layer changed.  A dry run through an overlay never
# copies the file up.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/names_lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root for loop devices and mounts"
for tool in losetup python3; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

MNT=$WORK/mnt
OVL=$WORK/ovl
mkdir -p "$MNT" "$OVL"
QEMU_PID=
cleanup() {
	if [ -n "$QEMU_PID" ]; then
		kill "$QEMU_PID" 2>/dev/null || true
		wait "$QEMU_PID" 2>/dev/null || true
	fi
	for m in "$MNT" "$OVL/ro" "$OVL/merged"; do
		! mountpoint -q "$m" 2>/dev/null || umount "$m"
	done
	detach_all
	rm -rf "$WORK"
}
trap cleanup EXIT

# --- loop devices on loop devices, two and three deep ---------------
IMG=$WORK/nest.img
# chain N: a fresh image under N loop devices, each on the one before:
# L1 on the image, L2 on L1, L3 on L2.
chain() {
	detach_all
	# Inode tables written now: a read-write mount's lazy init would
	# otherwise write them later, under the byte checks.
	mkimg "$IMG" 32M -t ext4 -E test_fs,lazy_itable_init=0
	attach L1 "$IMG"
	[ "$1" -lt 2 ] || attach L2 "$L1"
	[ "$1" -lt 3 ] || attach L3 "$L2"
}
chain 2
mount -t ext4 -o ro "$L2" "$MNT"
every_writer "is mounted as $L2 on '$MNT'" "$IMG" "$IMG"
every_writer "is mounted as $L2 on '$MNT'" "$IMG" "$L1"
umount "$MNT"
chain 3
mount -t ext4 -o noinit_itable "$L3" "$MNT"
sync	# what the mount itself wrote, before the byte checks
for name in "$IMG" "$L1" "$L2"; do
	every_writer "is mounted as $L3 on '$MNT'" "$IMG" "$name"
done
umount "$MNT"
# The other direction: the bottom of the chain is mounted, the top is
# written.
chain 3
mount -t ext4 -o ro "$L1" "$MNT"
every_writer "is mounted as $L1 on '$MNT'" "$IMG" "$L3"
every_writer "is mounted as $L1 on '$MNT'" "$IMG" "$L2"
umount "$MNT"
chain 3
check "unmounted: the top of the chain is writable" \
	"$EXT4DEV" mark-production -q "$L3"
check "unmounted: the image is writable" "$EXT4DEV" mark-test -q "$IMG"
check "after the marks: e2fsck -fn clean" e2fsck -fn "$IMG" >/dev/null 2>&1
# A window: an offset loop device on a loop device, mounted; the bytes
# before it are another filesystem's and stay usable.
WIN=$WORK/win.img
truncate -s 64M "$WIN"
attach W1 "$WIN"
attach W2 "$W1" -o 32M
mke2fs -q -F -t ext4 -E test_fs "$W2" >/dev/null 2>&1
attach HEAD "$W1" --sizelimit 32M
mount -t ext4 -o ro "$W2" "$MNT"
every_writer "is mounted as $W2 on '$MNT'" "$WIN" "$W1"
check "beside a nested window: mkfs on the bytes before it" \
	"$EXT4DEV" mkfs -F -q "$HEAD"
umount "$MNT"
detach_all

# --- overlayfs: upper and lower layers, both directions -------------
mkdir -p "$OVL/lower" "$OVL/lower2" "$OVL/upper" "$OVL/work" \
	"$OVL/merged" "$OVL/ro"
mount -t overlay overlay -o "lowerdir=$OVL/lower:$OVL/lower2,upperdir=$OVL/upper,workdir=$OVL/work" \
	"$OVL/merged" 2>/dev/null || skip "cannot mount overlayfs here"
umount "$OVL/merged"
ovl_up() {
	mount -t overlay overlay -o "lowerdir=$OVL/lower:$OVL/lower2,upperdir=$OVL/upper,workdir=$OVL/work" \
		"$OVL/merged"
}
mkimg "$OVL/upper/up.img" 32M -t ext4 -E test_fs
mkimg "$OVL/upper/nj.img" 32M -t ext2
mkimg "$OVL/lower2/low.img" 32M -t ext4 -E test_fs
LAYERS="$OVL/upper/up.img $OVL/upper/nj.img $OVL/lower2/low.img $OVL/upper/low.img"
ovl_up
# An image in the upper layer, mounted through a loop device on its
# real path, written through the overlay.
attach U "$OVL/upper/up.img"
mount -t ext4 -o ro "$U" "$MNT"
every_writer "is mounted as $U on '$MNT'" "$LAYERS" "$OVL/merged/up.img"
umount "$MNT"
losetup -d "$U"
# Without a journal, mounted read-write: the kernel's own superblock
# write at umount would undo a mark that got through.
attach U "$OVL/upper/nj.img"
mount -t ext2 "$U" "$MNT"
every_writer "is mounted as $U on '$MNT'" "$LAYERS" "$OVL/merged/nj.img"
umount "$MNT"
losetup -d "$U"
# A loop device made on the overlay path, the real path written.
attach U "$OVL/merged/up.img"
mount -t ext4 -o ro "$U" "$MNT"
every_writer "is mounted as $U on '$MNT'" "$LAYERS" "$OVL/upper/up.img"
umount "$MNT"
losetup -d "$U"
# A lower file, mounted through its real path, written through the
# overlay (which would copy it up): refused, and never copied up.
attach U "$OVL/lower2/low.img" -r
mount -t ext4 -o ro "$U" "$MNT"
every_writer "is mounted as $U on '$MNT'" "$LAYERS" "$OVL/merged/low.img"
check "refusals through the lower view copied nothing up" \
	[ ! -e "$OVL/upper/low.img" ]
umount "$MNT"
losetup -d "$U"
umount "$OVL/merged"
# A read-only overlay (lower layers only): a loop device on its view of
# a lower file, the real lower file written.
mount -t overlay overlay -o "lowerdir=$OVL/lower:$OVL/lower2" "$OVL/ro"
attach U "$OVL/ro/low.img" -r
mount -t ext4 -o ro "$U" "$MNT"
every_writer "is mounted as $U on '$MNT'" "$LAYERS" "$OVL/lower2/low.img"
umount "$MNT"
losetup -d "$U"
umount "$OVL/ro"
detach_all

# A dry run through the lower-layer view writes nothing anywhere: no
# copy-up, no new file, the upper directory as it was.  A lower file
# nothing has touched yet, so that a copy-up would show.
mkimg "$OVL/lower2/dry.img" 32M -t ext4 -E test_fs
ovl_up
upper_state() {
	find "$OVL/upper" "$OVL/work" -printf '%p %s %T@ %C@\n' | sort
	state "$OVL/lower2/dry.img"
}
before=$(upper_state)
check "mkfs -n -F through the lower view" \
	expect_rc 0 "$EXT4DEV" mkfs -n -F "$OVL/merged/dry.img"
check "mark-production -n through the lower view" \
	expect_rc 0 "$EXT4DEV" mark-production -n "$OVL/merged/dry.img"
check "mark-test -n through the lower view" \
	expect_rc 0 "$EXT4DEV" mark-test -n "$OVL/merged/dry.img"
check "show-flags through the lower view" \
	expect_rc 0 "$EXT4DEV" show-flags "$OVL/merged/dry.img"
check "dry runs copied nothing up" [ ! -e "$OVL/upper/dry.img" ]
check_eq "dry runs left the upper layer and the lower file alone" \
	"$(upper_state)" "$before"
check "a real mark through the lower view copies up and succeeds" \
	"$EXT4DEV" mark-production -q "$OVL/merged/dry.img"
check "... into the upper layer" [ -s "$OVL/upper/dry.img" ]
check "... and the lower file is unchanged" \
	[ "$(state "$OVL/lower2/dry.img")" = "$(echo "$before" | tail -n 1)" ]
umount "$OVL/merged"

# --- a raw image a QEMU process has open as a drive -----------------
if command -v qemu-system-x86_64 >/dev/null; then
	QIMG=$WORK/vm.img
	mkimg "$QIMG" 32M -t ext4 -E test_fs
	qemu-system-x86_64 -S -nodefaults -display none -monitor none \
		-serial none -drive "file=$QIMG,format=raw,if=virtio" &
	QEMU_PID=$!
	ino=$(stat -c %i "$QIMG")
	# QEMU takes its OFD locks while it opens the drive.
	for _ in $(seq 100); do
		grep -q "OFDLCK.*:$ino " /proc/locks && break
		sleep 0.1
	done
	check "QEMU holds its image locks" grep -q "OFDLCK.*:$ino " /proc/locks
	every_writer "is in use by another process (QEMU's image lock)" \
		"$QIMG" "$QIMG"
	attach Q "$QIMG"
	every_writer "is in use by another process (QEMU's image lock)" \
		"$QIMG" "$Q"
	check "show-flags reads it beside QEMU" "$EXT4DEV" show-flags "$QIMG"
	kill "$QEMU_PID"
	wait "$QEMU_PID" 2>/dev/null || true
	QEMU_PID=
	check "QEMU gone: the image is writable" "$EXT4DEV" mark-production -q "$Q"
	detach_all
else
	skip "qemu-system-x86_64 is not installed"
fi

finish
