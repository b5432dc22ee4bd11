#!/bin/bash
# The runner must fail when it should.  A fake qemu-system-x86_64 acts out
# broken boots (a failed check, a missing or extra line, a lying verdict,
# an Oops, a WARN, a panic, a hang, a QEMU error, changed disks) of small
# descriptions written here, through the real run.sh and check.sh, and
# each must be judged right: including a benign "WARNING" message that
# must not fail a boot, a root the kernel must refuse (BOOT_END=panic),
# and a missing kernel, initrd or root image, which skip saying why.
#
# usage: selftest.sh WORKDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: selftest.sh WORKDIR}
# shellcheck source=test/lib/ktap.sh
. "$here/../lib/ktap.sh"

# The fake QEMU: finds its serial files and disks in its arguments and
# acts out $FAKE_MODE.
make_fake_qemu() {
	mkdir -p "$work/bin"
	cat >"$work/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
serials=() disks=()
while (($#)); do
	case $1 in
	-serial) serials+=("${2#file:}"); shift ;;
	-drive) d=${2#file=}; disks+=("${d%%,*}"); shift ;;
	esac
	shift
done
console=${serials[0]} ktap=${serials[1]}
crlf() { sed 's/$/\r/'; }
boot_ok() { printf 'Linux version 6.12 (fake)\nRun /init as init process\n' | crlf >"$console"; }
say() { echo "$1" | crlf >>"$console"; }
report() {
	local i=0 name
	{
		echo "KTAP version 1"
		echo "1..${PLAN:-3}"
		for name in ${NAMES:-alpha beta gamma}; do
			i=$((i + 1))
			if [[ $name == "${FAIL:-}" ]]; then
				echo "# FAIL: planted failure"
				echo "not ok $i $name # FAIL: planted failure"
			else
				echo "ok $i $name"
			fi
		done
	} | crlf >"$ktap"
}
case $FAKE_MODE in
pass) boot_ok; report; exit 33 ;;
fail_one) boot_ok; FAIL=beta report; exit 35 ;;
missing) boot_ok; NAMES="alpha beta" report; exit 33 ;;
extra) boot_ok; PLAN=4 NAMES="alpha beta gamma delta" report; exit 33 ;;
lie) boot_ok; FAIL=beta report; exit 33 ;;
oops) boot_ok; say "BUG: kernel NULL pointer dereference, address: 0000000000000000"; report; exit 33 ;;
warn) boot_ok; say "WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:4700 ext4_fill_super+0x10/0x20"; report; exit 33 ;;
benign) boot_ok; say "RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!"; report; exit 33 ;;
panic) boot_ok; say "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100"; exit 0 ;;
root_refused) boot_ok; say "VFS: Unable to mount root fs on unknown-block(254,0)"; say "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(254,0)"; exit 0 ;;
root_oops) boot_ok; say "Oops: 0000 [#1] SMP"; say "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(254,0)"; exit 0 ;;
hang) boot_ok; sleep 60 ;;
broken_qemu) echo "qemu-system-x86_64: -device foo: 'foo' is not a valid device model name" >&2; exit 1 ;;
changed_disks)
	boot_ok; report
	for d in "${disks[@]}"; do
		case $d in
		*/untouched.img) printf 'x' | dd of="$d" bs=1 seek=5000 conv=notrunc 2>/dev/null ;;
		*/main.img) dd if=/dev/zero of="$d" bs=1024 seek=1 count=1 conv=notrunc 2>/dev/null ;;
		esac
	done
	exit 33 ;;
esac
exit 99
EOF
	chmod +x "$work/bin/qemu-system-x86_64"
	: >"$work/bzImage"
	: >"$work/initrd.img"
	: >"$work/root.img"
}

# Two descriptions: a guest that reports alpha, beta and gamma on two
# ext4 disks, one of which must not change; a root the kernel refuses.
make_descriptions() {
	cat >"$work/guest.sh" <<'EOF'
# shellcheck shell=bash
GUEST_CHECKS="alpha beta
	gamma"
HOST_CHECKS="disks_clean untouched_unchanged"
BOOT_APPEND="ext4dev.suite=fake"
boot_disks() {
	local role
	for role in main untouched; do
		truncate -s 8M "$out/disks/$role.img"
		mke2fs -q -F -t ext4 "$out/disks/$role.img" >/dev/null
	done
	vm_add_disk main "$out/disks/main.img"
	vm_add_disk untouched "$out/disks/untouched.img" same
	if [[ -n $rootfs ]]; then
		[[ -f $rootfs ]] || skip_boot "no root image '$rootfs'"
	fi
}
EOF
	cat >"$work/refused.sh" <<'EOF'
# shellcheck shell=bash
BOOT_END=panic
HOST_CHECKS="refused"
boot_disks() { :; }
host_check_refused() {
	grep -F "VFS: Unable to mount root fs" "$out/console.log" ||
		{ echo "the kernel did not give up on the root"; return 1; }
}
EOF
}

