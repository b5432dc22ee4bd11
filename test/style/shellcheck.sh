#!/bin/bash
# Every shell script of the repository through shellcheck, warnings and
# errors (not its style notes): the test scripts, the guests' scripts,
# the kernel and CI scripts, bash completion.  A script is a file git
# knows that ends in .sh or starts with a shell's #! line or a
# "# shellcheck shell=" directive.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/lib/lib.sh
source "$root/test/lib/lib.sh"

command -v shellcheck >/dev/null ||
	skip "shellcheck is not installed (apt-get install shellcheck)"

is_shell() {
	case $1 in
	*.sh) return 0 ;;
	esac
	head -n 3 "$1" 2>/dev/null |
		grep -Eq '^#!/bin/(ba|da)?sh|^# shellcheck shell='
}

cd "$root"
scripts=()
while IFS= read -r f; do
	[ -f "$f" ] && is_shell "$f" && scripts+=("$f")
done < <(git ls-files 2>/dev/null || find . -type f ! -path './.git/*' ! -path './build*')
[ "${#scripts[@]}" -gt 0 ] || die "no shell scripts found under '$root'"

# -x follows "source" with a "# shellcheck source=" directive, paths
# from the repository's root.
if shellcheck -x -P SCRIPTDIR -S warning "${scripts[@]}"; then
	echo "shellcheck: ${#scripts[@]} scripts clean"
	echo "style: 1 passed, 0 failed"
else
	echo "style: 0 passed, 1 failed"
	exit 1
fi
