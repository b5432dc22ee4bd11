#!/bin/bash
# Bad input for every subcommand: exit 8, one "ext4dev: 'PATH': why"
# message, and not one byte of the input changed.
source "$(dirname "$0")/lib.sh"

make_inputs() {
	local d=$WORK/in
	mkdir -p "$d"
	: >"$d/empty"
	printf x >"$d/one-byte"
	truncate -s 4M "$d/zeros"
	head -c 1M /dev/urandom >"$d/random"
	mkimg "$WORK/real.img" 32M -t ext4
	head -c 2048 "$WORK/real.img" >"$d/first-2k"
	head -c 65536 "$WORK/real.img" >"$d/first-64k"
	cp "$WORK/real.img" "$d/bad-csum"
	# s_flags lives at 0x160 of the superblock (1024 + 352): flip it
	# behind libext2fs's back so the checksum no longer matches.
	printf '\x05' | dd of="$d/bad-csum" bs=1 seek=$((1024 + 352)) \
		conv=notrunc status=none
	truncate -s 4M "$d/vfat"
	mkfs.vfat "$d/vfat" >/dev/null
	mkimg "$d/journal-dev" 8M -O journal_dev
	mkimg "$d/needs-recovery" 32M -t ext4
	debugfs -w -R "feature needs_recovery" "$d/needs-recovery" >/dev/null 2>&1
	mkimg "$d/unknown-incompat" 32M -t ext4 -O ^metadata_csum
	debugfs -w -R "ssv feature_incompat 0x10000242" \
		"$d/unknown-incompat" >/dev/null 2>&1
	mkdir "$d/directory"
	# A DOS label with one Linux partition from sector 2048, by hand.
	truncate -s 16M "$d/parts"
	printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x78\x00\x00' |
		dd of="$d/parts" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$d/parts" bs=1 seek=510 conv=notrunc status=none
}

# expect_failure CMD... TARGET: exit 8, message names TARGET, no change.
expect_failure() {
	local target=${*: -1} before after rc
	before=$( [ -f "$target" ] && sha "$target" || echo none)
	run_capture "$WORK/out" "$WORK/err" rc "$@"
	after=$( [ -f "$target" ] && sha "$target" || echo none)
	if [ "$rc" != 8 ]; then
		echo "exit $rc, want 8: $* ($(cat "$WORK/err"))"
		return 1
	fi
	if ! grep -q "^ext4dev: .*'$target'" "$WORK/err"; then
		echo "no 'ext4dev: PATH' message: $(cat "$WORK/err")"
		return 1
	fi
	if [ "$before" != "$after" ]; then
		echo "bytes changed: $*"
		return 1
	fi
}

make_inputs
# Each is bad for every subcommand.
ALL_BAD=(empty one-byte zeros random first-2k first-64k bad-csum vfat
	 directory missing)
# Each is readable, but must not be changed.
WRITE_BAD=(journal-dev needs-recovery unknown-incompat)

for input in "${ALL_BAD[@]}"; do
	path=$WORK/in/$input
	check "show-flags $input" expect_failure "$EXT4DEV" show-flags "$path"
	check "mark-test $input" expect_failure "$EXT4DEV" mark-test "$path"
	check "mark-production $input" \
		expect_failure "$EXT4DEV" mark-production "$path"
done
for input in "${WRITE_BAD[@]}"; do
	path=$WORK/in/$input
	check "mark-test $input" expect_failure "$EXT4DEV" mark-test "$path"
	check "mark-production $input" \
		expect_failure "$EXT4DEV" mark-production "$path"
done

