#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Device and CPU events: break event with conditions over the decoded
# fields (and their value names), break reg with decoded before/after,
# info irq on a pending interrupt, tracing instructions and events.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script events <<'X'
info events cpu0.*
break event cpu.irq if ip == 4 && level == 1
run
info irq
delete
break event cpu.exception if code == Int
continue
bt 1
delete
break event cpu.irq
commands
  silent
  printf "irq line %d level %d\n", ip, level
  continue
end
break event hub.reg.write if reg == 0
continue
info breakpoints
X
expect_rc 0
expect_re "^  cpu0.irq +.*\[cpu ip level pending\]"
expect_re "^Event breakpoint 1: cpu0.irq cpu=0 ip=4 level=1 pending=0x10 \(t=[0-9]+, [0-9.]+ ms"
expect "RT timer A pending: yes (IP4)"
expect "CPU A pending and enabled: - |-"
expect_re "^cpu0: Cause.IP 0x10, Status.IM 0x1c, IE 1"
expect_re "^Event breakpoint 2: cpu0.exception cpu=0 code=Int pc=0x[0-9a-f]+ badvaddr=0x0"
expect_re "^0xffffffff80000180:	"
expect "irq line 4 level 0"
expect_not "Event breakpoint 3: cpu0.irq"

# break reg: decoded fields before and after, who wrote it.
script regs <<'X'
break reg hub.PI_RT_PEND_A changes
break reg bridge.WID_CONTROL
run
info breakpoints
X
expect_rc 0
expect "Register breakpoint 1: hub.PI_RT_PEND_A changes"
expect_re "^Register breakpoint 1: hub.PI_RT_PEND_A 0x1 -> 0x0 \(t=[0-9]+, [0-9.]+ ms, by cpu0 at 0x[0-9a-f]+ <exc_dispatch\+0x"
expect "  before: 0x0000000000000001"
expect "  after:  0x0000000000000000"
expect "Register breakpoint 2: bridge.WID_CONTROL"
expect_re "^1 +register +keep y   hub.PI_RT_PEND_A changes"

# Field breakpoint on a device the guest programs: the Bridge's DEVICE(2)
# (the synthetic PROM sets it up before the kernel runs, so the debugger
# writes it here, and the breakpoint sees the debugger's write).
script field <<'X'
break reg bridge.DEVICE(2).SWAP_DIR changes
set bridge.DEVICE(2).SWAP_DIR = 1
print bridge.DEVICE(2).SWAP_DIR
X
expect_rc 0
expect "Register breakpoint 1: bridge.DEVICE2.SWAP_DIR changes"
expect_re "^Register breakpoint 1: bridge.DEVICE2.SWAP_DIR 0x0 -> 0x1 \(t=0, 0.000 us, by debugger\)"
expect_re "^  before: 0x[0-9a-f]{8}  .*SWAP_DIR=0"
expect_re "^  after:  0x[0-9a-f]{8}  .*SWAP_DIR=1"
expect "\$1 = 0x1"

script tracing <<X
break middle
run
trace insn on $TMP/insn.txt
stepi 4
trace insn off
trace event cpu0.* $TMP/events.txt
info trace
delete
continue
trace off
trace event cpu.eret
run
X
expect_rc 0
expect "Tracing instructions to $TMP/insn.txt."
expect "events cpu0.* -> $TMP/events.txt"
expect_re "^\[t=[0-9]+ cpu0\] cpu0.eret cpu=0 pc=0x"
n=$(wc -l <"$TMP/insn.txt")
[ "$n" -eq 4 ] || fail "tracing: $n instruction lines, want 4"
grep -qE "^\[t=[0-9]+ cpu0\] 0x[0-9a-f]+ <middle>:	daddiu sp, sp, -0x10	; sp=0x" "$TMP/insn.txt" ||
    fail "tracing: no first instruction with its changed register"
grep -qE "^\[t=[0-9]+ cpu0\] cpu0.irq cpu=0 ip=4 level=1" "$TMP/events.txt" ||
    fail "tracing: no irq event in the event trace"
grep -qE "^\[t=[0-9]+ cpu0\] cpu0.exception cpu=0 code=Int" "$TMP/events.txt" ||
    fail "tracing: no exception event in the event trace"
finish
