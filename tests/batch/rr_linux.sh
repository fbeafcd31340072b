#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record and replay of Linux (make linux) on the network (docs/record-replay.md).
#
# Socket peer (no root): Linux boots on an emulated 82544 whose wire is a
# socket:udp link to tests/batch/rr_peer.py, a host at 10.0.2.2 that answers
# ARP and ping and sends the guest UDP datagrams at host-timed moments.  The
# guest pings it, sends it 20 UDP datagrams (ttcp), and at its shell takes a
# line typed once the shell is ready (a writer that watches the output:
# host-timed too).  The recording stops twice (at 400 million instructions
# and at the reboot the typed line asks for) to print registers and device
# state.  The replay runs the same command line with --replay, without the
# peer and with nothing on standard input, and must print exactly the same:
# console output, stop points, instruction counts, registers, every
# device's state hash (and `info state-hash` where xbow has it).
#
# Tap (root, ip netns): the same guest on a tap device in a network
# namespace of its own whose host side (10.0.2.1) answers the pings; the
# replay runs in a namespace without that device and without any
# capability (unshare -n, setpriv), and prints the same.
#
# Each run is bounded by "continue N" (guest instructions).  Skips without a
# kernel or python3; the tap part without root, ip or setpriv.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
command -v python3 >/dev/null 2>&1 || skip "python3 is needed for the peer"
case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac

