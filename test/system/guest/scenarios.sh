# shellcheck shell=bash
# The scenarios of test/system/, as t_<name> functions; sourced by
# checks.sh after test/qemu/guest/lib.sh (fail, disk, run_suite).
# BOOT1_TESTS and BOOT2_TESTS are the one list of their names: CMake
# reads them.
#
# Disks (serial = role; labels as in /etc/fstab, see boots/boot1.sh):
#   root      unflagged ext4, /
#   scratch   flagged, repairable error; fstab type ext4dev, pass 2
#   scratch4  flagged, repairable error; fstab type ext4, pass 2 (loses
#             the flag: see t_fsck_ext4_entry_clears)
#   plain     unflagged; fstab type ext4dev, nofail, pass 2
#   control   flagged, repairable error; not in fstab
# shellcheck disable=SC2034 # read by checks.sh
BOOT1_TESTS="root_clean fsck_ext4dev_entry fsck_ext4_entry_clears nofail_refused
control_no_checker control_fsck_ext4_clears show_flags_matches_sysfs
mark_production_mounted"
# shellcheck disable=SC2034
BOOT2_TESTS="second_boot_refused"

# The repairable error the host put on the flagged disks.
FIXED_LINE="ref count is 5, should be 1.  FIXED"

# The kernel's refusal, as the ext4dev type logs it.
gate_lines() {
	dmesg | grep -F "EXT4-fs ($1): test_filesystem flag not set" || true
}

journal_gate_lines() {
	journalctl -b -k -o cat --no-pager |
		grep -F "EXT4-fs ($1): test_filesystem flag not set" || true
}

fsck_unit() {
	systemd-escape -p --template=systemd-fsck@.service "$1"
}

mount_unit() {
	systemd-escape -p --suffix=mount "$1"
}

prop() {
	systemctl show -P "$2" "$1"
}

flagged() {
	ext4dev show-flags --check test "$1"
}

expect_fsck_kept() {
	local label=$1 mnt=$2 type=$3 dev unit log

	dev=$(disk "$label")
	udevadm info -q property -n "$dev" | grep -qx ID_FS_TYPE=ext4dev ||
		fail "udev does not call $dev ext4dev"
	unit=$(fsck_unit "/dev/disk/by-label/$label")
	[ "$(prop "$unit" Result)" = success ] ||
		fail "$unit: $(prop "$unit" Result), $(prop "$unit" ExecMainStatus)"
	log=$(journalctl -b -u "$unit" -o cat --no-pager)
	echo "$log"
	if grep -q "doesn't exist, not checking" <<<"$log"; then
		fail "systemd-fsck did not check $dev"
	fi
	grep -qF "$FIXED_LINE" <<<"$log" ||
		fail "no repair of $dev in the journal of $unit"
	! grep -q "test_fs flag is set.*CLEARED" <<<"$log" ||
		fail "the checker of $dev cleared the flag"
	flagged "$dev" || fail "$dev lost its flag"
	[ "$(findmnt -n -o FSTYPE "$mnt")" = "$type" ] ||
		fail "$mnt is '$(findmnt -n -o FSTYPE "$mnt")', not $type"
	[ "$(findmnt -n -o SOURCE "$mnt")" = "$dev" ] ||
		fail "$mnt is not $dev"
}

# ext4dev mark-* on a mounted disk: refused (8, "is mounted").
expect_mark_refused() {
	local cmd=$1 dev=$2 out rc=0

	out=$(ext4dev "$cmd" "$dev" 2>&1) || rc=$?
	echo "$out"
	[ "$rc" = 8 ] || fail "$cmd on mounted $dev: $rc, want 8"
	grep -q "is mounted" <<<"$out" || fail "no 'is mounted' in: $out"
}

