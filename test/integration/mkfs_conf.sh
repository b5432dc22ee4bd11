#!/bin/bash
# mke2fs.conf handling: with the same $MKE2FS_CONFIG ext4dev mkfs must
# decide what mke2fs -t ext4 -E test_fs decides (no file: mke2fs's
# built-in defaults; size types; -T; [defaults]; [fs_types] options;
# [devices]), and an ext4dev stanza must act like the same settings
# written into the ext4 stanza.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

U=0e4de000-1111-4222-8333-444455556666

case_() {
	local name=$1
	if make_pair "$@"; then
		check_pair "$name"
	fi
	rm -f "$WORK/$name.ref" "$WORK/$name.img"
}

# No file at all: both fall back to the built-in profile.
export MKE2FS_CONFIG=$WORK/does-not-exist.conf
case_ builtin-2M 2M
case_ builtin-64M 64M
case_ builtin-1G 1G
case_ builtin-largefile 1G -T largefile
case_ builtin-news-floppy 64M -T news,floppy

# Big and huge size types, decided by size.  20 TiB is past what an
# image file may hold here, so compare what -n -v prints (the layout,
# with the fs_types list) instead; 5 TiB is made for real, headers only
# (e2fsck -fn on it takes too long for this suite).
if make_pair sizetype-5T 5T; then
	header "$WORK/sizetype-5T.ref" >"$WORK/ref.h"
	header "$WORK/sizetype-5T.img" >"$WORK/img.h"
	check "sizetype-5T: dumpe2fs -h agrees" diff -u "$WORK/ref.h" "$WORK/img.h"
fi
rm -f "$WORK"/sizetype-5T.*
# layout SIZE OPTS...: -n -v output of both, compared (but for the
# UUID, which mke2fs leaves out for a single group and we do not).
layout() {
	local size=$1
	shift
	: >"$WORK/n.img"	# mke2fs -n wants it to exist
	mke2fs -n -v -F -t ext4 -U "$U" "$@" "$WORK/n.img" "$size" 2>/dev/null |
		grep -vE '^(Creating regular file|Filesystem UUID)' >"$WORK/ref.n"
	: >"$WORK/n.img"
	"$EXT4DEV" mkfs -n -v -U "$U" "$@" "$WORK/n.img" "$size" |
		grep -vE '^(Journal size:|Filesystem UUID|.*test filesystem flag)' \
		>"$WORK/img.n"
	check "-n -v $size $*: layout as mke2fs -n -v prints it" \
		diff -u "$WORK/ref.n" "$WORK/img.n"
	check "-n $size: nothing written" [ ! -s "$WORK/n.img" ]
}
layout 20T
layout 20T -T news
layout 5T -b 1024
layout 64M -T largefile4

# A file that changes most knobs.
cat >"$WORK/custom.conf" <<'EOF'
# comment lines before the first section are ignored
[defaults]
	base_features = sparse_super,large_file,filetype,dir_index,ext_attr
	default_mntopts = user_xattr
	blocksize = 4096
	inode_size = 512
	inode_ratio = 32768
	reserved_ratio = 1.5
	hash_alg = tea
	errors = remount-ro
	enable_periodic_fsck = true
	lazy_itable_init = false

[fs_types]
	ext4 = {
		features = has_journal,extent,huge_file,flex_bg,metadata_csum,64bit,dir_nlink,extra_isize,orphan_file
		flex_bg_size = 64
		options = stride=4,stripe_width=16
	}
	small = {
		blocksize = 2048
		inode_ratio = 8192
	}
	news = {
		inode_ratio = 4096
		reserved_ratio = 0
	}
EOF
export MKE2FS_CONFIG=$WORK/custom.conf
case_ custom-64M 64M -U "$U"
case_ custom-1G 1G -U "$U"
case_ custom-news 64M -U "$U" -T news
case_ custom-cmdline-wins 64M -U "$U" -b 1024 -m 3 -I 256 -G 8 \
	-E test_fs,stride=8

# [devices]: per-device fs_type and usage types.  The device name is
# the path, so both runs use the same path in turn.
dev=$WORK/dev.img
{ cat "$WORK/custom.conf"; printf '[devices]\n\t%s = {\n\t\tusage_types = news\n\t}\n' "$dev"; } \
	>"$WORK/devices.conf"
export MKE2FS_CONFIG=$WORK/devices.conf
rm -f "$dev"
mke2fs -q -F -t ext4 -E test_fs -U "$U" "$dev" 64M >/dev/null 2>&1 &&
	header "$dev" >"$WORK/ref.h"
rm -f "$dev"
"$EXT4DEV" mkfs -q -U "$U" "$dev" 64M && header "$dev" >"$WORK/img.h"
check "[devices] usage_types: same as mke2fs" diff -u "$WORK/ref.h" "$WORK/img.h"
check "[devices] usage_types: news applied" \
	grep -q '^Reserved block count: *0$' "$WORK/img.h"

