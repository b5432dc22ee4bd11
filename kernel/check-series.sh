#!/bin/bash
# Checks of the patch series in kernel/patches, run by CTest:
#
#   check-series.sh apply       every patch in "series" applies, in order and
#                               without fuzz, to the unpacked tarball
#   check-series.sh checkpatch  every patch is checkpatch --strict clean,
#                               has an "ext4:" subject and our sign-off
#   check-series.sh bisect      the tree builds fs/ext4/ after every patch,
#                               with CONFIG_EXT4_TEST_FS on and off, with no
#                               W=1 warning the pristine tree does not have
#   check-series.sh build       the whole series builds fs/ext4/ (KUnit
#                               suites included) with CONFIG_EXT4_TEST_FS
#                               on and off and no W=1 warning in fs/ext4/:
#                               the check of a stable backport
#                               (EXT4DEV_KERNEL_BASE=6.12 or 6.1)
#
# EXT4DEV_KERNEL_BASE picks the series and tree (kernel/lib.sh): the
# mainline series by default, or a stable backport.
# None changes the cached tree build.sh uses: "apply" works on a private
# git index, "bisect" in a worktree of its own (bisect-tree/).
set -euo pipefail

# shellcheck source=kernel/lib.sh
. "$(dirname "$0")/lib.sh"

signoff="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"

# The series file must name exactly the numbered patches in the directory,
# in order: a patch that exists but is not applied is never tested.
check_series_file() {
	local listed on_disk

	listed=$(series_patches | xargs -n1 basename)
	on_disk=$(cd "$kernel_patches" && printf '%s\n' [0-9][0-9][0-9][0-9]-*.patch |
		grep -v '^0000-cover-letter\.patch$' | sort)
	[[ $listed == "$on_disk" ]] ||
		die "patches/series does not list exactly the patch files, in order:
series:
$listed
files:
$on_disk"
	[[ -f $kernel_patches/0000-cover-letter.patch ]] ||
		die "missing patches/0000-cover-letter.patch"
}

check_apply() {
	local patch n=0

	check_series_file
	ensure_source
	apply_index=$(mktemp)
	trap 'rm -f "$apply_index"' EXIT
	# A private index: the pristine tree without a checkout, so this
	# neither needs nor disturbs the work tree a build may be using.
	GIT_INDEX_FILE=$apply_index git -C "$kernel_src" read-tree pristine
	while IFS= read -r patch; do
		GIT_INDEX_FILE=$apply_index git -C "$kernel_src" apply --cached \
			--whitespace=error-all "$patch" ||
			die "patch '${patch##*/}' does not apply to ${kernel_tarball##*/} after the patches before it"
		n=$((n + 1))
		echo "ok $n ${patch##*/}"
	done < <(series_patches)
	((n > 0)) || die "patches/series is empty"
	echo "all $n patches apply to ${kernel_tarball##*/}"
}

