#!/bin/bash
# ext4dev mkfs as users meet it: the mkfs.ext4dev name and mkfs -t
# ext4dev, what it prints (checked against dumpe2fs and mke2fs -n -v),
# -q, -n, --production, --help and -V.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

U=0e4de000-1111-4222-8333-444455556666
IMG=$WORK/a.img

# The summary against what dumpe2fs finds in the result.
rc='' rc_real=''
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs "$IMG" 256M
check "mkfs: exit 0" [ "$rc" = 0 ]
# (but the e2fsck.conf warning, which integration.fsck_warn checks)
check "mkfs: nothing on stderr" [ -z "$(grep -v '^ext4dev: warning: e2fsck clears' "$WORK/err")" ]
read -r blocks kb inodes < <(sed -n \
	's/^Creating filesystem with \([0-9]*\) \([0-9]*\)k blocks and \([0-9]*\) inodes$/\1 \2 \3/p' \
	"$WORK/out")
check "says the block count" [ "$blocks" = "$(field "$IMG" 'Block count')" ]
check "says the block size" [ "$((kb * 1024))" = "$(field "$IMG" 'Block size')" ]
check "says the inode count" [ "$inodes" = "$(field "$IMG" 'Inode count')" ]
check "says the UUID" grep -qx "Filesystem UUID: $(field "$IMG" 'Filesystem UUID')" \
	"$WORK/out"
said=$(sed -n '/^Superblock backups/,/^$/p' "$WORK/out" | tail -n +2 |
	tr -d ' \t\n' | tr ',' ' ')
check "lists the backup superblocks" \
	[ "$said" = "$(backup_superblocks "$IMG" | tr '\n' ' ' | sed 's/ $//')" ]
check "says the journal size" grep -qx \
	"Creating journal ($(field "$IMG" 'Total journal blocks') blocks): done" \
	"$WORK/out"
check "says the flag is set" grep -qx "$IMG: test filesystem flag set" \
	"$WORK/out"
check "the flag is set" grep -q test_filesystem <(field "$IMG" 'Filesystem flags')
check "show-flags agrees" bash -c \
	'"$0" show-flags "$1" | grep -q test_filesystem' "$EXT4DEV" "$IMG"

# -v prints what mke2fs -v prints (no progress counters).
: >"$WORK/v.ref"
mke2fs -n -v -F -t ext4 -U "$U" "$WORK/v.ref" 64M 2>/dev/null |
	grep -v '^Creating regular file' >"$WORK/ref.n"
"$EXT4DEV" mkfs -n -v -U "$U" "$WORK/v.img" 64M >"$WORK/img.n"
check "-n -v: mke2fs's lines first" \
	diff -u "$WORK/ref.n" <(head -n "$(wc -l <"$WORK/ref.n")" "$WORK/img.n")
check "-n: says the journal size" grep -qx 'Journal size: 4096 blocks' \
	"$WORK/img.n"
check "-n: creates nothing" [ ! -e "$WORK/v.img" ]

# -n over a filesystem without -F: refused as the real run is, with the
# same message and exit code; with -F: the layout, no write.
before=$(sha "$IMG")
run_capture "$WORK/out" "$WORK/err.real" rc_real "$EXT4DEV" mkfs "$IMG"
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -n "$IMG"
check "-n over ext4dev: exit 8 like the real run" [ "$rc" = 8 ] && [ "$rc_real" = 8 ]
check "-n over ext4dev: the real run's message" cmp -s "$WORK/err" "$WORK/err.real"
check "-n over ext4dev: names it" grep -q "contains an existing ext4dev" \
	"$WORK/err"
check "-n over ext4dev: unchanged" [ "$(sha "$IMG")" = "$before" ]
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -n -F "$IMG"
check "-n -F over ext4dev: exit 0" [ "$rc" = 0 ]
check "-n -F over ext4dev: unchanged" [ "$(sha "$IMG")" = "$before" ]
check "-n: would be set" grep -qx "$IMG: test filesystem flag would be set" \
	"$WORK/out"

# -q: silent.
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -q -F "$IMG"
check "-q: exit 0" [ "$rc" = 0 ]
check "-q: silent" [ ! -s "$WORK/out" ] && check "-q: no warnings" [ ! -s "$WORK/err" ]

# --production: the flag stays clear, blkid says ext4.
run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" mkfs -F --production "$IMG"
check "--production: exit 0" [ "$rc" = 0 ]
check "--production: says so" grep -qx "$IMG: test filesystem flag left clear" \
	"$WORK/out"
check "--production: blkid says ext4" [ "$(blkid_type "$IMG")" = ext4 ]

# The mkfs.ext4dev name, and util-linux's mkfs finding it in $PATH.
rm -f "$IMG"
check "mkfs.ext4dev: exit 0" "$MKFS_LINK" -q "$IMG" 64M
check "mkfs.ext4dev: blkid says ext4dev" [ "$(blkid_type "$IMG")" = ext4dev ]
check "mkfs.ext4dev: e2fsck -fn clean" e2fsck -fn "$IMG" >/dev/null 2>&1
check "mkfs.ext4dev --help names it" bash -c \
	'"$0" --help | grep -q "mkfs.ext4dev \[options\]"' "$MKFS_LINK"
if command -v mkfs >/dev/null; then
	rm -f "$IMG"
	check "mkfs -t ext4dev: exit 0" env PATH="$(dirname "$EXT4DEV"):$PATH" \
		mkfs -t ext4dev -q "$IMG" 64M
	check "mkfs -t ext4dev: blkid says ext4dev" \
		[ "$(blkid_type "$IMG")" = ext4dev ]
	check "mkfs -t ext4dev: e2fsck -fn clean" \
		e2fsck -fn "$IMG" >/dev/null 2>&1
	check "mkfs -t ext4dev: same header as mke2fs" bash -c '
		mke2fs -q -F -t ext4 -E test_fs "$1.ref" 64M >/dev/null 2>&1 &&
		diff <(dumpe2fs -h "$1.ref" 2>/dev/null | grep -vE "$2") \
		     <(dumpe2fs -h "$1" 2>/dev/null | grep -vE "$2")' \
		_ "$IMG" "$VOLATILE"
else
	echo "note: util-linux mkfs not found; mkfs -t ext4dev not tested"
fi

# Help and version.
check "--help: exit 0, usage" bash -c \
	'"$0" mkfs --help | grep -q "^ ext4dev mkfs \[options\]"' "$EXT4DEV"
check "-V: version with libext2fs's" bash -c \
	'"$0" mkfs -V | grep -qE "^ext4dev [0-9.]+ \(libext2fs [0-9.]+\)$"' \
	"$EXT4DEV"
check "man page mentions mkfs.ext4dev" grep -q 'mkfs.ext4dev' "$EXT4DEV_MAN"

finish
