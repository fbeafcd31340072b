#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux (make linux) in xbow receiving and transmitting at once through the
# tap backend on 2 CPUs: the guest's ttcp -r takes datagrams from the host's
# ttcp -t (scripts/ttcp.py, paced at 2 ms as in linux_tap.sh) while its ttcp -t
# sends the same number to the host's ttcp -r, and both ends must count every
# datagram (the sentinel protocol of linux/README.md).  The two transfers start
# together: a second guest receiver (`ttcp -r -n 1`) holds the guest's ttcp -t
# back until the host has started its sender and sends it one datagram; a
# third holds the guest's counters back until the host has seen both
# transfers end (linux/bench.sh's LINUX_BENCH=duplex does the same).
# The first run moves the e1000's interrupt to CPU 1 the way a user of the
# real machine would (/proc/irq/N/smp_affinity: the HUB's per-CPU masks,
# Linux's set_affinity_hub_irq) and checks that CPU 1 took its interrupts;
# the second runs the two CPUs on two host threads (--threads=2).
# Needs root, /dev/net/tun, iproute2 and python3; skips (exit 77) otherwise.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_tap
need_linux
case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac

ns="xbow-ldx-$$"
tap="xbx$$"
pids=
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "${top_srcdir:-.}/scripts/netns.sh"
netns_add "$ns" || skip "cannot create a network namespace"
netns_tap "$tap" 10.0.2.1 9000 || skip "cannot create a tap device"
# The guest's MAC address fixed and known to the host (linux/bench.sh's
# duplex section says why: the host's neighbour entry from a run before).
mac=02:58:42:00:02:0f
inns ip neigh replace 10.0.2.15 lladdr $mac dev "$tap" nud permanent

