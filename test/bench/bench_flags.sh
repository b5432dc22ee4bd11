#!/bin/bash
# ext4dev show-flags / mark-* against dumpe2fs -h / tune2fs -E, side by
# side in one run: median wall time over alternating runs, bytes read
# and written on the image (strace), and the ratios.  Prints a Markdown
# table.  Not a test: numbers, not verdicts.
#
#   EXT4DEV=build/cli/ext4dev test/bench/bench_flags.sh [runs]
set -euo pipefail
# shellcheck source=test/bench/lib.sh
. "$(dirname "$0")/lib.sh"

: "${EXT4DEV:=$(dirname "$0")/../../build/cli/ext4dev}"
bench_args bench_flags "${1:-7}"
bench_work bench /tmp
# The locale users run in (C.UTF-8 by default): with LC_ALL=C neither
# tool loads any locale file, which hid what setlocale() costs.
export LC_ALL=${BENCH_LOCALE:-C.UTF-8}

make_image() {
	local img=$1 size=$2
	truncate -s "$size" "$img"
	mke2fs -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 \
		"$img" >/dev/null 2>&1
}

# bytes OP IMG COMMAND...: bytes read or written on IMG's descriptors.
bytes() {
	local op=$1 img=$2
	shift 2
	strace -f -y -o "$WORK/trace" \
		-e trace=read,pread64,readv,preadv,write,pwrite64,writev,pwritev \
		"$@" >/dev/null 2>&1 || true
	{ grep -E "^[0-9]+ +p?$op(v|64)?\(.*<$img>" "$WORK/trace" || true; } |
		sed -n 's/.*= \([0-9]*\)$/\1/p' | awk '{s += $1} END {print s + 0}'
}

# row LABEL IMG "OURS..." "THEIRS..." : alternate runs, then I/O.
row() {
	local label=$1 img=$2 ours=$3 theirs=$4 i
	: >"$WORK/t_ours"
	: >"$WORK/t_theirs"
	for ((i = 0; i < RUNS; i++)); do
		# shellcheck disable=SC2086
		micros $ours >>"$WORK/t_ours"
		# shellcheck disable=SC2086
		micros $theirs >>"$WORK/t_theirs"
	done
	local mo mt ro rt wo wt
	mo=$(median <"$WORK/t_ours")
	mt=$(median <"$WORK/t_theirs")
	# shellcheck disable=SC2086
	ro=$(bytes read "$img" $ours)
	# shellcheck disable=SC2086
	rt=$(bytes read "$img" $theirs)
	# shellcheck disable=SC2086
	wo=$(bytes write "$img" $ours)
	# shellcheck disable=SC2086
	wt=$(bytes write "$img" $theirs)
	printf '| %s | %.2f ms | %.2f ms | %.2fx | %s / %s | %s / %s |\n' \
		"$label" "$(echo "$mo / 1000" | bc -l)" \
		"$(echo "$mt / 1000" | bc -l)" \
		"$(echo "$mt / $mo" | bc -l)" \
		"$(human "$ro")" "$(human "$rt")" \
		"$(human "$wo")" "$(human "$wt")"
}

# One "set then clear" pair per run, so every run really writes.
cat >"$WORK/ours_toggle" <<TOGGLE
#!/bin/sh
"$EXT4DEV" mark-test -q "\$1" && "$EXT4DEV" mark-production -q "\$1"
TOGGLE
cat >"$WORK/theirs_toggle" <<'TOGGLE'
#!/bin/sh
tune2fs -E test_fs "$1" >/dev/null && tune2fs -E ^test_fs "$1" >/dev/null
TOGGLE
chmod +x "$WORK/ours_toggle" "$WORK/theirs_toggle"

echo "Runs per cell: $RUNS (median), $(nproc) CPUs, $(uname -r)"
echo
echo "| operation (image) | ext4dev median | e2fsprogs median | speed-up | read: ext4dev / e2fsprogs | written: ext4dev / e2fsprogs |"
echo "| --- | --- | --- | --- | --- | --- |"
for size in 1G 15T; do
	img=$WORK/$size.img
	make_image "$img" "$size"
	row "show-flags vs dumpe2fs -h ($size)" "$img" \
		"$EXT4DEV show-flags $img" "dumpe2fs -h $img"
	row "mark-test+mark-production vs tune2fs -E test_fs,^test_fs ($size)" \
		"$img" "$WORK/ours_toggle $img" "$WORK/theirs_toggle $img"
	# Flag already as asked: ext4dev reads every backup copy to check
	# that they agree and writes nothing; tune2fs rewrites them all.
	"$EXT4DEV" mark-test -q "$img"
	row "mark-test when already set vs tune2fs -E test_fs ($size)" \
		"$img" "$EXT4DEV mark-test -q $img" "tune2fs -E test_fs $img"
	"$EXT4DEV" mark-production -q "$img"
done
