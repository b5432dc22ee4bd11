#!/bin/bash
# User mounts: fstab entries with user or users, mounted by a user
# (nobody) through the real setuid mount(8), which runs mount.ext4dev
# with that user's uid and environment.  The helper must give the user
# nothing mount(8) would not give for the same entry typed ext4.  On a
# kernel without the ext4dev type nothing a user may run mounts an
# ext4dev entry as ext4, so it refuses and says why; with the type it
# hands the entry back to mount(8) as `mount -i --target DIR` (here a
# private /proc/filesystems plays that kernel).  An ext4 entry beside
# each shows what mount(8) itself gives the same user.  All of it runs
# in a private mount namespace with its own /etc/fstab (a bind mount),
# utab (a tmpfs) and /sbin (an overlay that adds the helper): the
# host's files are never touched, and every mount and loop device of
# ours is gone afterwards.
source "$(dirname "$0")/lib.sh"

USER_ID=65534
[ "$(id -u)" = 0 ] || skip "needs root to give a user an fstab and loop devices"
for tool in unshare setpriv mount umount findmnt losetup; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
grep -qw ext4dev /proc/filesystems &&
	skip "this kernel has the ext4dev type: see test/qemu for that path"
MOUNT=$(command -v mount)
[ -u "$MOUNT" ] || skip "mount is not setuid root here"
getent passwd "$USER_ID" >/dev/null || skip "no user with uid $USER_ID"
[ -f /etc/fstab ] || skip "no /etc/fstab to bind a test fstab over"
SBIN=$(readlink -f /sbin)
[ -e "$SBIN/mount.ext4dev" ] && skip "mount.ext4dev is installed in $SBIN"
if [ -z "${EXT4DEV_MOUNT_NS:-}" ]; then
	rm -rf "$WORK"
	trap - EXIT
	EXT4DEV_MOUNT_NS=1 exec unshare -m --propagation private bash "$0" ||
		skip "unshare -m not permitted here"
fi

chmod 755 "$WORK"
DIRS=(ext4 user users plain gone gone4)
cleanup() {
	for d in "${DIRS[@]}"; do
		while mountpoint -q "$WORK/m-$d" 2>/dev/null; do
			umount "$WORK/m-$d" || break
		done
	done
	detach_loops "$WORK"
	rm -rf "$WORK"
}
trap cleanup EXIT
for d in "${DIRS[@]}"; do mkdir "$WORK/m-$d"; done

# The helper where mount(8) looks, as a copy the user may run.
mkdir -m 755 "$WORK/sbin"
install -m 755 "$EXT4DEV" "$WORK/sbin/ext4dev"
ln -s ext4dev "$WORK/sbin/mount.ext4dev"
mount -t overlay overlay -o "lowerdir=$WORK/sbin:$SBIN" "$SBIN" 2>/dev/null ||
	skip "no overlayfs here to put mount.ext4dev into $SBIN"
mount -t tmpfs tmpfs /run/mount 2>/dev/null || true

"$EXT4DEV" mkfs -q "$WORK/f.img" 16M 2>/dev/null
mkimg "$WORK/p.img" 16M -t ext4
W=$WORK
cat >"$WORK/fstab" <<EOF
$W/f.img $W/m-ext4 ext4 user,noauto,noatime 0 0
$W/f.img $W/m-user ext4dev user,noauto,noatime 0 0
$W/f.img $W/m-users ext4dev users,noauto 0 0
$W/p.img $W/m-plain ext4dev user,noauto 0 0
$W/none.img $W/m-gone ext4dev user,noauto,nofail 0 0
$W/none.img $W/m-gone4 ext4 user,noauto,nofail 0 0
EOF
mount --bind "$WORK/fstab" /etc/fstab

as_user() {
	setpriv --reuid="$USER_ID" --regid="$USER_ID" --clear-groups "$@"
}
unmounted() {
	! mountpoint -q "$WORK/m-$1"
}
no_loop_left() {
	[ -z "$(losetup -j "$WORK/f.img")" ] && [ -z "$(losetup -j "$WORK/p.img")" ]
}
options() {
	findmnt -n -o OPTIONS "$WORK/m-$1" | tr , '\n' | sort
}
# user_refused DIR: our one line, with both reasons a user can check.
user_refused() {
	[ "$(wc -l <"$WORK/err")" = 1 ] &&
		grep -q "'$WORK/m-$1': only root can mount it" "$WORK/err" &&
		grep -q "no ext4dev type (see /proc/filesystems)" "$WORK/err" &&
		grep -q "runs as uid $USER_ID, not as root" "$WORK/err"
}

# What mount(8) gives the user for the entry typed ext4: the premise.
rc=
run_capture "$WORK/out" "$WORK/err" rc as_user mount "$WORK/m-ext4"
[ "$rc" = 0 ] || skip "setuid mount(8) does not mount a user entry here: $(cat "$WORK/err")"
check "ext4 user entry: mounted for the user" [ "$(findmnt -n -o FSTYPE "$WORK/m-ext4")" = ext4 ]
check "... user implies nosuid,nodev,noexec" bash -c \
	'o=$(findmnt -n -o OPTIONS "$0"); [[ ,$o, == *,nosuid,*nodev,*noexec,* ]]' "$WORK/m-ext4"
