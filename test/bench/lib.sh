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

# bench_args NAME ARGS...: RUNS from the first argument (default 5),
# the rest in ARGS; a bad count exits 2.
bench_args() {
	local name=$1
	shift
	# shellcheck disable=SC2034 # for the scripts that source this
	RUNS=${1:-5}
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] ||
		{ echo "$name: runs must be a positive number, not '$RUNS'" >&2; exit 2; }
	shift || true
	# shellcheck disable=SC2034 # for the scripts that source this
	ARGS=("$@")
}

# bench_needs NAME TOOL...: exit 1 naming the first tool missing.
bench_needs() {
	local name=$1 tool
	shift
	for tool in "$@"; do
		command -v "$tool" >/dev/null ||
			{ echo "$name: needs $tool" >&2; exit 1; }
	done
}

# bench_work NAME PARENT: WORK, a scratch directory under PARENT (or
# TMPDIR), removed on exit.
bench_work() {
	WORK=$(mktemp -d "${TMPDIR:-$2}/ext4dev-$1.XXXXXX")
	# shellcheck disable=SC2064 # WORK is fixed from here on
	trap "rm -rf '$WORK'" EXIT
}

# micros COMMAND...: microseconds one run of COMMAND takes, output
# discarded.
micros() {
	local start end
	start=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	end=$(date +%s%N)
	echo $(((end - start) / 1000))
}

# fresh IMG SIZE: a new sparse image, as a user or a pipeline starts from.
fresh() {
	rm -f "$1"
	truncate -s "$2" "$1"
}
