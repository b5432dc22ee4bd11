#!/bin/bash
# The command line: help, version, usage errors, dispatch by name, and
# the man page naming every command (its options: unit.opts_tables).
source "$(dirname "$0")/lib.sh"
: "${EXT4DEV_MAN:?EXT4DEV_MAN must point at man/ext4dev.8}"


COMMANDS=$("$EXT4DEV" --help | awk '/^Commands:/ {on = 1; next} on && /^ [a-z]/ {print $1}')
check "--help lists commands" [ -n "$COMMANDS" ]
check "--help: exit 0" expect_rc 0 "$EXT4DEV" --help
check "-V: ours and libext2fs's" bash -c \
	'"$0" -V | grep -Eq "^ext4dev [0-9.]+ \(libext2fs [0-9.]+\)$"' "$EXT4DEV"
check "no command: 16" expect_rc 16 "$EXT4DEV"
check "unknown command: 16" expect_rc 16 "$EXT4DEV" frobnicate
check "usage error says Try" grep -q "Try 'ext4dev --help'" "$WORK/err"
# An option before the command is read as an option, in getopt's words.
bad_top() {
	local msg=$1
	shift
	expect_rc 16 "$EXT4DEV" "$@" && [ ! -s "$WORK/out" ] &&
		[ "$(cat "$WORK/err")" = "ext4dev: $msg
Try 'ext4dev --help' for more information." ] ||
		{ echo "$*: $(cat "$WORK/err")"; return 1; }
}
check "--bogus: unrecognized option" bad_top "unrecognized option '--bogus'" --bogus
check "-x: invalid option" bad_top "invalid option -- 'x'" -x show-flags
check "help CMD: unknown command" bad_top "unknown command 'frob'" help frob
check "help CMD CMD: usage error" bad_top "help takes one command" help mkfs fsck
# "help" is --help, "help CMD" is "CMD --help": exit 0, stdout only.
same_help() {
	local want=$1 rc
	shift
	"$EXT4DEV" $want >"$WORK/want" 2>&1
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "$@"
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && cmp -s "$WORK/want" "$WORK/out" ||
		{ echo "$*: exit $rc, stderr '$(cat "$WORK/err")'"; return 1; }
}
check "help = --help" same_help --help help
check "help help = --help" same_help --help help help
full_stdout() {
	local rc
	set +e
	"$EXT4DEV" --help >/dev/full 2>"$WORK/err"
	rc=$?
	set -e
	[ "$rc" = 8 ] && grep -q "^ext4dev: write error" "$WORK/err"
}
check "--help > /dev/full: 8, write error" full_stdout

# --help: exit 0, the usage on stdout (naming the command and every
# common option), nothing on stderr; -h says the same.
help_ok() {
	local cmd=$1 opt=$2
	expect_rc 0 "$EXT4DEV" "$cmd" "$opt" || return 1
	[ ! -s "$WORK/err" ] || { echo "stderr: $(cat "$WORK/err")"; return 1; }
	head -1 "$WORK/out" | grep -qx "Usage:" &&
		grep -q "^ ext4dev $cmd \[options\]\|^ ext4dev $cmd " "$WORK/out" &&
		grep -q -- "-h, --help" "$WORK/out" &&
		{ [ "$cmd" = fsck ] || grep -q -- "-V, --version" "$WORK/out"; } ||
		{ echo "$cmd $opt: not a usage text:"; cat "$WORK/out"; return 1; }
	cp "$WORK/out" "$WORK/help.$opt"
}
version_ok() {
	expect_rc 0 "$EXT4DEV" "$@" &&
		grep -Eqx "ext4dev [0-9.]+ \(libext2fs [0-9.]+\)" "$WORK/out"
}
mkimg "$WORK/v.img" 16M -t ext4
for cmd in $COMMANDS; do
	check "$cmd --help: usage on stdout" help_ok "$cmd" --help
	check "$cmd -h: usage on stdout" help_ok "$cmd" -h
	check "$cmd -h = --help" cmp -s "$WORK/help.-h" "$WORK/help.--help"
	# shellcheck disable=SC2086 # "$cmd --help" is two words
	check "help $cmd = $cmd --help" same_help "$cmd --help" help "$cmd"
	if [ "$cmd" = fsck ]; then
		# fsck passes every argument but -h/--help to e2fsck: -V is
		# e2fsck's version (integration.fsck checks the arguments).
		check "fsck -V: e2fsck's version" bash -c \
			'"$0" fsck -V 2>&1 | grep -q "^e2fsck [0-9]"' "$EXT4DEV"
	else
		check "$cmd -V: version" version_ok "$cmd" -V
		check "$cmd --version: version" version_ok "$cmd" --version
		check "$cmd --version after a device: version" version_ok "$cmd" "$WORK/v.img" --version
	fi
	# mount speaks mount(8)'s codes: 1 for an incorrect invocation.
	usage=16
	[ "$cmd" = mount ] && usage=1
	check "$cmd bad option: $usage" expect_rc $usage "$EXT4DEV" "$cmd" --no-such-option x
	# fsck's usage errors are e2fsck's own (integration.fsck)
	[ "$cmd" = fsck ] ||
		check "$cmd says Try" grep -q "Try 'ext4dev $cmd --help'" "$WORK/err"
	check "$cmd no device: $usage" expect_rc $usage "$EXT4DEV" "$cmd"
	# Its options: unit.opts_tables reads each command's table, from
	# which --help is made, and finds every option in the man page.
	check "man page has command $cmd" grep -q -- "${cmd//-/\\\\-}" "$EXT4DEV_MAN"
done

# GNU permutation for every subcommand; "--" ends the options.
perm() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "$@"
	[ "$rc" = 0 ] || { echo "exit $rc: $*: $(cat "$WORK/err")"; return 1; }
}
check "show-flags DEV --json" perm show-flags "$WORK/v.img" --json
check "... is JSON" grep -q '"test": false' "$WORK/out"
check "show-flags DEV -c production" perm show-flags "$WORK/v.img" -c production
check "mark-test DEV -n: nothing written" bash -c \
	'sum=$(sha256sum <"$1"); "$0" mark-test "$1" -n | grep -q "would be set" &&
	[ "$(sha256sum <"$1")" = "$sum" ]' "$EXT4DEV" "$WORK/v.img"
