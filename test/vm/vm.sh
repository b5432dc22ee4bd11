# shellcheck shell=bash
# What every guest launcher shares (test/qemu/run-boot.sh,
# test/qemu/run-rootboot.sh, test/system/run-boot.sh, and through the
# last one fstests): the preconditions, the accelerator, the QEMU command
# line's fixed part and its disks, the timed run and the boot's status.
# A launcher keeps only what is its own: its disks, its kernel command
# line, how it judges the console.  Sourced after kernel/lib.sh (die,
# skip, $kernel_cache, $kernel_tarball); the caller sets $out.
# shellcheck disable=SC2154 # those variables are the caller's

# The boot cannot run here: say so in boot.status (check.sh reads it)
# and skip; it failed: say so and die.
skip_boot() {
	echo "skip: $*" >"$out/boot.status"
	skip "$*"
}

fail_boot() {
	echo "not ok: $*" >"$out/boot.status"
	die "$*"
}

# vm_require KERNEL [INITRD]: QEMU is installed and the kernel (and an
# initrd, when one is named) exists, or the boot skips or fails saying
# which package or which test makes what is missing.
vm_require() {
	local kernel=$1 initrd=${2:-}

	command -v qemu-system-x86_64 >/dev/null ||
		skip_boot "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
	if [[ -n $initrd ]]; then
		[[ -f $initrd ]] || skip_boot "no initrd '$initrd' (mkrootfs.sh --stock makes it)"
		[[ -f $kernel ]] || skip_boot "no kernel '$kernel' (mkrootfs.sh --stock makes it)"
		return 0
	fi
	[[ -f $kernel ]] && return 0
	[[ -r $kernel_tarball ]] ||
		skip_boot "no kernel: '$kernel_tarball' not found (apt-get install linux-source-6.12)"
	fail_boot "no kernel '$kernel' (kernel/build.sh makes it)"
}

# KVM only where a probe boot of KERNEL works: on some hosts /dev/kvm
# exists but aborts or hangs ordinary guests.  The answer is cached per
# host kernel and QEMU version.
vm_probe_kvm() {
	local kernel=$1 memo log ok=no

	[[ -w /dev/kvm ]] || { echo tcg; return; }
	memo=$kernel_cache/kvm-probe.$( (uname -r; qemu-system-x86_64 --version) |
		sha256sum | cut -c1-12)
	if [[ ! -f $memo ]]; then
		log=$(mktemp)
		if timeout -k 2 10 qemu-system-x86_64 -accel kvm -m 128M \
			-nodefaults -no-reboot -display none -monitor none \
			-serial "file:$log" -kernel "$kernel" \
			-append "console=ttyS0 panic=-1" >/dev/null 2>&1 &&
			grep -q 'Kernel panic' "$log"; then
			ok=yes
		fi
		rm -f "$log"
		mkdir -p "$kernel_cache"
		echo "$ok" >"$memo"
	fi
	[[ $(<"$memo") == yes ]] && echo kvm || echo tcg
}

# The accelerator for KERNEL: EXT4DEV_QEMU_ACCEL=auto (the default: KVM
# when the probe boot works), tcg or kvm.
vm_accel() {
	case ${EXT4DEV_QEMU_ACCEL:-auto} in
	auto) vm_probe_kvm "$1" ;;
	tcg | kvm) echo "$EXT4DEV_QEMU_ACCEL" ;;
	*) die "EXT4DEV_QEMU_ACCEL must be auto, tcg or kvm" ;;
	esac
}

# vm_base_args ACCEL MEMORY KERNEL APPEND: the fixed part of every
# guest's command line, one word per line; with isa-debug-exit, through
# which a guest reports its verdict as QEMU's exit status.
vm_base_args() {
	printf '%s\n' -accel "$1" -cpu max -m "$2" -smp 1 -nodefaults \
		-no-reboot -display none -monitor none \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-kernel "$3" -append "$4${EXT4DEV_QEMU_APPEND:+ $EXT4DEV_QEMU_APPEND}"
	[[ -f /usr/share/qemu/qboot.rom ]] && printf '%s\n' -bios /usr/share/qemu/qboot.rom
	return 0
}

# vm_disk N IMAGE [SERIAL [ro]]: virtio disk number N (vda is 1); the
# guest finds it by SERIAL; "ro" makes the guest's kernel see it read-only.
vm_disk() {
	local ro=""

	[[ ${4:-} == ro ]] && ro=,readonly=on
	printf '%s\n' -drive "file=$2,if=none,id=d$1,format=raw$ro" \
		-device "virtio-blk-pci,drive=d$1${3:+,serial=$3}"
}

# vm_run NAME LIMIT ARGS...: QEMU with ARGS under a hard limit of LIMIT
# seconds; the command in $out/qemu.cmd, its wall time in
# $out/boot.seconds, its exit status in $vm_status (124: the limit).
vm_run() {
	local name=$1 limit=$2 start secs

	shift 2
	printf '%q ' qemu-system-x86_64 "$@" >"$out/qemu.cmd"
	echo >>"$out/qemu.cmd"
	vm_status=0
	start=$EPOCHREALTIME
	timeout -k 5 "$limit" qemu-system-x86_64 "$@" </dev/null || vm_status=$?
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	echo "$secs" >"$out/boot.seconds"
	echo "boot ($name): QEMU exit status $vm_status after $secs s wall"
}

# vm_verdict WHY-OR-EMPTY LINES: boot.status "ok", or "not ok: WHY" with
# the console's last LINES lines on stderr; returns 1 then.
vm_verdict() {
	local why=$1 lines=$2

	if [[ -z $why ]]; then
		echo ok >"$out/boot.status"
		echo "boot ok; logs in $out"
		return 0
	fi
	echo "not ok: $why" >"$out/boot.status"
	echo "FAIL: $why" >&2
	echo "--- last lines of the console ($out/console.log):" >&2
	tr -d '\r' <"$out/console.log" | tail -n "$lines" >&2
	echo "console log: $out/console.log" >&2
	[[ ! -f $out/results.ktap ]] || echo "KTAP report: $out/results.ktap" >&2
	return 1
}