# checkpatch asks "does MAINTAINERS need updating?" (FILE_PATH_CHANGES) for
# every added file.  We answer it instead of ignoring it: each added file
# must belong to the EXT4 FILE SYSTEM entry already.
check_new_files() {
	local patch=$1 file sections

	# The file does not exist in the pristine tree, and older
	# get_maintainer.pl needs it to: ask for its directory, which an
	# "F: fs/ext4/" pattern covers the same way.
	while IFS= read -r file; do
		sections=$(cd "$kernel_src" &&
			scripts/get_maintainer.pl --no-git --sections -f "${file%/*}/" 2>/dev/null)
		grep -qx 'EXT4 FILE SYSTEM' <<<"$sections" || return 1
	done < <(awk '/^diff --git /{f = substr($4, 3)}
		      /^new file mode/{print f}' "$patch")
}

# The header of a patch mail: subject prefix, author and sign-off.
check_header() {
	local patch=$1 subject prefix

	subject=$(sed -n 's/^Subject: //p' "$patch" | head -n1)
	# Mainline: "[PATCH v6 3/7]"; a stable backport: "[PATCH 6.12 3/7]".
	if [[ $kernel_base == mainline ]]; then
		prefix='( v[0-9]+)?'
	else
		prefix=" ${kernel_base//./\\.}"
	fi
	[[ $subject =~ ^\[PATCH$prefix( [0-9]+/[0-9]+)?\]\ ext4:\ [a-z] ]] ||
		{ echo "subject is not '[PATCH${prefix#\?} n/m] ext4: <lowercase summary>': $subject"; return 1; }
	grep -qxF "From: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>" "$patch" ||
		{ echo "author is not '$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>'"; return 1; }
	grep -qxF "$signoff" "$patch" ||
		{ echo "missing '$signoff'"; return 1; }
}

# Run checkpatch inside the unpacked tree: it looks for ./.git before it
# runs scripts/spdxcheck.py (the SPDX check), which wants the distribution's
# python3 with python3-ply and python3-git.  UNKNOWN_COMMIT_ID is ignored:
# the tree is a tarball with one commit, so checkpatch cannot look up the
# mainline id in patch 1's "Fixes:" (checkpatch still checks its format).
run_checkpatch() {
	(cd "$kernel_src" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$1" 2>&1)
}

check_checkpatch() {
	local patch out n=0 failed=0 why

	check_series_file
	ensure_source
	while IFS= read -r patch; do
		n=$((n + 1))
		why=""
		out=$(run_checkpatch "$patch") || true
		if grep -q Traceback <<<"$out"; then
			why="a checkpatch helper crashed, so some checks did not run"
		elif ! grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
			why=$(grep '^total:' <<<"$out" || echo "checkpatch failed")
		elif ! why=$(check_header "$patch"); then
			:
		elif ! check_new_files "$patch"; then
			why="adds a file outside the EXT4 FILE SYSTEM entry of MAINTAINERS"
		fi
		if [[ -n $why ]]; then
			echo "not ok $n ${patch##*/} # $why"
			printf '%s\n' "$out" | sed 's/^/    /'
			failed=1
		else
			echo "ok $n ${patch##*/}"
		fi
	done < <(series_patches)
	((failed == 0)) || die "checkpatch: some patches are not clean"
	echo "all $n patches are checkpatch --strict clean"
}

# --- bisect: every patch builds on its own, with CONFIG_EXT4_TEST_FS on and
# off, and adds no W=1 warning in fs/ext4/ against the pristine tree.  A
# git worktree of the cached repository (bisect-tree/) is checked out at
# each state in turn; two object directories of their own
# (obj-bisect-on/-off) keep "make fs/ext4/" incremental, so a state costs
# the files its patch touches.  "off" is a copy of "on" until the first
# Kconfig change (check_bisect).  The tree build.sh uses is never touched, so
# both can run at once, and a run starts from where the last one ended.

bisect_tree=$kernel_cache/bisect-tree

bisect_make() {
	make -C "$bisect_tree" O="$1" ARCH="$kernel_arch" "${@:2}"
}

# The worktree, made once per unpacked tarball (~1 min, 1.5 GB).
ensure_bisect_tree() {
	local pristine

	pristine=$(git -C "$kernel_src" rev-parse pristine)
	[[ $(git -C "$bisect_tree" rev-parse pristine 2>/dev/null) == "$pristine" ]] &&
		return
	lock_cache
	rm -rf "$bisect_tree"
	git -C "$kernel_src" worktree prune
	note "making the bisect worktree $bisect_tree"
	git -C "$kernel_src" worktree add -q --detach "$bisect_tree" pristine ||
		die "cannot add the worktree '$bisect_tree'"
	flock -u 9
}

# tinyconfig + the QEMU fragment, with CONFIG_EXT4_TEST_FS as asked.  Set
# again whenever the state's Kconfig files differ from the last build's:
# at a state without the symbol olddefconfig drops it, and the patch that
# adds it must see it on.
bisect_config() {
	local obj=$1 setting=$2 stamp kconfig

	stamp=$(sha256sum <"$kernel_fragment" | cut -c1-16)
	kconfig=$(git -C "$bisect_tree" diff pristine HEAD -- '*Kconfig*' |
		sha256sum | cut -c1-16)
	if [[ ! -f $obj/.config || $(cat "$obj/config.stamp" 2>/dev/null) != "$stamp" ]]; then
		rm -f "$obj/kconfig.stamp"
		mkdir -p "$obj"
		{
			bisect_make "$obj" tinyconfig &&
			"$bisect_tree/scripts/kconfig/merge_config.sh" -m -O "$obj" \
				"$obj/.config" "$kernel_fragment"
		} >"$obj/config.log" 2>&1 || die "configuring '$obj' failed, see '$obj/config.log'"
		echo "$stamp" >"$obj/config.stamp"
	fi
	[[ $(cat "$obj/kconfig.stamp" 2>/dev/null) == "$kconfig" ]] && return
	"$bisect_tree/scripts/config" --file "$obj/.config" \
		"--$([[ $setting == on ]] && echo enable || echo disable)" EXT4_TEST_FS
	bisect_make "$obj" olddefconfig >>"$obj/config.log" 2>&1 ||
		die "olddefconfig in '$obj' failed"
	echo "$kconfig" >"$obj/kconfig.stamp"
}

# The W=1 warnings of fs/ext4/ in a build log, without line numbers, so
# that the same warning on a moved line compares equal.
ext4_warnings() {
	grep -E '(^|/)fs/ext4/[^:]+:[0-9]+:[0-9]+: warning:' "$1" |
		sed -E 's#^.*(fs/ext4/[^:]+):[0-9]+:[0-9]+:#\1:#' | sort || true
}

# Build fs/ext4/ at the current state; new warnings or a failed build fail.
bisect_build() {
	local obj=$1 setting=$2 name=$3 log=$1/bisect.log new

	bisect_config "$obj" "$setting"
	if ! bisect_make "$obj" W=1 -j"$(nproc)" fs/ext4/ >"$log" 2>&1; then
		echo "not ok $name EXT4_TEST_FS=$setting # does not build"
		grep -E 'error' "$log" | head -n 10 | sed 's/^/    /'
		return 1
	fi
	new=$(comm -13 "$obj/w1-baseline" <(ext4_warnings "$log"))
	if [[ -n $new ]]; then
		echo "not ok $name EXT4_TEST_FS=$setting # new W=1 warnings"
		printf '%s\n' "$new" | sed 's/^/    /'
		return 1
	fi
	echo "ok $name EXT4_TEST_FS=$setting"
}

# The pristine tree's W=1 warnings in fs/ext4/, once per object directory.
bisect_baseline() {
	local obj=$1 setting=$2 pristine

	pristine=$(git -C "$kernel_src" rev-parse pristine)
	[[ $(head -n1 "$obj/w1-baseline.id" 2>/dev/null) == "$pristine" ]] && return
	git -C "$bisect_tree" checkout -q -f --detach pristine
	rm -rf "$obj/fs/ext4"
	bisect_config "$obj" "$setting"
	bisect_make "$obj" W=1 -j"$(nproc)" fs/ext4/ >"$obj/baseline.log" 2>&1 ||
		die "the pristine tree does not build fs/ext4/, see '$obj/baseline.log'"
	ext4_warnings "$obj/baseline.log" >"$obj/w1-baseline"
	echo "$pristine" >"$obj/w1-baseline.id"
	echo "baseline EXT4_TEST_FS=$setting: $(wc -l <"$obj/w1-baseline") W=1 warnings in fs/ext4/"
}

# Build the current state with each setting given, at once: a state
# recompiles one or two files, which one make cannot spread over the
# cores.  An object directory whose build failed loses fs/ext4/, so that
# an object left from a failed state cannot hide its warnings next time.
bisect_state() {
	local name=$1 setting obj failed=0
	local -A pids

	for setting in "${@:2}"; do
		obj=$kernel_cache/obj-bisect-$setting
		bisect_build "$obj" "$setting" "$name" >"$obj/state.out" 2>&1 &
		pids[$setting]=$!
	done
	for setting in "${@:2}"; do
		obj=$kernel_cache/obj-bisect-$setting
		wait "${pids[$setting]}" || { failed=1; rm -rf "$obj/fs/ext4"; }
		cat "$obj/state.out"
	done
	return "$failed"
}

# The worktree, locked for this check, and the series' commits in
# $kernel_cache/bisect.commits, one per patch.
prepare_worktree() {
	local patches

	check_series_file
	ensure_source
	ensure_bisect_tree
	# One bisect or build check at a time; build.sh's lock is not needed.
	exec 8>"$kernel_cache/bisect.lock"
	flock -n 8 || { note "waiting for another bisect or build check"; flock 8; }
	# Under that lock no git runs in the worktree: a leftover of a
	# killed run would fail every checkout below.
	rm -f "$(git -C "$bisect_tree" rev-parse --git-dir)/index.lock"
	mapfile -t patches < <(series_patches)
	series_commits "${patches[@]}" >"$kernel_cache/bisect.commits" || exit 1
}

check_bisect() {
	local commits names i shared failed=0 start=$SECONDS

	prepare_worktree
	mapfile -t commits <"$kernel_cache/bisect.commits"
	mapfile -t names < <(series_patches | xargs -n1 basename)
	bisect_baseline "$kernel_cache/obj-bisect-on" on
	# Until a patch changes a Kconfig file there is no
	# CONFIG_EXT4_TEST_FS, so "on" and "off" are the same build: make it
	# once.  At the first state that differs, "off" starts as a copy of
	# "on" (the previous state's objects) and goes its own way.
	shared=1
	for i in "${!commits[@]}"; do
		git -C "$bisect_tree" checkout -q -f --detach "${commits[i]}"
		if ((shared)) && git -C "$bisect_tree" diff --quiet pristine HEAD -- '*Kconfig*'; then
			if bisect_state "${names[i]}" on; then
				echo "ok ${names[i]} EXT4_TEST_FS=off # the same build as on: no Kconfig change yet"
			else
				echo "not ok ${names[i]} EXT4_TEST_FS=off # the same build as on"
				failed=1
			fi
			continue
		fi
		if ((shared)); then
			copy_objects "$kernel_cache/obj-bisect-on" "$kernel_cache/obj-bisect-off"
			shared=0
		fi
		bisect_state "${names[i]}" on off || failed=1
	done
	((failed == 0)) || die "bisect: some states do not build cleanly"
	echo "all ${#commits[@]} patches build with CONFIG_EXT4_TEST_FS on and off, no new W=1 warning ($((SECONDS - start)) s)"
}

# --- build: the final state only, for a backport.  The bisect machinery
# with no baseline: a stable base's fs/ext4 must build with no W=1 warning
# at all (6.12 and 6.1 have none), so nothing is compared, and only the
# series' last commit is built, on (every file) and off (a copy of on's
# objects, recompiling what the option reaches).
check_build() {
	local commits start=$SECONDS

	prepare_worktree
	mapfile -t commits <"$kernel_cache/bisect.commits"
	git -C "$bisect_tree" checkout -q -f --detach "${commits[-1]}"
	mkdir -p "$kernel_cache/obj-bisect-on"
	: >"$kernel_cache/obj-bisect-on/w1-baseline"
	bisect_state "the series" on || die "build: the series does not build cleanly"
	copy_objects "$kernel_cache/obj-bisect-on" "$kernel_cache/obj-bisect-off"
	rm -f "$kernel_cache/obj-bisect-off/kconfig.stamp"
	bisect_state "the series" off || die "build: the series does not build cleanly"
	echo "the ${#commits[@]} patches of ${kernel_patches##*/kernel/} build fs/ext4/ on ${kernel_tarball##*/} with CONFIG_EXT4_TEST_FS on and off, no W=1 warning ($((SECONDS - start)) s)"
}

case ${1:-} in
apply) check_apply ;;
checkpatch) check_checkpatch ;;
bisect) check_bisect ;;
build) check_build ;;
*) echo "usage: ${0##*/} apply|checkpatch|bisect|build" >&2; exit 2 ;;
esac
