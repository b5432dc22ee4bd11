# shellcheck shell=bash
# The library of the one VM runner (test/vm/run.sh): preconditions, the
# accelerator, the QEMU command line's fixed part, the disks a boot
# description adds, the timed run, the host's checks and the verdict.
# A boot description (test/*/boots/*.sh) keeps only what is its own.
# Sourced after test/lib/lib.sh (die, skip) and kernel/console.sh
# (kernel_log_trouble); the runner sets $out.
# shellcheck disable=SC2154 # $out is the runner's

# Where the KVM probe's answer is kept: the kernel's cache directory,
# named as kernel/lib.sh names it (not sourced: it is the kernel's cache
# key, and the runner must not be).
vm_cache=${EXT4DEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ext4dev}
# A tarball named in EXT4DEV_KERNEL_TARBALL must exist; by default
# kernel/build.sh fetches Debian's source package into the cache itself.
vm_tarball=${EXT4DEV_KERNEL_TARBALL:-}

# The guest's verdict through isa-debug-exit: QEMU exits with
# (value << 1) | 1, statuses QEMU never exits with itself.
readonly VM_EXIT_PASS=33 VM_EXIT_FAIL=35

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
	# An initrd, and the kernel that comes with it, are made by a
	# fixture test that skips where it cannot run.
	[[ -z $initrd || -f $initrd ]] ||
		skip_boot "no initrd '$initrd' (its fixture test makes it)"
	[[ -f $kernel ]] && return 0
	[[ -z $initrd ]] || skip_boot "no kernel '$kernel' (mkrootfs.sh --stock makes it)"
	[[ -z $vm_tarball || -r $vm_tarball ]] ||
		skip_boot "no kernel: '$vm_tarball' not found"
	fail_boot "no kernel '$kernel' (kernel/build.sh makes it)"
}

