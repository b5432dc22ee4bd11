#!/bin/bash
# fsck.ext4dev: e2fsck with the caller's arguments and a configuration
# that keeps the test_filesystem flag.  The oracles are e2fsck itself
# (run plainly, on a copy of the same image), dumpe2fs, blkid and
# util-linux fsck.
source "$(dirname "$0")/lib.sh"

BIN=$(dirname "$EXT4DEV")
FSCK=$BIN/fsck.ext4dev
[ -L "$FSCK" ] || { echo "FAIL: no fsck.ext4dev symlink next to $EXT4DEV"; exit 1; }
# The host's own /etc/e2fsck.conf must not decide these results: every
# run gets an explicit one.  An empty file is what e2fsck has by default.
: >"$WORK/empty.conf"
export E2FSCK_CONFIG=$WORK/empty.conf

flagged() {
	dumpe2fs_flags "$1" | grep -qw test_filesystem
}


# An image with a repairable error (a wrong link count: e2fsck -p fixes
# it and exits 1) and one that preen mode must not touch (exit 4).
mkimg "$WORK/base.img" 32M -t ext4 -E test_fs
echo hello >"$WORK/hello"
debugfs -w -R "write $WORK/hello hello" "$WORK/base.img" >/dev/null 2>&1
cp "$WORK/base.img" "$WORK/clean.img"
cp "$WORK/base.img" "$WORK/links.img"
debugfs -w -R "sif hello links_count 5" "$WORK/links.img" >/dev/null 2>&1
cp "$WORK/base.img" "$WORK/root.img"
debugfs -w -R "clri <2>" "$WORK/root.img" >/dev/null 2>&1

# The control first: what fsck -A runs for an ext4 entry clears the flag.
cp "$WORK/clean.img" "$WORK/plain.img"
check "plain e2fsck -p: 0" expect_rc 0 e2fsck -p "$WORK/plain.img"
check "plain e2fsck -p says CLEARED" grep -q "test_fs flag is set.*CLEARED" "$WORK/out"
check "plain e2fsck -p cleared the flag" bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/plain.img"

for name in fsck.ext4dev "ext4dev fsck"; do
	if [ "$name" = fsck.ext4dev ]; then run=("$FSCK"); else run=("$EXT4DEV" fsck); fi
	cp "$WORK/clean.img" "$WORK/k.img"
	check "$name -p: 0" expect_rc 0 "${run[@]}" -p "$WORK/k.img"
	check "$name -p kept the flag" flagged "$WORK/k.img"
	check "$name -p: blkid still says ext4dev" [ "$(blkid_type "$WORK/k.img")" = ext4dev ]
	check "$name -fp: 0" expect_rc 0 "${run[@]}" -fp "$WORK/k.img"
	check "$name -fp kept the flag" flagged "$WORK/k.img"
	check "$name -fy: 0" expect_rc 0 "${run[@]}" -fy "$WORK/k.img"
	check "$name -fy kept the flag" flagged "$WORK/k.img"
done

# Exit status: e2fsck's, on the same input, for every outcome.
same_rc() {
	local img=$1 rc_ours rc_theirs
	shift
	cp "$WORK/$img.img" "$WORK/ours.img"
	cp "$WORK/$img.img" "$WORK/theirs.img"
	run_capture "$WORK/ours.out" "$WORK/ours.err" rc_ours "$FSCK" "$@" "$WORK/ours.img"
	run_capture "$WORK/theirs.out" "$WORK/theirs.err" rc_theirs e2fsck "$@" "$WORK/theirs.img"
	[ "$rc_ours" = "$rc_theirs" ] ||
		{ echo "fsck.ext4dev $* $img: rc $rc_ours, e2fsck: $rc_theirs"; return 1; }
	echo "$rc_ours" >"$WORK/last.rc"
}
check "repairable error: e2fsck's exit status" same_rc links -fp
check "repairable error: that status is 1" [ "$(<"$WORK/last.rc")" = 1 ]
check "repairable error: fixed" grep -q "ref count is 5, should be 1.  FIXED" "$WORK/ours.out"
check "repairable error: flag kept" flagged "$WORK/ours.img"
check "repairable error: e2fsck -fn clean after" expect_rc 0 e2fsck -fn "$WORK/ours.img"
check "repaired: plain e2fsck cleared the flag meanwhile" bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/theirs.img"
check "preen refuses: e2fsck's exit status" same_rc root -fp
check "preen refuses: that status is 4" [ "$(<"$WORK/last.rc")" = 4 ]
check "-n on an error: e2fsck's exit status" same_rc links -fn
check "-n on an error: that status is 4" [ "$(<"$WORK/last.rc")" = 4 ]
check "clean: e2fsck's exit status" same_rc clean -fn
check "bad option: e2fsck's usage, 16" expect_rc 16 "$FSCK" -Q "$WORK/clean.img"
check "bad option: e2fsck's own usage text" grep -q "^Usage: .*fsck.ext4dev" "$WORK/err"
check "no device: 16" expect_rc 16 "$FSCK"
check "missing device: e2fsck's 8" expect_rc 8 "$FSCK" -n "$WORK/nonexistent.img"
check "missing device: e2fsck's message" grep -q "No such file or directory" "$WORK/err"
check "-V is e2fsck's" expect_rc 0 "$FSCK" -V
check "-V prints e2fsck's version" grep -q "^e2fsck [0-9.]" "$WORK/err"

