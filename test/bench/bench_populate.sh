#!/bin/bash
# ext4dev mkfs -d against mke2fs -t ext4 -E test_fs -d on two generated,
# deterministic trees: "files", about 10,000 files and 1 GiB of data in
# 100 directories (with symbolic and hard links), and "sparse", 40 large
# files that are mostly holes.  Median wall time over alternating runs
# on a fresh image each, the ratio ext4dev / mke2fs (below 1 is better
# for ext4dev), bytes read from the tree and written to the image
# (strace), peak RSS (GNU time), and whether the two images are the same
# bytes (same UUID, hash seed and clock).  Prints a Markdown table.  Not
# a test: numbers, not verdicts.
#
#   EXT4DEV=build/cli/ext4dev test/bench/bench_populate.sh [runs] [trees...]
set -euo pipefail
# shellcheck source=test/bench/lib.sh
. "$(dirname "$0")/lib.sh"

: "${EXT4DEV:=$(dirname "$0")/../../build/cli/ext4dev}"
bench_args bench_populate "$@"
TREES=("${ARGS[@]}")
[ ${#TREES[@]} -gt 0 ] || TREES=(files sparse)
bench_needs bench_populate strace /usr/bin/time mke2fs numfmt bc python3 cmp
# On disk, not tmpfs: a GiB of tree and two of image.
bench_work bench-populate /var/tmp
export LC_ALL=C E2FSPROGS_FAKE_TIME=1700000000
U=0e4de000-1111-4222-8333-444455556666

# make_tree KIND DIR: the tree, the same bytes every time.
make_tree() {
	python3 - "$1" "$2" <<'PY'
import os, random, sys
kind, root = sys.argv[1], sys.argv[2]
rng = random.Random(4)
block = rng.randbytes(1 << 20)          # data that does not compress
if kind == 'files':
    # 10,000 files, sizes from a few bytes to 2 MiB, about 1 GiB in all.
    for i in range(10000):
        d = os.path.join(root, f'dir{i // 100:03d}')
        os.makedirs(d, exist_ok=True)
        size = int(rng.lognormvariate(10.2, 1.9)) % (2 << 20)
        off = rng.randrange(1 << 20)
        data = (block[off:] + block * (size // len(block) + 1))[:size]
        with open(os.path.join(d, f'file{i:05d}'), 'wb') as f:
            f.write(data)
    for i in range(0, 10000, 50):
        d = os.path.join(root, f'dir{i // 100:03d}')
        os.symlink(f'file{i:05d}', os.path.join(d, f'link{i:05d}'))
        os.link(os.path.join(d, f'file{i:05d}'), os.path.join(d, f'hard{i:05d}'))
else:
    # 40 files of 256 MiB to 5 GiB, 64 KiB of data every 64 MiB.
    os.makedirs(root)
    for i in range(40):
        size = (256 << 20) * (1 + i % 20)
        with open(os.path.join(root, f'sparse{i:02d}'), 'wb') as f:
            f.truncate(size)
            for off in range(0, size, 64 << 20):
                f.seek(off + rng.randrange(1 << 20))
                f.write(block[:64 << 10])
PY
}

image_size() { if [ "$1" = files ]; then echo 2G; else echo 256M; fi; }

# cmd ours|theirs TREE IMG: the command line, one word a line.
cmd() {
	if [ "$1" = ours ]; then
		printf '%s\n' "$EXT4DEV" mkfs -q -U "$U" -E "hash_seed=$U" \
			-d "$2" "$3"
	else
		printf '%s\n' mke2fs -q -F -t ext4 -U "$U" \
			-E "test_fs,hash_seed=$U" -d "$2" "$3"
	fi
}

# wall TOOL TREE IMG SIZE: microseconds for one run on a fresh image.
wall() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2" "$3")
	fresh "$3" "$4"
	micros "${argv[@]}"
}

# io TOOL TREE IMG SIZE: "read-from-tree written-to-image" bytes.
io() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2" "$3")
	fresh "$3" "$4"
	strace -f -y -o "$WORK/trace" \
		-e trace=read,pread64,readv,preadv,write,pwrite64,writev,pwritev \
		"${argv[@]}" >/dev/null 2>&1
	awk -v tree="<$2/" -v img="<$3>" '
		/ = [0-9]+$/ {
			n = $NF
			if (index($0, tree) && $0 ~ /read/) r += n
			else if (index($0, img) && $0 ~ /write/) w += n
		}
		END { printf "%d %d\n", r, w }' "$WORK/trace"
}

# rss TOOL TREE IMG SIZE: peak resident set in KiB.
rss() {
	local argv
	mapfile -t argv < <(cmd "$1" "$2" "$3")
	fresh "$3" "$4"
	/usr/bin/time -f %M -o "$WORK/rss" "${argv[@]}" >/dev/null 2>&1
	tail -1 "$WORK/rss"
}

# same TREE SIZE: "yes" when both tools make the same image.
same() {
	local argv
	mapfile -t argv < <(cmd ours "$1" "$WORK/ours.img")
	fresh "$WORK/ours.img" "$2"
	"${argv[@]}" >/dev/null 2>&1
	mapfile -t argv < <(cmd theirs "$1" "$WORK/theirs.img")
	fresh "$WORK/theirs.img" "$2"
	"${argv[@]}" >/dev/null 2>&1
	# s_kbytes_written (0x178 of the primary) counts the writes each
	# tool made through its own descriptor; nothing else may differ.
	if cmp -s -i 1400:1400 "$WORK/ours.img" "$WORK/theirs.img" &&
	   cmp -s -n 1400 "$WORK/ours.img" "$WORK/theirs.img"; then
		echo yes
	else
		echo no
	fi
	rm -f "$WORK/ours.img" "$WORK/theirs.img"
}

row() {
	local kind=$1 tree=$WORK/$1 img=$WORK/bench.img size i mo mt ro rt wo wt so st
	size=$(image_size "$kind")
	make_tree "$kind" "$tree"
	: >"$WORK/t_ours"
	: >"$WORK/t_theirs"
	for ((i = 0; i < RUNS; i++)); do
		wall ours "$tree" "$img" "$size" >>"$WORK/t_ours"
		wall theirs "$tree" "$img" "$size" >>"$WORK/t_theirs"
	done
	mo=$(median <"$WORK/t_ours")
	mt=$(median <"$WORK/t_theirs")
	read -r ro wo < <(io ours "$tree" "$img" "$size")
	read -r rt wt < <(io theirs "$tree" "$img" "$size")
	so=$(rss ours "$tree" "$img" "$size")
	st=$(rss theirs "$tree" "$img" "$size")
	printf '| %s (%s apparent, %s files, image %s) | %.0f ms | %.0f ms | %s | %s / %s | %s / %s | %s MiB / %s MiB | %s |\n' \
		"$kind" "$(du -sh --apparent-size "$tree" | cut -f1)B" \
		"$(find "$tree" -type f -printf '%i\n' | sort -u | wc -l)" "$size" \
		"$(echo "$mo / 1000" | bc -l)" "$(echo "$mt / 1000" | bc -l)" \
		"$(ratio "$mo" "$mt")" "$(human "$ro")" "$(human "$rt")" \
		"$(human "$wo")" "$(human "$wt")" \
		"$(printf '%.1f' "$(echo "$so / 1024" | bc -l)")" \
		"$(printf '%.1f' "$(echo "$st / 1024" | bc -l)")" \
		"$(same "$tree" "$size")"
	rm -rf "$tree" "$img"
}

echo "ext4dev mkfs -d vs mke2fs -t ext4 -E test_fs -d on a fresh sparse image;"
echo "runs per cell: $RUNS alternating (median), $(nproc) CPUs, $(uname -r),"
echo "$(mke2fs -V 2>&1 | head -1)"
echo
echo "| tree | ext4dev median | mke2fs median | time ratio | read from the tree: ext4dev / mke2fs | written to the image: ext4dev / mke2fs | peak RSS: ext4dev / mke2fs | same bytes |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for kind in "${TREES[@]}"; do
	row "$kind"
done
