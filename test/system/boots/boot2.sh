# shellcheck shell=bash
# Boot 2 of the Debian guest: the disks boot 1 left (--disks-from), so
# that what boot 1 changed is seen after a reboot (BOOT2_TESTS).
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/debian.sh"

BOOT_APPEND=$(debian_append 2)
GUEST_SUITE="../guest/scenarios.sh BOOT2_TESTS"

boot_disks() {
	local role roles="root scratch scratch4 plain control"

	# shellcheck disable=SC2086 # a list of roles
	first_boot_disks $roles
	for role in $roles; do
		vm_add_disk "$role" "$out/disks/$role.img" nofsck
	done
}
