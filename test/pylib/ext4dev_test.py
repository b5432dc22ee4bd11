#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the Python tests share: a tally that reports KTAP, a hash of a sparse
image's bytes, the offsets of an image's superblock copies, a byte
comparison of two images that ignores s_kbytes_written, and the
sanitizer environment of a run.

The superblock itself is read without libext2fs by test/pylib/sbtool.py
(an oracle independent of the code under test); this module only adds
what the drivers in test/fault and test/stress each wrote for
themselves.

  ext4dev_test.py same-bytes A B [OFFSET]
                                    exit 0 when the images differ at
                                    most in s_kbytes_written (and the
                                    checksum that covers it) of the
                                    filesystem OFFSET bytes in
  ext4dev_test.py deep-tree DIR DEPTH
                                    make DEPTH nested directories of
                                    62-byte names in DIR (past PATH_MAX)
"""
import contextlib
import hashlib
import itertools
import os
import struct
import subprocess
import sys
import threading

SB_OFFSET = 1024
SB_MAGIC = 0xEF53
KBYTES_WRITTEN = (0x178, 8)     # s_kbytes_written
CHECKSUM = (0x3FC, 4)           # s_checksum, which covers it

# LeakSanitizer's scan at exit costs ~65 ms of a ~95 ms ASan run of
# ext4dev on a 2-core CI machine, and the fault, stress and hostile
# drivers start thousands of runs.  ASan's memory checks stay on in every
# run; the leak check runs in one of LEAK_EVERY (EXT4DEV_LEAK_EVERY; 1
# checks every run), so each driver still checks hundreds of runs spread
# over all its cases, and the unit and integration tests check all of
# theirs.  A binary built without ASan ignores ASAN_OPTIONS.
LEAK_EVERY = max(1, int(os.environ.get('EXT4DEV_LEAK_EVERY') or 8))
_runs = itertools.count()


class Tally:
    """Counts checks and reports them as KTAP, as every test here does
    (test/lib/ktap.sh): "KTAP version 1" at once, a failed check as a
    "# FAIL: what" diagnostic at once, and one result line per case, a
    case being the checks run inside "with tally.case(name):" (per
    thread), so that thousands of checks make a readable report.
    finish() closes it: one more result for checks made outside any
    case, "# Totals:" over the results, and "NAME: P passed, F failed"
    over the checks.  Safe to share between threads (hold .lock to
    update the extra counters given as keywords, e.g. Tally(cases=0))."""

    def __init__(self, **counters):
        self.lock = threading.RLock()
        self.passed = self.failed = 0
        self.outcomes = {}
        self._results = [0, 0, 0]       # results ok, not ok, skipped
        self._loose = [0, 0]            # checks outside a case: made, failed
        self._here = threading.local()
        self.__dict__.update(counters)
        print('KTAP version 1', flush=True)

    def check(self, ok, what):
        counts = getattr(self._here, 'case', None) or self._loose
        with self.lock:
            counts[0] += 1
            if ok:
                self.passed += 1
            else:
                self.failed += 1
                counts[1] += 1
                self.diag(f'FAIL: {what}')
        return ok

    @contextlib.contextmanager
    def case(self, name):
        """One KTAP result for the checks made inside: ok when none
        failed."""
        counts = self._here.case = [0, 0]
        try:
            yield
        finally:
            self._here.case = None
            self.result(counts, name)

    def result(self, counts, name):
        made, failed = counts
        with self.lock:
            self._results[1 if failed else 0 if made else 2] += 1
            n = sum(self._results)
            if failed:
                print(f'not ok {n} {name} # {failed} of {made} checks '
                      'failed', flush=True)
            elif not made:
                # A case that asserted nothing did not pass either.
                print(f'ok {n} {name} # SKIP no check ran', flush=True)
            else:
                print(f'ok {n} {name} # {made} checks', flush=True)

    def diag(self, text):
        """Text for the reader, as KTAP diagnostic lines."""
        with self.lock:
            for line in str(text).splitlines() or ['']:
                print(f'# {line}', flush=True)

    def note(self, key):
        with self.lock:
            self.outcomes[key] = self.outcomes.get(key, 0) + 1

    def finish(self, name):
        """Close the report; returns the exit status (1: a check
        failed)."""
        if self._loose[0]:
            self.result(self._loose, f'{name} (checks outside a case)')
        ok, not_ok, skipped = self._results
        print(f'# Totals: pass:{ok} fail:{not_ok} skip:{skipped}')
        print(f'{name}: {self.passed} passed, {self.failed} failed',
              flush=True)
        return 1 if self.failed else 0


def data_extents(f):
    """(offset, length) of each data extent of the open file @f, by
    SEEK_DATA/SEEK_HOLE: a sparse image's bytes without reading its
    holes, whatever the host filesystem does with them."""
    fd = f.fileno()
    end, off = os.fstat(fd).st_size, 0
    while off < end:
        try:
            off = os.lseek(fd, off, os.SEEK_DATA)
        except OSError:     # ENXIO: no data after off
            return
        hole = os.lseek(fd, off, os.SEEK_HOLE)
        yield off, hole - off
        off = hole


def sampled_leaks(env=None):
    """A copy of @env (default: ours) for one run of ext4dev, with
    LeakSanitizer on only for every LEAK_EVERY-th run; options already
    in ASAN_OPTIONS stay, a later detect_leaks overriding theirs."""
    env = dict(os.environ if env is None else env)
    leaks = next(_runs) % LEAK_EVERY == 0
    env['ASAN_OPTIONS'] = ':'.join(filter(None, (
        env.get('ASAN_OPTIONS'), f'detect_leaks={int(leaks)}')))
    return env


def sparse_hash(path, skip=(0, 0), with_size=False):
    """sha256 of a sparse file's non-zero 4 KiB blocks and their offsets.
    Bytes in [skip[0], skip[1]) count as zero; with @with_size the
    file's length counts too."""
    h, zero = hashlib.sha256(), bytes(4096)
    with open(path, 'rb') as f:
        if with_size:
            h.update(os.fstat(f.fileno()).st_size.to_bytes(8, 'little'))
        for off, length in data_extents(f):
            f.seek(off)
            hole = off + length
            while off < hole:
                block = f.read(min(4096, hole - off))
                lo, hi = max(skip[0], off), min(skip[1], off + len(block))
                if lo < hi:
                    block = bytearray(block)
                    block[lo - off:hi - off] = bytes(hi - lo)
                if block != zero[:len(block)]:
                    h.update(off.to_bytes(8, 'little') + block)
                off += len(block)
    return h.hexdigest()


