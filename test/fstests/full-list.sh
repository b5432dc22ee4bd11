#!/bin/bash
# The tests of the full ext4 vs ext4dev comparison, from an
# fstests tree, one a line: every test of tests/ext4/, then every sixth
# test of the generic "quick" group in number order, starting with the
# first (a fixed rule: no choosing the tests that pass).  Too long for CI
# and for one guest boot; run it in pieces with run.sh --list:
#
#   FSTESTS_SRC=DIR test/fstests/full-list.sh | split -n l/4 - /tmp/piece.
#   FSTESTS_SRC=DIR test/fstests/run.sh --build BUILD --out OUT1 --list /tmp/piece.aa
set -euo pipefail

src=${FSTESTS_SRC:?point FSTESTS_SRC at an fstests tree}
cd "$src/tests"
printf '%s\n' ext4/[0-9][0-9][0-9]
grep -l '_begin_fstest.*\bquick\b' generic/[0-9][0-9][0-9] | awk 'NR % 6 == 1'
