#!/bin/bash
# ext4dev mkfs -d DIR against mke2fs -t ext4 -E test_fs -d DIR, UUID,
# hash seed and clock fixed: the same bytes, for a tree with every kind
# of file mke2fs copies (a sparse file past 4 GiB, a file capability and
# security.* among them), over the options that change how it lands
# (block size, inline data, no extents, root_owner, an offset); e2fsck
# -fn clean;
# and the errors: a missing DIR writes nothing, a tree that does not fit
# names the file and leaves nothing blkid would take for a filesystem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

U=0e4de000-1111-4222-8333-444455556666
T=$WORK/tree

# A tree with one of everything, made the same way every run.
make_tree() {
	mkdir -p "$T/dir/sub" "$T/wide" "$T/lost+found"
	echo hello >"$T/dir/small"
	head -c 300000 /dev/zero | tr '\0' 'a' >"$T/dir/sub/large"
	: >"$T/empty"
	truncate -s 10M "$T/sparse"
	echo tail | dd of="$T/sparse" bs=1 seek=5000000 conv=notrunc status=none
	ln -s small "$T/dir/fast-link"
	ln -s "$(printf 'target%.0s' {1..40})" "$T/slow-link"
	ln "$T/dir/small" "$T/hard-link"
	mkfifo "$T/fifo"
	python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$T/socket"
	touch "$T/$(printf 'name\xff-not-utf8')" "$T/$(printf 'L%.0s' {1..255})"
	for i in $(seq 1 400); do echo "$i" >"$T/wide/entry-with-a-longer-name-$i"; done
	mkdir -p "$T/deep/$(printf 'd/%.0s' {1..40})"
	echo bottom >"$T/deep/$(printf 'd/%.0s' {1..40})bottom"
	# Past 4 GiB: 64-bit sizes, and (no extents) triple indirect blocks.
	truncate -s 5G "$T/huge-sparse"
	echo far | dd of="$T/huge-sparse" bs=1 seek=4500000000 conv=notrunc status=none
	echo found >"$T/lost+found/kept"
	if [ "$(id -u)" = 0 ]; then
		mknod "$T/char" c 1 3
		mknod "$T/block" b 7 200
		chown 1000:2000 "$T/dir"
		setfattr -n trusted.x -v 1 "$T/dir"
		# A file capability (cap_net_raw+ep, VFS revision 2), as
		# setcap writes it, and a security.* name no LSM owns.
		echo far >"$T/ping"
		setfattr -n security.capability \
			-v 0x0100000200200000000000000000000000000000 "$T/ping"
		setfattr -n security.ext4dev -v label "$T/ping"
	fi
	setfattr -n user.note -v "a value" "$T/dir/small"
	setfacl -m u:1234:rw "$T/empty"
	touch -d @1600000000 "$T/dir/small"
	# Both tools copy atime, and reading a file or directory moves it
	# (relatime: while it is not after mtime) between the two runs.  An
	# atime in the future never moves.
	find "$T" -exec touch -h -a -d @2000000000 {} +
}

# pair NAME OPTS...: both tools on the tree, same bytes, e2fsck clean.
pair() {
	local name=$1 e="" off=0
	shift
	if [ "${1:-}" = -E ]; then e=",$2"; shift 2; fi
	[[ $e =~ offset=([0-9]+) ]] && off=${BASH_REMATCH[1]}
	rm -f "$WORK/$name.ref" "$WORK/$name.img"
	mke2fs -q -F -t ext4 -U "$U" -E "test_fs,hash_seed=$U$e" -d "$T" "$@" \
		"$WORK/$name.ref" 64M >"$WORK/ref.out" 2>&1 ||
		{ diag <"$WORK/ref.out"; fail "$name: mke2fs -d makes the reference"; return; }
	check "$name: ext4dev mkfs -d succeeds" expect_rc 0 "$EXT4DEV" mkfs -q \
		-U "$U" -E "hash_seed=$U$e" -d "$T" "$@" "$WORK/$name.img" 64M
	check "$name: byte-identical to mke2fs -d's" \
		python3 "$PYLIB" same-bytes "$WORK/$name.ref" "$WORK/$name.img" "$off"
	check "$name: e2fsck -fn clean" fsck_clean "$WORK/$name.img?offset=$off"
	rm -f "$WORK/$name.ref"
}

make_tree
pair default
pair bs1024 -b 1024
pair inline -O inline_data
pair no-extents -O ^extent,^64bit
pair root-owner -E root_owner=1000:2000
pair no-csum -O ^metadata_csum
pair offset -E offset=1048576

# What the files hold, read back through debugfs (no mount needed).
check_eq "the copy holds the large file's bytes" \
	"$(debugfs -R "cat /dir/sub/large" "$WORK/default.img" 2>/dev/null | sha256sum)" \
	"$(sha256sum <"$T/dir/sub/large")"
check_eq "the hard link is one inode with two names" \
	"$(debugfs -R "stat /hard-link" "$WORK/default.img" 2>/dev/null | grep -o 'Links: [0-9]*')" \
	"Links: 2"
