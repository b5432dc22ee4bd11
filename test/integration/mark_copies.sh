#!/bin/bash
# Every copy agrees after a successful mark-*.  Images whose primary
# and backups disagree are made with e2fsprogs (tune2fs, then the
# primary put back from a saved copy); each copy is read back with
# dumpe2fs -o superblock=N, and the result is byte-compared with what
# tune2fs makes of the same image.
source "$(dirname "$0")/lib.sh"

# copies_flag IMG: one line per copy, "test" or "prod", primary first.
copies_flag() {
	local img=$1 bs b
	bs=$(block_size "$img")
	for b in 0 $(backup_superblocks "$img"); do
		local opt=()
		[ "$b" = 0 ] || opt=(-o "superblock=$b" -o "blocksize=$bs")
		if dumpe2fs -h "${opt[@]}" "$img" 2>/dev/null |
			grep -q '^Filesystem flags:.*test_filesystem'; then
			echo test
		else
			echo prod
		fi
	done
}

# disagreeing OUT ORIG TUNED: ORIG's bytes with TUNED's primary.
disagreeing() {
	cp "$2" "$1"
	dd if="$3" of="$1" bs=1024 skip=1 seek=1 count=1 conv=notrunc status=none
}

# one_layout NAME SIZE MKE2FS-ARGS...
one_layout() {
	local name=$1 size=$2
	shift 2
	local orig=$WORK/$name.orig tuned=$WORK/$name.tuned img=$WORK/$name.img
	mkimg "$orig" "$size" "$@"
	cp "$orig" "$tuned"
	tune2fs -E test_fs "$tuned" >/dev/null 2>&1
	local n
	n=$(backup_superblocks "$orig" | wc -l)
	[ "$n" -ge 1 ] || { fail "$name: no backups to test"; return; }

	# primary-only-test: mark-test must set the backups.
	disagreeing "$img" "$orig" "$tuned"
	check "$name primary-only: disagrees before" \
		[ "$(copies_flag "$img" | sort -u | tr '\n' ' ')" = "prod test " ]
	local before out
	before=$(sha "$img")
	out=$("$EXT4DEV" mark-test -n "$img")
	check "$name primary-only -n: says so" [ "$out" = \
		"$img: test filesystem flag would be set in $n backup superblock$([ "$n" = 1 ] || echo s) (the primary already had it)" ]
	check "$name primary-only -n: nothing written" [ "$(sha "$img")" = "$before" ]
	out=$("$EXT4DEV" mark-test -z "$WORK/$name.undo" "$img")
	check "$name primary-only: not 'already set'" [ "$out" != "$img: test filesystem flag already set" ]
	check "$name primary-only: every copy test" \
		[ "$(copies_flag "$img" | sort -u)" = test ]
	check "$name primary-only: bytes = tune2fs's" cmp -s "$img" "$tuned"
	check "$name primary-only: e2fsck -fn clean" e2fsck -fn "$img" >/dev/null 2>&1
	check "$name primary-only: now already set" [ "$("$EXT4DEV" mark-test "$img")" = \
		"$img: test filesystem flag already set" ]

	# The other way: the primary clear, the backups test.
	disagreeing "$img.p" "$tuned" "$orig"
	out=$("$EXT4DEV" mark-production "$img.p")
	check "$name primary-clear: 'the primary was already clear'" [ "$out" = \
		"$img.p: test filesystem flag cleared in $n backup superblock$([ "$n" = 1 ] || echo s) (the primary was already clear)" ]
	disagreeing "$WORK/x" "$orig" "$tuned"
	check "$name primary-only: e2undo puts back the disagreement" \
		bash -c 'e2undo "$0" "$1" >/dev/null && cmp -s "$1" "$2"' \
		"$WORK/$name.undo" "$img" "$WORK/x"

	# backups-only-test: mark-production must clear the backups.
	disagreeing "$img" "$tuned" "$orig"
	"$EXT4DEV" mark-production -q "$img"
	check "$name backups-only: every copy production" \
		[ "$(copies_flag "$img" | sort -u)" = prod ]
	disagreeing "$WORK/theirs" "$tuned" "$orig"
	tune2fs -E ^test_fs "$WORK/theirs" >/dev/null 2>&1
	check "$name backups-only: bytes = tune2fs's" cmp -s "$img" "$WORK/theirs"
	check "$name backups-only: e2fsck -fn clean" e2fsck -fn "$img" >/dev/null 2>&1
	rm -f "$orig" "$tuned" "$img" "$WORK/theirs" "$WORK/x"
}

one_layout ext4-1k 64M -t ext4 -b 1024
one_layout ext4-4k 256M -t ext4 -b 4096 -g 1024
one_layout ext4-meta_bg 64M -t ext4 -b 1024 -O meta_bg,^resize_inode
one_layout ext4-sparse_super2 64M -t ext4 -b 1024 -O sparse_super2
one_layout ext2-nosparse 16M -t ext2 -b 1024 -O ^sparse_super,^resize_inode
one_layout ext3 64M -t ext3 -b 1024

# One stale backup only (flipped by the fault tests' independent
# superblock tool, checksum recomputed): just that one is written.
SBTOOL=$(dirname "$0")/../pylib/sbtool.py
only_one_written() {
	local img=$WORK/one.img b bs
	mkimg "$img" 64M -t ext4 -b 1024 -E test_fs
	bs=$(block_size "$img")
	b=$(backup_superblocks "$img" | sed -n 2p)
	cp "$img" "$WORK/one.orig"
	python3 "$SBTOOL" flag "$img" $((b * bs)) 0 || return 1
	[ "$(copies_flag "$img" | sed -n 3p)" = prod ] &&
		[ "$(copies_flag "$img" | grep -c prod)" = 1 ] ||
		{ echo "setup: $(copies_flag "$img" | tr '\n' ' ')"; return 1; }
	"$EXT4DEV" mark-test "$img" | grep -q "set in 1 backup superblock " &&
		cmp -s "$img" "$WORK/one.orig" &&
		e2fsck -fn "$img" >/dev/null 2>&1
}
if command -v python3 >/dev/null; then
	check "one stale backup: that one written, back to mke2fs's bytes" \
		only_one_written
fi

finish
