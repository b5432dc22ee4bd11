#!/bin/bash
# The root filesystem of the Debian guest (test/system/): Debian 12
# packages, our tool, the guest's checks and fstab, written into an ext4
# image with mke2fs -d (no loop mounts).
#
# Two stages:
#   base   mmdebstrap --variant=minbase + PACKAGES, from the Debian
#          archive this machine's apt already uses, with Debian's kernel
#          and the initramfs initramfs-tools makes for it in /boot.
#          Cached outside the repository under a hash of its inputs (this
#          script, hence the package list, and the architecture), like
#          kernel/build.sh.  One base serves both variants.
#   image  a hard-linked (else plain) copy of the base + the tool +
#          guest/ + the variant's fstab, then mke2fs -d.  Every run: a
#          few seconds.
#
# Variants:
#   ours   (default) for our test kernel, no initramfs: the tool from
#          `cmake --install`; Debian's kernel and modules left out.
#   stock  (--stock KERNEL_DIR) for Debian's own kernel: the tool from
#          the .deb that `cpack -G DEB` makes in the build tree, put in
#          with dpkg -i; KERNEL_DIR gets the base's vmlinuz, initrd.img
#          and release.
#   dkms   (--dkms KERNEL_DIR --dkms-deb DEB) for Debian's 6.12 kernel
#          with our ext4 from ext4dev-dkms: a base of its own with
#          linux-image-6.12-amd64, its headers, Debian's 6.1 headers
#          (a kernel the package must refuse) and dkms, into which DEB
#          is installed by mmdebstrap, so DKMS builds the module while
#          the base is made, and the base is cached with the module
#          (DEB's hash is in its key); dpkg's output stays in
#          /var/log/ext4dev-dkms-install.log.  Then as stock, with a
#          flagged root.
#
# usage: mkrootfs.sh --build BUILD_DIR --out IMAGE [--stock KERNEL_DIR]
#                    [--dkms KERNEL_DIR --dkms-deb DEB]
#                    [--packages-extra P1,P2] [--add SRC_DIR:/DEST]...
# (test/fstests/ adds fstests' runtime packages and the built fstests.)
# exit: 0, 77 (cannot run here, and why), 1 (failed)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/lib.sh
. "$here/../../kernel/lib.sh"

# What the guest needs: systemd as PID 1 with udev (LABEL= in fstab,
# ID_FS_TYPE for systemd-fsck), e2fsprogs (e2fsck, fsck.ext4), util-linux
# (fsck, mount).  Our binary's libraries come with e2fsprogs/util-linux.
# The stock variant's kernel: linux-image-amd64 and initramfs-tools (the
# first alternative of its Depends, named so that apt need not choose);
# no Recommends (firmware, apparmor), as mmdebstrap's default.
PACKAGES=systemd-sysv,udev,e2fsprogs,util-linux,mount
PACKAGES+=,linux-image-amd64,initramfs-tools
readonly SUITE=bookworm
rootfs_cache=$kernel_cache/rootfs
# Bases kept: the system one, fstests' and the dkms one (each a key
# of its own), and one older of each while a change moves the key.
readonly KEEP_BASES=6

usage() {
	echo "usage: ${0##*/} --build BUILD_DIR --out IMAGE [--stock KERNEL_DIR] [--packages-extra LIST] [--add SRC:/DEST]..." >&2
	exit 2
}

cache_key() {
	{
		echo "arch $(dpkg --print-architecture)"
		echo "packages $PACKAGES"
		sha256sum <"$0"
		[[ -z $dkms_deb ]] || sha256sum <"$dkms_deb"
	} | sha256sum | cut -c1-16
}

# The dkms variant's packages: Debian 12's 6.12 kernel instead of its
# 6.1 one, the headers DKMS builds against, and 6.1's headers, whose
# kernel the package must refuse to build for.
dkms_packages() {
	PACKAGES=${PACKAGES/linux-image-amd64/linux-image-6.12-amd64}
	PACKAGES+=,linux-headers-6.12-amd64,linux-headers-amd64,dkms
}