# bytes_at IMG FILE OFFSET LEN: LEN bytes of FILE at OFFSET, found with
# bmap (reading 5 GiB of holes through debugfs would take seconds).
bytes_at() {
	local bs block
	bs=$(dumpe2fs -h "$1" 2>/dev/null | awk '/^Block size:/ {print $3}')
	block=$(debugfs -R "bmap $2 $(($3 / bs))" "$1" 2>/dev/null)
	[ -n "$block" ] && [ "$block" != 0 ] || return 0
	dd if="$1" bs=1 skip=$((block * bs + $3 % bs)) count="$4" status=none
}
for img in default no-extents; do
	check_eq "$img: the copy holds the bytes past 4 GiB" \
		"$(bytes_at "$WORK/$img.img" /huge-sparse 4500000000 3)" far
	check_eq "$img: the copy's size is past 4 GiB" \
		"$(debugfs -R "stat /huge-sparse" "$WORK/$img.img" 2>/dev/null |
			grep -o 'Size: [0-9]*' | head -n 1)" "Size: 5368709120"
done
# ea_list prints name=value pairs; look for the name.
has_xattr() {
	debugfs -R "ea_list $2" "$1" 2>/dev/null | grep -qF "$3"
}
check_eq "the user.* attribute is copied" \
	"$(debugfs -R 'ea_get -V /dir/small user.note' "$WORK/default.img" 2>/dev/null)" \
	"a value"
check "the ACL is copied" has_xattr "$WORK/default.img" /empty system.posix_acl_access
if [ "$(id -u)" = 0 ]; then
	check "the trusted.* attribute is copied" has_xattr "$WORK/default.img" /dir trusted.x
	check "the file capability is copied" \
		has_xattr "$WORK/default.img" /ping security.capability
	check_eq "the security.* attribute is copied" \
		"$(debugfs -R 'ea_get -V /ping security.ext4dev' "$WORK/default.img" 2>/dev/null)" \
		"label"
fi

# A missing DIR: refused before anything is written.
cp "$WORK/default.img" "$WORK/kept.img"
before=$(sha256sum <"$WORK/kept.img")
check "a missing DIR: exit 8" expect_rc 8 "$EXT4DEV" mkfs -q -F -d "$WORK/nosuch" "$WORK/kept.img"
check "a missing DIR: names it" grep -q "nosuch': No such file or directory" "$WORK/err"
check_eq "a missing DIR: the image is unchanged" "$(sha256sum <"$WORK/kept.img")" "$before"
check "a file as DIR: exit 8" expect_rc 8 "$EXT4DEV" mkfs -q -F -d "$T/empty" "$WORK/kept.img"
check_eq "a file as DIR: the image is unchanged" "$(sha256sum <"$WORK/kept.img")" "$before"

# A tree that does not fit: the file named, nothing blkid takes for ext4.
mkdir "$WORK/big"
head -c 20000000 /dev/zero | tr '\0' 'b' >"$WORK/big/too-big"
check "a tree too big: exit 8" expect_rc 8 "$EXT4DEV" mkfs -q -F -d "$WORK/big" "$WORK/kept.img" 16M
check "a tree too big: names the file and says the device is full" \
	grep -q "too-big': No space left on device" "$WORK/err"
check_eq "a tree too big: blkid finds no filesystem" \
	"$(blkid -p -o value -s TYPE "$WORK/kept.img" 2>/dev/null)" ""

# Deeper than PATH_MAX: 100 directories of 62-byte names (6,300 bytes
# of path), copied as mke2fs -d copies them (it walks with chdir()).
T=$WORK/deep
mkdir "$T"
python3 "$PYLIB" deep-tree "$T" 100
pair deep
deep_path=
for _ in $(seq 100); do deep_path+=/$(printf 'd%.0s' {1..62}); done
check_eq "deep: the bottom file's bytes, 100 directories down" \
	"$(debugfs -R "cat $deep_path/bottom" "$WORK/deep.img" 2>/dev/null)" deep
# An error that deep names the entry in one short line, its middle
# elided.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	bottom=$(cd "$T" && python3 -c 'import os
n = "d" * 62
for _ in range(100): os.chdir(n)
os.chmod("bottom", 0)
print("ok")')
	chmod 755 "$WORK"
	rm -f "$WORK/nobody.img" && truncate -s 64M "$WORK/nobody.img"
	chown 65534 "$WORK/nobody.img"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$EXT4DEV" mkfs -q \
		-F -d "$T" "$WORK/nobody.img" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check_eq "deep, unreadable: exit 8" "$rc/$bottom" 8/ok
	check "deep, unreadable: one line naming the bottom file" \
		grep -q "^ext4dev: '$T/d.*\\.\\.\\..*/bottom': Permission denied$" "$WORK/err"
	check_eq "deep, unreadable: one line of at most 300 bytes" \
		"$(wc -l <"$WORK/err")/$(($(wc -c <"$WORK/err") <= 300))" 1/1
fi

finish
