# shellcheck shell=bash
# The scenarios of the DKMS boot (ext4dev.boot=dkms): Debian's own
# linux-image-6.12-amd64 with the ext4 that ext4dev-dkms built for it
# while the image was made, booted with ext4.require_test_fs=1 from the
# initrd that package's postinst remade.  Sourced by checks.sh after
# lib.sh and scenarios.sh.  SUITE_TESTS is the one list of its checks
# (CMake reads it); the disks are made by boots/dkms.sh:
#   root       flagged ext4, /
#   flagged    flagged ext4; fstab type ext4dev
#   unflagged  unflagged ext4; fstab type ext4, nofail
# The last check purges the package; boots/dkms-purged.sh boots again.
# shellcheck disable=SC2034 # read by checks.sh
SUITE_TESTS="dkms_installed other_kernel_refused flagged_root_mounted
flagged_disk_mounted unflagged_refused ext4dev_type_gates
sysfs_matches_show_flags purge_restores_stock"

readonly DKMS_LOG=/var/log/ext4dev-dkms-install.log

# DKMS built and installed ext4 for this kernel while the image was made,
# and the ext4 in use is that one: modinfo and sysfs name it as ours.
t_dkms_installed() {
	local kver status file

	kver=$(uname -r)
	status=$(dkms status -m ext4dev -k "$kver")
	echo "dkms status: $status"
	case $status in
	*"$kver"*": installed"*) ;;
	*) fail "dkms does not say ext4dev is installed for $kver" ;;
	esac
	file=$(modinfo -n ext4)
	echo "modinfo -n ext4: $file"
	case $file in
	/lib/modules/"$kver"/updates/dkms/ext4.ko*) ;;
	*) fail "modprobe finds ext4 at '$file', not DKMS's" ;;
	esac
	modinfo -F ext4dev ext4 | grep -q "with the ext4dev series" ||
		fail "modinfo ext4 has no ext4dev line"
	[ "$(cat /sys/module/ext4/version 2>/dev/null)" = "$(modinfo -F version ext4)" ] ||
		fail "the loaded ext4 is not the one modinfo describes"
}

# The image also has Debian 12's 6.1 headers: DKMS refused to build for
# that kernel, saying why in one line, and gave it no ext4 of ours.
t_other_kernel_refused() {
	local other

	other=$(find /usr/src -maxdepth 1 -name 'linux-headers-6.1.*-amd64' -printf '%f\n' | sed 's/^linux-headers-//' | head -n1)
	[ -n "$other" ] || fail "no 6.1 headers in the image"
	echo "other kernel: $other"
	grep -F "ext4dev-dkms: not for kernel $other" "$DKMS_LOG" ||
		fail "no refusal for $other in $DKMS_LOG: $(cat "$DKMS_LOG")"
	[ -z "$(find "/lib/modules/$other" -name 'ext4.ko*' 2>/dev/null)" ] ||
		fail "an ext4 module was installed for $other"
	case $(dkms status -m ext4dev -k "$other") in
	*installed*) fail "dkms says installed for $other" ;;
	esac
}

# The flagged root mounted under ext4.require_test_fs=1, and the
# parameter is on.
t_flagged_root_mounted() {
	[ "$(findmnt -n -o FSTYPE /)" = ext4 ] || fail "/ is not ext4"
	[ "$(cat /sys/module/ext4/parameters/require_test_fs)" = Y ] ||
		fail "require_test_fs is $(cat /sys/module/ext4/parameters/require_test_fs)"
	flagged "$(findmnt -n -o SOURCE /)" || fail "/ is not flagged"
}

# The ext4dev entry of the flagged disk: mount.ext4dev found the type
# registered and mounted it as ext4dev, through the kernel's gate.
t_flagged_disk_mounted() {
	local unit

	unit=$(mount_unit /mnt/flagged)
	[ "$(prop "$unit" Result)" = success ] || fail "$unit: $(prop "$unit" Result)"
	[ "$(findmnt -n -o FSTYPE /mnt/flagged)" = ext4dev ] ||
		fail "/mnt/flagged is '$(findmnt -n -o FSTYPE /mnt/flagged)', not ext4dev"
	grep -qw ext4dev /proc/filesystems || fail "no ext4dev in /proc/filesystems"
}

# The unflagged disk of the nofail ext4 entry: refused by the kernel,
# whose line is in the journal; the boot went on.
t_unflagged_refused() {
	local dev unit

	dev=$(disk unflagged)
	unit=$(mount_unit /mnt/unflagged)
	! findmnt /mnt/unflagged >/dev/null || fail "/mnt/unflagged is mounted"
	[ "$(prop "$unit" Result)" != success ] || fail "$unit succeeded"
	journal_gate_lines "${dev#/dev/}" | grep -F "ext4.require_test_fs=1" ||
		fail "no refusal of $dev in the journal"
	[ "$(prop local-fs.target ActiveState)" = active ] ||
		fail "local-fs.target is $(prop local-fs.target ActiveState)"
}

# mount -t ext4dev refuses the unflagged disk with the type's own line,
# and writes nothing to it.
t_ext4dev_type_gates() {
	local dev before

	dev=$(disk unflagged)
	before=$(sha256sum <"$dev")
	! mount -t ext4dev "$dev" /mnt 2>&1 || fail "mount -t ext4dev $dev worked"
	gate_lines "${dev#/dev/}" | grep -F "refusing to mount as ext4dev" ||
		fail "no ext4dev gate line for $dev"
	[ "$(sha256sum <"$dev")" = "$before" ] || fail "$dev changed"
}

# The kernel's filesystem_flags and ext4dev show-flags agree on every
# mounted disk.
t_sysfs_matches_show_flags() {
	local dev

	for dev in $(findmnt -n -l -o SOURCE -t ext4,ext4dev); do
		echo "$dev: sysfs '$(flags_by_sysfs "$dev")', tool '$(flags_by_tool "$dev")'"
		[ "$(flags_by_sysfs "$dev")" = "$(flags_by_tool "$dev")" ] ||
			fail "$dev: the kernel and show-flags disagree"
	done
}

# dpkg --purge ext4dev-dkms takes the module out of every kernel and
# remakes the initramfs without it (the next boot shows the stock ext4).
t_purge_restores_stock() {
	local kver out

	kver=$(uname -r)
	out=$(dpkg --purge ext4dev-dkms 2>&1) || fail "dpkg --purge: $out"
	echo "$out"
	[ -z "$(dkms status -m ext4dev)" ] || fail "dkms still knows ext4dev"
	case $(modinfo -n ext4) in
	*/updates/*) fail "modprobe still finds $(modinfo -n ext4)" ;;
	esac
	! lsinitramfs "/boot/initrd.img-$kver" | grep -q "updates/dkms/ext4.ko" ||
		fail "the initramfs still has our ext4"
	sync
}