# mmdebstrap's hooks that put ext4dev-dkms in, DKMS building as its
# postinst runs, with the output kept for the guest's checks.
dkms_hooks() {
	[[ -n $dkms_deb ]] || return 0
	printf '%s\n' --customize-hook="copy-in $dkms_deb /tmp" \
		--customize-hook="chroot \"\$1\" sh -c 'dpkg -i /tmp/${dkms_deb##*/} >/var/log/ext4dev-dkms-install.log 2>&1; status=\$?; rm -f /tmp/${dkms_deb##*/}; cat /var/log/ext4dev-dkms-install.log; exit \$status'"
}

# The Debian entries of this machine's apt sources, as one-line apt
# sources for mmdebstrap: CI reaches Debian's archive and nothing else.
mirrors() {
	apt-get indextargets --format '$(ORIGIN)|deb $(REPO_URI) $(RELEASE) $(COMPONENT)' \
		'Identifier: Packages' 2>/dev/null | sed -n 's/^Debian|//p' |
		grep -E " $SUITE(-updates|-security)? main\$" | sort -u
}

# A killed mmdebstrap leaves its chroot's mounts (proc, sys, dev/pts,
# dev/shm) in place under the half-made tree: unmount them, deepest
# first, before anything removes the tree, or rm reaches into them.
unmount_under() {
	findmnt -rn -o TARGET | awk -v d="$1/" 'index($0, d) == 1' |
		sort -r | while IFS= read -r m; do
			umount -l "$m" || die "cannot unmount '$m'"
		done
}

# initramfs-tools' default (MODULES=most) packs every disk and
# filesystem driver, and making that initrd was four minutes of the
# base's nine.  The stock guest needs what finds and mounts its root and
# disks: virtio over PCI, virtio disks and SCSI, ext4 and the checksum
# ext4 asks the crypto API for.  Written before any package installs, so
# the initrd is made once, small; as conf.d and modules.d snippets, so no
# conffile of the package is touched (and no name holds "ext4dev":
# suite-stock.sh checks that a purge leaves no such name).
initrd_modules_hook() {
	cat <<'EOF'
mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d" &&
echo MODULES=list >"$1/etc/initramfs-tools/conf.d/qemu-guest" &&
printf '%s\n' virtio_pci virtio_blk virtio_scsi sd_mod ext4 crc32c_generic \
	>"$1/usr/share/initramfs-tools/modules.d/qemu-guest"
EOF
}

