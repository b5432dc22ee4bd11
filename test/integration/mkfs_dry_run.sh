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

# fails_leaving kept|gone FILE SIZE: ext4dev mkfs FILE SIZE fails (60K
# fails while writing, as -n cannot know), and FILE is then still there
# (kept) or not (gone).
fails_leaving() {
	if "$EXT4DEV" mkfs -q "$2" "$3" >/dev/null 2>&1; then
		echo "mkfs $2 $3: rc 0"
		return 1
	fi
	if [ "$1" = kept ] && [ ! -e "$2" ]; then
		echo "mkfs removed $2, a file it did not create"
		return 1
	fi
	if [ "$1" = gone ] && [ -e "$2" ]; then
		echo "the failed mkfs left $2 behind"
		return 1
	fi
}

# An existing file that fails is kept: only what this run made goes.
: >kept.img
check "a failed mkfs keeps the file it did not create" \
	fails_leaving kept kept.img 60K

# same_failure MKFS-ARGS...: same rc and stderr with and without -n,
# not 0 (the real run's stderr stays in err1).
same_failure() {
	local rc1=0 rc2=0
	"${RUN[@]}" "$EXT4DEV" mkfs -q "$@" >/dev/null 2>err1 || rc1=$?
	"${RUN[@]}" "$EXT4DEV" mkfs -q -n "$@" >/dev/null 2>err2 || rc2=$?
	if [ "$rc1" -eq 0 ]; then
		echo "the real run succeeded"
		return 1
	fi
	if [ "$rc1" != "$rc2" ] || ! cmp -s err1 err2; then
		echo "rc $rc1/$rc2: '$(cat err1)' / '$(cat err2)'"
		return 1
	fi
}

# row NAME MKFS-ARGS...: one result for a row of the table.
row() {
	local name=$1
	shift
	check "$name: mkfs -n fails as mkfs does" same_failure "$@"
}

RUN=()
row "missing parent" nodir/x.img 8M
row "/proc" /proc/x.img 8M
row "a FIFO" fifo 8M
row "swap without -F" swap.img
# Fails while writing (as mke2fs does; -n cannot know): removes its file.
check "a failed mkfs removes the file it created" \
	fails_leaving gone small.img 60K
# A file larger than the host takes: ext4 stops at 16 TiB - 4 KiB.
# says_host_limit: the real run's message (err1) gives the host's
# limit, and it left no file.
says_host_limit() {
	if ! grep -q "File too large (17592186044416 bytes asked; the filesystem it is on takes files up to [0-9]* bytes)" err1
	then
		echo "no host limit: $(cat err1)"
		return 1
	fi
	if [ -e big.img ]; then
		echo "big.img left behind"
		return 1
	fi
}
if truncate -s 16T probe 2>/dev/null; then
	rm -f probe
	echo "host takes 16 TiB files: no 'File too large' row"
else
	row "too large for the host" -O 64bit big.img 16T
	check "too large for the host: says the host's limit, leaves no file" \
		says_host_limit
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
