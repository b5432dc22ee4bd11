#!/bin/bash
# Boot the Debian guest of test/system/ once: the patched bzImage, no
# initramfs (or Debian's kernel with its initrd: --initrd), systemd as
# PID 1 on the root image from mkrootfs.sh, to ext4dev-system.target,
# whose service runs guest/scenarios.sh (or guest/suite-BOOT.sh) and
# reports KTAP on ttyS1.  Then judge the boot the way test/qemu does.
#
# usage: run-boot.sh --kernel BZIMAGE --rootfs IMAGE --boot 1 --out DIR
#        run-boot.sh --kernel BZIMAGE --disks-from DIR1 --boot 2 --out DIR
#        run-boot.sh --kernel BZIMAGE --rootfs IMAGE --boot fstests --out DIR
#        run-boot.sh --kernel VMLINUZ --initrd INITRD --rootfs IMAGE \
#                    --boot stock --out DIR
#                    [--expect "NAME..."] [--timeout SECONDS]
# (fstests: blank "test" and "scratch" disks, for test/fstests/run.sh;
# stock: Debian's kernel, mkrootfs.sh --stock, guest/suite-stock.sh)
#
# --out DIR gets console.log (ttyS0: kernel and systemd), results.ktap
# (ttyS1), host.ktap, boot.status, qemu.cmd, disks/.  Each check is then
# one CTest result through test/qemu/check.sh DIR NAME.  Exit 0 when the
# boot itself worked (a verdict, no Oops/BUG/WARNING/panic, a complete
# report), 77 when it cannot run here.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/lib.sh
. "$here/../../kernel/lib.sh"
# shellcheck source=kernel/console.sh
. "$here/../../kernel/console.sh"
# shellcheck source=test/qemu/verdict.sh
. "$here/../qemu/verdict.sh"
# shellcheck source=test/vm/vm.sh
. "$here/../vm/vm.sh"

readonly EXIT_PASS=33 EXIT_FAIL=35
readonly DISK_MB=32
# No rootfstype= by default: the kernel probes the root's type itself,
# as a real machine does, so scenario 1 also shows that the probe (ext4
# before ext4dev) logs no gate line.  EXT4DEV_SYSTEM_ROOTFSTYPE=ext4
# names the type instead.
readonly ROOTFSTYPE=${EXT4DEV_SYSTEM_ROOTFSTYPE-}

# A flagged disk with the error e2fsck -p repairs: a link count of 5 on a
# file with one name, and the state "not clean" so preen checks it.
broken_flagged() {
	local img=$1 label=$2

	truncate -s "${DISK_MB}M" "$img"
	mke2fs -q -F -t ext4 -E test_fs -L "$label" "$img" >/dev/null
	echo "written by the host" >"$out/hello"
	debugfs -w -f - "$img" >/dev/null 2>&1 <<EOF
write $out/hello hello
sif hello links_count 5
ssv state 0
EOF
	rm -f "$out/hello"
	[[ $(debugfs -R "stat hello" "$img" 2>/dev/null) == *"Links: 5"* ]] ||
		die "could not break '$img'"
}

# The disks of each boot, in order (vda, vdb, ...); serial = role.
roles() {
	case $boot in
	fstests) echo root test scratch ;;
	stock) echo root scratch plain loose spare ;;
	*) echo root scratch scratch4 plain control ;;
	esac
}

make_disks() {
	local d=$out/disks

	cp --sparse=always "$rootfs" "$d/root.img"
	if [[ $boot == fstests ]]; then
		truncate -s 4G "$d/test.img" "$d/scratch.img"
		return
	fi
	broken_flagged "$d/scratch.img" scratch
	truncate -s "${DISK_MB}M" "$d/plain.img"
	mke2fs -q -F -t ext4 -L plain "$d/plain.img" >/dev/null
	if [[ $boot == stock ]]; then
		broken_flagged "$d/loose.img" loose
		truncate -s "${DISK_MB}M" "$d/spare.img"
		return
	fi
	broken_flagged "$d/scratch4.img" scratch4
	broken_flagged "$d/control.img" control
}

