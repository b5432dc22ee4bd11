#!/bin/bash
# show-flags against dumpe2fs -h and blkid -p, over a matrix of images.
source "$(dirname "$0")/lib.sh"

# name|mke2fs arguments
MATRIX=(
	"ext2-1k|-t ext2 -b 1024"
	"ext3-2k|-t ext3 -b 2048"
	"ext4-4k|-t ext4 -b 4096"
	"ext4-nocsum|-t ext4 -O ^metadata_csum"
	"ext4-32bit|-t ext4 -O ^64bit,^flex_bg"
	"ext4-metabg|-t ext4 -b 1024 -O meta_bg,^resize_inode"
	"ext4-bigalloc|-t ext4 -O bigalloc -C 16384"
)

compare_line() {
	local img=$1 want got
	want=$(dumpe2fs_flags "$img")
	got=$("$EXT4DEV" show-flags "$img" | sed 's/ *$//')
	[ "$got" = "$want" ] || { echo "want '$want' got '$got'"; return 1; }
}

compare_type() {
	local img=$1 want got
	want=$(blkid_type "$img")
	got=$("$EXT4DEV" show-flags -r -n -o TYPE "$img")
	[ "$got" = "$want" ] || { echo "type want '$want' got '$got'"; return 1; }
}

for row in "${MATRIX[@]}"; do
	name=${row%%|*}
	read -ra args <<<"${row#*|}"
	for test_fs in "" "-E test_fs"; do
		img=$WORK/$name.img
		# shellcheck disable=SC2086
		mkimg "$img" 64M "${args[@]}" $test_fs
		before=$(sha "$img")
		check "$name $test_fs: line = dumpe2fs" compare_line "$img"
		check "$name $test_fs: TYPE = blkid" compare_type "$img"
		check "$name $test_fs: read-only" [ "$(sha "$img")" = "$before" ]
	done
done

# --check and its exit codes; JSON as a JSON parser reads it.
mkimg "$WORK/t.img" 16M -t ext4 -E test_fs
mkimg "$WORK/p.img" 16M -t ext4
check "--check test on test" expect_rc 0 "$EXT4DEV" show-flags --check test "$WORK/t.img"
check "--check test on production" expect_rc 1 "$EXT4DEV" show-flags --check test "$WORK/p.img"
check "--check production on production" expect_rc 0 "$EXT4DEV" show-flags -c production "$WORK/p.img"
check "--check test, one of two" expect_rc 1 "$EXT4DEV" show-flags --check test "$WORK/t.img" "$WORK/p.img"
check "--check bad state" expect_rc 16 "$EXT4DEV" show-flags --check maybe "$WORK/t.img"
check "--check is silent" [ -z "$("$EXT4DEV" show-flags --check test "$WORK/p.img" 2>&1)" ]
check "--check -v speaks" [ "$("$EXT4DEV" show-flags -v --check test "$WORK/p.img")" = "$WORK/p.img: production filesystem" ]

json_flag() {
	"$EXT4DEV" show-flags --json -o DEVICE,TEST "$@" | python3 -c '
import json, sys
for fs in json.load(sys.stdin)["filesystems"]:
    assert isinstance(fs["test"], bool)
    print(fs["device"], str(fs["test"]).lower())'
}
check "JSON booleans" [ "$(json_flag "$WORK/t.img" "$WORK/p.img")" = "$WORK/t.img true
$WORK/p.img false" ]
check "table: one row per device" [ "$("$EXT4DEV" show-flags -n "$WORK/t.img" "$WORK/p.img" | wc -l)" = 2 ]
check "unknown column" expect_rc 16 "$EXT4DEV" show-flags -o DEVICE,BOGUS "$WORK/t.img"

# s_flags == 0: dumpe2fs prints no line at all; we print "(none)".
debugfs -w -R "ssv flags 0" "$WORK/p.img" >/dev/null 2>&1
check "no flags: (none)" compare_line "$WORK/p.img"
# A bit the table does not know is shown in hex after the known ones.
debugfs -w -R "ssv flags 0x105" "$WORK/p.img" >/dev/null 2>&1
check "unknown bit in hex" [ "$("$EXT4DEV" show-flags "$WORK/p.img" | sed 's/ *$//')" = \
	"$(dumpe2fs_flags "$WORK/p.img") 0x00000100" ]

# An unprivileged user can read a world-readable image.
chmod 755 "$WORK"
chmod 644 "$WORK/t.img"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	check "unprivileged show-flags" expect_rc 0 setpriv --reuid=65534 \
		--regid=65534 --clear-groups "$EXT4DEV" show-flags "$WORK/t.img"
fi

# A 40-column terminal (a pty from script(1)): FLAGS is truncated like
# lsblk's columns, never cut into pieces over several lines.
narrow() {
	local out
	mkimg "$WORK/narrow.img" 16M -t ext4 -E test_fs -L narrowlabel
	out=$(cd "$WORK" && script -qc "stty cols 40; '$EXT4DEV' show-flags -o DEVICE,TYPE,FLAGS,TEST,UUID,LABEL narrow.img narrow.img" /dev/null | tr -d '\r')
	[ -n "$out" ] || return 1
	# With SCOLS_FL_WRAP these 5-character pieces came on lines of
	# their own ("signe", "d_dir", "ector", "y_has", ...).
	if grep -Eq 'd_dir|ector|y_has|esyst' <<<"$out"; then
		echo "FLAGS split into pieces:"
		echo "$out"
		return 1
	fi
	grep -q 'signe' <<<"$out"
}
if command -v script >/dev/null && command -v stty >/dev/null; then
	check "40 columns: FLAGS truncated, not split" narrow
else
	echo "note: script(1) missing; narrow-terminal case not run"
fi

finish
