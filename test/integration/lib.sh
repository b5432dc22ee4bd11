# shellcheck shell=bash
# Shared helpers for the integration tests.  Each test sources this,
# works in its own temporary directory, and fails loudly with the
# command and output that broke.

set -euo pipefail
# shellcheck source=test/lib/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/lib.sh"

: "${EXT4DEV:?EXT4DEV must point at the ext4dev binary}"
export LC_ALL=C
# Same clock for us and the e2fsprogs oracles, so s_wtime compares.
export E2FSPROGS_FAKE_TIME=1700000000 SOURCE_DATE_EPOCH=1700000000

TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ext4dev-$TEST_NAME.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=test/lib/ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/ktap.sh"
ktap_header
# The results go to the script's own stdout, fd 3, even from a "check
# ... >/dev/null" that silences the command: a result line is never
# hidden, and the numbering never skips.
exec 3>&1

# A result's name without the run's scratch directory, so that names
# stay the same from run to run.
result_name() {
	echo "${1//$WORK\//}"
}

# fail WHAT: a check that failed, as a KTAP "not ok" line (the command's
# own output, above it, says why).
fail() {
	ktap_fail "$(result_name "$*")" >&3
}

# pass [WHAT]: a check that held; unnamed ones are numbered.
pass() {
	ktap_pass "$(result_name "${1:-$TEST_NAME check $((KTAP_COUNT + 1))}")" >&3
}

# diag: stdin as KTAP diagnostic lines, "# " before each, so that no
# line of it reads as a result.
diag() {
	sed 's/^/# /'
}

# check WHAT COMMAND...: one result, WHAT (what holds), that passes when
# COMMAND succeeds.  What COMMAND prints on stdout comes above the result
# as diagnostic lines, so a helper that checks several things says what
# it got with a plain echo and returns 1.  COMMAND runs in this shell (a
# function may leave files and variables behind), with set -e off as in
# any "if"; it must not call check.
check() {
	local what=$1 rc=0
	shift
	"$@" >"$WORK/check.why" || rc=$?
	diag <"$WORK/check.why"
	if [ "$rc" -eq 0 ]; then pass "$what"; else fail "$what"; fi
}

# same GOT WANT: GOT is WANT; says both when not.
same() {
	[ "$1" = "$2" ] && return 0
	echo "got '$1', want '$2'"
	return 1
}

# check_eq WHAT GOT WANT: one result, WHAT, that holds when GOT is WANT.
check_eq() {
	check "$1" same "$2" "$3"
}

# finish: the totals, and exit 0 when nothing failed.
finish() {
	ktap_totals "$TEST_NAME"
	[ "$KTAP_FAIL" -eq 0 ]
}
