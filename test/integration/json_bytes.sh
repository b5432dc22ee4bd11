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
for opts in "" "-o DEVICE,TYPE,FLAGS,TEST,UUID,LABEL" "-n -o +LABEL"; do
	# shellcheck disable=SC2086
	"$EXT4DEV" show-flags --json $opts "$name" plain.img >out.json ||
		fail "show-flags --json $opts: rc $?"
	python3 - "$opts" out.json <<'PY' || fail "json.loads: ${opts:-default}"
import json, sys
doc = json.loads(open(sys.argv[2], 'rb').read())
rows = doc["filesystems"]
assert rows[0]["device"] == 'a\\xffb\nc"d\\e.img', rows[0]["device"]
assert rows[1]["device"] == "plain.img"
if "label" in rows[0]:
    assert rows[0]["label"] == "l\\xff\u00e9", rows[0]["label"]
PY
	pass
done
# A device that cannot be read keeps its row: the name, and the stderr
# line as its error message, valid JSON all the same.
missing=$(printf 'm\xffn\no"p\\q.img')
"$EXT4DEV" show-flags --json "$missing" plain.img >out.json 2>err.txt &&
	fail "show-flags --json on a missing file: exit 0"
python3 - out.json <<'PY' || fail "json.loads: a missing file"
import json, sys
rows = json.loads(open(sys.argv[1], 'rb').read())["filesystems"]
assert rows[0]["device"] == 'm\\xffn\no"p\\q.img', rows[0]
msg = rows[0]["error"]["message"]
assert msg == "'m\\xffn\\x0ao\"p\\q.img': No such file or directory", msg
assert rows[1]["device"] == "plain.img" and "error" not in rows[1]
PY
pass
finish
