#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of fuzz_hamachi (tests/fuzz/corpus/): small programs
in the opcode format documented at the top of fuzz_hamachi.c that drive the
Hamachi the way its Linux driver does.  Run from the source tree root."""
import struct, os

LO = 0x00100000
TXR, RXR = LO + 0x0000, LO + 0x0800

def wr(off, size, v):   # size in bytes
    return bytes([0]) + struct.pack('<HBQ', off, {1: 0, 2: 1, 4: 2, 8: 3}[size], v & (2**64 - 1))
def rd(off, size):
    return bytes([1]) + struct.pack('<HB', off, {1: 0, 2: 1, 4: 2, 8: 3}[size])
def desc(ring, idx, flags, length, buf):
    return bytes([3]) + struct.pack('<BBBHH', ring, idx, flags, length, buf)
def time(ticks):
    return bytes([4]) + struct.pack('<H', min(ticks // 4, 65535))
def frame(length, dst, seed):
    return bytes([5]) + struct.pack('<HBB', length, dst, seed)
def fill(ring, first, count, flags, length, buf):
    return bytes([10]) + struct.pack('<BBBBHH', ring, first, count, flags, length, buf)
def burst(count, length, dst, seed):
    return bytes([11]) + struct.pack('<BHBB', count, length, dst, seed)
def views(w):
    return bytes([8, w])

OWN, EOP, END, INTR, D64, OUT = 1, 2, 4, 8, 16, 32

def open_seq(d64=False, ptr_hi=0):
    s = wr(0x6b, 1, 1) + time(4000)
    s += wr(0x08, 4, TXR) + wr(0x0c, 4, ptr_hi) + wr(0x28, 4, RXR) + wr(0x2c, 4, ptr_hi)
    for i, b in enumerate([0x02, 0x58, 0x42, 0, 0, 1]):
        s += wr(0xd2 + i, 1, b)
    s += wr(0xce, 2, 1518) + wr(0x78, 4, 0x300000) + wr(0x7c, 4, 0x180511)
    s += wr(0xd0, 2, 1) + wr(0x80, 4, 0x80878787) + wr(0x8c, 2, 0)
    f = D64 if d64 else 0
    for i in range(4):
        s += desc(1, i, OWN | EOP | INTR | f | (END if i == 3 else 0), 1536, 0x2000 + i * 0x800)
    ctrl = 0x5d if d64 else 0x1d
    s += wr(0x20, 2, ctrl) + wr(0x00, 2, ctrl) + wr(0x24, 2, 1)
    return s

def tx(idx, length, flags=OWN | EOP | INTR, d64=False):
    return desc(0, idx, flags | (D64 if d64 else 0), length, 0x6000 + idx * 0x100) + rd(0x06, 2) + wr(0x04, 2, 1)

seeds = {
    'linux-open-tx-rx': open_seq() + tx(0, 200) + tx(1, 60) + time(20000) + frame(1514, 0, 1)
        + frame(60, 1, 2) + time(20000) + rd(0x84, 4) + views(0) + views(5),
    'desc64': open_seq(True) + tx(0, 300, d64=True) + time(20000) + frame(300, 0, 3)
        + time(9000) + rd(0x84, 4) + views(4),
    'walk-on-and-faults': open_seq() + tx(0, 100, OWN) + tx(1, 100, OWN | EOP) + tx(2, 64, OWN | EOP | OUT)
        + time(30000) + rd(0x84, 4) + frame(100, 2, 4) + wr(0xd0, 2, 0x0f) + frame(100, 3, 5)
        + time(30000) + bytes([6, 0]) + tx(3, 80) + time(3000) + bytes([7]) + rd(0x06, 2),
    'coalesce-per-word': bytes([9, 1]) + open_seq() + wr(0x78, 4, 0x040201) + b''.join(tx(i, 100 + i) for i in range(6))
        + time(60000) + frame(1000, 0, 6) + frame(1000, 0, 7) + time(60000) + rd(0x84, 4),
    'jumbo-reset-mid-frame': open_seq() + wr(0xce, 2, 9018) + frame(9000, 0, 8) + time(50000)
        + tx(0, 500, OWN) + time(1000) + wr(0x6b, 1, 1) + frame(200, 1, 9) + wr(0x24, 4, 2),
    'long-ring-burst-an-mii': open_seq() + fill(0, 0, 64, OWN | EOP | END, 64, 0x6000)
        + rd(0x06, 2) + wr(0x04, 2, 1) + time(2000) + fill(1, 0, 64, OWN | EOP | INTR | END, 128, 0x2000)
        + wr(0x24, 2, 1) + burst(200, 100, 0, 1) + time(4000) + wr(0xe0, 2, 0x1200)
        + wr(0xa8, 2, 0x0101) + wr(0xa6, 2, 1) + rd(0xac, 2) + time(60000) + rd(0xe2, 2)
        + rd(0x84, 4) + rd(0x36c, 4),
}
os.makedirs('tests/fuzz/corpus', exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join('tests/fuzz/corpus', name), 'wb') as f:
        f.write(data)
