#!/bin/bash
# Loop devices that come and go under the scan.  While a bounded loop
# binds and unbinds loop devices of an unrelated file as fast as
# losetup can, the marks and mkfs walk every loop device: on a free
# image they never fail spuriously (a device gone between readdir and
# open is skipped, not an error), and on an image mounted through a loop
# device they never miss the claim (exit 8 naming it, every round).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/../integration/names_lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root for loop devices and mounts"
command -v losetup >/dev/null || skip "losetup is not installed"
ROUNDS=${1:-40}
MNT=$WORK/mnt
mkdir "$MNT"
CHURN=
cleanup() {
	[ -z "$CHURN" ] || { kill "$CHURN" 2>/dev/null; wait "$CHURN" 2>/dev/null; } || true
	! mountpoint -q "$MNT" 2>/dev/null || umount "$MNT"
	detach_all
	rm -rf "$WORK"
}
trap cleanup EXIT

mkimg "$WORK/free.img" 16M -t ext4 -E test_fs
mkimg "$WORK/busy.img" 16M -t ext4 -E test_fs
truncate -s 4M "$WORK/other.img"
attach FREE "$WORK/free.img"
attach BUSY "$WORK/busy.img"
mount -t ext4 -o ro "$BUSY" "$MNT"
busy_before=$(sparse_sha "$WORK/busy.img")

# The churn: bind, unbind, for at most 60 s or 3000 devices.
(
	end=$((SECONDS + 60))
	for _ in $(seq 3000); do
		[ "$SECONDS" -lt "$end" ] || break
		l=$(losetup -f --show "$WORK/other.img" 2>/dev/null) || continue
		losetup -d "$l" 2>/dev/null || true
	done
) &
CHURN=$!

free_ok() {
	local r rc
	for r in $(seq "$ROUNDS"); do
		for cmd in "mark-production -n" "mark-test -n" "mkfs -n -F" \
			"mark-test -q"; do
			# shellcheck disable=SC2086 # CMD is a command and its options
			run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" $cmd "$FREE"
			[ "$rc" = 0 ] ||
				{ echo "round $r: $cmd $FREE: exit $rc: $(cat "$WORK/err")"; return 1; }
		done
	done
}
busy_refused() {
	local r rc
	for r in $(seq "$ROUNDS"); do
		for cmd in "mark-production" "mark-test -n" "mkfs -F -q"; do
			# shellcheck disable=SC2086
			run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" $cmd "$WORK/busy.img"
			[ "$rc" = 8 ] && grep -q "mounted" "$WORK/err" ||
				{ echo "round $r: $cmd busy.img: exit $rc: $(cat "$WORK/err")"; return 1; }
		done
	done
}
check "beside loop churn: a free image's loop device never fails" free_ok
check "beside loop churn: a mounted image is refused every round" busy_refused
check "... and its bytes never changed" \
	[ "$(sparse_sha "$WORK/busy.img")" = "$busy_before" ]
kill "$CHURN" 2>/dev/null || true
wait "$CHURN" 2>/dev/null || true
CHURN=
check "the free image is e2fsck -fn clean" e2fsck -fn "$WORK/free.img" >/dev/null 2>&1

finish
