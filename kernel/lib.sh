# shellcheck shell=bash
# Shared by kernel/build.sh, kernel/check-series.sh and kernel/run-kunit.sh.
# Sourced, not run: it only defines variables and functions.
#
# The kernel tree lives in a cache directory outside the repository:
#   $cache/linux/        git repository of the unpacked tarball; the commit
#                        tagged "pristine" is the tarball, HEAD the series
#   $cache/linux.id      identity of the tarball in linux/, written last
#   $cache/obj/          out-of-tree object directory (O=), reused so that a
#                        changed patch rebuilds only what it touches
#   $cache/images/<key>/ finished bzImage + .config per cache key
#   $cache/lock          flock(1) lock for everything that changes the above

kernel_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kernel_root_cache=${EXT4DEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ext4dev}
# Which base: "mainline" is kernel/patches on Debian's newest kernel
# source (the QEMU harness's kernel); "6.12" and "6.1" are the stable
# backports in kernel/stable/<base> on Debian 12's linux-source-<base>,
# each with a cache directory of its own under the mainline one.
kernel_base=${EXT4DEV_KERNEL_BASE:-mainline}
case $kernel_base in
mainline)
	kernel_cache=$kernel_root_cache
	kernel_default_patches=$kernel_here/patches
	# Debian's newest kernel source: Debian 13's backports suite,
	# fetched into the cache with a private apt configuration (the
	# machine's own sources are never touched).  Pinned: the version
	# is part of the cache key, and moving it is a deliberate commit.
	kernel_source_package=linux-source-7.3
	kernel_source_version=7.3.4-1~bpo13+1
	kernel_source_suite=trixie-backports
	kernel_default_tarball=$kernel_cache/source/${kernel_source_package}_$kernel_source_version.tar.xz
	;;
6.12 | 6.1)
	kernel_cache=$kernel_root_cache/stable-$kernel_base
	kernel_default_patches=$kernel_here/stable/$kernel_base
	kernel_source_package=linux-source-$kernel_base
	kernel_default_tarball=/usr/src/linux-source-$kernel_base.tar.xz
	;;
*)
	echo "${0##*/}: EXT4DEV_KERNEL_BASE '$kernel_base' is not mainline, 6.12 or 6.1" >&2
	exit 1
	;;
esac
kernel_tarball=${EXT4DEV_KERNEL_TARBALL:-$kernel_default_tarball}
kernel_src=$kernel_cache/linux
kernel_src_id=$kernel_cache/linux.id
kernel_obj=$kernel_cache/obj
kernel_patches=$(realpath -m "${EXT4DEV_KERNEL_PATCHES:-$kernel_default_patches}")
# shellcheck disable=SC2034 # used by the scripts that source this file
kernel_fragment=$kernel_here/config/qemu.config
# shellcheck disable=SC2034
kernel_arch=x86_64

# One identity for every commit we make in the scratch tree, the same one
# that signs the series (see kernel/README.md).
export GIT_AUTHOR_NAME="ext4dev developers"
export GIT_AUTHOR_EMAIL="ext4dev@example.invalid"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# Exit 77 (CTest's SKIP_RETURN_CODE) for a check that cannot run on this
# machine, saying why.  EXT4DEV_NO_SKIP=1 (CI) turns a skip into a failure.
skip() {
	echo "${0##*/}: SKIP: $*" >&2
	[[ ${EXT4DEV_NO_SKIP:-0} == 1 ]] && exit 1
	exit 77
}

note() {
	echo "${0##*/}: $*" >&2
}

# Refuse to put the cache inside a git work tree: the tree is 1.5 GB and
# must never end up in a commit of ours.
check_cache_location() {
	local dir=$kernel_cache

	mkdir -p "$dir" || die "cannot create cache directory '$dir'"
	if git -C "$dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		die "cache directory '$dir' is inside a git work tree; set EXT4DEV_CACHE_DIR elsewhere"
	fi
}

require_tarball() {
	[[ -r $kernel_tarball ]] && return
	if [[ -z ${EXT4DEV_KERNEL_TARBALL:-} && $kernel_base == mainline ]]; then
		fetch_tarball
		return
	fi
	skip "kernel source '$kernel_tarball' not found (apt-get install $kernel_source_package)"
}

# Debian's archive as this machine's apt reaches it: the URI of a Debian
# entry of its sources that is not the security archive.
debian_mirror() {
	apt-get indextargets --format '$(ORIGIN)|$(REPO_URI)|$(RELEASE)' \
		'Identifier: Packages' 2>/dev/null |
		awk -F'|' '$1 == "Debian" && $3 !~ /-security$/ { print $2; exit }'
}

