#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Summarise a capture written by xbow --pcap for the NIC batch tests:
frames and bytes each way (from = the NIC's MAC), IPv4/UDP payloads checked
against the pattern of docs/networking.md with the payload sum (the sum of
FNV-1a over k and the payload length, as `sink` and `gen` compute it), and
ICMP echo requests/replies.  Prints lines the tests grep:
  tx frames N bytes B udp-good G udp-bad X payload-sum 0x........
  rx frames N bytes B udp-good G udp-bad X payload-sum 0x........
  icmp requests N replies M
usage: pcap_stats.py FILE NIC-MAC"""
import struct, sys

from pcap_lib import fnv, frames

def udp_payload(f):
    if len(f) < 42 or f[12:14] != b'\x08\x00' or f[14] >> 4 != 4 or f[23] != 17:
        return None
    ihl = (f[14] & 15) * 4
    tot = struct.unpack('>H', f[16:18])[0]
    u = 14 + ihl
    if 14 + tot > len(f) or tot < ihl + 8:
        return None
    ulen = struct.unpack('>H', f[u + 4:u + 6])[0]
    return f[u + 8:u + ulen]

def main():
    path, mac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(':', ''))
    st = {d: dict(frames=0, bytes=0, good=0, bad=0, sum=0) for d in ('tx', 'rx')}
    req = rep = 0
    for f in frames(path):
        s = st['tx' if f[6:12] == mac else 'rx']
        s['frames'] += 1
        s['bytes'] += len(f)
        pl = udp_payload(f)
        if pl is not None and len(pl) >= 4:
            k = struct.unpack('>I', pl[:4])[0]
            if all(pl[i] == (k * 7 + i) & 0xff for i in range(4, len(pl))):
                s['good'] += 1
                s['sum'] = (s['sum'] + fnv(k, len(pl))) & 0xffffffff
            else:
                s['bad'] += 1
        if len(f) >= 35 and f[12:14] == b'\x08\x00' and f[23] == 1:
            req += f[34] == 8
            rep += f[34] == 0
    for d in ('tx', 'rx'):
        s = st[d]
        print('%s frames %d bytes %d udp-good %d udp-bad %d payload-sum 0x%08x'
              % (d, s['frames'], s['bytes'], s['good'], s['bad'], s['sum']))
    print('icmp requests %d replies %d' % (req, rep))

main()
