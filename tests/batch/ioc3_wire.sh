#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The IOC3's Ethernet between two xbow processes, each running the example
# driver (examples/ioc3), over every wire backend that joins two processes:
# socket:unix (one listens, the other connects), socket:udp and a VDE switch.
#   A (--ioc3-mac 02:78:62:6f:77:02, the address the example sends to)
#     runs `echo N`: every frame it receives goes back to its sender, the
#     addresses swapped; it starts by sending one "ready" frame to its own
#     address, which B's address filter drops (counted: filtered).
#   B (--ioc3-mac 08:00:69:0e:c3:02) runs `tx N size=S`: N UDP datagrams
#     with the pattern payload, the checksum by the chip, to A; it counts
#     and checks the replies.
# The example gives up after 50 ms of guest time without a frame, and the
# two processes' clocks are not coupled, so the test orders them with the
# debugger: A stops before its echo loop (break run_echo); B runs until it
# has sent all N (a watchpoint on its count of reclaimed Tx descriptors,
# tx_ci == N, before it waits for the replies) and stops; then A runs to its end, echoing the N frames that waited on
# the host (the socket's queue, the VDE reader's ring); then B runs on and
# reads the N replies.  `shell` (--allow-shell) waits for the other's file.
# Checked: both drivers' own counts, both NICs' and ports' counts (no drop
# but the ready frame), and both captures (--ioc3-pcap) frame by frame: A
# received exactly the bytes B sent and B exactly the bytes A sent back, N
# datagrams in order, each with the pattern, good IP and UDP checksums and
# its echo the same frame with addresses and ports swapped.
# Paths are in the test's own directory and the UDP ports are picked free
# by the kernel; skips VDE without vde_switch or in an ASan build (no vde).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
ELF=${top_builddir:-.}/examples/ioc3/ioc3_eth.elf
[ -f "$ELF" ] || skip "$ELF not built"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the captures"
MA=02:78:62:6f:77:02
MB=08:00:69:0e:c3:02
MAX=--max-insns=4000000000
pida='' pidb='' sw=''
cleanup() {
    [ -n "$pida" ] && kill "$pida" 2>/dev/null
    [ -n "$pidb" ] && kill "$pidb" 2>/dev/null
    vde_stop
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# waitfile FILE PID: until FILE exists (at most 60 s, or PID ends)
waitfile() {
    i=0
    while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -e "$1" ]
}

# waitcmd NAME: a shell command for xbow's `shell` that waits for NAME.flag
# (60 s at most, so a lost peer cannot hang the test)
waitcmd() { echo "i=0; while [ ! -e $WORK/$1.flag ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i+1)); done"; }


