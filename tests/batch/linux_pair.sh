#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two Linux guests (make linux), each in its own xbow process with an
# emulated 82544, on one wire: through a VDE switch, then through a
# socket:udp pair.  Neither gives --mac: their default addresses differ
# because their kernel command lines do, and each is printed at start-up.
#   B (10.0.2.20) boots first and waits in ttcp -r (port 5001);
#   A (10.0.2.10) starts once B says so, pings B 3 times, then sends N
#     datagrams to B from a background ttcp -t while its ttcp -r waits on
#     port 5002;
#   B, after the last datagram, pings A 3 times and sends N datagrams to A.
# A's receiver is bound before A sends anything B answers to: the two
# machines' clocks are not coupled, so "A is still sending its sentinels"
# in A's time may be "B is done pinging" in B's, and a receiver started
# after A's ttcp -t could miss B's first datagrams.
# A's ttcp fills and verifies every message (-V on both ends); B's is the
# classic one (one buffer sent again and again, counted on arrival).
# Every datagram is accounted for: ttcp -r's count (and, A to B, checksum)
# equal ttcp -t's (no bad or out-of-order message), neither NIC dropped a frame (but
# those arriving once its receiver is off for the reboot), and
# both captures, read by tests/batch/ttcp_pcap.py, hold both directions'
# datagrams from the two start-up MACs.  Each guest is bounded by
# "continue N" (guest instructions); the test waits at most 10 minutes of
# host time for B to be ready.  Skips without a kernel, python3 or (for the
# VDE part) vde_switch.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the capture"
case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac

# 100 datagrams each way, of 1472 bytes (one 1514-byte frame each at MTU
# 1500).  UDP has no flow control and the two clocks are not coupled: when
# the host pauses one process, the other's frames arrive together and cross
# the wire back to back at 1 Gb/s, faster than the receiving guest reads
# them; at 200 the last one was once lost in the receiving kernel.  100 fit
# in ttcp -r's socket buffer (Linux caps its 1 MiB request at 2 x rmem_max,
# 425984 bytes, and each datagram takes a 2 KiB receive buffer and its
# overhead), so none can be lost whatever the host does.
N=100
LEN=1472
pidb= sw=
cleanup() {
    [ -n "$pidb" ] && kill "$pidb" 2>/dev/null
    vde_stop
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# guest NAME NET APPEND INSNS [XBOW OPTIONS]: one xbow in the background;
# its pid in $gpid.
guest() {
    g=$1 net=$2 app=$3 insns=$4
    shift 4
    "$XBOW" --batch --nic e1000-82544 --net "$net" "$@" --append "$app xbow.after=reboot" \
        -ex "continue $insns" -ex 'info device e1000_0 stats' "$vmlinux" \
        >"$WORK/$g.out" 2>"$WORK/$g.err" </dev/null &
    gpid=$!
}

start_mac() { sed -n 's/^xbow: e1000_0 (e1000-82544 in slot 3): MAC \([0-9a-f:]*\) (default), .*/\1/p' "$WORK/$1.err"; }
ttcp_line() { sed -n "s/^\\(ttcp-$2: msgs=[0-9]* bytes=[0-9]*\\) .*\\(cksum=[0-9a-fx-]*\\).*/\\1 \\2/p" "$WORK/$1.out"; }

# captured G MAC PORT TTCP_T_LINE [--classic]: G's capture holds the N data datagrams
# of that ttcp -t from MAC to PORT, with its checksum, every message in
# order with good IP and UDP checksums.  Not how many of the 4 closing
# sentinels: the receiver's ttcp ends at the first, its kernel answers the
# next with "port unreachable", and the sender's next write() then fails
# with ECONNREFUSED and sends nothing (ttcp ignores it), so that count
# depends on the two machines' relative speed.
captured() {
    ck=$(echo "$4" | sed -n 's/.*cksum=//p')
    want="data=$N sentinels=[1-5] bytes=$((N * LEN)) cksum=${ck:-none} bad=0 seqerr=0 badip=0 badl4=0 frag=0"
    got=$(python3 "${top_srcdir:-.}/tests/batch/ttcp_pcap.py" "$WORK/$1.pcap" --src "$2" --port "$3" ${5:-} |
        sed 's/.*\(data=\)/\1/; s/ other=.*//')
    checks=$((checks + 1))
    # shellcheck disable=SC2254
    case "$got" in
    $want) ;;
    *)
        failures=$((failures + 1))
        echo "FAIL: $label: $1's capture, from $2 to port $3: $got, want $want"
        ;;
    esac
}

