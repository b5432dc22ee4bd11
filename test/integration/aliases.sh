#!/bin/bash
# Every name of the same bytes.  A filesystem mounted through one name
# (a partition of a loop device over an image, a second loop device of
# the same file, an offset loop device, a mount in another mount
# namespace, an O_EXCL holder) is refused through every other name, by
# mkfs and both marks, dry runs included: exit 8, one line naming the
# other name and why, and not a byte of the image (data and holes) nor
# its partition table changed.  Names that do not overlap stay usable,
# and the lock is the same through each name.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/names_lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root for loop devices and mounts"
for tool in losetup partx sfdisk unshare flock python3; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

MNT=$WORK/mnt
mkdir "$MNT"
NS_PID=
cleanup() {
	if [ -n "$NS_PID" ]; then
		kill "$NS_PID" 2>/dev/null || true
		wait "$NS_PID" 2>/dev/null || true
	fi
	! mountpoint -q "$MNT" 2>/dev/null || umount "$MNT"
	detach_all
	rm -rf "$WORK"
}
trap cleanup EXIT

# mkdev DEVICE MKE2FS-ARGS...: a filesystem on a block device (mkimg
# would remove the path first: never on a device node).
mkdev() {
	local dev=$1
	shift
	[ -b "$dev" ] || { echo "mkdev: '$dev' is not a block device" >&2; return 1; }
	mke2fs -q -F "$@" "$dev" >/dev/null 2>&1
}

# --- a partition of an image, mounted through a loop device ---------
DISK=$WORK/disk.img
truncate -s 96M "$DISK"
printf 'label: gpt\nsize=40M\n' | sfdisk -q "$DISK"
attach PLOOP "$DISK" -P
# Without a partition scanner for loop devices, partx adds them.
[ -b "${PLOOP}p1" ] || partx -a "$PLOOP" 2>/dev/null || true
[ -b "${PLOOP}p1" ] || skip "no partitions on loop devices here"
mkdev "${PLOOP}p1" -t ext4 -E test_fs
mount -t ext4 -o ro "${PLOOP}p1" "$MNT"
every_writer "is mounted as ${PLOOP}p1 on '$MNT'" "$DISK" "$DISK"
every_writer "is mounted as ${PLOOP}p1 on '$MNT'" "$DISK" "$PLOOP"
# A second loop device of the partitioned file, with no partitions.
attach PLOOP2 "$DISK"
every_writer "is mounted as ${PLOOP}p1 on '$MNT'" "$DISK" "$PLOOP2"
umount "$MNT"

# --- a second loop device of a mounted file, ro and rw --------------
IMG=$WORK/m.img
mkimg "$IMG" 32M -t ext4 -E test_fs
attach L1 "$IMG"
attach L2 "$IMG"
mount -t ext4 -o ro "$L1" "$MNT"
every_writer "is mounted as $L1 on '$MNT'" "$IMG" "$L2"
check "the image itself, mounted through L1" refused \
	"is mounted on '$MNT'" "$IMG" mark-production "$IMG"
check "show-flags still reads the other name" "$EXT4DEV" show-flags "$L2"
umount "$MNT"
mount -t ext4 "$L1" "$MNT"
rw_refused() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-production "$L2"
	[ "$rc" = 8 ] && grep -q "is mounted as $L1 on '$MNT'" "$WORK/err"
}
check "mark-production through L2 while L1 is mounted rw" rw_refused
umount "$MNT"
check "unmounted: L2 is writable again" "$EXT4DEV" mark-production -q "$L2"
check "unmounted: the image is writable again" "$EXT4DEV" mark-test -q "$IMG"
check "after the marks: e2fsck -fn clean" e2fsck -fn "$IMG" >/dev/null 2>&1

# --- a mount in another mount namespace -----------------------------
READY=$WORK/ready
unshare -m --propagation private sh -c \
	"mount -t ext4 -o ro '$L1' '$MNT' && touch '$READY'; exec sleep 300" &
NS_PID=$!
for _ in $(seq 50); do [ -e "$READY" ] && break; sleep 0.1; done
[ -e "$READY" ] || skip "cannot mount in a new mount namespace here"
check "not mounted in this namespace" bash -c "! mountpoint -q '$MNT'"
every_writer "is mounted as $L1 in another mount namespace (on '$MNT' there" \
	"$IMG" "$IMG"
every_writer "is mounted as $L1 in another mount namespace" "$IMG" "$L2"
check "the mounted name itself" refused \
	"filesystem is mounted in another mount namespace (on '$MNT' there" \
	"$IMG" mark-production "$L1"
kill "$NS_PID"
wait "$NS_PID" 2>/dev/null || true
NS_PID=