# wire LABEL NET_A NET_B N SIZE READY: where A's ready frame (to A's own
# address) goes: "b" B gets it (and its filter drops it); "no-peer" A's
# listening socket has not accepted B yet when A sends it (dropped, as on
# an unplugged cable); "switch" the switch has learnt that address on A's
# own port and does not send it back there
wire() {
    label=$1 n=$4 size=$5
    ready=0 nopeer=0 settle=${settle:-}
    case $6 in b) ready=1 ;; no-peer) nopeer=1 ;; esac
    rm -f "$WORK"/a.* "$WORK"/b.* "$WORK"/*.flag
    "$XBOW" --batch --allow-shell -q $MAX --nic none --ioc3-mac $MA --ioc3-net "$2" --ioc3-pcap "$WORK/a.pcap" \
        --append "echo $n" -ex 'break run_echo' -ex continue \
        -ex "shell touch $WORK/a-ready.flag; $(waitcmd b-sent)" \
        -ex delete -ex continue -ex 'info device ioc3_eth0 stats' \
        -ex "shell $settle touch $WORK/a-done.flag" "$ELF" >"$WORK/a.out" 2>"$WORK/a.err" </dev/null &
    pida=$!
    waitfile "$WORK/a-ready.flag" $pida || { fail "$label: A did not reach its echo loop"; cat "$WORK/a.out" "$WORK/a.err"; return; }
    "$XBOW" --batch --allow-shell -q $MAX --nic none --ioc3-mac $MB --ioc3-net "$3" --ioc3-pcap "$WORK/b.pcap" \
        --append "tx $n size=$size" -ex 'watch tx_ci' -ex "condition 1 tx_ci == $n" -ex continue \
        -ex "shell touch $WORK/b-sent.flag; $(waitcmd a-done)" \
        -ex delete -ex continue -ex 'info device ioc3_eth0 stats' \
        "$ELF" >"$WORK/b.out" 2>"$WORK/b.err" </dev/null &
    pidb=$!
    wait $pida
    wait $pidb
    pida='' pidb=''
    bytes=$((n * size))
    expect_in a.out "ioc3: echo frames=$n sent=$n good=$n bad=0"
    expect_in b.out "ioc3: tx sent=$n done=$n split=[0-9]* txdone_irqs=[1-9][0-9]* replies=$n good=$n bad=0"
    # A: N in, N echoed plus its ready frame; B: N out, N replies in, the
    # ready frame refused by its filter.  The ports say the same.
    expect_in a.out "^  tx frames $((n + 1)) bytes $((bytes + 60))\$"
    expect_in a.out "^  rx frames $n bytes $bytes "
    expect_in a.out "^  tx drops 0\$"
    expect_in a.out "^  rx drops 0\$"
    expect_in a.out "^  tx        $((n + 1)) frames, $((bytes + 60)) bytes, $nopeer dropped\$"
    expect_in a.out "^  rx        $n frames, $bytes bytes, 0 dropped\$"
    expect_in a.out "^  host      $n frames read: 0 on the wire"
    expect_in b.out "^  tx frames $n bytes $bytes\$"
    expect_in b.out "^  rx frames $n bytes $bytes "
    expect_in b.out "^  tx drops 0\$"
    expect_in b.out "^  tx        $n frames, $bytes bytes, 0 dropped\$"
    if [ "$ready" = 1 ]; then
        expect_in b.out "^  rx drops 1 filtered=1\$"
        expect_in b.out "^  rx        $n frames, $bytes bytes, 1 dropped refused=1\$"
    else
        expect_in b.out "^  rx drops 0\$"
        expect_in b.out "^  rx        $n frames, $bytes bytes, 0 dropped\$"
    fi
    expect_in b.out "^  host      $((n + ready)) frames read: 0 on the wire"
    checks=$((checks + 1))
    got=$(python3 - "$WORK/a.pcap" "$WORK/b.pcap" $MA $MB "$n" "$size" "$ready" <<'EOF'
import struct, sys
from pcap_lib import csum, frames, ipv4
pa, pb, ma, mb = sys.argv[1], sys.argv[2], *(bytes.fromhex(m.replace(':', '')) for m in sys.argv[3:5])
n, size, got_ready = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7] == '1'
A, B = list(frames(pa)), list(frames(pb))
def by(cap, src):
    return [f for f in cap if f[6:12] == src]
def problems(fs, dst, src, sport, dport):
    bad = []
    for k, f in enumerate(fs):
        ip, l4, ipok = ipv4(f)
        if len(f) != size or f[:6] != dst or f[6:12] != src or f[12:14] != b'\x08\x00':
            bad.append('frame %d: header or length %d' % (k, len(f)))
            continue
        pseudo = ip[12:20] + struct.pack('>BBH', 0, 17, len(l4))
        if not ipok or ip[9] != 17 or csum(pseudo + l4) != 0xffff:
            bad.append('frame %d: IP or UDP checksum' % k)
        if struct.unpack('>HH', l4[:4]) != (sport, dport):
            bad.append('frame %d: ports %d %d' % ((k,) + struct.unpack('>HH', l4[:4])))
        pl = l4[8:]
        if struct.unpack('>I', pl[:4])[0] != k or any(pl[i] != (k * 7 + i) & 0xff for i in range(4, len(pl))):
            bad.append('frame %d: payload' % k)
    return bad
sent, echoed = by(B, mb), by(A, ma)
ready = [f for f in echoed if len(f) == 60 and f[:6] == ma]
echoed = [f for f in echoed if not (len(f) == 60 and f[:6] == ma)]
out = []
if len(sent) != n or len(echoed) != n or len(ready) != 1:
    out.append('B sent %d, A echoed %d, A ready frames %d' % (len(sent), len(echoed), len(ready)))
out += ['B sent ' + p for p in problems(sent, ma, mb, 5001, 9)]
out += ['A echoed ' + p for p in problems(echoed, mb, ma, 9, 5001)]
if by(A, mb) != sent:
    out.append("A's capture of B's frames differs from B's")
if [f for f in B if f[6:12] == ma and f[:6] == mb] != echoed or by(B, ma) != (ready if got_ready else []) + echoed:
    out.append("B's capture of A's frames differs from A's")
for s, e in zip(sent, echoed):
    sw = s[6:12] + s[:6] + s[12:26] + s[30:34] + s[26:30] + s[36:38] + s[34:36] + s[38:]
    if sw != e:
        out.append('an echo is not its frame with the addresses swapped')
        break
print('\n'.join(out) if out else 'ok %d %d' % (len(sent), len(echoed)))
EOF
)
    [ "$got" = "ok $n $n" ] || {
        failures=$((failures + 1))
        echo "FAIL: $label: captures: $got"
    }
    echo "$label: $n frames of $size bytes each way: $(grep -h '^ioc3: ' "$WORK/a.out" "$WORK/b.out" | tr '\n' ' ')"
}

PYTHONPATH=$(cd "${top_srcdir:-.}/tests/batch" && pwd)
export PYTHONPATH
case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac
case "$ELF" in /*) ;; *) ELF="$PWD/$ELF" ;; esac

# socket:unix: A listens, B connects; full-size frames.
wire unix "socket:unix:$WORK/wire" "socket:unix-connect:$WORK/wire" 40 1514 no-peer

# socket:udp: two ports the kernel says are free; short frames (inline in
# the Tx descriptor, padded by nobody: 104 bytes).
udp_ports
wire udp "socket:udp:$pa:127.0.0.1:$pb" "socket:udp:$pb:127.0.0.1:$pa" 100 104 b

if command -v vde_switch >/dev/null 2>&1; then
    vde_start
    if "$XBOW" --batch -q --nic none --ioc3-net "vde:$sw" 2>&1 </dev/null | grep -q AddressSanitizer; then
        echo "this AddressSanitizer build has no vde backend: the VDE wire is not tested"
    else
        # The switch hands each port's frames to a Unix datagram socket
        # that holds net.unix.max_dgram_qlen (10) of them; xbow's reader
        # thread empties it at once, but on a loaded host it may not run
        # for a while, and A echoes faster than real time: 8 frames and
        # the ready frame fit the socket whatever the host does.
        # The switch is a process of its own: when A is done, its echoes
        # may still wait in the switch's socket (on a loaded host the
        # switch may not run for a while), and B, let go, would give up
        # after 50 ms of guest time without a frame.  So A says it is done
        # once the switch has sent out B's N frames to A and A's N echoes
        # to B (its port counters; the ready frame goes nowhere): they
        # are then in B's socket, and B's next poll reads them.
        settle="python3 $PYTHONPATH/vde_wait_out.py $WORK/sw.mgmt $((2 * 8));" \
            wire vde "vde:$sw" "vde:$sw" 8 1000 switch
    fi
else
    echo "vde_switch is not installed (Debian package vde2): the VDE wire is not tested"
fi
finish
