#!/bin/bash
# A FIFO, a socket or a character device is never opened (a FIFO would
# block, a tape would rewind): every command, personality and -z path
# refuses it at once with the message it gives for /dev/null, rc 8.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

mkfifo fifo
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
ln -s "$EXT4DEV" mkfs.ext4dev
ln -s "$EXT4DEV" fsck.ext4dev
ln -s "$EXT4DEV" ext4dev-show-flags
ln -s "$EXT4DEV" mount.ext4dev
mkdir mnt
mkimg img 8M -t ext4

# refused WANT PATH COMMAND...: rc WANT within 5 s, naming PATH as not
# a block device or regular file (the /dev/null message).
refused() {
	local want=$1 path=$2 rc=0 out
	shift 2
	out=$(timeout 5 "$@" 2>&1) || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "rc $rc, want $want: $out"
		return 1
	fi
	if ! grep -q "'$path': not a block device or regular file" <<<"$out"
	then
		echo "message: $out"
		return 1
	fi
}

# expect_refused WHAT PATH COMMAND...: one result, refused with rc 8
# (mount.ext4dev: mount(8)'s 32).
expect_refused() {
	local what=$1 want=8
	shift
	[[ $what != mount* ]] || want=32
	check "$what: refused at once, rc $want" refused "$want" "$@"
}

for p in fifo sock /dev/zero /dev/null; do
	expect_refused "show-flags $p" "$p" "$EXT4DEV" show-flags "$p"
	expect_refused "show-flags --check $p" "$p" \
		"$EXT4DEV" show-flags --check test "$p"
	expect_refused "show-flags --wait $p" "$p" \
		"$EXT4DEV" show-flags --wait 1 "$p"
	expect_refused "ext4dev-show-flags $p" "$p" ./ext4dev-show-flags "$p"
	expect_refused "mark-test $p" "$p" "$EXT4DEV" mark-test "$p"
	expect_refused "mark-test -n $p" "$p" "$EXT4DEV" mark-test -n "$p"
	expect_refused "mark-production $p" "$p" \
		"$EXT4DEV" mark-production "$p"
	expect_refused "mark-production -n $p" "$p" \
		"$EXT4DEV" mark-production -n "$p"
	expect_refused "mkfs $p" "$p" "$EXT4DEV" mkfs "$p" 8M
	expect_refused "mkfs -n $p" "$p" "$EXT4DEV" mkfs -n "$p" 8M
	expect_refused "mkfs.ext4dev $p" "$p" ./mkfs.ext4dev -F "$p" 8M
	expect_refused "fsck $p" "$p" "$EXT4DEV" fsck -n "$p"
	expect_refused "fsck.ext4dev $p" "$p" ./fsck.ext4dev -p "$p"
	expect_refused "mount.ext4dev $p" "$p" ./mount.ext4dev "$p" mnt
	expect_refused "mount.ext4dev -o ro $p" "$p" \
		./mount.ext4dev "$p" mnt -o ro
done

# -z: the message -z /dev/null gives, and the image is left alone.
want=$("$EXT4DEV" mark-test -z /dev/null img 2>&1 | sed 's|/dev/null|P|') ||
	true
# undo_refused CMD P: CMD -z P img fails with rc 8 and the message of
# -z /dev/null, within 5 s.
undo_refused() {
	local cmd=$1 p=$2 rc=0 out want_cmd
	out=$(timeout 5 "$EXT4DEV" "$cmd" -z "$p" img 2>&1) || rc=$?
	if [ "$rc" -ne 8 ]; then
		echo "rc $rc: $out"
		return 1
	fi
	want_cmd=$(sed "s|mark-test|$cmd|" <<<"$want")
	if [ "$(sed "s|$p|P|" <<<"$out")" != "$want_cmd" ]; then
		echo "'$out', want like '$want_cmd'"
		return 1
	fi
}
for p in fifo sock /dev/zero; do
	for cmd in mark-test mark-production; do
		check "$cmd -z $p: refused as -z /dev/null is, rc 8" \
			undo_refused "$cmd" "$p"
	done
done

# still_there: the FIFO and the socket, as they were made.
still_there() {
	[ -p fifo ] && [ -S sock ] && return 0
	ls -l fifo sock 2>&1
	return 1
}
check "the FIFO and the socket are left alone" still_there
finish
