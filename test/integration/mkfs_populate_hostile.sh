#!/bin/bash
# ext4dev mkfs -d on trees that fight back: nothing may block or crash,
# and each failure is one line naming the file, exit 8, with nothing
# left that blkid takes for a filesystem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mkfs_lib.sh"

T=$WORK/tree
IMG=$WORK/img

# mkfs_d TIMEOUT ARGS...: mkfs -d, killed if it blocks; its exit status.
mkfs_d() {
	local t=$1 rc=0
	shift
	timeout "$t" "$EXT4DEV" mkfs -q -F "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	echo "$rc"
}

nothing_left() {
	[ -z "$(blkid -p -o value -s TYPE "$IMG" 2>/dev/null)" ] ||
		{ echo "blkid finds $(blkid -p -o value -s TYPE "$IMG")"; return 1; }
}

# A symbolic link loop and a FIFO nobody writes: copied, not followed or
# opened.
mkdir -p "$T"
ln -s b "$T/a"
ln -s a "$T/b"
ln -s . "$T/self"
mkfifo "$T/fifo"
truncate -s 32M "$IMG"
check_eq "links in a loop and a FIFO: copied, nothing blocks" \
	"$(mkfs_d 30 -d "$T" "$IMG")" 0
check_eq "the FIFO is a FIFO in the copy" \
	"$(debugfs -R "stat /fifo" "$IMG" 2>/dev/null | grep -o 'Type: [A-Za-z]*')" "Type: FIFO"
check_eq "the loop is two links in the copy" \
	"$(debugfs -R "stat /a" "$IMG" 2>/dev/null | grep -o 'Type: [A-Za-z]*')" "Type: symlink"

# A file that grows while it is copied: mkfs finishes, e2fsck is clean.
rm -rf "$T" && mkdir -p "$T"
: >"$T/growing"
( for _ in $(seq 1 400); do head -c 65536 /dev/zero | tr '\0' g >>"$T/growing"; done ) &
writer=$!
check_eq "a file growing while copied: mkfs finishes" "$(mkfs_d 60 -d "$T" "$IMG")" 0
wait "$writer"
check "a file growing while copied: e2fsck -fn clean" e2fsck -fn "$IMG"
debugfs -R "cat /growing" "$IMG" >"$WORK/copy" 2>/dev/null
check "a file growing while copied: the copy holds only the file's bytes" \
	test "$(tr -d g <"$WORK/copy" | wc -c)" = 0
check "a file growing while copied: the copy is no longer than the file" \
	test "$(stat -c %s "$WORK/copy")" -le "$(stat -c %s "$T/growing")"

# Files that vanish while the tree is read: mkfs finishes or names one,
# exit 8, and never blocks.
rm -rf "$T" && mkdir -p "$T"
for i in $(seq 1 300); do echo "$i" >"$T/f$i"; done
( for _ in $(seq 1 50); do for i in $(seq 1 300); do rm -f "$T/f$i"; echo x >"$T/f$i"; done; done ) &
churn=$!
rc=$(mkfs_d 60 -d "$T" "$IMG")
kill "$churn" 2>/dev/null || true
wait "$churn" 2>/dev/null || true
case $rc in
0) pass "files vanishing while copied: mkfs finished" ;;
8) check "files vanishing while copied: the error names a file" grep -q "'$T/f[0-9]*'" "$WORK/err"
   check "files vanishing while copied: nothing blkid takes for a filesystem" nothing_left ;;
*) fail "files vanishing while copied: exit $rc ($(cat "$WORK/err"))" ;;
esac

# Not root: a file and a directory it cannot read.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
	chmod 755 "$WORK"
	for what in file dir; do
		rm -rf "$T" && mkdir -p "$T/open"
		echo ok >"$T/open/readable"
		if [ "$what" = file ]; then
			echo secret >"$T/open/secret" && chmod 000 "$T/open/secret"
			want="$T/open/secret"
		else
			mkdir "$T/open/closed" && chmod 000 "$T/open/closed"
			want="$T/open/closed"
		fi
		rm -f "$IMG" && truncate -s 32M "$IMG" && chown 65534 "$IMG"
		rc=0
		as_nobody "$EXT4DEV" mkfs -q -F -d "$T" "$IMG" >"$WORK/out" 2>"$WORK/err" || rc=$?
		check_eq "an unreadable $what, not root: exit 8" "$rc" 8
		check "an unreadable $what, not root: the error names it" \
			grep -qF "'$want': Permission denied" "$WORK/err"
		check "an unreadable $what, not root: nothing blkid takes for a filesystem" \
			nothing_left
	done
	# Special files need no privilege to copy: they are only stat()ed,
	# never opened or made on the host.  Not root, the same bytes as
	# mke2fs's, also not root.
	rm -rf "$T" && mkdir -p "$T"
	cp -a /dev/null "$T/null"
	mkfifo "$T/fifo"
	python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$T/socket"
	chmod -R a+rX "$T"
	U=0e4de000-1111-4222-8333-444455556666
	for img in "$IMG" "$IMG.ref"; do
		rm -f "$img" && truncate -s 32M "$img" && chown 65534 "$img"
	done
	rc=0
	as_nobody "$EXT4DEV" mkfs -q -F -U "$U" -E "hash_seed=$U" -d "$T" "$IMG" \
		>"$WORK/out" 2>"$WORK/err" || rc=$?
	check_eq "device, FIFO and socket, not root: exit 0" "$rc" 0
	as_nobody mke2fs -q -F -t ext4 -U "$U" -E "test_fs,hash_seed=$U" -d "$T" \
		"$IMG.ref" >/dev/null 2>&1
	check "device, FIFO and socket, not root: the same bytes as mke2fs's" \
		python3 "$PYLIB" same-bytes "$IMG.ref" "$IMG"
else
	diag <<<"not root, or no setpriv: the unreadable-file cases not run"
fi

finish
