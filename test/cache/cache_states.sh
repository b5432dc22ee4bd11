#!/bin/bash
# The cache scripts start from any state a new machine or a killed run
# leaves: no cache directory at all, an object directory without its
# .config, a half-unpacked tree, a git index.lock, a half-made image or
# rootfs base.  A full cold build takes many minutes, so this runs the
# real kernel/build.sh and test/system/mkrootfs.sh against stand-ins
# that take seconds: a tiny "kernel source" tarball whose Makefile
# writes a .config and a bzImage, a one-patch series, and an mmdebstrap
# that makes a small tree.  What is under test is the scripts' handling
# of their cache, not the kernel build.
#
# usage: cache_states.sh kernel
#        cache_states.sh rootfs BUILD_DIR
# exit: 0 every state recovers, 1 one does not, 77 cannot run here
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ext4dev-cache-states.XXXXXX")
trap 'rm -rf "$work"' EXIT
export EXT4DEV_CACHE_DIR=$work/cache
passed=0
failed=0

check() {
	local what=$1

	shift
	if "$@" >"$work/out" 2>&1; then
		echo "ok - $what"
		passed=$((passed + 1))
	else
		echo "not ok - $what"
		sed 's/^/    /' "$work/out"
		failed=$((failed + 1))
	fi
}

# --- kernel/build.sh --------------------------------------------------

# A source tree with kbuild's interface, as far as build.sh uses it.
make_fake_kernel() {
	local src=$work/src/linux-source-6.12

	mkdir -p "$src/scripts/kconfig" "$work/patches"
	cat >"$src/Makefile" <<'EOF'
O ?= .
allnoconfig:
	mkdir -p $(O) && cat $(KCONFIG_ALLCONFIG) >$(O)/.config
olddefconfig:
	test -f $(O)/.config
bzImage:
	mkdir -p $(O)/arch/x86/boot
	cat VERSION $(O)/.config >$(O)/arch/x86/boot/bzImage
modules:
	test -f $(O)/.config
modules_install:
	mkdir -p $(INSTALL_MOD_PATH)/lib/modules/fake
	cp $(O)/.config $(INSTALL_MOD_PATH)/lib/modules/fake/modules.dep
EOF
	echo "pristine" >"$src/VERSION"
	mkdir -p "$src/kernel/configs" "$src/arch/x86/configs"
	echo 'CONFIG_64BIT=y' >"$src/kernel/configs/tiny-base.config"
	echo '# CONFIG_KERNEL_GZIP is not set' >"$src/kernel/configs/tiny.config"
	echo 'CONFIG_NOHIGHMEM=y' >"$src/arch/x86/configs/tiny.config"
	cat >"$src/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
# merge_config.sh -m -O DIR BASE FRAGMENT...: the last line for a
# symbol wins, as in the real one.
dir=$3
shift 3
awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s)
       if (!(s in line)) order[++n] = s
       line[s] = $0 }
     END { for (i = 1; i <= n; i++) print line[order[i]] }' "$@" >"$dir/.config.new"
mv "$dir/.config.new" "$dir/.config"
EOF
	chmod +x "$src/scripts/kconfig/merge_config.sh"
	tar -C "$work/src" -cJf "$work/linux-source-6.12.tar.xz" linux-source-6.12
	cat >"$work/patches/0001-ext4-stand-in.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: ext4dev developers <ext4dev@example.invalid>
Date: Fri, 4 Dec 2026 00:00:00 +0000
Subject: [PATCH] ext4: stand-in

Signed-off-by: ext4dev developers <ext4dev@example.invalid>
---
 VERSION | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/VERSION b/VERSION
--- a/VERSION
+++ b/VERSION
@@ -1 +1 @@
-pristine
+patched
EOF
	echo 0001-ext4-stand-in.patch >"$work/patches/series"
}

build() {
	"$root/kernel/build.sh" --output "$work/out-kernel"
}

# The image is the patched tree's, configured with the fragment.
built_right() {
	build &&
	head -n1 "$work/out-kernel/bzImage" | grep -qx patched &&
	grep -qx 'CONFIG_EXT4_TEST_FS=y' "$work/out-kernel/bzImage"
}

# The modular flavour: its fragment on top, and its modules installed.
flavour_built() {
	"$root/kernel/build.sh" --flavour modular --output "$work/out-modular" &&
	grep -qx 'CONFIG_EXT4_FS=m' "$work/out-modular/bzImage" &&
	[[ -f $work/out-modular/modules/lib/modules/fake/modules.dep ]]
}

# flavour_seeded yes|no: built, and obj-modular/ holds obj/'s marker or not.
flavour_seeded() {
	local marker=$EXT4DEV_CACHE_DIR/obj-modular/marker.o

	flavour_built || return 1
	if [[ $1 == yes ]]; then
		[[ -f $marker ]]
	else
		[[ ! -f $marker ]]
	fi
}

# Forget the finished image, so the next run must configure and build.
drop_images() {
	rm -rf "$EXT4DEV_CACHE_DIR/images"
}

