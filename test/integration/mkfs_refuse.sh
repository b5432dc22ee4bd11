#!/bin/bash
# Every way ext4dev mkfs refuses: exit 8 (operational) or 16 (usage), a
# message "ext4dev: ...", and the target's bytes unchanged (or a missing
# image file still missing).
. "$(dirname "$0")/lib.sh"

# What TARGET holds: its sha256, "missing", or its kind.
state() {
	if [ -f "$1" ] || [ -b "$1" ]; then
		sha "$1"
	elif [ -e "$1" ]; then
		stat -c %F "$1"
	else
		echo missing
	fi
}

# refused RC PATTERN TARGET ARGS...: "ext4dev mkfs ARGS..." exits RC
# with an "ext4dev: " message matching PATTERN, TARGET as it was.
refused() {
	local want=$1 pattern=$2 target=$3 before after rc
	shift 3
	before=$(state "$target")
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs "$@"
	after=$(state "$target")
	if [ "$rc" != "$want" ]; then
		echo "exit $rc, want $want: $(cat "$WORK/err")"
	elif ! grep -q "^ext4dev: " "$WORK/err"; then
		echo "no 'ext4dev: ' message: $(cat "$WORK/err")"
	elif ! grep -qE -- "$pattern" "$WORK/err"; then
		echo "message does not say '$pattern': $(cat "$WORK/err")"
	elif [ "$before" != "$after" ]; then
		echo "'$target' changed ($before -> $after)"
	else
		return 0
	fi
	return 1
}

