# shellcheck shell=dash
# Helpers for the guest's test suites; sourced by /init and the suites,
# and by test/system/guest/checks.sh in the Debian guest (mkrootfs.sh
# installs this file there).  busybox sh, so POSIX sh plus what busybox
# ash offers; bash runs it too.
#
# A test is a shell function t_<name>.  It runs in a subshell with set -e;
# it fails by exiting non-zero, and the last "FAIL: ..." line it printed
# becomes the reason on its "not ok" line.  Everything else it prints is
# passed on as KTAP diagnostic lines ("# ...").

MNT=/mnt
STATE=/tmp/state
# busybox sh runs its own applets before searching PATH, so "mount" is
# busybox's, which ignores blkid and tries /proc/filesystems in order.
# util-linux's mount must be called by its path.
# shellcheck disable=SC2034 # used by the suites
UL_MOUNT=/usr/bin/mount

fail() {
	echo "FAIL: $*"
	exit 1
}

note() {
	echo "$*"
}

# The value of NAME=value on the kernel command line, empty if absent.
cmdline_value() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

# The /dev node of the disk the host gave this serial (its role).
disk() {
	local dir

	for dir in /sys/block/vd*; do
		if [ "$(cat "$dir/serial" 2>/dev/null)" = "$1" ]; then
			echo "/dev/${dir##*/}"
			return 0
		fi
	done
	# stderr: the caller's $(...) would swallow stdout.
	echo "FAIL: no disk with serial '$1'" >&2
	exit 1
}

fstype_of() {
	awk -v mnt="$1" '$2 == mnt { t = $3 } END { print t }' /proc/mounts
}

is_mounted() {
	[ -n "$(fstype_of "$1")" ]
}

# Mount with busybox mount, which reports the errno ("Invalid argument"),
# unlike util-linux mount.  Both pass MS_SILENT; the gate ignores it.
bb_mount() {
	busybox mount "$@"
}

expect_mount() {
	local type=$1 dev=$2 out

	out=$(bb_mount -t "$type" "$dev" "$MNT" 2>&1) ||
		fail "mount -t $type $dev failed: $out"
	[ "$(fstype_of "$MNT")" = "$type" ] ||
		fail "$dev is mounted as '$(fstype_of "$MNT")', not $type"
}

expect_umount() {
	sync
	umount "$MNT" || fail "umount $MNT failed"
}

# The gate refuses with EINVAL and one kernel line that names the device.
# "kind" is ext4dev (the ext4dev type) or require (require_test_fs).
expect_refused() {
	local type=$1 dev=$2 kind=$3 name=${2#/dev/} out line

	dmesg -c >/dev/null
	if out=$(bb_mount -t "$type" "$dev" "$MNT" 2>&1); then
		umount "$MNT"
		fail "mount -t $type $dev succeeded but should be refused"
	fi
	case $out in
	*"Invalid argument"*) ;;
	*) fail "mount -t $type $dev failed, but not with EINVAL: $out" ;;
	esac
	case $kind in
	ext4dev) line="EXT4-fs ($name): test_filesystem flag not set, refusing to mount as ext4dev; set it with 'tune2fs -E test_fs'" ;;
	require) line="EXT4-fs ($name): test_filesystem flag not set and ext4.require_test_fs=1, refusing to mount; set it with 'tune2fs -E test_fs'" ;;
	esac
	dmesg | grep -qF "$line" ||
		fail "no gate message for $name in the kernel log: $(dmesg | tail -n 3)"
	note "refused as expected: $out"
}

# Run a command, keeping its output in $out and its exit status in $rc
# (globals on purpose: the caller checks them).
# shellcheck disable=SC2034
run() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}

# Write a small tree with known content and remember its checksums under
# a tag, so that any later mount can check that nothing was lost.
write_files() {
	local tag=$1 dir=$MNT/$1 i

	mkdir -p "$dir/sub" "$STATE"
	dd if=/dev/urandom of="$dir/random" bs=64k count=8 2>/dev/null
	i=1
	while [ $i -le 20 ]; do
		printf 'file %s of %s\n' "$i" "$tag" >"$dir/sub/f$i"
		i=$((i + 1))
	done
	sync
	(cd "$MNT" && find "$tag" -type f | sort | xargs sha256sum) \
		>"$STATE/$tag.sums"
}

verify_files() {
	local tag=$1 out

	[ -s "$STATE/$tag.sums" ] || fail "no checksums recorded for '$tag'"
	out=$(cd "$MNT" && sha256sum -c "$STATE/$tag.sums" 2>&1) ||
		fail "files of '$tag' changed: $(echo "$out" | grep -v ': OK$')"
}

# The flags as ext4dev show-flags prints them ("Filesystem flags: a b "),
# as sorted words.
flags_by_tool() {
	ext4dev show-flags "$1" | sed -n 's/^Filesystem flags: *//p' |
		tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' '
}

flags_by_sysfs() {
	tr ' ' '\n' <"/sys/fs/ext4/${1#/dev/}/filesystem_flags" |
		grep -v '^$' | sort | tr '\n' ' '
}

# KTAP output of a suite, on stdout (the host reads it from ttyS1).
# Usage: run_suite name...  Returns non-zero if any test failed.
run_suite() {
	local n=0 failed=0 name log reason status

	echo "KTAP version 1"
	echo "1..$#"
	for name in "$@"; do
		n=$((n + 1))
		log=/tmp/test-$name.log
		# Not "if (...)": set -e would be ignored inside the subshell.
		(set -e; "t_$name") >"$log" 2>&1
		status=$?
		sed 's/^/# /' "$log"
		if [ $status = 0 ]; then
			echo "ok $n $name"
		else
			reason=$(grep '^FAIL: ' "$log" | tail -n 1)
			echo "not ok $n $name # ${reason:-exited with status $status}"
			failed=1
		fi
		# Leave no mount behind for the next test, even after a failure.
		while is_mounted "$MNT"; do umount "$MNT" || break; done
	done
	return $failed
}
