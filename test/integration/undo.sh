#!/bin/bash
# mark-* -z: the undo file never destroys anything.  Every bad path is
# refused with exit 8 (16 for an empty one), a message that names it,
# the image's bytes unchanged and the path itself left as it was; an
# existing undo file is extended or refused as tune2fs -z does.
source "$(dirname "$0")/lib.sh"

IMG=$WORK/fs.img
mkimg "$IMG" 32M -t ext4
cp "$IMG" "$WORK/orig.img"

# state PATH: what a path is, to prove it was left alone.
state() {
	if [ -L "$1" ]; then
		echo "link $(readlink "$1")"
	elif [ -e "$1" ]; then
		stat -c '%F %i %s %t:%T' "$1"
		[ -f "$1" ] && sha "$1"
	else
		echo missing
	fi
	return 0
}

# refused RC UNDO [WANT]: mark-test -z UNDO refused with RC, the image
# and UNDO unchanged, the message naming UNDO (and saying WANT).
refused() {
	local want_rc=$1 undo=$2 want=${3:-} before img_before rc
	before=$(state "$undo")
	img_before=$(sha "$IMG")
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test -z "$undo" "$IMG"
	if [ "$rc" != "$want_rc" ]; then
		echo "-z '$undo': exit $rc, want $want_rc: $(cat "$WORK/err")"
		return 1
	fi
	[ "$(sha "$IMG")" = "$img_before" ] || { echo "image changed"; return 1; }
	[ "$(state "$undo")" = "$before" ] || { echo "'$undo' changed"; return 1; }
	[ "$(wc -l <"$WORK/err")" -le 2 ] || { echo "more than one error line"; return 1; }
	if [ "$want_rc" = 8 ]; then
		grep -qF "undo file '$undo'" "$WORK/err" ||
			{ echo "message does not name '$undo': $(cat "$WORK/err")"; return 1; }
	fi
	[ -z "$want" ] || grep -qF -- "$want" "$WORK/err" ||
		{ echo "no '$want' in: $(cat "$WORK/err")"; return 1; }
}

check "-z the image itself" refused 8 "$IMG" "the device itself"
ln -s "$IMG" "$WORK/symlink"
check "-z a symlink to the image" refused 8 "$WORK/symlink" "the device itself"
ln "$IMG" "$WORK/hardlink"
check "-z a hard link to the image" refused 8 "$WORK/hardlink" "the device itself"
check "-z a directory" refused 8 "$WORK" "Is a directory"
check "-z in a missing directory" refused 8 "$WORK/nonexistent/x.undo" \
	"No such file or directory"
check "-z /nonexistent/x" refused 8 /nonexistent/x.undo
check "-z /proc/x" refused 8 /proc/x.undo
check "-z /dev/null" refused 8 /dev/null "not a regular file"
if mknod "$WORK/node" c 1 3 2>/dev/null; then
	check "-z a char device node" refused 8 "$WORK/node" "not a regular file"
else
	echo "note: mknod not permitted, char node case via /dev/null only"
fi
mkfifo "$WORK/fifo"
check "-z a FIFO (never opened)" refused 8 "$WORK/fifo" "not a regular file"
echo "precious" >"$WORK/notes.txt"
check "-z someone's regular file" refused 8 "$WORK/notes.txt" "not an e2undo file"
check "-z ''" refused 16 "" "needs a file name"
check "image unchanged after all refusals" cmp -s "$IMG" "$WORK/orig.img"

# The dry run checks the path the same way and creates nothing.
dry_refused() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test -n -z "$1" "$IMG"
	[ "$rc" = 8 ] && grep -qF "undo file '$1'" "$WORK/err"
}
check "-n -z the image: refused too" dry_refused "$IMG"
check "-n -z missing dir: refused too" dry_refused "$WORK/nonexistent/u"
check "-n -z new file: accepted, nothing created" bash -c \
	'"$0" mark-test -n -z "$1" "$2" >/dev/null && [ ! -e "$1" ]' \
	"$EXT4DEV" "$WORK/dry.undo" "$IMG"

# "already set": nothing written, no undo file left behind.
mkimg "$WORK/set.img" 32M -t ext4 -E test_fs
check "already set: no undo file left" bash -c \
	'"$0" mark-test -z "$1" "$2" >/dev/null && [ ! -e "$1" ]' \
	"$EXT4DEV" "$WORK/none.undo" "$WORK/set.img"

# An existing undo file of this filesystem is extended, as tune2fs -z
# does: e2undo then goes back to before the first run.
extend() {
	local u=$WORK/chain.undo
	"$EXT4DEV" mark-test -q -z "$u" "$IMG" &&
		"$EXT4DEV" mark-production -q -z "$u" "$IMG" &&
		"$EXT4DEV" mark-test -q -z "$u" "$IMG" &&
		e2undo "$u" "$IMG" >/dev/null && cmp -s "$IMG" "$WORK/orig.img"
}
check "existing undo file of this fs: extended, e2undo restores all" extend

# An undo file of another filesystem: refused by ext4dev and tune2fs.
other_fs() {
	local u=$WORK/other.undo rc
	mkimg "$WORK/b.img" 32M -t ext4
	"$EXT4DEV" mark-test -q -z "$u" "$WORK/b.img" || return 1
	refused 8 "$u" "Wrong undo file" || return 1
	tune2fs -z "$u" -E test_fs "$IMG" >/dev/null 2>&1 && rc=0 || rc=$?
	[ "$rc" != 0 ] || { echo "tune2fs accepted it"; return 1; }
}
check "undo file of another fs: refused like tune2fs" other_fs

finish