# pair LABEL NET_A NET_B
pair() {
    label=$1
    rm -f "$WORK"/a.* "$WORK"/b.*
    guest b "$3" "xbow.ip=10.0.2.20/24 xbow.run=\"ttcp -r -V -l $LEN -p 5001 -w 300 && ping -c 3 10.0.2.10 && ttcp -t ${PACE:-}-l $LEN -n $N -p 5002 10.0.2.10; ifconfig eth0\"" 12000000000 \
        --pcap "$WORK/b.pcap"
    pidb=$gpid
    # B is ready when its ttcp says it is waiting (or gave up: it exited).
    i=0
    while ! grep -q '^ttcp-r: msgsize=' "$WORK/b.out" 2>/dev/null && kill -0 "$pidb" 2>/dev/null &&
        [ $i -lt 6000 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    guest a "$2" "xbow.ip=10.0.2.10/24 xbow.run=\"ping -c 3 10.0.2.20 && ttcp -t ${PACE:-}-V -l $LEN -n $N -p 5001 10.0.2.20 & ttcp -r -l $LEN -p 5002 -w 300; ifconfig eth0\"" 8000000000 \
        --pcap "$WORK/a.pcap"
    wait "$gpid"
    wait "$pidb"
    pidb=
    for g in a b; do
        expect_in $g.out "The guest reset the machine"
        expect_in $g.out "XBOW-RUN-END status=0"
        expect_in $g.out "^  tx drops 0$"
        # Only frames that came after the driver turned the receiver off
        # for the reboot (the other side's late replies) may be dropped.
        expect_in $g.out "^  rx drops \(0\|[0-9]* rx-off=[0-9]*\)$"
        checks=$((checks + 1))
        if grep -q "^  own MAC" "$WORK/$g.out"; then
            failures=$((failures + 1))
            echo "FAIL: $label: $g received frames from its own MAC"
        fi
    done
    expect_in a.out "xbow-init: eth0 10.0.2.10/24 mtu 1500 up"
    expect_in b.out "xbow-init: eth0 10.0.2.20/24 mtu 1500 up"
    expect_in a.out "3 packets transmitted, 3 received, 0% packet loss"
    expect_in b.out "3 packets transmitted, 3 received, 0% packet loss"
    expect_in a.out "ttcp-t: msgs=$N bytes=$((N * LEN)) "
    expect_in b.out "ttcp-t: msgs=$N bytes=$((N * LEN)) "
    expect_in a.out "^ttcp-r: msgs=$N bytes=$((N * LEN)) .* bad=0 seqerr=0"
    expect_in b.out "^ttcp-r: msgs=$N bytes=$((N * LEN)) .* bad=0 seqerr=0"
    expect_in a.out "^ttcp-r: msgs=$N bytes=$((N * LEN)) .* cksum=- verify=0 bad=0 seqerr=0"
    expect_in b.out "^ttcp-r: msgs=$N bytes=$((N * LEN)) .* verify=1 bad=0 seqerr=0"
    # What one side sent, the other received: count, bytes and (A's, -V)
    # checksum; B's classic receiver does not sum.
    ta=$(ttcp_line a t) rb=$(ttcp_line b r) tb=$(ttcp_line b t) ra=$(ttcp_line a r)
    checks=$((checks + 2))
    [ -n "$ta" ] && [ "${ta#ttcp-t}" = "${rb#ttcp-r}" ] || {
        failures=$((failures + 1))
        echo "FAIL: $label: A sent '$ta', B received '$rb'"
    }
    [ -n "$tb" ] && [ "${tb#ttcp-t}" = "$(echo "${ra#ttcp-r}" | sed "s/ cksum=-\$/ ${tb##* }/")" ] || {
        failures=$((failures + 1))
        echo "FAIL: $label: B sent '$tb', A received '$ra'"
    }
    # The start-up lines: two different default MACs, the ones Linux read
    # from the EEPROM.
    ma=$(start_mac a) mb=$(start_mac b)
    checks=$((checks + 1))
    [ -n "$ma" ] && [ -n "$mb" ] && [ "$ma" != "$mb" ] || {
        failures=$((failures + 1))
        echo "FAIL: $label: start-up MACs '$ma' and '$mb'"
    }
    expect_in a.out "eth[01]: (PCI-X:66MHz:64-bit) $ma" # eth1 when ioc3-eth registered first
    expect_in b.out "eth[01]: (PCI-X:66MHz:64-bit) $mb"
    # The captures, read independently of xbow, on both sides of the wire.
    captured a "$ma" 5001 "$ta"
    captured b "$ma" 5001 "$ta"
    captured b "$mb" 5002 "$tb" --classic
    captured a "$mb" 5002 "$tb" --classic
    echo "$label: A $ma, B $mb"; grep -h '^ttcp-r: msgs=' "$WORK/b.out" "$WORK/a.out"
}

# Two free UDP ports on the loopback interface.
udp_ports
pair udp "socket:udp:$pa:127.0.0.1:$pb" "socket:udp:$pb:127.0.0.1:$pa"

if command -v vde_switch >/dev/null 2>&1; then
    vde_start
    if "$XBOW" --batch -q --nic e1000 --net "vde:$sw" 2>&1 </dev/null | grep -q AddressSanitizer; then
        echo "this AddressSanitizer build has no vde backend: the VDE pair is not tested"
    else
        # Paced (200 us of guest time between datagrams): the switch drops
        # what a port's Unix datagram socket cannot take at once (10 frames,
        # net.unix.max_dgram_qlen), and on a busy 2-core host xbow's reader
        # thread can be off the CPU longer than a burst takes to fill it.
        PACE="-d 200 " pair vde "vde:$sw" "vde:$sw"
    fi
else
    echo "vde_switch is not installed (Debian package vde2): the VDE pair is not tested"
fi
finish
