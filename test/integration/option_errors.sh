#!/bin/bash
# An option error names the option, wherever it stands (after a device,
# in a bundle, as a path beginning with '-'), in every command, as
# getopt's own "invalid option -- 'x'" does; "--" ends the options.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkimg e4.img 8M -t ext4

# want MESSAGE ARGS...: rc 16 and MESSAGE as the first line.
want() {
	local msg=$1 rc=0 out
	shift
	out=$("$EXT4DEV" "$@" 2>&1) || rc=$?
	if [ "$rc" -ne 16 ] || [ "$(head -n1 <<<"$out")" != "ext4dev: $msg" ]
	then
		fail "$*: rc $rc, '$(head -n1 <<<"$out")', want 'ext4dev: $msg'"
	else
		pass
	fi
}

for cmd in show-flags mark-test mark-production; do
	want "invalid option -- 'x'" "$cmd" e4.img -xy
	want "invalid option -- 'x'" "$cmd" -xy e4.img
	want "invalid option -- 'k'" "$cmd" e4.img -k e4.img
	want "invalid option -- 'd'" "$cmd" -dash.img
	want "invalid option -- 'd'" "$cmd" e4.img -dash.img
	want "unrecognized option '--bogus'" "$cmd" e4.img --bogus
	want "option '--wait' requires an argument" "$cmd" e4.img --wait
done
want "invalid option -- 'y'" show-flags e4.img -ny
want "option requires an argument -- 'o'" show-flags e4.img -o
want "option requires an argument -- 'z'" mark-test e4.img -z
want "option '--undo' requires an argument" mark-production e4.img --undo
want "invalid option -- '5'" mkfs x.img -5M
want "invalid option -- 'x'" mkfs x.img 8M -qx
want "invalid option -- 'y'" mkfs -ny x.img
want "option requires an argument -- 'b'" mkfs x.img -b
want "unrecognized option '--bogus'" mkfs x.img --bogus
[ ! -e x.img ] || fail "an option error created x.img"

# After "--" a name beginning with '-' is a device.
cp e4.img ./-dash.img
out=$("$EXT4DEV" show-flags -n -o DEVICE -- -dash.img 2>&1) ||
	fail "show-flags -- -dash.img: $out"
[ "$out" = "-dash.img" ] || fail "show-flags -- -dash.img printed '$out'"
pass
"$EXT4DEV" mark-test -q -- -dash.img || fail "mark-test -- -dash.img"
[ "$("$EXT4DEV" show-flags -n -o TEST -- -dash.img | tr -d " ")" = yes ] ||
	fail "mark-test -- -dash.img did not mark it"
pass
finish
