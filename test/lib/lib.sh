# shellcheck shell=bash
# The one shell library of every host-side test script: how a script
# dies, skips and notes; how it runs a command and checks its exit
# status; the images it makes and the oracles it reads them with.
# Sourced, not run.  The kernel cache key does not include it, so a
# change here rebuilds nothing.

[ -n "${EXT4DEV_TEST_LIB:-}" ] && return 0
EXT4DEV_TEST_LIB=1

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# Exit 77 (CTest's SKIP_RETURN_CODE) for a check that cannot run on this
# machine, saying why.  EXT4DEV_NO_SKIP=1 (CI) turns a skip into a
# failure: CI installs everything the tests need.
skip() {
	echo "${0##*/}: SKIP: $*" >&2
	[ "${EXT4DEV_NO_SKIP:-0}" = 1 ] && exit 1
	exit 77
}

note() {
	echo "${0##*/}: $*" >&2
}

# run_capture OUT ERR RC COMMAND...: run, keep stdout/stderr/exit code.
run_capture() {
	local out=$1 err=$2 rcvar=$3
	shift 3
	set +e
	"$@" >"$out" 2>"$err"
	printf -v "$rcvar" '%s' $?
	set -e
}

# expect_rc WANT COMMAND...: COMMAND exits WANT; its output stays in
# $WORK/out and $WORK/err for the caller's next look.
expect_rc() {
	local want=$1 rc
	shift
	run_capture "${WORK:?}/out" "$WORK/err" rc "$@"
	[ "$rc" = "$want" ] ||
		{ echo "$*: exit $rc, not $want: $(cat "$WORK/err")"; return 1; }
}

# detach_loops DIR: detach every loop device backed by an image in DIR
# (a cleanup trap's step: never fails).
detach_loops() {
	local img l
	for img in "$1"/*.img; do
		for l in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
			losetup -d "$l" 2>/dev/null || true
		done
	done
}

# mkimg FILE SIZE MKE2FS-ARGS...: a fresh image file made by mke2fs.
# Never a device node: it removes FILE first.
mkimg() {
	local file=$1 size=$2
	shift 2
	if [ -b "$file" ] || [ -c "$file" ]; then
		die "mkimg: '$file' is a device node"
	fi
	rm -f "$file"
	mke2fs -q -F "$@" "$file" "$size" >/dev/null 2>&1 ||
		{ echo "mke2fs $* $file $size failed" >&2; return 1; }
}

# The "Filesystem flags:" line of dumpe2fs -h, trailing blanks removed;
# "(none)" when dumpe2fs prints no line, which it does for s_flags == 0.
dumpe2fs_flags() {
	local line
	line=$(dumpe2fs -h "$@" 2>/dev/null | grep '^Filesystem flags:' || true)
	[ -n "$line" ] || line="Filesystem flags:         (none)"
	echo "$line" | sed 's/ *$//'
}

# libblkid's TYPE; "ambivalent" where it matches several probers (it
# does for ext2/ext3 with the test flag: both ext4dev and ext2 claim it).
blkid_type() {
	local type
	type=$(blkid -p -o value -s TYPE "$1" 2>/dev/null || true)
	if [ -z "$type" ] &&
		[[ $(blkid -p -o udev "$1" 2>/dev/null || true) == *AMBIVALENT* ]]
	then
		type=ambivalent
	fi
	echo "$type"
}

sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# Backup superblock block numbers, as dumpe2fs lists them.
backup_superblocks() {
	dumpe2fs "$1" 2>/dev/null |
		sed -n 's/.*Backup superblock at \([0-9]*\).*/\1/p'
}

block_size() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Block size: *//p'
}

# sparse_sha FILE: a hash of every byte of FILE that reads non-zero,
# with its offset: equal exactly when the contents are, but only the
# data regions are read (SEEK_DATA/SEEK_HOLE), so a big sparse image
# hashes quickly.  Holes and written zeros hash alike, as they read.
sparse_sha() {
	python3 - "$1" <<'PY'
import hashlib, os, sys
CHUNK = 1 << 16
h = hashlib.sha256()
fd = os.open(sys.argv[1], os.O_RDONLY)
end = os.fstat(fd).st_size
pos = 0
while pos < end:
    try:
        data = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:
        break
    hole = os.lseek(fd, data, os.SEEK_HOLE)
    at = data - data % CHUNK
    while at < hole:
        chunk = os.pread(fd, CHUNK, at)
        if chunk.strip(b"\0"):
            h.update(b"%d:" % at + chunk)
        at += CHUNK
    pos = max(hole, at)
h.update(b"size %d" % end)
print(h.hexdigest())
PY
}
