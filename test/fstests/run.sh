#!/bin/bash
# fstests with FSTYP=ext4 and FSTYP=ext4dev in the Debian guest of
# test/system/, compared test by test.
#
#   FSTESTS_SRC=/path/to/xfstests test/fstests/run.sh --build BUILD --out DIR [--list FILE]
#
# 1. copies $FSTESTS_SRC (a clone or a release tree) to DIR/src, applies
#    our patches (0*.patch, in order; the tests they add are the gate
#    tests), and builds it (make);
# 2. makes a root image with test/system/mkrootfs.sh plus fstests'
#    runtime packages and the built tree in /var/lib/xfstests;
# 3. boots it (test/vm/run.sh, boots/fstests.sh) with blank "test" and
#    "scratch" disks; the guest runs tests.list (or --list FILE, e.g.
#    a piece of what full-list.sh prints) under each FSTYP;
# 4. writes DIR/table.md (test, ext4, ext4dev) and fails when a test's
#    results differ (notrun on both aside), or when the gate test fails.
#
# Without FSTESTS_SRC it exits 77 and says so.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=test/lib/lib.sh
. "$root/test/lib/lib.sh"

# What fstests runs with, in the guest.
readonly RUNTIME=xfsprogs,attr,acl,quota,bc,psmisc,gawk,procps,libaio1,libgdbm6,liburing2,uuid-runtime

# The source and the patches decide the build: rebuilt only when their
# hash changes (a build takes minutes).
build_fstests() {
	local src=$1 stamp p

	stamp=$( { (cd "$FSTESTS_SRC" && tar --exclude=.git --sort=name --mtime=@0 -cf - .);
		cat "$here"/0*.patch; } |
		sha256sum | cut -c1-16)
	if [[ -f $src.stamp && $(<"$src.stamp") == "$stamp" ]]; then
		note "fstests already built in $src ($stamp)"
		return
	fi
	rm -rf "$src" "$src.stamp"
	mkdir -p "$src"
	(cd "$FSTESTS_SRC" && tar --exclude=.git -cf - .) | tar -C "$src" -xf -
	for p in "$here"/0*.patch; do
		patch -d "$src" -p1 --forward -s <"$p" ||
			die "${p##*/} does not apply to '$FSTESTS_SRC'"
	done
	note "building fstests in $src (log: $src.build.log)"
	nice make -C "$src" -j"$(nproc)" >"$src.build.log" 2>&1 ||
		{ tail -n 20 "$src.build.log" >&2; die "fstests build failed (its build dependencies: .ci/deps)"; }
	echo "$stamp" >"$src.stamp"
}

main() {
	local build="" out="" src list status=0 t e4 e4d row differ=0 gate=""
	local tests=$here/tests.list

	while (($#)); do
		case $1 in
		--build) build=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--list) tests=$(realpath "${2:?}"); shift ;;
		*) echo "usage: FSTESTS_SRC=DIR ${0##*/} --build BUILD --out DIR [--list FILE]" >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $build && -n $out ]] || { echo "usage: FSTESTS_SRC=DIR ${0##*/} --build BUILD --out DIR [--list FILE]" >&2; exit 2; }
	# A skip even under EXT4DEV_NO_SKIP: CI runs without fstests on purpose.
	if [[ -z ${FSTESTS_SRC:-} ]]; then
		echo "${0##*/}: SKIP: FSTESTS_SRC is not set: point it at an fstests tree (a clone of kdave/xfstests or a release) to run fstests with FSTYP=ext4dev; see test/fstests/README.md"
		exit 77
	fi
	[[ -f $FSTESTS_SRC/check ]] || skip "FSTESTS_SRC='$FSTESTS_SRC' has no 'check': not an fstests tree"
	mkdir -p "$out"
	src=$out/src
	rm -rf "$out/guest"
	mkdir -p "$out/guest"
	sed 's/#.*//' "$tests" | xargs -n1 >"$out/guest/fstests.list"
	: >"$out/gate.list"
	gate_tests "$here"/0*.patch | tee "$out/gate.list" >>"$out/guest/fstests.list"
	build_fstests "$src"
	cp "$here/guest/suite-fstests.sh" "$out/guest/"
	"$root/test/system/mkrootfs.sh" --build "$build" --out "$out/root.img" \
		--packages-extra "$RUNTIME" --add "$src:/var/lib/xfstests" \
		--add "$out/guest:/usr/lib/ext4dev-system" || exit $?
	"$root/test/vm/run.sh" --boot "$here/boots/fstests.sh" \
		--kernel "$build/kernel/bzImage" --rootfs "$out/root.img" \
		--out "$out/boot" || status=$?
	((status == 0)) || exit "$status"

	list=$(xargs <"$out/guest/fstests.list")
	{
		echo "| test | ext4 | ext4dev |"
		echo "| --- | --- | --- |"
		for t in $list; do
			e4=$(result ext4 "$t")
			e4d=$(result ext4dev "$t")
			row="| $t | $e4 | $e4d |"
			if [[ $e4 != "$e4d" ]]; then
				row+=" **differs**"
				differ=$((differ + 1))
			fi
			if grep -qx "$t" "$out/gate.list" && [[ $e4d != pass ]]; then
				gate+=" $t"
			fi
			echo "$row"
		done
		echo
		echo "$(date -u +%F), boot $(cat "$out/boot/boot.seconds") s wall"
	} >"$out/table.md"
	cat "$out/table.md"
	((differ == 0)) || { echo "FAIL: $differ test(s) differ between ext4 and ext4dev" >&2; exit 1; }
	[[ -z $gate ]] || { echo "FAIL: the gate test failed:$gate" >&2; exit 1; }
	echo "fstests: every test has the same result under ext4 and ext4dev"
}

# The tests our patches add (ext4/066 for tests/ext4/066): new files
# under tests/ named by a number, which fstests' ./new gave them.
gate_tests() {
	awk '/^diff --git /{f = substr($4, 3)}
	     /^new file mode/ && f ~ /^tests\/[a-z0-9]+\/[0-9]+$/ {print substr(f, 7)}' "$@"
}

result() {
	tr -d '\r' <"$out/boot/results.ktap" |
		sed -n "s|^# RESULT $1 $2 \\([a-z]*\\)\$|\\1|p" | tail -n 1 | grep . || echo missing
}

main "$@"
