#!/bin/bash
# Run the ext4 KUnit suites in a QEMU boot of the test kernel and check the
# KTAP results on its console; or, with --parse, check a console log that
# another boot (the QEMU harness) already wrote.
#
# The kernel has no root filesystem to go to: KUnit runs its built-in
# suites during boot, then kunit_shutdown=reboot together with QEMU's
# -no-reboot ends the run.  A panic also reboots (panic=-1), so a crash
# shows up as missing results, a hang as the timeout.
set -euo pipefail

# shellcheck source=kernel/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=kernel/console.sh
. "$(dirname "$0")/console.sh"

# The suites this series adds; each must be present and ok.
required_suites=(ext4_sysfs_test ext4_super_test)
# All ext4 suites, minus the cases KUnit marks slow (one mballoc case
# takes ~30 s under TCG and is unrelated to the series).
kunit_args="kunit.filter_glob=ext4* kunit.filter=speed>slow"

usage() {
	cat <<EOF
usage: ${0##*/} --kernel BZIMAGE --log FILE [--timeout SECONDS]
       ${0##*/} --parse FILE

Boot BZIMAGE under QEMU (TCG), run the ext4 KUnit suites and check that
every result is ok and that the ${required_suites[*]} suites ran.  The console
log is kept in FILE.
EOF
}

# The KTAP lines of a console log, in order, without the serial line's CRs.
ktap_lines() {
	tr -d '\r' <"$1" |
		grep -E '^ *(KTAP version|TAP version|[0-9]+\.\.[0-9]+$|ok [0-9]|not ok [0-9]|# )' ||
		true
}

# Check the KTAP results in a console log.  Prints them, then a verdict.
parse_log() {
	local log=$1 lines plan results bad=() status suite

	# A log of the QEMU harness, whose boot was skipped (test/qemu).
	status=$(cat "$(dirname "$log")/boot.status" 2>/dev/null || true)
	[[ $status != skip:* ]] || skip "the boot was skipped:${status#skip:}"
	[[ -f $log ]] || die "no console log '$log'"
	lines=$(ktap_lines "$log")
	[[ -n $lines ]] && printf '%s\n' "$lines"
	plan=$(grep -m1 -E '^[0-9]+\.\.[0-9]+$' <<<"$lines" | cut -d. -f3 || true)
	results=$(grep -cE '^(not )?ok [0-9]' <<<"$lines" || true)
	if [[ -z $plan ]]; then
		bad+=("no top-level KTAP plan: KUnit did not run or the kernel died first")
	elif ((results != plan)); then
		bad+=("the plan announces $plan suites but $results reported")
	fi
	if grep -qE '^ *not ok [0-9]' <<<"$lines"; then
		bad+=("some results are 'not ok'")
	fi
	for suite in "${required_suites[@]}"; do
		grep -qE "^ok [0-9]+ $suite\$" <<<"$lines" ||
			bad+=("suite $suite did not report ok")
	done
	if [[ -n $(kernel_log_trouble "$log") ]]; then
		bad+=("the kernel logged an Oops, BUG, WARNING or panic:
$(kernel_log_trouble "$log")")
	fi
	if ((${#bad[@]})); then
		printf 'FAIL: %s\n' "${bad[@]}" >&2
		echo "console log: $log" >&2
		return 1
	fi
	echo "PASS: $results KUnit suites ok, including ${required_suites[*]}"
}

boot() {
	local kernel=$1 log=$2 limit=$3 status=0

	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
	[[ -f $kernel ]] || die "no kernel image '$kernel' (run kernel/build.sh)"
	mkdir -p "$(dirname "$log")"
	rm -f "$log"
	# -accel tcg: KVM is not reliable on CI machines and nested setups;
	# the boot is short enough for TCG.
	timeout -k 5 "$limit" qemu-system-x86_64 -accel tcg -m 256M -smp 1 \
		-nodefaults -no-reboot -display none -monitor none \
		-serial "file:$log" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 $kunit_args kunit_shutdown=reboot" ||
		status=$?
	if ((status == 124 || status == 137)); then
		echo "FAIL: QEMU did not finish within $limit s" >&2
		echo "console log: $log" >&2
		return 1
	elif ((status != 0)); then
		echo "FAIL: QEMU exited with status $status" >&2
		echo "console log: $log" >&2
		return 1
	fi
	parse_log "$log"
}

main() {
	local kernel="" log="" parse="" limit=300

	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?}; shift ;;
		--log) log=${2:?}; shift ;;
		--timeout) limit=${2:?}; shift ;;
		--parse) parse=${2:?}; shift ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done
	if [[ -n $parse ]]; then
		parse_log "$parse"
	elif [[ -n $kernel && -n $log ]]; then
		boot "$kernel" "$log" "$limit"
	else
		usage >&2
		exit 2
	fi
}

main "$@"
