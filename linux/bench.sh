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
#   LINUX_BENCH=udp NIC=hamachi PATCHES=ip27-dma64 make linux-bench
#                                        (the UDP table for another NIC, on a kernel
#                                         flavour: linux/patches/; jumbo frames
#                                         only where the driver takes them)
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
VMLINUX=$(bash "$(dirname "$0")/build.sh" --print-path $flavour) || {
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
