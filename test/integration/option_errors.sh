#!/bin/bash
# An option error names the option, wherever it stands (after a device,
# in a bundle, as a path beginning with '-'), in every command, as
# getopt's own "invalid option -- 'x'" does; "--" ends the options.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkimg e4.img 8M -t ext4

# says MESSAGE ARGS...: rc 16 and MESSAGE as the first line.
says() {
	local msg=$1 rc=0 out
	shift
	out=$("$EXT4DEV" "$@" 2>&1) || rc=$?
	if [ "$rc" -ne 16 ] || [ "$(head -n1 <<<"$out")" != "ext4dev: $msg" ]
	then
		echo "rc $rc, '$(head -n1 <<<"$out")', want 'ext4dev: $msg'"
		return 1
	fi
}

# want MESSAGE ARGS...: one result for says.
want() {
	check "${*:2}: exit 16, ext4dev: $1" says "$@"
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
# A script asking for both states has a bug; the same one twice is fine.
want "--check given twice with different states" show-flags \
	--check test --check production e4.img
want "--check given twice with different states" show-flags \
	-c production e4.img -c test
check "--check test twice: one answer" expect_rc 1 \
	"$EXT4DEV" show-flags --check test --check test e4.img
check "no mkfs option error created x.img" [ ! -e x.img ]

# After "--" a name beginning with '-' is a device.
cp e4.img ./-dash.img
# shows_dash: show-flags -- -dash.img reads it and names it.
shows_dash() {
	local out rc=0
	out=$("$EXT4DEV" show-flags -n -o DEVICE -- -dash.img 2>&1) || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "rc $rc: $out"
		return 1
	fi
	same "$out" "-dash.img"
}
check "show-flags -- -dash.img: a device" shows_dash
# marks_dash: mark-test -- -dash.img marks it.
marks_dash() {
	local rc=0
	"$EXT4DEV" mark-test -q -- -dash.img 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "mark-test -- -dash.img: rc $rc"
		return 1
	fi
	same "$("$EXT4DEV" show-flags -n -o TEST -- -dash.img | tr -d " ")" yes
}
check "mark-test -- -dash.img: a device, marked" marks_dash
finish
