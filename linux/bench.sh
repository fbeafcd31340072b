#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# linux/bench.sh -- measure the real-Linux guest (make linux) on xbow: boot
# time to /init's shell prompt on 1 to 4 CPUs with and without idle skip,
# and the UDP throughput of Linux's e1000 driver on the emulated 82544 to
# the sink peer (ttcp -t to a multicast group, which needs no ARP: see
# tests/batch/linux_udp.sh).
# Prints tables in the format of docs/performance.md ("## Linux").
#
#   bash linux/bench.sh [XBOW]          (XBOW defaults to ./xbow)
#   make linux-bench
#   LINUX_BENCH=boot make linux-bench   (the boot table only; BOOT_RUNS=N runs
#                                         of each boot, the best counts, default 3)
#   LINUX_BENCH=udp make linux-bench    (the UDP table only; UDP_OPTS="--no-idle-skip"
#                                         adds options to its runs)
#   ENGINE=interp make linux-bench      (--engine for every run; default: xbow's
#                                         default, the translator on x86-64)
#   LINUX_BENCH=engines make linux-bench (the boot on 1 and 4 CPUs, each engine, with
#                                         and without idle skip, runs interleaved)
#   LINUX_BENCH=tap make linux-bench    (as root: UDP through --net tap:IF to and from
#                                         a host ttcp in a network namespace, the way
#                                         the seed measured; TAP_N=N datagrams of
#                                         1472 bytes, N/6 of 8972, default 30000;
#                                         TAP_PROFILE=1 prints the profiler's report
#                                         of each run: where the host time goes;
#                                         TAP_CPUS ("1 2"; C:T is --cpus C --threads=T,
#                                         a tail @P pins the guest's ttcp -t to CPU P:
#                                         "2@0 2@1"), TAP_DMA, TAP_SIZES narrow it,
#                                         TAP_PROFILE_ROWS (20) the profile's rows,
#                                         TAP_TX_ONLY=1 leaves out host to guest)
#   LINUX_BENCH=tap-rx make linux-bench (as root: the loss-free receive rate, host
#                                         to guest through the tap, the host sender
#                                         paced and the pacing searched; RX_ROUNDS (6 at most),
#                                         RX_N, RX_CPUS, RX_DMA, RX_SIZES narrow it)
#   LINUX_BENCH=duplex make linux-bench (as root: receive and transmit at once through
#                                         the tap, the guest's ttcp -r from a paced
#                                         host sender and its ttcp -t to a host
#                                         receiver; DUPLEX_N datagrams of 1472 bytes
#                                         to the guest, N/6 of 8972, default 10000;
#                                         DUPLEX_TX: the guest sends that percent
#                                         as many (default 50, jumbo 150);
#                                         DUPLEX_CPUS (default "1 2 2:2", C:T is
#                                         --cpus C --threads=T), DUPLEX_SIZES,
#                                         DUPLEX_DMA (raw), DUPLEX_D1472 and
#                                         DUPLEX_D8972 (the host sender's gap, us:
#                                         50, 300), DUPLEX_TRIES (runs at twice
#                                         the gap after a loss, default 3),
#                                         DUPLEX_IRQ_CPU (the e1000's interrupt on
#                                         2 CPUs: default 1, empty leaves it to
#                                         Linux: CPU 0), DUPLEX_RPS=MASK (receive
#                                         packet steering to those CPUs, hex),
#                                         DUPLEX_PIN="R T" (ttcp -r on CPU R, ttcp -t
#                                         on CPU T: linux/extra/taskset.c on a disk),
#                                         DUPLEX_PROFILE=1 (the
#                                         profiles), TAP_KEEP=DIR (the logs))
#   LINUX_BENCH=threads make linux-bench (--threads=N against --threads=1: the boot on
#                                         2 and 4 CPUs, two ttcp streams at once on 2;
#                                         THREADS_N datagrams a stream, default 4000)
#   LINUX_BENCH=udp NIC=hamachi PATCHES=ip27-dma64 make linux-bench
#                                        (the UDP table for another NIC, on a kernel
#                                         flavour: linux/patches/; jumbo frames
#                                         only where the driver takes them)
#
# The sink table runs ttcp as the classic tool (one buffer sent again and
# again, ttcp without -V): what it measures is Linux, its driver and xbow.
#
# The boot runs pass xbow.run=true, as they always have, so that the figures
# compare with earlier ones.  Whether Linux 6.1 loses its w1 boot race
# (docs/linux.md) depends on the command line; when it does, /init repairs it
# 250 ms of guest time later, and the instructions of that wait are counted.
#
# Host time: each throughput figure is the wall (and CPU) time of a run with
# N datagrams minus that of the same run with 1 datagram, so boot and link-up
# cancel out.  On a loaded host, wall time is an upper bound; CPU time is not
# affected by other processes.
set -u
XBOW=${1:-./xbow}
NIC=${NIC:-e1000-82544}
flavour=
for p in ${PATCHES:-}; do flavour="$flavour --patches $p"; done
# shellcheck disable=SC2086
[ -n "${VMLINUX:-}" ] || VMLINUX=$(bash "$(dirname "$0")/build.sh" --print-path $flavour) || {
    echo "linux/bench.sh: no kernel built: run 'make linux${PATCHES:+ PATCHES='$PATCHES'}' first" >&2
    exit 1
}
# Linux's hamachi.c keeps the standard MTU: no jumbo frames.
case $NIC in
hamachi) SIZES=1472 ;;
*) SIZES="1472 8972" ;;
esac
[ -x "$XBOW" ] || { echo "linux/bench.sh: $XBOW is not an executable" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIMEFORMAT='%R %U %S'

# timed OUT ARGS...: run xbow, output in OUT, "wall user sys" in OUT.time
timed() {
    out=$1
    shift
    { time "$XBOW" "$@" >"$out" 2>&1 </dev/null; } 2>"$out.time"
}

# boot CPUS [OPTION]: boot to the shell BOOT_RUNS times (default 3; the
# runs are identical, --rtc-fixed); sets insns (instructions executed, all
# CPUs), waited (ticks the CPUs waited, idle skip), and the best wall and cpu
boot() {
    local best_wall= best_cpu=
    for run in $(seq "${BOOT_RUNS:-3}"); do
        timed "$TMP/boot" --batch -q --rtc-fixed --cpus "$1" ${2:+"$2"} ${ENGINE:+--engine="$ENGINE"} --nic e1000-82544 --net sink \
            --append xbow.run=true -ex 'expect "xbow-init: shell ready" 8000000000' -ex 'info cpus' "$VMLINUX"
        grep -q "shell ready" "$TMP/boot" || { echo "boot on $1 CPUs ${2:-} failed:"; tail "$TMP/boot"; exit 1; }
        grep -q "asked the kernel to probe it again" "$TMP/boot" && retried="$retried $1 CPUs${2:+ $2} (run $run);"
        read -r wall user sys <"$TMP/boot.time"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then best_cpu=$cpu; fi
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" = 1 ]; then best_wall=$wall; fi
    done
    wall=$best_wall cpu=$best_cpu
    # info cpus: "* 0    PC  WHERE  INSTRUCTIONS", then "waited N ticks (P%): ..."
    insns=$(sed -n '/CPU  PC/,/^Idle skip/p' "$TMP/boot" | tr -d '*' |
        awk '$2 ~ /^0x/ { s += $4 } END { print s + 0 }')
    waited=$(sed -n '/CPU  PC/,/^Idle skip/p' "$TMP/boot" |
        awk '$1 == "waited" { s += $2 } END { print s + 0 }')
}

# tap_setup NS TAP: the tap cases need root; TTCP_PY is the host's ttcp, and
# the namespace NS holds the tap TAP (10.0.2.1/24, MTU 9000), the guest's
# host side, until the script exits (scripts/netns.sh: inns runs in it).
tap_setup() {
    [ "$(id -u)" = 0 ] || { echo "linux/bench.sh: the tap case needs root (ip netns)" >&2; exit 1; }
    TTCP_PY=$(cd "$(dirname "$0")/.." && pwd)/scripts/ttcp.py
    case "$XBOW" in /*) ;; *) XBOW="$PWD/$XBOW" ;; esac
    ns=$1 tap=$2
    trap 'ip netns del "$ns" 2>/dev/null; rm -rf "$TMP"' EXIT
    . "$(dirname "$0")/../scripts/netns.sh"
    netns_add "$ns" && netns_tap "$tap" 10.0.2.1 9000 || exit 1
}

# Helpers of the tap, tap-rx, duplex and threads sections.
# tapdrops: what the host dropped on its way into the tap $tap (in $ns): the
# device's and its queueing discipline's counts
tapdrops() {
    echo $(($(inns cat "/sys/class/net/$tap/statistics/tx_dropped") +
        $(inns tc -s qdisc show dev "$tap" | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')))
}
# unresolved: datagrams the host dropped for want of a MAC address (ARP
# unresolved: /proc/net/stat/arp_cache, hex, per host CPU; the kernel keeps
# one count for every namespace, so other jobs' drops show up in it too)
unresolved() {
    awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "unresolved_discards") c = i; next }
        { s += strtonum("0x" $c) } END { print s + 0 }' /proc/net/stat/arp_cache
}
clk=$(getconf CLK_TCK)
# cputicks PID: user + system clock ticks of the process
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# nth FILE PATTERN K: the K-th line matching PATTERN (sed -n 's/.../p' style: \1)
nth() { sed -n "s/$2/\\1/p" "$1" | sed -n "${3}p"; }
# count FILE PATTERN: lines matching, 0 when FILE does not exist yet (an
# empty count made "[ ... -lt 2 ]" an error, which ended the waits below at
# once: the host sent while the guest still booted, its receiver off)
count() {
    local n
    n=$(grep -c -e "$2" "$1" 2>/dev/null)
    echo "${n:-0}"
}
# busiest FILE [K]: the busiest host thread's CPU seconds in the K-th (default
# the last) `info cpus` of FILE with --threads ("host CPU time: cpu0 X s, ..."),
# the wall time an otherwise idle host with a core per thread would take;
# threads FILE [K]: all of them, "X Y ..."
threads() { sed -n 's/^One host thread per CPU.*host CPU time: //p' "$1" | sed -n "${2:-\$}p" | tr ',' '\n' |
    awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }'; }
busiest() { threads "$@" | tr ' ' '\n' | awk '{ if ($1 > m) m = $1 } END { print m + 0 }'; }
# profiles: the profiles the runs kept ($TMP/prof-*), each under its name
profiles() { for f in "$TMP"/prof-*; do echo; echo "${f##*/prof-}:"; cat "$f"; done; }
# keep_and_exit: the logs to TAP_KEEP (when set), and the end of the script
keep_and_exit() {
    [ -n "${TAP_KEEP:-}" ] && cp -r "$TMP" "$TAP_KEEP"
    exit 0
}
# summary_and_exit [PROFILES]: the end of the tap-rx and duplex sections: the
# load, $summary, the profiles when PROFILES is not empty, keep_and_exit
summary_and_exit() {
    echo
    echo "Load at the end: $(uptime)."
    echo "$summary"
    [ -n "${1:-}" ] && profiles
    keep_and_exit
}

# pin_disk: linux/extra/taskset.c built with the initramfs tools' flags on
# an ext2 disk image, $TMP/pin.img (the initramfs has no taskset, and a tool
# there would change the kernel's build key; the kernel has no cgroups)
pin_disk() {
    local here
    here=$(cd "$(dirname "$0")" && pwd)
    [ -e "$TMP/pin.img" ] && return 0
    mkdir -p "$TMP/pin"
    (cd "$here/initramfs" && "${XBOW_CROSS_COMPILE:-mips64-linux-gnuabi64-}gcc" -static -O2 -march=r10000 -mabi=64 \
        -mno-abicalls -fno-pic -G0 -ffreestanding -fno-builtin -fno-stack-protector -fno-asynchronous-unwind-tables \
        -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections -Wall -Wextra -nostdlib \
        '-Wl,-e,__start' '-Wl,--gc-sections' '-Wl,--build-id=none' -s -I. -o "$TMP/pin/taskset" ../extra/taskset.c xlibc.c -lgcc) ||
        { echo "linux/bench.sh: cannot build linux/extra/taskset.c (the cross compiler of linux/build.sh)" >&2; exit 1; }
    PATH=$PATH:/sbin:/usr/sbin mke2fs -q -F -t ext2 -b 1024 -d "$TMP/pin" "$TMP/pin.img" 1M >/dev/null ||
        { echo "linux/bench.sh: mke2fs -d failed (e2fsprogs)" >&2; exit 1; }
}

# ---------------------------------------------------------------------- tap
# LINUX_BENCH=tap: the guest's ttcp -t through --net tap:IF to scripts/ttcp.py
# -r in a network namespace (host wall time: the host receiver's own clock,
# first to last datagram), and the host's ttcp.py -t, unpaced, to the guest's
# ttcp -r.  Each run stops when the guest's command ends (expect "XBOW-RUN-END"),
# and `info nic` then shows the rates of the last half second of guest time
# in guest and host time: the receive direction's host-time figure.
# Every datagram is accounted for: transmit, the host receiver counts them
# all, or its socket's receive-buffer errors (the namespace's /proc/net/snmp)
# say how many it lost; receive, what the host sent = what the guest's ttcp read + the NIC's
# rx drops + Linux's backlog drops (/proc/net/softnet_stat) + its UDP
# receive-buffer errors (/proc/net/snmp) + what the host dropped on its way
# into the tap (the device's tx_dropped and its qdisc's drops).
# Transmit, the guest sleeps 1 s after ttcp -t before its counters and the end
# marker (the profile and `info nic`'s rates end with ttcp's report, the
# counters after the sleep): ttcp's last datagrams may still be queued in the
# guest when it exits
# (the e1000's NAPI poll deferred to a runnable ksoftirqd while the shell runs
# on: docs/performance.md, "The tap's output on a writer thread"); the sleep lets
# them out (tests/batch/linux_tx_drain.sh).
if [ "${LINUX_BENCH:-all}" = tap ]; then
    tap_setup "xbow-bench-$$" "xbb$$"
    N=${TAP_N:-30000}
    # hostcpu FILE BYTES: the xbow process's CPU seconds over the profiled
    # transfer (profile report: "the process used C s of CPU time") in
    # cpusec, and BYTES in Mbit/s per host CPU second in percpu
    hostcpu() {
        cpusec=$(sed -n 's/.*(the process used \([0-9.]*\) s of CPU time[,)].*/\1/p' "$1" | sed -n '$p')
        cpusec=${cpusec:-0}
        percpu=$(echo "$2 * 8 / ($cpusec + 0.000001) / 1000000" | bc -l | xargs printf '%.1f')
    }
    # nicrate FILE DIR [1]: the host-time and guest-time Mbit/s of `info nic`
    # (the last one printed, or with 1 the first: transmit prints it at ttcp's
    # report, then `info device` its rates again after the drain)
    nicrate() {
        g=$(sed -n "s/^    guest time: .*$2 [0-9.]* frames\/s \([0-9.]*\) Mbit\/s.*/\1/p" "$1" | sed -n "${3:-\$}p")
        h=$(sed -n "s/^    host time:  .*$2 [0-9.]* frames\/s \([0-9.]*\) Mbit\/s.*/\1/p" "$1" | sed -n "${3:-\$}p")
    }
    echo "UDP through --net tap:IF to/from a host ttcp (scripts/ttcp.py) in a network namespace,"
    echo "e1000-82544, classic ttcp (one buffer), --engine=${ENGINE:-(the default)}, $N datagrams of 1472 bytes, $((N / 6)) of 8972:"
    echo
    echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) host CPUs)."
    echo
    echo "| direction | CPUs | --nic-dma | datagram | sent | received | host wall Mbit/s | guest Mbit/s (ttcp) | info nic: host / guest Mbit/s (last 0.5 s guest) | per host CPU s | host CPU us per datagram |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    port=6000
    for conf in ${TAP_CPUS:-1 2}; do
        # C:T is --cpus C --threads=T, as in DUPLEX_CPUS; a tail @P pins ttcp
        # to CPU P (taskset from an ext2 disk, as DUPLEX_PIN)
        cc=${conf%%@*} pin='' pdisk='' prun=''
        [ "$conf" = "$cc" ] || pin=${conf#*@}
        cpus=${cc%%:*} th=
        [ "$cc" = "$cpus" ] || th=${cc#*:}
        if [ -n "$pin" ]; then
            pin_disk
            pdisk="--disk $TMP/pin.img" prun="mount -t ext2 /dev/sda /mnt; "
        fi
        for dma in ${TAP_DMA:-raw per-word}; do
            for len in ${TAP_SIZES:-8972 1472}; do
                if [ $len = 1472 ]; then mtu=1500 n=$N; else mtu=9000 n=$((N / 6)); fi
                # guest to host
                port=$((port + 1))
                rm -f "$TMP/rdy"
                inns python3 "$TTCP_PY" -r -l $len -p $port -w 300 -b 10.0.2.1 --ready "$TMP/rdy" >"$TMP/rx" 2>&1 &
                rx=$!
                while [ ! -e "$TMP/rdy" ]; do sleep 0.05; done
                # shellcheck disable=SC2086
                inns "$XBOW" --batch -q --cpus $cpus ${th:+--threads=$th} ${ENGINE:+--engine="$ENGINE"} $pdisk --nic e1000-82544 --net "tap:$tap" --nic-dma=$dma \
                    --append "xbow.mtu=$mtu xbow.run=\"${prun}ping -c 2 10.0.2.1 && ${pin:+/mnt/taskset $((1 << ${pin:-0})) }ttcp -t -l $len -n $n -p $port 10.0.2.1; sleep 1; cat /proc/net/snmp /proc/net/dev\" xbow.after=reboot" \
                    -ex 'expect "ttcp-t: msgsize" 8000000000' -ex 'info cpus' -ex 'profile start all' -ex 'expect " nobufs=" 400000000000' \
                    -ex 'profile stop' -ex 'info cpus' -ex "profile report ${TAP_PROFILE_ROWS:-20}" -ex 'info nic' -ex 'expect "XBOW-RUN-END" 400000000000' \
                    -ex 'info device e1000_0 stats' "$VMLINUX" >"$TMP/g" 2>&1 </dev/null
                wait $rx
                # where datagrams the receiver did not count went: the guest's UDP
                # SndbufErrors (any failed send once the socket has waited for
                # buffer space: an end sentinel refused with ECONNREFUSED after
                # the receiver closed, docs/performance.md), the port's tx drops (the host refused the frame) and
                # the namespace's tap rx_dropped, UDP NoPorts and IP InDiscards
                gsnd=$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $7 }' "$TMP/g")
                ptx=$(sed -n 's/^  tx  *[0-9]* frames, [0-9]* bytes, \([0-9]*\) dropped$/\1/p' "$TMP/g" | sed -n '$p')
                tapin=$(inns cat "/sys/class/net/$tap/statistics/rx_dropped")
                hnop=$(inns awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $3 }' /proc/net/snmp)
                hdisc=$(inns awk '$1 == "Ip:" && $2 ~ /^[0-9]/ { print $8 }' /proc/net/snmp)
                # and what never left the guest before xbow stopped: the NIC's tx
                # frames against the guest's UDP and ICMP datagrams (plus its ARP
                # requests, usually 1) when the run ended
                gout=$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { u = $5 } $1 == "Icmp:" && $2 ~ /^[0-9]/ { i = $16 } END { print u + i }' "$TMP/g")
                nictx=$(sed -n 's/^  tx frames \([0-9]*\) .*/\1/p' "$TMP/g" | sed -n '1p')
                # the host receiver's own losses: UDP RcvbufErrors in the namespace
                hrcv=$(inns awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 }' /proc/net/snmp)
                hrcv=$((hrcv - ${hrcv0:-0}))
                hrcv0=$((${hrcv0:-0} + hrcv))
                got=$(sed -n 's/^host-r: msgs=\([0-9]*\) .*/\1/p' "$TMP/rx")
                hw=$(sed -n 's/^host-r: msgs=.* rate_Mbps=\([0-9.]*\) .*/\1/p' "$TMP/rx")
                gw=$(sed -n 's/^ttcp-t: msgs=.* rate_Mbps=\([0-9.]*\) .*/\1/p' "$TMP/g")
                nicrate "$TMP/g" tx 1
                hostcpu "$TMP/g" "$((${got:-0} * len))"
                printf '| guest to host | %s | %s | %d | %d | %s (host UDP rcvbuf errors %s; guest UDP sndbuf errors %s, port tx drops %s, NIC tx frames %s for %s guest UDP+ICMP datagrams and its ARP; since the start: tap rx drops %s, host UDP no-port %s, IP in-discards %s) | %s | %s | %s / %s | %s | %.1f |\n' "$conf" $dma $len $n "${got:-?}" "$hrcv" \
                    "${gsnd:-?}" "${ptx:-?}" "${nictx:-?}" "${gout:-?}" "${tapin:-?}" "${hnop:-?}" "${hdisc:-?}" \
                    "${hw:-?}" "${gw:-?}" "${h:-?}" "${g:-?}" "$percpu" "$(echo "$cpusec * 1000000 / ${got:-1}" | bc -l)"
                sed -n '/CPU  PC/,/^Idle skip/p;/^Solo turns/p;/^Turns:/p;/^Profile from/,/^e1000_0 (/p' "$TMP/g" >"$TMP/prof-tx-$conf-$dma-$len"
                [ -n "${TAP_TX_ONLY:-}" ] && continue
                # host to guest: ttcp.py -t as fast as it goes
                port=$((port + 1))
                : >"$TMP/g" # (the wait below must not see the last run's lines)
                inns "$XBOW" --batch -q --cpus $cpus ${th:+--threads=$th} ${ENGINE:+--engine="$ENGINE"} --nic e1000-82544 --net "tap:$tap" --nic-dma=$dma \
                    --append "xbow.mtu=$mtu xbow.run=\"ping -c 2 10.0.2.1 && ttcp -r -l $len -p $port -w 10; cat /proc/net/snmp; cat /proc/net/softnet_stat\" xbow.after=reboot" \
                    -ex 'expect "ttcp-r: msgsize" 8000000000' -ex 'profile start all' -ex 'expect "XBOW-RUN-END" 400000000000' \
                    -ex 'profile stop' -ex 'info nic' -ex 'info device e1000_0 stats' \
                    -ex 'profile report 20' "$VMLINUX" >"$TMP/g" 2>&1 </dev/null &
                xp=$!
                while ! grep -q '^ttcp-r: msgsize' "$TMP/g" 2>/dev/null && kill -0 $xp 2>/dev/null; do sleep 0.1; done
                d0=$(tapdrops)
                inns python3 "$TTCP_PY" -t -l $len -n $n -p $port -e 50 10.0.2.15 >"$TMP/tx" 2>&1
                wait $xp
                d1=$(tapdrops)
                got=$(sed -n 's/^ttcp-r: msgs=\([0-9]*\) .*/\1/p' "$TMP/g")
                gw=$(sed -n 's/^ttcp-r: msgs=.* rate_Mbps=\([0-9.]*\) .*/\1/p' "$TMP/g")
                nicdrop=$(sed -n 's/^  rx drops \([0-9]*\).*/\1/p' "$TMP/g")
                # Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors ...
                rcvbuf=$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 }' "$TMP/g")
                # softnet_stat: per CPU, hex; the second column is the backlog's drops
                backlog=$(awk 'NF >= 10 && $1 ~ /^[0-9a-f]{8}$/ { s += strtonum("0x" $2) } END { print s + 0 }' "$TMP/g")
                nicrate "$TMP/g" rx
                hostcpu "$TMP/g" "$((${got:-0} * len))"
                printf '| host to guest | %s | %s | %d | %d | %s (NIC drops %s, backlog drops %s, UDP rcvbuf errors %s, tap drops %s) | %s | %s | %s / %s | %s | %.1f |\n' \
                    "$conf" $dma $len $n "${got:-?}" "${nicdrop:-?}" "${backlog:-?}" "${rcvbuf:-?}" "$((d1 - d0))" "${h:-?}" "${gw:-?}" "${h:-?}" "${g:-?}" \
                    "$percpu" "$(echo "$cpusec * 1000000 / ${got:-1}" | bc -l)"
                sed -n '/^Profile from/,$p' "$TMP/g" >"$TMP/prof-rx-$conf-$dma-$len"
            done
        done
    done
    echo
    echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
    [ -n "${TAP_PROFILE:-}" ] && profiles
    keep_and_exit
