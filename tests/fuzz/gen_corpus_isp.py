#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of tests/fuzz/fuzz_isp.c (tests/fuzz/corpus-isp):
programs in its opcode language that bring the ISP up as qla1280 does and
run SCSI commands, plus a few that poke the chip with garbage."""
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus-isp")
os.makedirs(out, exist_ok=True)


def iocb(idx, typ, count, target, flags, nsegs, cdb, seglen):
    cdb = bytes(cdb) + bytes(12 - len(cdb))
    return bytes([5, idx, typ, count, target, flags, nsegs]) + cdb + struct.pack("<H", seglen)


def doorbell(n):
    return bytes([6, n])


ISR = bytes([7])
UP = bytes([8])
TIME = bytes([4, 0xff, 0xff])

seeds = {
    # INQUIRY, TEST UNIT READY (unit attention), READ CAPACITY, READ(10), WRITE(10)
    "linux-scan": UP + iocb(0, 9, 1, 1, 0x20, 1, [0x12, 0, 0, 0, 36], 36) + doorbell(1) + TIME + ISR
    + iocb(1, 9, 1, 1, 0, 0, [0], 0) + doorbell(2) + TIME + ISR
    + iocb(2, 9, 1, 1, 0x20, 1, [0x25], 8) + doorbell(3) + TIME + ISR
    + iocb(3, 9, 1, 1, 0x20, 1, [0x28, 0, 0, 0, 0, 2, 0, 0, 4], 2048) + doorbell(4) + TIME + ISR
    + iocb(4, 9, 1, 1, 0x40, 1, [0x2a, 0, 0, 0, 0, 2, 0, 0, 4], 2048) + doorbell(5) + TIME + ISR,
    # every target, selection timeouts, out-of-range LBAs, direction mismatch
    "targets-errors": UP + b"".join(iocb(i, 9, 1, i, 0x20, 1, [0x28, 0, 0, 0xff, 0, 0, 0, 0, 1], 512)
                                    for i in range(16)) + doorbell(16) + TIME * 20 + ISR * 4,
    # continuations that are not, counts beyond the in-pointer, garbage types
    "garbage": UP + iocb(0, 9, 3, 1, 0x20, 7, [0x28, 0, 0, 0, 0, 0, 0, 0, 7], 512)
    + iocb(1, 0x33, 1, 0, 0, 0, [], 0) + iocb(2, 0x0a, 1, 0, 0, 0, [], 0) + doorbell(3) + TIME + ISR
    + doorbell(200) + bytes([2, 0x18, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + ISR,
    # mailbox commands with odd values, RISC resets, PCI reset in the middle
    "mailbox-chaos": UP + bytes([2, 0x52, 0xff, 0xff, 0, 0, 0x34, 0x12, 9, 0, 0, 0, 0, 0, 0, 0])
    + bytes([0, 0xc0, 0x00, 0x10]) + bytes([2, 0x06, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0])
    + bytes([0, 0xc0, 0x00, 0x30]) + bytes([9]) + UP + bytes([11, 0])
    + iocb(0, 9, 1, 1, 0x20, 1, [0x12, 0, 0, 0, 36], 36) + doorbell(1) + TIME + ISR + bytes([10, 1]),
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
