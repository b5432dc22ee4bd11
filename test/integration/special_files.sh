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

# expect_refused WHAT PATH COMMAND...: rc 8 (mount.ext4dev: mount(8)'s
# 32) within 5 s, naming PATH as not a block device or regular file
# (the /dev/null message).
expect_refused() {
	local what=$1 path=$2 rc=0 out want=8
	shift 2
	[[ $what != mount* ]] || want=32
	out=$(timeout 5 "$@" 2>&1) || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$what: rc $rc, want $want: $out"
	elif ! grep -q "'$path': not a block device or regular file" \
		<<<"$out"; then
		fail "$what: message: $out"
	else
		pass
	fi
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
for p in fifo sock /dev/zero; do
	for cmd in mark-test mark-production; do
		rc=0
		out=$(timeout 5 "$EXT4DEV" "$cmd" -z "$p" img 2>&1) || rc=$?
		[ "$rc" -eq 8 ] || fail "$cmd -z $p: rc $rc: $out"
		want_cmd=$(sed "s|mark-test|$cmd|" <<<"$want")
		[ "$(sed "s|$p|P|" <<<"$out")" = "$want_cmd" ] ||
			fail "$cmd -z $p: '$out', want like '$want_cmd'"
		pass
	done
done
[ -p fifo ] && [ -S sock ] || fail "the FIFO or socket was replaced"
finish
