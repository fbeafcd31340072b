#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reverse execution as a user drives it (docs/time-travel.md): record, then
# reverse-stepi, reverse-continue to a code breakpoint and to a DMA
# watchpoint, goto-time; each past state has the state hash of a fresh run
# stopped there directly.  Bad input: no history, beyond the present,
# garbage, 0, -1, huge.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
B=${top_builddir:-.}/examples
need_example tigon/tigon_echo.elf
M="--rtc-fixed --nic tigon2 --net echo"

hash_at() { grep "^state hash .* at tick $1," "$WORK/out" | sed -n "${2:-1}p" | awk '{print $3}'; }

# 1. Two hits of a breakpoint, a few steps on, back to the last hit, 100
# instructions before it, and goto-time to the middle.
run_xbow --batch -q $M -ex record -ex 'set history-interval 100000' -ex 'set history-overhead 100' -ex 'break rx' \
    -ex continue -ex 'info state-hash' -ex continue -ex 'info state-hash' -ex 'stepi 500' \
    -ex 'reverse-continue' -ex 'info state-hash' -ex 'reverse-continue' -ex 'info state-hash' \
    -ex 'reverse-stepi 100' -ex 'info state-hash' -ex 'info registers pc' \
    -ex 'goto-time 150000' -ex 'info state-hash' -ex 'info time' -ex 'goto-time present' \
    -ex 'info state-hash' "$ELF"
expect_status 0
expect_out '^Recording the history: '
expect_count '^Breakpoint 1, rx ' 4
expect_out '^Back at tick [0-9]* (.*), cpu0 at [0-9]* instructions\.$'
h1=$(grep '^state hash' "$WORK/out" | sed -n 1p)
h2=$(grep '^state hash' "$WORK/out" | sed -n 2p)
checks=$((checks + 1))
[ "$h1" != "$h2" ] || fail "two hits, one state"
# back at the second hit, then at the first: the same states as then
[ "$(grep '^state hash' "$WORK/out" | sed -n 3p)" = "$h2" ] || fail "reverse-continue: not the second hit's state"
[ "$(grep '^state hash' "$WORK/out" | sed -n 4p)" = "$h1" ] || fail "reverse-continue: not the first hit's state"
h5=$(grep '^state hash' "$WORK/out" | sed -n 5p)
pc5=$(grep '^pc ' "$WORK/out" | awk '{print $2}')
t5=$(echo "$h5" | sed 's/.* at tick \([0-9]*\),.*/\1/')
h6=$(grep '^state hash' "$WORK/out" | sed -n 6p)
expect_out '^  span: tick 0 to [0-9]* (the present), [0-9]* snapshots, [0-9.]* MB$'
end=$(sed -n 's/^  span: tick 0 to \([0-9]*\) (the present).*/\1/p' "$WORK/out" | head -n 1)
h7=$(grep '^state hash' "$WORK/out" | sed -n 7p)
checks=$((checks + 1))
case "$h7" in *" at tick $end, "*) ;; *) fail "goto-time present: $h7, the present is tick $end" ;; esac
# the first hit, 100 instructions earlier
i1=$(echo "$h1" | sed 's/.*cpu0 \([0-9]*\) insns/\1/')
i5=$(echo "$h5" | sed 's/.*cpu0 \([0-9]*\) insns/\1/')
checks=$((checks + 1))
[ $((i1 - i5)) -eq 100 ] || fail "reverse-stepi 100 went from $i1 to $i5"

# 2. Fresh runs stopped there directly: the same hashes and pc.
run_xbow --batch -q $M -ex 'continue 150000' -ex 'info state-hash' -ex 'info registers pc' "$ELF"
grep '^state hash' "$WORK/out" >>"$WORK/direct"
run_xbow --batch -q $M -ex "continue $t5" -ex 'info state-hash' -ex 'info registers pc' "$ELF"
checks=$((checks + 1))
[ "$(grep '^state hash' "$WORK/out" | sed -n 1p)" = "$h5" ] || fail "reverse-stepi: $h5, a direct run: $(grep '^state hash' "$WORK/out" | sed -n 1p)"
[ "$(grep '^pc ' "$WORK/out" | awk '{print $2}')" = "$pc5" ] || fail "reverse-stepi: another pc"
[ "$(cat "$WORK/direct")" = "$h6" ] || fail "goto-time 150000: $h6, a direct run: $(cat "$WORK/direct")"

# 3. watch dma on the receive return ring: reverse-continue stops at the
# NIC's write, names it and the window, and is the state of that stop.
# The word checked is the ring's at 0x20 (where the ring is depends on the
# example's build: its address from the ELF's symbols).
ring=$("$XBOW" --batch -q -ex 'print/x &ret_ring' "$ELF" 2>/dev/null | sed -n 's/^\$1 = 0xa8000000\([0-9a-f]*\)$/\1/p')
ring_20=$(printf '%x' $((0x${ring:-0} + 0x20)))
run_xbow --batch -q $M -ex record -ex 'set history-interval 100000' -ex 'set history-overhead 100' \
    -ex 'watch dma tigon0 p:&ret_ring,64 write' -ex continue -ex continue -ex 'info state-hash' \
    -ex 'stepi 1000' -ex 'reverse-continue' -ex 'info state-hash' -ex 'x/wx p:&ret_ring+0x2c' "$ELF"
