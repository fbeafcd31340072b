#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Account for a guest ttcp transmitter's datagrams in a capture written by
xbow --pcap, independently of xbow and of the guest: IPv4/UDP frames from
--src MAC to destination port --port (default 5001), split into sentinels
(payload of 4 bytes or fewer) and data messages.  Each data message is
checked against ttcp's pattern (byte i == (byte 0 + i) & 0xff, message k
starting at (k*7) & 0xff, so k mod 256 must follow on), its IPv4 header
checksum and its UDP checksum (when not 0).  cksum is ttcp's checksum: the
sum of every data payload byte mod 2^32, to compare with the ttcp-t line.
IP fragments are counted as such (frag=N) and not reassembled.
Usage: ttcp_pcap.py FILE --src MAC [--port N]
Prints: frames=N udp=N data=N sentinels=N bytes=N cksum=0xXXXXXXXX
        bad=N seqerr=N badip=N badl4=N frag=N other=N maxframe=N"""
import struct, sys

from pcap_lib import csum, frames, udp_bad


def main():
    path = sys.argv[1]
    src, port = None, 5001
    args = sys.argv[2:]
    while args:
        if args[0] == '--src':
            src = bytes.fromhex(args[1].replace(':', ''))
        elif args[0] == '--port':
            port = int(args[1])
        else:
            sys.exit('usage: ttcp_pcap.py FILE --src MAC [--port N]')
        args = args[2:]
    c = dict(frames=0, udp=0, data=0, sentinels=0, bytes=0, cksum=0, bad=0, seqerr=0,
             badip=0, badl4=0, frag=0, other=0, maxframe=0)
    nextk = None
    for f in frames(path):
        if src and f[6:12] != src:
            continue
        c['frames'] += 1
        c['maxframe'] = max(c['maxframe'], len(f))
        if len(f) < 34 or f[12:14] != b'\x08\x00' or f[14] >> 4 != 4:
            c['other'] += 1
            continue
        ip = f[14:]
        ihl = (ip[0] & 15) * 4
        tot = struct.unpack('>H', ip[2:4])[0]
        if csum(ip[:ihl]) != 0xffff:
            c['badip'] += 1
        if struct.unpack('>H', ip[6:8])[0] & 0x3fff:
            c['frag'] += 1
            continue
        l4 = ip[ihl:tot]
        if ip[9] != 17 or len(l4) < 8 or struct.unpack('>H', l4[2:4])[0] != port:
            c['other'] += 1
            continue
        c['udp'] += 1
        ulen = struct.unpack('>H', l4[4:6])[0]
        if udp_bad(ip, l4):
            c['badl4'] += 1
        pl = l4[8:ulen]
        if len(pl) <= 4:
            c['sentinels'] += 1
            continue
        c['data'] += 1
        c['bytes'] += len(pl)
        c['cksum'] = (c['cksum'] + sum(pl)) & 0xffffffff
        if any(pl[i] != (pl[0] + i) & 0xff for i in range(len(pl))):
            c['bad'] += 1
        k = (pl[0] * 183) & 0xff
        if nextk is not None and k != nextk:
            c['seqerr'] += 1
        nextk = (k + 1) & 0xff
    print('frames=%(frames)d udp=%(udp)d data=%(data)d sentinels=%(sentinels)d bytes=%(bytes)d '
          'cksum=0x%(cksum)08x bad=%(bad)d seqerr=%(seqerr)d badip=%(badip)d badl4=%(badl4)d '
          'frag=%(frag)d other=%(other)d maxframe=%(maxframe)d' % c)


main()
