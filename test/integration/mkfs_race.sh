#!/bin/bash
# mkfs decides under the lock.  Whether it may write (an existing
# signature without -F, mounted, in use) is decided while it holds the
# image's lock, so a second mkfs that waited for the first one sees the
# first one's filesystem and refuses; creating a missing image is
# atomic, and the loser of that race is refused as if the file had
# existed.  Over 50 rounds each: two mkfs on one missing image, two on
# one sparse file, mkfs beside mark-test: exactly one mkfs succeeds, the
# other exits 8 with one line, and what is left is the winner's
# filesystem, e2fsck -fn clean.
source "$(dirname "$0")/lib.sh"

command -v flock >/dev/null || skip "flock is not installed"
ROUNDS=${EXT4DEV_RACE_ROUNDS:-50}
IMG=$WORK/race.img

uuid_of() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p'
}

# one_winner SETUP: SETUP prepares $IMG (or removes it); then two mkfs
# race on it, and exactly one may win.
one_winner() {
	local setup=$1 round rc1 rc2 u1 u2 lost=0
	for round in $(seq "$ROUNDS"); do
		$setup
		u1=$(printf '%08x-0000-4000-8000-%012x' "$round" 1)
		u2=$(printf '%08x-0000-4000-8000-%012x' "$round" 2)
		rc1=0 rc2=0
		"$EXT4DEV" mkfs -q -U "$u1" "$IMG" 16M 2>"$WORK/err1" & p1=$!
		"$EXT4DEV" mkfs -q -U "$u2" "$IMG" 16M 2>"$WORK/err2" & p2=$!
		wait "$p1" || rc1=$?
		wait "$p2" || rc2=$?
		case "$rc1/$rc2" in
		0/8) winner=$u1 err=$WORK/err2 ;;
		8/0) winner=$u2 err=$WORK/err1 ;;
		*)
			echo "round $round: exits $rc1 and $rc2: $(cat "$WORK/err1" "$WORK/err2")"
			return 1
			;;
		esac
		grep -q "contains an existing ext4dev filesystem" "$err" ||
			{ echo "round $round: loser said: $(cat "$err")"; return 1; }
		[ "$(grep -cv 'waiting for another process' "$err")" = 1 ] ||
			{ echo "round $round: loser said more: $(cat "$err")"; return 1; }
		[ "$(uuid_of "$IMG")" = "$winner" ] ||
			{ echo "round $round: not the winner's filesystem"; return 1; }
		e2fsck -fn "$IMG" >/dev/null 2>&1 ||
			{ echo "round $round: e2fsck -fn finds damage"; lost=1; }
	done
	return "$lost"
}

missing() { rm -f "$IMG"; }
sparse() { rm -f "$IMG"; truncate -s 16M "$IMG"; }
check "two mkfs creating one missing image: one wins" one_winner missing
check "two mkfs on one sparse file: one wins" one_winner sparse

# mkfs beside mark-test: mark-test either finds no filesystem yet (and
# refuses) or marks the one mkfs made; mkfs always succeeds.
beside_mark() {
	local round rc1 rc2
	for round in $(seq "$ROUNDS"); do
		sparse
		rc1=0 rc2=0
		"$EXT4DEV" mkfs -q --production "$IMG" 16M 2>"$WORK/err1" & p1=$!
		"$EXT4DEV" mark-test -q "$IMG" 2>"$WORK/err2" & p2=$!
		wait "$p1" || rc1=$?
		wait "$p2" || rc2=$?
		[ "$rc1" = 0 ] || { echo "round $round: mkfs exit $rc1: $(cat "$WORK/err1")"; return 1; }
		case $rc2 in
		0) "$EXT4DEV" show-flags --check test "$IMG" >/dev/null ||
			{ echo "round $round: mark-test said 0, flag not set"; return 1; } ;;
		8) "$EXT4DEV" show-flags --check production "$IMG" >/dev/null ||
			{ echo "round $round: mark-test refused, flag set"; return 1; } ;;
		*) echo "round $round: mark-test exit $rc2: $(cat "$WORK/err2")"; return 1 ;;
		esac
		e2fsck -fn "$IMG" >/dev/null 2>&1 ||
			{ echo "round $round: e2fsck -fn finds damage"; return 1; }
	done
}
check "mkfs beside mark-test: every round consistent" beside_mark

# The check waits for the lock: a filesystem that appears while another
# process holds the lock is seen, and refused.
sparse
flock "$IMG" sh -c "sleep 1; mke2fs -q -F -t ext4 '$IMG' >/dev/null 2>&1; sleep 0.3" &
HOLDER=$!
sleep 0.3
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -q "$IMG"
wait "$HOLDER"
check_eq "mkfs that waited for the lock: refused" "$rc" 8
check "... because of the filesystem made meanwhile" \
	grep -q "contains an existing ext4 filesystem" "$WORK/err"
check "... and it left that filesystem alone" e2fsck -fn "$IMG" >/dev/null 2>&1

finish