expect_status 0
w1=$(grep '^state hash' "$WORK/out" | sed -n 1p)
checks=$((checks + 1))
[ "$(grep '^state hash' "$WORK/out" | sed -n 2p)" = "$w1" ] || fail "reverse-continue to the DMA: another state"
checks=$((checks + 1))
[ -n "$ring" ] || fail "no address for ret_ring"
expect_count "^DMA watchpoint 1: tigon0 wrote 4 bytes at p:0x0*$ring_20 (word)\$" 2
# 8 words a stop: the two stops, then the report of the one gone back to
expect_count '^  path: Bridge dir32 window, swap off, PCI address 0x8' 24
expect_out '^Back at tick '
expect_out ':[[:space:]]*0x00000024$'

# 4. Every other kind of stop, on the PCI DMA test device's guest: a CPU
# watchpoint (its old value is the one of the state gone back to), an
# event breakpoint, a register breakpoint.  Each reverse-continue is the
# state of the hit before the last, as the forward run had it.
TD=$B/testdev/testdev_dma.elf
kinds() {
    run_xbow --batch -q --rtc-fixed --testdev -ex record -ex 'set history-interval 20000' \
        -ex 'set history-overhead 100' -ex "$1" -ex continue -ex 'info state-hash' -ex continue \
        -ex 'info state-hash' -ex continue -ex 'reverse-continue' -ex 'info state-hash' \
        -ex 'reverse-continue' -ex 'info state-hash' "$TD"
    expect_status 0
    k1=$(grep '^state hash' "$WORK/out" | sed -n 1p)
    k2=$(grep '^state hash' "$WORK/out" | sed -n 2p)
    checks=$((checks + 1))
    [ "$(grep '^state hash' "$WORK/out" | sed -n 3p)" = "$k2" ] || fail "$1: reverse-continue is not the second hit"
    [ "$(grep '^state hash' "$WORK/out" | sed -n 4p)" = "$k1" ] || fail "$1: reverse-continue is not the first hit"
    expect_count '^Back at tick ' 2
}
if [ -f "$TD" ]; then
    kinds 'watch cases'
    expect_out '^Old value = 0x00000001$'
    expect_count '^New value = 0x00000002$' 2
    kinds 'break event testdev0.done'
    expect_count '^Event breakpoint 1: testdev0.done status=0x2 bytes=301 (t=' 5
    kinds 'break reg testdev0.CMD'
    expect_count '^Register breakpoint 1: testdev0.CMD 0x2 -> 0x4 (t=[0-9]*, .* by cpu0 at ' 2
fi

# 5. Bad input.
run_xbow --batch -q $M -ex 'reverse-stepi' -ex 'reverse-continue' -ex 'goto-time 5' \
    -ex 'info time' -ex record -ex record -ex 'stepi 2000' -ex 'goto-time 99999999' \
    -ex 'goto-time -1' -ex 'goto-time' -ex 'goto-time insn' -ex 'goto-time nosuch' \
    -ex 'reverse-stepi -1' -ex 'reverse-stepi 18446744073709551615' -ex 'reverse-stepi 0' \
    -ex 'set history-interval 0' -ex 'set history-size 0' -ex 'set history-overhead 101' -ex 'set var $pc = $pc' \
    -ex 'stepi 10' -ex 'reverse-stepi 5' -ex 'info state-hash' -ex 'reverse-stepi 20' -ex 'info time' -ex 'record stop' -ex 'record stop' "$ELF"
expect_status 1
expect_out '^No history to go back in: say "record" before running the guest'
expect_out '^History: off ("record" starts it)$'
expect_out '^The history is already being recorded'
expect_out '^goto-time: tick 99999999 is beyond the present (tick 2000)'
expect_out '^goto-time: the count must be 0 or more, not -1.$'
expect_out '^goto-time: give a time.  Usage: goto-time TICK|insn N|present$'
expect_out '^reverse-stepi: the count must be 0 or more, not -1.$'
expect_out '^reverse-stepi: cpu0 has executed only 2000 instructions.$'
expect_out '^set history-interval: '
expect_out '^set history-size: '
expect_out '^set history-overhead: '
expect_out '^Cannot go back so far: the history starts at tick 2000 (cpu0), where the debugger changed the machine.$'
expect_out '^  cut at tick 2000: the debugger changed the machine$'
expect_out '^state hash [0-9a-f]* at tick 2005, cpu0 2005 insns$'
expect_out '^No history is being recorded'
finish
