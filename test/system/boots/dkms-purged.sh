# shellcheck shell=bash
# The DKMS guest's second boot, after suite-dkms.sh purged ext4dev-dkms:
# the disks the first boot left (--disks-from), and the initrd that the
# purge remade in the root's /boot, taken out with debugfs: the stock
# ext4 must be back.  guest/suite-dkms-purged.sh's SUITE_TESTS.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

debian_kernel_boot dkms-purged ext4.require_test_fs=1
GUEST_SUITE="../guest/suite-dkms-purged.sh SUITE_TESTS"
HOST_CHECKS="disks_clean"

boot_disks() {
	local name

	first_boot_disks root flagged unflagged
	vm_add_disk root "$out/disks/root.img" nofsck
	vm_add_disk flagged "$out/disks/flagged.img"
	vm_add_disk unflagged "$out/disks/unflagged.img"
	name=$(debugfs -R "ls -l /boot" "$out/disks/root.img" 2>/dev/null |
		grep -o 'initrd\.img-[^ ]*' | head -n1)
	[[ -n $name ]] || fail_boot "no /boot/initrd.img-* on the first boot's root"
	debugfs -R "dump /boot/$name $out/initrd.img" "$out/disks/root.img" \
		>/dev/null 2>&1 || fail_boot "debugfs could not take /boot/$name out"
	initrd=$out/initrd.img
}
