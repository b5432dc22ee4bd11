#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Superblock copies of an image, read without libext2fs: an oracle
independent of the code under test.

  sbtool.py offsets LOG              superblock offsets a fault-shim log
                                     wrote (unique, in order)
  sbtool.py save IMAGE OFFS SAVE     keep the 1 KiB at each offset
  sbtool.py restore IMAGE OFFS SAVE  put them back
  sbtool.py check IMAGE OFFS         one line: primary flag, primary
                                     checksum, backups whose flag differs
                                     from the primary's, backups with a
                                     bad checksum, foreign magic
  sbtool.py flag IMAGE OFF BIT       set (1) or clear (0) the test flag
                                     in the copy at OFF, checksum kept

OFFS is a file with one byte offset per line; the primary is 1024.
"""
import struct
import sys

SB_SIZE = 1024
TEST_FS = 0x0004
RO_COMPAT_METADATA_CSUM = 0x400


def _crc32c_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


CRC_TABLE = _crc32c_table()


def crc32c(data, crc=0xFFFFFFFF):
    # ext4 stores crc32c_le(~0, sb[0:0x3fc]) without the final inversion.
    for b in data:
        crc = CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


class Copy:
    def __init__(self, raw):
        self.raw = raw
        self.magic = struct.unpack_from('<H', raw, 0x38)[0]
        self.ro_compat = struct.unpack_from('<I', raw, 0x64)[0]
        self.flags = struct.unpack_from('<I', raw, 0x160)[0]
        self.csum = struct.unpack_from('<I', raw, 0x3FC)[0]

    @property
    def has_csum(self):
        return bool(self.ro_compat & RO_COMPAT_METADATA_CSUM)

    @property
    def csum_ok(self):
        return not self.has_csum or crc32c(self.raw[:0x3FC]) == self.csum

    @property
    def test(self):
        return 1 if self.flags & TEST_FS else 0


def read_offsets(path):
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


def read_copy(img, off):
    img.seek(off)
    raw = img.read(SB_SIZE)
    if len(raw) != SB_SIZE:
        raise SystemExit(f'sbtool: short read at {off}')
    return raw


def cmd_offsets(log):
    seen = []
    with open(log) as f:
        for line in f:
            words = line.split()
            if words[0] == 'W' and int(words[1]) not in seen:
                seen.append(int(words[1]))
    print('\n'.join(str(o) for o in seen))


def cmd_save(image, offs, save):
    with open(image, 'rb') as img, open(save, 'wb') as out:
        for off in read_offsets(offs):
            out.write(read_copy(img, off))


def cmd_restore(image, offs, save):
    with open(image, 'r+b') as img, open(save, 'rb') as src:
        for off in read_offsets(offs):
            img.seek(off)
            img.write(src.read(SB_SIZE))


def cmd_check(image, offs):
    with open(image, 'rb') as img:
        copies = {off: Copy(read_copy(img, off)) for off in read_offsets(offs)}
    primary = copies.pop(1024)
    stale = sum(1 for c in copies.values() if c.test != primary.test)
    bad = sum(1 for c in copies.values() if not c.csum_ok)
    magic = sum(1 for c in [primary, *copies.values()] if c.magic != 0xEF53)
    print(f'primary={primary.test} csum={"ok" if primary.csum_ok else "bad"}'
          f' stale={stale} badcsum={bad} badmagic={magic}'
          f' backups={len(copies)}')


def cmd_flag(image, off, bit):
    off = int(off)
    with open(image, 'r+b') as img:
        c = Copy(read_copy(img, off))
        flags = c.flags | TEST_FS if bit == '1' else c.flags & ~TEST_FS
        raw = bytearray(c.raw)
        struct.pack_into('<I', raw, 0x160, flags)
        if c.has_csum:
            struct.pack_into('<I', raw, 0x3FC, crc32c(raw[:0x3FC]))
        img.seek(off)
        img.write(raw)


COMMANDS = {'offsets': cmd_offsets, 'save': cmd_save, 'restore': cmd_restore,
            'check': cmd_check, 'flag': cmd_flag}

if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
