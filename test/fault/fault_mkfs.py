#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crash-point fault injection for ext4dev mkfs.

The target holds an old filesystem with files in it.  A clean mkfs run
under the fault shim records its writes and fsyncs; then, for every
write k, mkfs runs again with write k failing (eio: a bad sector) or the
power lost at write k (powerloss), for every superblock-sized write with
only its first sector landing (torn), and for every fsync with it
failing.  Afterwards the device must hold exactly one of:

  * the old filesystem, untouched: e2fsck -fn clean, files identical
    (only possible while nothing has been written);
  * the new filesystem, complete: checksum good, the new UUID, the test
    flag set, e2fsck -fn clean;
  * nothing a tool would take for ext2/3/4: no valid primary superblock,
    show-flags exits 8 and blkid names no ext type;
  * a torn new primary, which e2fsck -fy (on a copy) rebuilds from a
    backup into a clean new filesystem.

A failed write must give exit 8 naming the device, and mkfs run again
without faults must give a clean new filesystem.

With --populate, mkfs copies a tree in (-d): the writes of the copy are
crash points too, and "the new filesystem, complete" must also hold the
tree's files, byte for byte.

Usage: fault_mkfs.py [--long] [--populate]
       (env: EXT4DEV, EXT4DEV_FAULT_SHIM)
"""
import argparse
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402
import sbtool  # noqa: E402

NAME = os.environ.get('FAULT_TEST_NAME', 'fault_mkfs')
OLD_UUID = '01d01d00-0000-4000-8000-000000000001'
NEW_UUID = '0e110000-0000-4000-8000-000000000002'
# (name, size, mke2fs options for the old fs, mkfs options for the new)
IMAGES = [
    ('ext4-1k-256m', '256M', ['-t', 'ext4', '-b', '1024'], ['-b', '1024']),
]
LONG_IMAGES = [
    ('ext4-1k-256m-meta_bg', '256M', ['-t', 'ext4', '-b', '1024'],
     ['-b', '1024', '-O', 'meta_bg,^resize_inode']),
    ('ext4-1k-1g', '1G', ['-t', 'ext3', '-b', '1024'], ['-b', '1024']),
]
# -d's tree: a few files of each size class, a sparse one, a link
# or two; small enough that every one of its writes can be tried.
POPULATE_IMAGES = [
    ('ext4-4k-64m-tree', '64M', ['-t', 'ext4'], ['-d', '{tree}']),
]
TREE_FILES = {'a/one': 1000, 'a/two': 5000, 'a/b/three': 40 * 1024 + 3,
              'b/four': 12 * 1024, 'b/five': 0, 'six': 70 * 1024}
T = fr.T
TREE = {}   # path in the filesystem -> sha256 of its bytes


def make_tree(root):
    """TREE_FILES with deterministic bytes, a sparse file, a symlink and
    a hard link under @root; their hashes in TREE."""
    for rel, size in TREE_FILES.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = hashlib.sha256(rel.encode()).digest() * (size // 32 + 1)
        with open(path, 'wb') as f:
            f.write(data[:size])
        TREE['/' + rel] = hashlib.sha256(data[:size]).hexdigest()
    sparse = os.path.join(root, 'sparse')
    with open(sparse, 'wb') as f:
        f.truncate(3 << 20)
        f.seek(2 << 20)
        f.write(b'far')
    with open(sparse, 'rb') as f:
        TREE['/sparse'] = hashlib.sha256(f.read()).hexdigest()
    os.symlink('a/one', os.path.join(root, 'link'))
    os.link(os.path.join(root, 'six'), os.path.join(root, 'six-again'))
    TREE['/six-again'] = TREE['/six']


def tree_intact(path):
    """Whether the filesystem in @path holds TREE's files (debugfs)."""
    for name, want in TREE.items():
        got = subprocess.run(['debugfs', '-R', f'cat {name}', path],
                             capture_output=True).stdout
        if hashlib.sha256(got).hexdigest() != want:
            return False
    return True


def mkfs(path, opts, fault=None, log=None):
    env = dict(os.environ)
    if fault:
        mode, at = fault
        env.update(LD_PRELOAD=fr.SHIM, EXT4DEV_FAULT_FILE=path,
                   EXT4DEV_FAULT_MODE=mode, EXT4DEV_FAULT_AT=str(at),
                   EXT4DEV_FAULT_LOG=log)
    return fr.run([fr.EXT4DEV, 'mkfs', '-q', '-F', '-U', NEW_UUID, *opts,
                   path], env=env)


def uuid_of(copy):
    u = copy.raw[0x68:0x78].hex()
    return f'{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:]}'


def state(img, path=None):
    """old | new | none | torn, or a string starting with 'bad'."""
    path = path or img.path
    with open(path, 'rb') as f:
        prim = sbtool.Copy(sbtool.read_copy(f, 1024))
    if prim.magic == 0xEF53 and prim.csum_ok:
        uuid = uuid_of(prim)
        clean = fr.e2fsck_clean(path)
        if uuid == OLD_UUID:
            return 'old' if clean and img.files_intact(path) else \
                'bad: the old filesystem is damaged but looks valid'
        if uuid == NEW_UUID:
            whole = not TREE or tree_intact(path)
            return 'new' if clean and prim.test and whole else \
                f'bad: new filesystem, e2fsck clean {clean}, ' \
                f'test flag {prim.test}, tree whole {whole}'
        return f'bad: a primary with UUID {uuid}'
    if prim.magic == 0xEF53:
        return 'torn'
    show = fr.run([fr.EXT4DEV, 'show-flags', path])
    blkid = fr.run(['blkid', '-p', '-o', 'value', '-s', 'TYPE', path])
    if show.returncode != 8 or blkid.stdout.strip().startswith('ext'):
        return f'bad: no primary, but show-flags exit {show.returncode}, ' \
            f'blkid {blkid.stdout.strip()!r}'
    return 'none'


