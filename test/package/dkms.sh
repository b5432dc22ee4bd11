#!/bin/bash
# ext4dev-dkms, as kernel.dkms_deb made it from the cached kernel tree:
# its name, control fields and contents, lintian, the same bytes when
# made again, and its two refusals (dkms.conf's one line and
# BUILD_EXCLUSIVE_KERNEL for another kernel; ext4dev-dkms-check for
# headers or an image of another Debian version), run here against a
# stand-in dpkg-query.  Building and booting it: test/system/ (dkms).
source "$(dirname "$0")/../integration/lib.sh"
: "${EXT4DEV_BUILD:?EXT4DEV_BUILD must point at the build tree}"
: "${EXT4DEV_VERSION:?}"
for tool in dpkg-deb lintian; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (.ci/deps installs it)"
done
DIR=$EXT4DEV_BUILD/kernel/dkms
[ -e "$DIR/ext4dev-dkms.deb" ] || skip "no '$DIR/ext4dev-dkms.deb' (kernel.dkms_deb makes it)"
DEB=$(realpath "$DIR/ext4dev-dkms.deb")
SRCVER=$(dpkg-query -W -f '${Version}' linux-source-6.12)
ABI=${SRCVER%%-*}+deb12
SRC=./usr/src/ext4dev-$EXT4DEV_VERSION

check_eq "named ext4dev-dkms_<version>+<source version>_all.deb" \
	"${DEB##*/}" "ext4dev-dkms_$EXT4DEV_VERSION+${SRCVER}_all.deb"
check_eq "Architecture all" "$(dpkg-deb -f "$DEB" Architecture)" all
check "Depends on dkms and on the headers of $SRCVER exactly" grep -qF \
	"dkms (>= 3), linux-headers-$ABI-amd64 (= $SRCVER)" \
	<(dpkg-deb -f "$DEB" Depends)
dpkg-deb -c "$DEB" | awk '{print $6}' >"$WORK/contents"
for path in "$SRC/dkms.conf" "$SRC/ext4dev-dkms-check" \
	"$SRC/fs/ext4/Kbuild" "$SRC/fs/ext4/Makefile" \
	"$SRC/fs/ext4/ext4dev-dkms.c" "$SRC/fs/ext4/super.c" \
	./usr/share/doc/ext4dev-dkms/copyright \
	./usr/share/doc/ext4dev-dkms/changelog.Debian.gz; do
	check "contains $path" grep -qxF "$path" "$WORK/contents"
done
check "fs/ext4 alone: nothing else of the kernel tree" bash -c \
	'! grep -v -e "^$1/fs/ext4/" -e "^$1/[a-z0-9.-]*\$" -e "^$1/fs/\$" \
		-e "^./usr/share/doc/" -e "^./usr/src/\$" -e "^./usr/\$" \
		-e "^./usr/share/\$" -e "^./\$" "$0"' "$WORK/contents" "$SRC"

lintian "$DEB" >"$WORK/lintian" 2>&1 || true
{ grep -v "root privileges" "$WORK/lintian" || true; } | diag
check "lintian: no error, no warning" bash -c '! grep -q "^[EW]: " "$0"' "$WORK/lintian"

"$(dirname "$0")/../../kernel/dkms/mkdeb.sh" --version "$EXT4DEV_VERSION" \
	--out "$WORK/again" >/dev/null 2>"$WORK/again.err" ||
	die "mkdeb.sh again: $(cat "$WORK/again.err")"
check "made again: the same bytes" cmp "$DEB" "$WORK/again/${DEB##*/}"

