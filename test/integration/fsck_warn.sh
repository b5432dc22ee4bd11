#!/bin/bash
# mark-test and mkfs say once, on stderr, when the system's e2fsck
# configuration would clear the flag they set, and what keeps it; they
# are silent when the configuration keeps it, under -q, and where they
# set nothing.  The configuration is e2fsck's own E2FSCK_CONFIG.
source "$(dirname "$0")/lib.sh"

WARNING="ext4dev: warning: e2fsck clears the test_filesystem flag"
printf '[options]\n\tclear_test_fs_flag = false\n' >"$WORK/keep.conf"
printf '[options]\n\tclear_test_fs_flag = true\n' >"$WORK/clear.conf"
printf '[options]\n\tmax_count_interval = 1\n' >"$WORK/silent.conf"

# warns CONF N COMMAND...: the command succeeds with N warning lines.
warns() {
	local conf=$1 want=$2 rc
	shift 2
	run_capture "$WORK/out" "$WORK/err" rc env E2FSCK_CONFIG="$conf" "$@"
	[ "$rc" = 0 ] || { echo "rc $rc: $*"; cat "$WORK/err"; return 1; }
	[ "$(grep -c "^$WARNING" "$WORK/err")" = "$want" ] ||
		{ echo "want $want warning(s): $*"; cat "$WORK/err"; return 1; }
	! grep -q "$WARNING" "$WORK/out" || { echo "warning on stdout"; return 1; }
}

mkimg "$WORK/a.img" 16M -t ext4
mkimg "$WORK/b.img" 16M -t ext4
# Only a configuration that says clear is named as the cause; a missing
# one, or one that does not say, leaves e2fsck's default, and the file
# is named only as the place for the fix.
for conf in clear none silent; do
	path=$WORK/$conf.conf
	check "mark-test, $conf conf: one warning" warns "$path" 1 "$EXT4DEV" mark-test "$WORK/a.img"
	if [ "$conf" = clear ]; then
		check "the warning names the conf file as the cause" \
			grep -qF "flag under '$path', which sets clear_test_fs_flag" "$WORK/err"
		check "the warning says what keeps the flag" \
			grep -q "fsck.ext4dev (fstab type ext4dev), or set 'clear_test_fs_flag = false' there" "$WORK/err"
	else
		check "$conf conf: e2fsck's default, not the file" \
			bash -c 'grep -q "flag by default:" "$0" && ! grep -q " under " "$0"' "$WORK/err"
		check "$conf conf: where the fix goes" \
			grep -qF "or add 'clear_test_fs_flag = false' to [options] in '$path'" "$WORK/err"
	fi
	check "mark-production, $conf conf: none" warns "$path" 0 "$EXT4DEV" mark-production "$WORK/a.img"
	check "mark-test of two devices: one warning" warns "$path" 1 "$EXT4DEV" mark-test "$WORK/a.img" "$WORK/b.img"
	check "mark-test -q: none" warns "$path" 0 "$EXT4DEV" mark-production -q "$WORK/a.img" "$WORK/b.img"
	check "mark-test -q: none" warns "$path" 0 "$EXT4DEV" mark-test -q "$WORK/a.img"
	check "mkfs, $conf conf: one warning" warns "$path" 1 "$EXT4DEV" mkfs -F "$WORK/m.img" 16M
	check "mkfs.ext4dev: one warning" warns "$path" 1 "$(dirname "$EXT4DEV")/mkfs.ext4dev" -F "$WORK/m.img" 16M
	check "mkfs -q: none" warns "$path" 0 "$EXT4DEV" mkfs -q -F "$WORK/m.img" 16M
	check "mkfs --production: none" warns "$path" 0 "$EXT4DEV" mkfs --production -F "$WORK/m.img" 16M
	"$EXT4DEV" mark-production -q "$WORK/a.img" "$WORK/b.img"
done
check "mark-test, keeping conf: none" warns "$WORK/keep.conf" 0 "$EXT4DEV" mark-test "$WORK/a.img"
check "mkfs, keeping conf: none" warns "$WORK/keep.conf" 0 "$EXT4DEV" mkfs -F "$WORK/m.img" 16M
check "--help: none" warns "$WORK/clear.conf" 0 "$EXT4DEV" mkfs --help
# A refused command says only why it refused.
run_capture "$WORK/out" "$WORK/err" rc env E2FSCK_CONFIG="$WORK/clear.conf" \
	"$EXT4DEV" mark-test "$WORK/missing.img"
check "failed mark-test: no warning" bash -c '[ "$0" = 8 ] && ! grep -q warning "$1"' "$rc" "$WORK/err"
# What the warning predicts is what e2fsck does with that configuration
# (its default included).
"$EXT4DEV" mark-test -q "$WORK/a.img"
E2FSCK_CONFIG="$WORK/none.conf" e2fsck -fp "$WORK/a.img" >/dev/null 2>&1 || true
check "e2fsck's default clears" bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/a.img"
"$EXT4DEV" mark-test -q "$WORK/a.img"
E2FSCK_CONFIG="$WORK/clear.conf" e2fsck -fp "$WORK/a.img" >/dev/null 2>&1 || true
check "e2fsck under the warned conf clears" bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/a.img"
"$EXT4DEV" mark-test -q "$WORK/a.img"
E2FSCK_CONFIG="$WORK/keep.conf" e2fsck -fp "$WORK/a.img" >/dev/null 2>&1 || true
check "e2fsck under the silent conf keeps" bash -c 'dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/a.img"

finish
