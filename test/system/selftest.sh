#!/bin/bash
# run-boot.sh must fail when it should: a fake qemu-system-x86_64 acts out
# broken boots (a failed check, a missing line, a lying verdict, a panic,
# a WARN, a hang, a QEMU error) and each is judged through the real
# run-boot.sh and test/qemu/check.sh; a missing kernel, initrd or root
# image is a skip with its reason; the stock boot passes its initrd.
#
# usage: selftest.sh WORKDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: selftest.sh WORKDIR}
passed=0 failed=0

rm -rf "$work"
mkdir -p "$work/bin"
cat >"$work/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
serials=()
while (($#)); do
	[[ $1 == -serial ]] && { serials+=("${2#file:}"); shift; }
	shift
done
console=${serials[0]} ktap=${serials[1]}
printf 'Linux version 6.12 (fake)\r\nsystemd[1]: systemd 252 running\r\n' >"$console"
report() {
	printf 'KTAP version 1\r\n1..%s\r\nok 1 alpha\r\n' "${PLAN:-3}"
	[[ $FAKE_MODE == fail_one || $FAKE_MODE == lie ]] &&
		printf '# FAIL: planted\r\nnot ok 2 beta # FAIL: planted\r\n' ||
		printf 'ok 2 beta\r\n'
	[[ $FAKE_MODE == missing ]] || printf 'ok 3 gamma\r\n'
} >"$ktap"
case $FAKE_MODE in
pass | missing) report; exit 33 ;;
fail_one) report; exit 35 ;;
lie) report; exit 33 ;;
panic) echo "Kernel panic - not syncing: Attempted to kill init!" >>"$console"; exit 0 ;;
warn) echo "WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:1 x+0x0/0x0" >>"$console"; report; exit 33 ;;
hang) sleep 30 ;;
broken) echo "qemu: bad option" >&2; exit 1 ;;
esac
exit 99
EOF
chmod +x "$work/bin/qemu-system-x86_64"
: >"$work/bzImage"
: >"$work/root.img"

expect() {
	local what=$1 want_boot=$2 want_check=$3 mode=$4 rc=0 crc=0
	shift 4
	PATH=$work/bin:$PATH FAKE_MODE=$mode EXT4DEV_NO_SKIP=0 "$here/run-boot.sh" \
		--boot 1 --out "$work/$mode" --expect "alpha beta gamma" --timeout 3 "$@" \
		>"$work/$mode.log" 2>&1 || rc=$?
	[[ $want_check == - ]] || "$here/../qemu/check.sh" "$work/$mode" beta \
		>>"$work/$mode.log" 2>&1 || crc=$?
	if [[ $rc == "$want_boot" && ($want_check == - || $crc == "$want_check") ]]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $what: boot $rc (want $want_boot), check $crc (want $want_check)"
		sed 's/^/  | /' "$work/$mode.log"
	fi
}

k=(--kernel "$work/bzImage" --rootfs "$work/root.img")
expect "all ok" 0 0 pass "${k[@]}"
expect "a failed check fails that check only" 0 1 fail_one "${k[@]}"
expect "a missing line fails the boot" 1 1 missing "${k[@]}"
expect "a verdict that lies fails the boot" 1 1 lie "${k[@]}"
expect "a panic fails the boot" 1 1 panic "${k[@]}"
expect "a WARNING fails the boot" 1 1 warn "${k[@]}"
expect "a hang is stopped and fails" 1 1 hang "${k[@]}"
expect "a QEMU error fails" 1 1 broken "${k[@]}"
expect "no root image: skip" 77 77 pass --kernel "$work/bzImage" --rootfs "$work/none.img"
grep -q "no root image" "$work/pass.log" ||
	{ failed=$((failed + 1)); echo "FAIL: the skip does not say why"; }
EXT4DEV_KERNEL_TARBALL=$work/none.tar.xz \
	expect "no kernel, no tarball: skip" 77 77 pass --kernel "$work/none" --rootfs "$work/root.img"
grep -q "no kernel" "$work/pass.log" ||
	{ failed=$((failed + 1)); echo "FAIL: the kernel skip does not say why"; }
# The stock variant: Debian's kernel with its initrd.
: >"$work/initrd.img"
s=(--kernel "$work/bzImage" --initrd "$work/initrd.img" --rootfs "$work/root.img" --boot stock)
expect "stock: all ok" 0 0 pass "${s[@]}"
grep -q -- "-initrd $work/initrd.img " "$work/pass/qemu.cmd" ||
	{ failed=$((failed + 1)); echo "FAIL: the stock boot does not pass -initrd"; }
expect "stock: no initrd: skip" 77 77 pass "${s[@]}" --initrd "$work/none.img"
grep -q "no initrd" "$work/pass.log" ||
	{ failed=$((failed + 1)); echo "FAIL: the initrd skip does not say why"; }
grep -q "console" "$work/hang.log" ||
	{ failed=$((failed + 1)); echo "FAIL: a hang does not show the console"; }
echo "system.selftest: $passed passed, $failed failed"
((failed == 0))
