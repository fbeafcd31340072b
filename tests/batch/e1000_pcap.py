#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Count what a capture holds, independently of xbow: frames, bytes, the
payload sum of xbow's pattern (FNV-1a of k and the payload length, summed
mod 2^32, as net_payload_hash; for ICMP echo, k is the sequence number and
the pattern starts after the ICMP header), bad IPv4 and UDP/ICMP checksums, payloads
that break the pattern, ICMP echo requests and replies.
Usage: e1000_pcap.py FILE [--src MAC] [--not-src MAC] [--frames]
Prints: frames=N bytes=N sum=0xXXXXXXXX badip=N badl4=N badpayload=N udp=N
        icmp-req=N icmp-rep=N jumbo=N (frames longer than 1514 bytes)
With --frames: each frame's bytes in hex, one a line, without the capture
times (to compare two captures' frames whatever their timing)."""
import struct, sys

from pcap_lib import csum, fnv, frames, udp_bad

def main():
    path = sys.argv[1]
    src = nsrc = None
    args = sys.argv[2:]
    dump = '--frames' in args
    if dump:
        args.remove('--frames')
    while args:
        opt, val = args[0], bytes.fromhex(args[1].replace(':', ''))
        if opt == '--src':
            src = val
        elif opt == '--not-src':
            nsrc = val
        args = args[2:]
    c = dict(frames=0, bytes=0, sum=0, badip=0, badl4=0, badpayload=0, udp=0, req=0, rep=0, jumbo=0)
    for f in frames(path):
        if (src and f[6:12] != src) or (nsrc and f[6:12] == nsrc):
            continue
        if dump:
            print(f.hex())
            continue
        c['frames'] += 1
        c['bytes'] += len(f)
        c['jumbo'] += len(f) > 1514
        if len(f) < 34 or f[12:14] != b'\x08\x00':
            continue
        ip = f[14:]
        ihl = (ip[0] & 15) * 4
        tot = struct.unpack('>H', ip[2:4])[0]
        if csum(ip[:ihl]) != 0xffff:
            c['badip'] += 1
        l4 = ip[ihl:tot]
        if ip[9] == 17 and len(l4) >= 8:
            c['udp'] += 1
            ulen = struct.unpack('>H', l4[4:6])[0]
            if udp_bad(ip, l4):
                c['badl4'] += 1
            pl = l4[8:ulen]
            k = struct.unpack('>I', pl[:4])[0] if len(pl) >= 4 else 0
            if len(pl) < 4 or any(pl[i] != (k * 7 + i) & 0xff for i in range(4, len(pl))):
                c['badpayload'] += 1
            else:
                c['sum'] = (c['sum'] + fnv(k, len(pl))) & 0xffffffff
        elif ip[9] == 1 and len(l4) >= 8:
            if csum(l4) != 0xffff:
                c['badl4'] += 1
            if l4[0] in (0, 8):
                c['req' if l4[0] == 8 else 'rep'] += 1
                seq = struct.unpack('>H', l4[6:8])[0]
                if any(l4[i] != (seq * 7 + i) & 0xff for i in range(8, len(l4))):
                    c['badpayload'] += 1
                else:
                    c['sum'] = (c['sum'] + fnv(seq, len(l4) - 8)) & 0xffffffff
    if dump:
        return
    print('frames=%d bytes=%d sum=0x%08x badip=%d badl4=%d badpayload=%d udp=%d icmp-req=%d '
          'icmp-rep=%d jumbo=%d' % (c['frames'], c['bytes'], c['sum'], c['badip'], c['badl4'],
                                    c['badpayload'], c['udp'], c['req'], c['rep'], c['jumbo']))

main()
