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
FAILS=0
CHECKS=0

fail() {
	echo "FAIL: $*" >&2
	FAILS=$((FAILS + 1))
}

pass() {
	CHECKS=$((CHECKS + 1))
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@"; then pass; else fail "$what"; fi
}

# Finish: print the plain closing line CTest logs show, exit 0/1.
finish() {
	echo "$TEST_NAME: $CHECKS passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}

