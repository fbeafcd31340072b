#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux (make linux) in xbow on a real network: its e1000 driver on the
# emulated 82544 with the tap backend, in a network namespace of its own
# whose tap device (10.0.2.1, MTU 9000) stands for the host.  The guest pings
# the host, then ttcp sends 8972-byte datagrams at MTU 9000 and 1472-byte
# ones to a Python receiver on the host side, which implements ttcp -r
# (pattern, checksum, sequence: linux/README.md) and must count exactly what
# ttcp says it sent.  Then the same at MTU 1500 through the IOC3's own
# Ethernet (ioc3-eth, --nic none --ioc3-net tap:...), whose UDP checksums the
# host's stack verifies.
# Each run is bounded by "continue 4000000000" (guest instructions).
# Needs root, /dev/net/tun, iproute2 and python3; skips (exit 77) otherwise.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

[ "$(id -u)" = 0 ] || skip "linux_tap.sh needs root (creates a network namespace and a tap device)"
[ -c /dev/net/tun ] || skip "/dev/net/tun is missing (no tun driver)"
command -v ip >/dev/null 2>&1 || skip "the ip command (iproute2) is missing"
command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
vmlinux=$(bash "${top_srcdir:-.}/linux/build.sh" --print-path 2>/dev/null) ||
    skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"
case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac

ns="xbow-ltap-$$"
tap="xbl$$"
rxpid=
cleanup() {
    [ -n "$rxpid" ] && kill "$rxpid" 2>/dev/null
    ip netns del "$ns" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$ns" || skip "cannot create a network namespace"
inns() { ip netns exec "$ns" "$@"; }
inns ip link set lo up
inns ip tuntap add dev "$tap" mode tap || skip "cannot create a tap device"
inns sysctl -qw "net.ipv6.conf.$tap.disable_ipv6=1" 2>/dev/null
inns ip addr add 10.0.2.1/24 dev "$tap"
inns ip link set "$tap" mtu 9000 up

# ttcp -r on the host side: the report line of linux/README.md.
cat >"$WORK/rx.py" <<'PY'
import socket, sys, time
ready, port = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.bind(("10.0.2.1", port))
s.settimeout(120)
open(ready, "w").close()
msgs = nbytes = cksum = bad = seqerr = 0
nextk = None
t0 = None
try:
    while True:
        d = s.recv(65536)
        if t0 is None:
            t0 = time.time()
        if len(d) <= 4:
            if msgs:
                break
            continue
        msgs += 1
        nbytes += len(d)
        cksum = (cksum + sum(d)) & 0xffffffff
        if any(d[i] != (d[0] + i) & 0xff for i in range(len(d))):
            bad += 1
        k = (d[0] * 183) & 0xff
        if nextk is not None and k != nextk:
            seqerr += 1
        nextk = (k + 1) & 0xff
except socket.timeout:
    print("host-r: timeout")
print("host-r: msgs=%d bytes=%d cksum=0x%08x bad=%d seqerr=%d" % (msgs, nbytes, cksum, bad, seqerr))
PY

wait_file() { i=0; while [ ! -e "$1" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done; [ -e "$1" ]; }

# tap_run MTU LEN COUNT PORT [ioc3]
tap_run() {
    mtu=$1 len=$2 n=$3 port=$4
    nicopts="--nic e1000-82544 --net tap:$tap" dev=e1000_0
    if [ "${5:-}" = ioc3 ]; then
        nicopts="--nic none --ioc3-net tap:$tap" dev=ioc3_eth0
    fi
    rm -f "$WORK/rx.ready"
    inns python3 "$WORK/rx.py" "$WORK/rx.ready" "$port" >"$WORK/rx.out" 2>&1 &
    rxpid=$!
    wait_file "$WORK/rx.ready" || fail "the host receiver did not start: $(cat "$WORK/rx.out")"
    last_cmd="ip netns exec $ns xbow ... $nicopts (mtu $mtu, $n x $len bytes)"
    inns "$XBOW" --batch -q $nicopts \
        --append "xbow.mtu=$mtu xbow.run=\"ping -c 3 10.0.2.1 && ttcp -t -l $len -n $n -p $port 10.0.2.1\" xbow.after=reboot" \
        -ex 'continue 4000000000' -ex 'info cpus' -ex "info device $dev stats" "$vmlinux" >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
    # The receiver ends at ttcp's closing sentinel; if the guest never sent
    # one, do not wait for its 120 s timeout.
    i=0
    while kill -0 "$rxpid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill "$rxpid" 2>/dev/null
    wait "$rxpid"
    rxpid=
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "xbow-init: eth0 10.0.2.15/24 mtu $mtu up"
    expect_out "3 packets transmitted, 3 received"
    expect_out "ttcp-t: msgs=$n bytes=$((n * len)) "
    expect_out "XBOW-RUN-END status=0"
    expect_out "^  tx drops 0$"
    cksum=$(sed -n 's/^ttcp-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/out")
    checks=$((checks + 1))
    grep -q "^host-r: msgs=$n bytes=$((n * len)) cksum=${cksum:-none} bad=0 seqerr=0\$" "$WORK/rx.out" ||
        fail "the host receiver: $(cat "$WORK/rx.out"), want msgs=$n bytes=$((n * len)) cksum=$cksum"
    cat "$WORK/rx.out"
}

tap_run 9000 8972 200 5001
tap_run 1500 1472 1000 5002
if grep -q '^CONFIG_SGI_IOC3_ETH=y' "$(dirname "$vmlinux")/config-$(basename "$vmlinux" | sed 's/^vmlinux-//')" 2>/dev/null; then
    tap_run 1500 1472 500 5003 ioc3
else
    echo "SKIP: the IOC3 part: the kernel in the cache has no CONFIG_SGI_IOC3_ETH (make linux)"
fi
finish
