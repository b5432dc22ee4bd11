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
# shellcheck source=test/lib/lib.sh
. "$here/../../lib/lib.sh"
# shellcheck source=test/lib/ktap.sh
. "$here/../../lib/ktap.sh"

patch_file=$(ls "$here"/0*.patch)
# The test the patch adds: tests/ts/<component>/<name>, run as
# <component>/<name>.
new_test=$(sed -n 's|^+++ b/tests/ts/\([^/]*/[^/]*\)$|\1|p' "$patch_file")

# build TREE PATCHED(0/1): as e2fsprogs/check.sh's build(), for libblkid
# and blkid only.
build() {
	local tree=$1 patched=$2 stamp

	stamp=$( { echo "$version $patched"; cat "$patch_file" "$0"; } | sha256sum | cut -c1-16)
	if [[ -f $tree.stamp && $(<"$tree.stamp") == "$stamp" ]]; then
		note "$tree: built already ($stamp)"
		return 0
	fi
	rm -f "$tree.stamp"
	"$here/../source.sh" util-linux "$tree" >/dev/null || return $?
	if ((patched)); then
		patch -d "$tree" -p1 -s --no-backup-if-mismatch <"$patch_file" \
			>"$tree.patch.log" 2>&1 || return 2
	fi
	note "building $tree (log: $tree.build.log)"
	(cd "$tree" && ./configure --disable-all-programs --enable-libblkid \
		--enable-blkid --disable-nls --without-python --without-systemd \
		--without-udev && make -j"$(nproc)" blkid) >"$tree.build.log" 2>&1 ||
		{ tail -n 20 "$tree.build.log" >&2; return 1; }
	echo "$stamp" >"$tree.stamp"
}

# run_tests TREE [TEST]: util-linux's runner on the blkid tests (or one);
# "name status" lines for each test and sub-test into TREE.results, the
# names that passed into TREE.passed.
run_tests() {
	local tree=$1

	rm -rf "$tree/tests/output"
	(cd "$tree" && tests/run.sh --srcdir="$tree" --builddir="$tree" \
		--parallel=1 "${2:-blkid}") >"$tree.tests.log" 2>&1 || true
	sed -n 's/^ *\(.*[^ ]\) *\.\.\. \([A-Z]*\).*/\1|\2/p' "$tree.tests.log" |
		tr -s ' ' >"$tree.results"
	sed -n 's/|OK$//p' "$tree.results" | sort >"$tree.passed"
}

# The new test alone in TREE (copied in, with its expected output, when
# TREE lacks it): 0 when it passed.
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

# The patched library where the guest finds it.
export_lib() {
	local lib

	lib=$(readlink -f "$patched/.libs/libblkid.so.1")
	[[ -f $lib ]] || return 1
	rm -rf "${out:?}/lib"
	mkdir -p "$out/lib"
	cp "$lib" "$out/lib/libblkid.so.1"
}

main() {
	local rc regressions

	out=""
	while (($#)); do
		case $1 in
		--out) out=${2:?}; shift ;;
		*) echo "usage: ${0##*/} --out DIR" >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $out ]] || { echo "usage: ${0##*/} --out DIR" >&2; exit 2; }
	[[ -n $new_test ]] || die "'$patch_file' adds no tests/ts/<component>/<name>"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	unpatched=$out/unpatched
	patched=$out/patched
	version=$(dpkg-query -W -f '${source:Version}' util-linux 2>/dev/null) ||
		skip "util-linux is not installed"

	rc=0
	build "$patched" 1 || rc=$?
	((rc != 77)) || exit 77
	ktap_header
	if ((rc == 2)); then
		ktap_fail "the patch applies to util-linux $version: $(head -n 3 "$patched.patch.log")"
	else
		ktap_pass "the patch applies to util-linux $version (Debian source)"
	fi
	if ((rc == 0)) && export_lib; then ktap_pass "patched libblkid and blkid build"; else ktap_fail "patched libblkid and blkid build"; fi
	if build "$unpatched" 0; then ktap_pass "unpatched libblkid and blkid build"; else ktap_fail "unpatched libblkid and blkid build"; fi
	if ((KTAP_FAIL)); then
		ktap_totals upstream.util_linux
		exit 1
	fi

	run_tests "$unpatched"
	run_tests "$patched"
	echo "# unpatched: $(wc -l <"$unpatched.passed") passed; not passed: $(grep -v '|OK$' "$unpatched.results" | xargs -d '\n')"
	echo "# patched: $(wc -l <"$patched.passed") passed; not passed: $(grep -v '|OK$' "$patched.results" | xargs -d '\n')"
	if [[ -s $unpatched.passed ]]; then
		ktap_pass "the blkid tests run unpatched ($(wc -l <"$unpatched.passed") tests and sub-tests pass)"
	else
		ktap_fail "the blkid tests run unpatched (none passed: see $unpatched.tests.log)"
	fi
	regressions=$(comm -23 "$unpatched.passed" "$patched.passed" | xargs -d '\n')
	if [[ -z $regressions ]]; then
		ktap_pass "every blkid test that passed unpatched passes patched ($(wc -l <"$unpatched.passed"))"
	else
		ktap_fail "blkid tests that passed unpatched fail patched: $regressions"
	fi
	if grep -q "|OK$" <(grep -F "${new_test#*/}" "$patched.results"); then
		ktap_pass "the new test $new_test passes patched"
	else
		ktap_fail "the new test $new_test passes patched: $(grep -F "${new_test#*/}" "$patched.results")"
	fi
	if run_new_test "$unpatched" "$patched"; then
		ktap_fail "the new test $new_test fails unpatched (it passed: it tests nothing the patch changes)"
	else
		ktap_pass "the new test $new_test fails unpatched"
	fi
	ktap_totals upstream.util_linux
	((KTAP_FAIL == 0))
}

main "$@"
