#!/bin/bash
# Valid JSON for every path: a name or label with a byte that is not
# UTF-8 (0xff), a newline, a quote and a backslash parses with
# json.loads, and the byte comes back as the four characters \xff;
# so does the error of a device that could not be read.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
command -v python3 >/dev/null || skip "python3 is needed to parse JSON"
name=$(printf 'a\xffb\nc"d\\e.img')
mkimg "$name" 8M -t ext4 -L "$(printf 'l\xff\xc3\xa9')"
cp "$name" plain.img
# parses OPTS: show-flags --json OPTS on both images exits 0 and prints
# JSON in which the odd bytes come back escaped.
parses() {
	local rc=0
	# shellcheck disable=SC2086 # OPTS is a word list on purpose
	"$EXT4DEV" show-flags --json $1 "$name" plain.img >out.json 2>err.txt ||
		rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "rc $rc: $(cat err.txt)"
		return 1
	fi
	# A failed assert's traceback, on stdout: the result's diagnostic.
	python3 - "$1" out.json 2>&1 <<'PY'
import json, sys
doc = json.loads(open(sys.argv[2], 'rb').read())
rows = doc["filesystems"]
assert rows[0]["device"] == 'a\\xffb\nc"d\\e.img', rows[0]["device"]
assert rows[1]["device"] == "plain.img"
if "label" in rows[0]:
    assert rows[0]["label"] == "l\\xff\u00e9", rows[0]["label"]
PY
}

for opts in "" "-o DEVICE,TYPE,FLAGS,TEST,UUID,LABEL" "-n -o +LABEL"; do
	check "show-flags --json ${opts:-(default)}: JSON, bytes escaped" \
		parses "$opts"
done

# A device that cannot be read keeps its row: the name, and the stderr
# line as its error message, valid JSON all the same.
missing=$(printf 'm\xffn\no"p\\q.img')
parses_error() {
	if "$EXT4DEV" show-flags --json "$missing" plain.img >out.json \
		2>err.txt; then
		echo "exit 0 on a missing file"
		return 1
	fi
	python3 - out.json 2>&1 <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1], 'rb').read())["filesystems"]
assert rows[0]["device"] == 'm\\xffn\no"p\\q.img', rows[0]
msg = rows[0]["error"]["message"]
assert msg == "'m\\xffn\\x0ao\"p\\q.img': No such file or directory", msg
assert rows[1]["device"] == "plain.img" and "error" not in rows[1]
PY
}
check "show-flags --json, a missing file: fails, JSON, an error row" \
	parses_error
finish
