#!/bin/bash
# The command line: help, version, usage errors, dispatch by name, and
# the man page keeping up with every option --help lists.
source "$(dirname "$0")/lib.sh"
: "${EXT4DEV_MAN:?EXT4DEV_MAN must point at man/ext4dev.8}"

expect_rc() {
	local want=$1 rc
	shift
	run_capture "$WORK/out" "$WORK/err" rc "$@"
	[ "$rc" = "$want" ] || { echo "rc $rc, want $want: $*"; cat "$WORK/err"; return 1; }
}

COMMANDS=$("$EXT4DEV" --help | awk '/^Commands:/ {on = 1; next} on && /^ [a-z]/ {print $1}')
check "--help lists commands" [ -n "$COMMANDS" ]
check "--help: exit 0" expect_rc 0 "$EXT4DEV" --help
check "-V: ours and libext2fs's" bash -c \
	'"$0" -V | grep -Eq "^ext4dev [0-9.]+ \(libext2fs [0-9.]+\)$"' "$EXT4DEV"
check "no command: 16" expect_rc 16 "$EXT4DEV"
check "unknown command: 16" expect_rc 16 "$EXT4DEV" frobnicate
check "usage error says Try" grep -q "Try 'ext4dev --help'" "$WORK/err"
full_stdout() {
	local rc
	set +e
	"$EXT4DEV" --help >/dev/full 2>"$WORK/err"
	rc=$?
	set -e
	[ "$rc" = 8 ] && grep -q "^ext4dev: write error" "$WORK/err"
}
check "--help > /dev/full: 8, write error" full_stdout

for cmd in $COMMANDS; do
	check "$cmd --help: 0" expect_rc 0 "$EXT4DEV" "$cmd" --help
	check "$cmd -h: 0" expect_rc 0 "$EXT4DEV" "$cmd" -h
	check "$cmd bad option: 16" expect_rc 16 "$EXT4DEV" "$cmd" --no-such-option x
	# fsck's usage errors are e2fsck's own (integration.fsck)
	[ "$cmd" = fsck ] ||
		check "$cmd says Try" grep -q "Try 'ext4dev $cmd --help'" "$WORK/err"
	check "$cmd no device: 16" expect_rc 16 "$EXT4DEV" "$cmd"
	check "man page has command $cmd" grep -q -- "${cmd//-/\\\\-}" "$EXT4DEV_MAN"
	for opt in $("$EXT4DEV" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		check "man page has $cmd $opt" grep -q -- "${opt//-/\\\\-}" "$EXT4DEV_MAN"
	done
done

# Called by another name: ext4dev-<command> runs that command.
ln -s "$EXT4DEV" "$WORK/ext4dev-show-flags"
mkimg "$WORK/t.img" 16M -t ext4 -E test_fs
check "argv[0] dispatch" expect_rc 0 "$WORK/ext4dev-show-flags" --check test "$WORK/t.img"
check "mkfs.ext4dev next to ext4dev" [ -L "$(dirname "$EXT4DEV")/mkfs.ext4dev" ]
check "fsck.ext4dev next to ext4dev" [ -L "$(dirname "$EXT4DEV")/fsck.ext4dev" ]

# man page lints clean.
check "groff -man -ww -z clean" bash -c \
	'[ -z "$(groff -man -ww -z "$0" 2>&1)" ]' "$EXT4DEV_MAN"

finish
