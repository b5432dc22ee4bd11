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

# fail WHAT: a check that failed, as a KTAP "not ok" line (the command's
# own output, above it, says why).
fail() {
	ktap_fail "$*"
}

# pass [WHAT]: a check that held; unnamed ones are numbered.
pass() {
	ktap_pass "${1:-$TEST_NAME check $((KTAP_COUNT + 1))}"
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# finish: the totals, and exit 0 when nothing failed.
finish() {
	ktap_totals "$TEST_NAME"
	[ "$KTAP_FAIL" -eq 0 ]
}
