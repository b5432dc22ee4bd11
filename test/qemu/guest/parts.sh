# shellcheck shell=dash
# shellcheck disable=SC2154 # $rc and $out come from run() in lib.sh
# The partition checks of the normal boot, sourced by suite-normal.sh:
# the design card's "ext4dev mark-test /dev/sdb1" on a real partition.
# The host attaches one virtio-scsi disk (so the guest calls it /dev/sdX)
# with a GPT table that sfdisk made on the image file (boots/normal.sh):
#   1  ext4dev-p1  16 MiB  blank; the guest makes a flagged ext4 on it
#   2  ext4dev-p2  16 MiB  blank; the guest makes an unflagged one
#   3  ext4dev-p3  the rest, blank
# PARTUUID of partition 1 comes as ext4dev.partuuid= on the command line.

PART_UUID=$(cmdline_value ext4dev.partuuid)

# The one SCSI disk: the partitioned one.
scsi_disk() {
	local d n=0 found=""

	for d in /sys/block/sd*; do
		[ -e "$d" ] || continue
		n=$((n + 1))
		found=/dev/${d##*/}
	done
	[ "$n" = 1 ] || { echo "FAIL: $n SCSI disks, expected 1" >&2; exit 1; }
	echo "$found"
}

# The disk's table as sfdisk dumps it, kept by part_table for the end.
table_of() {
	sfdisk -d "$1" 2>&1
}

# The kernel read the table: sdX1..sdX3, and sfdisk reads it back.
t_part_table() {
	local disk p

	disk=$(scsi_disk)
	for p in 1 2 3; do
		[ -b "${disk}$p" ] || fail "no ${disk}$p: the kernel found no GPT partitions ($(ls "/sys/block/${disk#/dev/}"))"
	done
	run table_of "$disk"
	[ "$rc" = 0 ] || fail "sfdisk -d $disk: $out"
	case $out in
	*"label: gpt"*'name="ext4dev-p1"'*) ;;
	*) fail "sfdisk -d $disk: not the host's GPT table: $out" ;;
	esac
	mkdir -p "$STATE"
	echo "$out" >"$STATE/table.before"
	note "$out"
}

# mkfs, mark-production, mark-test and show-flags on partitions.
t_part_mkfs_mark() {
	local disk

	disk=$(scsi_disk)
	expect_rc 0 ext4dev mkfs -q "${disk}1"
	expect_flag test "${disk}1"
	[ "$(blkid -p -o value -s TYPE "${disk}1")" = ext4dev ] ||
		fail "blkid does not call ${disk}1 ext4dev"
	expect_rc 0 ext4dev mkfs -q --production "${disk}2"
	expect_flag production "${disk}2"
	expect_rc 0 ext4dev mark-production "${disk}1"
	expect_flag production "${disk}1"
	expect_rc 0 ext4dev mark-test "${disk}1"
	expect_flag test "${disk}1"
	run ext4dev show-flags "${disk}1" "${disk}2"
	case $out in
	*"${disk}1"*test_filesystem*) ;;
	*) fail "show-flags table has no flagged ${disk}1: $out" ;;
	esac
	note "$out"
}

# Every subcommand refuses the whole disk, naming its partition table,
# and the table is byte for byte what it was.
t_part_whole_disk_refused() {
	local disk cmd

	disk=$(scsi_disk)
	[ -s "$STATE/table.before" ] || fail "part_table did not record the table"
	for cmd in show-flags "show-flags --check test" mark-test \
		mark-production "mark-test -n" mkfs "mkfs -n"; do
		# shellcheck disable=SC2086 # options are separate words
		expect_rc 8 ext4dev $cmd "$disk"
		case $out in
		*"gpt partition table"*) note "$cmd: $out" ;;
		*) fail "$cmd $disk: no 'gpt partition table' in: $out" ;;
		esac
	done
	# The kernel series' path: mount -i -t ext4dev, which finds no ext4.
	run mount.ext4dev "$disk" "$MNT"
	[ "$rc" = 32 ] || fail "mount.ext4dev $disk: exit $rc, expected 32: $out"
	is_mounted "$MNT" && fail "mount.ext4dev mounted the whole disk"
	[ "$(table_of "$disk")" = "$(cat "$STATE/table.before")" ] ||
		fail "the partition table changed: $(table_of "$disk")"
}