def superblock_offsets(img):
    """Byte offsets of every superblock copy dumpe2fs lists, the primary
    (1024) first, then the backups in block order."""
    out = subprocess.run(['dumpe2fs', img], capture_output=True,
                         text=True).stdout
    bs = int(out.split('Block size:')[1].split()[0])
    offs = [SB_OFFSET]
    for line in out.splitlines():
        if 'Backup superblock at' in line:
            offs.append(int(line.split('Backup superblock at ')[1]
                            .split(',')[0]) * bs)
    return offs


def _geometry(raw):
    """(block size, first data block, blocks per group, block count)."""
    log_bs, = struct.unpack_from('<I', raw, 0x18)
    first, = struct.unpack_from('<I', raw, 0x14)
    bpg, = struct.unpack_from('<I', raw, 0x20)
    lo, = struct.unpack_from('<I', raw, 0x04)
    hi, = struct.unpack_from('<I', raw, 0x150)
    return 1024 << log_bs, first, bpg, lo | hi << 32


def _copy_offsets(f, base=0):
    """Where a superblock copy may be, in a filesystem @base bytes into
    the file: the primary and the first block of every group that has the
    magic there."""
    f.seek(base + SB_OFFSET)
    raw = f.read(1024)
    bs, first, bpg, blocks = _geometry(raw)
    offs = [base + SB_OFFSET]
    for start in range(first + bpg, blocks, bpg):
        f.seek(base + start * bs + 0x38)
        if struct.unpack('<H', f.read(2) or b'\0\0')[0] == SB_MAGIC:
            offs.append(base + start * bs)
    return offs


def same_bytes_but_kbytes(a, b, base=0):
    """None when @a and @b hold the same bytes but for s_kbytes_written
    and s_checksum in the superblock copies of the filesystem @base bytes
    into them; else the first other offset where they differ."""
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        if os.fstat(fa.fileno()).st_size != os.fstat(fb.fileno()).st_size:
            return -1
        masked = set()
        for off in _copy_offsets(fa, base):
            for field, n in (KBYTES_WRITTEN, CHECKSUM):
                masked.update(range(off + field, off + field + n))
        fa.seek(0)
        fb.seek(0)
        pos = 0
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if not x:
                return None
            if x != y:
                for i in range(len(x)):
                    if x[i] != y[i] and pos + i not in masked:
                        return pos + i
            pos += len(x)


def deep_tree(top, depth):
    """DEPTH directories of 62-byte names under TOP (past PATH_MAX), a
    file and a symbolic link at the bottom, every atime in the future
    (so that reading never moves it) and a fixed mtime.  Made with
    chdir(), the only way to reach that deep by name."""
    os.chdir(top)
    name = 'd' * 62
    for _ in range(depth):
        os.mkdir(name)
        os.chdir(name)
    with open('bottom', 'w') as f:
        f.write('deep\n')
    os.symlink('bottom', 'link')
    times = (2000000000, 1600000000)
    for entry in ('bottom', 'link'):
        os.utime(entry, times, follow_symlinks=False)
    for _ in range(depth):
        os.utime('.', times)
        os.chdir('..')
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'deep-tree':
        return deep_tree(sys.argv[2], int(sys.argv[3]))
    if len(sys.argv) in (4, 5) and sys.argv[1] == 'same-bytes':
        base = int(sys.argv[4]) if len(sys.argv) == 5 else 0
        diff = same_bytes_but_kbytes(sys.argv[2], sys.argv[3], base)
        if diff is None:
            return 0
        print(f'first difference at byte {diff}' if diff >= 0 else
              'sizes differ', file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
