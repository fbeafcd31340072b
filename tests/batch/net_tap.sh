#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The tap backend against a real kernel: a network namespace holds a tap
# device with an address; net_probe (a fake NIC on a tap: port) runs inside
# the namespace, gets its ARP request answered by the kernel, sends pattern
# UDP datagrams to a Python receiver there, and receives datagrams a Python
# sender aims at it.  Also: the port creates a tap by itself, and an
# unprivileged user gets an error that names the cause.
# Needs root and /dev/net/tun; skips (exit 77) with a message otherwise.
set -u
probe="${top_builddir:-.}/tests/unit/net/net_probe"
skip() { echo "SKIP: net_tap.sh: $*"; exit 77; }
fail() {
    echo "FAIL: net_tap.sh: $*"
    [ -n "${dir:-}" ] && for f in "$dir"/*.out; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}

need_tap
[ -x "$probe" ] || fail "$probe not built"

ns="xbow-tap-$$"
tap="xbt$$"
dir=$(mktemp -d /tmp/xbow-tap-XXXXXX)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "${top_srcdir:-.}/scripts/netns.sh"
netns_add "$ns" || skip "cannot create a network namespace"

# 1. The port creates a (non-persistent) tap itself; it goes with the port.
inns "$probe" --run "ip link show xbc$$ >/dev/null" "tap:xbc$$" >"$dir/create.out" 2>&1 ||
    fail "the port did not create tap xbc$$: $(cat "$dir/create.out")"
inns ip link show "xbc$$" >/dev/null 2>&1 && fail "tap xbc$$ outlived its port"

# 2. Unprivileged: the error names the cause (skipped if setpriv is missing
#    or nobody cannot run the probe from this directory).
if command -v setpriv >/dev/null 2>&1; then
    setpriv --reuid=65534 --regid=65534 --clear-groups "$probe" "tap:xbn$$" >"$dir/noperm.out" 2>&1
    rc=$?
    [ $rc -ne 0 ] || fail "an unprivileged user opened a tap"
    if [ $rc -eq 126 ] || [ $rc -eq 127 ] || ! grep -q '^net_probe:' "$dir/noperm.out"; then
        echo "note: unprivileged check skipped (nobody cannot run $probe)"
    else
        grep -Eq 'net_probe: tap: cannot (open /dev/net/tun|attach to xbn[0-9]+): .*(needs root|CAP_NET_ADMIN)' \
            "$dir/noperm.out" || fail "unhelpful error: $(cat "$dir/noperm.out")"
    fi
else
    echo "note: setpriv missing, unprivileged error not checked"
fi

# 3. Traffic both ways with the namespace's kernel.
netns_tap "$tap" 10.99.0.1 1500 || fail "ip tuntap add"
inns ip neigh replace 10.99.0.2 lladdr 02:00:00:00:00:01 dev "$tap" nud permanent
kmac=$(inns cat "/sys/class/net/$tap/address")

cat >"$dir/rx.py" <<'PY'
import socket, sys
ready, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.99.0.1", 5555))
s.settimeout(10)
open(ready, "w").close()
good = bad = 0
try:
    while good + bad < n:
        d = s.recv(65536)
        k = int.from_bytes(d[:4], "big")
        if len(d) >= 4 and all(d[i] == (k * 7 + i) & 255 for i in range(4, len(d))):
            good += 1
        else:
            bad += 1
except socket.timeout:
    pass
print("got %d good %d bad" % (good, bad))
PY
cat >"$dir/tx.py" <<'PY'
import socket, sys
n, size = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for k in range(n):
    d = k.to_bytes(4, "big") + bytes((k * 7 + i) & 255 for i in range(4, size))
    s.sendto(d, ("10.99.0.2", 6000))
PY

wait_file() { i=0; while [ ! -e "$1" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done; [ -e "$1" ]; }

inns python3 "$dir/rx.py" "$dir/rx.ready" 20 >"$dir/rx.out" 2>&1 &
rxpid=$!
pids="$pids $rxpid"
wait_file "$dir/rx.ready" || fail "the receiver did not start: $(cat "$dir/rx.out")"

inns "$probe" --mac 02:00:00:00:00:01 --ip 10.99.0.2 --arp 10.99.0.1 --send 10.99.0.1:5555 \
    --count 20 --size 300 --expect 15 --ready "$dir/probe.ready" --pcap "$dir/tap.pcap" \
    "tap:$tap" >"$dir/probe.out" 2>&1 &
probepid=$!
pids="$pids $probepid"
wait_file "$dir/probe.ready" || fail "the probe did not start: $(cat "$dir/probe.out")"
sleep 0.2
inns python3 "$dir/tx.py" 15 1000 || fail "the sender failed"

wait $probepid
prc=$?
wait $rxpid
[ $prc -eq 0 ] || fail "probe failed"
grep -q "^arp 10.99.0.1 is-at $kmac\$" "$dir/probe.out" || fail "no ARP answer from $kmac"
grep -q "^received 15 good, 0 bad\$" "$dir/probe.out" || fail "datagrams from the kernel"
grep -q "^got 20 good 0 bad\$" "$dir/rx.out" || fail "datagrams to the kernel"

if command -v tshark >/dev/null 2>&1; then
    n=$(tshark -r "$dir/tap.pcap" -Y 'udp && !icmp' 2>/dev/null | wc -l)
    [ "$n" -eq 35 ] || fail "capture: $n UDP frames, want 35"
    n=$(tshark -r "$dir/tap.pcap" -Y 'arp.opcode == 2 && arp.src.proto_ipv4 == 10.99.0.1' 2>/dev/null | wc -l)
    [ "$n" -ge 1 ] || fail "capture: no ARP reply"
else
    echo "note: tshark missing, capture not checked"
fi
