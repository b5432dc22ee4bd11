#!/bin/bash
# On a 15 TiB sparse image show-flags and mark-* read at most 64 KiB
# and mark-* writes nothing but superblock copies (strace counts).
source "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "strace is not installed"

IMG=$WORK/big.img
BUDGET=65536
truncate -s 15T "$IMG"
mke2fs -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 "$IMG" \
	>/dev/null 2>&1 || skip "mke2fs cannot make a 15T image here"

# io_bytes OP COMMAND...: bytes OP (read|write) on the image's fd.
io_bytes() {
	local op=$1
	shift
	strace -f -y -e trace=read,pread64,readv,preadv,write,pwrite64,writev,pwritev \
		-o "$WORK/trace" "$@" >/dev/null 2>&1 || true
	{ grep -E "^[0-9]+ +p?$op(v|64)?\(.*<$IMG>" "$WORK/trace" || true; } |
		sed -n 's/.*= \([0-9]*\)$/\1/p' | awk '{s += $1} END {print s + 0}'
}

within() {
	local what=$1 bytes=$2 max=$3
	echo "$what: $bytes bytes"
	[ "$bytes" -le "$max" ]
}

read_show=$(io_bytes read "$EXT4DEV" show-flags "$IMG")
check "show-flags reads <= 64 KiB" within "show-flags read" "$read_show" $BUDGET
read_mark=$(io_bytes read "$EXT4DEV" mark-test "$IMG")
check "mark-test reads <= 64 KiB" within "mark-test read" "$read_mark" $BUDGET
check "mark-test took effect" "$EXT4DEV" show-flags -c test "$IMG"
# Already set: the primary and every backup copy are read, 1 KiB each.
read_again=$(io_bytes read "$EXT4DEV" mark-test "$IMG")
check "mark-test (already set, backups compared) reads <= 64 KiB" \
	within "mark-test again read" "$read_again" $BUDGET
check "mark-test again read every backup" \
	[ "$read_again" -ge $(( $(backup_superblocks "$IMG" | wc -l) * 1024 )) ]

# Writes: 1 KiB per superblock copy, nothing else.
copies=$(( $(backup_superblocks "$IMG" | wc -l) + 1 ))
written=$(io_bytes write "$EXT4DEV" mark-production "$IMG")
check "mark-production writes only superblocks" \
	within "mark-production wrote ($copies copies)" "$written" $((copies * 1024))
check "mark-production wrote them all" [ "$written" -ge $((copies * 1024)) ]
check "e2fsck -fn clean" e2fsck -fn "$IMG" >/dev/null 2>&1

finish