fi

# ------------------------------------------------------------------- tap-rx
# LINUX_BENCH=tap-rx: the loss-free receive rate, host to guest.  One boot
# per configuration (CPUs, --nic-dma, datagram size); the guest runs
# RX_ROUNDS receivers one after the other (ttcp -r, then its kernel's UDP
# and backlog counters), and for each the host sends RX_N datagrams (N/6 of
# 8972 bytes) with scripts/ttcp.py -t -d USEC, the pacing chosen by a search:
# halve the gap after a round without loss, go up after one with loss, then
# bisect (geometric mean) between the fastest loss-free and the slowest lossy
# pacing.  After each round xbow prints its counters (`expect` stops it once
# the guest's ttcp -r has reported): the NIC's drops by reason and the port's
# count of frames read from the tap, so every datagram is accounted for:
#   sent = received by ttcp + UDP rcvbuf errors + backlog drops + NIC drops
#          + port drops + dropped by the host on its way into the tap
#          + (not yet read, or other: the difference, printed)
# Host CPU: the xbow process's user + system time from the sender's start to
# the end of the round (/proc/PID/stat), per datagram and per Mbit.
if [ "${LINUX_BENCH:-all}" = tap-rx ]; then
    tap_setup "xbow-rx-$$" "xbr$$"
    ROUNDS=${RX_ROUNDS:-6}
    N=${RX_N:-3000}
    echo "UDP host to guest through --net tap:IF, e1000-82544, the host's scripts/ttcp.py -t paced (-d USEC) to the"
    echo "guest's ttcp -r, --engine=${ENGINE:-(the default)}, $N datagrams of 1472 bytes and $((N / 6)) of 8972 a round,"
    echo "$ROUNDS rounds a configuration (pacing searched), the xbow process's CPU time from /proc:"
    echo
    echo "Load at the start: $(uptime) ($(nproc) host CPUs)."
    echo
    echo "| CPUs | --nic-dma | datagram | round | -d us | sent | received | lost to: rcvbuf / backlog / NIC / port / tap / unseen | sender Mbit/s (host wall) | guest Mbit/s (ttcp -r) | xbow CPU s | Mbit/s per host CPU s | host CPU us per datagram |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    summary=
    for cpus in ${RX_CPUS:-1 2}; do
        for dma in ${RX_DMA:-raw per-word}; do
            for len in ${RX_SIZES:-8972 1472}; do
                if [ $len = 1472 ]; then mtu=1500 n=$N d=200; else mtu=9000 n=$((N / 6)) d=800; fi
                # (the kernel command line takes 63 words: ttcp's default port 5001)
                port=5001
                r="ttcp -r -l $len -w 5; cat /proc/net/snmp /proc/net/softnet_stat"
                run="ping -c 1 10.0.2.1 && $r"
                # xbow prints its counters for round k when the guest's
                # receiver of round k+1 is ready (its counters of round k
                # printed), or the guest's command has ended
                exs=(-ex 'expect "ttcp-r: msgsize" 400000000000')
                for k in $(seq 2 "$ROUNDS"); do
                    run="$run; $r"
                    exs+=(-ex 'expect "ttcp-r: msgsize" 400000000000' -ex 'info device e1000_0 stats' -ex 'echo ROUND-END\n')
                done
                exs+=(-ex 'expect "XBOW-RUN-END" 400000000000' -ex 'info device e1000_0 stats' -ex 'echo ROUND-END\n')
                out="$TMP/rx-$cpus-$dma-$len"
                : >"$out" # (the waits on it start before xbow opens it)
                # ip netns exec execs xbow: $! is the xbow process (its CPU time)
                ip netns exec "$ns" "$XBOW" --batch -q --cpus $cpus ${ENGINE:+--engine="$ENGINE"} --nic e1000-82544 --net "tap:$tap" --nic-dma=$dma \
                    --append "xbow.mtu=$mtu xbow.run=\"$run\" xbow.after=reboot" "${exs[@]}" \
                    "$VMLINUX" >"$out" 2>&1 </dev/null &
                xp=$!
                lossless='' lossy='' best='' aboverow=''
                prev_rcv=0 prev_bl=0 prev_nic=0 prev_port=0 prev_read=0
                for k in $(seq "$ROUNDS"); do
                    while [ "$(count "$out" '^ttcp-r: msgsize')" -lt "$k" ] && kill -0 $xp 2>/dev/null; do sleep 0.05; done
                    kill -0 $xp 2>/dev/null || { echo "xbow ended early:"; tail "$out"; break; }
                    t0=$(tapdrops) c0=$(cputicks $xp)
                    inns python3 "$TTCP_PY" -t -l $len -n $n -p $port -d "$d" -e 300 10.0.2.15 >"$TMP/tx" 2>&1
                    while [ "$(count "$out" '^ROUND-END')" -lt "$k" ] && kill -0 $xp 2>/dev/null; do sleep 0.05; done
                    c1=$(cputicks $xp) t1=$(tapdrops)
                    got=$(nth "$out" '^ttcp-r: msgs=\([0-9]*\) .*' $k)
                    gw=$(nth "$out" '^ttcp-r: msgs=.* rate_Mbps=\([0-9.]*\) .*' $k)
                    hw=$(sed -n 's/^host-t: msgs=.* rate_Mbps=\([0-9.]*\) .*/\1/p' "$TMP/tx")
                    # cumulative counters: the guest's (Udp: ... RcvbufErrors is field 6;
                    # softnet_stat's second column, hex, per CPU) and xbow's
                    rcv=$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { n++; if (n == '$k') print $6 }' "$out")
                    bl=$(awk '/^ttcp-r: msgs=/ { n++ } n == '$k' && NF >= 10 && $1 ~ /^[0-9a-f]{8}$/ { s += strtonum("0x" $2) } END { print s + 0 }' "$out")
                    nicd=$(nth "$out" '^  rx drops \([0-9]*\).*' $k)
                    portd=$(nth "$out" '^  rx *[0-9]* frames, [0-9]* bytes, \([0-9]*\) dropped.*' $k)
                    rd=$(nth "$out" '^  tap .*: \([0-9]*\) frames read.*' $k)
                    drcv=$((${rcv:-0} - prev_rcv)) dbl=$((bl - prev_bl)) dnic=$((${nicd:-0} - prev_nic))
                    dport=$((${portd:-0} - prev_port - dnic)) dread=$((${rd:-0} - prev_read))
                    prev_rcv=${rcv:-0} prev_bl=$bl prev_nic=${nicd:-0} prev_port=${portd:-0} prev_read=${rd:-0}
                    dtap=$((t1 - t0))
                    unseen=$((n - ${got:-0} - drcv - dbl - dnic - dport - dtap))
                    cpu=$(echo "($c1 - $c0) / $clk" | bc -l)
                    row=$(printf '| %d | %s | %d | %d | %d | %d | %s | %d / %d / %d / %d / %d / %d | %s | %s | %.2f | %.1f | %.1f |' \
                        $cpus $dma $len $k $d $n "${got:-?}" $drcv $dbl $dnic $dport $dtap $unseen "${hw:-?}" "${gw:-?}" "$cpu" \
                        "$(echo "${got:-0} * $len * 8 / ($cpu + 0.005) / 1000000" | bc -l)" "$(echo "$cpu * 1000000 / (${got:-0} + 0.001)" | bc -l)")
                    echo "$row"
                    # (the frames xbow read from the tap this round: $dread, for the log)
                    echo "$cpus $dma $len $k d=$d read=$dread" >>"$TMP/reads"
                    if [ "${got:-0}" = "$n" ]; then
                        if [ -z "$lossless" ] || [ "$d" -lt "$lossless" ]; then lossless=$d best=$row; fi
                    else
                        if [ -z "$lossy" ] || [ "$d" -gt "$lossy" ]; then lossy=$d aboverow=$row; fi
                    fi
                    # the next pacing
                    if [ -z "$lossy" ]; then d=$((d / 2)); [ $d -lt 1 ] && d=1
                    elif [ -z "$lossless" ]; then d=$((d * 2))
                    else d=$(echo "sqrt($lossless * $lossy) + 0.5" | bc -l | cut -d. -f1)
                        { [ "$d" -ge "$lossless" ] || [ "$d" -le "$lossy" ]; } && d=$lossless
                    fi
                done
                wait $xp
                summary="$summary
