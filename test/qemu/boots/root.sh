# shellcheck shell=bash
# What the root boots' descriptions (root-*.sh) share.  No initramfs:
# the kernel mounts root=/dev/vda itself, without rootfstype=, so it
# probes the types in /proc/filesystems order, and runs /sbin/init from
# it: rootinit.c, built statically here and put into the image with
# "mke2fs -d" (no loop mount).  rootinit runs the checks GUEST_CHECKS
# names (ROOTINIT= on the command line), reports KTAP on ttyS1 and ends
# through isa-debug-exit; a root the kernel must refuse ends in its panic
# instead (BOOT_END=panic), judged by the description's host checks.
# shellcheck disable=SC2034 # read by test/vm/run.sh
# shellcheck disable=SC2154 # $out and $boot_dir are the runner's

BOOT_MEMORY=128M
BOOT_TIMEOUT=60
# This file's folder: descriptions elsewhere (test/upstream/boots/)
# source it too.
root_boots=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# root_append ARGS...: the kernel command line of a root boot.
root_append() {
	local names

	names=$(xargs <<<"$GUEST_CHECKS")
	echo "root=/dev/vda rootwait kunit.enable=0${*:+ $*} ROOTINIT=${names// /,}"
}

# root_image [MB] MKE2FS-ARGS...: the root disk, vda, holding rootinit
# and the directories it mounts on, and whatever the description put
# under $out/tree first.
root_image() {
	local mb=8 tree=$out/tree

	[[ ${1:-} =~ ^[0-9]+$ ]] && { mb=$1; shift; }
	mkdir -p "$tree/sbin" "$tree/proc" "$tree/sys" "$tree/dev" \
		"$tree/mnt/a" "$tree/mnt/b" "$tree/mnt/c"
	"${CC:-cc}" -static -Os -Wall -o "$tree/sbin/init" "$root_boots/../rootinit.c" ||
		skip_boot "cannot build a static rootinit (libc6-dev has libc.a)"
	data_image root "$mb" -t ext4 -d "$tree" "$@"
}

# copy_e2fsck BINARY: BINARY as /sbin/e2fsck of the root, with the
# libraries ldd lists for it (about 3.5 MB: a 16 MB root holds them).
copy_e2fsck() {
	local tree=$out/tree bin=$1 lib

	mkdir -p "$tree/sbin"
	cp "$bin" "$tree/sbin/e2fsck"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$tree$(dirname "$lib")"
		cp -L "$lib" "$tree$lib"
	done
}

# data_image ROLE [MB] MKE2FS-ARGS...: another disk, in the order added.
data_image() {
	local role=$1 mb=8 img=$out/disks/$1.img

	shift
	[[ ${1:-} =~ ^[0-9]+$ ]] && { mb=$1; shift; }
	vm_image "$img" "${mb}M" "$@"
	vm_add_disk "$role" "$img" nofsck
}

# The console as the host check reads it: without the guest tty's CRs.
console() {
	tr -d '\r' <"$out/console.log"
}

# The kernel gave up on the root, and init never ran.
root_refused() {
	grep -F "VFS: Unable to mount root fs" <(console) ||
		{ echo "the kernel did not give up on the root"; return 1; }
	[[ ! -s $out/results.ktap ]] ||
		{ echo "init ran: the root was mounted"; return 1; }
}
