# bash completion for ext4dev(8), mkfs.ext4dev(8), mount.ext4dev(8) -*- sh -*-
# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Subcommands, options (and which of them take a value) and column
# names come from the binary's own --help, which each command's options
# table makes (cli/common/opts.h), so they can never drift from it; devices are block devices,
# LABEL=/UUID= as libblkid knows them (blkid(8)), and files.

# What bash treats as the current word may stop at '=' or ':'; reply
# with what follows the last such break, as bash-completion's
# __ltrim_colon_completions does.
_ext4dev_reply()
{
	local cur=$1 word
	shift
	COMPREPLY=()
	while IFS= read -r word; do
		[ -n "$word" ] && COMPREPLY+=("$word")
	done < <(IFS=$' \t\n' compgen -W "$*" -- "$cur")
	case $cur in
	*[=:]*)
		local strip=${cur%"${cur##*[=:]}"}
		COMPREPLY=("${COMPREPLY[@]#"$strip"}")
		;;
	esac
}

# Options a --help text lists: "-x" and "--long" words in its option lines.
_ext4dev_help_opts()
{
	"$@" --help 2>/dev/null |
		sed -n 's/^ *\(-[A-Za-z0-9]\)\{0,1\}[, ]*\(--[a-z][a-z-]*\)\{0,1\}.*/\1 \2/p'
}

# Of those, the ones that take a value: the left column of the line has
# a word after the option names ("-c, --check <state>", "-J size=<MiB>").
_ext4dev_help_valued()
{
	"$@" --help 2>/dev/null |
		awk '/^ +-/ {
			line = $0
			sub(/^ +/, "", line)
			split(line, col, /  +/)
			n = split(col[1], w, /,? +/)
			if (w[n] !~ /^-/)
				for (i = 1; i < n; i++)
					print w[i]
		}'
}

_ext4dev_columns()
{
	"$1" show-flags --help 2>/dev/null |
		sed -n '/^Available output columns/,$ s/^ \([A-Z][A-Z]*\) .*/\1/p'
}

# Block devices, then LABEL=/UUID= from libblkid, then files.
_ext4dev_devices()
{
	local cur=$1 dev tags=() IFS=$'\n'
	local devs=()
	for dev in /sys/class/block/*; do
		[ -e "$dev" ] && devs+=("/dev/${dev##*/}")
	done
	while read -r dev; do
		case $dev in
		LABEL=* | UUID=*) tags+=("$dev") ;;
		esac
	done < <(blkid -o export -s LABEL -s UUID 2>/dev/null)
	_ext4dev_reply "$cur" "${devs[*]}"$'\n'"${tags[*]}"
	local files=()
	if [ "${cur#*=}" = "$cur" ]; then
		mapfile -t files < <(compgen -f -- "$cur")
		[ ${#files[@]} -gt 0 ] && compopt -o filenames 2>/dev/null
		COMPREPLY+=("${files[@]}")
	fi
}

# -o list: complete the name after the last ',' (after a leading '+').
_ext4dev_column_list()
{
	local cur=$1 bin=$2 head col cols=()
	head=${cur%"${cur##*[,+]}"}
	for col in $(_ext4dev_columns "$bin"); do
		cols+=("$head$col")
	done
	_ext4dev_reply "$cur" "${cols[*]}"
	compopt -o nospace 2>/dev/null
}

_ext4dev()
{
	local line=${COMP_LINE:0:COMP_POINT}
	local cur=${line##*[[:space:]]} prev bin=${COMP_WORDS[0]} cmd i
	local first=1
	# The word before the current one, '=' joined back ("--check=").
	prev=${line%"$cur"}
	prev=${prev%"${prev##*[![:space:]]}"}
	prev=${prev##*[[:space:]]}
	case ${bin##*/} in
	mkfs.ext4dev) cmd=mkfs; first=1 ;;
	mount.ext4dev) cmd=mount; first=1 ;;
	*)
		local cmds
		cmds=$("$bin" --help 2>/dev/null |
			sed -n '/^Commands:/,/^$/ s/^ \([a-z][a-z-]*\) .*/\1/p')
		if [ "$COMP_CWORD" -le 1 ]; then
			_ext4dev_reply "$cur" "$cmds
help -h --help -V --version"
			return 0
		fi
		cmd=${COMP_WORDS[1]}
		# "ext4dev help <command>": one command name, then nothing.
		if [ "$cmd" = help ]; then
			COMPREPLY=()
			[ "$COMP_CWORD" -eq 2 ] && _ext4dev_reply "$cur" "$cmds"
			return 0
		fi
		first=2
		;;
	esac
	local args=("$bin") valued
	[ "$first" = 2 ] && args+=("$cmd")
	valued=" $(_ext4dev_help_valued "${args[@]}" | tr '\n' ' ') "
	# Values of options that take one, whether "--opt val" or "--opt=val".
	local opt=$prev val=$cur
	case $cur in
	--*=*) opt=${cur%%=*}; val=${cur#*=} ;;
	esac
	case $cmd:$opt in
	show-flags:-c | show-flags:--check)
		_ext4dev_reply "$cur" "${cur%"$val"}test ${cur%"$val"}production"
		return 0 ;;
	show-flags:-o | show-flags:--output)
		_ext4dev_column_list "$val" "$bin"
		return 0 ;;
	*:-z | *:--undo)
		mapfile -t COMPREPLY < <(compgen -f -- "$val")
		compopt -o filenames 2>/dev/null
		return 0 ;;
	esac
	# Any other value: nothing to offer.
	if [[ $valued == *" $opt "* ]]; then
		COMPREPLY=()
		return 0
	fi
	if [[ $cur == -* ]]; then
		_ext4dev_reply "$cur" "$(_ext4dev_help_opts "${args[@]}")"
		return 0
	fi
	_ext4dev_devices "$cur"
	# The operands so far: words that are no option and no option's value.
	local ops=0
	for ((i = first; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) [[ $valued == *" ${COMP_WORDS[i]} "* ]] && i=$((i + 1)) ;;
		*) ops=$((ops + 1)) ;;
		esac
	done
	# mount's second operand is the mount point: directories.
	if [ "$cmd" = mount ]; then
		if [ "$ops" -ge 1 ]; then
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			compopt -o filenames 2>/dev/null
		fi
	fi
	# mkfs's second operand is a size: nothing to offer there.
	[ "$cmd" = mkfs ] && [ "$ops" -ge 1 ] && COMPREPLY=()
	return 0
}
complete -F _ext4dev ext4dev mkfs.ext4dev mount.ext4dev