best loss-free: ${best:-none}
lossy above it: ${aboverow:-none}"
            done
        done
    done
    summary_and_exit
fi

# ------------------------------------------------------------------- duplex
# LINUX_BENCH=duplex: receive and transmit at once through the tap.  The
# guest runs ttcp -r (from the host's scripts/ttcp.py -t, paced -d USEC) and
# ttcp -t (unpaced, to the host's ttcp.py -r) at the same time, DUPLEX_N
# datagrams of 1472 bytes each way (N/6 of 8972).  Both start together: the
# guest's receiver waits in the background, a second `ttcp -r -n 1` in the
# foreground holds the guest's ttcp -t back until the host has started its
# sender and sends it one datagram (the start barrier); a third holds the
# guest's counters back until the host has seen both transfers end (the end
# barrier).  The profile (`profile start all`) and the host CPU time cover
# the interval between the barriers.  Every datagram is accounted for:
#   guest to host: sent = received by the host + its UDP rcvbuf errors
#                  + the port's tx drops + the tap's rx drops + unseen
#   host to guest: sent = received by the guest's ttcp + its UDP rcvbuf
#                  errors + backlog drops + NIC drops + dropped by the host
#                  into the tap + unseen
# With loss host to guest the row is printed and the run repeated at twice
# the gap (DUPLEX_TRIES runs at most), so the table shows the lossy and the
# loss-free pacing.  On more than one CPU the e1000's interrupt goes where
# DUPLEX_IRQ_CPU says (echo MASK > /proc/irq/N/smp_affinity in the guest, N
# read from /proc/interrupts by a first boot; empty: where Linux puts it,
# CPU 0).  The guest prints /proc/interrupts at the end: which CPU took the
# e1000's interrupts.
if [ "${LINUX_BENCH:-all}" = duplex ]; then
    tap_setup "xbow-dx-$$" "xbd$$"
    # The guest's MAC address is fixed (the default one hashes the kernel
    # command line, which names each run's ports) and the host knows it
    # (a permanent neighbour entry): with a new address each run, the host's
    # entry from the run before sometimes stayed unresolved and it dropped
    # the datagrams of a whole run (the ARP counter above).
    mac=02:58:42:00:02:0f
    inns ip neigh replace 10.0.2.15 lladdr $mac dev "$tap" nud permanent
    N=${DUPLEX_N:-10000}
    TRIES=${DUPLEX_TRIES:-3}
    IRQCPU=${DUPLEX_IRQ_CPU-1}
    echo "UDP both ways at once through --net tap:IF, e1000-82544 (--nic-dma=${DUPLEX_DMA:-raw}), --engine=${ENGINE:-(the default)}:"
    echo "the guest's ttcp -r from the host's scripts/ttcp.py -t (paced, -d us) and its ttcp -t (unpaced) to the"
    echo "host's ttcp.py -r: $N datagrams of 1472 bytes to the guest and ${DUPLEX_TX:-50}% as many from it, $((N / 6)) of 8972 and ${DUPLEX_TX:-150}%; e1000 interrupt on more than"
    if [ -n "$IRQCPU" ]; then echo "one CPU: CPU $IRQCPU (smp_affinity)${DUPLEX_RPS:+, RPS to CPU mask $DUPLEX_RPS}."; else echo "one CPU: where Linux puts it${DUPLEX_RPS:+, RPS to CPU mask $DUPLEX_RPS}."; fi
    echo
    echo "Load at the start: $(uptime) ($(nproc) host CPUs)."
    echo
    echo "| CPUs | --threads | datagram | -d us | dir | sent | received | lost (where) | guest Mbit/s (ttcp) | host wall Mbit/s | both ways Mbit/s per wall s | xbow CPU s | busiest thread CPU s | e1000 irqs per CPU | load |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    # DUPLEX_PIN="R T": the guest's ttcp -r on CPU R and its ttcp -t on CPU T
    # (2 CPUs and more), with linux/extra/taskset.c on an ext2 disk (the
    # initramfs has no taskset; the kernel no cgroups)
    disk='' pinr='' pint=''
    if [ -n "${DUPLEX_PIN:-}" ]; then
        read -r pr pt <<<"$DUPLEX_PIN"
        pin_disk
        disk="--disk $TMP/pin.img"
        echo "ttcp -r pinned to CPU $pr, ttcp -t to CPU $pt (taskset from an ext2 disk)."
    fi
    port=7000 summary=
    for conf in ${DUPLEX_CPUS:-1 2 2:2}; do
        cpus=${conf%%:*} th=
        [ "$conf" != "$cpus" ] && th=${conf#*:}
        aff=
        if [ "$cpus" -gt 1 ] && [ -n "$IRQCPU" ]; then
            # the e1000's interrupt number, from the guest's /proc/interrupts
            "$XBOW" --batch -q --rtc-fixed --cpus "$cpus" $disk --nic e1000-82544 --net sink \
                --append 'xbow.run="cat /proc/interrupts"' -ex 'expect "XBOW-RUN-END" 8000000000' "$VMLINUX" >"$TMP/irq" 2>&1 </dev/null
            irq=$(awk '$NF ~ /^eth0\r?$/ && $1 ~ /^[0-9]+:$/ { sub(":", "", $1); print $1; exit }' "$TMP/irq")
            [ -n "$irq" ] || { echo "no eth0 in the guest's /proc/interrupts:"; tail "$TMP/irq"; exit 1; }
            aff="echo $((1 << IRQCPU)) > /proc/irq/$irq/smp_affinity; "
        fi
        # DUPLEX_RPS=MASK: Receive Packet Steering, the receive stack above the
        # driver on the CPUs of MASK (hex) rather than the interrupt's
        [ "$cpus" -gt 1 ] && [ -n "${DUPLEX_RPS:-}" ] && aff="${aff}echo $DUPLEX_RPS > /sys/class/net/eth0/queues/rx-0/rps_cpus; "
        pinr='' pint=''
        if [ "$cpus" -gt 1 ] && [ -n "$disk" ]; then
            aff="${aff}mount -t ext2 /dev/sda /mnt; "
            pinr="/mnt/taskset $((1 << pr)) " pint="/mnt/taskset $((1 << pt)) "
        fi
        for len in ${DUPLEX_SIZES:-8972 1472}; do
            if [ "$len" = 1472 ]; then mtu=1500 n=$N d=${DUPLEX_D1472:-50} x=50; else mtu=9000 n=$((N / 6)) d=${DUPLEX_D8972:-300} x=150; fi
            # the guest sends DUPLEX_TX percent as many (50, jumbo 150; it is not
            # paced), so that its ttcp -t ends before the host's paced sender:
            # what it reports is the transmit rate while the guest receives
            # (the table's "at once": how much of the time both ran)
            tn=$((n * ${DUPLEX_TX:-$x} / 100))
            for try in $(seq "$TRIES"); do
                # ports: the start barrier, the guest's receiver, the host's, the end barrier
                p0=$((port + 1)) p1=$((port + 2)) p2=$((port + 3)) p3=$((port + 4)) port=$((port + 4))
                runno=$((${runno:-0} + 1))
                out="$TMP/dx-$runno-$conf-$len-$try"
                rm -f "$TMP/rdy"
                inns python3 "$TTCP_PY" -r -l "$len" -n "$tn" -p $p2 -w 30 -b 10.0.2.1 --ready "$TMP/rdy" >"$out.hr" 2>&1 &
                hr=$!
                while [ ! -e "$TMP/rdy" ]; do sleep 0.05; done
                run="echo 4194304 > /proc/sys/net/core/rmem_max; ${aff}ping -c 1 10.0.2.1; ${pinr}ttcp -r -l $len -n $n -p $p1 & ttcp -r -n 1 -p $p0; ${pint}ttcp -t -l $len -n $tn -p $p2 10.0.2.1; ttcp -r -n 1 -p $p3; echo DUPLEX-END; cat /proc/net/snmp /proc/net/softnet_stat /proc/interrupts"
                : >"$out" # (the waits on it start before xbow opens it)
                # ip netns exec execs xbow: $! is the xbow process (its CPU time)
                # shellcheck disable=SC2086
                ip netns exec "$ns" "$XBOW" --batch -q --cpus "$cpus" ${th:+--threads=$th} ${ENGINE:+--engine="$ENGINE"} $disk \
                    --nic e1000-82544 --mac $mac --net "tap:$tap" --nic-dma="${DUPLEX_DMA:-raw}" \
                    --append "xbow.mtu=$mtu xbow.run=\"$run\" xbow.after=reboot" \
                    -ex 'expect "ttcp-r: msgsize" 8000000000' -ex 'expect "ttcp-r: msgsize" 400000000000' \
                    -ex 'info cpus' -ex 'profile start all' -ex 'expect "DUPLEX-END" 4000000000000' -ex 'profile stop' \
                    -ex 'info cpus' -ex 'info nic' -ex 'info device hub irq' -ex 'expect "XBOW-RUN-END" 400000000000' \
                    -ex 'info device e1000_0 stats' -ex "profile report ${DUPLEX_PROFILE_ROWS:-12}" \
                    "$VMLINUX" >"$out" 2>&1 </dev/null &
                xp=$!
                while [ "$(count "$out" '^ttcp-r: msgsize')" -lt 2 ] && kill -0 $xp 2>/dev/null; do sleep 0.05; done
                kill -0 $xp 2>/dev/null || { echo "xbow ended early:"; tail "$out"; exit 1; }
                hrcv0=$(inns awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 }' /proc/net/snmp)
                tin0=$(inns cat "/sys/class/net/$tap/statistics/rx_dropped")
                inns ip neigh show dev "$tap" >"$out.neigh0"
                a0=$(unresolved)
                t0=$(tapdrops) c0=$(cputicks $xp) w0=$(date +%s.%N)
                inns python3 "$TTCP_PY" -t -l "$len" -n "$n" -p $p1 -d "$d" -e 50 10.0.2.15 >"$out.ht" 2>&1 &
                ht=$!
                inns python3 "$TTCP_PY" -t -l 8 -n 1 -p $p0 10.0.2.15 >/dev/null 2>&1
                wait $ht
                # both transfers over: the host's receiver has its end, the guest's
                # ttcp -r (after the start barrier's) has reported
                wait $hr
                # (after a loss the guest's ttcp -r ends at a sentinel; if the host's
                # were lost too, more every 3 s rather than its 60 s timeout)
                k=0
                while [ "$(count "$out" '^ttcp-r: msgs=')" -lt 2 ] && kill -0 $xp 2>/dev/null; do
                    sleep 0.05
                    k=$((k + 1))
                    [ $((k % 60)) = 0 ] && inns python3 "$TTCP_PY" -t -n 0 -p $p1 10.0.2.15 >/dev/null 2>&1
                done
                w1=$(date +%s.%N) c1=$(cputicks $xp) t1=$(tapdrops) a1=$(unresolved)
                inns ip neigh show dev "$tap" >"$out.neigh1"
                tin1=$(inns cat "/sys/class/net/$tap/statistics/rx_dropped")
                hrcv1=$(inns awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 }' /proc/net/snmp)
                inns python3 "$TTCP_PY" -t -l 8 -n 1 -p $p3 10.0.2.15 >/dev/null 2>&1
                wait $xp
                load=$(cut -d' ' -f1 /proc/loadavg)
                cpu=$(echo "($c1 - $c0) / $clk" | bc -l)
                wall=$(echo "$w1 - $w0" | bc -l)
                # the busiest thread: with --threads each CPU's thread (info cpus
                # before and after), else the emulation thread (profile report)
                if [ -n "$th" ]; then
                    b0=$(threads "$out" 1) b1=$(threads "$out" 2)
                    busy=$(echo "$b0 $b1" | awk '{ h = NF / 2; for (i = 1; i <= h; i++) if ($(i + h) - $i > m) m = $(i + h) - $i; print m + 0 }')
                else
                    busy=$(sed -n 's/.*s of CPU time, \([0-9.]*\) s of it in the emulation thread.*/\1/p' "$out" | sed -n '$p')
                fi
                # the e1000's interrupts per CPU: the guest's /proc/interrupts, its eth0 line
                irqs=$(awk '$NF ~ /^eth0\r?$/ && $1 ~ /^[0-9]+:$/ { s = ""; for (i = 2; i <= '"$cpus"' + 1; i++) s = s (i > 2 ? "/" : "") $i; l = s } END { print l }' "$out")
                # guest to host
                tgot=$(sed -n 's/^host-r: msgs=\([0-9]*\) .*/\1/p' "$out.hr")
                tus=$(sed -n 's/^host-r: msgs=.* time_us=\([0-9]*\) .*/\1/p' "$out.hr")
                tgw=$(sed -n 's/^ttcp-t: msgs=.* rate_Mbps=\([0-9.]*\) .*/\1/p' "$out")
                tsent=$(sed -n 's/^ttcp-t: msgs=\([0-9]*\) .*/\1/p' "$out")
                ptx=$(sed -n 's/^  tx  *[0-9]* frames, [0-9]* bytes, \([0-9]*\) dropped$/\1/p' "$out" | sed -n '$p')
                hrcv=$((${hrcv1:-0} - ${hrcv0:-0})) tin=$((tin1 - tin0)) tgot=${tgot:-0}
                tunseen=$((${tsent:-0} - ${tgot:-0} - hrcv - ${ptx:-0} - tin))
                # host to guest (the guest's second ttcp-r report; the first is the barrier's)
                rgot=$(nth "$out" '^ttcp-r: msgs=\([0-9]*\) .*' 2)
                rgw=$(nth "$out" '^ttcp-r: msgs=.* rate_Mbps=\([0-9.]*\) .*' 2)
                rus=$(sed -n 's/^host-t: msgs=.* time_us=\([0-9]*\) .*/\1/p' "$out.ht")
                rcv=$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 }' "$out" | sed -n '$p')
                bl=$(awk '/^DUPLEX-END/ { on = 1 } on && NF >= 10 && $1 ~ /^[0-9a-f]{8}$/ { s += strtonum("0x" $2) } END { print s + 0 }' "$out")
                nicd=$(sed -n 's/^  rx drops \([0-9]*\).*/\1/p' "$out" | sed -n '$p')
                rtap=$((t1 - t0))
                runres=$((a1 - a0))
                runseen=$((n - ${rgot:-0} - ${rcv:-0} - bl - ${nicd:-0} - rtap - runres))
                # both ways: the union of the host's sender's and receiver's intervals
                # (first to last datagram, CLOCK_MONOTONIC: scripts/ttcp.py)
                span=$(cat "$out.hr" "$out.ht" | awk '/ monotonic_us / { sub("first=", "", $3); sub("last=", "", $4)
                    if (!f || $3 < f) f = $3; if ($4 > l) l = $4 } END { print (l - f) / 1e6 }')
                both=$(echo "((${tgot:-0} + ${rgot:-0}) * $len * 8) / ($span + 0.000001) / 1000000" | bc -l)
                # how much of that both ran: the intersection of the two intervals over their union
                overlap=$(cat "$out.hr" "$out.ht" | awk '/ monotonic_us / { sub("first=", "", $3); sub("last=", "", $4); k++; f[k] = $3; l[k] = $4 }
                    END { if (k < 2) { print 0; exit } i = (l[1] < l[2] ? l[1] : l[2]) - (f[1] > f[2] ? f[1] : f[2])
                          u = (l[1] > l[2] ? l[1] : l[2]) - (f[1] < f[2] ? f[1] : f[2]); printf "%.0f", (i > 0 && u > 0 ? 100 * i / u : 0) }')
                printf '| %d | %s | %d | %d | guest to host | %s | %s | %s | %s | %s | %.1f (%s%% at once) | %.2f | %s | %s | %s |\n' \
                    "$cpus" "${th:-1}" "$len" "$d" "${tsent:-?}" "${tgot:-?}" \
                    "$(printf 'host rcvbuf %d, port %d, tap %d, unseen %d' "$hrcv" "${ptx:-0}" "$tin" "$tunseen")" \
                    "${tgw:-?}" "$(echo "${tgot:-0} * $len * 8 / (${tus:-0} + 0.001)" | bc -l | xargs printf '%.1f')" \
                    "$both" "$overlap" "$cpu" "${busy:-?}" "${irqs:-?}" "$load"
                printf '| %d | %s | %d | %d | host to guest | %d | %s | %s | %s | %s | | | | | |\n' \
                    "$cpus" "${th:-1}" "$len" "$d" "$n" "${rgot:-?}" \
                    "$(printf 'rcvbuf %d, backlog %d, NIC %d, tap %d, host ARP (any ns) %d, unseen %d' "${rcv:-0}" "$bl" "${nicd:-0}" "$rtap" "$runres" "$runseen")" \
                    "${rgw:-?}" "$(echo "${rgot:-0} * $len * 8 / (${rus:-0} + 0.001)" | bc -l | xargs printf '%.1f')"
                sed -n '/^Profile from/,$p' "$out" >"$TMP/prof-$runno-$conf-$len-$try"
                summary="$summary
$conf CPUs, $len bytes, -d $d: both transfers ${span} s of host wall time, both at once ${overlap}% of it (the bench saw them end after ${wall} s), guest received ${rgot:-?} of $n, host ${tgot:-?} of $tn"
                [ "${rgot:-0}" = "$n" ] && [ "${tgot:-0}" = "$tn" ] && break
                d=$((d * 2))
            done
        done
    done
    summary_and_exit "${DUPLEX_PROFILE:-}"
fi

# LINUX_BENCH=threads: --threads (one host thread per CPU) against the
# default one thread: the boot to the shell on 2 and 4 CPUs, and two ttcp -t
# streams at once (two processes: Linux puts one on each CPU) of THREADS_N
# (default 4000) datagrams each to the sink, on 2 CPUs.  Host time of a
# stream run: the run with THREADS_N datagrams minus the run with 1 (boot,
# link-up and the reboot cancel out); the CPU time is the process's (every
# thread).  Wall time counts only on a quiet machine: say what it did.
if [ "${LINUX_BENCH:-all}" = threads ]; then
    retried= counters=
    echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    echo "Boot to the shell, best of ${BOOT_RUNS:-3} (host s):"
    echo
    echo "| CPUs | --threads | instructions | wall s | CPU s |"
    echo "|---|---|---|---|---|"
    for cpus in 2 4; do
        for th in 1 $cpus; do
            boot $cpus --threads=$th
            printf "| %d | %d | %d | %.2f | %.2f |\n" "$cpus" "$th" "$insns" "$wall" "$cpu"
        done
    done
    n=${THREADS_N:-4000}
    echo
    echo "Two ttcp -t streams at once to the sink, 2 CPUs, $NIC, $n datagrams each (the run with 1 subtracted):"
    echo
    echo "| --threads | datagram | guest Mbit/s (each ttcp) | host wall s | Mbit/s per wall s | host CPU s | Mbit/s per CPU s | busiest thread CPU s | Mbit/s per busiest s |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for len in 8972 1472; do
        mtu=$((len == 8972 ? 9000 : 1500))
        for th in 1 2; do
            for k in 1 "$n"; do
                timed "$TMP/two$k" --batch -q --rtc-fixed --cpus 2 --threads=$th ${ENGINE:+--engine="$ENGINE"} \
                    --nic "$NIC" --net sink:noverify \
                    --append "xbow.mtu=$mtu xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t -l $len -n $k 239.1.2.3 & ttcp -t -l $len -n $k 239.1.2.4; sleep 1\" xbow.after=reboot" \
                    -ex 'continue 40000000000' -ex 'info cpus' "$VMLINUX"
                [ "$(grep -c "^ttcp-t: [0-9]* bytes in" "$TMP/two$k")" = 2 ] ||
                    { echo "two streams, --threads=$th, $k datagrams: failed"; tail "$TMP/two$k"; exit 1; }
            done
            read -r w1 u1 s1 <"$TMP/two1.time"
            read -r wn un sn <"$TMP/two$n.time"
            wall=$(echo "$wn - $w1" | bc -l)
            cpu=$(echo "$un + $sn - $u1 - $s1" | bc -l)
            if [ "$th" = 1 ]; then crit=$cpu; else crit=$(echo "$(busiest "$TMP/two$n") - $(busiest "$TMP/two1")" | bc -l); fi
            bits=$((2 * n * len * 8))
            gr=$(sed -n 's/^ttcp-t: .* = \([0-9.]*\) Mbit\/s (guest time)/\1/p' "$TMP/two$n" | tr '\n' ' ')
            printf "| %d | %d | %s | %.2f | %.1f | %.2f | %.1f | %.2f | %.1f |\n" "$th" "$len" "${gr% }" "$wall" \
                "$(echo "$bits / $wall / 1000000" | bc -l)" "$cpu" "$(echo "$bits / $cpu / 1000000" | bc -l)" \
                "$crit" "$(echo "$bits / $crit / 1000000" | bc -l)"
            # Each thread's counters (info cpus) for the run with $n datagrams.
            [ "$th" = 1 ] || counters="$counters
--threads=$th, $len bytes, $n datagrams each (whole run, boot included):
$(grep -E "^  cpu[0-9]+ thread:|^ +fired " "$TMP/two$n")"
        done
    done
    echo "$counters"
    echo
    echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

# LINUX_BENCH=engines: the boot on 1 and 4 CPUs with each engine, with and
# without idle skip, the runs interleaved (a load that comes and goes hits
# every configuration alike); best CPU time of BOOT_RUNS runs each.
if [ "${LINUX_BENCH:-all}" = engines ]; then
    declare -A best
    retried=
    for run in $(seq "${BOOT_RUNS:-3}"); do
        for e in interp jit; do
            for cpus in 1 4; do
                for opt in "" --no-idle-skip; do
                    BOOT_RUNS=1 ENGINE=$e boot "$cpus" $opt
                    k="$e $cpus ${opt:-idle-skip}"
                    if [ -z "${best[$k]:-}" ] || [ "$(echo "$cpu < ${best[$k]}" | bc -l)" = 1 ]; then
                        best[$k]=$cpu
                    fi
                done
            done
        done
    done
    echo "Boot to the shell prompt, host CPU s (user + sys), best of ${BOOT_RUNS:-3} interleaved runs:"
    echo
    echo "| engine | 1 CPU | 4 CPUs | 4 against 1 | 1 CPU --no-idle-skip | 4 CPUs --no-idle-skip |"
    echo "|---|---|---|---|---|---|"
    for e in interp jit; do
        printf '| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n' $e "${best[$e 1 idle-skip]}" \
            "${best[$e 4 idle-skip]}" "$(echo "${best[$e 4 idle-skip]} / ${best[$e 1 idle-skip]}" | bc -l)" \
            "${best[$e 1 --no-idle-skip]}" "${best[$e 4 --no-idle-skip]}"
    done
    exit 0
fi

if [ "${LINUX_BENCH:-all}" != udp ]; then
echo "Boot to the shell prompt ('xbow-init: shell ready'), --nic e1000-82544 --net sink --append xbow.run=true --rtc-fixed,"
echo "--engine=${ENGINE:-(the default)}, with idle skip (the default) and with --no-idle-skip, best of ${BOOT_RUNS:-3} runs:"
echo
echo "| CPUs | instructions executed (all CPUs) | ticks waited | wall s | CPU s | --no-idle-skip: instructions | wall s | CPU s |"
echo "|---|---|---|---|---|---|---|---|"
retried=
for cpus in 1 2 3 4; do
    boot $cpus
    i1=$insns w1=$waited wall1=$wall cpu1=$cpu
    boot $cpus --no-idle-skip
    printf '| %d | %d (%.2f G) | %d (%.2f G) | %.2f | %.2f | %d (%.2f G) | %.2f | %.2f |\n' $cpus \
        "$i1" "$(echo "$i1 / 1000000000" | bc -l)" "$w1" "$(echo "$w1 / 1000000000" | bc -l)" \
        "$wall1" "$cpu1" "$insns" "$(echo "$insns / 1000000000" | bc -l)" "$wall" "$cpu"
    [ $cpus = 1 ] && base=$cpu1
    [ $cpus = 4 ] && printf '\n4 CPUs against 1, host CPU time with idle skip: %.2f times (target: 1.5 or less)\n' \
        "$(echo "$cpu1 / $base" | bc -l)"
done
echo
[ -n "$retried" ] && echo "/init retried the lost Bridge probe on:$retried (docs/linux.md)." && echo
[ "${LINUX_BENCH:-all}" = boot ] && exit 0
fi

# flood CPUS DMA MTU LEN N: one run; sets rate (ttcp's Mbit/s), wall, cpu
flood() {
    # shellcheck disable=SC2086
    timed "$TMP/flood" --batch -q --cpus "$1" ${UDP_OPTS:-} ${ENGINE:+--engine="$ENGINE"} --nic "$NIC" --net sink:noverify --nic-dma="$2" \
        --append "xbow.mtu=$3 xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t -l $4 -n $5 239.1.2.3\" xbow.after=reboot" \
        -ex 'continue 40000000000' "$VMLINUX"
    grep -q "^ttcp-t: msgs=$5 " "$TMP/flood" || { echo "flood $*: failed:"; tail "$TMP/flood"; exit 1; }
    rate=$(sed -n 's/^ttcp-t: .* rate_Mbps=\([0-9.]*\) .*/\1/p' "$TMP/flood")
    read -r wall user sys <"$TMP/flood.time"
    cpu=$(echo "$user + $sys" | bc -l)
}

echo "UDP transmit, $NIC to sink (ttcp -t, N datagrams)${UDP_OPTS:+, with $UDP_OPTS}${PATCHES:+, kernel flavour $PATCHES}:"
echo
echo "| CPUs | --nic-dma | datagram | N | ttcp Mbit/s (guest time) | guest data Mbit/s per host wall s | per host CPU s |"
echo "|---|---|---|---|---|---|---|"
for cpus in 1 2; do
    for dma in raw per-word; do
        for len in $SIZES; do
            if [ $len = 1472 ]; then mtu=1500 n=40000; else mtu=9000 n=8000; fi
            flood $cpus $dma $mtu $len 1
            wall1=$wall cpu1=$cpu
            flood $cpus $dma $mtu $len $n
            bits=$(((n - 1) * len * 8))
            printf '| %d | %s | %d | %d | %s | %.1f | %.1f |\n' $cpus $dma $len $n "$rate" \
                "$(echo "$bits / ($wall - $wall1) / 1000000" | bc -l)" \
                "$(echo "$bits / ($cpu - $cpu1) / 1000000" | bc -l)"
        done
    done
done
