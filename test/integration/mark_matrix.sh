#!/bin/bash
# mark-test / mark-production against tune2fs -E test_fs / ^test_fs:
# the two results must be identical byte for byte, every superblock copy
# must carry the new value, and e2fsck -fn must be clean.
source "$(dirname "$0")/lib.sh"

# name|size|mke2fs arguments
MATRIX=(
	"ext2-1k|64M|-t ext2 -b 1024"
	"ext2-2k|64M|-t ext2 -b 2048"
	"ext3-4k|256M|-t ext3 -b 4096 -g 1024"
	"ext4-1k|128M|-t ext4 -b 1024"
	"ext4-4k|256M|-t ext4 -b 4096 -g 1024"
	"ext4-nocsum|128M|-t ext4 -b 1024 -O ^metadata_csum"
	"ext4-32bit-noflex|128M|-t ext4 -b 1024 -O ^64bit,^flex_bg"
	"ext4-noresize|128M|-t ext4 -b 2048 -O ^resize_inode"
	"ext4-metabg|128M|-t ext4 -b 1024 -O meta_bg,^resize_inode"
	"ext4-sparse2|128M|-t ext4 -b 1024 -O sparse_super2 -E num_backup_sb=2"
	"ext4-bigalloc|256M|-t ext4 -O bigalloc -C 16384 -g 4096"
	"ext2-nosparse|64M|-t ext2 -b 1024 -O ^sparse_super,^resize_inode"
)

# Every copy (primary and each backup) shows test_filesystem or not.
every_copy_is() {
	local img=$1 want=$2 bs blk line
	bs=$(block_size "$img")
	for blk in 0 $(backup_superblocks "$img"); do
		if [ "$blk" = 0 ]; then
			line=$(dumpe2fs_flags "$img")
		else
			line=$(dumpe2fs_flags -o superblock="$blk" -o blocksize="$bs" "$img")
		fi
		local has=clear
		[[ $line == *test_filesystem* ]] && has="set"
		if [ "$has" != "$want" ]; then
			echo "superblock at $blk: $line"
			return 1
		fi
	done
}

copies_count() {
	echo $(( $(backup_superblocks "$1" | wc -l) + 1 ))
}

same_bytes() {
	cmp "$1" "$2" >/dev/null || { cmp "$1" "$2" | head -3; return 1; }
}

# one_direction NAME IMG VERB TUNE2FS-OPT WANT
one_direction() {
	local name=$1 img=$2 verb=$3 topt=$4 want=$5
	cp --sparse=always "$img" "$WORK/ours.img"
	cp --sparse=always "$img" "$WORK/theirs.img"
	check "$name $verb: exit 0" "$EXT4DEV" "$verb" -q "$WORK/ours.img"
	tune2fs -E "$topt" "$WORK/theirs.img" >/dev/null 2>&1
	check "$name $verb: identical to tune2fs -E $topt" \
		same_bytes "$WORK/ours.img" "$WORK/theirs.img"
	check "$name $verb: every copy $want ($(copies_count "$img"))" \
		every_copy_is "$WORK/ours.img" "$want"
	check "$name $verb: e2fsck -fn clean" \
		e2fsck -fn "$WORK/ours.img" >/dev/null 2>&1
}

for row in "${MATRIX[@]}"; do
	IFS='|' read -r name size argstr <<<"$row"
	read -ra args <<<"$argstr"
	mkimg "$WORK/prod.img" "$size" "${args[@]}"
	mkimg "$WORK/test.img" "$size" "${args[@]}" -E test_fs
	one_direction "$name" "$WORK/prod.img" mark-test test_fs set
	one_direction "$name" "$WORK/test.img" mark-production ^test_fs clear
done

finish
