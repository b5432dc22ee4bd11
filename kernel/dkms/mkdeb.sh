#!/bin/bash
# Make ext4dev-dkms_<version>_all.deb: fs/ext4 of the 6.12 backport
# (kernel/stable/6.12) applied to the 6.12 tree in the cache
# (EXT4DEV_KERNEL_BASE=6.12 kernel/build.sh --source-only unpacks it),
# plus what DKMS needs to build it as ext4 for Debian's own 6.12 kernel.  The package ships the sources rather than patching the
# user's linux-source-6.12 at build time: one tarball version was
# patched and tested here, and ext4dev-dkms-check refuses every kernel
# whose headers are not that very version (see kernel/README.md).
#
# usage: mkdeb.sh --version PROJECT_VERSION --out DIR [--tree LINUX_TREE]
#   LINUX_TREE  a patched git tree whose HEAD is taken (default: the
#               series in kernel/stable/6.12/ made into commits on the
#               cache's pristine 6.12 tree, whatever its checkout holds)
# Writes DIR/ext4dev-dkms_<version>_all.deb and the link
# DIR/ext4dev-dkms.deb to it; prints the .deb's path.  The same tree
# makes the same bytes (every time stamp is the author date of its last
# patch, the same however often build.sh applies the series), so
# the guest image that has it installed is cached by its hash.
# exit: 0, 1 (failed), 77 (no tree or tools)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# Debian's 6.12 kernels run the 6.12 backport, not the mainline series.
EXT4DEV_KERNEL_BASE=6.12
# shellcheck source=kernel/lib.sh
. "$here/../lib.sh"

readonly SOURCE_PACKAGE=linux-source-6.12

# The Debian version of the tarball the tree was unpacked from, and the
# kernel ABI name Debian gives that version (6.12.118-1~deb12u1 ->
# 6.12.118+deb12, as in /boot/config-6.12.118+deb12-amd64).
source_version() {
	dpkg-query -W -f '${Version}' "$SOURCE_PACKAGE" 2>/dev/null ||
		skip "$SOURCE_PACKAGE is not installed (apt-get install $SOURCE_PACKAGE)"
}

abi_of() {
	local upstream=${1%%-*} debian=${1#*~}

	[[ $debian =~ ^deb([0-9]+)u[0-9]+$ ]] ||
		die "cannot tell the kernel ABI of $SOURCE_PACKAGE $1"
	echo "$upstream+deb${BASH_REMATCH[1]}"
}

# A template with its @...@ filled in; @ABI_RE@ is the ABI as an
# extended regular expression ("." and "+" taken literally).
fill() {
	local re

	re=$(sed 's/[.+]/\\\\&/g' <<<"$abi")
	sed -e "s|@VERSION@|$version|g" -e "s|@SOURCE_VERSION@|$srcver|g" \
		-e "s|@ABI@|$abi|g" -e "s|@ABI_RE@|$re|g" "$1"
}

stage=""

main() {
	local tree=$kernel_src out="" src deb upstream rev="" commits
	local -a patches

	version=""
	while (($#)); do
		case $1 in
		--version) version=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--tree) tree=${2:?}; rev=HEAD; shift ;;
		*) die "usage: see the head of ${0##*/}" ;;
		esac
		shift
	done
	[[ -n $version && -n $out ]] || die "usage: see the head of ${0##*/}"
	command -v dpkg-deb >/dev/null || skip "dpkg-deb not found"
	[[ -d $tree/fs/ext4 ]] ||
		skip "no kernel tree in '$tree' (kernel/build.sh --source-only makes it)"
	srcver=$(source_version)
	abi=$(abi_of "$srcver")
	upstream=$(make -s -C "$tree" kernelversion)
	[[ $abi == "$upstream+"* ]] ||
		die "the tree is Linux $upstream, $SOURCE_PACKAGE is $srcver"
	# The cache's checkout is whatever a build, a flavour or a
	# developer left there, and kernel.build rewrites it while this
	# runs beside it: take the series' own commits instead, which
	# series_commits makes without touching the checkout.
	if [[ -z $rev ]]; then
		mapfile -t patches < <(series_patches)
		commits=$(series_commits "${patches[@]}")
		rev=${commits##*$'\n'}
	fi
	# The series must be applied: its fs/ext4 has the type.
	git -C "$tree" grep -q '"ext4dev"' "$rev" -- fs/ext4/super.c ||
		die "'$tree' does not have the series applied"

	stage=$(mktemp -d)
	trap 'rm -rf "$stage"' EXIT
	src=$stage/usr/src/ext4dev-$version
	mkdir -p "$src/fs" "$stage/DEBIAN" "$stage/usr/share/doc/ext4dev-dkms"
	git -C "$tree" archive "$rev" fs/ext4 | tar -x -C "$src"
	rm -f "$src/fs/ext4/.kunitconfig"
	cp "$here/Kbuild" "$src/fs/ext4/Kbuild"
	fill "$here/ext4dev-dkms.c.in" >"$src/fs/ext4/ext4dev-dkms.c"
	fill "$here/dkms.conf.in" >"$src/dkms.conf"
	fill "$here/ext4dev-dkms-check.in" >"$src/ext4dev-dkms-check"
	fill "$here/postinst.in" >"$stage/DEBIAN/postinst"
	fill "$here/prerm.in" >"$stage/DEBIAN/prerm"
	chmod 755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/prerm"
	cp "$here/copyright" "$stage/usr/share/doc/ext4dev-dkms/copyright"
	fill "$here/changelog.in" | gzip -9n \
		>"$stage/usr/share/doc/ext4dev-dkms/changelog.Debian.gz"
	find "$stage" -type d -exec chmod 755 {} +
	SOURCE_DATE_EPOCH=$(git -C "$tree" log -1 --format=%at "$rev")
	export SOURCE_DATE_EPOCH
	find "$src" -type f -exec chmod 644 {} +
	chmod 755 "$src/ext4dev-dkms-check"
	cat >"$stage/DEBIAN/control" <<EOF
Package: ext4dev-dkms
Version: $version+$srcver
Architecture: all
Maintainer: ext4dev developers <ext4dev@example.invalid>
Depends: dkms (>= 3), linux-headers-$abi-amd64 (= $srcver) | linux-headers-$abi-cloud-amd64 (= $srcver) | linux-headers-$abi-rt-amd64 (= $srcver)
Section: kernel
Priority: optional
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Homepage: https://example.invalid/ext4dev
Description: ext4 with the test_filesystem gate, for Debian 12's 6.12 kernel
 Rebuilds the ext4 module of Debian 12's linux-image-6.12
 ($srcver) with the ext4dev series: an ext4dev
 filesystem type that mounts only filesystems flagged test_filesystem
 (tune2fs -E test_fs), and the ext4.require_test_fs=1 parameter that
 makes ext4, ext3 and ext2 refuse unflagged ones.  DKMS builds it for
 each installed kernel of exactly that version and installs it as that
 kernel's ext4; any other kernel keeps its stock ext4.
EOF
	find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	mkdir -p "$out"
	deb=$out/ext4dev-dkms_${version}+${srcver}_all.deb
	dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
	ln -sfn "${deb##*/}" "$out/ext4dev-dkms.deb"
	echo "$deb"
}

main "$@"
