#!/bin/bash
# The gate's own fstests cases, without an fstests tree: the tests our
# patches add (new files tests/<dir>/<number>, made with fstests' ./new)
# are taken out of the patches into an empty directory, and each must
# parse, have the shape ./new gives (its number in the header, its
# groups on _begin_fstest, _exit at the end) and its golden output.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=/dev/null
. <(sed -n '/^gate_tests()/,/^}/p' "$here/run.sh")

n=0
for p in "$here"/0*.patch; do
	mapfile -t tests < <(gate_tests "$p")
	((${#tests[@]})) || continue
	# Only new files are wanted; the patch's other hunks need a tree.
	newfiles=$tmp/${p##*/}
	awk '/^diff --git /{keep = 0}
	     /^diff --git a\/tests\//{keep = 1}
	     keep' "$p" >"$newfiles"
	patch -d "$tmp" -p1 -s <"$newfiles"
	for t in "${tests[@]}"; do
		f=$tmp/tests/$t
		bash -n "$f"
		grep -qx "# FS QA Test ${t##*/}" "$f" ||
			{ echo "$t: no '# FS QA Test ${t##*/}' header"; exit 1; }
		grep -q '^_begin_fstest [a-z]' "$f" ||
			{ echo "$t: no groups on _begin_fstest"; exit 1; }
		[[ $(tail -n 1 "$f") == "_exit 0" ]] ||
			{ echo "$t: does not end with _exit 0"; exit 1; }
		[[ -x $f ]] || { echo "$t: not executable"; exit 1; }
		head -n 1 "$f.out" | grep -qx "QA output created by ${t##*/}" ||
			{ echo "$t: no golden output"; exit 1; }
		n=$((n + 1))
	done
done
((n > 0)) || { echo "no test added by test/fstests/0*.patch"; exit 1; }
echo "$n fstests tests parse and have ./new's shape and golden output"