# An ext4dev stanza acts as the same settings in the ext4 stanza would.
builtin_ext4='has_journal,extent,huge_file,flex_bg,metadata_csum,64bit,dir_nlink,extra_isize'
stanza() {	# stanza NAME FEATURES: an [fs_types] stanza
	printf '\t%s = {\n\t\tfeatures = %s\n\t\tinode_ratio = 8192\n' "$1" "$2"
	printf '\t\thash_alg = legacy\n\t\tinode_size = 1024\n\t}\n'
}
{
	printf '[defaults]\n\tbase_features = sparse_super,large_file,filetype,resize_inode,dir_index,ext_attr\n'
	printf '\tinode_size = 256\n\tinode_ratio = 16384\n\tblocksize = 4096\n[fs_types]\n'
	printf '\text4 = {\n\t\tfeatures = %s\n\t}\n' "$builtin_ext4"
	stanza ext4dev '^metadata_csum,sparse_super2'
	printf '\tsmall = {\n\t\tblocksize = 1024\n\t\tinode_ratio = 4096\n\t}\n'
} >"$WORK/ext4dev.conf"
{
	printf '[defaults]\n\tbase_features = sparse_super,large_file,filetype,resize_inode,dir_index,ext_attr\n'
	printf '\tinode_size = 256\n\tinode_ratio = 16384\n\tblocksize = 4096\n[fs_types]\n'
	stanza ext4 "$builtin_ext4,^metadata_csum,sparse_super2"
	printf '\tsmall = {\n\t\tblocksize = 1024\n\t\tinode_ratio = 4096\n\t}\n'
} >"$WORK/merged.conf"

# conf_pair NAME SIZE REF-CONF CONF MKFS-OPTS...: as make_pair, but
# mke2fs -t ext4 -E test_fs reads REF-CONF and is given no options, and
# ext4dev mkfs reads CONF and is given MKFS-OPTS.
conf_pair() {
	local name=$1 size=$2 refconf=$3 conf=$4
	shift 4
	local ref=$WORK/$name.ref img=$WORK/$name.img
	rm -f "$ref" "$img"
	if ! MKE2FS_CONFIG=$refconf mke2fs -q -F -t ext4 -E test_fs "$ref" \
		"$size" >"$WORK/ref.out" 2>&1; then
		diag <"$WORK/ref.out"
		fail "$name: mke2fs makes the reference image"
		return 1
	fi
	if ! MKE2FS_CONFIG=$conf "$EXT4DEV" mkfs -q "$@" "$img" "$size" \
		>"$WORK/ours.out" 2>&1; then
		diag <"$WORK/ours.out"
		fail "$name: ext4dev mkfs succeeds"
		return 1
	fi
}

for size in 64M 1G; do
	for t in "" "-t ext4dev"; do
		name="ext4dev-stanza-$size${t:+-t}"
		# shellcheck disable=SC2086 # $t is zero or two words
		if conf_pair "$name" "$size" "$WORK/merged.conf" \
			"$WORK/ext4dev.conf" $t; then
			check_pair "$name"
			check "$name: the stanza was used" grep -qE \
				'^Inode size:[[:space:]]*1024$' "$WORK/img.h"
		fi
		rm -f "$WORK/$name".*
	done
done

# -t ext4 reads the ext4 stanza alone, ext4dev stanza or not: what
# mke2fs -t ext4 makes from the same file.
name=ext4dev-stanza-t-ext4
if conf_pair "$name" 64M "$WORK/ext4dev.conf" "$WORK/ext4dev.conf" -t ext4
then
	check_pair "$name"
	check "$name: the ext4dev stanza was not used" \
		grep -qE '^Inode size:[[:space:]]*256$' "$WORK/img.h"
fi
rm -f "$WORK/$name".*

# What mkfs makes with an ext4dev stanza is said alike where it is said:
# the man page's COMMANDS entry and MKFS section (one sentence, word
# for word), -t there, and --help.
: "${EXT4DEV_MAN:?EXT4DEV_MAN must point at man/ext4dev.8}"
man_section() {	# man_section FROM TO: the rendered text between them
	groff -man -Tutf8 -rLL=2000n -rHY=0 -P-cbou "$EXT4DEV_MAN" 2>/dev/null |
		sed -n "/$1/,/$2/p" | tr -s ' \n' '  '
}
stanza_rule="When the file has an [fs_types] stanza ext4dev, its settings apply after those of the ext4 stanza, as if they were written there (not with -t ext4, which reads the ext4 stanza alone)."
check "man COMMANDS mkfs: the ext4dev stanza" bash -c \
	'grep -qF -- "$1" <<<"$0"' "$(man_section '^ *mkfs  *Make a new' '^ *fsck ')" \
	"$stanza_rule"
check "man MKFS: the ext4dev stanza, the same words" bash -c \
	'grep -qF -- "$1" <<<"$0"' "$(man_section '^MKFS$' '^FSCK$')" "$stanza_rule"
check "man -t: ext4 alone, the default with the ext4dev stanza" bash -c \
	'grep -qF -- "$1" <<<"$0"' "$(man_section '^ *-t fs-type' '^ *-T ')" \
	"The default, and ext4dev, is the ext4 stanza followed by the ext4dev stanza when the file has one; ext4 is the ext4 stanza alone"
check "--help: the ext4dev stanza" bash -c \
	'"$0" mkfs --help | tr -s " \n" "  " | grep -qF "an [fs_types] ext4dev stanza in mke2fs.conf apply after"' \
	"$EXT4DEV"

# Without an ext4dev stanza ext4dev mkfs is mke2fs -t ext4: covered by
# every comparison above.  With mke2fs itself, -t ext4dev needs one.
finish
