# shellcheck shell=bash
# How a harness judges one guest boot from what the guest left in $out:
# results.ktap (its KTAP report, from the second serial line),
# console.log, and QEMU's exit status (isa-debug-exit: EXIT_PASS or
# EXIT_FAIL).  Sourced by test/qemu/run-boot.sh (busybox guest) and
# test/system/run-boot.sh (systemd guest), after kernel/console.sh; the
# caller sets $out, $expect (the check names the report must hold, or
# empty) and EXIT_PASS/EXIT_FAIL.  The check scripts (check.sh,
# check-rootboot.sh) source it for boot_must_be_ok() alone.
# shellcheck disable=SC2154 # $out and $name are the caller's

# Results without the CRs the guest's tty adds.
ktap() {
	tr -d '\r' <"$out/results.ktap"
}

# Check the guest's report: a plan, as many results as it announces, and
# (with $expect) exactly the expected names.
check_report() {
	local plan results names want

	[[ -s $out/results.ktap ]] || { echo "no KTAP report from the guest"; return 1; }
	plan=$(ktap | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | sed -n 1p)
	[[ -n $plan ]] || { echo "the KTAP report has no plan"; return 1; }
	results=$(ktap | grep -cE '^(not )?ok [0-9]+ ' || true)
	((results == plan)) ||
		{ echo "the plan announces $plan checks, the report has $results"; return 1; }
	[[ -n $expect ]] || return 0
	names=$(ktap | sed -nE 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/p' | sort | xargs)
	want=$(xargs -n1 <<<"$expect" | sort | xargs)
	[[ $names == "$want" ]] ||
		{ echo "the report's checks ($names) are not the expected ones ($want)"; return 1; }
}

# Decide whether the boot itself worked (QEMU exit $1, hard limit $2 s);
# prints the reason if not.
judge_boot() {
	local status=$1 limit=$2 trouble why

	case $status in
	"$EXIT_PASS" | "$EXIT_FAIL") ;;
	124 | 137) echo "timeout: QEMU still running after $limit s"; return 1 ;;
	0) echo "no verdict from the guest: the kernel rebooted (panic, or init died)"; return 1 ;;
	*) echo "QEMU failed with exit status $status"; return 1 ;;
	esac
	trouble=$(kernel_log_trouble "$out/console.log")
	[[ -z $trouble ]] || { printf 'the kernel is in trouble:\n%s\n' "$trouble"; return 1; }
	why=$(check_report) || { echo "$why"; return 1; }
	# The verdict must agree with the report.
	# A here-string, not a pipe: grep -q would stop early and, under
	# pipefail, fail the writer.
	if grep -qE '^not ok [0-9]' <<<"$(ktap)"; then
		[[ $status == "$EXIT_FAIL" ]] || { echo "a check failed but the guest reported success"; return 1; }
	else
		[[ $status == "$EXIT_PASS" ]] || { echo "the guest reported failure but every check is ok"; return 1; }
	fi
}

# For a check script: the boot in directory $1 must have run and worked
# before any of its checks can.  A skipped boot skips the check (exit
# 77); a missing or failed boot goes to the caller's fail().
boot_must_be_ok() {
	local status

	[[ -f $1/boot.status ]] || fail "no boot in '$1' (the boot test did not run)"
	status=$(<"$1/boot.status")
	if [[ $status == skip:* ]]; then
		echo "SKIP: $name: the boot was skipped:${status#skip:}"
		exit 77
	fi
	[[ $status == ok ]] || fail "the boot failed: ${status#not ok: }"
}