check "... the user unmounts it" as_user umount "$WORK/m-ext4"

# Root mounts the ext4dev user entry as mount(8) mounts it typed ext4.
check "root, ext4dev user entry: 0" expect_rc 0 mount "$WORK/m-user"
mount "$WORK/m-ext4"
check "... the options of the same entry typed ext4" \
	[ "$(options user)" = "$(options ext4)" ]
umount "$WORK/m-user" "$WORK/m-ext4"

# A user, on this kernel: refused, with reasons, nothing left behind.
check "user, ext4dev user entry: 1 (permissions)" expect_rc 1 as_user mount "$WORK/m-user"
check "... one line: only root, /proc/filesystems, the uid" user_refused user
check "... not mounted" unmounted user
check "... no loop device left" no_loop_left
check "user, ext4dev users entry: 1" expect_rc 1 as_user mount "$WORK/m-users"
check "... the same reasons" user_refused users
check "... not mounted" unmounted users
check "user, by source (mount IMG): 1" expect_rc 1 as_user mount "$WORK/p.img"
check "... unflagged, not mounted" unmounted plain
check "... no loop device left" no_loop_left

# nofail and a missing image: mount(8) is quiet and says 0 for ext4.
check "user, ext4 nofail entry, missing image: 0" expect_rc 0 as_user mount "$WORK/m-gone4"
check "... quietly" [ ! -s "$WORK/err" ]
check "user, ext4dev nofail entry, missing image: 0, as ext4" expect_rc 0 \
	as_user mount "$WORK/m-gone"
check "... quietly" [ ! -s "$WORK/err" ]

# The user's environment chooses nothing: not the mount program, not
# the kernel's filesystem list, not $PATH.
mkdir -m 755 "$WORK/bin"
printf '#!/bin/sh\necho EVIL >&2\nexit 0\n' >"$WORK/bin/mount"
chmod 755 "$WORK/bin/mount"
printf 'nodev\tproc\n\text4\n\text4dev\n' >"$WORK/filesystems"
chmod 644 "$WORK/filesystems"
check "user, EXT4DEV_MOUNT, EXT4DEV_PROC_FILESYSTEMS, PATH set: still 1" \
	expect_rc 1 as_user env EXT4DEV_MOUNT="$WORK/bin/mount" \
	EXT4DEV_PROC_FILESYSTEMS="$WORK/filesystems" PATH="$WORK/bin:$PATH" \
	"$MOUNT" "$WORK/m-user"
check "... the same line" user_refused user
check "... no program of the caller's ran" bash -c '! grep -q EVIL "$0"' "$WORK/err"
check "... not mounted" unmounted user

# A kernel with the type (its /proc/filesystems, in this namespace):
# the helper runs the setuid mount(8) as the user could, and mount(8)
# takes the entry from fstab with root's rights and the entry's type.
# This kernel has no ext4dev, so mount(2) says so, which proves it.
if mount --bind "$WORK/filesystems" /proc/filesystems 2>/dev/null; then
	check "kernel with ext4dev, user entry: mount(2)'s 32" expect_rc 32 \
		as_user mount "$WORK/m-user"
	check "... mount(8) mounted the entry's type itself (-i)" \
		grep -q "unknown filesystem type 'ext4dev'" "$WORK/err"
	check "... with root's rights (no dropped-rights failure)" bash -c \
		'! grep -Eq "superuser|only root|failed to setup loop" "$0"' "$WORK/err"
	check "... not our refusal" bash -c '! grep -q "only root can mount it" "$0"' "$WORK/err"
	check "... no loop device left" no_loop_left
	umount /proc/filesystems
else
	echo "note: cannot bind over /proc/filesystems; the kernel-type path is not checked"
fi

# Made setuid by mistake, the helper still answers a user with the
# user's rights: an image only root may read is not read for him.
mkdir -m 755 "$WORK/suid"
install -m 4755 "$EXT4DEV" "$WORK/suid/mount.ext4dev"
mkimg "$WORK/secret.img" 16M -t ext4
chmod 600 "$WORK/secret.img"
if [[ ,$(findmnt -n -o OPTIONS -T "$WORK/suid"), == *,nosuid,* ]]; then
	echo "note: $WORK is on a nosuid filesystem; a setuid helper is not checked"
else
	check "setuid helper, image only root reads: 1, the user's refusal" \
		expect_rc 1 as_user "$WORK/suid/mount.ext4dev" \
		"$WORK/secret.img" "$WORK/m-plain"
	check "... not a verdict on the image" user_refused plain
fi

check "every mount of ours is gone" bash -c \
	'! findmnt -rn -o TARGET | grep -q "^$0/m-"' "$WORK"
check "every loop device of ours is gone" no_loop_left
check "the image keeps its flag" "$EXT4DEV" show-flags --check test "$WORK/f.img"

finish