# --- a loop device held O_EXCL by another process -------------------
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(300)' "$L1" "$WORK/held" &
HOLDER=$!
for _ in $(seq 50); do [ -e "$WORK/held" ] && break; sleep 0.1; done
every_writer "is in use by another process as $L1" "$IMG" "$IMG"
every_writer "is in use by another process as $L1" "$IMG" "$L2"
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null || true

# --- an offset loop device, and windows that do not overlap ---------
OIMG=$WORK/o.img
truncate -s 48M "$OIMG"
attach OFF "$OIMG" -o 16M
mkdev "$OFF" -t ext4 -E test_fs
mount -t ext4 -o ro "$OFF" "$MNT"
# (libext2fs itself finds a loop device of the file mounted here.)
every_writer "mounted .*on '$MNT'" "$OIMG" "$OIMG"
attach HEAD "$OIMG" --sizelimit 16M
attach HEAD2 "$OIMG" --sizelimit 17M
tail_hash() { tail -c +$((16 * 1048576 + 1)) "$OIMG" | sha256sum; }
before=$(tail_hash)
check "mkfs on bytes beside the mounted window" \
	"$EXT4DEV" mkfs -F -q "$HEAD"
check "... left the mounted window alone" [ "$(tail_hash)" = "$before" ]
check "a window one MiB into the mounted one" refused \
	"is mounted as $OFF on '$MNT'" "$OIMG" mkfs -F -q "$HEAD2"
# mkfs -E offset= on the file itself: only the bytes it writes count.
check "mkfs -E offset= on bytes before the mounted window" \
	"$EXT4DEV" mkfs -F -q -E offset=4096 "$OIMG" 8M
check "... left the mounted window alone" [ "$(tail_hash)" = "$before" ]
check "mkfs -E offset= over the mounted window: says which" refused \
	"is mounted as $OFF on '$MNT' (it holds the device's bytes from 16777216 on, over those mkfs writes" \
	"$OIMG" mkfs -F -q -E offset=12582912 "$OIMG" 8M
check "... and its dry run alike" refused \
	"is mounted as $OFF on '$MNT' (it holds the device's bytes from 16777216 on" \
	"$OIMG" mkfs -n -F -E offset=12582912 "$OIMG" 8M
umount "$MNT"

# --- one lock, whichever name --------------------------------------
flock "$IMG" sleep 3 &
LOCKER=$!
sleep 0.3
check "a lock on the file holds back its loop device" refused \
	"gave up after --wait" "$IMG" mark-test --wait 1 "$L2"
wait "$LOCKER"

# --- a flagged ext2/ext3 keeps its name ----------------------------
for fs in ext2 ext3; do
	F=$WORK/$fs.img
	mkimg "$F" 16M -t "$fs" -L "lab$fs$$"
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test "$F"
	check "mark-test $fs: warns what blkid will say" \
		grep -q "blkid will call this flagged $fs filesystem ambivalent" "$WORK/err"
	check "... and blkid does" [ "$(blkid_type "$F")" = ambivalent ]
	attach FLOOP "$F"
	check "show-flags LABEL= of a flagged $fs" \
		"$EXT4DEV" show-flags "LABEL=lab$fs$$"
	check "mark-production LABEL= of a flagged $fs" \
		"$EXT4DEV" mark-production -q "LABEL=lab$fs$$"
	check "... cleared: blkid names it $fs again" [ "$(blkid_type "$F")" = "$fs" ]
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -F -t "$fs" "$F"
	check "mkfs -t $fs warns as well" \
		grep -q "blkid will call this flagged $fs filesystem ambivalent" "$WORK/err"
done

# The rule behind the warning, held to blkid -p for several feature sets.
warns_iff_ambivalent() {
	local f=$WORK/rule.img rc warned=no
	shift 0
	mkimg "$f" 16M "$@"
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test "$f"
	grep -q "ambivalent" "$WORK/err" && warned=yes
	if [ "$(blkid_type "$f")" = ambivalent ]; then
		[ "$warned" = yes ] || { echo "$*: blkid ambivalent, no warning"; return 1; }
	else
		[ "$warned" = no ] || { echo "$*: warned, blkid says $(blkid_type "$f")"; return 1; }
	fi
}
for opts in "-t ext2" "-t ext3" "-t ext4" "-t ext2 -O extent" \
	"-t ext3 -O metadata_csum" "-t ext3 -O ^resize_inode,meta_bg" \
	"-t ext4 -O ^extent,^flex_bg,^huge_file,^dir_nlink,^extra_isize,^metadata_csum,^64bit" \
	"-t ext2 -O ^dir_index,^filetype" "-t ext3 -O inline_data"; do
	# shellcheck disable=SC2086
	check "warning iff blkid is ambivalent: $opts" warns_iff_ambivalent $opts
done

finish
