#!/bin/bash
# ext4dev mkfs against mke2fs -t ext4 -E test_fs on fresh sparse images
# (1 GiB and 15 TiB by default): median wall time over alternating runs,
# bytes written to the image (strace: write calls, and separately the
# ranges zeroed or punched with fallocate), peak RSS (GNU time), and
# the ratios ext4dev / mke2fs (below 1 is better for ext4dev).  Prints a
# Markdown table.  Not a test: numbers, not verdicts.
#
#   EXT4DEV=build/cli/ext4dev test/bench/bench_mkfs.sh [runs] [sizes...]
set -euo pipefail
# shellcheck source=test/bench/lib.sh
. "$(dirname "$0")/lib.sh"

: "${EXT4DEV:=$(dirname "$0")/../../build/cli/ext4dev}"
bench_args bench_mkfs "$@"
SIZES=("${ARGS[@]}")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1G 15T)
bench_needs bench_mkfs strace /usr/bin/time mke2fs numfmt bc
bench_work bench-mkfs /tmp
export LC_ALL=C

OURS=("$EXT4DEV" mkfs -q)
THEIRS=(mke2fs -q -t ext4 -E test_fs)

# cmd ours|theirs IMG: the command line, one word a line.
cmd() {
	if [ "$1" = ours ]; then
		printf '%s\n' "${OURS[@]}" "$2"
	else
		printf '%s\n' "${THEIRS[@]}" "$2"
	fi
}

# wall TOOL IMG SIZE: microseconds for one run on a fresh image.
wall() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2")
	fresh "$2" "$3"
	micros "${argv[@]}"
}

# io TOOL IMG SIZE: "written zeroed" bytes on IMG's descriptors.
io() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2")
	fresh "$2" "$3"
	strace -f -y -o "$WORK/trace" \
		-e trace=write,pwrite64,writev,pwritev,pwritev2,fallocate \
		"${argv[@]}" >/dev/null 2>&1
	awk -v img="<$2>" '
		index($0, img) == 0 { next }
		/fallocate\(/ {
			s = $0; sub(/\) += .*/, "", s)
			n = split(s, f, ", "); z += f[n]; next
		}
		/write/ { s = $0; sub(/.*= /, "", s); w += s }
		END { printf "%d %d\n", w, z }' "$WORK/trace"
}

# rss TOOL IMG SIZE: peak resident set in KiB.
rss() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2")
	fresh "$2" "$3"
	/usr/bin/time -f %M -o "$WORK/rss" "${argv[@]}" >/dev/null 2>&1
	tail -1 "$WORK/rss"
}

row() {
	local size=$1 img=$WORK/bench.img i mo mt wo wt zo zt ro rt
	: >"$WORK/t_ours"
	: >"$WORK/t_theirs"
	for ((i = 0; i < RUNS; i++)); do
		wall ours "$img" "$size" >>"$WORK/t_ours"
		wall theirs "$img" "$size" >>"$WORK/t_theirs"
	done
	mo=$(median <"$WORK/t_ours")
	mt=$(median <"$WORK/t_theirs")
	read -r wo zo < <(io ours "$img" "$size")
	read -r wt zt < <(io theirs "$img" "$size")
	ro=$(rss ours "$img" "$size")
	rt=$(rss theirs "$img" "$size")
	rm -f "$img"
	printf '| %s | %.1f ms | %.1f ms | %s | %s / %s | %s | %s / %s | %s MiB / %s MiB | %s |\n' \
		"$size" "$(echo "$mo / 1000" | bc -l)" \
		"$(echo "$mt / 1000" | bc -l)" "$(ratio "$mo" "$mt")" \
		"$(human "$wo")" "$(human "$wt")" "$(ratio "$wo" "$wt")" \
		"$(human "$zo")" "$(human "$zt")" \
		"$(printf '%.1f' "$(echo "$ro / 1024" | bc -l)")" \
		"$(printf '%.1f' "$(echo "$rt / 1024" | bc -l)")" \
		"$(ratio "$ro" "$rt")"
}

echo "ext4dev mkfs vs mke2fs -t ext4 -E test_fs on a fresh sparse image;"
echo "runs per cell: $RUNS alternating (median), $(nproc) CPUs, $(uname -r),"
echo "$(mke2fs -V 2>&1 | head -1)"
echo
echo "| image | ext4dev median | mke2fs median | time ratio | written: ext4dev / mke2fs | written ratio | fallocate zero/punch: ext4dev / mke2fs | peak RSS: ext4dev / mke2fs | RSS ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for size in "${SIZES[@]}"; do
	row "$size"
done