# refuse RC PATTERN TARGET ARGS...: one result for refused, named by
# the arguments and the message (the same arguments are refused for
# several reasons below), $WORK left out: it differs on every run.
refuse() {
	local args="${*:4}" pattern=${2//"$WORK/"/}
	check "mkfs ${args//"$WORK/"/}: exit $1, message ~ $pattern" \
		refused "$@"
}

IMG=$WORK/old.img
NEW=$WORK/new.img
mkimg "$IMG" 64M -t ext4 -L precious

# Existing filesystems and signatures, without -F; -n may look.
refuse 8 "'$IMG': contains an existing ext4 filesystem.*-F" "$IMG" "$IMG"
refuse 8 "existing ext4 filesystem" "$IMG" -q "$IMG" 64M
mkfs.vfat -C "$WORK/vfat.img" 8192 >/dev/null
refuse 8 "existing vfat filesystem" "$WORK/vfat.img" "$WORK/vfat.img"
# A DOS label with one Linux partition from sector 2048, by hand.
truncate -s 16M "$WORK/parts.img"
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x78\x00\x00' |
	dd of="$WORK/parts.img" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$WORK/parts.img" bs=1 seek=510 conv=notrunc \
	status=none
check "the hand-made label is a dos partition table" \
	[ "$(blkid -p -o value -s PTTYPE "$WORK/parts.img")" = dos ]
refuse 8 "existing dos partition table" "$WORK/parts.img" "$WORK/parts.img"
mkimg "$WORK/ext2.img" 8M -t ext2
refuse 8 "existing ext2 filesystem" "$WORK/ext2.img" "$WORK/ext2.img"
before=$(sha "$IMG")
check "-n over a filesystem: refused like the real run" bash -c \
	'"$0" mkfs -n -q "$1" 2>/dev/null; [ $? = 8 ]' "$EXT4DEV" "$IMG"
check "-n -F over a filesystem: exit 0" "$EXT4DEV" mkfs -n -F -q "$IMG"
check "-n over a filesystem writes nothing" [ "$(sha "$IMG")" = "$before" ]

# Held by another process: an image under flock, a block device opened
# O_EXCL (a loop device when the machine lets us attach one; attached,
# never mounted).
exec 9<"$IMG"
flock -n 9 || die "could not lock '$IMG'"
refuse 8 "still holds the device's lock" "$IMG" --wait 0 -F "$IMG"
exec 9<&-

loop=
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null &&
	command -v python3 >/dev/null; then
	truncate -s 32M "$WORK/loop.img"
	loop=$(losetup -f --show "$WORK/loop.img" 2>/dev/null || true)
fi
if [ -n "$loop" ]; then
	trap 'losetup -d "$loop"; rm -rf "$WORK"' EXIT
	refuse 8 "size 64M is larger than the device" "$WORK/loop.img" \
		-F "$loop" 64M
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(30)' "$loop" >"$WORK/held" &
	holder=$!
	for _ in $(seq 50); do [ -s "$WORK/held" ] && break; sleep 0.1; done
	refuse 8 "in use" "$WORK/loop.img" -F "$loop"
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
else
	echo "note: no loop device; block-device refusals not tested"
fi

# Not something to make a filesystem on.
refuse 8 "No such file.*size" "$NEW" "$NEW"
mkdir "$WORK/dir"
refuse 8 "Is a directory" "$WORK/dir" -F "$WORK/dir" 8M
refuse 8 "not a block device or regular file" /dev/null -F /dev/null 8M
# A symbolic link to nothing: mke2fs creates the target, we refuse and
# say why (it was "File exists", from the O_EXCL create); -n alike,
# -F does not change it, and without a size it is the same answer.
ln -s target.img "$WORK/dangling.img"
ln -s /nonexistent/x.img "$WORK/nowhere.img"
dangling="is a dangling symbolic link to 'target.img' \(refusing to create its target\)$"
refuse 8 "^ext4dev: '$WORK/dangling.img': $dangling" "$WORK/target.img" \
	"$WORK/dangling.img" 16M
refuse 8 "$dangling" "$WORK/target.img" -n "$WORK/dangling.img" 16M
refuse 8 "$dangling" "$WORK/target.img" -F "$WORK/dangling.img" 16M
refuse 8 "$dangling" "$WORK/target.img" "$WORK/dangling.img"
refuse 8 "dangling symbolic link to '/nonexistent/x.img'" \
	"$WORK/nowhere.img" "$WORK/nowhere.img" 16M
check "dangling link: never 'File exists'" bash -c \
	'! "$0" mkfs "$1" 16M 2>&1 | grep -q "File exists"' "$EXT4DEV" \
	"$WORK/dangling.img"
check "dangling link: still a link to nothing" bash -c \
	'[ -L "$0" ] && [ ! -e "$0" ]' "$WORK/dangling.img"

# Impossible geometry: operational (8), naming the option; with -F too,
# on an existing file and on a missing one (which must not appear).
zero=$WORK/zero.img
truncate -s 64M "$zero"
while IFS='|' read -r pattern args; do
	# shellcheck disable=SC2086 # args is a word list on purpose
	refuse 8 "$pattern" "$zero" -F $args "$zero"
	# shellcheck disable=SC2086
	refuse 8 "$pattern" "$NEW" $args "$NEW" 64M
done <<'EOF'
-I 128.*inline_data|-I 128 -O inline_data
-C.*bigalloc|-C 16384
resize_inode and meta_bg|-O meta_bg
64bit feature needs extents|-O ^extent
-g|-g 1048576
-G.*flex_bg|-O ^flex_bg -G 4
-i.*-N|-N 4000000000
-I: a power of 2|-I 384
-I: a power of 2|-b 1024 -I 2048
-E resize=.*larger than the filesystem|-E resize=1000
-J size|-b 4096 -J size=1
-J size|-J size=60
metadata_csum_seed needs metadata_csum|-O ^metadata_csum,metadata_csum_seed
orphan_file feature needs a journal|-O ^has_journal,orphan_file
-I 128.*project quota|-I 128 -O quota,project
EOF
refuse 8 "do not fit in 32 bits.*\\^64bit" "$NEW" -O ^64bit "$NEW" 20T
refuse 8 "larger than the page size" "$NEW" -b 65536 "$NEW" 64M

# Usage errors (16): say what, point at --help, create nothing.
while IFS='|' read -r pattern args; do
	# shellcheck disable=SC2086
	refuse 16 "$pattern" "$NEW" ${args//NEWIMG/$NEW}
done <<'EOF'
no device specified|-q
unexpected argument 'extra'|NEWIMG 8M extra
invalid size '8Q'|NEWIMG 8Q
invalid block size '3000'|-b 3000 NEWIMG 8M
option '-c' is not supported|-c NEWIMG 8M
option '-S' is not supported|-S NEWIMG 8M
option '-z' is not supported|-z undo NEWIMG 8M
unknown extended option 'bogus'|-E bogus NEWIMG 8M
extended option 'android_sparse' is not supported|-E android_sparse NEWIMG 8M
invalid offset '4k'|-E offset=4k NEWIMG 8M
invalid filesystem feature list 'bogus'|-O bogus NEWIMG 8M
feature 'journal_dev' is not supported|-O journal_dev NEWIMG 8M
invalid quota type 'bogus'|-O quota -E quotatype=usr:bogus NEWIMG 8M
journal option 'device' is not supported|-J device=/dev/sdz NEWIMG 8M
invalid UUID 'xyz'|-U xyz NEWIMG 8M
-t option may only be used once|-t ext4 -t ext4 NEWIMG 8M
--production and -E test_fs|--production -E test_fs NEWIMG 8M
unrecognized option '--frobnicate'|--frobnicate NEWIMG 8M
invalid reserved blocks percent|-m 60 NEWIMG 8M
EOF
check "usage errors say Try" grep -q "Try 'ext4dev mkfs --help'" "$WORK/err"

# mke2fs.conf problems: operational, naming file and line.
conf=$WORK/bad.conf
printf '[defaults]\n\tblocksize = 4096\n\tinode_ratio = lots\n[fs_types]\next4 = {\n features = extent\n}\n' >"$conf"
MKE2FS_CONFIG=$conf refuse 8 "'$conf': line 3: 'inode_ratio' is not an integer" \
	"$NEW" "$NEW" 8M
printf '[defaults]\nx = 1\n[fs_types]\n ext4 = {\n  features = a b\n }\n' \
	>"$conf"
MKE2FS_CONFIG=$conf refuse 8 "'$conf': line 5: value of 'features'" \
	"$NEW" "$NEW" 8M
printf '[fs_types]\n ext4 = {\n  features = has_journal\n' >"$conf"
MKE2FS_CONFIG=$conf refuse 8 "'$conf': line 3: .*never closed" "$NEW" \
	"$NEW" 8M
printf '[fs_types]\n ext4 = {\n  features = no_such_feature\n }\n' >"$conf"
MKE2FS_CONFIG=$conf refuse 8 "'$conf': ext4: invalid feature list" "$NEW" \
	"$NEW" 8M
printf '[fs_types]\n ext4 = {\n  options = bogus_key\n }\n' >"$conf"
MKE2FS_CONFIG=$conf refuse 8 "\\[fs_types\\] ext4 options: unknown extended" \
	"$NEW" "$NEW" 8M
printf '[defaults]\n blocksize = 4096\n' >"$conf"
MKE2FS_CONFIG=$conf refuse 8 "does not define the filesystem type 'ext4'" \
	"$NEW" "$NEW" 8M
MKE2FS_CONFIG=$WORK/dir refuse 8 "'$WORK/dir': Is a directory" "$NEW" \
	"$NEW" 8M

finish
