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
kernel_tarball=${EXT4DEV_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
kernel_cache=${EXT4DEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ext4dev}
kernel_src=$kernel_cache/linux
kernel_src_id=$kernel_cache/linux.id
kernel_obj=$kernel_cache/obj
kernel_patches=$(realpath -m "${EXT4DEV_KERNEL_PATCHES:-$kernel_here/patches}")
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
	[[ -r $kernel_tarball ]] ||
		skip "kernel source '$kernel_tarball' not found (apt-get install linux-source-6.12)"
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
	# The tarball holds one top-level directory (linux-source-6.12).
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
