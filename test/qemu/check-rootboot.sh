#!/bin/bash
# One CTest result for one outcome of a boot made by run-rootboot.sh, read
# from its console log.
#
# usage: check-rootboot.sh BOOT_DIR NAME
#
#   mounted_as_ext4      the kernel mounted /dev/vda as ext4 and ran init
#   no_gate_line         the console has no refusal of the root (vda)
#   refused_with_reason  no init; the console has require_test_fs's refusal
#                        of vda and the kernel's "unable to mount root"
#   explicit_ext4dev_refused
#                        init's MS_SILENT "mount -t ext4dev" of unflagged
#                        vdc failed with EINVAL, and the console says why
#   ext2_refused         init's "mount -t ext2" of unflagged vdc failed
#                        with EINVAL under require_test_fs, the console has
#                        the refusal and no "mounting ext2 file system" line
#   refused_for_feature  no init; the console has ext4's refusal of an
#                        unknown feature and "unable to mount root", and
#                        no test_filesystem line at all
#   remount_refused_with_reason
#                        init's ro->rw remount after e2fsck failed with
#                        EROFS and the console names e2fsck and the fix
#   anything else        init reported "ok NAME"
#
# exit: 0 holds, 1 does not (or the boot failed), 77 boot skipped
set -euo pipefail

# shellcheck source=test/qemu/verdict.sh
. "$(dirname "$0")/verdict.sh"

dir=${1:?usage: check-rootboot.sh BOOT_DIR NAME}
name=${2:?usage: check-rootboot.sh BOOT_DIR NAME}
log=$dir/console.log

readonly GATE="test_filesystem flag not set"
readonly EXT4DEV_LINE="EXT4-fs (vdc): $GATE, refusing to mount as ext4dev; set it with 'tune2fs -E test_fs'"
readonly REMOUNT_LINE="EXT4-fs (vda): test_filesystem flag cleared while mounted read-only (e2fsck clears it), refusing to remount read-write; set it again with 'tune2fs -E test_fs' or 'ext4dev mark-test'"
readonly REQUIRE_LINE="EXT4-fs (vda): $GATE and ext4.require_test_fs=1, refusing to mount; set it with 'tune2fs -E test_fs'"

fail() {
	echo "FAIL: $name: $*" >&2
	echo "console log: $log" >&2
	exit 1
}

# The console without the CRs of the guest's tty, read once.  Searched
# as a here-string, never through a pipe: under pipefail a "grep -q"
# that stops at its first match kills the writer with SIGPIPE, and a
# line that is there reads as missing (this failed checks at random).
console() {
	[[ -n ${console_text+set} ]] || console_text=$(tr -d '\r' <"$log")
	printf '%s\n' "$console_text"
}

has() {
	console >/dev/null
	grep -qF -- "$1" <<<"$console_text"
}

# An init report line for NAME, printed whatever it says.
init_result() {
	local line

	console >/dev/null
	line=$(grep -m1 -E "^rootinit: (not )?ok $1( |$)" <<<"$console_text" || true)
	[[ -n $line ]] || fail "init did not report '$1'"
	echo "$line"
	[[ $line == "rootinit: ok "* ]] || fail "${line#*# }"
}

boot_must_be_ok "$dir"

case $name in
mounted_as_ext4)
	init_result root
	has "rootinit: ok root # /dev/root ext4" || fail "root is not mounted as ext4"
	has "rootinit: done" || fail "init did not finish"
	;;
no_gate_line)
	if console | grep -F "$GATE" | grep -F "(vda)"; then
		fail "the root mount logged the gate"
	fi
	has "rootinit: started" || fail "init did not run, so the root did not mount"
	echo "no gate line for vda"
	;;
refused_with_reason)
	has "$REQUIRE_LINE" || fail "no refusal line for vda: '$REQUIRE_LINE'"
	has "VFS: Unable to mount root fs" || fail "the kernel did not give up on the root"
	! has "rootinit: started" || fail "init ran: the root was mounted"
	console | grep -F -e "$GATE" -e "VFS: "
	;;
refused_for_feature)
	has "VFS: Unable to mount root fs" || fail "the kernel did not give up on the root"
	! has "rootinit: started" || fail "init ran: the root was mounted"
	has "couldn't mount" || fail "no refusal for the unknown feature"
	if console | grep -F -e "test_filesystem" -e "-E test_fs"; then
		fail "a root refused for its features blames the flag"
	fi
	console | grep -F -e "couldn't mount" -e "VFS: "
	;;
remount_refused_with_reason)
	init_result remount_rw_refused
	has "$REMOUNT_LINE" || fail "no remount refusal line: '$REMOUNT_LINE'"
	;;
explicit_ext4dev_refused)
	init_result "$name"
	has "$EXT4DEV_LINE" || fail "no gate line for vdc: '$EXT4DEV_LINE'"
	;;
ext2_refused)
	init_result "$name"
	has "${REQUIRE_LINE/(vda)/(vdc)}" || fail "no refusal line for vdc"
	! has "EXT4-fs (vdc): mounting ext2 file system" ||
		fail "the refused ext2 mount claims to be mounting"
	;;
*)
	init_result "$name"
	;;
esac