# Fetch the pinned mainline source package into the cache and keep only
# its tarball.  apt gets its own sources list, lists and archives under
# $kernel_cache/source/apt; the machine's apt configuration is read for
# the archive's address and changed in nothing.  When the archive no
# longer has the pinned version, one line says which versions it has.
fetch_tarball() {
	local dir=$kernel_cache/source apt mirror deb versions
	local -a opts

	check_cache_location
	apt=$dir/apt
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/cache" ||
		die "cannot create '$apt'"
	exec 7>"$dir/fetch.lock"
	flock 7
	[[ -r $kernel_tarball ]] && { flock -u 7; return; }
	command -v apt-get >/dev/null || skip "apt-get not found: cannot fetch $kernel_source_package"
	mirror=$(debian_mirror)
	[[ -n $mirror ]] || skip "apt knows no Debian archive here (apt-get update?)"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $kernel_source_suite main" \
		>"$apt/sources.list"
	opts=(-q -o Dir::Etc::SourceList="$apt/sources.list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$apt/lists"
		-o Dir::Cache="$apt/cache" -o Dir::State::status=/dev/null
		-o APT::Sandbox::User=root -o Debug::NoLocking=1)
	note "fetching $kernel_source_package $kernel_source_version from Debian's $kernel_source_suite (apt configuration: $apt)"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of $kernel_source_suite failed, see '$apt/update.log'"
	rm -f "$apt"/*.deb
	if ! (cd "$apt" && apt-get "${opts[@]}" download \
		"$kernel_source_package=$kernel_source_version" >"$apt/download.log" 2>&1); then
		versions=$(apt-cache "${opts[@]}" madison "$kernel_source_package" 2>/dev/null |
			awk -F'|' '{ gsub(/ /, "", $2); printf "%s%s", sep, $2; sep = ", " }')
		die "$kernel_source_package $kernel_source_version is not in Debian's $kernel_source_suite (it has: ${versions:-none}); move kernel_source_version in kernel/lib.sh"
	fi
	deb=$(printf '%s\n' "$apt/${kernel_source_package}_"*.deb | head -n 1)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$kernel_source_package.tar.xz" >"$kernel_tarball.tmp" ||
		die "no ./usr/src/$kernel_source_package.tar.xz in '$deb'"
	mv "$kernel_tarball.tmp" "$kernel_tarball"
	rm -f "$deb"
	flock -u 7
}

# The tarball's identity: its name and SHA-256.  Hashing 150 MB takes about
# a second, so the result is remembered per (path, size, mtime).
tarball_id() {
	local stamp memo=$kernel_cache/tarball.id line

	stamp=$(stat -c '%n %s %Y' "$kernel_tarball") ||
		die "cannot stat '$kernel_tarball'"
	if [[ -f $memo ]]; then
		line=$(<"$memo")
		if [[ ${line% *} == "$stamp" ]]; then
			echo "${kernel_tarball##*/} ${line##* }"
			return
		fi
	fi
	line="$stamp $(sha256sum <"$kernel_tarball" | cut -d' ' -f1)"
	echo "$line" >"$memo.tmp" && mv "$memo.tmp" "$memo"
	echo "${kernel_tarball##*/} ${line##* }"
}

# Take the cache lock; wait (and say so) if another build holds it.
# The lock is flock(2)'s, so a killed holder releases it: the file
# itself is never stale.  What a killed git may leave behind is: with
# the lock held no git of ours runs in the tree, so an index.lock there
# is a leftover, and every later checkout would fail on it.
lock_cache() {
	exec 9>"$kernel_cache/lock"
	if ! flock -n 9; then
		note "waiting for another kernel build ($kernel_cache/lock)"
		flock 9
	fi
	if [[ -f $kernel_src/.git/index.lock ]]; then
		note "removing '$kernel_src/.git/index.lock' left by a killed run"
		rm -f "$kernel_src/.git/index.lock"
	fi
}

