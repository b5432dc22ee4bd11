#!/bin/bash
# The root filesystem of the Debian guest (test/system/): Debian 12
# packages, our tool installed by `cmake --install`, the guest's checks
# and fstab, written into an ext4 image with mke2fs -d (no loop mounts).
#
# Two stages:
#   base   mmdebstrap --variant=minbase + PACKAGES, from the Debian
#          archive this machine's apt already uses.  Cached outside the
#          repository under a hash of its inputs (this script, hence the
#          package list, and the architecture), like kernel/build.sh.
#   image  a hard-linked (else plain) copy of the base + the tool + guest/ + fstab,
#          then mke2fs -d.  Every run: about a second.
#
# usage: mkrootfs.sh --build BUILD_DIR --out IMAGE
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
PACKAGES=systemd-sysv,udev,e2fsprogs,util-linux,mount
readonly SUITE=bookworm
readonly IMAGE_SIZE=1G
rootfs_cache=$kernel_cache/rootfs

usage() {
	echo "usage: ${0##*/} --build BUILD_DIR --out IMAGE [--packages-extra LIST] [--add SRC:/DEST]..." >&2
	exit 2
}

cache_key() {
	{
		echo "arch $(dpkg --print-architecture)"
		echo "packages $PACKAGES"
		sha256sum <"$0"
	} | sha256sum | cut -c1-16
}

# The Debian entries of this machine's apt sources, as one-line apt
# sources for mmdebstrap: CI reaches Debian's archive and nothing else.
mirrors() {
	apt-get indextargets --format '$(ORIGIN)|deb $(REPO_URI) $(RELEASE) $(COMPONENT)' \
		'Identifier: Packages' 2>/dev/null | sed -n 's/^Debian|//p' |
		grep -E " $SUITE(-updates|-security)? main\$" | sort -u
}

build_base() {
	local dir=$1 log=$1.log tmp=$1.tmp start=$SECONDS
	local -a sources

	mapfile -t sources < <(mirrors)
	((${#sources[@]})) ||
		skip "apt knows no Debian $SUITE sources here (apt-get update?)"
	note "building the Debian $SUITE base with mmdebstrap (log: $log)"
	rm -rf "$tmp"
	if ! nice mmdebstrap --variant=minbase --include="$PACKAGES" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		"$SUITE" "$tmp" "${sources[@]}" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		rm -rf "$tmp"
		die "mmdebstrap failed, full log in '$log'"
	fi
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

# Keep the newest two bases: each is ~180 MB.
prune_bases() {
	find "$rootfs_cache" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
		sort -rn | tail -n +3 | cut -d' ' -f2- |
		while IFS= read -r old; do rm -rf "$old" "$old.log" "$old.done"; done
}

# Our part of the guest, on top of a copy of the base.
populate() {
	local stage=$1 build=$2 g=$here/guest

	DESTDIR=$stage cmake --install "$build" --prefix /usr >/dev/null ||
		die "cmake --install '$build' failed"
	mkdir -p "$stage/usr/lib/ext4dev-system" "$stage/mnt/scratch" \
		"$stage/mnt/scratch4" "$stage/mnt/plain"
	install -m 0755 "$g/checks.sh" "$stage/usr/lib/ext4dev-system/"
	install -m 0644 "$g/scenarios.sh" "$stage/usr/lib/ext4dev-system/"
	install -m 0644 "$g/ext4dev-system.target" "$g/ext4dev-checks.service" \
		"$stage/etc/systemd/system/"
	# Replaced, not written through: the copy shares the base's inodes.
	rm -f "$stage/etc/fstab" "$stage/etc/hostname"
	echo ext4dev-guest >"$stage/etc/hostname"
	cat >"$stage/etc/fstab" <<'EOF'
# test/system: the entries the scenarios are about (see guest/scenarios.sh)
LABEL=root / ext4 defaults 0 0
LABEL=scratch /mnt/scratch ext4dev defaults 0 2
LABEL=scratch4 /mnt/scratch4 ext4 defaults 0 2
LABEL=plain /mnt/plain ext4dev nofail 0 2
EOF
}

stage=""
key=""

main() {
	local build="" out="" base start=$EPOCHREALTIME add
	local -a adds=()

	while (($#)); do
		case $1 in
		--build) build=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--packages-extra) PACKAGES+=,${2:?}; shift ;;
		--add) adds+=("${2:?}"); shift ;;
		*) usage ;;
		esac
		shift
	done
	[[ -n $build && -n $out ]] || usage
	[[ -x $build/cli/ext4dev ]] || die "no '$build/cli/ext4dev': build first"
	command -v mmdebstrap >/dev/null ||
		skip "mmdebstrap not found (apt-get install mmdebstrap)"
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
		prune_bases
	fi
	stage=$(mktemp -d "$(dirname "$out")/rootfs.XXXXXX")
	trap 'rm -rf "$stage"' EXIT
	# Hard links where the cache and the image share a filesystem.
	if ! cp -al "$base/." "$stage/" 2>/dev/null; then
		rm -rf "$stage"
		mkdir "$stage"
		cp -a "$base/." "$stage/"
	fi
	flock -u 9
	populate "$stage" "$build"
	for add in "${adds[@]}"; do
		mkdir -p "$stage/${add#*:}"
		cp -a "${add%%:*}/." "$stage/${add#*:}/"
	done
	rm -f "$out"
	truncate -s "$IMAGE_SIZE" "$out"
	mke2fs -q -F -t ext4 -L root -d "$stage" "$out" >/dev/null ||
		die "mke2fs -d '$stage' '$out' failed"
	note "root image $out (base $key) in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
}

main "$@"
