#!/bin/bash
# The Debian source of a package, unpacked with Debian's patches applied:
# the version of the binary package BINARY installed on this machine, so
# that what is built and tested is what the machine runs.  apt-get source
# runs with an apt configuration of our own (deb-src entries for the
# archives this machine's apt already uses, its lists under the cache):
# the machine's sources are only read, never edited.
#
# usage: source.sh BINARY DEST
#   DEST  made afresh: a copy of the unpacked source
# Prints SOURCE_PACKAGE VERSION.  The download and the pristine unpacked
# tree are cached under $cache/debsrc/, shared by every build tree.
# exit: 0, 77 (no apt-get source here, or the archive is out of reach),
# 1 (failed)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/lib.sh
. "$here/../lib/lib.sh"
# shellcheck source=kernel/lib.sh
. "$here/../../kernel/lib.sh"

debsrc=$kernel_cache/debsrc

# The machine's deb entries as deb-src entries, in both formats apt reads.
private_sources() {
	local etc=$1 f

	mkdir -p "$etc/sources.list.d"
	rm -f "$etc/sources.list.d/"*
	if [[ -f /etc/apt/sources.list ]]; then
		sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list \
			>"$etc/sources.list.d/machine.list"
	fi
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		sed 's/^Types:.*/Types: deb-src/' "$f" >"$etc/sources.list.d/${f##*/}"
	done
	for f in /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" \
			>"$etc/sources.list.d/${f##*/}"
	done
}

# apt-get with the private configuration.
papt() {
	apt-get -q -o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$debsrc/etc/sources.list.d" \
		-o Dir::State::Lists="$debsrc/lists" \
		-o Dir::Cache="$debsrc/cache" \
		-o APT::Sandbox::User=root "$@"
}

# Download and unpack SOURCE VERSION once; print the unpacked tree.
pristine_tree() {
	local source=$1 version=$2 tree dsc

	tree=$debsrc/$source-$version
	dsc=$debsrc/${source}_${version#*:}.dsc
	if [[ ! -f $tree.done ]]; then
		rm -rf "$tree" "$tree.tmp"
		if [[ ! -f $dsc ]]; then
			mkdir -p "$debsrc/lists/partial" "$debsrc/cache/archives/partial"
			private_sources "$debsrc/etc"
			papt update >"$debsrc/update.log" 2>&1 ||
				skip "apt-get update with deb-src entries failed (the archive out of reach?): see $debsrc/update.log"
			(cd "$debsrc" && papt source --download-only "$source=$version") \
				>"$debsrc/source.log" 2>&1 ||
				skip "apt-get source $source=$version failed: see $debsrc/source.log"
		fi
		dpkg-source --no-check -x "$dsc" "$tree.tmp" >"$debsrc/unpack.log" 2>&1 ||
			die "dpkg-source -x $dsc failed: see $debsrc/unpack.log"
		mv "$tree.tmp" "$tree"
		touch "$tree.done"
	fi
	echo "$tree"
}

main() {
	local binary=${1:?usage: source.sh BINARY DEST} dest=${2:?usage: source.sh BINARY DEST}
	local source version tree

	command -v dpkg-source >/dev/null || skip "dpkg-source not found (apt-get install dpkg-dev)"
	source=$(dpkg-query -W -f '${source:Package}' "$binary" 2>/dev/null) ||
		skip "$binary is not installed"
	version=$(dpkg-query -W -f '${source:Version}' "$binary")
	mkdir -p "$debsrc"
	exec 9>"$debsrc/lock"
	flock 9
	tree=$(pristine_tree "$source" "$version")
	flock -u 9
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	cp -a "$tree" "$dest"
	echo "$source $version"
}

main "$@"
