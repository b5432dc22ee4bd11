#!/bin/bash
# One CTest result for one check of a boot made by test/vm/run.sh: find
# the check's line in the guest's KTAP report (or in the host's checks)
# and turn it into an exit status, printing the check's diagnostics.
#
# usage: check.sh BOOT_DIR NAME
# exit: 0 ok, 1 not ok / missing / boot failed, 77 skipped
set -euo pipefail

dir=${1:?usage: check.sh BOOT_DIR NAME}
name=${2:?usage: check.sh BOOT_DIR NAME}

fail() {
	echo "FAIL: $name: $*" >&2
	echo "KTAP report: $dir/results.ktap; console log: $dir/console.log" >&2
	exit 1
}

# The boot must have run and worked before any of its checks can.  A
# skipped boot skips the check.
[[ -f $dir/boot.status ]] || fail "no boot in '$dir' (the boot test did not run)"
status=$(<"$dir/boot.status")
if [[ $status == skip:* ]]; then
	echo "SKIP: $name: the boot was skipped:${status#skip:}"
	exit 77
fi
[[ $status == ok ]] || fail "the boot failed: ${status#not ok: }"

# The check's block: its diagnostic lines ("# ...") and its result line.
# In our reports the diagnostics come right before the result.
block() {
	# awk reads the file itself: a reader that stops early at the end
	# of a pipe would kill its writer, and pipefail would count it.
	awk -v name="$name" '
		{ sub(/\r$/, "") }
		/^(not )?ok [0-9]+ / {
			split($0, w, " ")
			n = (w[1] == "not") ? w[4] : w[3]
			if (n == name) { printf "%s%s\n", diag, $0; found = 1; exit }
			diag = ""
			next
		}
		/^# / { diag = diag $0 "\n" }
		END { exit !found }' "$1"
}

for report in "$dir/results.ktap" "$dir/host.ktap"; do
	[[ -f $report ]] || continue
	if out=$(block "$report"); then
		printf '%s\n' "$out"
		result=$(tail -n 1 <<<"$out")
		case $result in
		"not ok "*) fail "${result#*# }" ;;
		*"# SKIP"*) echo "SKIP: ${result#*# SKIP}"; exit 77 ;;
		*) exit 0 ;;
		esac
	fi
done
fail "no result line for '$name': the guest did not get to it"