kernel_states() {
	local c=$EXT4DEV_CACHE_DIR

	command -v git >/dev/null || { echo "SKIP: git not found"; exit 77; }
	make_fake_kernel
	export EXT4DEV_KERNEL_TARBALL=$work/linux-source-6.12.tar.xz
	export EXT4DEV_KERNEL_PATCHES=$work/patches

	check "no cache directory at all" built_right
	check "a second run is served from the cache" \
		bash -c '"$0" --output "$1" 2>&1 | grep -q "cached:"' \
		"$root/kernel/build.sh" "$work/out-kernel"

	drop_images
	rm -f "$c/obj/.config"
	check "obj/ without .config (a run killed before configuring)" built_right

	drop_images
	echo garbage >"$c/obj/config.stamp"
	check "obj/ with a stamp that does not match" built_right

	drop_images
	rm -rf "$c/obj"
	check "no obj/ at all" built_right

	drop_images
	rm -f "$c/linux.id"
	mkdir -p "$c/unpack.tmp/half"
	check "a tree without linux.id and a leftover unpack.tmp (killed unpack)" \
		built_right

	drop_images
	touch "$c/linux/.git/index.lock"
	check "a git index.lock a killed checkout left" built_right

	key=$("$root/kernel/build.sh" --print-key)
	mkdir -p "$c/images/$key.tmp"
	: >"$c/images/$key.tmp/bzImage"
	check "a half-copied image (images/KEY.tmp)" built_right

	drop_images
	# A lock file always exists after the first run; only a live
	# holder may make a build wait.
	check "the lock file of an earlier run" built_right

	# A flavour's first build starts from a copy of obj/ (kbuild then
	# recompiles only what the flavour's options reach); the marker
	# stands for obj/'s objects.
	: >"$c/obj/marker.o"
	check "a flavour's first build starts from obj/'s objects" \
		flavour_seeded yes
	rm -rf "$c/obj-modular"
	drop_images
	mkdir -p "$c/obj-modular.tmp/half"
	check "a half-made copy (obj-modular.tmp, a killed seed)" \
		flavour_seeded yes
	check "... and the copy is gone" test ! -e "$c/obj-modular.tmp"
	rm -f "$c/obj-modular/marker.o"
	drop_images
	check "a configured flavour keeps its own objects" flavour_seeded no
}

# --- test/system/mkrootfs.sh -----------------------------------------

fake_mmdebstrap() {
	mkdir -p "$work/bin"
	cat >"$work/bin/mmdebstrap" <<EOF
#!/bin/bash
# Stand-in: the target directory is the argument after the suite;
# setup hooks run on it, as mmdebstrap runs them.
set -e
hooks=()
while [[ \$1 == -* ]]; do
	[[ \$1 != --setup-hook=* ]] || hooks+=("\${1#--setup-hook=}")
	shift
done
mkdir -p "\$2/etc/systemd/system" "\$2/usr/bin"
for hook in "\${hooks[@]}"; do sh -c "\$hook" sh "\$2"; done
echo stand-in >"\$2/etc/debian_version"
echo "\$2" >>"$work/mmdebstrap.calls"
EOF
	chmod +x "$work/bin/mmdebstrap"
	export PATH=$work/bin:$PATH
}

calls() {
	wc -l <"$work/mmdebstrap.calls" 2>/dev/null || echo 0
}

# Bounded: a stand-in that is not used means the real mmdebstrap runs,
# which takes minutes; fail in seconds instead.
mkroot() {
	timeout 60 "$root/test/system/mkrootfs.sh" --build "$build" \
		--out "$work/root.img"
}

# The image holds the base and our tool.
image_right() {
	mkroot &&
	debugfs -R 'cat /etc/debian_version' "$work/root.img" 2>/dev/null |
		grep -qx stand-in &&
	debugfs -R 'stat /usr/sbin/ext4dev' "$work/root.img" 2>/dev/null |
		grep -q 'Type: regular'
}

rootfs_states() {
	local before base

	build=${1:?usage: cache_states.sh rootfs BUILD_DIR}
	((EUID == 0)) || { echo "SKIP: mkrootfs.sh needs root"; exit 77; }
	[[ -x $build/cli/ext4dev ]] || { echo "FAIL: no '$build/cli/ext4dev'"; exit 1; }
	if [[ -z $(apt-get indextargets 'Identifier: Packages' 2>/dev/null) ]]; then
		echo "SKIP: apt knows no package sources here (apt-get update?)"
		exit 77
	fi
	fake_mmdebstrap

	check "no cache directory at all" image_right
	check "the base was made once" test "$(calls)" -eq 1
	check "a second run reuses the base" image_right
	check "... without making it again" test "$(calls)" -eq 1

	base=$(sed -n 1p "$work/mmdebstrap.calls")
	base=${base%.tmp}
	rm -f "$base.done"
	before=$(calls)
	check "a base without its completion mark (killed while made)" image_right
	check "... is made again" test "$(calls)" -eq $((before + 1))

	mkdir -p "$base.tmp/half"
	check "a leftover base.tmp" image_right

	# What a killed mmdebstrap leaves: its chroot's mounts still there.
	drop_base "$base"
	mkdir -p "$base.tmp/proc"
	mount -t tmpfs none "$base.tmp/proc"
	: >"$base.tmp/proc/keep"
	check "a base.tmp with a mount left in it (killed mmdebstrap)" image_right
	check "... unmounted, not emptied through the mount" \
		bash -c '! findmnt -rn -o TARGET | grep -qF "$0"' "$base.tmp"
}

drop_base() {
	rm -f "$1.done"
}

case ${1:-} in
kernel) kernel_states ;;
rootfs) rootfs_states "${2:-}" ;;
*) echo "usage: ${0##*/} kernel | rootfs BUILD_DIR" >&2; exit 2 ;;
esac
echo "$passed passed, $failed failed"
((failed == 0))
