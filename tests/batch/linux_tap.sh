#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux (make linux) in xbow on a real network: its e1000 driver on the
# emulated 82544 with the tap backend, in a network namespace of its own
# whose tap device (10.0.2.1, MTU 9000) stands for the host.  The guest pings
# the host, then ttcp sends 8972-byte datagrams at MTU 9000 (fill and verify,
# -V) and 1472-byte ones (the classic ttcp: one buffer) to the host's
# ttcp -r (scripts/ttcp.py, the protocol of linux/README.md), which must
# count exactly what ttcp says it sent; then the other way round, the host's
# ttcp -t to the guest's ttcp -r.  Then the guest's ttcp -t at MTU 1500
# through the IOC3's own Ethernet (ioc3-eth, --nic none --ioc3-net tap:...),
# whose UDP checksums the host's stack verifies.
# Each run is bounded by "continue 4000000000" (guest instructions).
# Needs root, /dev/net/tun, iproute2 and python3; skips (exit 77) otherwise.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_tap
need_linux
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
. "${top_srcdir:-.}/scripts/netns.sh"
netns_add "$ns" || skip "cannot create a network namespace"
netns_tap "$tap" 10.0.2.1 9000 || skip "cannot create a tap device"

# The host side's ttcp (scripts/ttcp.py): its report lines are the guest's,
# in host time, "host-r:"/"host-t:".
ttcp_py="${top_srcdir:-.}/scripts/ttcp.py"
case "$ttcp_py" in /*) ;; *) ttcp_py="$PWD/$ttcp_py" ;; esac

wait_file() { i=0; while [ ! -e "$1" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done; [ -e "$1" ]; }

# run_ended: xbow ran the guest's command to its end (status 0) and the
# reboot after it.
run_ended() {
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "XBOW-RUN-END status=0"
}

# sender_cksum FILE WHO: the payload checksum WHO's ttcp -t reported in FILE
# ("-" for the classic ttcp, which does not sum).
sender_cksum() {
    [ -n "$verify" ] || { echo -; return; }
    sed -n "s/^$2: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p" "$1"
}

# tap_run MTU LEN COUNT PORT [-V|-] [ioc3]: the guest's ttcp -t to a host ttcp -r.
# ttcp's writes return once a datagram is queued (qdisc, Tx ring), and the
# classic ttcp outruns the IOC3's 100 Mb/s line: the guest waits (sleep 1)
# for the queue to drain before xbow.after=reboot resets the NIC, or the
# tail of the data and the end sentinels never leave.
tap_run() {
    mtu=$1 len=$2 n=$3 port=$4 verify=${5:-}
    [ "$verify" = - ] && verify=
    nicopts="--nic e1000-82544 --net tap:$tap" dev=e1000_0
    if [ "${6:-}" = ioc3 ]; then
        nicopts="--nic none --ioc3-net tap:$tap" dev=ioc3_eth0
    fi
    rm -f "$WORK/rx.ready"
    inns python3 "$ttcp_py" -r $verify -l "$len" -p "$port" -w 120 -b 10.0.2.1 --ready "$WORK/rx.ready" >"$WORK/rx.out" 2>&1 &
    rxpid=$!
    wait_file "$WORK/rx.ready" || fail "the host receiver did not start: $(cat "$WORK/rx.out")"
    last_cmd="ip netns exec $ns xbow ... $nicopts (mtu $mtu, $n x $len bytes ${verify:-classic})"
    inns "$XBOW" --batch -q $nicopts \
        --append "xbow.mtu=$mtu xbow.run=\"ping -c 3 10.0.2.1 && ttcp -t $verify -l $len -n $n -p $port 10.0.2.1 && sleep 1\" xbow.after=reboot" \
        -ex 'continue 4000000000' -ex 'info cpus' -ex "info device $dev stats" -ex 'info nic' "$vmlinux" >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
    # The receiver ends at ttcp's closing sentinel; if the guest never sent
    # one, do not wait for its 120 s timeout.
    i=0
    while kill -0 "$rxpid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill "$rxpid" 2>/dev/null
    wait "$rxpid"
    rxpid=
    run_ended
    expect_out "xbow-init: eth0 10.0.2.15/24 mtu $mtu up"
    expect_out "3 packets transmitted, 3 received"
    expect_out "ttcp-t: msgs=$n bytes=$((n * len)) "
    expect_out "^  tx drops 0$"
    expect_out "^    host time:  tx [0-9.]* frames/s [0-9.]* Mbit/s, rx [0-9.]* frames/s [0-9.]* Mbit/s$"
    cksum=$(sender_cksum "$WORK/out" ttcp-t)
    checks=$((checks + 2))
    grep -q "^host-r: msgs=$n bytes=$((n * len)) time_us=[0-9]* rate_kBps=[0-9]* rate_Mbps=[0-9.]* cksum=${cksum:-none} verify=$([ -n "$verify" ] && echo 1 || echo 0) bad=0 seqerr=0 otherlen=0\$" "$WORK/rx.out" ||
        fail "the host receiver: $(cat "$WORK/rx.out"), want msgs=$n bytes=$((n * len)) cksum=$cksum"
    grep -q "^host-r: $((n * len)) bytes in [0-9]*\.[0-9]\{6\} s = [0-9.]* Mbit/s (host time)\$" "$WORK/rx.out" ||
        fail "the host receiver's classic line: $(cat "$WORK/rx.out")"
    cat "$WORK/rx.out"
}

# tap_recv MTU LEN COUNT PORT [-V]: a host ttcp -t to the guest's ttcp -r.
# The guest is ready when its ttcp says it waits; the host sender is paced
# (a datagram every 2 ms) and the guest's rmem_max raised so that ttcp's
# 1 MB socket buffer is what it asks for: with xbow slowed down by a loaded
# host (or the sanitizer build), 2 ms of host time is less guest time and the
# datagrams come closer together for the guest, and the 208 KB default
# buffer overflowed (163 of 200 jumbo datagrams on a busy machine).
# The host knows the guest's address for good (a fixed MAC, a permanent
# neighbour entry): a sender that started while the entry from the ping was
# being checked again (the guest slow to answer on a loaded host) queued its
# datagrams on the unresolved entry, whose queue (unres_qlen_bytes, 212992)
# holds about 100 of 1472 bytes and dropped the rest (101 of 200 reached the
# tap).
tap_recv() {
    mtu=$1 len=$2 n=$3 port=$4 verify=${5:-}
    last_cmd="ip netns exec $ns xbow ... --net tap:$tap (host to guest, mtu $mtu, $n x $len bytes ${verify:-classic})"
    mac=02:58:42:00:02:0f
    inns ip neigh replace 10.0.2.15 lladdr $mac dev "$tap" nud permanent
    # (bg_start empties out first: the second call must not take the first
    # one's "ttcp-r: msgsize=" for this guest's and send while it boots)
    bg_start "$WORK/out" "$WORK/err" inns "$XBOW" --batch -q --nic e1000-82544 --mac $mac --net "tap:$tap" \
        --append "xbow.mtu=$mtu xbow.run=\"echo 4194304 > /proc/sys/net/core/rmem_max && ping -c 3 10.0.2.1 && ttcp -r $verify -l $len -p $port -w 60\" xbow.after=reboot" \
        -ex 'continue 4000000000' -ex 'info device e1000_0 stats' -ex 'info nic' "$vmlinux"
    xpid=$!
    i=0
    while [ "$(out_lines "$WORK/out" '^ttcp-r: msgsize=')" -lt 1 ] && kill -0 "$xpid" 2>/dev/null && [ $i -lt 1200 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    inns python3 "$ttcp_py" -t $verify -l "$len" -n "$n" -p "$port" -d 2000 10.0.2.15 >"$WORK/tx.out" 2>&1
    wait "$xpid"
    status=$?
    inns ip neigh del 10.0.2.15 dev "$tap" # the IOC3 run's guest has another MAC
    run_ended
    # Only frames that came once the driver had turned the receiver off for
    # the reboot (the host's late end sentinels) may be dropped.
    expect_out "^  rx drops \(0\|[0-9]* rx-off=[0-9]*\)$"
    expect_out "^    guest time: tx [0-9.]* frames/s [0-9.]* Mbit/s, rx [0-9.]* frames/s [0-9.]* Mbit/s$"
    cksum=$(sender_cksum "$WORK/tx.out" host-t)
    expect_out "^ttcp-r: msgs=$n bytes=$((n * len)) time_us=[0-9]* rate_kBps=[0-9]* rate_Mbps=[0-9.]* cksum=$cksum verify=$([ -n "$verify" ] && echo 1 || echo 0) bad=0 seqerr=0 otherlen=0"
    expect_out "^ttcp-r: $((n * len)) bytes in [0-9]*\.[0-9]\{6\} s = [0-9.]* Mbit/s (guest time)"
    checks=$((checks + 1))
    grep -q "^host-t: msgs=$n bytes=$((n * len)) " "$WORK/tx.out" || fail "the host sender: $(cat "$WORK/tx.out")"
    grep '^ttcp-r: msgs' "$WORK/out"
}

tap_run 9000 8972 200 5001 -V
tap_run 1500 1472 1000 5002
tap_recv 9000 8972 200 5003
tap_recv 1500 1472 200 5004 -V
if grep -q '^CONFIG_SGI_IOC3_ETH=y' "$(dirname "$vmlinux")/config-$(basename "$vmlinux" | sed 's/^vmlinux-//')" 2>/dev/null; then
    tap_run 1500 1472 500 5005 - ioc3
else
    echo "SKIP: the IOC3 part: the kernel in the cache has no CONFIG_SGI_IOC3_ETH (make linux)"
fi
finish
