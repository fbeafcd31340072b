#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# info lastwrite gives the time of the write and goto-time goes there
# (docs/time-travel.md): a NIC's DMA write into a receive return descriptor
# (the devices' turn at a tick) and a CPU's store (its instruction count);
# goto-time lastwrite shows the memory just before the write, the goto-time
# that info lastwrite prints just after it, as the run had it.  Bad input:
# no history, no tracking, no address, junk, unmapped, a byte never written.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
B=${top_builddir:-.}/examples
ELF=$B/tigon/tigon_echo.elf
DBG=$B/dbgtest/dbgtest.elf
[ -f "$ELF" ] || skip "$ELF not built"
[ -f "$DBG" ] || skip "$DBG not built"
M="--rtc-fixed --nic tigon2 --net echo"
DESC='p:(char *)&ret_ring + 0x2c' # descriptor 1's flags word in the return ring
# Its physical address in this build (where the ring is depends on the
# example's build: from the ELF's symbols), as the commands print it.
ring=$("$XBOW" --batch -q -ex 'print/x &ret_ring' "$ELF" 2>/dev/null | sed -n 's/^\$1 = 0xa8000000\([0-9a-f]*\)$/\1/p')
[ -n "$ring" ] || { fail "no address for ret_ring"; finish; exit; }
PA=$(printf 'p:0x%010x' $((0x$ring + 0x2c)))

# x_value: the word of the Nth "p:0x...:<tab>0x..." line of the output.
x_value() { grep '^p:0x[0-9a-f]*:[[:space:]]*0x' "$WORK/out" | sed -n "${1}p" | awk '{print $2}'; }

# 1. The NIC's write: stop at it (watch dma), run on, ask who wrote the
#    word and when, go back to just before it and to just after it.
run_xbow --batch -q $M -ex 'track writes on p:&ret_ring,64' -ex record \
    -ex 'set history-interval 100000' -ex 'set history-overhead 100' \
    -ex "watch dma tigon0 $DESC,4 write" -ex continue -ex 'info state-hash' -ex delete \
    -ex 'stepi 5000' -ex "info lastwrite $DESC" -ex "x/wx $DESC" \
    -ex "goto-time lastwrite $DESC" -ex "x/wx $DESC" -ex "info lastwrite $DESC" "$ELF"
expect_status 0
expect_out "^DMA watchpoint 1: tigon0 wrote 4 bytes at $PA (word)\$"
expect_out "^$PA was last written at t=[0-9]* (.*) by tigon0:\$"
expect_out '^  for rx-status, ring 4, descriptor 1$'
expect_out "^  when: the devices' turn at tick [0-9]*: \"goto-time lastwrite $PA\" goes to just before it, \"goto-time [0-9]*\" just after\$"
t=$(sed -n 's/^  when: the devices.* turn at tick \([0-9]*\):.*/\1/p' "$WORK/out" | head -n 1)
hit=$(grep '^state hash' "$WORK/out" | awk '{print $6}' | tr -d ,)
hithash=$(grep '^state hash' "$WORK/out" | awk '{print $3}')
checks=$((checks + 1))
[ -n "$t" ] && [ "$t" = "$hit" ] || fail "the write's tick $t is not the DMA watchpoint's $hit"
expect_out "^At tick $((t - 1)) (.*), cpu0 at [0-9]* instructions\\.$"
after=$(x_value 1)
before=$(x_value 2)
checks=$((checks + 1))
[ "$after" = 0x00000024 ] && [ "$before" = 0x00000000 ] ||
    fail "the descriptor word: $before before the write, $after after (want 0x00000000, 0x00000024)"
expect_out '^  (later than where the machine is now: it went back in its history since; '
wr=$(sed -n "s/^  when: .*\"goto-time \\([0-9]*\\)\" just after\$/\\1/p" "$WORK/out" | head -n 1)

