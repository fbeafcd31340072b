#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of fuzz_tigon (tests/fuzz/corpus_tigon/): small
programs in the opcode format documented at the top of fuzz_tigon.c that
drive the Tigon2 the way Linux acenic, Plan 9 and FreeBSD do.  Run from the
source tree root."""
import struct, os

def wr(off, v, size=4):
    return bytes([0]) + struct.pack('<HBI', off, {1: 0, 2: 1, 4: 2, 8: 3}[size], v & 0xffffffff)
def rd(off, size=4):
    return bytes([1]) + struct.pack('<HB', off, {1: 0, 2: 1, 4: 2, 8: 3}[size])
def mbox(which, v):   # 0 Hi, 1 cmd, 2 tx, 3 std, 4 jumbo, 5 mini
    return bytes([3, which]) + struct.pack('<H', v)
def cmd(code, sub=0, idx=0):
    return bytes([4, code, sub]) + struct.pack('<H', idx)
def us(t):
    return bytes([5]) + struct.pack('<H', min(t * 180 // 8, 65535))
def frame(length, dst=0, seed=1, kind=0):
    return bytes([6]) + struct.pack('<HBBB', length, dst, seed, kind)
def send(length, frags=1, flags=0, vlan=0):
    return bytes([7]) + struct.pack('<HBHH', length, frags, flags, vlan)
def post(ring, count, size):
    return bytes([8, ring, count]) + struct.pack('<H', size)
def gcr(off, v):
    return bytes([14, (off - 0x600) // 4]) + struct.pack('<I', v)
def views(w):
    return bytes([11, w])

seeds = {
    'linux-rx-tx': bytes([2]) + frame(200) + frame(1514, 1, 2) + frame(60, 0, 3, 1) + us(300)
        + send(300, 1) + send(1514, 3, 1) + send(100, 1, 0x800) + us(500) + frame(300, 0, 4, 3)
        + us(200) + views(0) + views(8) + views(0x90) + rd(0x480 + 4 * 31),
    'plan9-isr': bytes([2, 13, 0]) + mbox(0, 1) + frame(100, 1, 5) + cmd(0x04) + us(200)
        + mbox(0, 0) + us(10) + bytes([13, 1]) + gcr(0x634, 0) + send(200) + us(100),
    'jumbo': bytes([2]) + gcr(0x660, 9018) + post(1, 8, 9018) + frame(9014, 0, 6) + us(300)
        + cmd(0x05) + us(50) + frame(9014, 0, 7) + us(100) + post(1, 2, 9018) + us(100),
    'sram-send-ring': bytes([4]) + send(400, 2) + send(60) + us(600) + views(0),
    'raw-pio': bytes([5]) + frame(500, 0, 8, 1) + send(500, 1, 1) + us(600) + rd(0x40),
    'faults': bytes([2, 9, 0]) + send(100) + frame(100) + us(100) + bytes([9, 1]) + mbox(2, 5)
        + mbox(3, 600) + us(100) + bytes([15, 1]) + gcr(0x608, 0x7f) + bytes([15, 0]) + us(300)
        + bytes([10, 1]) + frame(100) + us(100),
    'per-word-coal': bytes([2, 12, 1]) + gcr(0x630, 50) + gcr(0x640, 3) + frame(700)
        + frame(701) + frame(702) + frame(703) + us(100) + send(1000, 4) + us(500),
    'power-on': bytes([0]) + wr(0x40, 0x08000008) + us(20) + wr(0x140, 0x10000) + wr(0x68, 0x4000)
        + wr(0x800, 0x12345678) + wr(0x144, 0x4000) + wr(0x140, 0) + us(300) + rd(0x140)
        + rd(0x44) + wr(0x44, 0x300000) + wr(0x44, 0x700000) + rd(0x44, 2) + wr(0x504, 1, 2),
}
os.makedirs('tests/fuzz/corpus_tigon', exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join('tests/fuzz/corpus_tigon', name), 'wb') as f:
        f.write(data)
