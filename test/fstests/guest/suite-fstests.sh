# shellcheck shell=bash
# fstests in the Debian guest (ext4dev.boot=fstests), sourced by
# test/system/guest/checks.sh: the list in fstests.list, once with
# FSTYP=ext4 and once with FSTYP=ext4dev, on the disks with serials
# "test" and "scratch".  Each run is one KTAP check; its per-test results
# are "# RESULT <fstyp> <test> <pass|notrun|fail>" lines, from which
# test/fstests/run.sh builds the table.  A run "fails" only if check
# itself could not run: comparing the two is the host's job.
# shellcheck disable=SC2034 # read by guest/run
SUITE_TESTS="fstests_ext4 fstests_ext4dev"
FSTESTS_DIR=/var/lib/xfstests

fstests_list() {
	sed 's/#.*//' /usr/lib/ext4dev-system/fstests.list | xargs
}

# run_fstests FSTYP MKFS: format TEST_DEV, run the list, print results.
run_fstests() {
	local fstyp=$1 mkfs=$2 test_dev scratch_dev log t

	test_dev=$(disk test)
	scratch_dev=$(disk scratch)
	mkdir -p /mnt/test /mnt/scratch
	umount /mnt/test /mnt/scratch 2>/dev/null || true
	"$mkfs" -q -F "$test_dev" >/dev/null || fail "$mkfs $test_dev failed"
	cat >"$FSTESTS_DIR/local.config" <<CONF
export FSTYP=$fstyp
export TEST_DEV=$test_dev
export TEST_DIR=/mnt/test
export SCRATCH_DEV=$scratch_dev
export SCRATCH_MNT=/mnt/scratch
# The test kernel has no POSIX ACLs: the same options for both types.
export MOUNT_OPTIONS="-o user_xattr"
export TEST_FS_MOUNT_OPTS="-o user_xattr"
CONF
	rm -rf "$FSTESTS_DIR/results"
	log=/run/fstests-$fstyp.log
	# shellcheck disable=SC2046 # one word per test name
	(cd "$FSTESTS_DIR" && ./check $(fstests_list)) >"$log" 2>&1 || true
	cat "$log"
	[ -f "$FSTESTS_DIR/results/check.log" ] ||
		fail "check wrote no results/check.log"
	for t in $(fstests_list); do
		if grep -q "^Failures:.*\\b$t\\b" "$log"; then
			echo "RESULT $fstyp $t fail"
		elif grep -q "^Not run:.*\\b$t\\b" "$log"; then
			echo "RESULT $fstyp $t notrun"
		elif grep -q "^Ran:.*\\b$t\\b" "$log"; then
			echo "RESULT $fstyp $t pass"
		else
			echo "RESULT $fstyp $t missing"
		fi
	done
	umount /mnt/test /mnt/scratch 2>/dev/null || true
	expect_own_type "$fstyp" "$test_dev"
}

# The two runs really differ where they should: ext4dev's TEST_DEV
# carries the flag (mkfs.ext4dev made it, fsck.ext4dev checked it after
# every test and kept it) and mounts as ext4dev; ext4's does not.  (The
# scratch disk is whatever the last test left on it.)
expect_own_type() {
	local fstyp=$1 state=production

	shift
	[ "$fstyp" = ext4dev ] && state="test"
	ext4dev show-flags --check "$state" "$@" ||
		fail "$fstyp run: $* not in state $state: $(ext4dev show-flags "$@")"
	mount -t "$fstyp" "$1" /mnt/test || fail "mount -t $fstyp $1 failed"
	[ "$(findmnt -n -o FSTYPE /mnt/test)" = "$fstyp" ] ||
		fail "$1 mounted as $(findmnt -n -o FSTYPE /mnt/test)"
	umount /mnt/test
	echo "$fstyp run: $* in state $state, mounted as $fstyp"
}

t_fstests_ext4() {
	run_fstests ext4 mkfs.ext4
}

t_fstests_ext4dev() {
	run_fstests ext4dev mkfs.ext4dev
}
