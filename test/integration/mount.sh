#!/bin/bash
# mount.ext4dev on this machine's kernel, which has no ext4dev type (the
# stock-kernel path; test/qemu's guest checks the kernel-series path):
# a flagged image mounts as ext4, an unflagged one is refused with exit
# 32 and one line, and util-linux mount does the rest (-o ro, -n and
# utab, -f, LABEL=, remount).  Then through mount(8) itself, which looks
# for helpers only in /sbin: inside a private mount namespace an overlay
# puts our helper in /usr/sbin and a tmpfs holds utab, so the host's
# /usr/sbin, utab and mount table are never touched.  Every mount and
# loop device is gone afterwards, whatever happens.
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root to loop-mount an image"
command -v unshare >/dev/null && command -v mount >/dev/null ||
	skip "unshare or mount is not installed"
grep -qw ext4dev /proc/filesystems &&
	skip "this kernel has the ext4dev type: see test/qemu for that path"
# Everything below runs in a private mount namespace of its own.
if [ -z "${EXT4DEV_MOUNT_NS:-}" ]; then
	rm -rf "$WORK"
	trap - EXIT
	EXT4DEV_MOUNT_NS=1 exec unshare -m --propagation private bash "$0" ||
		skip "unshare -m not permitted here"
fi

HELPER=$(dirname "$EXT4DEV")/mount.ext4dev
MNT=$WORK/mnt
mkdir "$MNT"
LOOPS=()
cleanup() {
	while mountpoint -q "$MNT" 2>/dev/null; do umount "$MNT" || break; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT
# utab on a tmpfs of this namespace: -n can be checked without the host's.
UTAB=
if [ -d /run/mount ] && mount -t tmpfs tmpfs /run/mount; then
	UTAB=/run/mount/utab
fi

LABEL=e4dm$$
"$EXT4DEV" mkfs -q -L "$LABEL" "$WORK/f.img" 16M 2>/dev/null
mkimg "$WORK/p.img" 16M -t ext4
head -c 1M /dev/zero >"$WORK/zero.img"
cp "$WORK/f.img" "$WORK/f.orig"

# mounted [OPTION]: $MNT is an ext4 mount (with OPTION among its options).
mounted() {
	[ "$(findmnt -n -o FSTYPE "$MNT")" = ext4 ] || return 1
	[ -z "${1:-}" ] || findmnt -n -o OPTIONS "$MNT" | tr , '\n' | grep -qx "$1"
}
unmounted() {
	! mountpoint -q "$MNT"
}
# expect_rc RC COMMAND...: exit RC; output in $WORK/out, $WORK/err.
no_loop_left() {
	[ -z "$(losetup -j "$1")" ]
}
refused_line() {
	[ "$(wc -l <"$WORK/err")" = 1 ] &&
		grep -q "'$1': no test_filesystem flag" "$WORK/err" &&
		grep -q "'ext4dev mark-test' or 'tune2fs -E test_fs'" "$WORK/err"
}

# Called directly, as mount(8) calls it.
check "flagged image: 0" expect_rc 0 "$HELPER" "$WORK/f.img" "$MNT"
check "... mounted as ext4, read-write" mounted rw
umount "$MNT"
check "... the flag is still set" "$EXT4DEV" show-flags --check test "$WORK/f.img"
check "unflagged image: 32" expect_rc 32 "$HELPER" "$WORK/p.img" "$MNT"
check "... one line naming it and the fix" refused_line "$WORK/p.img"
check "... not mounted" unmounted
check "... no loop device left" no_loop_left "$WORK/p.img"
check "not a filesystem: 32" expect_rc 32 "$HELPER" "$WORK/zero.img" "$MNT"
check "... says why (libext2fs's words)" grep -q "Bad magic number in super-block" "$WORK/err"
check "missing device: 32" expect_rc 32 "$HELPER" "$WORK/none.img" "$MNT"
check "no arguments: 1 (mount(8)'s usage code)" expect_rc 1 "$HELPER"
check "one argument: 1" expect_rc 1 "$HELPER" "$WORK/f.img"
check "unknown option: 1" expect_rc 1 "$HELPER" "$WORK/f.img" "$MNT" -x
check "... Try the name it was called by" grep -qx \
	"Try 'mount.ext4dev --help' for more information." "$WORK/err"
check "ext4dev mount, unknown option: 1" expect_rc 1 "$EXT4DEV" mount "$WORK/f.img" "$MNT" -x
check "... Try 'ext4dev mount --help'" grep -qx \
	"Try 'ext4dev mount --help' for more information." "$WORK/err"
check "--help: 0, the helper's synopsis" bash -c \
	'"$0" --help | grep -q "^ mount.ext4dev <spec> <dir> \[-sfnrvw\]"' "$HELPER"
check "ext4dev mount is the same command" expect_rc 32 "$EXT4DEV" mount "$WORK/p.img" "$MNT"

check "-o ro: 0" expect_rc 0 "$HELPER" "$WORK/f.img" "$MNT" -o ro
check "... mounted read-only" mounted ro
umount "$MNT"
# A read-only mount of a file gets a read-only loop device (as for
# ext4), so remount from a read-write mount.
"$HELPER" "$WORK/f.img" "$MNT"
check "-o remount,ro: 0" expect_rc 0 "$HELPER" "$WORK/f.img" "$MNT" -o remount,ro
check "... now read-only" mounted ro
check "-o remount,rw: 0" expect_rc 0 "$HELPER" "$WORK/f.img" "$MNT" -o remount,rw
check "... read-write again" mounted rw
umount "$MNT"
check "-r: read-only" bash -c '"$0" -r "$1" "$2" && findmnt -n -o OPTIONS "$2" | grep -q "^ro"' \
	"$HELPER" "$WORK/f.img" "$MNT"
umount "$MNT"
check "-v: says it mounts as ext4" expect_rc 0 "$HELPER" -v "$WORK/f.img" "$MNT"
check "... on stdout" grep -q "mounting it as ext4" "$WORK/out"
umount "$MNT"
check "-f: 0, nothing mounted" expect_rc 0 "$HELPER" -f "$WORK/f.img" "$MNT"
check "... not mounted" unmounted
check "options reach ext4: -o noatime,commit=30" expect_rc 0 \
	"$HELPER" "$WORK/f.img" "$MNT" -o noatime,commit=30
check "... noatime" mounted noatime
check "... commit=30" mounted commit=30
umount "$MNT"

if [ -n "$UTAB" ]; then
	check "utab: a userspace option is recorded" expect_rc 0 \
		"$HELPER" "$WORK/f.img" "$MNT" -o uhelper=ext4dev-test
	check "... in utab" grep -q "TARGET=$MNT .*uhelper=ext4dev-test" "$UTAB"
	umount "$MNT"
	check "-n: 0" expect_rc 0 "$HELPER" -n "$WORK/f.img" "$MNT" -o uhelper=ext4dev-test
	check "-n: nothing in utab" bash -c '! grep -qs "TARGET=$0 " "$1"' "$MNT" "$UTAB"
	umount "$MNT"
else
	echo "note: no /run/mount here; utab and -n are not checked"
fi

# A tag resolves once, to the device that was checked.
LOOP=$(losetup -f --show "$WORK/f.img") || skip "no loop device support here"
LOOPS+=("$LOOP")
check "LABEL=: 0" expect_rc 0 "$HELPER" "LABEL=$LABEL" "$MNT"
check "... mounted from the loop device" [ "$(findmnt -n -o SOURCE "$MNT")" = "$LOOP" ]
umount "$MNT"
check "unknown LABEL=: 1 (mount(8)'s \"can't find\")" expect_rc 1 \
	"$HELPER" "LABEL=no-such-$LABEL" "$MNT"
losetup -d "$LOOP"

# nofail forgives a source that is not there, quietly, and nothing else:
# case by case, the helper's status and silence are mount -t ext4's.
mkfifo "$WORK/fifo"
mkdir "$WORK/adir"
# as_ext4 SPEC OPTS: "$HELPER" SPEC $MNT -o OPTS answers as mount -t ext4.
as_ext4() {
	local want got
	run_capture "$WORK/out" "$WORK/err4" want mount -t ext4 -o "$2" "$1" "$MNT"
	unmounted || { echo "mount -t ext4 -o $2 $1 mounted it"; umount "$MNT"; return 1; }
	run_capture "$WORK/out" "$WORK/err" got "$HELPER" "$1" "$MNT" -o "$2"
	unmounted || { echo "the helper mounted $1"; umount "$MNT"; return 1; }
	[ "$got" = "$want" ] ||
		{ echo "exit $got, mount -t ext4's $want: $(cat "$WORK/err")"; return 1; }
	[ -s "$WORK/err4" ] || [ ! -s "$WORK/err" ] ||
		{ echo "mount -t ext4 is quiet, we said: $(cat "$WORK/err")"; return 1; }
}
for spec in "$WORK/none.img" "$WORK/none/x" "$WORK/f.orig/x" "$WORK/fifo" \
	"$WORK/adir" "$WORK/zero.img" "LABEL=no-such-$LABEL"; do
	check "-o nofail $spec: as mount -t ext4" as_ext4 "$spec" rw,nofail
	check "-o rw $spec: as mount -t ext4" as_ext4 "$spec" rw
done
check "-o nofail, missing: 0" expect_rc 0 "$HELPER" "$WORK/none.img" "$MNT" -o nofail
check "... nothing said" [ ! -s "$WORK/err" ]
check "-o nofail, not a filesystem: still 32" expect_rc 32 "$HELPER" \
	"$WORK/zero.img" "$MNT" -o nofail
check "-o nofail, unflagged: still refused, 32" expect_rc 32 "$HELPER" \
	"$WORK/p.img" "$MNT" -o nofail
check "... with our line" refused_line "$WORK/p.img"

# The shared lock on the device lasts until mount has finished, so
# ext4dev mark-production cannot slip in between check and mount.
cat >"$WORK/fake-mount" <<'EOF'
#!/bin/bash
printf '%s\n' "$@" >"$FAKE_ARGS"
flock -n -x "${@: -2:1}" true && echo unlocked >>"$FAKE_ARGS"
exit 0
EOF
chmod +x "$WORK/fake-mount"
export FAKE_ARGS=$WORK/args
args_are() {
	[ "$(tr '\n' ' ' <"$FAKE_ARGS")" = "$1" ] ||
		{ echo "args: $(tr '\n' ' ' <"$FAKE_ARGS")"; return 1; }
}
check "stock kernel: mount's arguments" env EXT4DEV_MOUNT="$WORK/fake-mount" \
	"$HELPER" "$WORK/f.img" "$MNT" -n -s -o ro,noatime -N 1 -t ext4dev
check "... -i -t ext4, the caller's flags and options" \
	args_are "-i -t ext4 -ns -N 1 -o ro,noatime -- $WORK/f.img $MNT "
check "... the device stays locked while mount runs" \
	bash -c '! grep -q unlocked "$0"' "$FAKE_ARGS"
printf 'ext3\n\text4\nnodev\tproc\n\text4dev\n' >"$WORK/filesystems"
check "kernel with ext4dev: unflagged handed to the kernel" env \
	EXT4DEV_MOUNT="$WORK/fake-mount" EXT4DEV_PROC_FILESYSTEMS="$WORK/filesystems" \
	"$HELPER" "$WORK/p.img" "$MNT" -o ro
check "... as -i -t ext4dev" args_are "-i -t ext4dev -o ro -- $WORK/p.img $MNT unlocked "
check "no mount program: 2" expect_rc 2 env EXT4DEV_MOUNT="$WORK/none" \
	"$HELPER" "$WORK/f.img" "$MNT"

# Through mount(8), fstab included: it finds /sbin/mount.ext4dev.
mkdir "$WORK/helpers"
ln -s "$(readlink -f "$EXT4DEV")" "$WORK/helpers/mount.ext4dev"
if [ -e /sbin/mount.ext4dev ]; then
	echo "note: /sbin/mount.ext4dev is installed; not overlaying it"
elif ! mount -t overlay overlay -o "lowerdir=$WORK/helpers:$(readlink -f /sbin)" \
	"$(readlink -f /sbin)" 2>/dev/null; then
	echo "note: no overlayfs here; mount(8) is not checked with the helper"
fi
if [ -e /sbin/mount.ext4dev ]; then
	check "mount -t ext4dev IMG DIR: 0" expect_rc 0 mount -t ext4dev "$WORK/f.img" "$MNT"
	check "... mounted as ext4" mounted rw
	umount "$MNT"
	check "mount IMG DIR (blkid's type ext4dev): 0" expect_rc 0 mount "$WORK/f.img" "$MNT"
	check "... mounted" mounted
	umount "$MNT"
	check "mount -t ext4dev unflagged: 32" expect_rc 32 mount -t ext4dev "$WORK/p.img" "$MNT"
	check "... our line" grep -q "no test_filesystem flag" "$WORK/err"
	check "... naming the image typed, not mount's loop device" \
		grep -q "^ext4dev: '$WORK/p.img' (/dev/loop[0-9]*): no test_filesystem" "$WORK/err"
	check "... no loop device left" no_loop_left "$WORK/p.img"
	echo "$WORK/f.img $MNT ext4dev ro,noatime 0 2" >"$WORK/fstab"
	check "fstab ext4dev entry: mount -T fstab DIR" expect_rc 0 mount -T "$WORK/fstab" "$MNT"
	check "... with its options" mounted noatime
	check "... read-only" mounted ro
	umount "$MNT"
	check "mount -t ext4dev -o nofail, missing image: 0" expect_rc 0 \
		mount -t ext4dev -o nofail "$WORK/none.img" "$MNT"
	check "... quietly" [ ! -s "$WORK/err" ]
	echo "$WORK/none.img $MNT ext4dev nofail 0 2" >"$WORK/fstab"
	check "fstab ext4dev nofail entry, missing image: 0" expect_rc 0 \
		mount -T "$WORK/fstab" "$MNT"
	check "... quietly" [ ! -s "$WORK/err" ]
	check "... not mounted" unmounted
	check "mount -o ro -t ext4dev: read-only" expect_rc 0 mount -o ro -t ext4dev "$WORK/f.img" "$MNT"
	check "... mounted ro" mounted ro
	umount "$MNT"
	mount -t ext4dev "$WORK/f.img" "$MNT"
	check "mount -o remount,ro DIR: 0" expect_rc 0 mount -o remount,ro "$MNT"
	check "... ro" mounted ro
	umount "$MNT"
fi
check "every loop device of ours is gone" no_loop_left "$WORK/f.img"
check "the flagged image still passes e2fsck -fn" e2fsck -fn "$WORK/f.img" >/dev/null 2>&1
check "... and keeps its flag" "$EXT4DEV" show-flags --check test "$WORK/f.img"

finish
