#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# linux/sweep.sh -- boot the real-Linux guest (make linux) on xbow over 1 to 4
# CPUs and many kernel command lines, and check that every boot reaches the
# shell with the Bridge probed: /init finds the PCI bus and ttyS0 on the IOC3
# (its "pci=N console=ttyS0" banner line) and runs xbow.run to XBOW-RUN-END.
# A boot that depends on luck (a race in Linux, a timing the emulator gets
# wrong) shows up as a failed row.
# Prints a table (docs/linux.md, "Boot sweep"); exits 1 if any boot failed.
#
#   bash linux/sweep.sh [--cpus "1 2 3 4"] [--cases 1,3,7] [--host-time] [--list] [XBOW]
#   make linux-sweep                  (all cases on 1 to 4 CPUs)
#
# --cases picks cases by number (--list shows them); XBOW defaults to
# ./xbow; VMLINUX=PATH sweeps another kernel than linux/build.sh's.  Each boot is bounded by BUDGET guest instructions (default 8 G,
# all CPUs together): a boot that waits for a PCI bus that never comes fails
# there instead of running on.  The output of a failed boot is kept in
# ${TMPDIR:-/tmp}/xbow-sweep-logs/.  The guest's RTC starts at a fixed time
# (--rtc-fixed), so a second sweep repeats the first instruction for
# instruction; --host-time starts it at the host's time instead.
set -u

# The command lines: xbow.run commands of different lengths, the other
# /init keys, and kernel parameters that change nothing but the timing.
# A case without xbow.run, or with xbow.after=shell (the default), must
# reach the prompt; one with xbow.after=reboot must reach XBOW-RUN-END.
pad=$(printf 'x%.0s' $(seq 1 120))
CASES=(
    ''
    'xbow.run=true'
    'xbow.run="cat /proc/cpuinfo; cat /sys/devices/system/node/online" xbow.after=reboot'
    'xbow.run="cat /proc/cpuinfo"'
    'xbow.run="cat /proc/cpuinfo; cat /sys/devices/system/node/online"'
    'loglevel=7'
    'quiet'
    'xbow.wait=30'
    'xbow.run="uname -a"'
    'xbow.run="ls /sys/bus/pci/devices"'
    'xbow.run="echo hello" xbow.test=1 foo=bar'
    'xbow.run="cat /proc/interrupts"'
    'xbow.ip=10.0.2.16/24 xbow.run="ifconfig lo"'
    'xbow.mtu=9000 xbow.run="ifconfig"'
    "xbow.run=\"echo $pad\""
    'xbow.run="sleep 1; echo slept"'
    'ip=off xbow.run=true'
    'xbow.gw=10.0.2.2 xbow.run="cat /proc/cmdline"'
    'printk.time=0 xbow.run=true'
    'xbow.run="cat /proc/meminfo && cat /proc/version"'
    'xbow.run="dmesg -n 1; ps"'
    "xbow.pad=$pad"
    'xbow.run="true; true; true; true; true; true; true; true; true; true"'
    'loglevel=8 xbow.run="ls /sys/bus/w1/devices /sys/bus/nvmem/devices"'
    'xbow.run="cat /sys/class/tty/console/active" xbow.after=reboot'
)

usage() {
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
}

cpus_list="1 2 3 4"
pick=
rtc=--rtc-fixed
XBOW=./xbow
while [ $# -gt 0 ]; do
    case $1 in
    --cpus) cpus_list=$2; shift 2 ;;
    --cases) pick=$2; shift 2 ;;
    --host-time) rtc=; shift ;;
    --list)
        for i in "${!CASES[@]}"; do printf '%2d  %s\n' $((i + 1)) "${CASES[$i]:-(no --append)}"; done
        exit 0
        ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "linux/sweep.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) XBOW=$1; shift ;;
    esac
