# shellcheck shell=bash
# KTAP (the kernel's Documentation/dev-tools/ktap.rst), the one result
# format of this repository's tests: the guests report in it over their
# second serial line, and the host-side shell tests print it too.  A
# script that cannot know its number of checks in advance leaves the
# plan out, as the format allows, and closes with the totals.
# Sourced, not run.

[ -n "${EXT4DEV_KTAP_LIB:-}" ] && return 0
EXT4DEV_KTAP_LIB=1
KTAP_COUNT=0
KTAP_PASS=0
KTAP_FAIL=0

ktap_header() {
	echo "KTAP version 1"
}

# A result's name: one line, and no '#', which starts a directive.
ktap_name() {
	local name=${1//$'\n'/ }

	echo "${name//#/No.}"
}

ktap_pass() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_COUNT $(ktap_name "$1")"
}

ktap_fail() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_COUNT $(ktap_name "$1")"
}

# The totals as kselftest prints them, then the plain "NAME: N passed,
# M failed" line a CTest log reader looks for.
ktap_totals() {
	echo "# Totals: pass:$KTAP_PASS fail:$KTAP_FAIL"
	echo "$1: $KTAP_PASS passed, $KTAP_FAIL failed"
}
