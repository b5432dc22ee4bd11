# shellcheck shell=bash
# Boot 2 of the Debian guest: the disks boot 1 left (--disks-from), so
# that what boot 1 changed is seen after a reboot (BOOT2_TESTS).
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

BOOT_APPEND=$(debian_append 2)
GUEST_SUITE="../guest/scenarios.sh BOOT2_TESTS"

boot_disks() {
	local role status=$disks_from/../boot.status

	[[ -f $status ]] || fail_boot "no first boot in '$disks_from'"
	[[ $(<"$status") == ok ]] ||
		skip_boot "the first boot did not work: $(<"$status")"
	for role in root scratch scratch4 plain control; do
		cp --sparse=always "$disks_from/$role.img" "$out/disks/"
		vm_add_disk "$role" "$out/disks/$role.img" nofsck
	done
}
