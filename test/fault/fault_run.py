#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crash-point fault injection for ext4dev mark-test / mark-production.

For each image and each operation, a clean run under the fault shim
records every write and fsync the operation makes.  Then, for every
write k, the operation runs again with write k failing (eio: a bad
sector, eio-once: a transient error), or with the power lost at write k
(powerloss: k and all later writes dropped; torn: only the first 512-byte
sector of write k lands), and for every fsync j with fsync j failing.
After each run:

  * exit code 8 and a message naming the device when a write failed;
  * the primary superblock's checksum verifies and its s_flags is the
    old or the new value (a torn primary is checked after e2fsck -fy);
  * write order: a primary with the new value means no backup still has
    the old one (backups are written and fsynced before the primary);
  * nothing but superblock copies was written;
  * e2fsck -fn is clean;
  * the files put in before are byte-identical (debugfs dump);
  * rerunning the operation without faults repairs everything.

Usage: fault_run.py [--op mark-test|mark-production] [--long]
       (env: EXT4DEV, EXT4DEV_FAULT_SHIM)
--long adds a 2 GiB image without sparse_super (257 copies) and an 8 GiB
4 KiB-block 64bit image.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
import sbtool  # noqa: E402
from ext4dev_test import (Tally, sampled_leaks, sparse_hash,  # noqa: E402
                          superblock_offsets)

EXT4DEV = os.environ['EXT4DEV']
SHIM = os.environ['EXT4DEV_FAULT_SHIM']
NAME = os.environ.get('FAULT_TEST_NAME', 'fault_mark')

# (name, size, mke2fs options): 1 KiB blocks so a few GiB hold many
# groups, hence many superblock copies.
IMAGES = [
    ('ext4-1k-4g', '4G', ['-t', 'ext4', '-b', '1024']),
    ('ext4-1k-4g-meta_bg', '4G',
     ['-t', 'ext4', '-b', '1024', '-O', 'meta_bg,^resize_inode']),
    ('ext4-1k-256m-nosparse', '256M',
     ['-t', 'ext4', '-b', '1024', '-O', '^sparse_super,^resize_inode']),
    ('ext3-1k-2g', '2G', ['-t', 'ext3', '-b', '1024']),
]
LONG_IMAGES = [
    ('ext4-1k-2g-nosparse', '2G',
     ['-t', 'ext4', '-b', '1024', '-O', '^sparse_super,^resize_inode']),
    ('ext4-4k-8g-64bit', '8G', ['-t', 'ext4', '-O', '64bit']),
]
WRITE_MODES = ['eio', 'eio-once', 'powerloss', 'torn']
FILES = {'small': 1000, 'medium': 300 * 1024, 'large': 3 * 1024 * 1024 + 7}
OPPOSITE = {'mark-test': 'mark-production', 'mark-production': 'mark-test'}


T = Tally(cases=0, fired=0)

# Every SAMPLE-th crash point, and always the first and the last (the
# primary's write, or the last fsync).  The plain build, what ships,
# tries every point; the sanitizer build tries the sample that
# test/fault/CMakeLists.txt sets, to keep CI's run inside its budget.
SAMPLE = int(os.environ.get('EXT4DEV_FAULT_SAMPLE') or 1)
if SAMPLE < 1:
    raise SystemExit(f'EXT4DEV_FAULT_SAMPLE={SAMPLE}: want 1 or more')


def crash_points(n):
    """The crash points 1..n this build tries."""
    points = list(range(1, n + 1, SAMPLE))
    if n and points[-1] != n:
        points.append(n)
    return points


def run(cmd, env=None, check=False):
    p = subprocess.run(cmd, env=sampled_leaks(env), capture_output=True,
                       text=True)
    if check and p.returncode:
        raise SystemExit(f'{" ".join(cmd)}: exit {p.returncode}: '
                         f'{p.stderr.strip()}')
    return p


# What e2fsck -fy rewrites on a clean filesystem: its own bookkeeping in
# the primary (write time, mount count, last check, kbytes written) and
# so the checksum.
FSCK_FIELDS = ((0x30, 6), (0x40, 4), (0x178, 8), (0x3FC, 4))