ROOT=$WORK/root
dpkg -x "$DEB" "$ROOT"
S=$ROOT/${SRC#./}
check "the series is applied: fs/ext4 has the ext4dev type" \
	grep -q '"ext4dev"' "$S/fs/ext4/super.c"

# dkms.conf, sourced as DKMS does, for KERNELVER: prints what it says.
conf_says() {
	(
		# shellcheck disable=SC2034 # what DKMS sets before it reads the file
		kernelver=$1 kernel_source_dir=/lib/modules/$1/build dkms_tree=/var/lib/dkms
		# shellcheck source=/dev/null
		. "$S/dkms.conf" 2>&1
		echo "exclusive=$BUILD_EXCLUSIVE_KERNEL"
	)
}
out=$(conf_says "$ABI-amd64")
check "dkms.conf: silent for $ABI-amd64" \
	grep -qx "exclusive=.*" <<<"$out"
check_eq "dkms.conf: one line for no other kernel" "$(wc -l <<<"$out")" 1
for kver in 6.1.0-28-amd64 6.12.119+deb12-amd64 6.12.118+deb13-amd64; do
	out=$(conf_says "$kver")
	echo "$out" | diag
	check "dkms.conf: $kver refused in one line naming both versions" \
		grep -qxF "ext4dev-dkms: not for kernel $kver: this fs/ext4 is from linux-source-6.12 $SRCVER (kernel $ABI-*); its stock ext4 stays in use" <<<"$out"
	excl=$(sed -n 's/^exclusive=//p' <<<"$out")
	check "BUILD_EXCLUSIVE_KERNEL excludes $kver" bash -c '! [[ $0 =~ $1 ]]' "$kver" "$excl"
done
check "BUILD_EXCLUSIVE_KERNEL takes $ABI-amd64 and $ABI-cloud-amd64" bash -c \
	'[[ $0-amd64 =~ $1 && $0-cloud-amd64 =~ $1 ]]' "$ABI" "$excl"

# ext4dev-dkms-check against a stand-in dpkg-query: PKG=VERSION pairs.
run_check() {
	local kver=$1

	shift
	mkdir -p "$WORK/bin"
	{
		echo '#!/bin/sh'
		echo 'for pkg; do :; done'
		echo 'case $pkg in'
		for pair in "$@"; do
			echo "${pair%%=*}) echo \"install ok installed ${pair#*=}\" ;;"
		done
		echo '*) exit 1 ;;'
		echo 'esac'
	} >"$WORK/bin/dpkg-query"
	chmod +x "$WORK/bin/dpkg-query"
	PATH=$WORK/bin:$PATH "$S/ext4dev-dkms-check" "$kver" 2>"$WORK/check.err"
}
refused() {
	! run_check "$@"
}
K=$ABI-amd64
check "check: headers and image of $SRCVER: builds" \
	run_check "$K" "linux-headers-$K=$SRCVER" "linux-image-$K=$SRCVER"
check "check: headers of $SRCVER, no image: builds" \
	run_check "$K" "linux-headers-$K=$SRCVER"
check "check: headers of another Debian version: refused" refused "$K" "linux-headers-$K=${SRCVER}+b1" "linux-image-$K=$SRCVER"
diag <"$WORK/check.err"
check "check: says which versions met, in one line" grep -qxF \
	"ext4dev-dkms: not building ext4 for $K: linux-headers-$K is ${SRCVER}+b1; this package's fs/ext4 is from linux-source-6.12 $SRCVER (kernel $ABI), the stock ext4 stays in use" \
	"$WORK/check.err"
check "check: an image of another Debian version: refused" refused "$K" "linux-headers-$K=$SRCVER" "linux-image-$K=${SRCVER}+b1"
check "check: no headers: refused" refused "$K"
# The postinst's Secure Boot warning, its function alone, against a
# stand-in mokutil: MODE is "off", "on" (key not enrolled) or "enrolled".
secure_boot_says() {
	local mode=$1 fn

	fn=$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./postinst |
		sed -n '/^warn_secure_boot() {$/,/^}$/p')
	cat >"$WORK/bin/mokutil" <<MOK
#!/bin/sh
case \$1 in
--sb-state) [ $mode = off ] && echo "SecureBoot disabled" || echo "SecureBoot enabled" ;;
--test-key) [ $mode = enrolled ] && echo "\$2 is already enrolled" || echo "\$2 is not enrolled" ;;
esac
MOK
	chmod +x "$WORK/bin/mokutil"
	PATH=$WORK/bin:$PATH sh -c "MOK_PUB=$WORK/mok.pub
$fn
warn_secure_boot" 2>&1
}
check_eq "postinst: no word with Secure Boot off" "$(secure_boot_says off)" ""
check "postinst: Secure Boot on, no key (an unsigned module): says the root will not mount" \
	grep -q "Secure Boot is on .*a root on ext4 will not mount" <(secure_boot_says on)
: >"$WORK/mok.pub"
check "postinst: Secure Boot on, a key not enrolled: says the root will not mount" \
	grep -q "Secure Boot is on .*a root on ext4 will not mount" <(secure_boot_says on)
check_eq "postinst: no word once the key is enrolled" "$(secure_boot_says enrolled)" ""
finish
