#!/bin/bash
# Boot the test kernel the way a machine does: no initramfs, the kernel
# mounts root=/dev/vda itself (no rootfstype=, so it probes the types in
# /proc/filesystems order) and runs /sbin/init from it.  The image is made
# with "mke2fs -d" from a directory holding rootinit (rootinit.c, built
# statically here); no loop mounts.  check-rootboot.sh then reads the
# console for each check.
#
# usage: run-rootboot.sh --kernel BZIMAGE --case CASE --out DIR
#
#   unflagged          unflagged ext4 root; init checks the sysfs path of
#                      a flagged ext3 vdb and "-t ext4dev" on unflagged vdc
#   flagged            root flagged with -E test_fs
#   require_unflagged  unflagged root, ext4.require_test_fs=1: refused
#   require_flagged    flagged root, ext4.require_test_fs=1; init checks a
#                      second mount of a mounted unflagged vdb, and that
#                      unflagged ext2 vdc is refused as ext2
#   require_fsck       flagged root mounted read-only, require_test_fs=1;
#                      init runs the stock e2fsck -fp (copied into the
#                      image with its libraries) on it, then remounts rw
#   unknown_incompat   unflagged root with an incompat feature bit no
#                      kernel knows (set with debugfs), require_test_fs=1:
#                      refused for the feature, not for the flag
#
# Writes DIR/console.log, DIR/qemu.cmd and DIR/boot.status ("ok",
# "not ok: why" or "skip: why").  Exit 0, 1 or 77 to match.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/lib.sh
. "$here/../../kernel/lib.sh"
# shellcheck source=kernel/console.sh
. "$here/../../kernel/console.sh"
# shellcheck source=test/vm/vm.sh
. "$here/../vm/vm.sh"

readonly IMAGE_MB=8
# e2fsck and its libraries (~3.5 MB) need a bigger root.
readonly FSCK_IMAGE_MB=16

mkimg() {
	local img=$1

	shift
	truncate -s "${mb:-$IMAGE_MB}M" "$img"
	mke2fs -q -F "$@" "$img" >/dev/null 2>&1 || fail_boot "mke2fs $* '$img' failed"
}

# The root image: init and the directories it mounts on.
make_root() {
	local img=$1 tree=$out/tree

	shift
	mkdir -p "$tree/sbin" "$tree/proc" "$tree/sys" "$tree/dev" \
		"$tree/mnt/a" "$tree/mnt/b" "$tree/mnt/c"
	cp "$out/rootinit" "$tree/sbin/init"
	mkimg "$img" -t ext4 -d "$tree" "$@"
}

# Copy the host's stock e2fsck and the libraries it loads into TREE.
copy_e2fsck() {
	local tree=$1 bin lib

	bin=$(command -v e2fsck || echo /sbin/e2fsck)
	[[ -x $bin ]] || skip_boot "no e2fsck on the host (apt-get install e2fsprogs)"
	mkdir -p "$tree/sbin"
	cp "$bin" "$tree/sbin/e2fsck"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$tree$(dirname "$lib")"
		cp -L "$lib" "$tree$lib"
	done
}

# Set $images (the disk images, vda first) and $append for the case.
make_case() {
	local d=$out/disks

	mkdir -p "$d"
	append=""
	case $case in
	unflagged)
		make_root "$d/root.img"
		mkimg "$d/flagged3.img" -t ext3 -E test_fs
		mkimg "$d/unflagged.img" -t ext4
		append="ROOTINIT=sysfs,refuse"
		images="$d/root.img $d/flagged3.img $d/unflagged.img"
		;;
	flagged)
		make_root "$d/root.img" -E test_fs
		images="$d/root.img"
		;;
	require_unflagged)
		make_root "$d/root.img"
		append="ext4.require_test_fs=1"
		images="$d/root.img"
		;;
	require_flagged)
		make_root "$d/root.img" -E test_fs
		mkimg "$d/unflagged.img" -t ext4
		mkimg "$d/ext2.img" -t ext2
		append="ext4.require_test_fs=1 ROOTINIT=second,ext2"
		images="$d/root.img $d/unflagged.img $d/ext2.img"
		;;
	require_fsck)
		copy_e2fsck "$out/tree"
		mb=$FSCK_IMAGE_MB make_root "$d/root.img" -E test_fs
		append="ro ext4.require_test_fs=1 ROOTINIT=fsck"
		images="$d/root.img"
		;;
	unknown_incompat)
		make_root "$d/root.img"
		debugfs -w -R "feature FEATURE_I31" "$d/root.img" >/dev/null 2>&1 ||
			fail_boot "debugfs could not set incompat bit 31"
		append="ext4.require_test_fs=1"
		images="$d/root.img"
		;;
	*) usage >&2; exit 2 ;;
	esac
}

qemu_args() {
	local img n=0

	vm_base_args "$(vm_accel "$kernel")" 128M "$kernel" \
		"console=ttyS0 root=/dev/vda rootwait panic=-1 kunit.enable=0 $append"
	printf '%s\n' -serial "file:$out/console.log"
	for img in $images; do
		n=$((n + 1))
		vm_disk "$n" "$img"
	done
}

usage() {
	echo "usage: ${0##*/} --kernel BZIMAGE --case unflagged|flagged|require_unflagged|require_flagged|require_fsck|unknown_incompat --out DIR"
}

main() {
	local limit=${EXT4DEV_QEMU_TIMEOUT:-60} status=0 trouble qemu

	kernel="" case="" out=""
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?}; shift ;;
		--case) case=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $kernel && -n $case && -n $out ]] || { usage >&2; exit 2; }
	rm -rf "$out"
	mkdir -p "$out"
	vm_require "$kernel"
	"${CC:-cc}" -static -Os -Wall -o "$out/rootinit" "$here/rootinit.c" ||
		skip_boot "cannot build a static rootinit (libc6-dev has libc.a)"
	make_case
	mapfile -t qemu < <(qemu_args)
	vm_run "root boot, $case" "$limit" "${qemu[@]}"
	status=$vm_status
	# -no-reboot: init's reboot and the kernel's panic=-1 both end QEMU
	# with status 0; anything else is a hang or a QEMU error.
	[[ $status == 0 ]] || fail_boot "QEMU ended with status $status (124: timeout after $limit s)"
	# A refused root ends in a panic on purpose (with its stack trace);
	# only what comes before that panic is judged.
	awk '/Kernel panic - not syncing: VFS: Unable to mount root fs/ { exit }
	     { print }' "$out/console.log" >"$out/console.before-panic"
	trouble=$(kernel_log_trouble "$out/console.before-panic")
	[[ -z $trouble ]] || fail_boot "the kernel is in trouble: $trouble"
	echo ok >"$out/boot.status"
}

main "$@"
