#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An interrupted mkfs leaves no half-made filesystem.

A clean mkfs run under the fault shim counts its writes; then for every
write k, mkfs runs again and gets SIGINT, SIGTERM or SIGHUP (in turn)
instead of write k.  It must exit 128 + the signal, and afterwards
blkid must find nothing on the target and no superblock place may hold
the ext2 magic (so 'e2fsck -b' brings nothing back); an image file the
run created must be gone.  With -E offset= the same holds of the
filesystem at the offset, and the bytes before it are untouched.

Usage: fault_mkfs_signal.py   (env: EXT4DEV, EXT4DEV_FAULT_SHIM)
"""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

NAME = os.environ.get('FAULT_TEST_NAME', 'fault_mkfs_signal')
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
OPTS = ['-q', '-b', '1024']
SIZE = '64M'
OFFSET = 1 << 20
# What the bytes before the offset hold, and must still hold afterwards.
PREFIX = bytes(range(256)) * (OFFSET // 256)
T = fr.T


def mkfs(path, new, k=None, sig=None, log=None, offset=0):
    env = dict(os.environ, LD_PRELOAD=fr.SHIM, EXT4DEV_FAULT_FILE=path,
               EXT4DEV_FAULT_MODE='signal' if k else 'none',
               EXT4DEV_FAULT_AT=str(k or 0),
               EXT4DEV_FAULT_SIGNAL=str(int(sig or 0)),
               EXT4DEV_FAULT_LOG=log or os.devnull)
    args = [fr.EXT4DEV, 'mkfs', *OPTS]
    if offset:
        args += ['-E', f'offset={offset}']
    if not new:
        args.append('-F')
    return fr.run([*args, path, SIZE], env=env)


def magic_places(path, base=0):
    """Every 1 KiB-aligned offset of a 1k-block filesystem's superblock
    places (@base bytes into the file) that holds 0xEF53 (group starts of
    8192 blocks)."""
    found = []
    with open(path, 'rb') as f:
        size = os.fstat(f.fileno()).st_size
        for off in [1024] + list(range(8193 * 1024, size - base,
                                       8192 * 1024)):
            f.seek(base + off + 56)
            if f.read(2) == b'\x53\xef':
                found.append(off)
    return found


def judge(what, ok, why):
    with T.lock:
        T.cases += 1
    T.check(ok, f'{what}: {why}')


def prefixed(path):
    """A target whose first OFFSET bytes are a pattern that must stay."""
    with open(path, 'wb') as f:
        f.write(PREFIX)
    os.truncate(path, OFFSET + (64 << 20))


def one(work, new, k, sig, offset=0):
    path = os.path.join(work, 'target.img')
    if os.path.exists(path):
        os.unlink(path)
    if offset:
        prefixed(path)
    else:
        subprocess.run(['truncate', '-s', SIZE, path], check=True)
    p = mkfs(path, new, k, sig, offset=offset)
    what = f'{"new" if new else "existing"} file, write {k}, {sig.name}'
    if offset:
        what += f', offset {offset}'
    T.fired += 1
    judge(what, p.returncode == 128 + sig,
          f'exit {p.returncode}, want {128 + sig}: {p.stderr.strip()}')
    if new:
        judge(what, not os.path.exists(path), 'the created file is left')
        return
    b = fr.run(['blkid', '-p', '-O', str(offset), '-o', 'value', '-s',
                'TYPE', path])
    judge(what, not b.stdout.strip(), f'blkid finds {b.stdout.strip()}')
    judge(what, not magic_places(path, offset),
          f'ext2 magic at {magic_places(path, offset)}')
    if offset:
        with open(path, 'rb') as f:
            judge(what, f.read(offset) == PREFIX,
                  'the bytes before the offset changed')


def new_file(work):
    """The shim knows its file by inode, so it cannot follow one mkfs
    creates: a real signal at a series of delays instead."""
    path = os.path.join(work, 'created.img')
    for i in range(12):
        sig = SIGNALS[i % len(SIGNALS)]
        p = subprocess.Popen([fr.EXT4DEV, 'mkfs', '-q', '-b', '1024', path,
                              '1G'], stderr=subprocess.PIPE)
        try:
            p.wait(timeout=0.005 * (i + 1))
        except subprocess.TimeoutExpired:
            p.send_signal(sig)
            rc = p.wait()
            T.fired += 1
            # Killed by the default action: before main() set its
            # handlers (nothing made yet), or after mkfs finished and
            # disarmed them (slow exits, e.g. ASan's leak check): then
            # the file must hold a whole filesystem.
            early = rc == -sig and not os.path.exists(path)
            late = rc == -sig and os.path.exists(path) and fr.run(
                ['e2fsck', '-fn', path]).returncode == 0
            judge(f'created file, {sig.name}',
                  rc in (0, 128 + sig) or early or late, f'exit {rc}')
            if rc > 0:
                judge(f'created file, {sig.name}', not os.path.exists(path),
                      'the created file is left')
        p.stderr.close()
        if os.path.exists(path):
            os.unlink(path)


def body(work):
    log = os.path.join(work, 'count.log')
    path = os.path.join(work, 'target.img')
    subprocess.run(['truncate', '-s', SIZE, path], check=True)
    p = mkfs(path, False, log=log)
    if p.returncode:
        raise SystemExit(f'clean mkfs: exit {p.returncode}')
    with open(log) as f:
        writes = sum(1 for line in f if line[0] in 'WD')
    os.unlink(log)
    if not writes:
        raise SystemExit('the shim counted no writes')
    with T.case(f'a signal at each of the {writes} writes into a file'):
        for k in range(1, writes + 1):
            one(work, False, k, SIGNALS[k % len(SIGNALS)])
    with T.case('a signal while mkfs creates the file'):
        new_file(work)
    prefixed(path)
    p = mkfs(path, False, log=log, offset=OFFSET)
    if p.returncode:
        raise SystemExit(f'clean mkfs -E offset: exit {p.returncode}')
    with open(log) as f:
        writes = sum(1 for line in f if line[0] in 'WD')
    os.unlink(log)
    with T.case(f'-E offset={OFFSET}: a signal at each of the {writes} '
                'writes'):
        for k in range(1, writes + 1):
            one(work, False, k, SIGNALS[k % len(SIGNALS)], OFFSET)


if __name__ == '__main__':
    sys.exit(fr.drive(NAME, body, tools=('blkid', 'e2fsck')))