def fsck_footprint(path):
    """Everything e2fsck -fy must leave alone when there is nothing to
    repair: all bytes but the primary's bookkeeping fields."""
    with open(path, 'rb') as f:
        raw = bytearray(sbtool.read_copy(f, 1024))
    for off, n in FSCK_FIELDS:
        raw[off:off + n] = bytes(n)
    return sparse_hash(path, (1024, 2048)), bytes(raw)


class Image:
    def __init__(self, work, name, size, opts):
        self.name, self.work = name, work
        self.path = os.path.join(work, name + '.img')
        run(['mke2fs', '-q', '-F', *opts, self.path, size], check=True)
        self.bs = int(run(['dumpe2fs', '-h', self.path]).stdout.split(
            'Block size:')[1].split()[0])
        self.csum = 'metadata_csum' in run(['dumpe2fs', '-h',
                                            self.path]).stdout
        self.put_files()

    def put_files(self):
        rng = random.Random(self.name)
        cmds = []
        for fname, size in FILES.items():
            src = os.path.join(self.work, f'{self.name}.{fname}')
            with open(src, 'wb') as f:
                f.write(rng.randbytes(size))
            cmds.append(f'write {src} {fname}')
        p = subprocess.run(['debugfs', '-w', '-f', '-', self.path],
                           input='\n'.join(cmds) + '\n', text=True,
                           capture_output=True)
        if p.returncode:
            raise SystemExit(f'debugfs write: {p.stderr}')

    def superblock_offsets(self):
        return set(superblock_offsets(self.path))

    def files_intact(self, path=None):
        path = path or self.path
        cmds, ok = [], True
        for fname in FILES:
            cmds.append(f'dump {fname} {self.work}/out.{fname}')
        for fname in FILES:
            out = f'{self.work}/out.{fname}'
            if os.path.exists(out):
                os.unlink(out)
        subprocess.run(['debugfs', '-f', '-', path], capture_output=True,
                       input='\n'.join(cmds) + '\n', text=True)
        for fname in FILES:
            src = os.path.join(self.work, f'{self.name}.{fname}')
            out = f'{self.work}/out.{fname}'
            with open(src, 'rb') as a:
                want = a.read()
            try:
                with open(out, 'rb') as b:
                    ok = ok and b.read() == want
            except OSError:
                ok = False
        return ok


def sparse_copy(src, dst):
    run(['cp', '--sparse=always', src, dst], check=True)


def e2fsck_clean(path):
    return run(['e2fsck', '-fn', path]).returncode == 0


def primary_flags(path):
    with open(path, 'rb') as f:
        return sbtool.Copy(sbtool.read_copy(f, 1024)).flags


def state(img, offs, path=None):
    with open(path or img.path, 'rb') as f:
        copies = {o: sbtool.Copy(sbtool.read_copy(f, o)) for o in offs}
    return copies


def ext4dev(op, path, fault=None, log=None):
    env = dict(os.environ)
    if fault:
        mode, at = fault
        env.update(LD_PRELOAD=SHIM, EXT4DEV_FAULT_FILE=path,
                   EXT4DEV_FAULT_MODE=mode, EXT4DEV_FAULT_AT=str(at),
                   EXT4DEV_FAULT_LOG=log)
    return run([EXT4DEV, op, '-q', path], env=env)


def read_log(log):
    with open(log) as f:
        return [line.split() for line in f]


def record(img, op):
    """A clean run under the shim: the writes and fsyncs op makes."""
    log = os.path.join(img.work, 'record.log')
    open(log, 'w').close()
    p = ext4dev(op, img.path, ('none', 0), log)
    T.check(p.returncode == 0, f'{img.name} {op}: clean run: {p.stderr}')
    events = read_log(log)
    # A discard ('D') would be a write outside the copies, too.
    writes = [int(e[1]) for e in events if e[0] in 'WD']
    offs = img.superblock_offsets()
    T.check(set(writes) == offs and len(writes) == len(offs),
            f'{img.name} {op}: writes {sorted(writes)} are not exactly '
            f'one per superblock copy {sorted(offs)}')
    # Backups, fsync, primary (one write), fsync: nothing after it.
    kinds = ''.join('P' if e[0] == 'W' and e[1] == '1024' else e[0]
                    for e in events)
    order_ok = (kinds.endswith('SPS') and kinds.count('P') == 1 and
                'W' not in kinds[kinds.index('P'):])
    T.check(order_ok, f'{img.name} {op}: write order {kinds}')
    return events, writes


