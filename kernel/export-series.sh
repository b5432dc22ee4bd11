#!/bin/bash
# Regenerate kernel/patches (or, with EXT4DEV_KERNEL_BASE=6.12 or 6.1,
# the stable backport kernel/stable/<base>) from the commits on top of
# "pristine" in a kernel tree (by default the cached tree that build.sh
# leaves with the series applied): git format-patch output, a cover
# letter and the series file.  The subject and text of the existing cover
# letter are kept; its shortlog and diffstat are regenerated.  Mainline
# subjects read "[PATCH v6 n/m]" and go to linux-ext4; a backport's read
# "[PATCH 6.12 n/m]" and go to stable, as stable queues are kept.
#
# usage: kernel/export-series.sh [TREE]
set -euo pipefail

# shellcheck source=kernel/lib.sh
. "$(dirname "$0")/lib.sh"

tree=${1:-$kernel_src}
# The revision this export is, for the subjects: "[PATCH v5 3/8]".
series_version=6
cover=$kernel_patches/0000-cover-letter.patch

# Subject (without the "[PATCH 0/N] " prefix) of the current cover letter.
cover_subject() {
	sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$cover" | head -n1
}

# The text between the mail header and the generated shortlog.
cover_blurb() {
	awk 'body && /^[^ ].* \([0-9]+\):$/ { exit }
	     body { print }
	     !body && /^$/ { body = 1 }' "$cover"
}

# Put subject and blurb into the freshly generated cover letter.
fill_cover() {
	local subject=$1 blurb=$2 new=$cover.new

	awk -v subject="$subject" -v blurb="$blurb" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s\n", blurb; skip = 1; next }
		skip && /^$/ { skip = 0 }
		{ print }' "$cover" >"$new"
	mv "$new" "$cover"
}

main() {
	local subject blurb
	local -a addresses

	git -C "$tree" merge-base --is-ancestor pristine HEAD ||
		die "'$tree' has no commits on top of the pristine tag"
	[[ -f $cover ]] || die "missing '$cover' to take subject and text from"
	subject=$(cover_subject)
	blurb=$(cover_blurb)
	rm -f "$kernel_patches"/[0-9][0-9][0-9][0-9]-*.patch
	# The headers a submission carries; base-commit: names the commit
	# of the unpacked tarball the series applies to.
	if [[ $kernel_base == mainline ]]; then
		addresses=(--subject-prefix="PATCH v$series_version"
			--to=linux-ext4@vger.kernel.org
			--cc="Theodore Ts'o <tytso@mit.edu>"
			--cc="Andreas Dilger <adilger.kernel@dilger.ca>"
			--cc=linux-fsdevel@vger.kernel.org)
	else
		addresses=(--subject-prefix="PATCH $kernel_base"
			--to=stable@vger.kernel.org
			--cc=linux-ext4@vger.kernel.org
			--cc="Theodore Ts'o <tytso@mit.edu>")
	fi
	git -C "$tree" format-patch -q --cover-letter -o "$kernel_patches" \
		"${addresses[@]}" --base=pristine pristine..HEAD
	fill_cover "$subject" "$blurb"
	(cd "$kernel_patches" && printf '%s\n' [0-9][0-9][0-9][0-9]-*.patch |
		grep -v '^0000-' >series)
	echo "exported $(wc -l <"$kernel_patches/series") patches to $kernel_patches"
}

main "$@"
