#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Marks racing marks, and marks racing show-flags, on one image.

fsio takes flock(LOCK_EX) to change a superblock and flock(LOCK_SH) to
read one, so racing ext4dev processes must serialize, or (on a block
device, which a writer opens O_EXCL) one may refuse with exit 8 "in use".
After every round:
  * every mark exited 0 (or refused as above), every show-flags exited 0
    and printed one whole state, never a mixture;
  * no torn superblock: every copy has a good checksum and they all
    carry the same flag (read by sbtool, not by libext2fs);
  * the end state is one the marks asked for;
  * e2fsck -fn is clean.
Every other round runs the marks under the fault shim with a 1 ms delay
before each superblock write (EXT4DEV_FAULT_SHIM, when given), so that a
commit takes tens of milliseconds and the races really overlap.

Usage: concurrent_mark.py [ROUNDS]   (env: EXT4DEV, EXT4DEV_FAULT_SHIM;
default 200 rounds per pairing, half that on the loop device)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'pylib'))
import sbtool  # noqa: E402
from ext4dev_test import (Tally, sampled_leaks,  # noqa: E402
                          superblock_offsets)

EXT4DEV = os.environ['EXT4DEV']
SHIM = os.environ.get('EXT4DEV_FAULT_SHIM')
NAME = 'concurrent_mark'
TIMEOUT = 30
OPS = {'test': ['mark-test', '-q'], 'production': ['mark-production', '-q'],
       'show': ['show-flags']}


T = Tally(refused=0)


def show_line(dev):
    out = subprocess.run([EXT4DEV, 'show-flags', dev], capture_output=True,
                         text=True, env=sampled_leaks()).stdout
    return out.rstrip()


def race(dev, ops, lines, slow):
    """Start every op at once; return a problem, or None."""
    shim = {}
    if slow and SHIM:
        shim = dict(LD_PRELOAD=SHIM, EXT4DEV_FAULT_FILE=dev,
                    EXT4DEV_FAULT_DELAY_US='1000')
    procs = [subprocess.Popen([EXT4DEV, *OPS[op], dev], text=True,
                              env=sampled_leaks(dict(os.environ, **(
                                  shim if op != 'show' else {}))),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for op in ops]
    problem = None
    for op, p in zip(ops, procs):
        try:
            out, err = p.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            problem = problem or f'{op}: hung for {TIMEOUT}s'
            continue
        rc = p.returncode
        if op == 'show':
            if rc != 0:
                problem = problem or f'show-flags exit {rc}: {err.strip()}'
            elif out.rstrip() not in lines:
                problem = problem or f'show-flags saw {out.rstrip()!r}'
        elif rc == 8 and 'in use' in err and dev.startswith('/dev/'):
            T.refused += 1
        elif rc != 0:
            problem = problem or f'mark-{op} exit {rc}: {err.strip()}'
    return problem


def consistent(dev, offs, wanted):
    with open(dev, 'rb') as f:
        copies = [sbtool.Copy(sbtool.read_copy(f, o)) for o in offs]
    if any(c.magic != 0xEF53 or not c.csum_ok for c in copies):
        return 'a superblock copy has a bad checksum or magic'
    if len({c.flags for c in copies}) != 1:
        return 'superblock copies disagree: ' + \
            ' '.join(f'{c.flags:#x}' for c in copies)
    if copies[0].test not in wanted:
        return f'end state {copies[0].test} was not asked for'
    return None


def rounds(name, dev, offs, ops, lines, n):
    with T.case(name):
        race_rounds(name, dev, offs, ops, lines, n)


def race_rounds(name, dev, offs, ops, lines, n):
    """N rounds of OPS racing on DEV; stops after five bad ones."""
    wanted = {1 for op in ops if op == 'test'} | \
        {0 for op in ops if op == 'production'}
    bad = 0
    for r in range(1, n + 1):
        # Alternate the starting state so that both orders do real work.
        start = 'mark-production' if r % 2 else 'mark-test'
        subprocess.run([EXT4DEV, start, '-q', dev], check=True,
                       env=sampled_leaks())
        problem = race(dev, ops, lines, r % 4 >= 2) or \
            consistent(dev, offs, wanted)
        if not problem and subprocess.run(
                ['e2fsck', '-fn', dev], capture_output=True).returncode:
            problem = 'e2fsck -fn not clean'
        if not T.check(problem is None, f'{name}: round {r}: {problem}'):
            bad += 1
            if bad == 5:
                break
    T.diag(f'{name}: {r} rounds')


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    os.environ.update(LC_ALL='C', E2FSPROGS_FAKE_TIME='1700000000')
    with tempfile.TemporaryDirectory(prefix=f'ext4dev-{NAME}.') as work:
        img = os.path.join(work, 'race.img')
        # 1 KiB blocks: eleven copies, so a commit takes a while.
        subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-b', '1024',
                        img, '1G'], check=True, capture_output=True)
        offs = superblock_offsets(img)
        subprocess.run([EXT4DEV, 'mark-test', '-q', img], check=True)
        lines = {show_line(img)}
        subprocess.run([EXT4DEV, 'mark-production', '-q', img], check=True)
        lines.add(show_line(img))
        rounds('mark-test vs mark-production', img, offs,
               ['test', 'production'], lines, n)
        rounds('mark-test vs mark-test', img, offs, ['test', 'test'],
               lines, n)
        rounds('marks vs show-flags', img, offs,
               ['test', 'production', 'show', 'show'], lines, n)
        # Two marks alone always leave one with nothing to do (the flag
        # has one bit); four make writers really contend.
        rounds('2 x mark-test vs 2 x mark-production vs show-flags', img,
               offs, ['test', 'production', 'test', 'production', 'show'],
               lines, n)
        loop = None
        if os.geteuid() == 0:
            p = subprocess.run(['losetup', '-f', '--show', img],
                               capture_output=True, text=True)
            loop = p.stdout.strip() if p.returncode == 0 else None
        if loop:
            try:
                rounds('loop device: marks vs show-flags', loop, offs,
                       ['test', 'production', 'test', 'production',
                        'show'], lines, n // 2)
            finally:
                subprocess.run(['losetup', '-d', loop])
            T.diag(f'loop device: {T.refused} marks refused as in use')
        else:
            T.diag('no loop device here: block-device rounds not run')
    return T.finish(NAME)


if __name__ == '__main__':
    sys.exit(main())