# boot MODE DESCRIPTION [ARGS...]: run.sh against the fake; sets $boot_rc.
boot() {
	local mode=$1 desc=$2

	shift 2
	boot_rc=0
	PATH=$work/bin:$PATH FAKE_MODE=$mode EXT4DEV_QEMU_ACCEL=tcg \
		EXT4DEV_QEMU_TIMEOUT=3 EXT4DEV_NO_SKIP=0 \
		"$here/run.sh" --boot "$work/$desc.sh" --out "$work/boot" \
		--kernel "$work/bzImage" "$@" >"$work/$mode.log" 2>&1 ||
		boot_rc=$?
}

verdict() {
	case $1 in
	0) echo passes ;;
	77) echo skips ;;
	*) echo fails ;;
	esac
}

# expect_boot MODE WANT [DESCRIPTION [ARGS...]]: the boot test's exit
# status (0 passes, 1 fails, 77 skips).
expect_boot() {
	local mode=$1 want=$2

	boot "$mode" "${3:-guest}" "${@:4}"
	if [[ $boot_rc == "$want" ]]; then
		ktap_pass "boot '$mode' $(verdict "$want")"
	else
		ktap_fail "boot '$mode' $(verdict "$want") (exit $boot_rc)"
		sed 's/^/# /' "$work/$mode.log"
	fi
}

# expect_check NAME RC: check.sh's exit status on the last boot.
expect_check() {
	local rc=0

	"$here/check.sh" "$work/boot" "$1" >/dev/null 2>&1 || rc=$?
	if ((rc == $2)); then
		ktap_pass "  check '$1' exits $2"
	else
		ktap_fail "  check '$1' exits $2 (got $rc)"
	fi
}

# expect_log MODE TEXT WHAT: the last boot's output says TEXT.
expect_log() {
	if grep -qF -- "$2" "$work/$1.log" "$work/boot/qemu.cmd" 2>/dev/null; then
		ktap_pass "  $3"
	else
		ktap_fail "  $3"
	fi
}

main() {
	rm -rf "$work"
	mkdir -p "$work"
	make_fake_qemu
	make_descriptions
	ktap_header

	expect_boot pass 0
	expect_check alpha 0
	expect_check beta 0
	expect_check disks_clean 0
	expect_check untouched_unchanged 0
	expect_check nosuch 1
	expect_boot fail_one 0
	expect_check alpha 0
	expect_check beta 1
	expect_boot missing 1
	expect_check gamma 1
	expect_boot extra 1
	expect_boot lie 1
	expect_boot oops 1
	expect_check alpha 1
	expect_boot warn 1
	expect_boot benign 0
	expect_boot panic 1
	expect_boot hang 1
	expect_log hang "last lines of the console" "a hang shows the console"
	expect_boot broken_qemu 1
	expect_boot changed_disks 0
	expect_check disks_clean 1
	expect_check untouched_unchanged 1

	expect_boot root_refused 0 refused
	expect_check refused 0
	expect_boot root_oops 1 refused
	expect_boot pass 1 refused
	expect_check refused 1

	expect_boot pass 0 guest --initrd "$work/initrd.img"
	expect_log pass "-initrd $work/initrd.img " "the initrd is passed on"
	expect_boot pass 77 guest --initrd "$work/none.img"
	expect_log pass "no initrd" "a missing initrd skips, saying so"
	expect_check alpha 77
	expect_boot pass 77 guest --rootfs "$work/none.img"
	expect_log pass "no root image" "a missing root image skips, saying so"
	EXT4DEV_KERNEL_TARBALL=$work/none.tar.xz \
		expect_boot pass 77 guest --kernel "$work/none"
	expect_log pass "no kernel" "no kernel and no tarball skips, saying so"

	# A KUnit report with a failed case fails run-kunit.sh --parse.
	printf '%s\n' "KTAP version 1" "1..1" "    KTAP version 1" \
		"    # Subtest: ext4_super_test" "    1..1" \
		"    not ok 1 test_fs_gate_decision" "not ok 1 ext4_super_test" \
		>"$work/kunit-bad.log"
	if "$here/../../kernel/run-kunit.sh" --parse "$work/kunit-bad.log" \
		>/dev/null 2>&1; then
		ktap_fail "run-kunit.sh --parse fails on 'not ok'"
	else
		ktap_pass "run-kunit.sh --parse fails on 'not ok'"
	fi

	ktap_totals vm.selftest
	((KTAP_FAIL == 0))
}

main "$@"
