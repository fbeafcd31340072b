# SPDX-License-Identifier: GPL-2.0-or-later
"""What the capture readers of the batch tests share (e1000_pcap.py,
ttcp_pcap.py, pcap_stats.py): the frames of a pcap file, the Internet
checksum, and the FNV-1a hash of xbow's payload pattern (net_payload_hash)."""
import struct


def frames(path):
    """Each frame of the capture at path, as bytes, in order (either byte
    order of the pcap header)."""
    raw = open(path, 'rb').read()
    magic = struct.unpack('<I', raw[:4])[0]
    end = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    pos = 24
    while pos + 16 <= len(raw):
        incl = struct.unpack(end + 'IIII', raw[pos:pos + 16])[2]
        yield raw[pos + 16:pos + 16 + incl]
        pos += 16 + incl


def csum(data):
    """The ones' complement sum of data's 16-bit words (0xffff over a
    correct checksum)."""
    if len(data) & 1:
        data += b'\0'
    s = sum(struct.unpack('>%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def udp_bad(ip, l4):
    """Whether the UDP datagram l4 of the IPv4 packet ip carries a checksum
    (not 0) that does not hold over its pseudo-header and its bytes."""
    ulen, uc = struct.unpack('>HH', l4[4:8])
    pseudo = ip[12:20] + struct.pack('>BBH', 0, 17, ulen)
    return uc != 0 and csum(pseudo + l4[:ulen]) != 0xffff


def fnv(k, n):
    """FNV-1a over k and n, big-endian 32-bit words."""
    h = 2166136261
    for b in struct.pack('>II', k, n):
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h