# The patch files named in patches/series, in order, as absolute paths.
series_patches() {
	local name

	[[ -f $kernel_patches/series ]] || die "missing '$kernel_patches/series'"
	while read -r name; do
		[[ -z $name || $name == \#* ]] && continue
		[[ -f $kernel_patches/$name ]] ||
			die "series names '$name' but '$kernel_patches/$name' does not exist"
		echo "$kernel_patches/$name"
	done <"$kernel_patches/series"
}

# Unpack the tarball into $kernel_src as a git repository whose commit
# tagged "pristine" is the tarball.  Git makes re-applying a changed series
# cheap and exact: a checkout rewrites only the files that differ, so make
# rebuilds only what a patch touches.  Call with the lock held.
unpack_source() {
	local id tmp

	id=$(tarball_id)
	if [[ -f $kernel_src_id && $(<"$kernel_src_id") == "$id" ]]; then
		return
	fi
	note "unpacking $kernel_tarball into $kernel_src"
	rm -rf "$kernel_src_id" "$kernel_src" "$kernel_obj" "$kernel_cache/unpack.tmp"
	tmp=$kernel_cache/unpack.tmp
	mkdir -p "$tmp"
	# Debian's tarball is xz in 62 blocks: xz -T0 decompresses them on
	# every core at once.
	tar -I 'xz -T0' -xf "$kernel_tarball" -C "$tmp" ||
		die "cannot unpack '$kernel_tarball'"
	# The tarball holds one top-level directory (linux-source-7.3).
	mv "$tmp"/*/ "$kernel_src" || die "unexpected layout in '$kernel_tarball'"
	rmdir "$tmp"
	# Debian's top-level .gitignore ends in "/*", which would hide the
	# whole tree from git; -f adds it anyway.  Uncompressed objects make
	# the one-off commit of 80,000 files several times faster.
	(
		cd "$kernel_src"
		git init -q
		git config core.compression 0
		git config core.looseCompression 0
		git config gc.auto 0
		git add -f -A .
		git commit -q -m "${kernel_tarball##*/}" -m "$id"
		git tag pristine
	) || die "cannot create the git repository in '$kernel_src'"
	# Written last: a tree without it is incomplete and gets unpacked again.
	echo "$id" >"$kernel_src_id"
}

# Make sure an unpacked tree exists; take the lock only when it must be made.
ensure_source() {
	require_tarball
	check_cache_location
	if [[ -f $kernel_src_id && $(<"$kernel_src_id") == "$(tarball_id)" ]]; then
		return
	fi
	lock_cache
	unpack_source
	flock -u 9
}

# Commit the given patch files, in order, onto "pristine" without touching
# the work tree: a private index, "git apply --cached", and commit-tree
# with the author, date and message of each patch (what "git am" makes).
# Prints one commit id per patch.  A checkout of the last one then rewrites
# only the files that differ from what the tree holds, so make rebuilds
# only what changed.
series_commits() {
	local index info msg parent patch tree

	index=$(mktemp)
	info=$(mktemp)
	msg=$(mktemp)
	parent=$(git -C "$kernel_src" rev-parse pristine)
	GIT_INDEX_FILE=$index git -C "$kernel_src" read-tree pristine
	for patch; do
		if ! GIT_INDEX_FILE=$index git -C "$kernel_src" apply --cached \
			"$patch" >&2; then
			rm -f "$index" "$info" "$msg"
			die "patch '${patch##*/}' does not apply to ${kernel_tarball##*/}"
		fi
		git -C "$kernel_src" mailinfo "$msg" /dev/null <"$patch" >"$info"
		tree=$(GIT_INDEX_FILE=$index git -C "$kernel_src" write-tree)
		parent=$(GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$info") \
			GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$info") \
			GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$info") \
			git -C "$kernel_src" commit-tree -p "$parent" "$tree" \
			-F <(sed -n 's/^Subject: //p' "$info"; echo; cat "$msg"))
		echo "$parent"
	done
	rm -f "$index" "$info" "$msg"
}

# Copy the object directory $1 to $2 (replaced), so that make in $2
# rebuilds only what differs.  objtool's build (tools/) records its
# output directory as an absolute path; left as it is, make rebuilds
# objtool, and with it every object objtool has checked.  The copy is
# made under $2.tmp and renamed, so a killed copy is never taken for $2.
copy_objects() {
	local from=$1 to=$2

	rm -rf "$to" "$to.tmp"
	cp -a "$from" "$to.tmp" || die "cannot copy '$from' to '$to.tmp'"
	if [[ -d $to.tmp/tools ]]; then
		find "$to.tmp/tools" -name '*.cmd' \
			-exec sed -i "s|$from/|$to/|g" {} + ||
			die "cannot move objtool's build records to '$to'"
	fi
	mv "$to.tmp" "$to"
}
