#!/bin/bash
# show-flags --json as a script reads it: every path parsed with
# json.loads and held to the schema in ext4dev(8).  "flags" is an array
# ([] for none), every device named is in "filesystems" (one that could
# not be read with null values and an "error" object whose message is
# its stderr line), keys are the columns in lower case.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
command -v python3 >/dev/null || skip "python3 is needed to parse JSON"

mkimg t.img 16M -t ext4 -E test_fs -L flagged
mkimg p.img 16M -t ext4
mkimg none.img 16M -t ext4
debugfs -w -R "ssv flags 0" none.img >/dev/null 2>&1
# Not ext2/3/4: vfat where mkfs.vfat is installed, a swap area anyway.
truncate -s 8M other.img
if command -v mkfs.vfat >/dev/null; then
	mkfs.vfat other.img >/dev/null 2>&1
	other_type=vfat
else
	mkswap other.img >/dev/null 2>&1
	other_type=swap
fi

# json ARGS... -- PYTHON: run show-flags --json ARGS, keep stdout,
# stderr and the exit status, then run PYTHON with doc (the parsed
# output), rows (doc["filesystems"]), rc and err (stderr's lines).
json() {
	local args=() rc
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	run_capture out.json err.txt rc "$EXT4DEV" show-flags --json "${args[@]}"
	python3 - "$rc" "$other_type" <<PY
import json, sys
rc = int(sys.argv[1])
other_type = sys.argv[2]
doc = json.loads(open("out.json", "rb").read())
assert list(doc) == ["filesystems"], list(doc)
rows = doc["filesystems"]
err = open("err.txt").read().splitlines()
DEFAULT = ["device", "type", "flags", "test"]
def keys(row, want):
    got = [k for k in row if k != "error"]
    assert got == want, (got, want)
def failed(row, device, message):
    assert row["device"] == device, row
    assert row["flags"] is None and row["test"] is None, row
    assert row["error"]["code"] == 8, row
    assert row["error"]["message"] == message, (row, message)
    assert "ext4dev: " + message in err, (message, err)
$1
PY
}

check "success" json t.img p.img -- '
assert rc == 0 and not err, (rc, err)
keys(rows[0], DEFAULT)
assert rows[0] == {"device": "t.img", "type": "ext4dev", "test": True,
                   "flags": rows[0]["flags"]}, rows[0]
assert "test_filesystem" in rows[0]["flags"], rows[0]
assert rows[1]["device"] == "p.img" and rows[1]["type"] == "ext4"
assert rows[1]["test"] is False and "test_filesystem" not in rows[1]["flags"]
assert all(isinstance(f, str) for r in rows for f in r["flags"])
assert all("error" not in r for r in rows)'

check "no flags: [], not (none)" json none.img -- '
assert rc == 0 and rows == [{"device": "none.img", "type": "ext4",
                             "flags": [], "test": False}], rows'

check "missing file: a row with an error" json missing.img -- '
assert rc == 8, rc
keys(rows[0], DEFAULT)
failed(rows[0], "missing.img", "'"'missing.img'"': No such file or directory")
assert rows[0]["type"] is None'

check "not ext: a row with its type and an error" json other.img -- '
assert rc == 8, rc
what = {"vfat": "a vfat filesystem", "swap": "a swap area"}[other_type]
failed(rows[0], "other.img",
       "'"'other.img'"': contains %s, not ext2/ext3/ext4" % what)
assert rows[0]["type"] == other_type, rows[0]'

check "mixed list: every device, in order" json t.img missing.img other.img \
	none.img -- '
assert rc == 8, rc
assert [r["device"] for r in rows] == ["t.img", "missing.img", "other.img",
                                       "none.img"], rows
assert [("error" in r) for r in rows] == [False, True, True, False]
assert rows[0]["test"] is True and rows[3]["flags"] == []
assert len(err) == 2, err'

check "-o: only those keys, lower case" json -o UUID,label,TEST t.img \
	missing.img -- '
assert rc == 8, rc
keys(rows[0], ["uuid", "label", "test"])
assert rows[0]["label"] == "flagged" and len(rows[0]["uuid"]) == 36
keys(rows[1], ["uuid", "label", "test"])
assert rows[1]["uuid"] is None and rows[1]["label"] is None
assert rows[1]["error"]["code"] == 8'

check "-o +COL: the default keys, then those" json -o +LABEL p.img -- '
keys(rows[0], DEFAULT + ["label"])
assert rows[0]["label"] == ""'

# A superblock that is read but warned about: the row and the warning.
cp t.img short.img
truncate -s 8M short.img
check "truncated image: the row, and its warning as error" json short.img -- '
assert rc == 8, rc
assert rows[0]["test"] is True and "test_filesystem" in rows[0]["flags"]
msg = rows[0]["error"]["message"]
assert msg.startswith("warning: '"'short.img'"': "), msg
assert "ext4dev: " + msg in err, (msg, err)'

# --check prints no table: with --json it is a usage error, nothing on
# stdout (so nothing for a JSON reader to misread).
json_check() {
	local rc
	run_capture out.json err.txt rc "$EXT4DEV" show-flags --json --check \
		test t.img
	[ "$rc" = 16 ] && [ ! -s out.json ] &&
		grep -qx "ext4dev: mutually exclusive arguments: --json --check" \
			err.txt
}
check "--json --check: usage error, empty stdout" json_check

# The table is as it was: a device that cannot be read has no row.
table() {
	local rc
	run_capture out.txt err.txt rc "$EXT4DEV" show-flags -r t.img \
		missing.img none.img
	[ "$rc" = 8 ] && [ "$(cat out.txt)" = "DEVICE TYPE FLAGS TEST
t.img ext4dev signed_directory_hash\x20test_filesystem yes
none.img ext4 (none) no" ] || [ "$(cat out.txt)" = "DEVICE TYPE FLAGS TEST
t.img ext4dev unsigned_directory_hash\x20test_filesystem yes
none.img ext4 (none) no" ] || { cat out.txt; return 1; }
}
check "table: unchanged, no row for a failed device" table

finish
