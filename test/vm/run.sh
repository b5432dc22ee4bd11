#!/bin/bash
# The one VM runner: boot one guest as its description says, then judge
# the boot.  Every guest we have is a description (test/*/boots/*.sh):
# the busybox initramfs suites, the root boots without an initramfs, the
# Debian guest on our kernel and on Debian's, the fstests guest.
#
# usage: run.sh --boot DESCRIPTION --out DIR [--kernel BZIMAGE]
#               [--initrd FILE] [--rootfs IMAGE] [--disks-from DIR]
#               [--only NAME,...] [--timeout SECONDS] [--shell]
#
#   --kernel      the kernel to boot (default: the build's kernel/bzImage,
#                 from $EXT4DEV_BUILD)
#   --initrd      an initramfs or Debian's initrd
#   --rootfs      the root image the description copies (Debian guests)
#   --disks-from  the disks/ of an earlier boot, for a second boot
#   --only        run only these guest checks, in order (suites that
#                 take ext4dev.only=); the report must hold just them
#   --shell       interactive: console on this terminal
#   EXT4DEV_QEMU_ACCEL=auto|tcg|kvm  (auto: KVM only if a probe boot works)
#   EXT4DEV_QEMU_APPEND="..."        more kernel arguments
#   EXT4DEV_QEMU_TIMEOUT=SECONDS     overrides the description's limit
#
# A description is bash, sourced here after the options.  It sets
#   BOOT_APPEND   its kernel command line (console=ttyS0 panic=-1 come first)
#   BOOT_MEMORY   guest memory (default 256M)
#   BOOT_TIMEOUT  hard limit in seconds (default 180)
#   BOOT_END      verdict: the guest ends through isa-debug-exit with a
#                 KTAP report on ttyS1 (the default); panic: the kernel
#                 must refuse the root and panic, only host checks count
#   GUEST_CHECKS="..."        the names of the guest's report, or
#   GUEST_SUITE="FILE VAR"    the suite file (relative to the description)
#                             whose VAR="..." lists them
#   HOST_CHECKS="..."         host_check_NAME functions run after the boot
# and defines boot_disks(), which makes the images under $out/disks and
# adds them with vm_add_disk (test/vm/vm.sh), and any host_check_NAME
# of its own.  CMake reads the same lines (ext4dev_vm_boot()), so a
# check's name is written once.
#
# DIR gets console.log (ttyS0), results.ktap (ttyS1), host.ktap,
# boot.status ("ok", "not ok: why", "skip: why"), boot.seconds, qemu.cmd
# and disks/.  Each check is then one CTest result through check.sh DIR
# NAME.  Exit 0 when the boot itself worked, 1 when not, 77 when it
# cannot run here.  It never touches this machine's kernel or disks.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/lib.sh
. "$here/../lib/lib.sh"
# shellcheck source=kernel/console.sh
. "$here/../../kernel/console.sh"
# shellcheck source=test/vm/vm.sh
. "$here/vm.sh"

usage() {
	sed -n '7,20s/^# \{0,1\}//p' "$0"
}

# The names the guest's report must hold.
expected_checks() {
	local file var

	if [[ -n $only ]]; then
		echo "${only//,/ }"
	elif [[ -n $GUEST_SUITE ]]; then
		read -r file var <<<"$GUEST_SUITE"
		vm_suite_checks "$boot_dir/$file" "$var"
	else
		echo "$GUEST_CHECKS"
	fi
}

qemu_args() {
	local append="console=ttyS0 panic=-1 $BOOT_APPEND"

	[[ -n $only ]] && append+=" ext4dev.only=$only"
	((shell)) && append+=" ext4dev.shell=1"
	vm_base_args "$accel" "$BOOT_MEMORY" "$kernel" "$append"
	[[ -z $initrd ]] || printf '%s\n' -initrd "$initrd"
	if ((shell)); then
		printf '%s\n' -serial mon:stdio
	else
		printf '%s\n' -serial "file:$out/console.log"
	fi
	printf '%s\n' -serial "file:$out/results.ktap"
	vm_disk_args
}

# Print what the guest and the host found, and judge the boot.
report_and_judge() {
	local limit=$1 why=""

	# shellcheck disable=SC2086 # a list of names
	vm_host_report $HOST_CHECKS >"$out/host.ktap"
	vm_ktap | grep -E '^(not )?ok [0-9]' || true
	grep -E '^(not )?ok [0-9]' "$out/host.ktap" | sed 's/^/host: /' || true
	case $BOOT_END in
	verdict) why=$(vm_judge_verdict "$vm_status" "$limit" "$(expected_checks)") || true ;;
	panic) why=$(vm_judge_panic "$vm_status" "$limit") || true ;;
	*) die "$desc: BOOT_END must be verdict or panic" ;;
	esac
	vm_verdict "$why" 40
}

main() {
	local limit

	desc="" out="" kernel=${EXT4DEV_BUILD:+$EXT4DEV_BUILD/kernel/bzImage}
	initrd="" rootfs="" disks_from="" only="" shell=0 limit=""
	# shellcheck disable=SC2034 # descriptions read $rootfs, $disks_from
	while (($#)); do
		case $1 in
		--boot) desc=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--kernel) kernel=${2:?}; shift ;;
		--initrd) initrd=${2:?}; shift ;;
		--rootfs) rootfs=${2:?}; shift ;;
		--disks-from) disks_from=${2:?}; shift ;;
		--only) only=${2:?}; shift ;;
		--timeout) limit=${2:?}; shift ;;
		--shell) shell=1 ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done
	[[ -f $desc && -n $out && -n $kernel ]] || { usage >&2; exit 2; }
	boot_dir=$(cd "$(dirname "$desc")" && pwd)
	# Nothing from an earlier boot may survive into this one's verdicts.
	rm -rf "$out"
	mkdir -p "$out/disks"

	BOOT_APPEND="" BOOT_MEMORY=256M BOOT_TIMEOUT=180 BOOT_END=verdict
	GUEST_CHECKS="" GUEST_SUITE="" HOST_CHECKS=""
	# shellcheck source=/dev/null
	. "$desc"
	limit=${limit:-${EXT4DEV_QEMU_TIMEOUT:-$BOOT_TIMEOUT}}

	vm_require "$kernel" "$initrd"
	boot_disks
	accel=$(vm_accel "$kernel")
	mapfile -t qemu < <(qemu_args)
	if ((shell)); then
		qemu-system-x86_64 "${qemu[@]}" || true
		return 0
	fi
	vm_run "${desc##*/}, $accel" "$limit" "${qemu[@]}"
	report_and_judge "$limit"
}

main "$@"
