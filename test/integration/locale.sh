#!/bin/bash
# ext4dev follows the user's locale (setlocale), as lsblk does: in a
# UTF-8 locale the table prints a non-ASCII label as it is, under C it
# escapes its bytes as \xHH.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
utf8=$(locale -a 2>/dev/null | grep -iE '^(C|en_US)\.utf-?8$' | head -n1) ||
	true
[ -n "$utf8" ] || skip "no UTF-8 locale installed (locale -a)"
mkimg lab.img 8M -t ext4 -L "$(printf '\xc3\xa9\xe2\x82\xacx')"

out=$(LC_ALL=$utf8 "$EXT4DEV" show-flags -n -o LABEL lab.img)
[ "$(tr -d ' ' <<<"$out")" = "$(printf '\xc3\xa9\xe2\x82\xacx')" ] ||
	fail "$utf8: label printed as '$out'"
pass
out=$(LC_ALL=C "$EXT4DEV" show-flags -n -o LABEL lab.img)
[ "$(tr -d ' ' <<<"$out")" = '\xc3\xa9\xe2\x82\xacx' ] ||
	fail "C: label printed as '$out'"
pass
finish
