# shellcheck shell=bash
# What every benchmark in test/bench/ prints its numbers with.

# median: the middle of the numbers on stdin, one a line.
median() {
	sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

# ratio A B: A / B to two places, "-" when B is 0.
ratio() {
	if [ "$2" = 0 ]; then
		echo "-"
	else
		printf '%.2f' "$(echo "$1 / $2" | bc -l)"
	fi
}

# human BYTES: 1.2GB and the like.
human() {
	numfmt --to=iec --suffix=B "$1"
}
