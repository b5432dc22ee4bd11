#!/bin/bash
# Read-only media: mark-* must fail with exit 8 and a message that names
# the device and says why, and leave every byte as it was; mark -n fails
# the same way with the same message (it opens the device as the real
# run would); show-flags and an already-set flag still work (they need
# no write).
#   - an image without write permission, as an unprivileged user (setpriv)
#   - an immutable image (chattr +i), which even root cannot write
#   - an image under a read-only bind mount
#   - a read-only loop device (losetup -r)
# Cases this machine cannot set up are reported and not counted; if it
# can set up none, the test is skipped (exit 77), never passed empty.
# A read-only virtio disk in a QEMU guest is test/qemu's business.
source "$(dirname "$0")/../integration/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (setpriv, chattr, mount, losetup)"

IMG=$WORK/ro.img
mkimg "$IMG" 16M -t ext4 -b 1024
chmod 755 "$WORK"

# refused OP WANT DEV [RUNNER...]: OP has work to do on the read-only
# DEV: exit 8, "ext4dev: 'DEV': WANT", no byte changed, and its dry run
# says exactly the same.  show-flags and the opposite mark (nothing to
# do) still exit 0.
refused() {
	local op=$1 want=$2 dev=$3 other=mark-test before rc
	shift 3
	[ "$op" = mark-production ] || other=mark-production
	before=$(sha "$IMG")
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" "$op" "$dev"
	check "$op $dev: exit 8 (got $rc)" [ "$rc" = 8 ]
	check "$op $dev: says '$want': $(cat "$WORK/err")" \
		grep -q "^ext4dev: '$dev': $want" "$WORK/err"
	cp "$WORK/err" "$WORK/err.real"
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" "$op" -n "$dev"
	check "$op -n $dev: exit 8 like the real run (got $rc)" [ "$rc" = 8 ]
	check "$op -n $dev: the real run's message" cmp -s "$WORK/err" "$WORK/err.real"
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" show-flags "$dev"
	check "show-flags $dev: exit 0 (got $rc)" [ "$rc" = 0 ]
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" "$other" "$dev"
	check "$other $dev, nothing to do: exit 0 (got $rc)" [ "$rc" = 0 ]
	[ "$op" = mark-production ] || refused_mkfs "$want" "$dev" "$@"
	check "$op $dev: bytes unchanged" [ "$before" = "$(sha "$IMG")" ]
}

# refused_mkfs WANT DEV [RUNNER...]: mkfs -F on the read-only DEV fails
# like the marks, and so does its dry run, with the same message.
refused_mkfs() {
	local want=$1 dev=$2 rc
	shift 2
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" mkfs -q -F "$dev"
	check "mkfs -F $dev: exit 8 (got $rc)" [ "$rc" = 8 ]
	check "mkfs -F $dev: says '$want': $(cat "$WORK/err")" \
		grep -q "^ext4dev: '$dev': $want" "$WORK/err"
	cp "$WORK/err" "$WORK/err.real"
	run_capture "$WORK/out" "$WORK/err" rc "$@" "$EXT4DEV" mkfs -q -n -F "$dev"
	check "mkfs -n -F $dev: exit 8 like the real run (got $rc)" [ "$rc" = 8 ]
	check "mkfs -n -F $dev: the real run's message" cmp -s "$WORK/err" "$WORK/err.real"
}

# medium NAME WANT: run refused() for both marks with IMG made read-only
# by setup_NAME (which prints the device to use) and undone by undo_NAME.
medium() {
	local name=$1 want=$2 op dev
	for op in mark-test mark-production; do
		if [ "$op" = mark-test ]; then
			"$EXT4DEV" mark-production -q "$IMG"
		else
			"$EXT4DEV" mark-test -q "$IMG"
		fi
		if ! dev=$("setup_$name"); then
			echo "not run: $name: cannot be set up here"
			return 0
		fi
		refused "$op" "$want" "$dev" "${RUNNER[@]}"
		"undo_$name" "$dev"
	done
	MEDIA=$((MEDIA + 1))
}
MEDIA=0

# 1. No write permission, as an unprivileged user.
setup_noperm() {
	chmod 444 "$IMG"
	setpriv --reuid nobody --regid nogroup --clear-groups true &&
		echo "$IMG"
}
undo_noperm() { chmod 644 "$IMG"; }
RUNNER=(setpriv --reuid nobody --regid nogroup --clear-groups)
medium noperm "Permission denied"
RUNNER=()

# 2. Immutable: even root gets EPERM from the kernel.
setup_immutable() { chattr +i "$IMG" 2>/dev/null && echo "$IMG"; }
undo_immutable() { chattr -i "$IMG"; }
medium immutable "Operation not permitted"

# 3. Under a read-only bind mount.
setup_rbind() {
	mkdir -p "$WORK/ro"
	mount --bind "$WORK" "$WORK/ro" 2>/dev/null || return 1
	if ! mount -o remount,ro,bind "$WORK/ro" 2>/dev/null; then
		umount "$WORK/ro"
		return 1
	fi
	echo "$WORK/ro/ro.img"
}
undo_rbind() { umount "$WORK/ro"; }
medium rbind "Read-only file system"

# 4. A read-only loop device.
setup_roloop() { losetup -r -f --show "$IMG" 2>/dev/null; }
undo_roloop() { losetup -d "$1"; }
medium roloop "Read-only file system"
[ "$MEDIA" -gt 0 ] || skip "no read-only medium could be set up here"
echo "read-only media tested: $MEDIA of 4"
finish
