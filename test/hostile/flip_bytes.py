#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile images: random bytes changed in the first 64 KiB of real ones.

A seeded generator takes a mke2fs image (every block size, ext2/3/4 and
the odd layouts), changes 1 to 64 bytes of its first 64 KiB (mostly in
the superblock; for half the cases the superblock checksum is then fixed
up so the damage gets past it), and runs every subcommand on the result:

  show-flags, show-flags -J -o <all columns> (two devices),
  show-flags --check test -v, mark-test -n, mark-test, mark-production,
  and, where ext4dev has mkfs, mkfs -n (which must not write either)

Each must: end in an exit code from {0, 1, 8, 16} (1 only for --check),
never by a signal, within the timeout; print no sanitizer report (run it
on the ASan build; reports exit 99 and are searched for); and, for the
read-only ones and for any refused mark, leave every byte as it was.

With EXT4DEV_VALGRIND=<valgrind> every run goes through memcheck
instead (a release build): ASan sees only our code, memcheck also sees
inside libext2fs, libblkid and libsmartcols as they parse the image.

Usage: flip_bytes.py [CASES] [SEED]  (env: EXT4DEV; default 1000 cases,
seed 1; EXT4DEV_HOSTILE_SEED overrides the seed, EXT4DEV_HOSTILE_KEEP=DIR
keeps every failing image there)
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
import sbtool  # noqa: E402
from ext4dev_test import (Tally, data_extents, sampled_leaks,  # noqa: E402
                          sparse_hash)

EXT4DEV = os.environ['EXT4DEV']
VALGRIND = os.environ.get('EXT4DEV_VALGRIND')
NAME = 'flip_bytes_valgrind' if VALGRIND else 'flip_bytes'
TIMEOUT = 60 if VALGRIND else 20
# lax-ioctls: memcheck has no wrapper for LOOP_GET_STATUS64, which fsio
# asks every bound loop device (other names of the same bytes), and would
# warn on each run while any loop device is bound; fsio zeroes its buffer.
MEMCHECK = [VALGRIND, '-q', '--sim-hints=lax-ioctls',
            '--error-exitcode=99', '--leak-check=full',
            '--errors-for-leak-kinds=definite',
            '--show-leak-kinds=definite'] if VALGRIND else []
HEAD = 64 * 1024
BASES = [
    ('ext2-1k', '8M', ['-t', 'ext2', '-b', '1024']),
    ('ext3-2k', '16M', ['-t', 'ext3', '-b', '2048']),
    ('ext4-4k', '32M', ['-t', 'ext4']),
    ('ext4-1k-meta_bg', '16M',
     ['-t', 'ext4', '-b', '1024', '-O', 'meta_bg,^resize_inode']),
    ('ext4-1k-nocsum-64bit', '16M',
     ['-t', 'ext4', '-b', '1024', '-O', '^metadata_csum,64bit']),
    ('ext4-bigalloc', '32M', ['-t', 'ext4', '-O', 'bigalloc', '-C', '16384']),
    ('ext4-sparse_super2', '16M', ['-t', 'ext4', '-b', '1024',
                                   '-O', 'sparse_super2']),
    ('ext4-1k-test_fs', '8M', ['-t', 'ext4', '-b', '1024', '-E', 'test_fs']),
]
COLUMNS = 'DEVICE,TYPE,FLAGS,TEST,UUID,LABEL'
MKFS = False
SANITIZER_ENV = {
    'ASAN_OPTIONS': 'exitcode=99:detect_leaks=1',
    'UBSAN_OPTIONS': 'exitcode=99:print_stacktrace=1',
}


class Base:
    """A pristine image, kept as its data extents, and restorable."""

    def __init__(self, work, name, size, opts):
        self.name = name
        path = os.path.join(work, name + '.base')
        subprocess.run(['mke2fs', '-q', '-F', *opts, path, size],
                       check=True, capture_output=True)
        self.size = os.path.getsize(path)
        self.extents = []
        with open(path, 'rb') as f:
            for off, length in data_extents(f):
                f.seek(off)
                self.extents.append((off, f.read(length)))
        os.unlink(path)

    def write(self, path, head):
        with open(path, 'wb') as f:
            f.truncate(self.size)
            for off, data in self.extents:
                f.seek(off)
                f.write(data)
            f.seek(0)
            f.write(head)

    def head(self):
        buf = bytearray(HEAD)
        for off, data in self.extents:
            if off < HEAD:
                chunk = data[:HEAD - off]
                buf[off:off + len(chunk)] = chunk
        return buf