# A partition mounted: nothing may write into it through the whole
# disk, dry runs included; the refusal names the partition and its
# mount point, the table and the mounted filesystem stay as they were.
t_part_mounted_refused() {
	local disk cmd

	disk=$(scsi_disk)
	expect_mount ext4dev "${disk}1"
	write_files partmounted
	for cmd in "mkfs -F" "mkfs -n -F" mark-test "mark-test -n" \
		mark-production "mark-production -n"; do
		# shellcheck disable=SC2086 # options are separate words
		expect_rc 8 ext4dev $cmd "$disk"
		case $out in
		*"is mounted as ${disk}1 on '$MNT'"*) note "$cmd: $out" ;;
		*) fail "$cmd $disk: no 'is mounted as ${disk}1' in: $out" ;;
		esac
	done
	# Read back from the disk, not from the page cache of the mount.
	expect_umount
	expect_mount ext4dev "${disk}1"
	verify_files partmounted
	expect_umount
	[ "$(table_of "$disk")" = "$(cat "$STATE/table.before")" ] ||
		fail "the partition table changed: $(table_of "$disk")"
	expect_flag test "${disk}1"
}

# The partition's sysfs filesystem_flags agrees with show-flags.
t_part_show_flags_sysfs() {
	local disk

	disk=$(scsi_disk)
	expect_mount ext4dev "${disk}1"
	compare_flags "${disk}1" test
	expect_umount
	expect_mount ext4 "${disk}2"
	compare_flags "${disk}2" production
	expect_umount
}

# mount.ext4dev on our kernel: the ext4dev type, and the gate refuses.
t_part_mount_helper() {
	local disk

	disk=$(scsi_disk)
	[ -x /sbin/mount.ext4dev ] || fail "no /sbin/mount.ext4dev in the guest"
	expect_rc 0 mount.ext4dev "${disk}1" "$MNT"
	[ "$(fstype_of "$MNT")" = ext4dev ] ||
		fail "mount.ext4dev mounted ${disk}1 as '$(fstype_of "$MNT")', not ext4dev"
	write_files part1
	expect_umount
	# util-linux mount finds the helper for -t ext4dev.
	expect_rc 0 "$UL_MOUNT" -t ext4dev -o ro "${disk}1" "$MNT"
	[ "$(fstype_of "$MNT")" = ext4dev ] ||
		fail "mount -t ext4dev: '$(fstype_of "$MNT")', not ext4dev"
	verify_files part1
	expect_umount
	dmesg -c >/dev/null
	expect_rc 32 mount.ext4dev "${disk}2" "$MNT"
	is_mounted "$MNT" && fail "mount.ext4dev mounted the unflagged ${disk}2"
	dmesg | grep -qF "EXT4-fs (${disk#/dev/}2): test_filesystem flag not set, refusing to mount as ext4dev" ||
		fail "no gate line for ${disk#/dev/}2: $(dmesg | tail -n 3)"
	note "refused: $out"
}

# PARTUUID= and PARTLABEL= resolve through libblkid, for us and mount.
t_part_partuuid_partlabel() {
	local disk

	disk=$(scsi_disk)
	[ -n "$PART_UUID" ] || fail "no ext4dev.partuuid= on the kernel command line"
	expect_flag test "PARTUUID=$PART_UUID"
	expect_flag test "PARTLABEL=ext4dev-p1"
	expect_rc 0 ext4dev mark-production "PARTLABEL=ext4dev-p1"
	case $out in
	*"PARTLABEL=ext4dev-p1"*"(${disk}1)"*) ;;
	*) fail "the message does not name PARTLABEL= and ${disk}1: $out" ;;
	esac
	expect_flag production "${disk}1"
	expect_rc 0 ext4dev mark-test "PARTUUID=$PART_UUID"
	expect_flag test "${disk}1"
	expect_rc 0 mount.ext4dev "PARTLABEL=ext4dev-p1" "$MNT"
	[ "$(fstype_of "$MNT")" = ext4dev ] || fail "PARTLABEL= not mounted as ext4dev"
	verify_files part1
	expect_umount
	expect_rc 8 ext4dev show-flags "PARTLABEL=no-such-partition"
	case $out in
	*"no device with that label or UUID"*) ;;
	*) fail "an unknown PARTLABEL=: $out" ;;
	esac
}

# After everything: the table is still the host's.
t_part_table_unchanged() {
	local disk

	disk=$(scsi_disk)
	[ "$(table_of "$disk")" = "$(cat "$STATE/table.before")" ] ||
		fail "the partition table changed: $(table_of "$disk")"
}
