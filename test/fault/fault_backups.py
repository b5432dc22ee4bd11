#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crash-point fault injection for the backups-only write path of
mark-test / mark-production: the primary already has the wanted flag,
the backups do not (made with sbtool, an oracle independent of
libext2fs), so ext4dev rewrites only the backups and never the primary.

For every write k: eio, eio-once, powerloss and torn at k, and for every
fsync j: fsync-eio.  After each run:

  * not killed by a signal; exit 8 naming the device when a write or
    the fsync after the writes failed, 0 otherwise;
  * nothing was written but backup superblocks, never the primary, and
    the primary's bytes are exactly as before;
  * e2fsck -fn is clean and the files put in before are intact;
  * rerunning without faults leaves every copy with the new flag and a
    good checksum, and a third run says "already" and writes nothing.

Uses fault_run's image, shim and state helpers (imported, unchanged).
Usage: fault_backups.py [--op mark-test|mark-production]
       (env: EXT4DEV, EXT4DEV_FAULT_SHIM)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402
import sbtool  # noqa: E402

T = fr.T
NAME = os.environ.get('FAULT_TEST_NAME', 'fault_backups')
IMAGES = [
    ('bk-ext4-1k-1g', '1G', ['-t', 'ext4', '-b', '1024']),
    ('bk-ext4-1k-1g-meta_bg', '1G',
     ['-t', 'ext4', '-b', '1024', '-O', 'meta_bg,^resize_inode']),
    ('bk-ext3-1k-256m-nosparse', '256M',
     ['-t', 'ext3', '-b', '1024', '-O', '^sparse_super,^resize_inode']),
]
MODES = ['eio', 'eio-once', 'powerloss', 'torn']


def set_primary(img, bit):
    """The primary gets the flag (checksum recomputed); backups keep
    theirs."""
    fr.run([sys.executable, sbtool.__file__, 'flag', img.path, '1024',
            str(bit)], check=True)


def restore(img, saved):
    with open(img.path, 'r+b') as f:
        for o, raw in saved.items():
            f.seek(o)
            f.write(raw)


def record(img, op, backups):
    log = os.path.join(img.work, 'record.log')
    open(log, 'w').close()
    p = fr.ext4dev(op, img.path, ('none', 0), log)
    T.check(p.returncode == 0, f'{img.name} {op}: clean run: {p.stderr}')
    events = fr.read_log(log)
    writes = [int(e[1]) for e in events if e[0] in 'WD']
    T.check(sorted(writes) == sorted(backups),
            f'{img.name} {op}: writes {sorted(writes)} are not exactly the '
            f'backups {sorted(backups)}')
    kinds = ''.join(e[0] for e in events)
    T.check(kinds.endswith('S') and 'W' not in kinds[kinds.rindex('S'):],
            f'{img.name} {op}: no fsync after the writes: {kinds}')
    return events, writes


def one_case(img, op, mode, k, events, offs, saved, new):
    log = os.path.join(img.work, 'case.log')
    restore(img, saved)
    open(log, 'w').close()
    p = fr.ext4dev(op, img.path, (mode, k), log)
    what = f'{img.name} {op} backups {mode}@{k}'
    T.cases += 1
    ev = fr.read_log(log)
    failed_io = fr.judge_exit(p, what, img, mode, k, events, ev)
    T.check(all(int(e[1]) in offs and int(e[1]) != 1024
                for e in ev if e[0] in 'WD'),
            f'{what}: wrote the primary or outside the backups')
    with open(img.path, 'rb') as f:
        T.check(sbtool.read_copy(f, 1024) == saved[1024],
                f'{what}: primary bytes changed')
    T.check(fr.e2fsck_clean(img.path), f'{what}: e2fsck -fn not clean')
    T.check(img.files_intact(), f'{what}: file contents changed')
    r = fr.ext4dev(op, img.path)
    st = fr.state(img, offs)
    T.check(r.returncode == 0 and
            all(c.flags == new and c.csum_ok for c in st.values()),
            f'{what}: rerun did not leave every copy new: {r.stderr}')
    again = fr.run([fr.EXT4DEV, op, img.path])
    T.check(again.returncode == 0 and 'already' in again.stdout,
            f'{what}: third run not "already": {again.stdout.strip()}')
    T.note('backups path: ' + ('exit 8' if failed_io else 'exit 0'))


def fault_image(img, ops):
    for op in ops:
        with T.case(f'{img.name} {op}'):
            fault_op(img, op)


def fault_op(img, op):
    """Every crash point of @op on @img's backups, then the image as
    it was."""
    fr.ext4dev(fr.OPPOSITE[op], img.path)
    old = fr.primary_flags(img.path)
    offs = img.superblock_offsets()
    backups = sorted(o for o in offs if o != 1024)
    set_primary(img, 1 if op == 'mark-test' else 0)
    new = fr.primary_flags(img.path)
    T.check(new != old, f'{img.name} {op}: primary not flipped')
    with open(img.path, 'rb') as f:
        saved = {o: sbtool.read_copy(f, o) for o in offs}
    before = fr.sparse_hash(img.path)
    events, writes = record(img, op, backups)
    for mode in MODES:
        for k in fr.crash_points(len(writes)):
            one_case(img, op, mode, k, events, offs, saved, new)
    nsync = sum(1 for e in events if e[0] == 'S')
    for k in fr.crash_points(nsync):
        one_case(img, op, 'fsync-eio', k, events, offs, saved, new)
    restore(img, saved)
    T.check(fr.sparse_hash(img.path) == before,
            f'{img.name} {op}: bytes outside the copies changed')
    T.diag(f'{img.name} {op}: {len(writes)} backup writes, '
           f'{nsync} fsyncs')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--op', action='append',
                    choices=['mark-test', 'mark-production'])
    args = ap.parse_args()
    ops = args.op or ['mark-test', 'mark-production']

    def body(work):
        for name, size, opts in IMAGES:
            fault_image(fr.Image(work, name, size, opts), ops)
    # No e2fsck.conf of ours: these cases never let e2fsck repair.
    return fr.drive(NAME, body, keep_flag=False)


if __name__ == '__main__':
    sys.exit(main())
