#!/bin/bash
# ext4dev follows the user's locale (setlocale), as lsblk does: in a
# UTF-8 locale the table prints a non-ASCII label as it is, under C it
# escapes its bytes as \xHH.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
utf8=$(locale -a 2>/dev/null | grep -iE '^(C|en_US)\.utf-?8$' | head -n1) ||
	true
[ -n "$utf8" ] || skip "no UTF-8 locale installed (locale -a)"
mkimg lab.img 8M -t ext4 -L "$(printf '\xc3\xa9\xe2\x82\xacx')"

# label_as LOCALE WANT: under LOCALE the table prints lab.img's label
# as WANT (its padding aside).
label_as() {
	local out rc=0
	out=$(LC_ALL=$1 "$EXT4DEV" show-flags -n -o LABEL lab.img) || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "show-flags: rc $rc, printed '$out'"
		return 1
	fi
	same "$(tr -d ' ' <<<"$out")" "$2"
}
check "$utf8: a non-ASCII label printed as it is" \
	label_as "$utf8" "$(printf '\xc3\xa9\xe2\x82\xacx')"
check "C: a non-ASCII label's bytes escaped as \\xHH" \
	label_as C '\xc3\xa9\xe2\x82\xacx'

# Only the categories ext4dev uses are loaded (LC_CTYPE, LC_MESSAGES, as
# e2fsprogs): not a dozen locale files on every run, and no LC_NUMERIC
# that would make strtod() read mkfs -m 0.5 as 0 in a "0,5" locale.
categories() {
	strace -f -e trace=open,openat -o "$WORK/trace" env LC_ALL="$utf8" \
		"$EXT4DEV" show-flags lab.img >/dev/null 2>&1 || true
	grep -o '/LC_[A-Z]*"' "$WORK/trace" | tr -d '/"' | sort -u | tr '\n' ' '
}
if ! command -v strace >/dev/null; then
	echo "note: strace missing; locale categories not checked"
elif [ -e /usr/lib/locale/locale-archive ]; then
	echo "note: locales come from locale-archive; categories not checked"
else
	check_eq "$utf8: only LC_CTYPE and LC_MESSAGES loaded" "$(categories)" \
		"LC_CTYPE LC_MESSAGES "
fi
finish
