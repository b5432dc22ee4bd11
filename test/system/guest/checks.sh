#!/bin/bash
# The checks of one boot of the Debian guest, run by ext4dev-checks.service
# once the fstab mounts are done (or failed).  KTAP goes to ttyS1, the
# verdict leaves through isa-debug-exit: 0x10 all ok (QEMU exits 33), 0x11
# some check failed (35).  Which boot this is comes from the kernel
# command line: ext4dev.boot=1 or 2, or NAME for suite-NAME.sh (stock:
# Debian's kernel, guest/suite-stock.sh; dkms and dkms-purged: Debian's
# 6.12 kernel with ext4dev-dkms, guest/suite-dkms*.sh).  Disks are found by the serial the
# host gave them (see test/system/boots/).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C
here=/usr/lib/ext4dev-system
# fail, disk, cmdline_value and the KTAP runner run_suite: the busybox
# guest's test/qemu/guest/lib.sh, installed here by mkrootfs.sh.
# shellcheck source=test/qemu/guest/lib.sh
. "$here/lib.sh"
# shellcheck source=test/system/guest/scenarios.sh
. "$here/scenarios.sh"

# Leave the disks clean for the host's e2fsck and for the next boot:
# QEMU ends the moment the verdict is written.
settle() {
	umount /mnt/scratch /mnt/scratch4 /mnt/plain /mnt/flagged \
		/mnt/unflagged /mnt 2>/dev/null || true
	journalctl --relinquish-var 2>/dev/null || true
	sync
	mount -o remount,ro / 2>/dev/null || true
	sync
}

finish() {
	local value=16

	[ "$1" = 0 ] || value=17
	# shellcheck disable=SC2059 # the format is the octal escape
	printf "\\$(printf %o $value)" |
		dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	# Not reached when QEMU has the device.
	systemctl poweroff --force --force
}

boot=$(cmdline_value ext4dev.boot)
case $boot in
1) tests=$BOOT1_TESTS ;;
2) tests=$BOOT2_TESTS ;;
*)
	# Another harness's suite on this guest (test/fstests/ adds one).
	if [ -f "$here/suite-$boot.sh" ]; then
		# shellcheck source=/dev/null
		. "$here/suite-$boot.sh"
		tests=$SUITE_TESTS
	else
		tests=unknown_boot
	fi
	;;
esac
# shellcheck disable=SC2086 # a list of names
run_suite $tests | tee /dev/ttyS1
status=${PIPESTATUS[0]}
settle
finish "$status"
