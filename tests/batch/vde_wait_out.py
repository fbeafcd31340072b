#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# vde_wait_out.py MGMT N: wait (60 s at most) until the vde_switch whose
# management socket is MGMT (vde_switch -M MGMT) has sent N frames out of
# its ports in all (the OUT pkts of `port/print`, summed), and say how many.
# The switch counts a frame as it hands it to a port's socket, in the same
# step, so when the count is reached the frames are in the receivers'
# sockets: a test waits for the switch, not for a time, on a loaded host.
# Exit status 0 if the count was reached, 1 if not.
import socket
import sys
import time

mgmt, want = sys.argv[1], int(sys.argv[2])


def out_total():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(mgmt)
    s.sendall(b"port/print\n")
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
        if b"1000 Success" in data:
            break
    s.close()
    total = 0
    for line in data.decode(errors="replace").splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "OUT:" and f[1] == "pkts":
            total += int(f[2])
    return total


deadline = time.monotonic() + 60
n = out_total()
while n < want and time.monotonic() < deadline:
    time.sleep(0.02)
    n = out_total()
print("switch: %d frames out" % n)
sys.exit(0 if n >= want else 1)
