#!/bin/bash
# The bash completion, sourced into a plain bash and called as bash
# would call it: COMPREPLY asserted for subcommands, each subcommand's
# options and which take a value, -o column names, --check values,
# devices (block devices, LABEL=/UUID= from libblkid, files), for
# ext4dev and mkfs.ext4dev.
source "$(dirname "$0")/lib.sh"
COMPLETION=$(dirname "$0")/../../cli/completion/ext4dev.bash
PATH=$(dirname "$EXT4DEV"):$PATH
export PATH

# reply LINE: COMPREPLY for the command line LINE (cursor at its end),
# one per line, sorted.
reply() {
	local line=$1
	bash -c '
		source "$1"
		COMP_LINE=$2
		COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		_ext4dev
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$line" | sort
}

# has LINE WORD...: every WORD is offered for LINE.
has() {
	local line=$1 out w
	shift
	out=$(reply "$line")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$out" ||
			{ echo "'$line': no '$w' in: $(tr '\n' ' ' <<<"$out")"; return 1; }
	done
}
# exactly LINE WORD...: just these.
exactly() {
	local line=$1 out want
	shift
	out=$(reply "$line")
	want=$(printf '%s\n' "$@" | sort)
	[ "$out" = "$want" ] ||
		{ echo "'$line': got $(tr '\n' ' ' <<<"$out")"; return 1; }
}

check "registered for all three names" bash -c \
	'source "$0"; complete -p ext4dev | grep -q _ext4dev && complete -p mkfs.ext4dev | grep -q _ext4dev && complete -p mount.ext4dev | grep -q _ext4dev' \
	"$COMPLETION"
check "subcommands" exactly "ext4dev " show-flags mark-test mark-production mkfs fsck mount \
	help -h --help -V --version
check "help: the commands" exactly "ext4dev help " show-flags mark-test mark-production \
	mkfs fsck mount
check "help m: the commands" exactly "ext4dev help m" mark-test mark-production mkfs mount
check "help CMD: nothing more" exactly "ext4dev help mkfs "
check "subcommand prefix" exactly "ext4dev mark-" mark-test mark-production
check "show-flags options" has "ext4dev show-flags -" -c --check -o --output -J --json \
	-r --raw -n --noheadings -v --verbose --wait -h --help -V --version
check "show-flags --j" exactly "ext4dev show-flags --j" --json
check "mark-test options" has "ext4dev mark-test -" -n --dry-run -q --quiet -z --undo --wait
check "mark-production has no -J" bash -c '! grep -qx -- -J <<<"$0"' \
	"$(reply "ext4dev mark-production -")"
check "mkfs options" has "ext4dev mkfs -" -b -L -O -E -F -n --production --wait
check "mkfs.ext4dev options" has "mkfs.ext4dev -" -b -L -O -E -F -n --production -V
check "--check values" exactly "ext4dev show-flags --check " test production
check "--check p" exactly "ext4dev show-flags -c p" production
check "--check=t" exactly "ext4dev show-flags --check=t" test
check "-o columns" exactly "ext4dev show-flags -o " DEVICE TYPE FLAGS TEST UUID LABEL
check "-o after a comma" exactly "ext4dev show-flags -o DEVICE,U" DEVICE,UUID
check "-o +COL" exactly "ext4dev show-flags -o +LA" +LABEL

# Devices: files, block devices, LABEL=/UUID= that libblkid knows.
mkimg "$WORK/compl-image.img" 16M -t ext4 -L "cmpl$$"
check "files" exactly "ext4dev show-flags $WORK/compl-" "$WORK/compl-image.img"
check "mkfs.ext4dev device: files" exactly "mkfs.ext4dev -L x $WORK/compl-" "$WORK/compl-image.img"
check "mkfs size operand: nothing" exactly "mkfs.ext4dev $WORK/compl-image.img $WORK/compl-"
mkdir "$WORK/mntpt"
check "mount.ext4dev options" has "mount.ext4dev $WORK/compl-image.img $WORK/mntpt -" -o -n -v -N -h --help
check "mount's device: files" exactly "ext4dev mount $WORK/compl-i" "$WORK/compl-image.img"
check "mount's mount point: directories" exactly "mount.ext4dev $WORK/compl-image.img $WORK/mnt" "$WORK/mntpt"
check "-z takes a file" exactly "ext4dev mark-test -z $WORK/compl-" "$WORK/compl-image.img"
# Which options take a value comes from --help too: no devices there,
# and the value is no operand.
check "mkfs -b value: nothing" exactly "ext4dev mkfs -b "
check "--wait value: nothing" exactly "ext4dev show-flags --wait "
check "mount -o value: nothing" exactly "mount.ext4dev -o "
check "mount -N value is no operand" exactly "mount.ext4dev -N ns $WORK/compl-i" "$WORK/compl-image.img"
blockdev=$(ls /sys/class/block | head -1)
if [ -n "$blockdev" ]; then
	check "block devices" has "ext4dev show-flags /dev/${blockdev:0:3}" "/dev/$blockdev"
fi
loop=
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	loop=$(losetup -f --show "$WORK/compl-image.img" 2>/dev/null || true)
fi
if [ -n "$loop" ]; then
	trap 'losetup -d "$loop"; rm -rf "$WORK"' EXIT
	# libblkid trusts a cache entry younger than 2 s without probing
	# again: a loop device another test just detached could still
	# show that test's label.  Let it age, then refresh it.
	sleep 3
	blkid "$loop" >/dev/null 2>&1 || true
	uuid=$(blkid -p -o value -s UUID "$loop")
	# bash breaks words at '=': the reply is what follows it.
	check "LABEL= from libblkid" exactly "ext4dev mark-test LABEL=cmpl" "cmpl$$"
	check "UUID= from libblkid" has "ext4dev show-flags UUID=${uuid:0:8}" "$uuid"
	check "LABEL prefix offered with the rest" has "ext4dev show-flags LAB" "LABEL=cmpl$$"
else
	echo "note: no loop device; LABEL=/UUID= completion not tested"
fi

finish