# The ready line goes to just after it: the word as the run had it then,
# the state of the DMA watchpoint's stop.
run_xbow --batch -q $M -ex 'track writes on p:&ret_ring,64' -ex record \
    -ex 'set history-interval 100000' -ex 'set history-overhead 100' -ex 'continue 2400000' \
    -ex "goto-time lastwrite $DESC" -ex "x/wx $DESC" -ex "goto-time $wr" -ex "x/wx $DESC" \
    -ex 'info state-hash' "$ELF"
expect_status 0
checks=$((checks + 1))
[ "$(x_value 1)" = 0x00000000 ] && [ "$(x_value 2)" = 0x00000024 ] ||
    fail "goto-time lastwrite / goto-time $wr: $(x_value 1), $(x_value 2)"
checks=$((checks + 1))
[ "$(grep '^state hash' "$WORK/out" | awk '{print $3}')" = "$hithash" ] ||
    fail "goto-time $wr: not the state of the DMA watchpoint's stop at the write"

# 2. A CPU's store (counter++ in the debugger's test guest): its
#    instruction count; just before it the pc is at the store, stepi does it.
run_xbow --batch -q -ex 'track writes on p:&counter,4' -ex record -ex 'watch counter' \
    -ex continue -ex continue -ex 'delete' -ex 'stepi 100' -ex 'info lastwrite &counter' \
    -ex 'goto-time lastwrite &counter' -ex 'print counter' -ex 'x/i $pc' -ex stepi \
    -ex 'print counter' "$DBG"
expect_status 0
expect_out '^p:0x[0-9a-f]* was last written at t=[0-9]* (.*) by cpu0 at 0xa8[0-9a-f]* <main+0x[0-9a-f]*>:$'
expect_out '^  when: cpu0'"'"'s instruction [0-9]*: "goto-time lastwrite p:0x[0-9a-f]*" goes to just before it, "goto-time insn [0-9]*" (cpu0 selected) just after$'
n=$(sed -n "s/^  when: cpu0's instruction \\([0-9]*\\):.*/\\1/p" "$WORK/out")
expect_out "^At tick [0-9]* (.*), cpu0 at $((n - 1)) instructions\\.\$"
expect_out '^\$1 = 1$'
expect_out '^0xa8[0-9a-f]* <main+0x[0-9a-f]*>:	sw '
expect_out '^\$2 = 2$'
run_xbow --batch -q -ex 'track writes on p:&counter,4' -ex record -ex 'watch counter' \
    -ex continue -ex continue -ex 'delete' -ex 'stepi 100' -ex "goto-time insn $((n - 1))" \
    -ex 'print counter' -ex "goto-time insn $n" -ex 'print counter' "$DBG"
expect_status 0
expect_out '^\$1 = 1$'
expect_out '^\$2 = 2$'

# 3. Bad input.
run_xbow --batch -q $M -ex 'goto-time lastwrite' -ex "goto-time lastwrite $PA" \
    -ex 'track writes on p:&ret_ring,64' -ex 'continue 3000' -ex "info lastwrite $PA" \
    -ex "goto-time lastwrite $PA" -ex "goto-time lastwrite $PA junk" \
    -ex 'goto-time lastwrite 0x10' -ex 'goto-time lastwrite nosuchsymbol' \
    -ex "watch dma tigon0 $PA,4 write" -ex continue -ex 'delete' \
    -ex "info lastwrite $PA" -ex "goto-time lastwrite $PA" "$ELF"
expect_status 1
expect_out '^goto-time lastwrite: give an address.  Usage: goto-time lastwrite ADDR$'
expect_out "^$PA: writes there are not tracked (use \"track writes on\").\$"
expect_out "^$PA: not written since tracking began (t=0, 0.000 us).\$"
expect_out '^goto-time lastwrite: no write to go to.$'
expect_out '^Junk at end of arguments: "junk".$'
expect_out '^Cannot translate 0x10 (not mapped).$'
expect_out '^No symbol "nosuchsymbol" in current context.$'
expect_out '^  (goto-time needs the history: "record" before the run)$'
expect_out '^No history to go back in: say "record" before running the guest'
finish
