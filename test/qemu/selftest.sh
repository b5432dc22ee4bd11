#!/bin/bash
# The harness must fail when it should.  A fake qemu-system-x86_64 plays
# back broken boots (a failed check, a missing line, an Oops, a WARN, a
# panic, a hang, a lying verdict, changed images) through the real
# run-boot.sh, check.sh and run-kunit.sh, and each must be judged right,
# including a benign "WARNING" message that must not fail the boot.
#
# usage: selftest.sh WORKDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: selftest.sh WORKDIR}
names="alpha beta gamma"
failures=0
n=0

# The fake QEMU: finds its two serial files and the disks in its arguments
# and acts out $FAKE_MODE.
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
report() {
	local i=0 name
	{
		echo "KTAP version 1"
		echo "1..${PLAN:-3}"
		for name in $FAKE_NAMES; do
			i=$((i + 1))
			if [[ $name == "$FAKE_FAIL" ]]; then
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
fail_one) boot_ok; FAKE_FAIL=beta report; exit 35 ;;
missing) boot_ok; FAKE_NAMES="alpha beta" report; exit 33 ;;
extra) boot_ok; PLAN=4 FAKE_NAMES="alpha beta gamma delta" report; exit 33 ;;
lie) boot_ok; FAKE_FAIL=beta report; exit 33 ;;
oops) boot_ok; echo "BUG: kernel NULL pointer dereference, address: 0000000000000000" | crlf >>"$console"; report; exit 33 ;;
warn) boot_ok; echo "WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:4700 ext4_fill_super+0x10/0x20" | crlf >>"$console"; report; exit 33 ;;
benign) boot_ok; echo "RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!" | crlf >>"$console"; report; exit 33 ;;
panic) boot_ok; echo "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100" | crlf >>"$console"; exit 0 ;;
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
	: >"$work/initramfs.cpio"
}

result() {
	local ok=$1 what=$2

	n=$((n + 1))
	if ((ok)); then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		failures=$((failures + 1))
	fi
}

# boot MODE: run run-boot.sh against the fake; sets $boot_rc.  The fake
# guest makes no filesystem, so the host must (EXT4DEV_QEMU_MKFS=host).
boot() {
	boot_rc=0
	PATH=$work/bin:$PATH FAKE_MODE=$1 FAKE_NAMES=$names \
		EXT4DEV_QEMU_ACCEL=tcg EXT4DEV_QEMU_TIMEOUT=3 \
		EXT4DEV_QEMU_MKFS=host \
		"$here/run-boot.sh" --kernel "$work/bzImage" \
		--initramfs "$work/initramfs.cpio" --suite normal \
		--out "$work/boot" --expect "$names" >"$work/$1.log" 2>&1 ||
		boot_rc=$?
}

# expect_boot MODE 0|1: the boot test's verdict (0 = passes).
expect_boot() {
	boot "$1"
	result "$((($2 == 0) == (boot_rc == 0)))" \
		"boot '$1' $([[ $2 == 0 ]] && echo passes || echo fails) (exit $boot_rc)"
}

# expect_check NAME RC: check.sh's verdict on the last boot.
expect_check() {
	local rc=0

	"$here/check.sh" "$work/boot" "$1" >/dev/null 2>&1 || rc=$?
	result "$((rc == $2))" "  check '$1' exits $2 (got $rc)"
}

main() {
	rm -rf "$work"
	mkdir -p "$work"
	make_fake_qemu

	expect_boot pass 0
	expect_check alpha 0
	expect_check beta 0
	expect_check e2fsck_clean 0
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
	expect_boot broken_qemu 1

	expect_boot changed_disks 0
	expect_check e2fsck_clean 1
	expect_check untouched_unchanged 1

	# A KUnit report with a failed case fails run-kunit.sh --parse.
	printf '%s\n' "KTAP version 1" "1..1" "    KTAP version 1" \
		"    # Subtest: ext4_super_test" "    1..1" \
		"    not ok 1 test_fs_gate_decision" "not ok 1 ext4_super_test" \
		>"$work/kunit-bad.log"
	rc=0
	"$here/../../kernel/run-kunit.sh" --parse "$work/kunit-bad.log" \
		>/dev/null 2>&1 || rc=$?
	result "$((rc == 1))" "run-kunit.sh --parse fails on 'not ok' (got $rc)"

	echo "$n harness cases, $failures judged wrong"
	((failures == 0))
}

main "$@"
