# shellcheck shell=dash
# TESTS is read by guest/run; run() in lib.sh sets $rc and $out.
# shellcheck disable=SC2034,SC2154
# The checks of the normal boot (no require_test_fs).  The host attaches
# one image per role, named by the virtio serial (see test/qemu/boots/normal.sh):
#   tune2fs      flagged on the host by "tune2fs -E test_fs"
#   main         /dev/vdb, made by the host with "mke2fs -E test_fs" (or
#                blank, for "ext4dev mkfs" in the guest: ext4dev.mkfs=guest)
#   m1k_csum, m1k_nocsum, m4k_csum, m4k_nocsum, nojournal
#                the format matrix, all flagged
#   label        unflagged, with the LABEL and UUID the host passes as
#                ext4dev.label= and ext4dev.uuid= on the kernel command line
#   untouched    unflagged; every mount must be refused, and the host checks
#                afterwards that not a byte of it changed
#   readonly     flagged, attached with readonly=on: the kernel marks it
#                read-only, and every change must be refused, bytes unchanged
# and one virtio-scsi disk with a GPT table, for the part_* checks
# (guest/parts.sh).
# The tests on "main" build on each other and run in this order.

TESTS="mkfs_mount_ext4dev production_refused mark_test_mounts_again
mark_refused_while_mounted show_flags_matches_sysfs automount_by_blkid
host_tune2fs_flagged matrix_1k_csum matrix_1k_nocsum matrix_4k_csum
matrix_4k_nocsum matrix_nojournal label_uuid refused_mount_untouched
read_only_disk part_table part_mkfs_mark part_whole_disk_refused part_mounted_refused
part_show_flags_sysfs part_mount_helper part_partuuid_partlabel
part_table_unchanged"

LABEL=$(cmdline_value ext4dev.label)
LABEL_UUID=$(cmdline_value ext4dev.uuid)

expect_rc() {
	local want=$1

	shift
	run "$@"
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want: $out"
}

expect_flag() {
	local state=$1 dev=$2

	run ext4dev show-flags --check "$state" "$dev"
	[ "$rc" = 0 ] ||
		fail "$dev is not flagged '$state' (show-flags --check: $rc): $(ext4dev show-flags "$dev" 2>&1)"
}

# 1. A fresh flagged filesystem mounts as ext4dev and keeps its data.
t_mkfs_mount_ext4dev() {
	local dev

	dev=$(disk main)
	if [ "$(cmdline_value ext4dev.mkfs)" = guest ]; then
		expect_rc 0 ext4dev mkfs "$dev"
	fi
	expect_flag test "$dev"
	expect_mount ext4dev "$dev"
	write_files main
	expect_umount
	expect_mount ext4dev "$dev"
	verify_files main
	expect_umount
}

# 2. Cleared flag: ext4dev refuses with EINVAL and the gate's line, ext4
#    still mounts it and the data is intact.
t_production_refused() {
	local dev

	dev=$(disk main)
	expect_rc 0 ext4dev mark-production "$dev"
	expect_flag production "$dev"
	expect_refused ext4dev "$dev" ext4dev
	expect_mount ext4 "$dev"
	verify_files main
	expect_umount
}

# 3. Flag set again: ext4dev mounts it again.
t_mark_test_mounts_again() {
	local dev

	dev=$(disk main)
	expect_rc 0 ext4dev mark-test "$dev"
	expect_flag test "$dev"
	expect_mount ext4dev "$dev"
	verify_files main
	expect_umount
}

# 4. The tool refuses to change a mounted filesystem (exit 8, "is mounted"),
#    and the mount goes on working.
t_mark_refused_while_mounted() {
	local dev cmd

	dev=$(disk main)
	expect_mount ext4dev "$dev"
	# mkfs -F too: -F overrides a signature, never a mount.
	for cmd in mark-production mark-test "mkfs -F"; do
		# shellcheck disable=SC2086 # "mkfs -F" is two words
		expect_rc 8 ext4dev $cmd "$dev"
		case $out in
		*"is mounted"*) note "$cmd refused: $out" ;;
		*) fail "$cmd on a mounted device: no 'is mounted' in: $out" ;;
		esac
	done
	write_files while_mounted
	verify_files main
	expect_umount
	expect_flag test "$dev"
	expect_mount ext4dev "$dev"
	verify_files main
	verify_files while_mounted
	expect_umount
}

compare_flags() {
	local dev=$1 want=$2 tool sysfs

	tool=$(flags_by_tool "$dev")
	sysfs=$(flags_by_sysfs "$dev")
	note "show-flags: '$tool' sysfs: '$sysfs'"
	[ "$tool" = "$sysfs" ] ||
		fail "show-flags says '$tool', the kernel's sysfs says '$sysfs'"
	case " $sysfs" in
	*" test_filesystem "*) [ "$want" = test ] ||
		fail "test_filesystem set, expected it clear" ;;
	*) [ "$want" = production ] ||
		fail "test_filesystem clear, expected it set" ;;
	esac
}

# 5. What the tool reads agrees with what the kernel shows in sysfs,
#    before and after a mark.
t_show_flags_matches_sysfs() {
	local dev

	dev=$(disk main)
	expect_mount ext4dev "$dev"
	compare_flags "$dev" test
	expect_umount
	expect_rc 0 ext4dev mark-production "$dev"
	expect_mount ext4 "$dev"
	compare_flags "$dev" production
	expect_umount
	expect_rc 0 ext4dev mark-test "$dev"
	expect_mount ext4dev "$dev"
	compare_flags "$dev" test
	expect_umount
}