def mutate(rng, head):
    """Change 1-64 bytes, mostly in the superblock; maybe fix its csum."""
    for _ in range(rng.choice([1, 1, 2, 3, 4, 8, 16, 64])):
        where = rng.random()
        if where < 0.6:
            pos = rng.randrange(1024, 2048)
        elif where < 0.8:
            pos = rng.randrange(2048, 8192)
        else:
            pos = rng.randrange(HEAD)
        how = rng.random()
        if how < 0.4:
            head[pos] ^= 1 << rng.randrange(8)
        elif how < 0.7:
            head[pos] = rng.randrange(256)
        else:
            head[pos] = rng.choice([0x00, 0xFF, 0x7F, 0x80, 0x01])
    fixed = False
    if rng.random() < 0.5:
        sb = bytes(head[1024:2048])
        ro_compat = struct.unpack_from('<I', sb, 0x64)[0]
        if ro_compat & sbtool.RO_COMPAT_METADATA_CSUM:
            struct.pack_into('<I', head, 1024 + 0x3FC,
                             sbtool.crc32c(sb[:0x3FC]))
            fixed = True
    return fixed


S = Tally(cases=0, runs=0, rcs={}, csum_fixed=0)


def ext4dev(args):
    env = sampled_leaks(dict(os.environ, **SANITIZER_ENV))
    try:
        p = subprocess.run([*MEMCHECK, EXT4DEV, *args], capture_output=True,
                           text=True, errors='replace', env=env,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, '', f'hung for {TIMEOUT}s'
    return p.returncode, p.stdout, p.stderr


def has_mkfs():
    return subprocess.run([EXT4DEV, 'mkfs', '--help'],
                          capture_output=True).returncode == 0


def one_case(case, seed, bases, path, keep):
    rng = random.Random(f'{seed}:{case}')
    base = rng.choice(bases)
    head = base.head()
    fixed = mutate(rng, head)
    base.write(path, head)
    what = f'case {case} (seed {seed}, {base.name})'
    runs = [
        (['show-flags', path], {0, 8}, True),
        (['show-flags', '-J', '-o', COLUMNS, path, path], {0, 8}, True),
        (['show-flags', '--check', 'test', '-v', path], {0, 1, 8}, True),
        (['mark-test', '-n', path], {0, 8}, True),
        (['mark-test', path], {0, 8}, False),
        (['mark-production', path], {0, 8}, False),
    ]
    if MKFS:
        runs.append((['mkfs', '-n', path], {0, 8}, True))
    ok = True
    for args, codes, read_only in runs:
        before = sparse_hash(path, with_size=True)
        rc, out, err = ext4dev(args)
        after = sparse_hash(path, with_size=True)
        with S.lock:
            S.runs += 1
            S.rcs[rc] = S.rcs.get(rc, 0) + 1
        cmd = ' '.join(args[:-1] if args[-1] == path else args)
        if rc is None or rc < 0 or rc not in codes:
            ok &= S.check(False, f'{what}: {cmd}: exit {rc}: '
                           f'{err.strip()[-2000:]}')
        elif ('Sanitizer' in err or 'runtime error:' in err or
              re.search(r'^==\d+==', err, re.M)):
            ok &= S.check(False, f'{what}: {cmd}: {err.strip()[-2000:]}')
        elif (read_only or rc == 8) and before != after:
            ok &= S.check(False, f'{what}: {cmd}: exit {rc} but the '
                           'image changed')
        else:
            S.check(True, '')
    with S.lock:
        S.cases += 1
        S.csum_fixed += fixed
    if not ok and keep:
        base.write(os.path.join(keep, f'hostile-{seed}-{case}.img'), head)


def judged_case(case, seed, bases, path, keep):
    """One KTAP result for every run of one mutated image."""
    with S.case(f'case {case}'):
        one_case(case, seed, bases, path, keep)


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(os.environ.get('EXT4DEV_HOSTILE_SEED') or
               (sys.argv[2] if len(sys.argv) > 2 else 1))
    keep = os.environ.get('EXT4DEV_HOSTILE_KEEP')
    os.environ.update(LC_ALL='C', E2FSPROGS_FAKE_TIME='1700000000')
    global MKFS
    MKFS = has_mkfs()
    S.diag(f'{NAME}: {cases} cases, seed {seed}' +
           (', with mkfs -n' if MKFS else ''))
    with tempfile.TemporaryDirectory(prefix=f'ext4dev-{NAME}.') as work:
        bases = [Base(work, *b) for b in BASES]
        workers = []
        for w in range(2):
            path = os.path.join(work, f'case{w}.img')
            todo = range(w, cases, 2)
            t = threading.Thread(target=lambda p=path, c=todo: [
                judged_case(i, seed, bases, p, keep) for i in c])
            t.start()
            workers.append(t)
        for t in workers:
            t.join()
    S.diag(f'{NAME}: {S.cases} images, {S.runs} runs, '
           f'{S.csum_fixed} with the superblock checksum fixed up; '
           'exit codes: ' +
           ', '.join(f'{k}: {v}' for k, v in sorted(S.rcs.items(),
                                                    key=lambda kv: str(kv[0]))))
    return S.finish(NAME)


if __name__ == '__main__':
    sys.exit(main())