build_base() {
	local dir=$1 log=$1.log tmp=$1.tmp start=$SECONDS
	local -a sources hooks

	mapfile -t sources < <(mirrors)
	mapfile -t hooks < <(dkms_hooks)
	((${#sources[@]})) ||
		skip "apt knows no Debian $SUITE sources here (apt-get update?)"
	note "building the Debian $SUITE base with mmdebstrap (log: $log)"
	unmount_under "$tmp"
	rm -rf "$tmp"
	# The system's PATH: mmdebstrap runs mmtarfilter (python3) once a
	# package, and a python version manager's shim costs a second a call.
	# mmdebstrap itself is the one the caller's PATH finds (test/cache
	# puts a stand-in first).
	if ! PATH=/usr/sbin:/usr/bin:/sbin:/bin nice "$(command -v mmdebstrap)" \
		--variant=minbase --include="$PACKAGES" \
		--setup-hook="$(initrd_modules_hook)" "${hooks[@]}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		"$SUITE" "$tmp" "${sources[@]}" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		unmount_under "$tmp"
		rm -rf "$tmp"
		die "mmdebstrap failed, full log in '$log'"
	fi
	grep -qx 'MODULES=list' "$tmp/etc/initramfs-tools/conf.d/qemu-guest" ||
		die "the base lacks its initramfs-tools setting, see '$log'"
	mv "$tmp" "$dir"
	# Written last: a base without it (a run killed while it was being
	# made, or half deleted by hand) is built again, never used.
	echo "$key" >"$dir.done"
	note "base built in $((SECONDS - start)) s"
}

# The cached base, when it is whole.
base_ready() {
	[[ -d $1 && -f $1.done && $(<"$1.done") == "$key" ]]
}

# Keep the bases used last (a used base is touched): each is ~450 MB.
prune_bases() {
	find "$rootfs_cache" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
		sort -rn | tail -n +$((KEEP_BASES + 1)) | cut -d' ' -f2- |
		while IFS= read -r old; do rm -rf "$old" "$old.log" "$old.done"; done
}

# The tool as a user of the .deb gets it.  dpkg writes its database
# through new files and renames, but appends to its log: the stage's
# dpkg state is copied first, so nothing reaches the base's inodes.
install_deb() {
	local stage=$1 build=$2 dir=$1.deb deb

	mkdir -p "$dir"
	(cd "$build" && cpack -G DEB -B "$dir") >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; die "cpack -G DEB in '$build' failed"; }
	deb=$(find "$dir" -maxdepth 1 -name 'ext4dev_*.deb' -print -quit)
	[[ -n $deb ]] || die "cpack made no ext4dev_*.deb in '$dir'"
	cp -a "$stage/var/lib/dpkg" "$stage/var/lib/dpkg.copy"
	rm -rf "$stage/var/lib/dpkg" "$stage/var/log/dpkg.log"
	mv "$stage/var/lib/dpkg.copy" "$stage/var/lib/dpkg"
	dpkg --root="$stage" --log=/dev/null -i "$deb" >"$dir.log" 2>&1 ||
		{ cat "$dir.log" >&2; die "dpkg -i '${deb##*/}' into the image failed"; }
	rm -rf "$dir" "$dir.log"
}

# Our part of the guest, on top of a copy of the base.
populate() {
	local stage=$1 build=$2 variant=$3 g=$here/guest mnt

	# The guest boots from the image, not from /boot; only the stock
	# kernel loads modules.  The dkms guest keeps /boot: removing the
	# package remakes the initrd there, which its next boot takes.
	# shellcheck disable=SC2115 # the stage is never empty
	[[ $variant == dkms ]] || rm -rf "${stage:?}/boot/"*
	if [[ $variant != ours ]]; then
		# Half the modules' 390 MB drive hardware this guest has not:
		# no sound, display, network, camera or sensor in `-nodefaults`.
		rm -rf "$stage"/usr/lib/modules/*/kernel/{sound,drivers/gpu,drivers/media,drivers/net,drivers/infiniband,drivers/iio,drivers/staging}
		install_deb "$stage" "$build"
	else
		rm -rf "$stage/usr/lib/modules"
		DESTDIR=$stage cmake --install "$build" --prefix /usr >/dev/null ||
			die "cmake --install '$build' failed"
	fi
	mkdir -p "$stage/usr/lib/ext4dev-system"
	install -m 0755 "$g/checks.sh" "$stage/usr/lib/ext4dev-system/"
	install -m 0644 "$g/scenarios.sh" "$g/suite-stock.sh" "$g/suite-dkms.sh" \
		"$g/suite-dkms-purged.sh" \
		"$stage/usr/lib/ext4dev-system/"
	# The KTAP runner and disk() of the busybox guest, one copy for both.
	install -m 0644 "$here/../qemu/guest/lib.sh" "$stage/usr/lib/ext4dev-system/"
	install -m 0644 "$g/ext4dev-system.target" "$g/ext4dev-checks.service" \
		"$stage/etc/systemd/system/"
	# Replaced, not written through: the copy shares the base's inodes.
	rm -f "$stage/etc/fstab" "$stage/etc/hostname"
	echo ext4dev-guest >"$stage/etc/hostname"
	install -m 0644 "$g/fstab.$variant" "$stage/etc/fstab"
	for mnt in $(awk '$2 ~ "^/mnt/" { print $2 }' "$stage/etc/fstab"); do
		mkdir -p "$stage$mnt"
	done
}

# Debian's kernel and its initramfs, as the base's build made them.
export_kernel() {
	local base=$1 dir=$2 vmlinuz initrd

	vmlinuz=$(find "$base/boot" -maxdepth 1 -name 'vmlinuz-*' -print -quit)
	initrd=$(find "$base/boot" -maxdepth 1 -name 'initrd.img-*' -print -quit)
	[[ -n $vmlinuz && -n $initrd ]] ||
		die "the base '$base' has no /boot/vmlinuz-* and initrd.img-*"
	mkdir -p "$dir"
	cp "$vmlinuz" "$dir/vmlinuz"
	cp "$initrd" "$dir/initrd.img"
	echo "${vmlinuz##*/vmlinuz-}" >"$dir/release"
}

stage=""
key=""
dkms_deb=""

main() {
	local build="" out="" base start=$EPOCHREALTIME add
	local variant=ours kernel_out="" size flag_root=""
	local -a adds=()

	while (($#)); do
		case $1 in
		--build) build=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--stock) variant=stock kernel_out=${2:?}; shift ;;
		--dkms) variant=dkms kernel_out=${2:?}; shift ;;
		--dkms-deb) dkms_deb=$(realpath "${2:?}"); shift ;;
		--packages-extra) PACKAGES+=,${2:?}; shift ;;
		--add) adds+=("${2:?}"); shift ;;
		*) usage ;;
		esac
		shift
	done
	[[ -n $build && -n $out ]] || usage
	if [[ $variant == dkms ]]; then
		[[ -f $dkms_deb ]] || skip "no ext4dev-dkms package '$dkms_deb' (kernel.dkms_deb makes it)"
		dkms_packages
	fi
	[[ -x $build/cli/ext4dev ]] || die "no '$build/cli/ext4dev': build first"
	command -v mmdebstrap >/dev/null ||
		skip "mmdebstrap not found (apt-get install mmdebstrap)"
	[[ $variant == ours ]] || command -v cpack >/dev/null ||
		skip "cpack not found (apt-get install cmake)"
	((EUID == 0)) || skip "mmdebstrap and mke2fs -d need root for a root-owned tree"
	check_cache_location
	mkdir -p "$rootfs_cache"
	key=$(cache_key)
	base=$rootfs_cache/$key
	exec 9>"$rootfs_cache/lock"
	flock 9
	if ! base_ready "$base"; then
		[[ ! -e $base ]] || note "base '$base' is incomplete: building it again"
		rm -rf "$base" "$base.done"
		build_base "$base"
	fi
	touch "$base"
	prune_bases
	[[ -z $kernel_out ]] || export_kernel "$base" "$kernel_out"
	stage=$(mktemp -d "$(dirname "$out")/rootfs.XXXXXX")
	trap 'rm -rf "$stage"' EXIT
	# Hard links where the cache and the image share a filesystem.
	if ! cp -al "$base/." "$stage/" 2>/dev/null; then
		rm -rf "$stage"
		mkdir "$stage"
		cp -a "$base/." "$stage/"
	fi
	flock -u 9
	populate "$stage" "$build" "$variant"
	[[ $variant != dkms ]] || flag_root=1
	for add in "${adds[@]}"; do
		mkdir -p "$stage/${add#*:}"
		cp -a "${add%%:*}/." "$stage/${add#*:}/"
	done
	rm -f "$out"
	# Sparse: 1 GiB, or more where the tree needs it (the stock
	# kernel's modules), with room for the guest's writes.
	size=$(($(du -sm "$stage" | cut -f1) + 512))
	truncate -s $((size > 1024 ? size : 1024))M "$out"
	# The dkms guest boots with ext4.require_test_fs=1: a flagged root.
	mke2fs -q -F -t ext4 -L root ${flag_root:+-E test_fs} -d "$stage" "$out" >/dev/null ||
		die "mke2fs -d '$stage' '$out' failed"
	note "root image $out (base $key) in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
}

main "$@"
