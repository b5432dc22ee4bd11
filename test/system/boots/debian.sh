# shellcheck shell=bash
# What the Debian guests' descriptions share (boot1.sh, boot2.sh,
# stock.sh, and fstests' boot): systemd as PID 1 on a copy of the root
# image from mkrootfs.sh (--rootfs), no initramfs unless --initrd names
# one, booted to ext4dev-system.target, whose service runs the boot's
# checks (ext4dev.boot=NAME) and reports KTAP on ttyS1.
# shellcheck disable=SC2034 # read by test/vm/run.sh
# shellcheck disable=SC2154 # $out, $rootfs and $initrd are the runner's

readonly DISK_MB=32

BOOT_MEMORY=512M
BOOT_TIMEOUT=${EXT4DEV_SYSTEM_TIMEOUT:-180}

# debian_append NAME: the command line of boot NAME.  No rootfstype= by
# default: the kernel probes the root's type itself, as a real machine
# does, so boot 1 also shows that the probe (ext4 before ext4dev) logs
# no gate line; EXT4DEV_SYSTEM_ROOTFSTYPE=ext4 names the type instead.
debian_append() {
	local type=${EXT4DEV_SYSTEM_ROOTFSTYPE-}

	echo "root=/dev/vda rw kunit.enable=0${type:+ rootfstype=$type}" \
		"systemd.unit=ext4dev-system.target ext4dev.boot=$1" \
		"systemd.show_status=1"
}

# debian_kernel_boot NAME [ARGS...]: the settings of a boot of Debian's
# own kernel with its initrd: the command line of boot NAME with ARGS, a
# failed fstab mount that fails its check rather than holding the boot
# in emergency mode until the timeout, 1 GiB (the initrd unpacks its
# modules into RAM) and a longer limit.
debian_kernel_boot() {
	local name=$1

	shift
	BOOT_APPEND="$(debian_append "$name")${*:+ $*} systemd.mask=emergency.service"
	BOOT_MEMORY=1G
	BOOT_TIMEOUT=${EXT4DEV_SYSTEM_TIMEOUT:-360}
}

# The root disk: a sparse copy of --rootfs.  Its journal is not
# replayed when the guest powers off, so the host leaves it alone.
root_disk() {
	[[ -f $rootfs ]] ||
		skip_boot "no root image '$rootfs' (the system.rootfs test makes it; it needs mmdebstrap)"
	cp --sparse=always "$rootfs" "$out/disks/root.img"
	vm_add_disk root "$out/disks/root.img" nofsck
}

# ext4_disk ROLE [MKE2FS-ARGS...]: an ext4 disk labelled ROLE.
ext4_disk() {
	vm_image "$out/disks/$1.img" "${DISK_MB}M" -t ext4 -L "$1" "${@:2}"
	vm_add_disk "$1" "$out/disks/$1.img"
}

# flagged_disk ROLE: an ext4 disk labelled ROLE, flagged test_filesystem.
flagged_disk() {
	ext4_disk "$1" -E test_fs
}

# broken_flagged ROLE: a flagged disk labelled ROLE with the error
# e2fsck -p repairs: a link count of 5 on a file with one name, and the
# state "not clean" so that preen checks it.
broken_flagged() {
	local img=$out/disks/$1.img

	flagged_disk "$1"
	echo "written by the host" >"$out/hello"
	debugfs -w -f - "$img" >/dev/null 2>&1 <<EOF2
write $out/hello hello
sif hello links_count 5
ssv state 0
EOF2
	rm -f "$out/hello"
	[[ $(debugfs -R "stat hello" "$img" 2>/dev/null) == *"Links: 5"* ]] ||
		fail_boot "could not break '$img'"
}

# first_boot_disks ROLE...: copies of the disks an earlier boot left in
# --disks-from, once that boot worked (else skip, saying why).
first_boot_disks() {
	local status=$disks_from/../boot.status role

	[[ -f $status ]] || fail_boot "no first boot in '$disks_from'"
	[[ $(<"$status") == ok ]] ||
		skip_boot "the first boot did not work: $(<"$status")"
	for role; do
		cp --sparse=always "$disks_from/$role.img" "$out/disks/"
	done
}
