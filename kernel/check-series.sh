#!/bin/bash
# Checks of the patch series in kernel/patches, run by CTest:
#
#   check-series.sh apply       every patch in "series" applies, in order and
#                               without fuzz, to the unpacked tarball
#   check-series.sh checkpatch  every patch is checkpatch --strict clean,
#                               has an "ext4:" subject and our sign-off
#
# Neither changes the cached tree: "apply" works on a private git index.
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

	while IFS= read -r file; do
		sections=$(cd "$kernel_src" &&
			scripts/get_maintainer.pl --no-git --sections -f "$file" 2>/dev/null)
		grep -qx 'EXT4 FILE SYSTEM' <<<"$sections" || return 1
	done < <(awk '/^diff --git /{f = substr($4, 3)}
		      /^new file mode/{print f}' "$patch")
}

# The header of a patch mail: subject prefix, author and sign-off.
check_header() {
	local patch=$1 subject

	subject=$(sed -n 's/^Subject: //p' "$patch" | head -n1)
	[[ $subject =~ ^\[PATCH( [0-9]+/[0-9]+)?\]\ ext4:\ [a-z] ]] ||
		{ echo "subject is not 'ext4: <lowercase summary>': $subject"; return 1; }
	grep -qxF "From: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>" "$patch" ||
		{ echo "author is not '$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>'"; return 1; }
	grep -qxF "$signoff" "$patch" ||
		{ echo "missing '$signoff'"; return 1; }
}

# Run checkpatch inside the unpacked tree: it looks for ./.git before it
# runs scripts/spdxcheck.py (the SPDX check), which wants the distribution's
# python3 with python3-ply and python3-git.
run_checkpatch() {
	(cd "$kernel_src" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES "$1" 2>&1)
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

case ${1:-} in
apply) check_apply ;;
checkpatch) check_checkpatch ;;
*) echo "usage: ${0##*/} apply|checkpatch" >&2; exit 2 ;;
esac