# 1: the unflagged ext4 root came up; no gate line about it anywhere.
t_root_clean() {
	local dev name

	dev=$(disk root)
	name=${dev#/dev/}
	[ "$(findmnt -n -o FSTYPE /)" = ext4 ] || fail "/ is not ext4"
	[ "$(findmnt -n -o SOURCE /)" = "$dev" ] || fail "/ is not $dev"
	[ -z "$(gate_lines "$name")" ] || fail "dmesg: $(gate_lines "$name")"
	[ -z "$(journal_gate_lines "$name")" ] ||
		fail "journal: $(journal_gate_lines "$name")"
	echo "/ is $dev (ext4), no gate line for $name"
}

# 2: systemd-fsck picked fsck.ext4dev from blkid's type, fixed the
# error, kept the flag; the disk is mounted with the fstab type.
t_fsck_ext4dev_entry() {
	expect_fsck_kept scratch /mnt/scratch ext4dev
}

# 2, with the entry's type written ext4: systemd-fsck asks whether
# fsck.<blkid type> = fsck.ext4dev exists, but then runs util-linux fsck,
# which takes the type from fstab when the device is listed there and
# runs fsck.ext4, and e2fsck clears the flag.  So the entry must say
# ext4dev.  (integration.fsck shows the same on the host via FSTAB_FILE.)
t_fsck_ext4_entry_clears() {
	local dev unit log

	dev=$(disk scratch4)
	unit=$(fsck_unit /dev/disk/by-label/scratch4)
	[ "$(prop "$unit" Result)" = success ] || fail "$unit: $(prop "$unit" Result)"
	log=$(journalctl -b -u "$unit" -o cat --no-pager)
	echo "$log"
	grep -qF "$FIXED_LINE" <<<"$log" || fail "no repair of $dev in the journal"
	grep -q "test_fs flag is set.*CLEARED" <<<"$log" ||
		fail "the checker did not clear the flag (fsck.ext4dev ran?)"
	! flagged "$dev" || fail "$dev kept its flag"
	[ "$(findmnt -n -o FSTYPE /mnt/scratch4)" = ext4 ] || fail "/mnt/scratch4 is not ext4"
}

# 3: an unflagged disk under an ext4dev nofail entry: refused with the
# gate's line, the boot went on.
t_nofail_refused() {
	local dev unit

	dev=$(disk plain)
	unit=$(mount_unit /mnt/plain)
	! findmnt /mnt/plain >/dev/null || fail "/mnt/plain is mounted"
	[ -n "$(gate_lines "${dev#/dev/}")" ] ||
		fail "no gate line for $dev in dmesg"
	gate_lines "${dev#/dev/}"
	[ "$(prop "$unit" Result)" != success ] ||
		fail "$unit succeeded"
	[ "$(prop local-fs.target ActiveState)" = active ] ||
		fail "local-fs.target is $(prop local-fs.target ActiveState)"
}

# 4: without fsck.ext4dev, systemd-fsck skips the flagged disk and the
# error stays; fsck.ext4 -p (what fsck -A runs for ext4) clears the flag.
t_control_no_checker() {
	local dev unit log rc=0

	dev=$(disk control)
	unit=$(fsck_unit "$dev")
	mv /usr/sbin/fsck.ext4dev /usr/sbin/fsck.ext4dev.away
	systemctl start "$unit" || rc=$?
	mv /usr/sbin/fsck.ext4dev.away /usr/sbin/fsck.ext4dev
	[ "$rc" = 0 ] || fail "systemctl start $unit: $rc"
	log=$(journalctl -b -u "$unit" -o cat --no-pager)
	echo "$log"
	grep -q "fsck.ext4dev doesn't exist, not checking file system" <<<"$log" ||
		fail "systemd-fsck did not say it skipped $dev"
	rc=0
	e2fsck -fn "$dev" >/dev/null 2>&1 || rc=$?
	[ "$rc" = 4 ] || fail "e2fsck -fn $dev: $rc, the error should still be there (4)"
	flagged "$dev" || fail "$dev lost its flag"
}

# 4: fsck.ext4 -p on the same disk (what fsck -A runs for an ext4 entry)
# repairs it and says the flag was CLEARED: gone, blkid now says ext4.
t_control_fsck_ext4_clears() {
	local dev out rc=0

	dev=$(disk control)
	out=$(fsck.ext4 -p "$dev" 2>&1) || rc=$?
	echo "$out"
	[ "$rc" -le 1 ] || fail "fsck.ext4 -p $dev: $rc"
	grep -q "test_fs flag is set.*CLEARED" <<<"$out" ||
		fail "fsck.ext4 -p did not say it cleared the flag"
	! flagged "$dev" || fail "$dev still has the flag"
	[ "$(blkid -p -o value -s TYPE "$dev")" = ext4 ] || fail "blkid: not ext4"
}

# 5: show-flags --json agrees with sysfs for every mounted disk.
t_show_flags_matches_sysfs() {
	local dev n=0 json sysfs

	for dev in $(findmnt -rn -o SOURCE,FSTYPE | awk '$1 ~ "^/dev/vd" && $2 ~ "^ext4" {print $1}' | sort -u); do
		json=$(ext4dev show-flags --json "$dev" |
			sed -n 's/^ *"flags": \[\(.*\)\],$/\1/p' | tr -d '",' | tr ' ' '\n' | sort | xargs)
		sysfs=$(xargs -n1 <"/sys/fs/ext4/${dev#/dev/}/filesystem_flags" | sort | xargs)
		echo "$dev: show-flags '$json', sysfs '$sysfs'"
		[ "$json" = "$sysfs" ] || fail "$dev: show-flags '$json' != sysfs '$sysfs'"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n mounted disks compared (want root, scratch, scratch4)"
}

# 6: mark-production refused while mounted, done after umount; the next
# boot (fstab entry now nofail) refuses the disk and goes on.
t_mark_production_mounted() {
	local dev

	dev=$(disk scratch)
	expect_mark_refused mark-production "$dev"
	flagged "$dev" || fail "$dev lost its flag"
	umount /mnt/scratch
	ext4dev mark-production "$dev" || fail "mark-production after umount failed"
	ext4dev show-flags --check production "$dev" || fail "$dev still flagged"
	sed -i 's|^\(LABEL=scratch /mnt/scratch ext4dev \)defaults|\1defaults,nofail|' /etc/fstab
	grep -q '^LABEL=scratch /mnt/scratch ext4dev defaults,nofail 0 2$' /etc/fstab ||
		fail "could not make the entry nofail: $(cat /etc/fstab)"
	sync
}

# 6, boot 2: the nofail entry of the now unflagged scratch disk is
# refused with the gate's line, its mount unit failed, local-fs.target
# is active all the same, and the flag stayed clear.
t_second_boot_refused() {
	local dev unit

	dev=$(disk scratch)
	unit=$(mount_unit /mnt/scratch)
	! findmnt /mnt/scratch >/dev/null || fail "/mnt/scratch is mounted"
	[ -n "$(gate_lines "${dev#/dev/}")" ] || fail "no gate line for $dev"
	gate_lines "${dev#/dev/}"
	[ "$(prop "$unit" Result)" != success ] || fail "$unit succeeded"
	[ "$(prop local-fs.target ActiveState)" = active ] ||
		fail "local-fs.target is $(prop local-fs.target ActiveState)"
	ext4dev show-flags --check production "$dev" || fail "$dev is flagged again"
}

t_unknown_boot() {
	fail "no ext4dev.boot=1|2 on the kernel command line"
}
