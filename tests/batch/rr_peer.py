#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A host on the other end of xbow's socket:udp backend, for the record and
replay tests: one Ethernet frame (no FCS) per UDP datagram.

It is 10.0.2.2 at 02:00:00:00:00:02: it answers ARP for that address and
ICMP echo requests, counts the UDP datagrams sent to it, and, once it has
heard from the guest, sends it NOISE UDP datagrams (to port 9, discard) at
host-timed intervals, so that what the guest receives and when depends on
the host: exactly what a recording must capture.

  rr_peer.py PORTFILE STATSFILE [NOISE [echo]]

With "echo", every UDP datagram the guest sends comes back to it (to port
9, discard) at once, the same size: traffic into the guest as heavy as out.

It binds 127.0.0.1 on a free port, writes the port number to PORTFILE,
answers the first sender's address, and writes its counts to STATSFILE on
SIGTERM or after 10 minutes.
"""
import signal
import socket
import struct
import sys
import time

MAC = bytes.fromhex("020000000002")
IP = socket.inet_aton("10.0.2.2")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def ip_packet(src, dst, proto, payload, ident):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0, 64, proto, 0, src, dst)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def main():
    portfile, statsfile = sys.argv[1], sys.argv[2]
    noise = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    echo_udp = len(sys.argv) > 4 and sys.argv[4] == "echo"
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    st = {"frames": 0, "arp": 0, "echo": 0, "udp": 0, "udp_bytes": 0, "noise": 0}
    peer = None
    guest_mac = None
    guest_ip = None
    done = [False]

    def stop(*_):
        done[0] = True

    signal.signal(signal.SIGTERM, stop)
    s.settimeout(0.05)
    end = time.time() + 600
    next_noise = None
    ident = 1
    while not done[0] and time.time() < end:
        try:
            f, addr = s.recvfrom(65536)
        except socket.timeout:
            f = None
        except InterruptedError:
            continue
        now = time.time()
        if f is not None:
            st["frames"] += 1
            peer = addr
            if len(f) >= 42 and f[12:14] == b"\x08\x06":  # ARP
                op = struct.unpack("!H", f[20:22])[0]
                if op == 1 and f[38:42] == IP:
                    st["arp"] += 1
                    guest_mac, guest_ip = f[22:28], f[28:32]
                    rep = (f[6:12] + MAC + b"\x08\x06" + f[14:20] + b"\x00\x02" + MAC + IP +
                           f[22:28] + f[28:32])
                    s.sendto(rep, peer)
            elif len(f) >= 34 and f[12:14] == b"\x08\x00" and f[30:34] == IP:
                ihl = (f[14] & 15) * 4
                proto = f[23]
                l4 = f[14 + ihl:14 + struct.unpack("!H", f[16:18])[0]]
                guest_mac, guest_ip = f[6:12], f[26:30]
                if proto == 1 and len(l4) >= 8 and l4[0] == 8:  # echo request
                    st["echo"] += 1
                    icmp = b"\x00\x00\x00\x00" + l4[4:]
                    icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
                    ident += 1
                    s.sendto(f[6:12] + MAC + b"\x08\x00" + ip_packet(IP, guest_ip, 1, icmp, ident & 0xFFFF),
                             peer)
                elif proto == 17:
                    st["udp"] += 1
                    st["udp_bytes"] += max(0, len(l4) - 8)
                    if echo_udp and len(l4) >= 8:
                        back = struct.pack("!HHHH", 4000, 9, len(l4), 0) + l4[8:]
                        ident += 1
                        s.sendto(f[6:12] + MAC + b"\x08\x00" +
                                 ip_packet(IP, guest_ip, 17, back, ident & 0xFFFF), peer)
            if next_noise is None and guest_ip is not None:
                next_noise = now + 0.1
        if next_noise is not None and now >= next_noise and st["noise"] < noise:
            n = st["noise"]
            payload = b"noise %d " % n + bytes(range(32))
            udp = struct.pack("!HHHH", 4000 + n, 9, 8 + len(payload), 0) + payload
            ident += 1
            s.sendto(guest_mac + MAC + b"\x08\x00" + ip_packet(IP, guest_ip, 17, udp, ident & 0xFFFF),
                     peer)
            st["noise"] += 1
            next_noise = now + 0.05 * (1 + n % 3)
    with open(statsfile, "w") as f:
        f.write(" ".join("%s=%d" % kv for kv in sorted(st.items())) + "\n")


if __name__ == "__main__":
    main()
