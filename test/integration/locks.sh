#!/bin/bash
# Every subcommand waits alike while another process holds the device's
# lock: silently for a second, then with one notice line, until the
# holder lets go (or --wait SECONDS runs out: exit 8, nothing written).
# Marks racing on one block device take turns instead of failing "in
# use".
source "$(dirname "$0")/lib.sh"
command -v flock >/dev/null || skip "flock(1) is not installed"

IMG=$WORK/fs.img
mkimg "$IMG" 16M -t ext4

# held SECONDS CMD...: CMD while flock(1) holds IMG for SECONDS; sets
# RC, ERR (stderr), ELAPSED (ms).
held() {
	local secs=$1 start
	shift
	flock "$IMG" sleep "$secs" &
	local holder=$!
	sleep 0.2
	start=$(date +%s%N)
	run_capture "$WORK/out" "$WORK/err" RC "$@"
	ELAPSED=$(( ($(date +%s%N) - start) / 1000000 ))
	wait "$holder"
	ERR=$(cat "$WORK/err")
}

waits_with_notice() {
	held 2 "$@"
	[ "$RC" = 0 ] || { echo "$*: exit $RC: $ERR"; return 1; }
	[ "$ELAPSED" -ge 1500 ] || { echo "$*: did not wait ($ELAPSED ms)"; return 1; }
	[ "$(grep -c "waiting for another process to release '$IMG'" "$WORK/err")" = 1 ] ||
		{ echo "$*: no single notice: $ERR"; return 1; }
}
quick_no_notice() {
	held 0.5 "$@"
	[ "$RC" = 0 ] && [ ! -s "$WORK/err" ] ||
		{ echo "$*: exit $RC, stderr: $ERR"; return 1; }
}
gives_up() {
	local before
	before=$(sha "$IMG")
	held 3 "$@"
	[ "$RC" = 8 ] && [ "$ELAPSED" -lt 2500 ] &&
		grep -q "^ext4dev: '$IMG': another process still holds the device's lock" "$WORK/err" &&
		[ "$(sha "$IMG")" = "$before" ] ||
		{ echo "$*: exit $RC after $ELAPSED ms: $ERR"; return 1; }
}

check "show-flags waits, one notice" waits_with_notice "$EXT4DEV" show-flags "$IMG"
check "mark-test waits, one notice" waits_with_notice "$EXT4DEV" mark-test -q "$IMG"
check "mark-production waits, one notice" waits_with_notice "$EXT4DEV" mark-production -q "$IMG"
check "mkfs waits, one notice" waits_with_notice "$EXT4DEV" mkfs -q -F "$IMG"
check "a short wait says nothing" quick_no_notice "$EXT4DEV" show-flags "$IMG"
check "show-flags --wait 1 gives up" gives_up "$EXT4DEV" show-flags --wait 1 "$IMG"
check "mark-test --wait 1 gives up" gives_up "$EXT4DEV" mark-test --wait 1 "$IMG"
check "mark-production --wait 0 gives up" gives_up "$EXT4DEV" mark-production "$IMG" --wait 0
check "mkfs --wait 1 gives up" gives_up "$EXT4DEV" mkfs -F --wait 1 "$IMG"
for cmd in show-flags mark-test mkfs; do
	check "$cmd --wait x: 16" bash -c '"$0" $1 --wait x "$2" 2>/dev/null; [ $? = 16 ]' \
		"$EXT4DEV" "$cmd" "$IMG"
done

# Racing marks on one loop device: all succeed, none says "in use".
race_on_loop() {
	local loop i pids=() fails=0
	loop=$(losetup -f --show "$IMG" 2>/dev/null) || return 77
	for i in $(seq 1 8); do
		if [ $((i % 2)) = 0 ]; then op=mark-test; else op=mark-production; fi
		"$EXT4DEV" "$op" -q "$loop" 2>>"$WORK/race.err" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i" || fails=$((fails + 1)); done
	losetup -d "$loop"
	[ "$fails" = 0 ] || { echo "$fails marks failed: $(cat "$WORK/race.err")"; return 1; }
	e2fsck -fn "$IMG" >/dev/null 2>&1
}
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	for round in 1 2 3; do
		set +e; race_on_loop; rc=$?; set -e
		if [ "$rc" = 77 ]; then echo "note: no loop device; race not run"; break; fi
		check "8 racing marks on one loop device, round $round" [ "$rc" = 0 ]
	done
fi

finish