# Help: ours, since e2fsck has none; after "--" it is a device name.
check "--help: 0" expect_rc 0 "$FSCK" --help
check "--help: our usage" grep -q "^ fsck.ext4dev \[e2fsck options\] <device>" "$WORK/out"
check "-h among e2fsck options: help" expect_rc 0 "$FSCK" -f -h "$WORK/clean.img"
check "-- --help is a device" expect_rc 8 "$FSCK" -n -- --help
check "--version: 0" expect_rc 0 "$FSCK" --version
check "--version: ours first" grep -Eq "^ext4dev [0-9.]+ \(libext2fs" "$WORK/out"
check "--version: e2fsck's own" grep -q "^e2fsck [0-9]" "$WORK/err"
check "ext4dev fsck --version: 0" expect_rc 0 "$EXT4DEV" fsck --version
check "-V stays e2fsck's" expect_rc 0 "$FSCK" -V
check "-V: no version of ours" bash -c '! grep -q "^ext4dev" "$0"' "$WORK/out"

# The system's configuration still applies: here it makes the link-count
# problem one that preen must not fix (exit 4 instead of 1), and asks
# for the flag to be cleared, which fsck.ext4dev overrides.
cat >"$WORK/strict.conf" <<'EOF'
[options]
	clear_test_fs_flag = true
[problems]
	0x040003 = {
		preen_ok = false
	}
EOF
cp "$WORK/links.img" "$WORK/s.img"
check "E2FSCK_CONFIG honoured: preen refuses" env E2FSCK_CONFIG="$WORK/strict.conf" bash -c \
	'"$0" -fp "$1" >/dev/null 2>&1; [ $? = 4 ]' "$FSCK" "$WORK/s.img"
check "E2FSCK_CONFIG honoured: flag kept anyway" flagged "$WORK/s.img"
check "E2FSCK_CONFIG as a directory honoured" bash -c \
	'mkdir "$1/conf.d" && cp "$1/strict.conf" "$1/conf.d/strict" && cp "$1/links.img" "$1/d.img" &&
	 E2FSCK_CONFIG="$1/conf.d" "$0" -fp "$1/d.img" >/dev/null 2>&1; [ $? = 4 ]' "$FSCK" "$WORK"
check "E2FSCK_CONFIG missing: like none" env E2FSCK_CONFIG="$WORK/none.conf" bash -c \
	'"$0" -fp "$1" >/dev/null 2>&1; [ $? = 1 ]' "$FSCK" "$WORK/links.img"

# What e2fsck gets: E2FSCK_CONFIG on an fd (no file anywhere), holding
# our line first and then the system's text; and the process that runs
# is e2fsck itself (exec), so a signal reaches it directly.
cat >"$WORK/stub" <<'EOF'
#!/bin/bash
echo "$E2FSCK_CONFIG" >"$STUB_OUT.path"
cat "$E2FSCK_CONFIG" >"$STUB_OUT.conf"
echo "$$ $0 $*" >"$STUB_OUT.argv"
[ -z "$STUB_SLEEP" ] || exec sleep "$STUB_SLEEP"
exit 3
EOF
chmod +x "$WORK/stub"
mkdir "$WORK/tmp"
export STUB_OUT=$WORK/stub TMPDIR=$WORK/tmp
check "stub: exit status passed through" expect_rc 3 env EXT4DEV_E2FSCK="$WORK/stub" \
	E2FSCK_CONFIG="$WORK/strict.conf" "$FSCK" -p -f "a b" "$WORK/clean.img"
check "stub: E2FSCK_CONFIG is /proc/self/fd/N" grep -qx '/proc/self/fd/[0-9]*' "$WORK/stub.path"
check "stub: our line first, then the system's file" bash -c \
	'diff <(printf "[options]\n\tclear_test_fs_flag = false\n"; cat "$0") "$1"' \
	"$WORK/strict.conf" "$WORK/stub.conf"