# The messages admins need to act on.
message_for() {
	local want=$1
	shift
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "$@"
	grep -q -- "$want" "$WORK/err" ||
		{ echo "no '$want' from: $*: $(cat "$WORK/err")"; return 1; }
}
check "vfat named" message_for "contains a vfat filesystem" mark-test "$WORK/in/vfat"
check "recovery: run e2fsck" message_for "run e2fsck first" mark-test "$WORK/in/needs-recovery"
check "journal device named" message_for "external journal device" mark-test "$WORK/in/journal-dev"
check "bad csum: libext2fs's words" message_for "Superblock checksum does not match" mark-test "$WORK/in/bad-csum"
check "unknown feature: libext2fs's words" message_for "unsupported feature" mark-test "$WORK/in/unknown-incompat"
check "missing: strerror" message_for "No such file or directory" show-flags "$WORK/in/missing"
check "empty: too small" message_for "too small to hold an ext2/ext3/ext4 superblock" show-flags "$WORK/in/empty"
check "one byte: too small" message_for "too small to hold" mark-test "$WORK/in/one-byte"
check "dos label: libblkid's words" message_for "contains a dos partition table" show-flags "$WORK/in/parts"
# libblkid's usage class is not a noun: swap is an area, xfs takes "an".
truncate -s 32M "$WORK/in/swap"
mkswap "$WORK/in/swap" >/dev/null 2>&1 || true
check "swap: a swap area" message_for "'$WORK/in/swap': contains a swap area, not ext2/ext3/ext4" show-flags "$WORK/in/swap"
check "mkfs over swap: an existing swap area" message_for "contains an existing swap area (use -F" mkfs "$WORK/in/swap"
if command -v mkfs.xfs >/dev/null; then
	truncate -s 300M "$WORK/in/xfs"
	mkfs.xfs -q "$WORK/in/xfs" >/dev/null 2>&1
	check "xfs: an xfs filesystem" message_for "contains an xfs filesystem, not" show-flags "$WORK/in/xfs"
fi
# A zeroed primary with good backups: say so, and which backup.
cp "$WORK/real.img" "$WORK/in/bad-primary"
dd if=/dev/zero of="$WORK/in/bad-primary" bs=1024 seek=1 count=1 conv=notrunc status=none
bs=$(block_size "$WORK/real.img")
first=$(backup_superblocks "$WORK/real.img" | head -1)
check "bad primary: names the first good backup" message_for \
	"primary superblock is damaged; the first good backup is at block $first (block size $bs): repair with 'e2fsck -b $first -B $bs'" \
	mark-test "$WORK/in/bad-primary"
check "... which e2fsck accepts" bash -c \
	'e2fsck -fn -b "$0" -B "$1" "$2" >/dev/null 2>&1; [ $? -le 4 ]' "$first" "$bs" "$WORK/in/bad-primary"
# An external journal device: shown as dumpe2fs shows it, said what it
# is, and no --check verdict.
journal_dev() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" show-flags --check production "$WORK/in/journal-dev"
	[ "$rc" = 8 ] && grep -q "external journal device" "$WORK/err" || return 1
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" show-flags "$WORK/in/journal-dev"
	[ "$rc" = 8 ] && grep -q "warning: .*external journal device" "$WORK/err" &&
		[ "$(sed 's/ *$//' "$WORK/out")" = "$(dumpe2fs_flags "$WORK/in/journal-dev")" ]
}
check "journal device: --check exits 8, named" journal_dev

# A bad checksum is still shown, as dumpe2fs shows it, with a warning.
bad_csum_shown() {
	local out rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" show-flags "$WORK/in/bad-csum"
	out=$(sed 's/ *$//' "$WORK/out")
	[ "$rc" = 8 ] && [ "$out" = "$(dumpe2fs_flags "$WORK/in/bad-csum")" ] &&
		grep -q "warning: .*checksum" "$WORK/err"
}
check "bad csum: flags shown, warning, exit 8" bad_csum_shown

# Several devices: each is handled, the worst exit code wins.
mkimg "$WORK/good.img" 16M -t ext4
worst_wins() {
	local rc
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test \
		"$WORK/in/vfat" "$WORK/good.img"
	[ "$rc" = 8 ] && "$EXT4DEV" show-flags --check test "$WORK/good.img"
}
check "mark several: worst exit, good one still marked" worst_wins

# Control characters in a name never reach the terminal raw, and each
# error stays one line (stdout lines too).
escaped() {
	local name=$WORK/$'evil\n\e[31mname' rc
	cp "$WORK/good.img" "$name"
	for cmd in "show-flags" "mark-test" "mark-production -n" "show-flags -c test -v" "mkfs -n"; do
		# shellcheck disable=SC2086
		run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" $cmd "$name" "$WORK/in/missing"
		if grep -q $'\e' "$WORK/err" "$WORK/out" ||
			[ "$(grep -c "" "$WORK/err")" -gt 2 ]; then
			echo "$cmd: raw control characters or split lines:"
			cat -v "$WORK/out" "$WORK/err"
			return 1
		fi
	done
	name=$WORK/in/$'x\ny'
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mark-test "$name"
	grep -qF 'x\x0ay' "$WORK/err" && [ "$(wc -l <"$WORK/err")" = 1 ]
}
check "control characters escaped, one line per error" escaped

finish
