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
# shellcheck source=test/lib/lib.sh
. "$here/../../lib/lib.sh"
# shellcheck source=test/lib/ktap.sh
. "$here/../../lib/ktap.sh"

patch_file=$(ls "$here"/0*.patch)
# The test the patch adds, tests/<name>/ (its script, name and expect).
new_test=$(sed -n 's|^+++ b/tests/\([^/]*\)/script$|\1|p' "$patch_file")

# build TREE PATCHED(0/1): unpack, patch, configure and make TREE unless
# its stamp says it is built from the same inputs.  Returns 1 when the
# build fails, 2 when the patch does not apply, 77 when there is no
# Debian source to build.
build() {
	local tree=$1 patched=$2 stamp

	stamp=$( { echo "$version $patched"; cat "$patch_file" "$0"; } | sha256sum | cut -c1-16)
	if [[ -f $tree.stamp && $(<"$tree.stamp") == "$stamp" ]]; then
		note "$tree: built already ($stamp)"
		return 0
	fi
	rm -f "$tree.stamp"
	"$here/../source.sh" e2fsprogs "$tree" >/dev/null || return $?
	if ((patched)); then
		patch -d "$tree" -p1 -s --no-backup-if-mismatch <"$patch_file" \
			>"$tree.patch.log" 2>&1 || return 2
	fi
	note "building $tree (log: $tree.build.log)"
	(cd "$tree" && ./configure && make -j"$(nproc)") >"$tree.build.log" 2>&1 ||
		{ tail -n 20 "$tree.build.log" >&2; return 1; }
	echo "$stamp" >"$tree.stamp"
}

# make_check TREE: e2fsprogs' whole suite; the names of the tests that
# passed (tests/NAME.ok) into TREE.passed, the failed into TREE.failed.
make_check() {
	local tree=$1

	rm -f "$tree"/tests/*.ok "$tree"/tests/*.failed
	(cd "$tree" && make -j"$(nproc)" check) >"$tree.check.log" 2>&1 || true
	(cd "$tree/tests" && ls -- *.ok 2>/dev/null | sed 's/\.ok$//' | sort) >"$tree.passed"
	(cd "$tree/tests" && ls -- *.failed 2>/dev/null | sed 's/\.failed$//' | sort) >"$tree.failed"
}

# The new test, run alone in TREE (copied in when TREE lacks it): 0 when
# it passed.
run_new_test() {
	local tree=$1 from=$2

	local copied=0 passed=1

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

main() {
	local out="" unpatched patched rc regressions

	while (($#)); do
		case $1 in
		--out) out=${2:?}; shift ;;
		*) echo "usage: ${0##*/} --out DIR" >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $out ]] || { echo "usage: ${0##*/} --out DIR" >&2; exit 2; }
	[[ -n $new_test ]] || die "'$patch_file' adds no tests/<name>/script"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	unpatched=$out/unpatched
	patched=$out/patched
	version=$(dpkg-query -W -f '${source:Version}' e2fsprogs 2>/dev/null) ||
		skip "e2fsprogs is not installed"

	rc=0
	build "$patched" 1 || rc=$?
	((rc != 77)) || exit 77
	ktap_header
	if ((rc == 2)); then
		ktap_fail "the patch applies to e2fsprogs $version: $(head -n 3 "$patched.patch.log")"
	else
		ktap_pass "the patch applies to e2fsprogs $version (Debian source)"
	fi
	if ((rc == 0)); then ktap_pass "patched e2fsprogs builds"; else ktap_fail "patched e2fsprogs builds"; fi
	if build "$unpatched" 0; then ktap_pass "unpatched e2fsprogs builds"; else ktap_fail "unpatched e2fsprogs builds"; fi
	if ((KTAP_FAIL)); then
		ktap_totals upstream.e2fsprogs
		exit 1
	fi

	make_check "$unpatched"
	make_check "$patched"
	echo "# unpatched: $(wc -l <"$unpatched.passed") passed, $(wc -l <"$unpatched.failed") failed: $(xargs <"$unpatched.failed")"
	echo "# patched: $(wc -l <"$patched.passed") passed, $(wc -l <"$patched.failed") failed: $(xargs <"$patched.failed")"
	if [[ -s $unpatched.passed ]]; then
		ktap_pass "make check runs unpatched ($(wc -l <"$unpatched.passed") tests pass)"
	else
		ktap_fail "make check runs unpatched (no test passed: see $unpatched.check.log)"
	fi
	regressions=$(comm -23 "$unpatched.passed" "$patched.passed" | xargs)
	if [[ -z $regressions ]]; then
		ktap_pass "every test that passed unpatched passes patched ($(wc -l <"$unpatched.passed"))"
	else
		ktap_fail "tests that passed unpatched fail patched: $regressions"
	fi
	if grep -qx "$new_test" "$patched.passed"; then
		ktap_pass "the new test $new_test passes patched"
	else
		ktap_fail "the new test $new_test passes patched: $(cat "$patched/tests/$new_test.failed" 2>/dev/null | head -n 20)"
	fi
	if run_new_test "$unpatched" "$patched"; then
		ktap_fail "the new test $new_test fails unpatched (it passed: it tests nothing the patch changes)"
	else
		ktap_pass "the new test $new_test fails unpatched"
	fi
	ktap_totals upstream.e2fsprogs
	((KTAP_FAIL == 0))
}

main "$@"