check "stub: exactly the arguments given" grep -qx "[0-9]* $WORK/stub -p -f a b $WORK/clean.img" "$WORK/stub.argv"
sigterm() {
	local pid rc
	STUB_SLEEP=30 EXT4DEV_E2FSCK="$WORK/stub" "$FSCK" -p "$WORK/clean.img" &
	pid=$!
	for _ in $(seq 50); do [ -s "$WORK/stub.argv" ] && break; sleep 0.1; done
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sleep ] || { echo "pid $pid is not the checker"; kill "$pid"; return 1; }
	kill -TERM "$pid"
	set +e; wait "$pid"; rc=$?; set -e
	[ "$rc" = 143 ] || { echo "SIGTERM: rc $rc, want 143"; return 1; }
}
rm -f "$WORK/stub.argv"
check "SIGTERM reaches the checker itself" sigterm
check "no file left in TMPDIR" [ -z "$(ls -A "$WORK/tmp")" ]

# e2fsck missing: one line, exit 8.
check "EXT4DEV_E2FSCK missing: 8" expect_rc 8 env EXT4DEV_E2FSCK="$WORK/no-e2fsck" "$FSCK" -n "$WORK/clean.img"
check "e2fsck missing: one line" [ "$(wc -l <"$WORK/err")" = 1 ]
check "e2fsck missing: says so" grep -qx "ext4dev: cannot run e2fsck '$WORK/no-e2fsck': No such file or directory" "$WORK/err"
check "PATH without e2fsck: found in sbin anyway" expect_rc 0 env PATH=/nonexistent "$FSCK" -n "$WORK/clean.img"

# Without /proc e2fsck could not read the configuration: refuse, 8.
noproc() {
	unshare -m --propagation private bash -c 'umount -l /proc && "$0" -n "$1"' "$FSCK" "$WORK/clean.img"
}
# An ASan build cannot run without /proc at all: its runtime reads its
# options from /proc/self/environ and LeakSanitizer fails without /proc.
if grep -qa AddressSanitizer "$EXT4DEV"; then
	echo "note: sanitizer build; the no-/proc case is checked by the plain build"
elif unshare -m --propagation private true 2>/dev/null; then
	check "no /proc: 8" expect_rc 8 noproc
	check "no /proc: says why" grep -q "is /proc mounted?" "$WORK/err"
else
	echo "note: unshare -m not permitted here; the no-/proc case is not checked"
fi

# util-linux fsck finds fsck.ext4dev on PATH, by -t and by blkid's type.
cp "$WORK/clean.img" "$WORK/u.img"
check "fsck -t ext4dev -p: 0" expect_rc 0 env PATH="$BIN:$PATH" fsck -t ext4dev -p "$WORK/u.img"
check "fsck -t ext4dev kept the flag" flagged "$WORK/u.img"
check "fsck -p (type from blkid): 0" expect_rc 0 env PATH="$BIN:$PATH" fsck -p -f "$WORK/u.img"
check "fsck -p (type from blkid) ran fsck.ext4dev" flagged "$WORK/u.img"
# With the device in fstab, fsck takes the checker from the entry's type
# (systemd-fsck only asks whether fsck.<blkid type> exists, then runs
# fsck): an ext4 entry clears the flag, an ext4dev entry keeps it.
"$EXT4DEV" mark-test -q "$WORK/u.img"
echo "$WORK/u.img /mnt/u ext4 defaults 0 2" >"$WORK/fstab.ext4"
echo "$WORK/u.img /mnt/u ext4dev defaults 0 2" >"$WORK/fstab.ext4dev"
check "fstab type ext4dev: fsck -a runs fsck.ext4dev" expect_rc 0 \
	env FSTAB_FILE="$WORK/fstab.ext4dev" PATH="$BIN:$PATH" fsck -a -V "$WORK/u.img"
check "fstab type ext4dev: its command line" grep -q "\] fsck.ext4dev -a $WORK/u.img" "$WORK/out"
check "fstab type ext4dev: flag kept" flagged "$WORK/u.img"
check "fstab type ext4: fsck -a runs fsck.ext4" expect_rc 0 \
	env FSTAB_FILE="$WORK/fstab.ext4" PATH="$BIN:$PATH" fsck -a -V "$WORK/u.img"
check "fstab type ext4: its command line" grep -q "\] fsck.ext4 -a $WORK/u.img" "$WORK/out"
check "fstab type ext4: flag cleared" bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -qw test_filesystem' "$WORK/u.img"
"$EXT4DEV" mark-test -q "$WORK/u.img"
if [ ! -e /sbin/fsck.ext4dev ] && ! command -v fsck.ext4dev >/dev/null; then
	check "control: fsck -t ext4dev without it fails" expect_rc 8 fsck -t ext4dev -p "$WORK/u.img"
fi

finish