qemu_args() {
	local role n=0 append mem=512M

	append="console=ttyS0 root=/dev/vda rw panic=-1 kunit.enable=0"
	append+="${ROOTFSTYPE:+ rootfstype=$ROOTFSTYPE}"
	append+=" systemd.unit=ext4dev-system.target ext4dev.boot=$boot"
	append+=" systemd.show_status=1"
	# fstests formats and mounts its own disks: none of the fstab's.
	[[ $boot == fstests ]] && append+=" fstab=no"
	# A failed fstab mount must fail its check, not stop the boot in
	# emergency mode until the timeout.
	[[ $boot == stock ]] && append+=" systemd.mask=emergency.service"
	# Debian's initrd unpacks its modules into RAM.
	[[ -z $initrd ]] || mem=1G
	vm_base_args "$(vm_accel "$kernel")" "$mem" "$kernel" "$append"
	printf '%s\n' -serial "file:$out/console.log" -serial "file:$out/results.ktap"
	[[ -z $initrd ]] || printf '%s\n' -initrd "$initrd"
	for role in $(roles); do
		n=$((n + 1))
		vm_disk "$n" "$out/disks/$role.img" "$role"
	done
}

# After boot 1 (or stock): what the guest left on the data disks is
# consistent.
host_checks() {
	local role bad=""

	echo "KTAP version 1"
	echo "1..1"
	for role in $(roles); do
		[[ $role != root ]] || continue
		e2fsck -fn "$out/disks/$role.img" >"$out/disks/$role.e2fsck" 2>&1 ||
			bad+=" $role"
	done
	if [[ -z $bad ]]; then
		echo "ok 1 disks_clean"
	else
		echo "not ok 1 disks_clean # e2fsck -fn reports problems on:$bad (see $out/disks/*.e2fsck)"
	fi
}

main() {
	local status=0 why from="" role
	local -a qemu

	kernel="" initrd="" rootfs="" boot="" out="" expect="" limit=""
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?}; shift ;;
		--initrd) initrd=${2:?}; shift ;;
		--rootfs) rootfs=${2:?}; shift ;;
		--disks-from) from=${2:?}; shift ;;
		--boot) boot=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--expect) expect=${2?}; shift ;;
		--timeout) limit=${2:?}; shift ;;
		*) echo "usage: see the head of ${0##*/}" >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $kernel && -n $out && $boot =~ ^(1|2|fstests|stock)$ ]] || { echo "usage: see ${0##*/}" >&2; exit 2; }
	# Debian's kernel with its initramfs takes longer (see README.md).
	[[ -n $limit ]] || limit=${EXT4DEV_SYSTEM_TIMEOUT:-$([[ -n $initrd ]] && echo 360 || echo 180)}
	rm -rf "$out"
	mkdir -p "$out/disks"
	vm_require "$kernel" "$initrd"
	if [[ $boot != 2 ]]; then
		[[ -f $rootfs ]] || skip_boot "no root image '$rootfs' (the system.rootfs test makes it; it needs mmdebstrap)"
		make_disks
	else
		[[ -f $from/../boot.status ]] || die "no first boot in '$from'"
		[[ $(<"$from/../boot.status") == ok ]] ||
			skip_boot "the first boot did not work: $(<"$from/../boot.status")"
		for role in $(roles); do
			cp --sparse=always "$from/$role.img" "$out/disks/"
		done
	fi
	mapfile -t qemu < <(qemu_args)
	vm_run "boot $boot" "$limit" "${qemu[@]}"
	status=$vm_status
	if [[ $boot == 1 || $boot == stock ]]; then
		host_checks >"$out/host.ktap"
	else
		printf 'KTAP version 1\n1..0\n' >"$out/host.ktap"
	fi
	ktap | grep -E '^(not )?ok [0-9]' || true
	grep -E '^(not )?ok [0-9]' "$out/host.ktap" | sed 's/^/host: /' || true
	why=$(judge_boot "$status" "$limit") || true
	vm_verdict "$why" 40
}

main "$@"
