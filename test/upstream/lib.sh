# shellcheck shell=bash
# What the two drivers (e2fsprogs/check.sh, util-linux/check.sh) share:
# the options, the two build trees and their stamps, and the checks that
# read alike for both.  A driver sets PROJECT (the Debian binary package
# whose source it builds, and the name in its results) and defines
# make_tree TREE (configure and build in TREE, output to stdout), then
# calls upstream_main "$@" with its own run_suite TREE and
# run_new_test TREE FROM.  Sourced, not run.
# shellcheck disable=SC2154 # PROJECT, patch_file, new_test: the driver's

upstream_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=test/lib/lib.sh
. "$upstream_lib/../lib/lib.sh"
# shellcheck source=test/lib/ktap.sh
. "$upstream_lib/../lib/ktap.sh"

# build TREE PATCHED(0/1): the Debian source into TREE, our patch on it
# when PATCHED, make_tree; skipped when TREE's stamp says it is built from
# the same source version, patch, driver and library.  Returns 1 when the build
# fails, 2 when the patch does not apply, 77 when there is no source.
build() {
	local tree=$1 patched=$2 stamp

	stamp=$( { echo "$version $patched"; cat "$patch_file" "$0" "$upstream_lib/lib.sh"; } | sha256sum | cut -c1-16)
	if [[ -f $tree.stamp && $(<"$tree.stamp") == "$stamp" ]]; then
		note "$tree: built already ($stamp)"
		return 0
	fi
	rm -f "$tree.stamp"
	"$upstream_lib/source.sh" "$PROJECT" "$tree" >/dev/null || return $?
	if ((patched)); then
		patch -d "$tree" -p1 -s --no-backup-if-mismatch <"$patch_file" \
			>"$tree.patch.log" 2>&1 || return 2
	fi
	note "building $tree (log: $tree.build.log)"
	(cd "$tree" && make_tree) >"$tree.build.log" 2>&1 ||
		{ tail -n 20 "$tree.build.log" >&2; return 1; }
	echo "$stamp" >"$tree.stamp"
}

# check_builds: both trees, with a result each; exits on a failure.
check_builds() {
	local rc=0

	build "$patched" 1 || rc=$?
	((rc != 77)) || exit 77
	ktap_header
	if ((rc == 2)); then
		ktap_fail "the patch applies to $PROJECT $version: $(head -n 3 "$patched.patch.log")"
	else
		ktap_pass "the patch applies to $PROJECT $version (Debian source)"
	fi
	if ((rc == 0)); then ktap_pass "patched $PROJECT builds"; else ktap_fail "patched $PROJECT builds"; fi
	if build "$unpatched" 0; then ktap_pass "unpatched $PROJECT builds"; else ktap_fail "unpatched $PROJECT builds"; fi
	if ((KTAP_FAIL)); then
		ktap_totals "upstream.$PROJECT"
		exit 1
	fi
}

# check_suites: run_suite in both trees (the names of the tests that
# passed in TREE.passed; the new test's is $new_test_name, else
# $new_test), no regression, and the new test passes patched and fails
# unpatched.
check_suites() {
	local regressions

	run_suite "$unpatched"
	run_suite "$patched"
	if [[ -s $unpatched.passed ]]; then
		ktap_pass "the suite runs unpatched ($(wc -l <"$unpatched.passed") tests pass)"
	else
		ktap_fail "the suite runs unpatched (no test passed: see its log in $out)"
	fi
	regressions=$(comm -23 "$unpatched.passed" "$patched.passed" | xargs -d '\n')
	if [[ -z $regressions ]]; then
		ktap_pass "every test that passed unpatched passes patched ($(wc -l <"$unpatched.passed"))"
	else
		ktap_fail "tests that passed unpatched fail patched: $regressions"
	fi
	if grep -qxF "${new_test_name:-$new_test}" "$patched.passed"; then
		ktap_pass "the new test $new_test passes patched"
	else
		ktap_fail "the new test $new_test passes patched"
	fi
	if run_new_test "$unpatched" "$patched"; then
		ktap_fail "the new test $new_test fails unpatched (it passed: it tests nothing the patch changes)"
	else
		ktap_pass "the new test $new_test fails unpatched"
	fi
}

upstream_main() {
	out=""
	while (($#)); do
		case $1 in
		--out) out=${2:?}; shift ;;
		*) echo "usage: ${0##*/} --out DIR" >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $out ]] || { echo "usage: ${0##*/} --out DIR" >&2; exit 2; }
	[[ -n $new_test ]] || die "'$patch_file' adds no test"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	unpatched=$out/unpatched
	patched=$out/patched
	version=$(dpkg-query -W -f '${source:Version}' "$PROJECT" 2>/dev/null) ||
		skip "$PROJECT is not installed"
	check_builds
	check_suites
	ktap_totals "upstream.$PROJECT"
	((KTAP_FAIL == 0))
}
