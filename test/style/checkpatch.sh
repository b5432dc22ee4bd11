#!/bin/bash
# cli/ follows kernel coding style: run the kernel's own checkpatch.pl
# (from the tree kernel/build.sh unpacked into its cache) over every C
# file, --strict, minus the checks that only make sense inside the
# kernel (kernel types, strscpy, negative errno returns, __printf, ...).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${EXT4DEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ext4dev}
checkpatch=$cache/linux/scripts/checkpatch.pl

if [ ! -f "$checkpatch" ]; then
	echo "SKIP: no checkpatch.pl at '$checkpatch' (the kernel.source test unpacks it)"
	exit 77
fi

# Kernel-only rules, and SPLIT_STRING: --help texts are split on purpose
# so that their lines stay under 80 columns.
KERNEL_ONLY=SPLIT_STRING,PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO
KERNEL_ONLY+=,USE_NEGATIVE_ERRNO,STRNCPY,STRCPY,ARRAY_SIZE,UNSPECIFIED_INT
KERNEL_ONLY+=,STATIC_CONST_CHAR_ARRAY,PREFER_FALLTHROUGH,SSCANF_TO_KSTRTO
KERNEL_ONLY+=,NEW_TYPEDEFS,FILE_PATH_CHANGES,SPDX_LICENSE_TAG

mapfile -t files < <(cd "$root" && { git ls-files 'cli/*.c' 'cli/*.h' \
	2>/dev/null || ls cli/*.c cli/*.h cli/*/*.c cli/*/*.h; } | sed "s|^|$root/|")
# checkpatch drops a camelcase cache in the git tree it runs in: not ours.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
out=$(perl "$checkpatch" --no-tree --strict --terse --show-types \
	--ignore "$KERNEL_ONLY" -f "${files[@]}" 2>&1 | grep -v '^total:' || true)
if [ -n "$out" ]; then
	echo "$out"
	echo "checkpatch: $(echo "$out" | wc -l) findings in cli/"
	echo "style: 0 passed, 1 failed"
	exit 1
fi
echo "checkpatch: ${#files[@]} files clean"
echo "style: 1 passed, 0 failed"
