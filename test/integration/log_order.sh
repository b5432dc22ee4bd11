#!/bin/bash
# Output that reads right in a log: stdout is flushed before anything
# goes to stderr, so with ">log 2>&1" a warning or an error never splits
# a progress line and stands after what came before it.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
: >empty.conf
export E2FSCK_CONFIG=$WORK/empty.conf	# clears the flag: a warning

# Not a check but what the next two read: without a log, die.
"$EXT4DEV" mkfs x.img 64M >log 2>&1 || die "mkfs x.img 64M: $(cat log)"

# journal_whole: no stderr line cuts "Creating journal ...: done".
journal_whole() {
	grep -qx 'Creating journal ([0-9]* blocks): done' log && return 0
	echo "the journal line is split:"
	cat log
	return 1
}
check "mkfs prints the journal line whole" journal_whole

# warning_last: the warning closes the log, just after the line that
# reports the flag it warns about.
warning_last() {
	local closing="x.img: test filesystem flag set"
	if [ "$(tail -n1 log | cut -c1-17)" != "ext4dev: warning:" ]; then
		echo "the warning is not the last line:"
	elif [ "$(tail -n2 log | head -n1)" != "$closing" ]; then
		echo "the closing line is not before the warning:"
	else
		return 0
	fi
	cat log
	return 1
}
check "mkfs prints its warning last, after the closing line" warning_last

# An error between two devices stands between their lines.
mkimg a.img 8M -t ext4
mkimg b.img 8M -t ext4
# error_between: mark-test fails, its error line between the two
# devices' lines.
error_between() {
	if "$EXT4DEV" mark-test a.img missing.img b.img >log 2>&1; then
		echo "mark-test a.img missing.img b.img: rc 0:"
		cat log
		return 1
	fi
	printf '%s\n' "a.img: test filesystem flag set" \
		"ext4dev: 'missing.img': No such file or directory" \
		"b.img: test filesystem flag set" >want
	head -n3 log | diff -u want - && return 0
	echo "the whole log:"
	cat log
	return 1
}
check "mark-test prints an error between the two devices' lines" \
	error_between
finish
