#!/bin/bash
# A dry run that predicts: wherever mkfs fails before writing, mkfs -n
# fails with the same exit code and message, and neither leaves a file
# behind.  Table-driven: each row runs with and without -n.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkfifo fifo
mkswap_img() { truncate -s 32M "$1" && mkswap "$1" >/dev/null 2>&1; }
mkswap_img swap.img
mkdir locked && chmod 755 locked

AS_USER=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	id nobody >/dev/null 2>&1; then
	AS_USER=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
	chmod 755 "$WORK"
fi

# An existing file that fails is kept: only what this run made goes.
: >kept.img
"$EXT4DEV" mkfs -q kept.img 60K >/dev/null 2>&1 && fail "kept 60K: rc 0"
[ -e kept.img ] || fail "mkfs removed a file it did not create"
pass

# row NAME MKFS-ARGS...: same rc and stderr with and without -n, not 0.
row() {
	local name=$1 rc1=0 rc2=0
	shift
	"${RUN[@]}" "$EXT4DEV" mkfs -q "$@" >/dev/null 2>err1 || rc1=$?
	"${RUN[@]}" "$EXT4DEV" mkfs -q -n "$@" >/dev/null 2>err2 || rc2=$?
	if [ "$rc1" -eq 0 ]; then
		fail "$name: the real run succeeded"
	elif [ "$rc1" != "$rc2" ] || ! cmp -s err1 err2; then
		fail "$name: rc $rc1/$rc2: '$(cat err1)' / '$(cat err2)'"
	else
		pass
	fi
}

RUN=()
row "missing parent" nodir/x.img 8M
row "/proc" /proc/x.img 8M
row "a FIFO" fifo 8M
row "swap without -F" swap.img
# Fails while writing (as mke2fs does; -n cannot know): removes its file.
"$EXT4DEV" mkfs -q small.img 60K >/dev/null 2>&1 && fail "60K: rc 0"
[ ! -e small.img ] || fail "the failed mkfs left small.img behind"
pass
# A file larger than the host takes: ext4 stops at 16 TiB - 4 KiB.
if truncate -s 16T probe 2>/dev/null; then
	rm -f probe
	echo "host takes 16 TiB files: no 'File too large' row"
else
	row "too large for the host" -O 64bit big.img 16T
	grep -q "File too large (17592186044416 bytes asked; the filesystem it is on takes files up to [0-9]* bytes)" err1 ||
		fail "File too large: no host limit: $(cat err1)"
	[ ! -e big.img ] || fail "big.img left behind"
	pass
fi
if [ ${#AS_USER[@]} -gt 0 ]; then
	RUN=("${AS_USER[@]}")
	row "a directory the user cannot write" locked/x.img 8M
	: >locked/ro.img
	row "a file the user cannot write" locked/ro.img 8M
else
	echo "not root or no setpriv: the non-root rows are skipped"
fi
finish
