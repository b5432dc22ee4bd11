#!/bin/bash
# seeds.sh KIND DIR: write a seed corpus for one fuzz target into DIR.
# Made at test time from real tools, so no binary corpus lives in git.
#   device   the first 64 KiB of mke2fs images: every block size, ext2/3/4,
#            with and without metadata_csum, 64bit, flex_bg, meta_bg,
#            sparse_super2, bigalloc, no sparse_super, a journal device,
#            the test flag set; plus a vfat head and a few short inputs
#   options  argv vectors for show-flags and mark-*: selector byte, then
#            NUL-separated words (see fuzz_options.c)
#   mkfs_options  mkfs argv, -E and -J lists, sizes: selector byte, then
#            the text (see fuzz_mkfs_options.c)
#   mkfs_conf  /etc/mke2fs.conf and variations of it
set -euo pipefail

kind=$1
dir=$2
mkdir -p "$dir"
export E2FSPROGS_FAKE_TIME=1700000000 LC_ALL=C

device_seeds() {
	local tmp n=0 bs variant
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ext4dev-seeds.XXXXXX")
	trap 'rm -rf "$tmp"' RETURN
	local -a variants=(
		"-t ext2"
		"-t ext3"
		"-t ext4"
		"-t ext4 -O ^metadata_csum"
		"-t ext4 -O 64bit,^flex_bg"
		"-t ext4 -O meta_bg,^resize_inode"
		"-t ext4 -O sparse_super2"
		"-t ext4 -O ^sparse_super,^resize_inode"
		"-t ext4 -O bigalloc -C 16384"
		"-t ext4 -E test_fs"
		"-t ext4 -O quota,project -I 256"
		"-t ext4 -O inline_data,^has_journal"
	)
	for bs in 1024 2048 4096; do
		for variant in "${variants[@]}"; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			if mke2fs -q -F -b "$bs" $variant "$tmp/img" 64M \
				>/dev/null 2>&1; then
				head -c 65536 "$tmp/img" >"$dir/mke2fs-$n-$bs"
			fi
			rm -f "$tmp/img"
		done
	done
	mke2fs -q -F -O journal_dev -b 4096 "$tmp/jdev" 8M >/dev/null 2>&1 &&
		head -c 65536 "$tmp/jdev" >"$dir/journal-dev"
	if command -v mkfs.vfat >/dev/null; then
		truncate -s 4M "$tmp/vfat"
		mkfs.vfat "$tmp/vfat" >/dev/null 2>&1 &&
			head -c 65536 "$tmp/vfat" >"$dir/vfat"
	fi
	head -c 2048 "$dir/mke2fs-3-1024" >"$dir/short-2k"
	head -c 1500 "$dir/mke2fs-3-1024" >"$dir/short-1500"
	printf 'x' >"$dir/one-byte"
}

# word... -> selector byte $1 then NUL-separated words.
argv_seed() {
	local file=$1 sel=$2
	shift 2
	{
		# shellcheck disable=SC2059 # the selector byte, as an escape
		printf "\\x$sel"
		printf '%s\0' "$@"
	} >"$dir/$file"
}

options_seeds() {
	argv_seed show-plain 00 image.img
	argv_seed show-json 00 -J -o DEVICE,FLAGS,TEST,UUID,LABEL a b
	argv_seed show-check 00 --check test -v /dev/sdb1
	argv_seed show-check-bad 00 --check=maybe x
	argv_seed show-raw 00 -rn --output=type,flags LABEL=x
	argv_seed show-help 00 --help
	argv_seed show-bad 00 -q --nope
	argv_seed mark-test 01 -q -n /dev/sdb1
	argv_seed mark-undo 01 -z /tmp/undo --quiet UUID=1234
	argv_seed mark-undo-2 01 --undo=/tmp/u a b
	argv_seed mark-prod 02 --dry-run image.img -- -x
	argv_seed mark-missing 02 -z
	argv_seed mark-undo-empty 01 -z "" image.img
	argv_seed mark-undo-late 02 image.img --undo /dev/null
}

mkfs_options_seeds() {
	argv_seed argv 00 -q -F -b 1024 -O ^metadata_csum,64bit -L lbl \
		-U clear -E test_fs image.img 128M
	argv_seed argv-t 00 -t ext3 -T news -j -J size=8 -N 1000 -m 1 -I 128 \
		-i 4096 -g 8192 -G 4 -e remount-ro -n -v --production /dev/x
	argv_seed argv-bad 00 -b x -z /dev/x 12Q
	argv_seed ext 01 test_fs,stride=16,stripe_width=64,resize=100000,lazy_itable_init=1,lazy_journal_init=0,root_owner=0:0,num_backup_sb=1,packed_meta_blocks=1,discard,nodiscard
	argv_seed ext-bad 01 stride=,=,,resize=-1,unknown
	argv_seed journal 02 size=64,location=1G
	argv_seed num-m 03 128M
	argv_seed num-s 03 4096s
	argv_seed num-t 03 12T
	argv_seed num-big 03 99999999999999999999
}

mkfs_conf_seeds() {
	[ -r /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$dir/etc"
	printf '[defaults]\n\tbase_features = sparse_super,filetype\n' \
		>"$dir/defaults"
	printf '[fs_types]\n\text4 = {\n\t\tfeatures = has_journal\n' \
		>"$dir/unterminated"
	printf '[options]\nfname = "quoted \\"value\\"\\n"\n; comment\n# c\n' \
		>"$dir/quotes"
	printf '[a]\nb = {\n c = {\n d = e\n }\n}\n[a]\nb = f\n' >"$dir/nested"
	printf '[fs_types]\n\tsmall = {\n\t\tblocksize = 1024\n\t}\n*\n' \
		>"$dir/final"
}

case $kind in
device) device_seeds ;;
options) options_seeds ;;
mkfs_options) mkfs_options_seeds ;;
mkfs_conf) mkfs_conf_seeds ;;
*) echo "seeds.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