dashdash() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" show-flags -- "$WORK/v.img" --json
	[ "$rc" = 8 ] && grep -q "'--json': No such file" "$WORK/err" &&
		grep -q "^Filesystem flags:\|^DEVICE" "$WORK/out"
}
check "show-flags -- DEV --json: --json is a device" dashdash
dashdash_dev() {
	cp "$WORK/v.img" "$WORK/-x.img"
	(cd "$WORK" && "$EXT4DEV" show-flags -c production -- -x.img)
}
check "show-flags -- -x.img: a device named -x.img" dashdash_dev

# Mutually exclusive options: usage error in util-linux's words.
excl() {
	local want=$1 rc
	shift
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" show-flags "$@" "$WORK/v.img"
	[ "$rc" = 16 ] && [ ! -s "$WORK/out" ] &&
		grep -qx "ext4dev: mutually exclusive arguments: $want" "$WORK/err" ||
		{ echo "$*: exit $rc: $(cat "$WORK/err")"; return 1; }
}
check "--check test -J: exclusive" excl "--check --json" --check test -J
check "-J --check test: exclusive" excl "--json --check" -J --check test
check "-c test -o DEVICE: exclusive" excl "--check --output" -c test -o DEVICE
check "-n -c test: exclusive" excl "--noheadings --check" -n -c test
check "-J -r: exclusive" excl "--json --raw" -J -r
check "-r -o DEVICE -J: exclusive" excl "--raw --json" -r -o DEVICE -J
check "-v without --check: 16" expect_rc 16 "$EXT4DEV" show-flags -v "$WORK/v.img"
check "-J -o TEST -n: fine" expect_rc 0 "$EXT4DEV" show-flags -J -o TEST -n "$WORK/v.img"
plus_col() {
	"$EXT4DEV" show-flags -o +UUID,LABEL "$WORK/v.img" | head -1 |
		grep -Eq '^DEVICE +TYPE +FLAGS +TEST +UUID +LABEL *$'
}
check "-o +UUID,LABEL: the default columns, then those" plus_col

# Called by another name: ext4dev-<command> runs that command.
ln -s "$EXT4DEV" "$WORK/ext4dev-show-flags"
mkimg "$WORK/t.img" 16M -t ext4 -E test_fs
check "argv[0] dispatch" expect_rc 0 "$WORK/ext4dev-show-flags" --check test "$WORK/t.img"
check "mkfs.ext4dev next to ext4dev" [ -L "$(dirname "$EXT4DEV")/mkfs.ext4dev" ]
check "fsck.ext4dev next to ext4dev" [ -L "$(dirname "$EXT4DEV")/fsck.ext4dev" ]
check "mount.ext4dev next to ext4dev" [ -L "$(dirname "$EXT4DEV")/mount.ext4dev" ]

# Every page renders from the checkout, links included (man -l).
if command -v man >/dev/null; then
	for page in "$(dirname "$EXT4DEV_MAN")"/*.8; do
		check "man -l $(basename "$page") renders" bash -c \
			'err=$(man -l "$0" 2>&1 >/dev/null); [ -z "$err" ] &&
			man -l "$0" 2>/dev/null | grep -q "mark-test"' "$page"
	done
fi

# man page lints clean.
check "groff -man -ww -z clean" bash -c \
	'[ -z "$(groff -man -ww -z "$0" 2>&1)" ]' "$EXT4DEV_MAN"

# The page quotes the refusal of a device node as the binary prints it,
# rendered as text (a '"' inside a macro argument is printed as it is,
# and the blanks of what it was to quote are lost).
man_text() {
	groff -man -Tutf8 -rLL=500n -rHY=0 -P-cbou "$EXT4DEV_MAN" 2>/dev/null |
		tr -s ' \n' '  '
}
quotes_kind_refusal() {
	local msg
	msg=$("$EXT4DEV" show-flags /dev/null 2>&1 >/dev/null) || true
	msg=${msg#ext4dev: }
	[ "$msg" = "'/dev/null': not a block device or regular file" ] &&
		man_text | grep -qF -- "refused at once with $msg (exit status 8)" ||
		{ echo "man page does not read '$msg'"; return 1; }
}
check "man page: the device-node refusal reads as printed" quotes_kind_refusal
# Nor anywhere else: a font macro's arguments are each "quoted" or
# free of '"' (a literal one is \(dq); a quote after "\ " is literal.
no_inner_quotes() {
	local arg='("([^"]|"")*"|([^ "\\]|\\.)+)' bad
	bad=$(grep -nE '^\.(B|I|R|BI|IB|BR|RB|IR|RI|TP|IP) .*"' "$EXT4DEV_MAN" |
		grep -vE "^[0-9]+:\.[A-Z]+( +$arg)* *\$") || true
	[ -z "$bad" ] || { echo "a '\"' inside an argument: $bad"; return 1; }
}
check "man page: no quote inside a macro argument" no_inner_quotes

finish
