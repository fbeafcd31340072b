#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of fuzz_ioc3 (tests/fuzz/corpus-ioc3/): small
programs in the opcode format documented at the top of fuzz_ioc3.c that
drive the IOC3 Ethernet the way Linux's ioc3-eth does.  Run from the source
tree root."""
import os, struct

SIZE = {1: 0, 2: 1, 4: 2, 8: 3}
# EMCR as Linux runs it: DUPLEX PADEN RXOFF=5 RAMPAR BUFSIZ TXDMAEN TXEN RXDMAEN (+RXEN)
EMCR = 0x1 | 0x4 | (5 << 3) | 0x200 | 0x1000 | 0x2000 | 0x4000 | 0x8000

def wr(off, v, size=4):
    return bytes([0]) + struct.pack('<HBQ', (off - 0xf0) & 0x7c, SIZE[size], v)
def rd(off, size=4):
    return bytes([1]) + struct.pack('<HB', (off - 0xf0) & 0x7c, SIZE[size])
def ssram(word, v):
    return bytes([0]) + struct.pack('<HBQ', 0x8000 | word, 2, v)
def txd(idx, cmd, cnt, p1=0, p2=0):
    return bytes([3]) + struct.pack('<BIIHH', idx, cmd, cnt, p1, p2)
def time(ticks):
    return bytes([4]) + struct.pack('<H', min(ticks // 4, 65535))
def frame(length, dst, seed):
    return bytes([5]) + struct.pack('<HBB', length, dst, seed)
def views(w):
    return bytes([8, w])
def dma(per_word):
    return bytes([9, per_word])
def post(first, count, off):
    return bytes([10]) + struct.pack('<BBH', first, count, off)
def burst(count, length, dst):
    return bytes([11]) + struct.pack('<BHBB', count, length, dst, 0)
def open_nic(emcr=EMCR):
    return bytes([12]) + struct.pack('<H', emcr)

INTWHENDONE, D0V, B1V, B2V, DOCSUM = 0x1000, 0x10000, 0x20000, 0x40000, 0x80000
seeds = {
    # Linux's open, 64 buffers, a few frames in, ERPIR re-armed, EISR acked.
    'rx-linux': post(0, 16, 0x4000) + open_nic() + wr(0x110, 16 << 3 | 1 << 31)
        + burst(8, 300, 0) + time(20000) + rd(0xf4) + wr(0xf4, 0xffffffff)
        + wr(0x110, 24 << 3 | 1 << 31) + views(0) + views(1),
    # Tx: inline, one buffer, two buffers, checksum; ETPIR after each.
    'tx-linux': open_nic() + txd(0, 60 | INTWHENDONE | D0V, 60)
        + txd(1, 1000 | INTWHENDONE | B1V | DOCSUM | (40 << 20), 1000 << 8, 0x4000)
        + txd(2, 1514 | B1V | B2V, 700 << 8 | 814 << 20, 0x4800, 0x5800)
        + wr(0x134, 3 << 7) + time(40000) + rd(0x130) + rd(0xf4) + views(2),
    # Bad pointers: the Rx ring and a Tx buffer outside RAM.
    'dma-errors': post(0, 4, 0x8000) + open_nic() + wr(0x110, 4 << 3 | 1 << 31) + frame(100, 0, 1)
        + txd(0, 200 | B1V, 200 << 8, 0x8100) + wr(0x134, 1 << 7) + time(20000) + rd(0xf4)
        + open_nic() + views(3),
    # MII frames, SSRAM probe, resets while busy, per-word payload.
    'mii-ssram-reset': wr(0x148, 31 << 5 | 2 | 0x400) + rd(0x148) + time(8000) + rd(0x14c)
        + wr(0x150, 0x0061) + wr(0x148, 31 << 5 | 4) + ssram(0, 0x5555) + ssram(0x4000, 0xaaaa)
        + dma(1) + post(0, 16, 0x4000) + open_nic() + wr(0x110, 16 << 3) + burst(20, 1514, 1)
        + time(60000) + wr(0xf0, 1 << 31)
        + time(8000) + open_nic() + burst(4, 60, 2),
}
os.makedirs('tests/fuzz/corpus-ioc3', exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join('tests/fuzz/corpus-ioc3', name), 'wb') as f:
        f.write(data)
