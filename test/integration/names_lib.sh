# shellcheck shell=bash
# Helpers shared by the tests of every name of the same bytes
# (aliases.sh, identity.sh): loop devices kept for cleanup, and the
# refusal check that holds every image and layer to its bytes.

LOOPS=()

# attach VAR FILE [LOSETUP-ARGS...]: a new loop device in VAR, kept for
# cleanup in LOOPS (not in a subshell, so that LOOPS keeps it).
attach() {
	local var=$1 file=$2 l
	shift 2
	l=$(losetup -f --show "$@" "$file") || skip "no loop device support here"
	LOOPS+=("$l")
	printf -v "$var" '%s' "$l"
}

# detach_all: every loop device in LOOPS, the top of a chain first (a
# loop device on another one holds it).
detach_all() {
	local i
	for ((i = ${#LOOPS[@]} - 1; i >= 0; i--)); do
		partx -d "${LOOPS[i]}" 2>/dev/null || true
		losetup -d "${LOOPS[i]}" 2>/dev/null || true
	done
	LOOPS=()
}

# state FILES...: each file's bytes (data and holes) and partition
# table, or "absent".
state() {
	local f
	for f in "$@"; do
		if [ -e "$f" ]; then
			echo "$(sparse_sha "$f") $(sfdisk -d "$f" 2>/dev/null | sha256sum)"
		else
			echo absent
		fi
	done
}

# refused PATTERN "FILES..." ARGS...: ext4dev ARGS exits 8 with one
# stderr line matching PATTERN, and every file in FILES (paths without
# spaces) is as it was, byte for byte and hole for hole.
refused() {
	local pattern=$1 files=$2 before rc
	shift 2
	# shellcheck disable=SC2086 # FILES is a list of paths
	before=$(state $files)
	run_capture "$WORK/out" "$WORK/err" rc "$EXT4DEV" "$@"
	[ "$rc" = 8 ] || { echo "$*: exit $rc: $(cat "$WORK/err")"; return 1; }
	grep -q -- "$pattern" "$WORK/err" ||
		{ echo "$*: expected '$pattern': $(cat "$WORK/err")"; return 1; }
	[ "$(wc -l <"$WORK/err")" = 1 ] ||
		{ echo "$*: not one line: $(cat "$WORK/err")"; return 1; }
	# shellcheck disable=SC2086
	[ "$(state $files)" = "$before" ] ||
		{ echo "$*: a file changed"; return 1; }
}

# every_writer PATTERN "FILES..." NAME: mkfs and both marks, and their
# dry runs, through NAME, each refused.
every_writer() {
	local pattern=$1 files=$2 name=$3 cmd
	check "mkfs -F $name" refused "$pattern" "$files" mkfs -F -q "$name"
	check "mkfs -n -F $name" refused "$pattern" "$files" mkfs -n -F "$name"
	for cmd in mark-test mark-production; do
		check "$cmd $name" refused "$pattern" "$files" "$cmd" "$name"
		check "$cmd -n $name" refused "$pattern" "$files" "$cmd" -n "$name"
	done
}
