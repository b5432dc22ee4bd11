# shellcheck shell=bash
# Reading a test guest's console log; sourced by kernel/run-kunit.sh and
# test/vm/run.sh.  Kept apart from lib.sh, which is part of the
# kernel's cache key: changing how logs are read must not rebuild it.

# Print the lines of a console log that show the kernel in trouble: an
# Oops, BUG, WARN or panic.  Plain messages that merely contain the word
# "WARNING" (e.g. CPU mitigation notices) do not count.
kernel_log_trouble() {
	grep -E '^(\[ *[0-9.]+\] )?(BUG: |kernel BUG at |WARNING: CPU: |Oops: |general protection fault|Kernel panic - not syncing|Call Trace:)' "$1" || true
}
