# shellcheck shell=bash
# The fstests guest (test/fstests/run.sh): the Debian guest with
# xfstests in its root image, blank sparse 4 GiB "test" and "scratch"
# disks that fstests formats and mounts itself (fstab=no), and a limit
# of an hour; guest/suite-fstests.sh reports one result per type.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/system/boots/debian.sh
. "$boot_dir/../../system/boots/debian.sh"

BOOT_APPEND="$(debian_append fstests) fstab=no"
BOOT_TIMEOUT=${EXT4DEV_FSTESTS_TIMEOUT:-3600}
GUEST_SUITE="../guest/suite-fstests.sh SUITE_TESTS"

boot_disks() {
	local role

	root_disk
	for role in test scratch; do
		truncate -s 4G "$out/disks/$role.img"
		vm_add_disk "$role" "$out/disks/$role.img" nofsck
	done
}
