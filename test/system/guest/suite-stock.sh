# shellcheck shell=bash
# The scenarios of the stock boot (ext4dev.boot=stock): Debian's own
# linux-image-amd64, which has no ext4dev type, and our tool from the
# .deb (dpkg -i).  Sourced by checks.sh after lib.sh and scenarios.sh,
# whose helpers it uses.  SUITE_TESTS is the one list of its checks
# (CMake reads it); the disks are made by boots/stock.sh:
#   root      unflagged ext4, /
#   scratch   flagged, repairable error; fstab type ext4dev, pass 2
#   plain     unflagged; fstab type ext4dev, nofail, pass 2
#   loose     flagged, repairable error; not in fstab
#   spare     blank
# shellcheck disable=SC2034 # read by checks.sh
SUITE_TESTS="stock_kernel fsck_ext4dev_entry nofail_refused fsck_type
mount_without_type mkfs_type mark_test_mounted purge_leaves_nothing"

# The kernel is Debian's, without our series; the tool is the package's.
t_stock_kernel() {
	local status

	echo "kernel $(uname -r): $(uname -v)"
	! grep -qw ext4dev /proc/filesystems ||
		fail "this kernel registers ext4dev: not a stock kernel"
	grep -qw ext4 /proc/filesystems || fail "no ext4 in /proc/filesystems"
	status=$(dpkg-query -W -f '${Status} ${Version}' ext4dev 2>&1) ||
		fail "dpkg does not know ext4dev: $status"
	echo "ext4dev: $status"
	case $status in
	"install ok installed "*) ;;
	*) fail "ext4dev is '$status', not installed" ;;
	esac
	[ "$(dpkg -S /usr/sbin/ext4dev 2>/dev/null)" = "ext4dev: /usr/sbin/ext4dev" ] ||
		fail "/usr/sbin/ext4dev is not the package's"
}

# systemd-fsck ran fsck.ext4dev from the package on the flagged disk of
# the ext4dev entry (repair, flag kept); mount.ext4dev then mounted it as
# ext4, the only type this kernel has.
t_fsck_ext4dev_entry() {
	local unit

	unit=$(mount_unit /mnt/scratch)
	expect_fsck_kept scratch /mnt/scratch ext4
	[ "$(prop "$unit" Result)" = success ] ||
		fail "$unit: $(prop "$unit" Result)"
	journalctl -b -u "$unit" -o cat --no-pager
}

# The unflagged disk of the ext4dev nofail entry: refused by
# mount.ext4dev with its reason in the mount unit's journal, the boot
# went on.
t_nofail_refused() {
	local dev unit log

	dev=$(disk plain)
	unit=$(mount_unit /mnt/plain)
	! findmnt /mnt/plain >/dev/null || fail "/mnt/plain is mounted"
	[ "$(prop "$unit" Result)" != success ] || fail "$unit succeeded"
	log=$(journalctl -b -u "$unit" -o cat --no-pager)
	echo "$log"
	grep -E "($dev|/dev/disk/by-label/plain|LABEL=plain).*mark-test" <<<"$log" >/dev/null ||
		fail "no line in the journal of $unit that names the disk and 'ext4dev mark-test'"
	[ "$(prop local-fs.target ActiveState)" = active ] ||
		fail "local-fs.target is $(prop local-fs.target ActiveState)"
	! flagged "$dev" || fail "$dev got the flag"
}

# util-linux fsck -t ext4dev runs the package's fsck.ext4dev: repaired,
# flag kept.
t_fsck_type() {
	local dev out rc=0

	dev=$(disk loose)
	out=$(fsck -t ext4dev -p "$dev" 2>&1) || rc=$?
	echo "$out"
	[ "$rc" -le 1 ] || fail "fsck -t ext4dev -p $dev: $rc"
	grep -qF "$FIXED_LINE" <<<"$out" || fail "fsck -t ext4dev did not repair $dev"
	! grep -q "CLEARED" <<<"$out" || fail "fsck -t ext4dev cleared the flag"
	flagged "$dev" || fail "$dev lost its flag"
	e2fsck -fn "$dev" >/dev/null 2>&1 || fail "e2fsck -fn $dev: not clean after the repair"
}

# mount without -t: blkid says ext4dev, so mount(8) runs mount.ext4dev.
t_mount_without_type() {
	local dev out

	dev=$(disk loose)
	out=$(mount "$dev" /mnt 2>&1) || fail "mount $dev /mnt: $out"
	[ "$(findmnt -n -o SOURCE /mnt)" = "$dev" ] || fail "/mnt is not $dev"
	[ "$(findmnt -n -o FSTYPE /mnt)" = ext4 ] ||
		fail "/mnt is '$(findmnt -n -o FSTYPE /mnt)', not ext4"
	findmnt -n /mnt
	flagged "$dev" || fail "$dev lost its flag"
	umount /mnt || fail "umount /mnt failed"
}

# mkfs -t ext4dev runs the package's mkfs.ext4dev: a flagged ext4.
t_mkfs_type() {
	local dev out

	dev=$(disk spare)
	out=$(mkfs -t ext4dev -L spare "$dev" 2>&1) || fail "mkfs -t ext4dev $dev: $out"
	echo "$out" | tail -n 3
	[ "$(blkid -p -o value -s TYPE "$dev")" = ext4dev ] ||
		fail "blkid: $dev is '$(blkid -p -o value -s TYPE "$dev")', not ext4dev"
	flagged "$dev" || fail "$dev is not flagged"
	e2fsck -fn "$dev" >/dev/null 2>&1 || fail "e2fsck -fn $dev: not clean"
}

# mark-test of the mounted (unflagged) root: refused, nothing written.
t_mark_test_mounted() {
	local dev

	dev=$(disk root)
	expect_mark_refused mark-test "$dev"
	ext4dev show-flags --check production "$dev" || fail "$dev got the flag"
}

# dpkg --purge removes every file the package put in; nothing named
# ext4dev is left but the harness's own files.
t_purge_leaves_nothing() {
	local files left path

	files=$(dpkg -L ext4dev) || fail "dpkg -L ext4dev failed"
	umount /mnt/scratch 2>/dev/null || true
	dpkg --purge ext4dev || fail "dpkg --purge ext4dev failed"
	! dpkg-query -W ext4dev >/dev/null 2>&1 || fail "dpkg still knows ext4dev"
	for path in $files; do
		[ -d "$path" ] && [ ! -L "$path" ] && continue
		if [ -e "$path" ] || [ -L "$path" ]; then
			left="$left $path"
		fi
	done
	for path in $files; do
		case $path in
		*ext4dev*) [ ! -e "$path" ] || left="$left $path" ;;
		esac
	done
	[ -z "$left" ] || fail "left behind:$left"
	left=$(find / -xdev -name '*ext4dev*' \
		! -path '/usr/lib/ext4dev-system*' \
		! -path '/etc/systemd/system/ext4dev-*' \
		! -path '/tmp/*' 2>/dev/null | tr '\n' ' ')
	[ -z "$left" ] || fail "left behind: $left"
	echo "$(echo "$files" | wc -l) paths of the package, none left"
}
