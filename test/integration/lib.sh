# shellcheck shell=bash
# Shared helpers for the integration tests.  Each test sources this,
# works in its own temporary directory, and fails loudly with the
# command and output that broke.

set -euo pipefail

: "${EXT4DEV:?EXT4DEV must point at the ext4dev binary}"
export LC_ALL=C
# Same clock for us and the e2fsprogs oracles, so s_wtime compares.
export E2FSPROGS_FAKE_TIME=1700000000 SOURCE_DATE_EPOCH=1700000000

TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ext4dev-$TEST_NAME.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILS=0
CHECKS=0

fail() {
	echo "FAIL: $*" >&2
	FAILS=$((FAILS + 1))
}

pass() {
	CHECKS=$((CHECKS + 1))
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@"; then pass; else fail "$what"; fi
}

# Finish: print the plain closing line CTest logs show, exit 0/1.
finish() {
	echo "$TEST_NAME: $CHECKS passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# mkimg FILE SIZE MKE2FS-ARGS...: a fresh image made by mke2fs.
mkimg() {
	local file=$1 size=$2
	shift 2
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

# run_capture OUT ERR RC COMMAND...: run, keep stdout/stderr/exit code.
run_capture() {
	local out=$1 err=$2 rcvar=$3
	shift 3
	set +e
	"$@" >"$out" 2>"$err"
	printf -v "$rcvar" '%s' $?
	set -e
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