peerpid= ns=
cleanup() {
    [ -n "$peerpid" ] && kill "$peerpid" 2>/dev/null
    [ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The state at each stop: info state-hash when this xbow has it.
STATE="info device-state"
"$XBOW" --batch -q -ex 'help info state-hash' >/dev/null 2>&1 </dev/null && STATE="info state-hash"

# same REC REP: the two outputs agree up to the "===" line.
same() {
    checks=$((checks + 1))
    sed '/^===$/q' "$WORK/$1" >"$WORK/a"
    sed '/^===$/q' "$WORK/$2" >"$WORK/b"
    grep -q '^===$' "$WORK/b" || fail "$2 has no end marker"
    cmp -s "$WORK/a" "$WORK/b" || fail "$2 differs from $1: $(diff "$WORK/a" "$WORK/b" | head -20)"
}

# ---- socket peer --------------------------------------------------------
peer_start || { finish; exit; }

# The line is typed once the shell says it is ready.
last_cmd="xbow --record (socket peer)"
type_at_shell 'echo typed at the prompt\nreboot\n' | "$XBOW" --batch -q --nic e1000-82544 --net "$net" --append "$app" --record "$WORK/s.rr" \
    -ex 'continue 400000000' -ex 'info registers' -ex "$STATE" \
    -ex 'continue 8000000000' -ex 'info registers' -ex "$STATE" -ex 'echo ===\n' \
    -ex 'info record' "$vmlinux" >"$WORK/out" 2>"$WORK/err"
status=$?
peer_stop
expect_status 0
expect_out "3 packets transmitted, 3 received, 0% packet loss"
expect_out "ttcp-t: msgs=20 bytes=10240 "
expect_out "^typed at the prompt"
expect_out "The guest reset the machine"
expect_out "^Recording to $WORK/s.rr (log format 1)"
expect_out "^  console   [1-9][0-9]* records"
expect_out "^  net frame [1-9][0-9]* records"
checks=$((checks + 1))
grep -q "arp=1 echo=3 .* udp=2[0-9] " "$WORK/peer.stats" || fail "peer: $(cat "$WORK/peer.stats")"
cp "$WORK/out" "$WORK/s-rec.out"

# The replay: no peer, nothing typed.
last_cmd="xbow --replay (socket peer)"
run_xbow --batch -q --nic e1000-82544 --net "$net" --append "$app" --replay "$WORK/s.rr" \
    -ex 'continue 400000000' -ex 'info registers' -ex "$STATE" \
    -ex 'continue 8000000000' -ex 'info registers' -ex "$STATE" -ex 'echo ===\n' \
    -ex 'info record' -ex 'info device e1000_0 stats' "$vmlinux"
expect_status 0
cp "$WORK/out" "$WORK/s-rep.out"
same s-rec.out s-rep.out
expect_out "^Replaying $WORK/s.rr (log format 1, complete): replay ended"
expect_out "  replay    from $WORK/s.rr (channel 0): [1-9][0-9]* frames replayed"
n=$(sed -n 's/^  net frame \([0-9]*\) records.*/\1/p' "$WORK/s-rec.out")
expect_out "^  net frame ${n:-x} records"
expect_no_out "socket "

# The same on 2 CPUs: one CPU's solo turns while the other waits at its
# idle point (docs/cpu.md, "Solo turns") are the same in the replay: the
# state at the first stop, the console output, every input taken, the
# solo turns.  (The recording ends where cpu0 resets the machine, in the
# middle of a turn: the replay stops at the recording's end time, the
# machine's common time, which cpu1 had reached and cpu0 had passed.)
# (Without the last run's output: type_at_shell would find its "shell ready"
# there before the new run truncates it, and type at the boot.)
rm -f "$WORK/port" "$WORK/peer.stats" "$WORK/out"
peer_start || { finish; exit; }
last_cmd="xbow --record --cpus 2 (socket peer)"
type_at_shell 'echo typed at the prompt\nreboot\n' | "$XBOW" --batch -q --cpus 2 --nic e1000-82544 --net "$net" --append "$app" --record "$WORK/s2.rr" \
    -ex 'continue 400000000' -ex 'info registers' -ex 'info cpus' -ex "$STATE" -ex 'echo ===\n' \
    -ex 'continue 16000000000' -ex 'info cpus' -ex 'info record' "$vmlinux" >"$WORK/out" 2>"$WORK/err"
status=$?
peer_stop
expect_status 0
expect_out "ttcp-t: msgs=20 bytes=10240 "
expect_out "^typed at the prompt"
expect_out "The guest reset the machine"
expect_out "^Solo turns (one CPU runs, the others wait at an idle point): [1-9]"
cp "$WORK/out" "$WORK/s2-rec.out"
last_cmd="xbow --replay --cpus 2 (socket peer)"
run_xbow --batch -q --cpus 2 --nic e1000-82544 --net "$net" --append "$app" --replay "$WORK/s2.rr" \
    -ex 'continue 400000000' -ex 'info registers' -ex 'info cpus' -ex "$STATE" -ex 'echo ===\n' \
    -ex 'continue 16000000000' -ex 'info cpus' -ex 'info record' "$vmlinux"
cp "$WORK/out" "$WORK/s2-rep.out"
same s2-rec.out s2-rep.out
n=$(sed -n 's/^  inputs    \([0-9]*\) logged.*/\1/p' "$WORK/s2-rec.out")
t=$(sed -n 's/^  time      \([0-9]*\)$/\1/p' "$WORK/s2-rec.out")
expect_out "replay: end of the recording at time ${t:-x} (${n:-x} inputs replayed)"
expect_out "^typed at the prompt"
checks=$((checks + 1))
[ "$(grep "^Solo turns" "$WORK/s2-rec.out")" = "$(grep "^Solo turns" "$WORK/s2-rep.out")" ] ||
    fail "the replay's solo turns differ from the recording's"

# ---- tap in a network namespace (root) -----------------------------------
if [ "$(id -u)" != 0 ] || [ ! -c /dev/net/tun ] || ! command -v ip >/dev/null 2>&1 ||
    ! command -v setpriv >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
    echo "rr_linux: the tap part needs root, /dev/net/tun, ip, unshare and setpriv: skipped"
    finish
    exit
fi
ns="xbow-rr-$$"
tap="xbr$$"
. "${top_srcdir:-.}/scripts/netns.sh"
if netns_add "$ns" 2>/dev/null; then
    netns_tap "$tap" 10.0.2.1 1500
    tapp='xbow.run="sleep 1; ping -c 3 -i 200 10.0.2.1; ttcp -t -l 512 -n 20 10.0.2.1" xbow.after=reboot'
    last_cmd="xbow --record (tap)"
    inns "$XBOW" --batch -q --nic e1000-82544 --net "tap:$tap" --append "$tapp" \
        --record "$WORK/t.rr" --pcap "$WORK/t-rec.pcap" -ex 'continue 6000000000' \
        -ex 'info registers' -ex "$STATE" -ex 'echo ===\n' -ex 'info record' "$vmlinux" \
        >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
    expect_status 0
    expect_out "3 packets transmitted, 3 received, 0% packet loss"
    expect_out "The guest reset the machine"
    expect_out "^  net frame [1-9][0-9]* records"
    cp "$WORK/out" "$WORK/t-rec.out"
    # Without the namespace's tap and without any capability.
    last_cmd="xbow --replay (tap, no tap device, no capability)"
    unshare -n setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all \
        "$XBOW" --batch -q --nic e1000-82544 --net "tap:$tap" --append "$tapp" \
        --replay "$WORK/t.rr" --pcap "$WORK/t-rep.pcap" -ex 'continue 6000000000' \
        -ex 'info registers' -ex "$STATE" -ex 'echo ===\n' -ex 'info record' "$vmlinux" \
        >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
    expect_status 0
    cp "$WORK/out" "$WORK/t-rep.out"
    same t-rec.out t-rep.out
    expect_out "^Replaying $WORK/t.rr (log format 1, complete): replay ended"
    # The wire in both directions, frame for frame (the capture's time
    # stamps are virtual time).
    checks=$((checks + 1))
    cmp -s "$WORK/t-rec.pcap" "$WORK/t-rep.pcap" || fail "the replay's capture differs from the recording's"
else
    echo "rr_linux: cannot create a network namespace: the tap part skipped"
fi
finish