ttcp_py="${top_srcdir:-.}/scripts/ttcp.py"
case "$ttcp_py" in /*) ;; *) ttcp_py="$PWD/$ttcp_py" ;; esac

# until N CMD...: run CMD every 0.1 s until it succeeds, N times at most
until_n() {
    k=$1
    shift
    while ! "$@" && [ "$k" -gt 0 ]; do sleep 0.1; k=$((k - 1)); done
    "$@"
}
lines_at_least() { [ "$(out_lines "$WORK/out" "$2")" -ge "$1" ]; }
alive_and_lines() { ! kill -0 "$xpid" 2>/dev/null || lines_at_least "$@"; }
gone() { ! kill -0 "$1" 2>/dev/null; }

# duplex OPTS MTU LEN COUNT PORT [-V] [IRQCPU]: COUNT datagrams each way at once
duplex() {
    opts=$1 mtu=$2 len=$3 n=$4 port=$5 verify=${6:-} irqcpu=${7:-}
    [ "$verify" = - ] && verify=
    p0=$port p1=$((port + 1)) p2=$((port + 2)) p3=$((port + 3))
    aff=
    if [ -n "$irqcpu" ]; then
        # the e1000's interrupt number, as the guest's /proc/interrupts shows it
        "$XBOW" --batch -q --rtc-fixed $opts --nic e1000-82544 --net sink --append 'xbow.run="cat /proc/interrupts"' \
            -ex 'expect "XBOW-RUN-END" 8000000000' "$vmlinux" >"$WORK/irq" 2>&1 </dev/null
        irq=$(awk '$NF ~ /^eth0\r?$/ && $1 ~ /^[0-9]+:$/ { sub(":", "", $1); print $1; exit }' "$WORK/irq")
        checks=$((checks + 1))
        [ -n "$irq" ] || { last_cmd="xbow $opts (cat /proc/interrupts)"; fail "no eth0 line: $(cat "$WORK/irq")"; return; }
        aff="echo $((1 << irqcpu)) > /proc/irq/$irq/smp_affinity; "
    fi
    rm -f "$WORK/rx.ready"
    inns python3 "$ttcp_py" -r $verify -l "$len" -n "$n" -p "$p2" -w 60 -b 10.0.2.1 --ready "$WORK/rx.ready" >"$WORK/hr.out" 2>&1 &
    hr=$!
    pids="$hr"
    until_n 500 test -e "$WORK/rx.ready" || fail "the host receiver did not start: $(cat "$WORK/hr.out")"
    last_cmd="ip netns exec $ns xbow $opts --net tap:$tap (both ways at once, mtu $mtu, $n x $len bytes ${verify:-classic}${irqcpu:+, irq on CPU $irqcpu})"
    run="echo 4194304 > /proc/sys/net/core/rmem_max; ${aff}ping -c 1 10.0.2.1; cat /proc/interrupts; ttcp -r $verify -l $len -n $n -p $p1 -w 60 & ttcp -r -n 1 -p $p0 -w 60; ttcp -t $verify -l $len -n $n -p $p2 10.0.2.1; ttcp -r -n 1 -p $p3 -w 60; echo DUPLEX-END; cat /proc/interrupts /proc/net/snmp"
    # (bg_start empties out first: the waits below must not read the
    # previous run's lines, which let the host send while this guest was
    # still booting, its receiver not yet on: rx-off)
    bg_start "$WORK/out" "$WORK/err" ip netns exec "$ns" "$XBOW" --batch -q $opts --nic e1000-82544 --mac $mac --net "tap:$tap" \
        --append "xbow.mtu=$mtu xbow.run=\"$run\" xbow.after=reboot" \
        -ex 'expect "DUPLEX-END" 400000000000' -ex 'info device hub irq' -ex 'continue 4000000000' \
        -ex 'info device e1000_0 stats' -ex 'info nic' "$vmlinux"
    xpid=$!
    pids="$hr $xpid"
    # both guest receivers ready: the host starts its sender, then the barrier
    until_n 1200 alive_and_lines 2 '^ttcp-r: msgsize='
    inns python3 "$ttcp_py" -t $verify -l "$len" -n "$n" -p "$p1" -d 2000 10.0.2.15 >"$WORK/ht.out" 2>&1 &
    ht=$!
    pids="$hr $xpid $ht"
    inns python3 "$ttcp_py" -t -l 8 -n 1 -p "$p0" 10.0.2.15 >/dev/null 2>&1
    until_n 1200 gone "$ht"
    until_n 1200 gone "$hr"
    # the guest's receiver has reported (its second ttcp-r report)
    until_n 1200 alive_and_lines 2 '^ttcp-r: msgs='
    inns python3 "$ttcp_py" -t -l 8 -n 1 -p "$p3" 10.0.2.15 >/dev/null 2>&1
    # a hung guest or xbow fails the test after 3 minutes rather than hanging it
    until_n 1800 gone "$xpid" || { kill "$xpid" 2>/dev/null; fail "xbow still ran 3 minutes after the transfers"; }
    wait "$xpid"
    status=$?
    kill "$hr" "$ht" 2>/dev/null
    pids=
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "XBOW-RUN-END status=0"
    # (not "xbow-init: eth0 ... up": with --threads a kernel message from the
    # other CPU can land inside that console line; the transfers show it)
    # guest to host: all of them, as the guest sent them
    expect_out "^ttcp-t: msgs=$n bytes=$((n * len)) "
    cksum=-
    [ -n "$verify" ] && cksum=$(sed -n 's/^ttcp-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/out")
    checks=$((checks + 1))
    grep -q "^host-r: msgs=$n bytes=$((n * len)) time_us=[0-9]* rate_kBps=[0-9]* rate_Mbps=[0-9.]* cksum=$cksum verify=$([ -n "$verify" ] && echo 1 || echo 0) bad=0 seqerr=0 otherlen=0\$" "$WORK/hr.out" ||
        fail "the host receiver: $(cat "$WORK/hr.out"), want msgs=$n bytes=$((n * len)) cksum=$cksum"
    # host to guest: all of them, as the host sent them
    cksum=-
    [ -n "$verify" ] && cksum=$(sed -n 's/^host-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/ht.out")
    f0=$failures
    expect_out "^ttcp-r: msgs=$n bytes=$((n * len)) time_us=[0-9]* rate_kBps=[0-9]* rate_Mbps=[0-9.]* cksum=$cksum verify=$([ -n "$verify" ] && echo 1 || echo 0) bad=0 seqerr=0 otherlen=0"
    # where the missing ones went: the guest's UDP counters (RcvbufErrors), the
    # NIC's drops (info device e1000_0 stats) and the host's tap counters
    [ "$failures" = "$f0" ] || {
        echo "--- where host to guest datagrams went:"
        grep -A1 '^Udp: InDatagrams' "$WORK/out" | tail -2
        grep -i 'drop\|refused\|missed' "$WORK/out" | tail -5
        inns ip -s link show "$tap"
    }
    checks=$((checks + 1))
    grep -q "^host-t: msgs=$n bytes=$((n * len)) " "$WORK/ht.out" || fail "the host sender: $(cat "$WORK/ht.out")"
    # (How much the two transfers overlap depends on the host's load: a starved
    # xbow can take the host's queued datagrams in one burst before the guest's
    # ttcp -t starts.  The test checks the counts; LINUX_BENCH=duplex measures
    # the overlap.)
    if [ -n "$irqcpu" ]; then
        # the e1000's interrupts moved: CPU irqcpu took some after the
        # change (its count at the end above the one before the transfers),
        # and CPU 0 took none
        checks=$((checks + 1))
        awk -v c="$irqcpu" '$NF ~ /^eth0\r?$/ && $1 ~ /^[0-9]+:$/ { k++; a[k] = $(c + 2); z[k] = $2 }
            END { exit !(k == 2 && a[2] > a[1] && z[2] == z[1]) }' "$WORK/out" ||
            fail "the e1000's interrupts did not move to CPU $irqcpu: $(grep 'eth0.\?$' "$WORK/out")"
    fi
    grep -e '^ttcp-[rt]: msgs' -e '^host-[rt]: msgs' -e 'eth0.\?$' "$WORK/out" "$WORK/hr.out" "$WORK/ht.out"
}

duplex "--cpus 2" 1500 1472 300 5101 -V 1
duplex "--cpus 2 --threads=2" 9000 8972 200 5111
finish