def torn_recovery(img, op, new):
    """A torn primary: e2fsck -fy (on a copy) must rebuild it from a
    backup, which already carries the new value."""
    copy = os.path.join(img.work, 'fsck-copy.img')
    sparse_copy(img.path, copy)
    fy = run(['e2fsck', '-fy', copy])
    st = state(img, [1024], copy)[1024]
    ok = (fy.returncode in (0, 1) and st.csum_ok and st.flags == new and
          e2fsck_clean(copy) and img.files_intact(copy))
    os.unlink(copy)
    return ok


def stale_fsck(img, offs):
    """Stale backups: e2fsck -fy (on a copy) must find nothing to repair
    and change nothing but its own bookkeeping; say whether it touched
    the stale flags."""
    copy = os.path.join(img.work, 'fsck-copy.img')
    sparse_copy(img.path, copy)
    before = {o: c.flags for o, c in state(img, offs, copy).items()}
    footprint = fsck_footprint(copy)
    fy = run(['e2fsck', '-fy', copy])
    after = {o: c.flags for o, c in state(img, offs, copy).items()}
    ok = (fy.returncode == 0 and fsck_footprint(copy) == footprint and
          img.files_intact(copy))
    os.unlink(copy)
    return ok, before == after


def judge_exit(p, what, img, mode, k, events, ev):
    """Count the fault the run @ev logged and check the exit status it
    calls for: 8 naming the device when a write or an fsync after our
    writes failed, 0 otherwise.  Returns whether I/O failed."""
    fired = [e for e in ev if e[-1] in ('eio', 'dropped', 'torn')]
    T.fired += bool(fired)
    T.check(p.returncode >= 0, f'{what}: killed by signal {-p.returncode}')
    # eio-once: libext2fs retries a failed pwrite, which then works.
    failed_io = mode == 'eio' and bool(fired)
    if mode == 'fsync-eio':
        # An fsync that follows our writes must not fail silently.
        idx = [i for i, e in enumerate(events) if e[0] == 'S'][k - 1]
        failed_io = any(e[0] == 'W' for e in events[:idx])
    if failed_io:
        T.check(p.returncode == 8 and
                f"ext4dev: '{img.path}': " in p.stderr,
                f'{what}: exit {p.returncode}, want 8 naming the device: '
                f'{p.stderr.strip()}')
    else:
        T.check(p.returncode == 0, f'{what}: exit {p.returncode}: '
                f'{p.stderr.strip()}')
    return failed_io


def one_case(img, op, mode, k, events, offs, saved, old, new):
    log = os.path.join(img.work, 'case.log')
    with open(img.path, 'r+b') as f:
        for o, raw in saved.items():
            f.seek(o)
            f.write(raw)
    open(log, 'w').close()
    p = ext4dev(op, img.path, (mode, k), log)
    what = f'{img.name} {op} {mode}@{k}'
    T.cases += 1
    ev = read_log(log)
    failed_io = judge_exit(p, what, img, mode, k, events, ev)
    T.check(all(int(e[1]) in offs for e in ev if e[0] in 'WD'),
            f'{what}: wrote outside the superblock copies')
    st = state(img, offs)
    prim = st[1024]
    torn_primary = any(e[-1] == 'torn' and e[1] == '1024' for e in ev)
    backups = [c for o, c in st.items() if o != 1024]
    if torn_primary and img.csum:
        T.note('torn primary (checksum broken)')
        T.check(torn_recovery(img, op, new),
                f'{what}: e2fsck -fy did not rebuild the torn primary '
                f'with the new value')
        T.check(ext4dev(op, img.path).returncode == 8,
                f'{what}: mark accepted a primary with a bad checksum')
        return
    T.check(prim.csum_ok, f'{what}: primary checksum broken')
    T.check(prim.flags in (old, new),
            f'{what}: primary s_flags {prim.flags:#x} is neither '
            f'{old:#x} nor {new:#x}')
    good = [c for c in backups if c.csum_ok]
    stale = sum(1 for c in good if c.flags != prim.flags)
    T.note(f'primary {"new" if prim.flags == new else "old"}, '
           f'{"some" if stale else "no"} stale backups')
    if prim.flags == new:
        T.check(all(c.flags == new for c in good),
                f'{what}: primary written before every backup')
    if p.returncode == 0 and mode not in ('powerloss', 'torn'):
        T.check(prim.flags == new and stale == 0,
                f'{what}: success reported but not every copy is new')
    T.check(e2fsck_clean(img.path), f'{what}: e2fsck -fn not clean')
    T.check(img.files_intact(), f'{what}: file contents changed')
    if stale and (img.name, op, mode) not in STALE_FSCKED:
        STALE_FSCKED.add((img.name, op, mode))
        ok, untouched = stale_fsck(img, offs)
        T.check(ok, f'{what}: e2fsck -fy on a copy with stale backups '
                'repaired or changed something')
        T.note('e2fsck -fy left stale backups as they were' if untouched
               else 'e2fsck -fy rewrote stale backups')
    # What the user does next: run the same command again.
    r = ext4dev(op, img.path)
    st = state(img, offs)
    T.check(r.returncode == 0 and
            all(c.flags == new and c.csum_ok for c in st.values()) and
            e2fsck_clean(img.path),
            f'{what}: rerun did not leave every copy new and clean: '
            f'{r.stderr.strip()}')


