#!/bin/bash
# mark-*: idempotence, --dry-run, --quiet, messages, the undo file.
source "$(dirname "$0")/lib.sh"

IMG=$WORK/fs.img
mkimg "$IMG" 64M -t ext4 -b 1024

# Already in the wanted state: no write at all, bytes and mtime kept.
touch -d @1600000000 "$IMG"
no_write_when_already() {
	local before out
	before=$(sha "$IMG")
	out=$("$EXT4DEV" mark-production "$IMG")
	[ "$out" = "$IMG: test filesystem flag already clear" ] &&
		[ "$(sha "$IMG")" = "$before" ] &&
		[ "$(stat -c %Y "$IMG")" = 1600000000 ]
}
check "already clear: nothing written" no_write_when_already

dry_run_writes_nothing() {
	local before out
	before=$(sha "$IMG")
	out=$("$EXT4DEV" mark-test --dry-run "$IMG")
	[ "$out" = "$IMG: test filesystem flag would be set" ] &&
		[ "$(sha "$IMG")" = "$before" ] &&
		[ "$(stat -c %Y "$IMG")" = 1600000000 ]
}
check "--dry-run: nothing written" dry_run_writes_nothing

check "set: says so" [ "$("$EXT4DEV" mark-test "$IMG")" = "$IMG: test filesystem flag set" ]
check "set: dumpe2fs agrees" grep -q test_filesystem <(dumpe2fs_flags "$IMG")
check "blkid: ext4dev" [ "$(blkid_type "$IMG")" = ext4dev ]
check "set again: already set" [ "$("$EXT4DEV" mark-test "$IMG")" = "$IMG: test filesystem flag already set" ]
check "-q: silent" [ -z "$("$EXT4DEV" mark-production -q "$IMG")" ]
check "cleared: blkid says ext4" [ "$(blkid_type "$IMG")" = ext4 ]
check "e2fsck -fn clean" e2fsck -fn "$IMG" &>/dev/null

# -z: an e2undo file that puts back the exact original bytes.
# A new undo file for each image: one made for another filesystem is
# refused (see undo.sh).
undo_restores() {
	local before undo=$WORK/undo.$RANDOM
	before=$(sha "$IMG")
	"$EXT4DEV" mark-test -q -z "$undo" "$IMG" &&
		[ "$(sha "$IMG")" != "$before" ] &&
		e2undo "$undo" "$IMG" >/dev/null &&
		[ "$(sha "$IMG")" = "$before" ]
}
check "undo file: e2undo restores every byte" undo_restores
for copy in 1k-meta "4k"; do
	if [ $copy = 4k ]; then
		mkimg "$WORK/u.img" 256M -t ext4 -b 4096 -g 1024
	else
		mkimg "$WORK/u.img" 64M -t ext4 -b 1024 -O meta_bg,^resize_inode
	fi
	IMG=$WORK/u.img check "undo file ($copy)" undo_restores
done

# Several devices, one -z: refused before anything is touched.
check "-z with two devices: usage error" bash -c \
	'"$0" mark-test -z "$1" "$2" "$2"; [ $? = 16 ]' \
	"$EXT4DEV" "$WORK/undo2" "$IMG"
check "nothing written for the refused -z" [ ! -e "$WORK/undo2" ]

finish
