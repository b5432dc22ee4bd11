#!/bin/bash
# The Debian package: `cpack -G DEB` in the build tree makes
# ext4dev_<version>_<arch>.deb with the binary, its links, the man
# pages, the bash completion and the docs; Depends comes from the shared
# libraries; lintian finds no error; unpacked into a throw-away root
# (dpkg -x) it runs: --version, show-flags (= dumpe2fs), mkfs.ext4dev,
# fsck.ext4dev, mount.ext4dev's refusal.
source "$(dirname "$0")/../integration/lib.sh"
: "${EXT4DEV_BUILD:?EXT4DEV_BUILD must point at the build tree}"
: "${EXT4DEV_VERSION:?}"
for tool in cpack dpkg-deb dpkg lintian; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (.ci/deps installs it)"
done

ARCH=$(dpkg --print-architecture)
DEB=$WORK/ext4dev_${EXT4DEV_VERSION}_$ARCH.deb
(cd "$EXT4DEV_BUILD" && cpack -G DEB -B "$WORK" >"$WORK/cpack.log" 2>&1) ||
	{ cat "$WORK/cpack.log"; fail "cpack -G DEB failed"; finish; }
check "named ext4dev_<version>_<arch>.deb" [ -f "$DEB" ]

dpkg-deb -c "$DEB" | awk '{print $6 ($7 ? " " $7 " " $8 : "")}' >"$WORK/contents"
for path in ./usr/sbin/ext4dev "./usr/sbin/mkfs.ext4dev -> ext4dev" \
	"./usr/sbin/fsck.ext4dev -> ext4dev" \
	"./usr/sbin/mount.ext4dev -> ext4dev" \
	"./usr/share/man/man8/mount.ext4dev.8.gz -> ext4dev.8.gz" \
	"./usr/share/bash-completion/completions/mount.ext4dev -> ext4dev" \
	./usr/share/man/man8/ext4dev.8.gz \
	"./usr/share/man/man8/mkfs.ext4dev.8.gz -> ext4dev.8.gz" \
	"./usr/share/man/man8/fsck.ext4dev.8.gz -> ext4dev.8.gz" \
	./usr/share/bash-completion/completions/ext4dev \
	"./usr/share/bash-completion/completions/mkfs.ext4dev -> ext4dev" \
	./usr/share/doc/ext4dev/copyright ./usr/share/doc/ext4dev/README.md \
	./usr/share/doc/ext4dev/changelog.gz; do
	check "contains $path" grep -qxF "$path" "$WORK/contents"
done
check "nothing from the build tree or tests" bash -c \
	'! grep -Eq "test_|fault_shim|CMake|\.a$" "$0"' "$WORK/contents"

depends=$(dpkg-deb -f "$DEB" Depends)
echo "Depends: $depends"
for lib in libext2fs2 libcom-err2 libblkid1 libuuid1 libsmartcols1 libc6; do
	check "Depends on $lib (from shlibs)" grep -q "$lib (>= " <<<"$depends"
done
check "Architecture $ARCH" [ "$(dpkg-deb -f "$DEB" Architecture)" = "$ARCH" ]
check "Version $EXT4DEV_VERSION" [ "$(dpkg-deb -f "$DEB" Version)" = "$EXT4DEV_VERSION" ]

lintian "$DEB" >"$WORK/lintian" 2>&1 || true
grep -v "root privileges" "$WORK/lintian" || true
check "lintian: no error" bash -c '! grep -q "^E: " "$0"' "$WORK/lintian"

ROOT=$WORK/root
dpkg -x "$DEB" "$ROOT"
BIN=$ROOT/usr/sbin
check "ext4dev --version from the package" bash -c \
	'"$0" --version | grep -Eqx "ext4dev $1 \(libext2fs [0-9.]+\)"' \
	"$BIN/ext4dev" "$EXT4DEV_VERSION"
check "mkfs.ext4dev -V from the package" bash -c \
	'"$0" -V | grep -q "^ext4dev $1 "' "$BIN/mkfs.ext4dev" "$EXT4DEV_VERSION"
check "mkfs.ext4dev makes a filesystem" "$BIN/mkfs.ext4dev" -q "$WORK/p.img" 16M
check "show-flags from the package = dumpe2fs -h" [ \
	"$("$BIN/ext4dev" show-flags "$WORK/p.img" | sed 's/ *$//')" = \
	"$(dumpe2fs_flags "$WORK/p.img")" ]
check "... and the flag is set" grep -q test_filesystem <(dumpe2fs_flags "$WORK/p.img")
check "fsck.ext4dev -p from the package keeps the flag" bash -c \
	'"$0" -fp "$1" >/dev/null && "$2" show-flags --check test "$1"' \
	"$BIN/fsck.ext4dev" "$WORK/p.img" "$BIN/ext4dev"
mkimg "$WORK/plain.img" 16M -t ext4
check "mount.ext4dev from the package refuses an unflagged image: 32" bash -c \
	'"$0" "$1" "$2" 2>"$2/mount.err"; [ $? = 32 ] && grep -q "no test_filesystem flag" "$2/mount.err"' \
	"$BIN/mount.ext4dev" "$WORK/plain.img" "$WORK"
if command -v man >/dev/null; then
	for page in ext4dev mkfs.ext4dev fsck.ext4dev mount.ext4dev; do
		check "man page $page renders" bash -c \
			'man -l "$0" 2>&1 >/dev/null | grep -q . && exit 1; man -l "$0" | grep -q "mark-test"' \
			"$ROOT/usr/share/man/man8/$page.8.gz"
	done
fi
check "packaged completion completes" bash -c '
	PATH=$1:$PATH
	source "$0"
	COMP_LINE="ext4dev mark-"; COMP_POINT=${#COMP_LINE}
	COMP_WORDS=(ext4dev mark-); COMP_CWORD=1
	_ext4dev
	[ "${COMPREPLY[*]}" = "mark-test mark-production" ]' \
	"$ROOT/usr/share/bash-completion/completions/ext4dev" "$BIN"

finish
