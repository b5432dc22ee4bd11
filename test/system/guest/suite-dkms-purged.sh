# shellcheck shell=bash
# The boot after suite-dkms.sh purged ext4dev-dkms (ext4dev.boot=
# dkms-purged): the same disks, the initrd that purge remade (taken from
# the root disk by the host), ext4.require_test_fs=1 still on the
# command line.  The stock ext4 is back: no gate, no ext4dev type, and
# nothing of the package is left.
# shellcheck disable=SC2034 # read by checks.sh
SUITE_TESTS="stock_ext4_back unflagged_mounts_again dkms_nothing_left"

# The ext4 in use is the kernel's own: no ext4dev type, no parameter.
t_stock_ext4_back() {
	echo "modinfo -n ext4: $(modinfo -n ext4)"
	case $(modinfo -n ext4) in
	*/kernel/fs/ext4/ext4.ko*) ;;
	*) fail "ext4 is $(modinfo -n ext4), not the kernel's" ;;
	esac
	[ -z "$(modinfo -F ext4dev ext4)" ] || fail "modinfo ext4 still names ext4dev"
	! grep -qw ext4dev /proc/filesystems || fail "ext4dev is still registered"
	[ ! -e /sys/module/ext4/parameters/require_test_fs ] ||
		fail "ext4 still has require_test_fs"
}

# Without the gate, the unflagged disk's nofail entry mounts.
t_unflagged_mounts_again() {
	findmnt /mnt/unflagged || fail "/mnt/unflagged is not mounted"
}

# No file of the package, no DKMS tree, no module of ours anywhere.
t_dkms_nothing_left() {
	local left

	! dpkg-query -W -f '${Status}' ext4dev-dkms 2>/dev/null | grep -q installed ||
		fail "ext4dev-dkms is still installed"
	left=$(find /usr/src /var/lib/dkms /lib/modules -name '*ext4dev*' 2>/dev/null)
	[ -z "$left" ] || fail "left behind: $left"
	[ -z "$(find /lib/modules -path '*/updates/dkms/ext4.ko*')" ] ||
		fail "an ext4 of ours is left in /lib/modules"
}
