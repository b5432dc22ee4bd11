#!/bin/bash
# Our e2fsprogs patch, built and tested with e2fsprogs' own test suite
# on the Debian source of the e2fsprogs this machine runs: the source
# unpatched and patched, each configured and built, `make check` whole in
# both; every test that passed unpatched must pass patched, and the
# patch's new test must pass patched and fail unpatched.  KTAP out.
#
# usage: check.sh --out DIR
# DIR/unpatched and DIR/patched are the two build trees (the patched
# e2fsck, DIR/patched/e2fsck/e2fsck, is what upstream.e2fsck_root boots
# with); a tree is rebuilt only when the source version, the patch or
# this script changed (DIR/<tree>.stamp).
# exit: 0, 1 (a check failed), 77 (no Debian source here)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PROJECT=e2fsprogs
patch_file=$(ls "$here"/0*.patch)
# The test the patch adds, tests/<name>/ (its script, name and expect).
new_test=$(sed -n 's|^+++ b/tests/\([^/]*\)/script$|\1|p' "$patch_file")
# shellcheck source=test/upstream/lib.sh
. "$here/../lib.sh"

make_tree() {
	./configure && make -j"$(nproc)"
}

# e2fsprogs' whole suite in TREE; the tests that passed (tests/NAME.ok)
# into TREE.passed, the failed ones into TREE.failed.
run_suite() {
	local tree=$1

	rm -f "$tree"/tests/*.ok "$tree"/tests/*.failed
	(cd "$tree" && make -j"$(nproc)" check) >"$tree.check.log" 2>&1 || true
	(cd "$tree/tests" && ls -- *.ok 2>/dev/null | sed 's/\.ok$//' | sort) >"$tree.passed"
	(cd "$tree/tests" && ls -- *.failed 2>/dev/null | sed 's/\.failed$//' | sort) >"$tree.failed"
	echo "# ${tree##*/}: $(wc -l <"$tree.passed") passed, $(wc -l <"$tree.failed") failed: $(xargs <"$tree.failed")"
}

# The new test alone in TREE (copied in when TREE lacks it, and taken
# out again): 0 when it passed.
run_new_test() {
	local tree=$1 from=$2 copied=0 passed=1

	if [[ ! -d $tree/tests/$new_test ]]; then
		cp -a "$from/tests/$new_test" "$tree/tests/"
		copied=1
	fi
	rm -f "$tree/tests/$new_test.ok" "$tree/tests/$new_test.failed"
	(cd "$tree/tests" && ./test_one "$new_test") >"$tree.$new_test.log" 2>&1 || true
	[[ -f $tree/tests/$new_test.ok ]] || passed=0
	((copied == 0)) || rm -rf "${tree:?}/tests/$new_test"
	((passed))
}

upstream_main "$@"
