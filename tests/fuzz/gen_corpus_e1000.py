#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of fuzz_e1000 (tests/fuzz/corpus-e1000/): small
programs in the opcode format documented at the top of fuzz_e1000.c that
drive an 82543 or 82544 the way Linux's e1000 driver does.  Run from the
source tree root."""
import struct, os

KNOWN = [0x0000, 0x0008, 0x0010, 0x0014, 0x0018, 0x0020, 0x0038, 0x00c0, 0x00c8, 0x00d0, 0x00d8,
         0x0100, 0x0400, 0x1000, 0x2800, 0x2804, 0x2808, 0x2810, 0x2818, 0x2820, 0x3800, 0x3804,
         0x3808, 0x3810, 0x3818, 0x3820, 0x5000, 0x5200, 0x5204, 0x5400, 0x5404, 0x5408, 0x540c,
         0x5600, 0x4010, 0x408c, 0x40a0, 0x40f8, 0x3830, 0x2828]
LO = 0x00100000
SIZE = {1: 0, 2: 1, 4: 2, 8: 3}

def wr(off, v, size=4):
    sel = KNOWN.index(off) if off in KNOWN else 255
    return bytes([0]) + struct.pack('<BHBI', sel, off, SIZE[size], v & 0xffffffff)
def rd(off, size=4):
    sel = KNOWN.index(off) if off in KNOWN else 255
    return bytes([1]) + struct.pack('<BHB', sel, off, SIZE[size])
def desc(ring, idx, kind, cmd, length, buf, w3=0):
    return bytes([3]) + struct.pack('<BBBBHHH', ring, idx, kind, cmd, length, buf, w3)
def time(ticks):
    return bytes([4]) + struct.pack('<H', min(ticks // 8, 65535))
def frame(kind, length, dst, seed):
    return bytes([5]) + struct.pack('<BHBB', kind, length, dst, seed)
def fill(ring, first, count, kind, cmd, length):
    return bytes([10]) + struct.pack('<BBBBBH', ring, first, count, kind, cmd, length)
def burst(count, kind, length, dst):
    return bytes([11]) + struct.pack('<BBHB', count, kind, length, dst)
def io(write, off, v):
    return bytes([12]) + struct.pack('<BBI', write, off, v)
def mdio(bits):
    return bytes([13, len(bits)]) + bytes(bits)
def eeprom(word):
    return bytes([14, word])
def ctx(idx, ipcss, tucss, hdr, mss, paylen, tucmd):
    return bytes([15]) + struct.pack('<BBBBHHB', idx, ipcss, tucss, hdr, mss, paylen, tucmd)
def views(w):
    return bytes([8, w])

EOP, IFCS, IC, RS, RPS, DEXT, VLE, IDE = 1, 2, 4, 8, 16, 32, 64, 128
TSE = 4
LEGACY, DATA, CONTEXT, OUTSIDE = 0, 1, 2, 0x80

def open_seq(i82544=True, rctl_extra=0, nrx=16):
    s = b''
    if i82544:
        s += io(1, 0, 0) + io(1, 4, 0x04000041)      # CTRL.RST through the I/O window
    else:
        s += wr(0x0000, 0x04000041)
    s += wr(0x0018, 0x2000) + b''.join(eeprom(w) for w in (0, 1, 2, 0x3f))
    s += wr(0x0000, 0x00000041 if i82544 else 0x00001a41) + time(400000)
    s += wr(0x3808, 64 * 16) + wr(0x3804, 0) + wr(0x3800, LO) + wr(0x3818, 0) + wr(0x3810, 0)
    s += wr(0x3820, 0) + wr(0x0400, 0x3f0fa)
    s += fill(1, 0, nrx, 0, 0, 2048)
    s += wr(0x2820, 0) + wr(0x2808, nrx * 16) + wr(0x2804, 0) + wr(0x2800, LO + 0x1000)
    s += wr(0x2818, 0) + wr(0x2810, 0) + wr(0x5000, 0x300) + wr(0x0100, 0x8002 | rctl_extra)
    s += wr(0x2818, nrx - 1) + wr(0x00d0, 0x9d) + rd(0x00c0)
    return s

def tx(idx, length, cmd=EOP | IFCS | RS, kind=LEGACY, w3=0):
    return desc(0, idx, kind, cmd, length, idx * 0x400, w3)

seeds = {
    'linux-82544-tx-rx': bytes([0]) + open_seq() + tx(0, 200) + tx(1, 60) + wr(0x3818, 2)
        + time(20000) + frame(0, 1514, 0, 1) + frame(1, 600, 1, 2) + frame(2, 300, 0, 3)
        + time(20000) + rd(0x00c0) + views(0) + views(4) + views(5) + rd(0x4010) + rd(0x408c),
    'linux-82543-bitbang-phy': bytes([1]) + open_seq(False)
        + mdio([7, 5, 7, 5] * 16 + [4, 6, 5, 7, 4, 6, 5, 7, 4, 6, 4, 6, 5, 7, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2])
        + tx(0, 100) + wr(0x3818, 1) + time(10000) + frame(0, 100, 0, 4) + time(10000) + views(5),
    'checksum-offload': bytes([0]) + open_seq() + ctx(0, 14, 34, 54, 0, 0, 0x02)
        + tx(1, 600, EOP | IFCS | RS, DATA, 0x3) + tx(2, 300, EOP | IFCS | IC, LEGACY, 0x22)
        + wr(0x3818, 3) + time(20000) + frame(2, 400, 0, 5) + time(9000) + rd(0x00c0),
    'tso-82544': bytes([0]) + open_seq() + ctx(0, 14, 34, 54, 1448, 4000, 0x07)
        + tx(1, 1054, IFCS | TSE, DATA, 0x3) + tx(2, 3000, EOP | IFCS | TSE | RS, DATA, 0x3)
        + wr(0x3818, 3) + time(60000) + rd(0x40f8) + views(6),
    'jumbo-multibuffer-rdtr': bytes([0]) + open_seq(True, 0x20) + wr(0x2820, 100)
        + frame(0, 9000, 0, 6) + time(40000) + wr(0x2820, 0x80000064) + rd(0x00c0)
        + tx(0, 4000, IFCS) + tx(1, 4000, IFCS) + tx(2, 1000) + wr(0x3818, 3) + time(40000),
    'overrun-reset-faults': bytes([0]) + open_seq(True, 0, 8) + burst(120, 0, 1000, 0) + time(8000)
        + rd(0x40a0) + rd(0x4010) + tx(0, 500, IFCS) + wr(0x3818, 1) + time(1000)
        + wr(0x0000, 0x04000041) + tx(1, 100, EOP | IFCS | RS, LEGACY | OUTSIDE) + bytes([6, 0])
        + wr(0x3808, 0) + wr(0x3818, 200) + time(4000) + bytes([7]) + rd(0x0008),
    'filters-vlan-82543': bytes([1]) + open_seq(False) + wr(0x5408, 0x11111102) + wr(0x540c, 0x80001111)
        + wr(0x0038, 0x8100) + wr(0x0000, 0x40001a41) + frame(3, 200, 0, 7) + frame(0, 200, 2, 8)
        + wr(0x0100, 0x4801a) + frame(3, 300, 0, 9) + time(20000) + views(3) + bytes([9, 1])
        + frame(1, 700, 0, 10) + time(20000),
}
os.makedirs('tests/fuzz/corpus-e1000', exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join('tests/fuzz/corpus-e1000', name), 'wb') as f:
        f.write(data)