STALE_FSCKED = set()


def fault_image(img, ops):
    for op in ops:
        with T.case(f'{img.name} {op}'):
            fault_op(img, op)


def fault_op(img, op):
    """Every crash point of @op on @img, then the image as it was."""
    # Start from the state op changes.
    ext4dev(OPPOSITE[op], img.path)
    old = primary_flags(img.path)
    events, writes = record(img, op)
    new = primary_flags(img.path)
    ext4dev(OPPOSITE[op], img.path)
    offs = set(writes)
    with open(img.path, 'rb') as f:
        saved = {o: sbtool.read_copy(f, o) for o in offs}
    before = sparse_hash(img.path)
    for mode in WRITE_MODES:
        for k in crash_points(len(writes)):
            one_case(img, op, mode, k, events, offs, saved, old, new)
    nsync = sum(1 for e in events if e[0] == 'S')
    for k in crash_points(nsync):
        one_case(img, op, 'fsync-eio', k, events, offs, saved, old, new)
    with open(img.path, 'r+b') as f:
        for o, raw in saved.items():
            f.seek(o)
            f.write(raw)
    T.check(sparse_hash(img.path) == before,
            f'{img.name} {op}: bytes outside the superblock copies '
            f'changed over the runs')
    T.diag(f'{img.name} {op}: {len(writes)} writes, {nsync} fsyncs')


def drive(name, body, tools=('mke2fs', 'e2fsck', 'debugfs', 'dumpe2fs'),
          keep_flag=True):
    """What every fault driver does around its own cases: skip (77)
    without the e2fsprogs tools it uses, a fixed clock and locale, a
    scratch directory (with an e2fsck.conf that keeps the flag under
    test, unless @keep_flag is false) handed to @body, and the closing
    tally.  Returns the exit status."""
    for tool in tools:
        if not shutil.which(tool):
            print(f'SKIP: {tool} not found')
            return 77
    os.environ.update(LC_ALL='C', E2FSPROGS_FAKE_TIME='1700000000')
    with tempfile.TemporaryDirectory(prefix=f'ext4dev-{name}.') as work:
        if keep_flag:
            conf = os.path.join(work, 'e2fsck.conf')
            with open(conf, 'w') as f:
                # Keep e2fsck -fy from clearing the very flag under test.
                f.write('[options]\nclear_test_fs_flag = false\n')
            os.environ['E2FSCK_CONFIG'] = conf
        body(work)
    for key, n in sorted(T.outcomes.items()):
        T.diag(f'  {n:5d}  {key}')
    T.diag(f'{name}: {T.cases} cases, {T.fired} faults injected')
    return T.finish(name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--op', action='append',
                    choices=['mark-test', 'mark-production'])
    ap.add_argument('--long', action='store_true')
    args = ap.parse_args()
    ops = args.op or ['mark-test', 'mark-production']
    images = IMAGES + (LONG_IMAGES if args.long else [])

    def body(work):
        for name, size, opts in images:
            fault_image(Image(work, name, size, opts), ops)
    return drive(NAME, body)


if __name__ == '__main__':
    sys.exit(main())
