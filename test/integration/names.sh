#!/bin/bash
# LABEL=/UUID= on real block devices: two loop devices on image files
# made here.  A tag that several devices carry is refused (exit 8),
# naming every one, with no byte changed; a tag that one device carries
# is named with that device in every line.
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root for losetup"
command -v losetup >/dev/null || skip "losetup is not installed"
LOOPS=()
cleanup() {
	local l
	for l in "${LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

LABEL=ext4dev-t$$
mkimg "$WORK/a.img" 16M -t ext4 -L "$LABEL"
cp "$WORK/a.img" "$WORK/b.img"	# a dd clone: same label, same UUID
UUID=$(blkid -p -o value -s UUID "$WORK/a.img")
for img in a b; do
	l=$(losetup -f --show "$WORK/$img.img" 2>/dev/null) ||
		skip "no loop device support here"
	LOOPS+=("$l")
done
udevadm settle 2>/dev/null || true

ambiguous() {
	local spec=$1 rc a b
	a=$(sha "$WORK/a.img")
	b=$(sha "$WORK/b.img")
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "${@:2}" "$spec"
	[ "$rc" = 8 ] || { echo "exit $rc: $(cat "$WORK/err")"; return 1; }
	grep -qF "${LOOPS[0]}" "$WORK/err" && grep -qF "${LOOPS[1]}" "$WORK/err" ||
		{ echo "not every match named: $(cat "$WORK/err")"; return 1; }
	grep -q "matches more than one device" "$WORK/err" &&
		[ "$(wc -l <"$WORK/err")" = 1 ] &&
		[ "$(sha "$WORK/a.img")" = "$a" ] && [ "$(sha "$WORK/b.img")" = "$b" ]
}
for cmd in mark-test mark-production show-flags; do
	check "$cmd LABEL= on two devices: refused" ambiguous "LABEL=$LABEL" "$cmd"
	check "$cmd UUID= on two devices: refused" ambiguous "UUID=$UUID" "$cmd"
done
check "mark-test -n LABEL= on two devices: refused" ambiguous "LABEL=$LABEL" mark-test -n

# One carrier left: resolved, and every line names the device.
tune2fs -L other "${LOOPS[1]}" >/dev/null 2>&1
tune2fs -U random "${LOOPS[1]}" >/dev/null 2>&1
check "mark-test LABEL=: names the device" [ "$("$EXT4DEV" mark-test "LABEL=$LABEL")" = \
	"LABEL=$LABEL (${LOOPS[0]}): test filesystem flag set" ]
check "... and it was that device" bash -c \
	'dumpe2fs -h "$0" 2>/dev/null | grep -q "^Filesystem flags:.*test_filesystem"' "${LOOPS[0]}"
check "... not the other" bash -c \
	'! dumpe2fs -h "$0" 2>/dev/null | grep -q "^Filesystem flags:.*test_filesystem"' "${LOOPS[1]}"
check "show-flags -c -v UUID=: names the device" [ \
	"$("$EXT4DEV" show-flags -c test -v "UUID=$UUID")" = \
	"UUID=$UUID (${LOOPS[0]}): test filesystem" ]
check "mark-production UUID=: names the device" [ "$("$EXT4DEV" mark-production "UUID=$UUID")" = \
	"UUID=$UUID (${LOOPS[0]}): test filesystem flag cleared" ]
# An error line for a tag names the device too.
check "error for a tag names the device" bash -c \
	'"$0" mark-test -z "$2" "LABEL=$1" 2>&1 >/dev/null | grep -qF "'"'"'LABEL=$1'"'"' ($3): undo file"' \
	"$EXT4DEV" "$LABEL" "$WORK" "${LOOPS[0]}"
check "no device for a tag: 8" bash -c '"$0" show-flags LABEL=no-such-$$ 2>/dev/null; [ $? = 8 ]' "$EXT4DEV"

finish