done
BUDGET=${BUDGET:-8000000000}
LOGS=${TMPDIR:-/tmp}/xbow-sweep-logs
cases=()
if [ -n "$pick" ]; then
    for n in ${pick//,/ }; do
        case $n in
        '' | *[!0-9]*) echo "linux/sweep.sh: bad case number '$n' (1-${#CASES[@]})" >&2; exit 2 ;;
        esac
        if [ "$n" -lt 1 ] || [ "$n" -gt ${#CASES[@]} ]; then
            echo "linux/sweep.sh: no case $n (1-${#CASES[@]})" >&2
            exit 2
        fi
        cases+=("$n")
    done
else
    cases=($(seq 1 ${#CASES[@]}))
fi
for c in $cpus_list; do
    case $c in
    1 | 2 | 3 | 4) ;;
    *) echo "linux/sweep.sh: --cpus takes 1 to 4, not '$c'" >&2; exit 2 ;;
    esac
done
if [ -n "${VMLINUX:-}" ]; then
    [ -f "$VMLINUX" ] || { echo "linux/sweep.sh: no kernel at VMLINUX=$VMLINUX" >&2; exit 1; }
else
    VMLINUX=$(bash "$(dirname "$0")/build.sh" --print-path) || {
        echo "linux/sweep.sh: no kernel built: run 'make linux' first" >&2
        exit 1
    }
fi
[ -x "$XBOW" ] || { echo "linux/sweep.sh: $XBOW is not an executable" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIMEFORMAT='%R'

clock="the RTC starts at 2024-01-01 (--rtc-fixed)"
[ -z "$rtc" ] && clock="the RTC starts at the host's time"
echo "Kernel ${VMLINUX##*/}; each boot bounded by $BUDGET guest instructions; $clock."
echo
echo "| CPUs | case | command line | result | guest instructions | /init retried the Bridge probe | wall s |"
echo "|---|---|---|---|---|---|---|"
total=0 bad=0 retried=0
for cpus in $cpus_list; do
    for n in "${cases[@]}"; do
        line=${CASES[$((n - 1))]}
        args=(--batch -q --cpus "$cpus" $rtc)
        [ -n "$line" ] && args+=(--append "$line")
        want="xbow-init: shell ready"
        case $line in *xbow.after=reboot*) want="xbow-init: reboot" ;; esac
        { time "$XBOW" "${args[@]}" -ex "expect \"$want\" $BUDGET" -ex 'info cpus' "$VMLINUX" \
            >"$TMP/out" 2>&1 </dev/null; } 2>"$TMP/time"
        out=$TMP/out
        why=
        # /init's view (sysfs), whatever the kernel's loglevel lets through;
        # the kernel's messages for an /init that does not print it.
        if grep -q "^xbow-init: cpus=.* pci=" "$out"; then
            grep -q "^xbow-init: cpus=$cpus .* pci=[1-9]" "$out" || why="$why no PCI bus,"
            grep -q "^xbow-init: cpus=.* console=ttyS0[[:space:]]*$" "$out" || why="$why no ttyS0,"
        else
            grep -q "PCI host bridge to bus 0000:00" "$out" || why="$why no PCI bus,"
            grep -q "ttyS0 at MMIO" "$out" || why="$why no ttyS0,"
        fi
        case $line in
        *xbow.run=*) grep -q "^XBOW-RUN-END status=0" "$out" || why="$why no XBOW-RUN-END status=0," ;;
        esac
        grep -q "$want" "$out" || why="$why no '$want',"
        insns=$(sed -n '/CPU  PC/,$p' "$out" | awk 'NR > 1 { s += $NF } END { print s + 0 }')
        retry=no
        grep -q "asked the kernel to probe it again" "$out" && retry=yes
        total=$((total + 1))
        if [ -z "$why" ]; then
            result=ok
        else
            result="FAIL:${why%,}"
            bad=$((bad + 1))
            log=$LOGS/sweep-$cpus-$n.log
            mkdir -p "$LOGS" && cp "$out" "$log" && result="$result (log: $log)"
        fi
        [ $retry = yes ] && retried=$((retried + 1))
        shown=${line:-(no --append)}
        [ ${#shown} -gt 60 ] && shown="${shown:0:57}..."
        printf '| %d | %d | `%s` | %s | %d | %s | %s |\n' "$cpus" "$n" "${shown//|/\\|}" "$result" \
            "$insns" "$retry" "$(cat "$TMP/time")"
    done
done
echo
echo "$((total - bad)) of $total boots reached the shell with the Bridge probed;" \
    "$retried needed /init's retry of the Bridge probe."
[ $bad -eq 0 ]