# KVM only where a probe boot of KERNEL works: on some hosts /dev/kvm
# exists but aborts or hangs ordinary guests.  The answer is cached per
# host kernel and QEMU version.
vm_probe_kvm() {
	local kernel=$1 memo log ok=no

	[[ -w /dev/kvm ]] || { echo tcg; return; }
	memo=$vm_cache/kvm-probe.$( (uname -r; qemu-system-x86_64 --version) |
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
		mkdir -p "$vm_cache"
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

# The disks of the boot, in the order the description adds them: vda,
# vdb, ... for virtio ones, sda, ... for SCSI ones.
vm_roles=() vm_images=() vm_flags=() vm_sums=()

# vm_add_disk ROLE IMAGE [FLAG...]: a disk the guest finds by its serial,
# ROLE.  Flags: ro (the guest's kernel sees it read-only), scsi (a SCSI
# disk, named as on real machines), nofsck (the host's disks_clean leaves
# it alone), same (untouched_unchanged wants its bytes unchanged).
vm_add_disk() {
	local role=$1 image=$2 flags=" ${*:3} "

	[[ -f $image ]] || fail_boot "disk '$role': no image '$image'"
	vm_roles+=("$role") vm_images+=("$image") vm_flags+=("$flags")
	if [[ $flags == *" same "* ]]; then
		vm_sums+=("$(sha256sum <"$image")")
	else
		vm_sums+=("")
	fi
}

# vm_image FILE SIZE MKE2FS-ARGS...: a fresh image made by mke2fs
# (test/lib/lib.sh's mkimg), or the boot fails saying which.
vm_image() {
	mkimg "$@" || fail_boot "mke2fs ${*:3} '$1' failed"
}

# The disks' part of the QEMU command line, one word per line.
vm_disk_args() {
	local i ro dev scsi=0

	for i in "${!vm_roles[@]}"; do
		ro="" dev=virtio-blk-pci
		[[ ${vm_flags[i]} == *" ro "* ]] && ro=,readonly=on
		if [[ ${vm_flags[i]} == *" scsi "* ]]; then
			((scsi++)) || printf '%s\n' -device virtio-scsi-pci,id=scsi0
			dev="scsi-hd,bus=scsi0.0"
		fi
		printf '%s\n' -drive "file=${vm_images[i]},if=none,id=d$i,format=raw$ro" \
			-device "$dev,drive=d$i,serial=${vm_roles[i]}"
	done
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

# The check names a guest suite lists in its shell variable VAR="..." in
# FILE (the same rule as CMake's ext4dev_vm_boot()).
vm_suite_checks() {
	awk -v var="$2" '
		index($0, var "=\"") == 1 { on = 1; $0 = substr($0, length(var) + 3) }
		on { if (sub(/".*/, "")) { print; exit } print }' "$1" | xargs
}

# e2fsck -fn on IMAGE, or on each of its partitions that holds an
# ext2/3/4 filesystem when it has a partition table.  Prints the names
# of those that fail.
vm_fsck_image() {
	local img=$1 start size n=0 part

	if ! sfdisk -d "$img" >/dev/null 2>&1; then
		e2fsck -fn "$img" >"$img.e2fsck" 2>&1 || echo " ${img##*/}"
		return 0
	fi
	while read -r start size; do
		n=$((n + 1))
		part=$img.p$n
		dd if="$img" of="$part" bs=1M iflag=skip_bytes,count_bytes \
			skip=$((start * 512)) count=$((size * 512)) status=none
		if [[ $(blkid -p -o value -s TYPE "$part" 2>/dev/null) == ext* ]]; then
			e2fsck -fn "$part" >"$part.e2fsck" 2>&1 || echo " ${part##*/}"
		fi
		rm -f "$part"
	done < <(sfdisk -d "$img" | sed -n 's/.*start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2/p')
}

# Host check: what the guest left on its disks is consistent (e2fsck
# -fn), every disk but those added "nofsck".
host_check_disks_clean() {
	local i bad=""

	for i in "${!vm_roles[@]}"; do
		[[ ${vm_flags[i]} == *" nofsck "* ]] && continue
		bad+=$(vm_fsck_image "${vm_images[i]}")
	done
	[[ -z $bad ]] && return 0
	echo "e2fsck -fn reports problems on:$bad (see $out/disks/*.e2fsck)"
	return 1
}

# Host check: the disks added "same" kept every byte (refused mounts
# write nothing).
host_check_untouched_unchanged() {
	local i bad=""

	for i in "${!vm_roles[@]}"; do
		[[ -n ${vm_sums[i]} ]] || continue
		[[ $(sha256sum <"${vm_images[i]}") == "${vm_sums[i]}" ]] ||
			bad+=" ${vm_roles[i]}"
	done
	[[ -z $bad ]] && return 0
	echo "refused mounts changed the bytes of:$bad"
	return 1
}

# vm_host_report NAME...: each host_check_NAME as a KTAP result; what a
# check prints becomes its diagnostics, its last line the reason of a
# failure.
vm_host_report() {
	local name n=0 text rc

	echo "KTAP version 1"
	echo "1..$#"
	for name in "$@"; do
		n=$((n + 1))
		rc=0
		text=$("host_check_$name" 2>&1) || rc=$?
		[[ -z $text ]] || sed 's/^/# /' <<<"$text"
		case $rc in
		0) echo "ok $n $name" ;;
		77) echo "ok $n $name # SKIP ${text##*$'\n'}" ;;
		*) echo "not ok $n $name # ${text##*$'\n'}" ;;
		esac
	done
}

# The guest's report without the CRs its tty adds.
vm_ktap() {
	tr -d '\r' <"$out/results.ktap" 2>/dev/null || true
}

# vm_check_report EXPECT: the guest's report has a plan, as many results
# as it announces, and exactly the names in EXPECT.
vm_check_report() {
	local expect=$1 plan results names want

	[[ -s $out/results.ktap ]] || { echo "no KTAP report from the guest"; return 1; }
	plan=$(vm_ktap | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | sed -n 1p)
	[[ -n $plan ]] || { echo "the KTAP report has no plan"; return 1; }
	results=$(vm_ktap | grep -cE '^(not )?ok [0-9]+ ' || true)
	((results == plan)) ||
		{ echo "the plan announces $plan checks, the report has $results"; return 1; }
	names=$(vm_ktap | sed -nE 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/p' | sort | xargs)
	want=$(xargs -n1 <<<"$expect" | sort | xargs)
	[[ $names == "$want" ]] ||
		{ echo "the report's checks ($names) are not the expected ones ($want)"; return 1; }
}

# vm_judge_verdict STATUS LIMIT EXPECT: a guest that ends through
# isa-debug-exit worked when its verdict came, the kernel was never in
# trouble, its report is complete and agrees with the verdict.  Prints
# the reason when not.
vm_judge_verdict() {
	local status=$1 limit=$2 expect=$3 trouble why

	case $status in
	"$VM_EXIT_PASS" | "$VM_EXIT_FAIL") ;;
	124 | 137) echo "timeout: QEMU still running after $limit s"; return 1 ;;
	0) echo "no verdict from the guest: the kernel rebooted (panic, or init died)"; return 1 ;;
	*) echo "QEMU failed with exit status $status"; return 1 ;;
	esac
	trouble=$(kernel_log_trouble "$out/console.log")
	[[ -z $trouble ]] || { printf 'the kernel is in trouble:\n%s\n' "$trouble"; return 1; }
	why=$(vm_check_report "$expect") || { echo "$why"; return 1; }
	# A here-string, not a pipe: grep -q would stop early and, under
	# pipefail, fail the writer.
	if grep -qE '^not ok [0-9]' <<<"$(vm_ktap)"; then
		[[ $status == "$VM_EXIT_FAIL" ]] || { echo "a check failed but the guest reported success"; return 1; }
	else
		[[ $status == "$VM_EXIT_PASS" ]] || { echo "the guest reported failure but every check is ok"; return 1; }
	fi
}

# vm_judge_panic STATUS LIMIT: a boot whose root the kernel must refuse
# ends in the panic of "Unable to mount root fs" (status 0 under
# -no-reboot and panic=-1); what comes before that panic must be calm.
vm_judge_panic() {
	local status=$1 limit=$2 trouble

	case $status in
	0) ;;
	124 | 137) echo "timeout: QEMU still running after $limit s"; return 1 ;;
	*) echo "QEMU failed with exit status $status"; return 1 ;;
	esac
	awk '/Kernel panic - not syncing: VFS: Unable to mount root fs/ { exit }
	     { print }' "$out/console.log" >"$out/console.before-panic"
	trouble=$(kernel_log_trouble "$out/console.before-panic")
	[[ -z $trouble ]] || { printf 'the kernel is in trouble:\n%s\n' "$trouble"; return 1; }
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
	echo "not ok: ${why//$'\n'/ }" >"$out/boot.status"
	echo "FAIL: $why" >&2
	echo "--- last lines of the console ($out/console.log):" >&2
	tr -d '\r' <"$out/console.log" | tail -n "$lines" >&2
	echo "console log: $out/console.log" >&2
	[[ ! -f $out/results.ktap ]] || echo "KTAP report: $out/results.ktap" >&2
	return 1
}
