#!/bin/bash
# Build the ext4dev test kernel: Debian's linux-source-7.3 (fetched into
# the cache, see lib.sh) plus the series in kernel/patches, configured as tinyconfig plus kernel/config/qemu.config
# (and, for a flavour, kernel/config/FLAVOUR.config on top).
# The result is cached (see lib.sh) under a key that hashes every input, so
# an unchanged second run only hashes and copies.
#
# It builds a bzImage, and for a flavour with CONFIG_MODULES the modules,
# installed into the image's directory (never into this machine's /lib):
# nothing is ever loaded into the running kernel.
set -euo pipefail

# shellcheck source=kernel/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOF
usage: ${0##*/} [--flavour NAME] [--output DIR] [--print-key] [--each-patch]
       ${0##*/} --source-only

Build (or fetch from the cache) the ext4dev test kernel.

  --flavour NAME add kernel/config/NAME.config to the configuration; its
                 own object directory, obj-NAME, and cache key (e.g.
                 "modular": ext4 as a module)
  --output DIR   copy bzImage and its .config (and the modules/ tree of a
                 modular flavour) into DIR
  --print-key    print the cache key and exit
  --each-patch   build after every patch of the series, to show that each
                 one builds on its own (slow; not cached)
  --source-only  only make sure the tarball is unpacked in the cache

Cache: $kernel_cache (EXT4DEV_CACHE_DIR overrides)
EOF
}

# Everything that decides what the bzImage contains, hashed.  The compiler
# is part of it so that a toolchain upgrade cannot reuse an old image.
cache_key() {
	local f

	{
		echo "tarball $(tarball_id)"
		echo "arch $kernel_arch"
		echo "cc $(gcc --version | sed -n 1p)"
		for f in "$kernel_patches/series" "${patches[@]}" \
			 "${fragments[@]}" "$kernel_here/build.sh" \
			 "$kernel_here/lib.sh"; do
			echo "${f#"$kernel_here"/} $(sha256sum <"$f" | cut -d' ' -f1)"
		done
	} | sha256sum | cut -c1-16
}

make_kernel() {
	make -C "$kernel_src" O="$kernel_obj" ARCH="$kernel_arch" \
		KBUILD_BUILD_USER=ext4dev KBUILD_BUILD_HOST=ext4dev "$@"
}

# Put the tree at pristine plus the first $1 patches (all when $1 is
# empty), as commits with the patches' messages.  The checkout rewrites
# only the files that differ from what the tree holds, so make rebuilds
# only what changed since the last build.
apply_series() {
	local count=${1:-${#patches[@]}} list=$kernel_cache/series.commits target

	series_commits "${patches[@]:0:count}" >"$list" || exit 1
	target=$(tail -n 1 "$list")
	git -C "$kernel_src" checkout -q -f --detach "${target:-pristine}" ||
		die "cannot check out the series in '$kernel_src'"
	git -C "$kernel_src" clean -q -f -d -x
}

# Every option the fragment asks for must be in the final .config:
# merge_config.sh only warns when a dependency is missing or a symbol has
# been renamed, and a silently dropped option makes a guest that cannot
# see its disks or print its results.
# A flavour's fragment overrides the base one: the last line for a
# symbol is what must stick.
check_config() {
	local config=$kernel_obj/.config line sym bad=()
	local -A want=()

	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#"# "} sym=${sym%% *} ;;
		*) continue ;;
		esac
		want[$sym]=$line
	done < <(cat "${fragments[@]}")
	for sym in "${!want[@]}"; do
		line=${want[$sym]}
		if [[ $line == CONFIG_* ]]; then
			grep -qxF "$line" "$config" || bad+=("$line")
		else
			! grep -q "^$sym=" "$config" || bad+=("$line")
		fi
	done
	((${#bad[@]} == 0)) ||
		die "config options did not stick (see '$config'): ${bad[*]}"
}

# The configuration depends on the fragment, this script and the Kconfig
# files the series changes; when none of them changed since the last run,
# and the .config is the one that run wrote (a build from another work
# tree may have configured obj/ since), it is still right and a patch
# edit skips ~20 s.
config_stamp() {
	{
		cat "${fragments[@]}" "$kernel_here/build.sh"
		git -C "$kernel_src" diff pristine HEAD -- '*Kconfig*'
	} | sha256sum | cut -c1-16
	# No .config yet (an empty cache, or a run killed before it wrote
	# one): a stamp that never matches, so configure() makes it.
	if [[ -f $kernel_obj/.config ]]; then
		sha256sum <"$kernel_obj/.config" | cut -c1-16
	else
		echo "no .config"
	fi
}

configure() {
	local log=$kernel_obj/config.log stamp

	stamp=$(config_stamp)
	if [[ -f $kernel_obj/.config && $(cat "$kernel_obj/config.stamp" 2>/dev/null) == "$stamp" ]]; then
		check_config
		return
	fi
	rm -f "$kernel_obj/config.stamp"
	mkdir -p "$kernel_obj"
	# What "make tinyconfig" does (allnoconfig over tiny-base.config,
	# then tiny.config merged and olddefconfig), with our fragments
	# merged in the same step: the .config is the same byte for byte,
	# and Kconfig, whose compiler probes cost ~10 s a pass here, runs
	# twice instead of three times.
	{
		KCONFIG_ALLCONFIG=$kernel_src/kernel/configs/tiny-base.config \
			make_kernel allnoconfig &&
		"$kernel_src/scripts/kconfig/merge_config.sh" -m -O "$kernel_obj" \
			"$kernel_obj/.config" \
			"$kernel_src/kernel/configs/tiny.config" \
			"$kernel_src/arch/x86/configs/tiny.config" \
			"${fragments[@]}" &&
		make_kernel olddefconfig
	} >"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "kernel configuration failed, full log in '$log'"
	}
	check_config
	config_stamp >"$kernel_obj/config.stamp"
}

modular() {
	grep -qx 'CONFIG_MODULES=y' "$kernel_obj/.config"
}

# A flavour's first build starts from a copy of the normal kernel's
# objects: kbuild records which CONFIG_ symbols each object depends on,
# so after the flavour's configure it recompiles only what the flavour's
# options reach (for "modular": ext4, jbd2, mbcache, crc16 and crypto
# become modules; 67 compiles, not ~900).  copy_objects (lib.sh) makes
# the copy.
seed_flavour_objects() {
	local base=$kernel_cache/obj

	[[ $kernel_obj != "$base" && ! -f $kernel_obj/.config ]] || return 0
	[[ -f $base/.config && -f $base/arch/x86/boot/bzImage ]] || return 0
	copy_objects "$base" "$kernel_obj"
	note "started ${kernel_obj##*/}/ from the objects of obj/"
}

build_bzimage() {
	local log=$kernel_obj/build.log targets=(bzImage)

	! modular || targets+=(modules)
	make_kernel -j"$(nproc)" "${targets[@]}" >"$log" 2>&1 || {
		grep -E 'error|Error' "$log" | tail -n 20 >&2
		die "${targets[*]} build failed, full log in '$log'"
	}
}

# The modules as a guest's /lib/modules/<release>, depmod's indexes
# (modules.dep, modules.alias: what modprobe and the kernel's
# request_module() resolve "fs-ext4dev" with) included.  depmod runs on
# files only; nothing is loaded here.
install_modules() {
	local dir=$1

	PATH=/usr/sbin:/sbin:$PATH make_kernel INSTALL_MOD_PATH="$dir" \
		INSTALL_MOD_STRIP=1 DEPMOD=depmod modules_install \
		>"$kernel_obj/modules_install.log" 2>&1 ||
		die "modules_install failed, see '$kernel_obj/modules_install.log'"
	# Links back into the object directory: nothing a guest can use.
	rm -f "$dir"/lib/modules/*/build "$dir"/lib/modules/*/source
}

# Keep the newest few images: each is ~2 MB, but keys pile up while the
# series is being edited.
prune_images() {
	local old

	find "$kernel_cache/images" -mindepth 1 -maxdepth 1 -type d \
		-printf '%T@ %p\n' | sort -rn | tail -n +6 | cut -d' ' -f2- |
		while IFS= read -r old; do
			rm -rf "$old"
		done
}

build_into_cache() {
	local image=$1 tmp=$1.tmp start=$SECONDS step=$SECONDS

	unpack_source
	apply_series ""
	note "source ready and series applied in $((SECONDS - step)) s"
	step=$SECONDS
	seed_flavour_objects
	configure
	note "configured in $((SECONDS - step)) s; building bzImage with make -j$(nproc) (log: $kernel_obj/build.log)"
	step=$SECONDS
	build_bzimage
	note "bzImage built in $((SECONDS - step)) s"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	cp "$kernel_obj/arch/x86/boot/bzImage" "$kernel_obj/.config" "$tmp/"
	! modular || install_modules "$tmp/modules"
	git -C "$kernel_src" log --oneline pristine..HEAD >"$tmp/series.log"
	rm -rf "$image"
	mv "$tmp" "$image"
	prune_images
	note "built $image/bzImage in $((SECONDS - start)) s"
}

# Bisectability: the series must build after every single patch.
build_each_patch() {
	local i

	lock_cache
	unpack_source
	for ((i = 1; i <= ${#patches[@]}; i++)); do
		apply_series "$i"
		configure
		build_bzimage
		note "builds after ${patches[i - 1]##*/}"
	done
}

copy_output() {
	local image=$1 dir=$2 f

	mkdir -p "$dir"
	for f in bzImage .config; do
		cp "$image/$f" "$dir/$f.tmp"
		mv "$dir/$f.tmp" "$dir/${f#.}"
	done
	rm -rf "$dir/modules"
	[[ ! -d $image/modules ]] || cp -a "$image/modules" "$dir/modules"
	echo "$key" >"$dir/kernel.key"
}

main() {
	local output="" print_key=0 each=0 source_only=0 image flavour=""

	while (($#)); do
		case $1 in
		--output) output=${2:?--output needs a directory}; shift ;;
		--flavour) flavour=${2:?--flavour needs a name}; shift ;;
		--print-key) print_key=1 ;;
		--each-patch) each=1 ;;
		--source-only) source_only=1 ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done

	fragments=("$kernel_fragment")
	if [[ -n $flavour ]]; then
		[[ -f $kernel_here/config/$flavour.config ]] ||
			die "no flavour '$flavour': missing kernel/config/$flavour.config"
		fragments+=("$kernel_here/config/$flavour.config")
		kernel_obj=$kernel_cache/obj-$flavour
	fi
	require_tarball
	check_cache_location
	if ((source_only)); then
		ensure_source
		echo "$kernel_src"
		exit 0
	fi
	series_patches >/dev/null
	mapfile -t patches < <(series_patches)
	key=$(cache_key)
	if ((print_key)); then
		echo "$key"
		exit 0
	fi
	if ((each)); then
		build_each_patch
		exit 0
	fi

	image=$kernel_cache/images/$key
	if [[ -f $image/bzImage ]]; then
		note "cached: $image/bzImage"
	else
		lock_cache
		[[ -f $image/bzImage ]] || build_into_cache "$image"
		flock -u 9
	fi
	if [[ -n $output ]]; then
		copy_output "$image" "$output"
		echo "$output/bzImage"
	else
		echo "$image/bzImage"
	fi
}

main "$@"
