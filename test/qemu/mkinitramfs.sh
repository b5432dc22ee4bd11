#!/bin/bash
# Build the test guest's initramfs (an uncompressed newc cpio): busybox-
# static, our ext4dev binary (also as mkfs.ext4dev and, where mount(8)
# looks for helpers, /sbin/mount.ext4dev), util-linux's mount, umount and
# blkid (for mounting without -t), sfdisk (the GPT disk's table), the
# shared libraries they
# need at their ldd paths, and the guest scripts from test/qemu/guest.
# With --modules, for a modular kernel: its /lib/modules tree and kmod
# (modprobe, rmmod, lsmod; /sbin/modprobe is what the kernel runs to load
# a filesystem type's module).
#
# The archive is rebuilt only when an input changed: a hash of every file
# that goes in (and of this script) is kept next to it.
#
# usage: mkinitramfs.sh --ext4dev BIN --out FILE [--modules DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/lib.sh
. "$here/../lib/lib.sh"

busybox=${EXT4DEV_BUSYBOX:-/bin/busybox}

usage() {
	echo "usage: ${0##*/} --ext4dev BIN --out FILE [--modules DIR]" >&2
	exit 2
}

# The shared libraries an ELF binary loads, interpreter included, as the
# paths ldd resolves them to.
libraries_of() {
	ldd "$1" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }' || true
}

# Host path, then the path inside the guest, one pair per line.
guest_files() {
	local bin lib kmod=()

	[[ -z $modules ]] || kmod=("$(command -v kmod)")
	((${#kmod[@]} == 0)) || echo "${kmod[0]} /usr/sbin/kmod"
	echo "$busybox /bin/busybox"
	echo "$ext4dev /usr/sbin/ext4dev"
	echo "$(command -v mount) /usr/bin/mount"
	echo "$(command -v umount) /usr/bin/umount"
	echo "$(command -v blkid) /usr/sbin/blkid"
	echo "$(command -v sfdisk) /usr/sbin/sfdisk"
	for bin in "$ext4dev" "$(command -v mount)" "$(command -v umount)" \
		   "$(command -v blkid)" "$(command -v sfdisk)" "${kmod[@]}"; do
		for lib in $(libraries_of "$bin"); do
			echo "$lib $lib"
		done
	done | sort -u
	echo "$here/guest/init /init"
	for f in lib.sh run suite-normal.sh suite-require.sh suite-modular.sh \
		 parts.sh; do
		echo "$here/guest/$f /ext4dev/$f"
	done
}

check_inputs() {
	[[ -x $ext4dev ]] || die "no ext4dev binary at '$ext4dev' (build it first)"
	[[ -x $busybox ]] ||
		skip "busybox not found at '$busybox' (apt-get install busybox-static)"
	# A dynamic busybox would need its libraries too; ours must be static.
	if ldd "$busybox" >/dev/null 2>&1; then
		die "'$busybox' is not statically linked (install busybox-static)"
	fi
	command -v cpio >/dev/null || skip "cpio not found (apt-get install cpio)"
	command -v sfdisk >/dev/null || skip "sfdisk not found (apt-get install fdisk)"
	[[ -z $modules ]] || {
		[[ -d $modules/lib/modules ]] ||
			die "no lib/modules in '$modules' (build.sh --flavour modular --output)"
		command -v kmod >/dev/null || skip "kmod not found (apt-get install kmod)"
	}
}

input_hash() {
	{
		sha256sum "$0"
		while read -r src dst; do
			echo "$dst $(sha256sum <"$src")"
		done < <(guest_files)
		[[ -z $modules ]] ||
			(cd "$modules" && find lib -type f | LC_ALL=C sort | xargs sha256sum)
	} | sha256sum | cut -d' ' -f1
}

populate() {
	local root=$1 src dst applet

	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,mnt,ext4dev}
	while read -r src dst; do
		mkdir -p "$root/$(dirname "$dst")"
		cp -L "$src" "$root/$dst"
	done < <(guest_files)
	chmod 0755 "$root/init" "$root/ext4dev/run"
	ln -s ext4dev "$root/usr/sbin/mkfs.ext4dev"
	ln -s ext4dev "$root/usr/sbin/mount.ext4dev"
	ln -s /usr/sbin/ext4dev "$root/sbin/mount.ext4dev"
	if [[ -n $modules ]]; then
		cp -a "$modules/lib" "$root/"
		for applet in modprobe rmmod lsmod insmod modinfo; do
			ln -s kmod "$root/usr/sbin/$applet"
		done
		ln -s /usr/sbin/modprobe "$root/sbin/modprobe"
	fi
	# busybox applets for everything util-linux does not provide here
	for applet in $("$busybox" --list); do
		[[ -e $root/bin/$applet || -e $root/usr/bin/$applet ||
		   -e $root/usr/sbin/$applet ]] && continue
		ln -s busybox "$root/bin/$applet"
	done
}

main() {
	local out="" root hash

	ext4dev="" modules=""
	while (($#)); do
		case $1 in
		--ext4dev) ext4dev=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--modules) modules=${2:?}; shift ;;
		*) usage ;;
		esac
		shift
	done
	[[ -n $ext4dev && -n $out ]] || usage
	check_inputs
	hash=$(input_hash)
	if [[ -f $out && -f $out.hash && $(<"$out.hash") == "$hash" ]]; then
		echo "initramfs up to date: $out"
		return
	fi
	root=$out.d
	rm -rf "$root"
	populate "$root"
	# Fixed times and owners: the same inputs give the same archive.
	find "$root" -exec touch -h -d @0 {} +
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --reproducible -R 0:0 --quiet) >"$out.tmp" ||
		die "cpio failed for '$root'"
	mv "$out.tmp" "$out"
	echo "$hash" >"$out.hash"
	rm -rf "$root"
	echo "built initramfs $out ($(du -k "$out" | cut -f1) KiB)"
}

main "$@"
