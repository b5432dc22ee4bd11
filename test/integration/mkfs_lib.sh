# shellcheck shell=bash
# Helpers shared by the mkfs_* integration tests: make the same
# filesystem with ext4dev mkfs and with mke2fs, and compare what the
# e2fsprogs tools say about the two.

# shellcheck disable=SC2034 # for the scripts that source this
MKFS_LINK=$(dirname "$EXT4DEV")/mkfs.ext4dev

PYLIB=$(dirname "${BASH_SOURCE[0]}")/../pylib/ext4dev_test.py

# Fields that differ on every run (random or clock-derived) or follow
# from those (checksums), and "Lifetime writes" (s_kbytes_written: what
# the I/O layer counted on the way, not a property of the filesystem);
# everything else dumpe2fs -h prints must agree.
VOLATILE='^(Filesystem UUID|Directory Hash Seed|Checksum|Checksum seed|Journal checksum|Filesystem created|Last write time|Last mount time|Last checked|Journal sequence|MMP block number|MMP update interval|Lifetime writes):'

# dumpe2fs -h without the volatile fields; fails if dumpe2fs does.
header() {
	local out
	out=$(dumpe2fs -h "$1" 2>/dev/null) || return 1
	grep -vE "$VOLATILE" <<<"$out"
}

# The value of one dumpe2fs -h field.
field() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n "s/^$2: *//p"
}

# make_pair NAME SIZE OPTS...: $WORK/NAME.ref by mke2fs -t ext4 -E test_fs
# and $WORK/NAME.img by ext4dev mkfs, same options.  With --production
# first, no test_fs for mke2fs and --production for us.  Either one
# failing is a "not ok" (its output above it), and make_pair returns 1:
# there is nothing to compare.
make_pair() {
	local name=$1 size=$2 prod=
	shift 2
	if [ "${1:-}" = --production ]; then
		prod=--production
		shift
	fi
	local ref=$WORK/$name.ref img=$WORK/$name.img
	rm -f "$ref" "$img"
	if [ -n "$prod" ]; then
		mke2fs -q -F -t ext4 "$@" "$ref" "$size" >"$WORK/ref.out" 2>&1
	else
		mke2fs -q -F -t ext4 -E test_fs "$@" "$ref" "$size" \
			>"$WORK/ref.out" 2>&1
	fi || {
		diag <"$WORK/ref.out"
		fail "$name: mke2fs makes the reference image"
		return 1
	}
	if ! "$EXT4DEV" mkfs -q $prod "$@" "$img" "$size" >"$WORK/ours.out" 2>&1
	then
		diag <"$WORK/ours.out"
		fail "$name: ext4dev mkfs succeeds"
		return 1
	fi
}

# same_header REF IMG: dumpe2fs -h says the same of both images (but
# for the volatile fields), features and all; the headers stay in
# $WORK/img.h and $WORK/ref.h for the caller's next look.
same_header() {
	if ! header "$2" >"$WORK/img.h" || ! header "$1" >"$WORK/ref.h"; then
		echo "dumpe2fs -h failed"
		return 1
	fi
	if ! grep -q '^Filesystem features:' "$WORK/img.h"; then
		echo "dumpe2fs -h printed no features"
		return 1
	fi
	diff -u "$WORK/ref.h" "$WORK/img.h"
}

# fsck_clean IMG: e2fsck -fn finds nothing to fix; its last lines if not.
fsck_clean() {
	e2fsck -fn "$1" >"$WORK/fsck" 2>&1 && return 0
	tail -n5 "$WORK/fsck"
	return 1
}

# check_pair NAME [TYPE]: headers equal, e2fsck -fn clean, blkid says
# TYPE (default ext4dev) for ours and the same for mke2fs's.
check_pair() {
	local name=$1 type=${2:-ext4dev}
	local ref=$WORK/$name.ref img=$WORK/$name.img

	check "$name: dumpe2fs -h as for mke2fs's" same_header "$ref" "$img"
	check "$name: e2fsck -fn clean" fsck_clean "$img"
	check_eq "$name: blkid says $type" "$(blkid_type "$img")" "$type"
	check_eq "$name: blkid agrees with mke2fs's" "$(blkid_type "$img")" \
		"$(blkid_type "$ref")"
}

# same_bytes NAME: with -U and hash_seed fixed the images are identical
# but for s_kbytes_written in each superblock copy (and the checksum
# over it).
same_bytes() {
	check "$1: byte-identical to mke2fs's (but s_kbytes_written)" \
		python3 "$PYLIB" same-bytes "$WORK/$1.ref" "$WORK/$1.img"
}
