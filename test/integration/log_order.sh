#!/bin/bash
# Output that reads right in a log: stdout is flushed before anything
# goes to stderr, so with ">log 2>&1" a warning or an error never splits
# a progress line and stands after what came before it.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
: >empty.conf
export E2FSCK_CONFIG=$WORK/empty.conf	# clears the flag: a warning

"$EXT4DEV" mkfs x.img 64M >log 2>&1 || fail "mkfs: $(cat log)"
grep -qx 'Creating journal ([0-9]* blocks): done' log ||
	fail "the journal line is split: $(cat log)"
pass
[ "$(tail -n1 log | cut -c1-17)" = "ext4dev: warning:" ] ||
	fail "the warning is not the last line: $(cat log)"
[ "$(tail -n2 log | head -n1)" = "x.img: test filesystem flag set" ] ||
	fail "the closing line is not before the warning: $(cat log)"
pass

# An error between two devices stands between their lines.
mkimg a.img 8M -t ext4
mkimg b.img 8M -t ext4
"$EXT4DEV" mark-test a.img missing.img b.img >log 2>&1 && fail "rc 0"
printf '%s\n' "a.img: test filesystem flag set" \
	"ext4dev: 'missing.img': No such file or directory" \
	"b.img: test filesystem flag set" >want
head -n3 log | diff -u want - || fail "mark-test order: $(cat log)"
pass
finish