def torn_rebuilt(img):
    copy = os.path.join(img.work, 'fsck-copy.img')
    fr.sparse_copy(img.path, copy)
    fr.run(['e2fsck', '-fy', copy])
    ok = state(img, copy) == 'new'
    os.unlink(copy)
    return ok


def one_case(img, pristine, opts, mode, k, events):
    log = os.path.join(img.work, 'case.log')
    fr.sparse_copy(pristine, img.path)
    open(log, 'w').close()
    p = mkfs(img.path, opts, (mode, k), log)
    what = f'{img.name} mkfs {mode}@{k}'
    T.cases += 1
    ev = fr.read_log(log)
    T.fired += any(e[-1] in ('eio', 'dropped', 'torn') for e in ev)
    T.check(p.returncode >= 0, f'{what}: killed by signal {-p.returncode}')
    if mode == 'eio':
        # A discard or zeroing that fails falls back to writes; sector 0
        # (boot code, not ours) may fail with a warning, as in mke2fs.
        failed = any(e[-1] == 'eio' and e[0] == 'W' and e[1] != '0'
                     for e in ev)
    elif mode == 'fsync-eio':
        idx = [i for i, e in enumerate(events) if e[0] == 'S'][k - 1]
        failed = any(e[0] == 'W' for e in events[:idx])
    else:
        failed = False
    if failed or p.returncode == 8:
        T.check(p.returncode == 8 and
                f"ext4dev: '{img.path}': " in p.stderr,
                f'{what}: exit {p.returncode}, want 8 naming the device: '
                f'{p.stderr.strip()}')
    elif mode in ('powerloss', 'torn'):
        T.check(p.returncode == 0, f'{what}: exit {p.returncode}: '
                f'{p.stderr.strip()}')
    st = state(img)
    T.note(f'mkfs: {st}')
    T.check(not st.startswith('bad'), f'{what}: {st}')
    if st == 'torn':
        T.check(torn_rebuilt(img), f'{what}: e2fsck -fy did not rebuild '
                'the torn primary into the new filesystem')
    if p.returncode == 0 and mode not in ('powerloss', 'torn'):
        T.check(st == 'new', f'{what}: success reported, state {st}')
    r = mkfs(img.path, opts)
    T.check(r.returncode == 0 and state(img) == 'new',
            f'{what}: mkfs again did not give a clean new filesystem: '
            f'{r.stderr.strip()}')


def fault_image(work, name, size, old_opts, opts):
    with T.case(name):
        fault_mkfs(work, name, size, old_opts, opts)


def fault_mkfs(work, name, size, old_opts, opts):
    """Every crash point of one mkfs over an old filesystem."""
    img = fr.Image(work, name, size, [*old_opts, '-U', OLD_UUID])
    pristine = os.path.join(work, name + '.pristine')
    fr.sparse_copy(img.path, pristine)
    log = os.path.join(work, 'record.log')
    open(log, 'w').close()
    p = mkfs(img.path, opts, ('none', 0), log)
    T.check(p.returncode == 0 and state(img) == 'new',
            f'{name}: clean mkfs run: {p.stderr.strip()}')
    events = fr.read_log(log)
    writes = [e for e in events if e[0] in 'WD']
    kinds = ''.join('P' if e[0] == 'W' and e[1] == '1024' and
                    e[2] == '1024' else e[0] for e in events)
    # The new primary goes last, after an fsync, so that no crash can
    # leave a valid-looking superblock over a half-made filesystem.
    T.check(kinds.endswith('SPS'), f'{name}: mkfs write order {kinds}')
    supers = set(img.superblock_offsets())
    for mode in ('eio', 'powerloss'):
        for k in fr.crash_points(len(writes)):
            one_case(img, pristine, opts, mode, k, events)
    torn = [k for k, e in enumerate(writes, 1)
            if e[0] == 'W' and int(e[1]) in supers and e[2] == '1024']
    for i in fr.crash_points(len(torn)):
        one_case(img, pristine, opts, 'torn', torn[i - 1], events)
    nsync = sum(1 for e in events if e[0] == 'S')
    for k in fr.crash_points(nsync):
        one_case(img, pristine, opts, 'fsync-eio', k, events)
    T.diag(f'{name}: mkfs makes {len(writes)} writes and discards, '
           f'{nsync} fsyncs')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--long', action='store_true')
    ap.add_argument('--populate', action='store_true')
    args = ap.parse_args()
    if fr.run([fr.EXT4DEV, 'mkfs', '--help']).returncode != 0:
        print('SKIP: this ext4dev has no mkfs')
        return 77

    def body(work):
        images = IMAGES + (LONG_IMAGES if args.long else [])
        if args.populate:
            tree = os.path.join(work, 'tree')
            make_tree(tree)
            images = [(name, size, old, [o.format(tree=tree) for o in opts])
                      for name, size, old, opts in POPULATE_IMAGES]
        for image in images:
            fault_image(work, *image)
    return fr.drive(NAME, body, tools=('mke2fs', 'e2fsck', 'debugfs',
                                       'dumpe2fs', 'blkid'))


if __name__ == '__main__':
    sys.exit(main())
