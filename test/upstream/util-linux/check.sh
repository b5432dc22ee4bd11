#!/bin/bash
# Our libblkid patch, built and tested with util-linux's own blkid tests
# on the Debian source of the util-linux this machine runs: the source
# unpatched and patched, each configured for libblkid and blkid only and
# built, `tests/run.sh blkid` in both; every test that passed unpatched
# must pass patched, and the patch's new test must pass patched and fail
# unpatched.  KTAP out.
#
# usage: check.sh --out DIR
# DIR/unpatched and DIR/patched are the two build trees; DIR/lib holds
# the patched libblkid.so.1, which upstream.blkid_stock's guest loads
# with LD_LIBRARY_PATH.  A tree is rebuilt only when the source version,
# the patch or this script changed (DIR/<tree>.stamp).
# exit: 0, 1 (a check failed), 77 (no Debian source here)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PROJECT=util-linux
patch_file=$(ls "$here"/0*.patch)
# The test the patch adds, tests/ts/<component>/<name>, run as
# <component>/<name> and reported as "<component>: <name>" (its TS_DESC).
new_test=$(sed -n 's|^+++ b/tests/ts/\([^/]*/[^/]*\)$|\1|p' "$patch_file")
new_test_name="${new_test%%/*}: ${new_test#*/}"
# shellcheck source=test/upstream/lib.sh
. "$here/../lib.sh"

make_tree() {
	./configure --disable-all-programs --enable-libblkid --enable-blkid \
		--disable-nls --without-python --without-systemd \
		--without-udev && make -j"$(nproc)" blkid
}

# util-linux's runner on the blkid tests (or TEST): "name|STATUS" for
# each test and sub-test into TREE.results, the names that passed into
# TREE.passed.
run_tests() {
	local tree=$1

	rm -rf "$tree/tests/output"
	(cd "$tree" && tests/run.sh --srcdir="$tree" --builddir="$tree" \
		--parallel=1 "${2:-blkid}") >"$tree.tests.log" 2>&1 || true
	sed -n 's/^ *\(.*[^ ]\) *\.\.\. \([A-Z]*\).*/\1|\2/p' "$tree.tests.log" |
		tr -s ' ' >"$tree.results"
	sed -n 's/|OK$//p' "$tree.results" | sort >"$tree.passed"
}

run_suite() {
	run_tests "$1"
	echo "# ${1##*/}: $(wc -l <"$1.passed") passed; not passed: $(grep -v '|OK$' "$1.results" | xargs -d '\n')"
	# The patched library where the guest finds it.
	if [[ $1 == "$patched" ]]; then
		rm -rf "${out:?}/lib"
		mkdir -p "$out/lib"
		cp "$(readlink -f "$1/.libs/libblkid.so.1")" "$out/lib/libblkid.so.1"
	fi
}

# The new test alone in TREE (copied in, with its expected output, when
# TREE lacks it, and taken out again): 0 when it passed.
run_new_test() {
	local tree=$1 from=$2 copied=0 passed=1

	if [[ ! -f $tree/tests/ts/$new_test ]]; then
		cp "$from/tests/ts/$new_test" "$tree/tests/ts/$new_test"
		cp "$from/tests/expected/$new_test" "$tree/tests/expected/$new_test"
		copied=1
	fi
	run_tests "$tree" "$new_test"
	grep -q '|OK$' "$tree.results" || passed=0
	if ((copied)); then
		rm -f "$tree/tests/ts/$new_test" "$tree/tests/expected/$new_test"
	fi
	((passed))
}

upstream_main "$@"
