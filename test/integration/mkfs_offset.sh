#!/bin/bash
# ext4dev mkfs -E offset=: the filesystem that many bytes into the
# device, as CI image builders make one in a partition of a disk image.
# Against mke2fs -E test_fs,offset= with UUID, hash seed and clock fixed:
# the same bytes, the bytes before the offset untouched, e2fsck -fn
# clean on the filesystem cut out, blkid -O finds it; and every refusal
# leaves the image as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

U=0e4de000-1111-4222-8333-444455556666
MiB=1048576

# disk NAME MB: an image of MB MiB whose first MiB is random (a stand-in
# for a boot loader and partition table that must survive).
disk() {
	head -c "$MiB" /dev/urandom >"$WORK/$1.pre"
	cp "$WORK/$1.pre" "$WORK/$1"
	truncate -s "${2}M" "$WORK/$1"
}

# cut IMG OFFSET: the filesystem alone, for the tools without an offset.
cut_fs() {
	dd if="$1" of="$1.fs" bs=512 skip=$(($2 / 512)) status=none
}

# prefix_kept NAME BYTES: the first BYTES of NAME are as disk made them.
prefix_kept() {
	cmp -n "$2" "$WORK/$1.pre" "$WORK/$1" >/dev/null ||
		{ echo "the first $2 bytes changed"; return 1; }
}

# pair NAME OFFSET [SIZE] -- OPTS...: mke2fs and we, on two copies of one
# disk; the images must be the same bytes (but s_kbytes_written).
pair() {
	local name=$1 off=$2 size=${3:-}
	shift 3
	disk "$name.ref" 80
	cp "$WORK/$name.ref.pre" "$WORK/$name.img.pre"
	cp "$WORK/$name.ref" "$WORK/$name.img"
	# shellcheck disable=SC2086 # an empty SIZE is no argument
	mke2fs -q -F -t ext4 -U "$U" -E "test_fs,hash_seed=$U,offset=$off" "$@" \
		"$WORK/$name.ref" $size >"$WORK/ref.out" 2>&1 ||
		{ diag <"$WORK/ref.out"; fail "$name: mke2fs makes the reference"; return 1; }
	# shellcheck disable=SC2086
	"$EXT4DEV" mkfs -q -U "$U" -E "hash_seed=$U,offset=$off" "$@" \
		"$WORK/$name.img" $size >"$WORK/ours.out" 2>&1 ||
		{ diag <"$WORK/ours.out"; fail "$name: ext4dev mkfs succeeds"; return 1; }
	check "$name: byte-identical to mke2fs's" \
		python3 "$PYLIB" same-bytes "$WORK/$name.ref" "$WORK/$name.img" "$off"
	check "$name: the bytes before the offset are untouched" \
		prefix_kept "$name.img" "$off"
	cut_fs "$WORK/$name.img" "$off"
	check "$name: e2fsck -fn clean" fsck_clean "$WORK/$name.img.fs"
	check_eq "$name: blkid -p -O finds ext4dev there" \
		"$(blkid -p -O "$off" -s TYPE -o value "$WORK/$name.img")" ext4dev
}

pair offset-1M "$MiB" 64M
pair offset-1M-4k "$MiB" 64M -b 4096
# The classic first partition: 63 sectors, not a multiple of the block.
pair offset-63s 32256 64M -b 4096
# Without SIZE: to the end of the device, with mke2fs's warning in ours.
pair offset-to-end "$MiB" ""
check "offset-to-end: the filesystem ends with the device" \
	same "$(field "$WORK/offset-to-end.img.fs" "Block count")" 80896
check "offset-to-end: warns that the size was not given" \
	grep -q "offset without a filesystem size" "$WORK/ours.out"

# A file that does not exist yet: made offset + SIZE long, zeros before.
rm -f "$WORK/new.ref" "$WORK/new.img"
mke2fs -q -F -t ext4 -U "$U" -E "test_fs,hash_seed=$U,offset=$MiB" \
	"$WORK/new.ref" 32M >/dev/null 2>&1
check "new file: made" expect_rc 0 "$EXT4DEV" mkfs -q -U "$U" \
	-E "hash_seed=$U,offset=$MiB" "$WORK/new.img" 32M
check_eq "new file: offset + SIZE long" "$(stat -c %s "$WORK/new.img")" $((33 * MiB))
check "new file: byte-identical to mke2fs's" \
	python3 "$PYLIB" same-bytes "$WORK/new.ref" "$WORK/new.img" "$MiB"

# A partition table before the offset needs no -F; it stays.
rm -f "$WORK/parted"
truncate -s 80M "$WORK/parted"
echo 'start=2048, type=83' | sfdisk -q "$WORK/parted"
sfdisk -d "$WORK/parted" >"$WORK/parted.before"
check "partitioned: made at the first partition without -F" \
	expect_rc 0 "$EXT4DEV" mkfs -q -E offset=$MiB "$WORK/parted" 64M
check "partitioned: the partition table is unchanged" \
	diff "$WORK/parted.before" <(sfdisk -d "$WORK/parted")

# Refusals: each leaves every byte as it was.
refused() {
	local what=$1 rc=$2 img=$3 before
	shift 3
	before=$(sha256sum <"$img")
	check "$what: refused, exit $rc" expect_rc "$rc" "$EXT4DEV" mkfs -q "$@" "$img"
	check "$what: the image is unchanged" same "$(sha256sum <"$img")" "$before"
}
refused "a filesystem at the offset, no -F" 8 "$WORK/offset-1M.img" -E offset=$MiB
refused "an offset past the end" 8 "$WORK/offset-1M.img" -F -E offset=$((200 * MiB))
refused "an offset that is no number" 16 "$WORK/offset-1M.img" -F -E offset=1M
before=$(sha256sum <"$WORK/offset-1M.img")
check "-n with an offset: succeeds" \
	expect_rc 0 "$EXT4DEV" mkfs -q -n -F -E offset=$MiB "$WORK/offset-1M.img"
check "-n with an offset: writes nothing" \
	same "$(sha256sum <"$WORK/offset-1M.img")" "$before"

# A block device: offset + SIZE past its end is refused before writing.
if [ "$(id -u)" = 0 ] && loop=$(losetup -f --show "$WORK/offset-1M.img" 2>/dev/null); then
	trap 'losetup -d "$loop" 2>/dev/null || true; rm -rf "$WORK"' EXIT
	before=$(sha256sum <"$loop")
	check "block device: offset + SIZE past its end, refused" \
		expect_rc 8 "$EXT4DEV" mkfs -q -F -E offset=$MiB "$loop" 80M
	check "block device: unchanged" same "$(sha256sum <"$loop")" "$before"
	check "block device: offset + SIZE inside it, made" \
		expect_rc 0 "$EXT4DEV" mkfs -q -F -E offset=$MiB "$loop" 79M
	check_eq "block device: blkid -p -O finds it" \
		"$(blkid -p -O "$MiB" -s TYPE -o value "$loop")" ext4dev
	losetup -d "$loop"
	trap 'rm -rf "$WORK"' EXIT
else
	diag <<<"no loop device here (not root, or no loop support): block device cases not run"
fi

finish
