#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Going back past inputs from outside (docs/time-travel.md): the history
# keeps the console bytes and the host network frames the machine took, and
# feeds them back when it re-executes.  Each run goes back past several
# inputs (goto-time, reverse-continue, reverse-stepi) and forward again:
# every state has the state hash the forward run had at that tick, the
# forward run from the past follows the recorded inputs (the host has
# nothing to give any more), and past the present the input is live again.
#  1. the console: serial_irq reads a line from standard input (a file),
#     one receive interrupt a byte; against a run without the history too;
#  2. a host network peer: an e1000 on socket:udp, frames from net_probe in
#     three bursts while the guest runs, a fourth past the present after
#     going back and forward again.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
B=${top_builddir:-.}/examples
G=$B/serial-irq/serial_irq.elf
RX=$B/e1000/rx.elf
PROBE=${top_builddir:-.}/tests/unit/net/net_probe
for f in "$G" "$RX" "$PROBE"; do [ -f "$f" ] || skip "$f not built"; done

hash() { grep "^state hash .* at tick $1," "$WORK/out" | sed -n "${2:-1}p" | awk '{print $3}'; }
# same TICK WHAT: the first and the second hash at TICK are the same
same() {
    checks=$((checks + 1))
    a=$(hash "$1" 1)
    b=$(hash "$1" 2)
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "$2: tick $1: '$a' forward, '$b' after going back"
}

# 1. The console.
printf 'hi there\n' >"$WORK/in.txt"
run_xbow_in "$WORK/in.txt" --batch -q --rtc-fixed -ex 'continue 300000' -ex 'info state-hash' \
    -ex 'continue 300000' -ex 'info state-hash' -ex 'continue 300000' -ex 'info state-hash' "$G"
grep '^state hash' "$WORK/out" >"$WORK/plain"
run_xbow_in "$WORK/in.txt" --batch -q --rtc-fixed -ex record -ex 'set history-interval 20000' \
    -ex 'set history-overhead 100' -ex 'continue 300000' -ex 'info state-hash' \
    -ex 'continue 300000' -ex 'info state-hash' -ex 'continue 300000' -ex 'info state-hash' \
    -ex continue -ex 'info state-hash' -ex 'goto-time 300000' -ex 'info state-hash' \
    -ex 'goto-time 600000' -ex 'info state-hash' -ex 'break uart_irq' -ex 'reverse-continue' \
    -ex 'reverse-continue' -ex 'reverse-continue' -ex 'info state-hash' -ex delete \
    -ex 'goto-time 300000' -ex 'continue 300000' -ex 'info state-hash' \
    -ex 'continue 300000' -ex 'info state-hash' -ex continue -ex 'info state-hash' -ex 'info time' "$G"
expect_status 0
checks=$((checks + 1))
[ "$(grep '^state hash' "$WORK/out" | head -n 3)" = "$(cat "$WORK/plain")" ] ||
    fail "the history changed the run"
expect_count '^serial-irq: got "hi there" in 9 receive interrupts$' 2
expect_count '^Breakpoint 1, uart_irq ' 3
expect_out '^  span: tick 0 to [0-9]* (the present), '
checks=$((checks + 1))
grep -q '^  cut at' "$WORK/out" && fail "the console's input cut the history"
end=$(grep '^state hash' "$WORK/out" | sed -n 4p | sed 's/.* at tick \([0-9]*\),.*/\1/')
same 300000 "goto-time back past the console's input"
same 600000 "goto-time and forward again"
same 900000 "forward from the past, the recorded bytes"
same "$end" "to the end again"

# 2. A host network peer (UDP socket): net_probe sends three bursts while
# the guest waits for frames (virtual time paced by host time).
lport=$((20000 + $$ % 20000))
rport=$((lport + 1))
burst() {
    sleep "$1"
    "$PROBE" --ip 10.0.2.2 --send 10.0.2.15:7000 --count 3 --size 600 \
        "socket:udp:$rport:127.0.0.1:$lport" >>"$WORK/probe.out" 2>&1
}
(burst 0.4; burst 0.5; burst 0.5) &
bg=$!
T=40000000
run_xbow --batch -q --allow-shell --rtc-fixed --nic e1000 --net "socket:udp:$lport:127.0.0.1:$rport" \
    --append count=100 -ex record -ex 'set history-interval 2000000' -ex 'set history-overhead 100' \
    -ex "continue $T" -ex 'info state-hash' -ex "continue $T" -ex 'info state-hash' \
    -ex "continue $T" -ex 'info state-hash' -ex "continue $T" -ex 'info state-hash' \
    -ex "continue $T" -ex 'info state-hash' -ex "continue $T" -ex 'info state-hash' \
    -ex 'info nic e1000_0' -ex "goto-time $T" -ex 'info state-hash' \
    -ex "goto-time $((3 * T))" -ex 'info state-hash' -ex 'reverse-stepi 1000' \
    -ex "goto-time $((5 * T))" -ex 'info state-hash' -ex "goto-time $T" \
    -ex "continue $T" -ex 'info state-hash' -ex "continue $T" -ex 'info state-hash' \
    -ex "continue $T" -ex 'info state-hash' -ex "continue $T" -ex 'info state-hash' \
    -ex "continue $T" -ex 'info state-hash' -ex 'info nic e1000_0' -ex 'info time' \
    -ex "shell (sleep 0.3; $PROBE --ip 10.0.2.2 --send 10.0.2.15:7000 --count 3 --size 600 socket:udp:$rport:127.0.0.1:$lport) >>$WORK/probe.out 2>&1 &" \
    -ex "continue $((10 * T))" -ex 'info nic e1000_0' "$RX"
wait $bg
expect_status 0
rx() { grep "^  link up; tx" "$WORK/out" | sed -n "$1p" | sed 's/.*; rx \([0-9]*\) frames.*/\1/'; }
checks=$((checks + 1))
[ "$(rx 1)" = 9 ] || fail "the guest's NIC got $(rx 1) frames from the peer, not 9: $(cat "$WORK/probe.out")"
checks=$((checks + 1))
grep -q '^  cut at' "$WORK/out" && fail "the peer's frames cut the history"
for k in 1 2 3 4 5 6; do same $((k * T)) "socket frames, tick $((k * T))"; done
checks=$((checks + 1))
[ "$(rx 2)" = 9 ] || fail "forward from the past: $(rx 2) frames, not the 9 recorded"
# past the present: the peer's fourth burst, live
checks=$((checks + 1))
[ "$(rx 3)" = 12 ] || fail "past the present: $(rx 3) frames, not 12 (the live burst)"
finish
