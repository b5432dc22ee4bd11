#!/bin/bash
# A mounted filesystem is refused on the host too (not only in QEMU):
# a no-journal ext2 image, loop-mounted by this machine's own kernel.
# mark-*, their dry runs and mkfs -F: exit 8, "is mounted on", and not
# a byte changed.  Always unmounted and detached, whatever happens.
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root to loop-mount an image"
command -v losetup >/dev/null && command -v mount >/dev/null ||
	skip "losetup or mount is not installed"

IMG=$WORK/ext2.img
MNT=$WORK/mnt
mkimg "$IMG" 16M -t ext2 -O ^has_journal
mkdir "$MNT"
LOOP=
cleanup() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
LOOP=$(losetup -f --show "$IMG" 2>/dev/null) || skip "no loop device support here"
# Read-only, so that the kernel itself writes nothing while we compare.
mount -t ext2 -o ro "$LOOP" "$MNT" 2>/dev/null ||
	skip "cannot mount an ext2 image here (no ext2 support in this kernel?)"

# refused WHAT ARGS...: exit 8, one line naming the mount point, image
# and loop device bytes unchanged.
refused() {
	local before rc
	before=$(sha "$IMG")
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "$@"
	[ "$rc" = 8 ] || { echo "$*: exit $rc: $(cat "$WORK/err")"; return 1; }
	grep -q "is mounted on '$MNT'" "$WORK/err" ||
		{ echo "$*: $(cat "$WORK/err")"; return 1; }
	[ "$(wc -l <"$WORK/err")" = 1 ] || { echo "not one line"; return 1; }
	[ "$(sha "$IMG")" = "$before" ] || { echo "$*: bytes changed"; return 1; }
}

for dev in "$LOOP" "$IMG"; do
	check "mark-test $dev (mounted)" refused mark-test "$dev"
	check "mark-test -n $dev (mounted)" refused mark-test -n "$dev"
	check "mark-production $dev (mounted)" refused mark-production "$dev"
done
check "mkfs -F on the mounted loop device" refused mkfs -F "$LOOP"
check "show-flags still reads it" "$EXT4DEV" show-flags "$LOOP"

# Mounted read-write as well: still refused.
umount "$MNT"
mount -t ext2 "$LOOP" "$MNT"
rw_refused() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test "$LOOP"
	[ "$rc" = 8 ] && grep -q "is mounted on '$MNT'" "$WORK/err"
}
check "mark-test on a read-write mount" rw_refused
umount "$MNT"
check "after umount: e2fsck -fn clean" e2fsck -fn "$IMG" >/dev/null 2>&1
check "after umount: marks work" "$EXT4DEV" mark-test -q "$LOOP"

finish
