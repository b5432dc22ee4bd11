#!/bin/bash
# run_fuzz.sh FUZZER KIND SECONDS [libFuzzer options...]
# Seed a fresh corpus (seeds.sh KIND), fuzz for SECONDS, print libFuzzer's
# final stats and the plain closing line.  A crash, leak, timeout or
# sanitizer report fails the test; the input that caused it is kept as
# $EXT4DEV_FUZZ_ARTIFACTS/crash-* (default: the current directory).
#
# Long run, e.g. an hour on both cores, keeping the corpus:
#   EXT4DEV_FUZZ_CORPUS=$HOME/fuzz-device test/fuzz/run_fuzz.sh \
#       /tmp/asan-build/test/fuzz/fuzz_device device 3600 -jobs=2 -workers=2
set -euo pipefail

fuzzer=$1
kind=$2
seconds=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
name=fuzz.$kind

if [ ! -x "$fuzzer" ]; then
	echo "SKIP: no fuzzer at '$fuzzer'"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ext4dev-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=${EXT4DEV_FUZZ_CORPUS:-$work/corpus}
artifacts=${EXT4DEV_FUZZ_ARTIFACTS:-$PWD}
mkdir -p "$corpus" "$work/seeds" "$artifacts"
bash "$here/seeds.sh" "$kind" "$work/seeds"
echo "$name: $(find "$work/seeds" -type f | wc -l) seeds, ${seconds}s"

# libFuzzer exits 77 on a crash by default, which CTest would take for
# a skip: make every failure exit 1.
set +e
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-error_exitcode=1 -timeout_exitcode=1 -close_fd_mask=3 \
	-print_final_stats=1 -artifact_prefix="$artifacts/" "$@" \
	"$corpus" "$work/seeds" >"$work/log" 2>&1
rc=$?
set -e
grep -E '^(stat::|#[0-9]+[[:space:]]+(DONE|INITED))|ERROR|SUMMARY|^==|Test unit written' \
	"$work/log" || true
# No final stats line: the fuzzer did not finish its run.
if [ "$rc" -eq 0 ] && ! grep -qE '^#[0-9]+[[:space:]]+DONE' "$work/log"; then
	echo "$name: the fuzzer exited 0 without its final stats"
	rc=1
fi
if [ "$rc" -ne 0 ]; then
	tail -n 60 "$work/log" || true
	echo "$name: 0 passed, 1 failed"
	exit 1
fi
echo "$name: 1 passed, 0 failed"
