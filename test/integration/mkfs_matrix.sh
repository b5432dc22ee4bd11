#!/bin/bash
# ext4dev mkfs against mke2fs -t ext4 -E test_fs, same options, over the
# sizes, block sizes, features and options users ask for: dumpe2fs -h must
# agree on every field but the random and clock-derived ones, e2fsck -fn
# must pass and blkid must say ext4dev.  Where UUID and hash seed are
# fixed, the images must be identical byte for byte.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

U=0e4de000-1111-4222-8333-444455556666
FIXED=(-U "$U" -E "test_fs,hash_seed=$U")

# case NAME SIZE OPTS...: compare, check, remove the images.  $TYPE:
# what blkid should say (ext2-like filesystems are ambivalent).
case_() {
	local name=$1
	if make_pair "$@"; then
		check_pair "$name" "${TYPE:-ext4dev}"
	fi
	rm -f "$WORK/$name.ref" "$WORK/$name.img"
}

# bytes NAME SIZE OPTS...: the same with UUID and hash seed fixed.
bytes() {
	local name=$1 size=$2
	shift 2
	if make_pair "$name" "$size" "${FIXED[@]}" "$@"; then
		check_pair "$name"
		same_bytes "$name"
	fi
	rm -f "$WORK/$name.ref" "$WORK/$name.img"
}

# Sizes, each picking its own mke2fs.conf size type and block size.
for size in 2M 8M 64M 1G 100G; do
	case_ "size-$size" "$size"
done
bytes bytes-64M 64M
bytes bytes-1G 1G

# Block sizes.
for bs in 1024 2048 4096; do
	case_ "bs$bs-64M" 64M -b "$bs"
	case_ "bs$bs-1G" 1G -b "$bs"
	bytes "bytes-bs$bs" 32M -b "$bs"
done

# Features, on a small (1k) and a default (4k) size.
while read -r name opts; do
	# shellcheck disable=SC2086 # opts is a word list on purpose
	case_ "$name-64M" 64M $opts
	# shellcheck disable=SC2086
	case_ "$name-1G" 1G $opts
done <<'EOF'
no-journal -O ^has_journal
no-csum -O ^metadata_csum
uninit-bg -O ^metadata_csum,uninit_bg
no-64bit -O ^64bit
no-flex -O ^flex_bg
no-resize -O ^resize_inode
meta-bg -O ^resize_inode,meta_bg
sparse2 -O sparse_super2
inline -O inline_data
bigalloc -O bigalloc -C 65536
orphan -O orphan_file
csum-seed -O metadata_csum_seed
fast-commit -O fast_commit
casefold -O casefold
large-dir -O large_dir,ea_inode
quota -O quota
project -O quota,project
EOF
while read -r name opts; do
	# shellcheck disable=SC2086
	case_ "$name" 64M $opts
done <<'EOF'
quota-types -O quota -E test_fs,quotatype=usr:prj
quota-owner -O quota -E test_fs,root_owner=1000:2000
quota-128 -I 128 -O quota
project-only -O project
EOF
TYPE=ambivalent case_ ext2-like 64M -O ^has_journal,^extent,^64bit,^flex_bg,^huge_file,^dir_nlink,^extra_isize,^metadata_csum
bytes bytes-meta-bg 64M -O ^resize_inode,meta_bg
for bs in 1024 2048 4096; do
	bytes "bytes-quota-$bs" 64M -b "$bs" -O quota,project \
		-E "test_fs,hash_seed=$U,root_owner=1000:2000"
done
bytes bytes-bigalloc 64M -b 1024 -O bigalloc -C 16384
bytes bytes-sparse2 64M -O sparse_super2 -E "test_fs,hash_seed=$U,num_backup_sb=1"
# encoding_flags through libe2p: s_encoding_flags is only in the bytes.
bytes bytes-casefold-strict 64M -O casefold \
	-E "test_fs,hash_seed=$U,encoding_flags=strict"
bytes bytes-encoding-strict 64M \
	-E "test_fs,hash_seed=$U,encoding_flags=strict,encoding=utf8"

# Inode and reserve options, label, UUID, usage types, -E and -J.
while read -r name opts; do
	# shellcheck disable=SC2086
	case_ "$name" 64M $opts
done <<'EOF'
inode128 -I 128
inode1024 -I 1024
inodes -N 5000
ratio -i 65536
reserve -m 1.5
no-reserve -m 0
label -L ext4dev-label
uuid -U 12345678-9abc-4def-8123-456789abcdef
uuid-clear -U clear
news -T news
largefile -T largefile
floppy -T floppy
journal-8M -J size=8
journal-j -j
flex-4 -G 4
groups -g 4096
errors -e panic
stride -E test_fs,stride=16,stripe_width=64
resize -E test_fs,resize=4000000
packed -E test_fs,packed_meta_blocks=1
root-owner -E test_fs,root_owner=1000:100
eager -E test_fs,lazy_itable_init=0,lazy_journal_init=1
nodiscard -E test_fs,nodiscard
backups-0 -O sparse_super2 -E test_fs,num_backup_sb=0
EOF
bytes bytes-options 64M -b 4096 -I 512 -N 3000 -m 2 -L lbl -O ^has_journal

# --production: what mke2fs -t ext4 makes; blkid says ext4.
if make_pair prod 64M --production; then
	check_pair prod ext4
	check "prod: flag clear" \
		bash -c '! dumpe2fs -h "$0" 2>/dev/null | grep -q test_filesystem' \
		"$WORK/prod.img"
fi
rm -f "$WORK"/prod.*

# 15 TiB sparse: 64bit, no resize inode, lazy init; one run only.
case_ size-15T 15T

finish
