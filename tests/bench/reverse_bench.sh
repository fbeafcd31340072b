#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Reverse execution's latency (`make bench-timetravel`, docs/time-travel.md):
# Linux boots with the history on (record, the default interval and size)
# and pings the echo peer; then, each measured by `info time` ("last went
# back": host time and ticks re-executed):
#   reverse-stepi 1 at the shell's prompt (XBOW-RUN-BEGIN), the middle of
#     the run;
#   reverse-continue to `break start_kernel`, the whole boot back;
#   goto-time present, back to the prompt;
#   reverse-continue to the e1000's last DMA (`watch dma`, the last ping
#     reply), after the guest idled for 500 million ticks more.
# And the history's memory and span, and what recording costs: the same
# Linux run to XBOW-RUN-END and the mix guest (MIX_ELF, when given) without
# and with `record`, and with a snapshot every interval (history-overhead
# 100) (wall time of the whole xbow, best of BENCH_RUNS).
# Environment: XBOW, VMLINUX, MIX_ELF, BENCH_RUNS (best of).
set -u
: "${XBOW:=./xbow}" "${BENCH_RUNS:=3}"
[ -n "${VMLINUX:-}" ] && [ -f "$VMLINUX" ] || {
    echo "bench-timetravel: no Linux kernel built: run 'make linux' first"
    exit 1
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbow-revbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

one() {
    "$XBOW" --batch -q --rtc-fixed --nic e1000-82544 --net echo \
        --append 'xbow.run="ping -c 3 -i 200 10.0.2.2"' \
        -ex record -ex 'break start_kernel' -ex continue -ex delete \
        -ex 'expect "XBOW-RUN-BEGIN" 2000000000' -ex 'echo \n=rsi\n' -ex 'reverse-stepi 1' \
        -ex 'info time' -ex 'break start_kernel' -ex 'echo =rc-boot\n' -ex 'reverse-continue' \
        -ex 'info time' -ex delete -ex 'echo =present\n' -ex 'goto-time present' -ex 'info time' \
        -ex 'expect "XBOW-RUN-END" 2000000000' -ex 'continue 500000000' \
        -ex 'watch dma e1000_0 p:0,0x20000000 write' -ex 'echo =rc-dma\n' \
        -ex 'reverse-continue' -ex 'info time' "$VMLINUX" >"$TMP/out" 2>&1 </dev/null
}

# "NAME SECONDS TICKS" for each measured command, from the run's output.
measure() {
    awk '/^=/ { name = substr($0, 2) }
         /last went back:/ { gsub(",", ""); print name, $5, $10 }' "$TMP/out"
}

for i in $(seq "$BENCH_RUNS"); do
    one
    measure >>"$TMP/all"
done
grep -q 'DMA watchpoint [0-9]*: e1000_0 wrote' "$TMP/out" || {
    echo "bench-timetravel: reverse-continue did not reach the NIC's DMA:"
    tail -20 "$TMP/out"
    exit 1
}
echo "Reverse execution on Linux (e1000, echo peer), best of $BENCH_RUNS:"
for n in rsi rc-boot present rc-dma; do
    awk -v n="$n" '$1 == n { if (best == "" || $2 < best) { best = $2; t = $3 } }
        END { printf "  %-8s %7.3f s, %12d ticks re-executed\n", n, best, t }' "$TMP/all"
done
grep -m1 '^  span:' "$TMP/out" | sed 's/^ */  history at the prompt: /'
tail -n 12 "$TMP/out" | grep '^  span:' | tail -n 1 | sed 's/^ */  history at the end: /'

# best NAME CMD...: the best wall time of BENCH_RUNS runs of CMD.
best() {
    name=$1
    shift
    b=""
    for i in $(seq "$BENCH_RUNS"); do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 </dev/null
        t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
    done
    printf "  %-22s %6.3f s\n" "$name" "$b"
}
echo "What recording the history costs (wall time of the whole run, best of $BENCH_RUNS):"
linux_run() {
    "$XBOW" --batch -q --rtc-fixed --nic e1000-82544 --net echo \
        --append 'xbow.run="ping -c 3 -i 200 10.0.2.2"' "$@" \
        -ex 'expect "XBOW-RUN-END" 2000000000' "$VMLINUX"
}
# "every interval": set history-overhead 100, a snapshot every 10 M ticks
# whatever it costs (what a snapshot costs, without the cap hiding it).
EVERY=(-ex record -ex "set history-overhead 100")
best "linux ping, off" linux_run
best "linux ping, record" linux_run -ex record
best "linux ping, every 10M" linux_run "${EVERY[@]}"
if [ -n "${MIX_ELF:-}" ] && [ -f "$MIX_ELF" ]; then
    best "mix, off" "$XBOW" --batch -q -ex continue "$MIX_ELF"
    best "mix, record" "$XBOW" --batch -q -ex record -ex continue "$MIX_ELF"
    best "mix, every 10M" "$XBOW" --batch -q "${EVERY[@]}" -ex continue "$MIX_ELF"
fi