# util-linux mount without -t: libblkid decides the type.  (busybox mount
# would try every type in /proc/filesystems and let the gate decide.)
auto_mount_as() {
	local dev=$1 want=$2 type

	type=$(blkid -p -o value -s TYPE "$dev")
	[ "$type" = "$want" ] || fail "blkid calls $dev '$type', expected $want"
	run "$UL_MOUNT" "$dev" "$MNT"
	[ "$rc" = 0 ] || fail "mount $dev (no -t) failed: $out"
	[ "$(fstype_of "$MNT")" = "$want" ] ||
		fail "mount $dev (no -t) mounted it as '$(fstype_of "$MNT")', expected $want"
	verify_files main
	expect_umount
}

# 6. Flagged mounts as ext4dev without -t, unflagged as ext4.
t_automount_by_blkid() {
	local dev

	dev=$(disk main)
	auto_mount_as "$dev" ext4dev
	expect_rc 0 ext4dev mark-production "$dev"
	auto_mount_as "$dev" ext4
	expect_rc 0 ext4dev mark-test "$dev"
}

# The full cycle on one disk: mount as ext4dev, write, clear the flag
# (refused as ext4dev, fine as ext4), set it again.
flag_cycle() {
	local role=$1 dev

	dev=$(disk "$role")
	expect_flag test "$dev"
	expect_mount ext4dev "$dev"
	write_files "$role"
	expect_umount
	expect_rc 0 ext4dev mark-production "$dev"
	expect_refused ext4dev "$dev" ext4dev
	expect_mount ext4 "$dev"
	verify_files "$role"
	expect_umount
	expect_rc 0 ext4dev mark-test "$dev"
	expect_mount ext4dev "$dev"
	verify_files "$role"
	expect_umount
}

# 8. Flagged by e2fsprogs' tune2fs, not by us: the same behaviour.  (The
#    host runs e2fsck -fn on every image after the boot.)
t_host_tune2fs_flagged() {
	flag_cycle tune2fs
}

# 9. The format matrix; the block size is checked to be sure of the disk.
matrix_case() {
	local role=$1 bsize=$2 got

	flag_cycle "$role"
	expect_mount ext4dev "$(disk "$role")"
	got=$(stat -f -c %S "$MNT")
	expect_umount
	[ "$got" = "$bsize" ] || fail "$role has $got-byte blocks, expected $bsize"
}

t_matrix_1k_csum() { matrix_case m1k_csum 1024; }
t_matrix_1k_nocsum() { matrix_case m1k_nocsum 1024; }
t_matrix_4k_csum() { matrix_case m4k_csum 4096; }
t_matrix_4k_nocsum() { matrix_case m4k_nocsum 4096; }
t_matrix_nojournal() { matrix_case nojournal 4096; }

# 10. Devices named by LABEL= and UUID=, resolved by libblkid in the guest.
t_label_uuid() {
	local dev

	dev=$(disk label)
	if [ -z "$LABEL" ] || [ -z "$LABEL_UUID" ]; then
		fail "no ext4dev.label= and ext4dev.uuid= on the kernel command line"
	fi
	expect_flag production "LABEL=$LABEL"
	expect_rc 0 ext4dev mark-test "LABEL=$LABEL"
	expect_flag test "UUID=$LABEL_UUID"
	expect_flag test "$dev"
	run ext4dev show-flags --json "UUID=$LABEL_UUID"
	case $out in
	*'"test": true'*) ;;
	*) fail "show-flags --json UUID=: no '\"test\": true' in: $out" ;;
	esac
	expect_mount ext4dev "$dev"
	write_files label
	expect_umount
	expect_rc 0 ext4dev mark-production "UUID=$LABEL_UUID"
	expect_flag production "LABEL=$LABEL"
	expect_refused ext4dev "$dev" ext4dev
}

# A refused mount writes nothing: the host compares the image's bytes.
t_refused_mount_untouched() {
	local dev

	dev=$(disk untouched)
	expect_refused ext4dev "$dev" ext4dev
	run busybox mount -o ro -t ext4dev "$dev" "$MNT"
	[ "$rc" != 0 ] || fail "a read-only ext4dev mount of an unflagged disk succeeded"
}

# A disk the kernel holds read-only (QEMU readonly=on): every command that
# would write says "Read-only file system" and exits 8, the dry run
# included, and not a byte changes.
t_read_only_disk() {
	local dev before cmd

	dev=$(disk readonly)
	[ "$(cat "/sys/block/${dev#/dev/}/ro")" = 1 ] ||
		fail "$dev is not read-only in the guest"
	before=$(sha256sum <"$dev")
	for cmd in mark-production "mark-production -n" "mkfs -F" "mkfs -n -F"; do
		# shellcheck disable=SC2086 # options are separate words
		expect_rc 8 ext4dev $cmd "$dev"
		case $out in
		*"Read-only file system"*) note "$cmd refused: $out" ;;
		*) fail "$cmd on a read-only disk: no 'Read-only file system' in: $out" ;;
		esac
	done
	[ "$(sha256sum <"$dev")" = "$before" ] ||
		fail "the refused commands changed the read-only disk's bytes"
	expect_flag test "$dev"
}

# shellcheck source=test/qemu/guest/parts.sh
. /ext4dev/parts.sh
