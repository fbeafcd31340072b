#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Execution: run, continue, stepi/step, nexti/next, finish, until, advance,
# breakpoints on symbols, backtrace; run again from reset.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script steps <<'X'
break middle
run
bt
finish
info registers pc
info breakpoints
delete
until main
X
expect_rc 0
expect "Breakpoint 1 at 0xa8"
expect "dbgtest: hello, debugger"
# The test guest has debug information: frames with their source lines.
expect_seq "Breakpoint 1, middle (x=0) at dbgtest.c:" "<middle>:" "#0  middle" "#1  0x" \
    "#2  0x" "#3  0x" "Run till exit from #0"
expect_re "^#0  middle \(x=0\) at dbgtest\.c:[0-9]+$"
expect_re "^#1  0x[0-9a-f]+ in outer \(n=.*\) at dbgtest\.c:[0-9]+$"
expect_re "^#2  0x[0-9a-f]+ in main \(argc=.*, argv=.*\) at dbgtest\.c:[0-9]+$"
expect_re "^#3  0x[0-9a-f]+ in _start \(\) at crt0\.S:[0-9]+$"
expect_not "#4"
# middle(0) = leaf(0) + leaf(1) = 1 + 4, a u64
expect "Value returned is \$1 = 5"
expect_re "^pc +0x[0-9a-f]+  <outer\+0x"
# until main: outer returns to main before main's address comes again
expect_re "^0x[0-9a-f]+ <main\+0x[0-9a-f]+>:"
expect "breakpoint already hit 1 time"

# nexti runs over a call, stepi goes into it (the jal and its delay slot);
# stepi N; nexti N.
script calls <<'X'
break middle
run
set $call = $ra - 8
delete
tbreak *$call
continue
print $a0
nexti
print $pc == $call + 8
print $v0
tbreak *$call
continue
stepi
stepi
print $pc == middle
stepi 3
nexti 2
info breakpoints
X
expect_rc 0
expect "Temporary breakpoint 2, outer (n=4) at dbgtest.c:"
expect_seq "\$1 = 1" "\$2 = 1" "\$3 = 11" "\$4 = 1"
expect "No breakpoints or watchpoints."

# Instruction budgets: continue N, stepi N; the budget ends a run quietly.
script budget <<'X'
continue 100000
print counter
stepi 1000
continue 1
X
expect_rc 0
expect "dbgtest: round 2 sum 56"
expect "\$1 = 3"

# run again: a machine reset, the kernel loaded again, breakpoints kept.
script restart <<'X'
break leaf
run
delete
continue
break leaf
run
print $a0
X
expect_rc 0
expect_re "^Breakpoint 1, leaf"
expect_re "^Breakpoint 2, leaf"
expect "Starting the machine again from reset."
expect_count 2 "dbgtest: hello, debugger"
expect "The guest reset the machine: NI_PORT_RESET."

# A guest that cannot go on makes continue fail (and the exit status 1).
script halt <<'X'
set $pc = 0x1000
continue
X
expect_rc 1
expect_re "The CPU cannot continue|Stopped"
# until LOCATION from a function's first instruction (before its prologue
# moved $sp) stops in the same frame, after deeper calls; advance stops in
# any frame.  $back: the return address of a call inside the function.
script until_frames <<'X'
tbreak leaf
run
set $back = $ra
break middle
run
delete
until *$back
print $pc == $back
bt 2
tbreak depth if $a0 == 0
run
set $back = $ra
break depth if $a0 == 3
run
until *$back
print $pc == $back
print $v0
bt
run
delete
advance *$back
print $v0
X
expect_rc 0
# middle -> leaf: back in middle, not in outer
# (frame 0 shows its address only in the middle of a line-table row)
expect_seq "Breakpoint 2, middle" "\$1 = 1" "#0  " "#1  0x"
expect_re "^#0  (0x[0-9a-f]+ in )?middle \(x=.*\) at dbgtest\.c:"
expect_re "^#1  0x[0-9a-f]+ in outer \(n=.*\) at dbgtest\.c:"
# depth(3): the inner calls pass $back first; until stops in depth(3) when
# depth(2) has returned 2, its caller main
expect_seq "Breakpoint 4, depth" "\$2 = 1" "\$3 = 2" "depth (n=3)" "in main (" "in _start ("
expect_count 0 "in depth (n=" # no deeper depth() frame under frame 0
# advance stops in the first (deepest) frame that gets there: depth(1)
expect_seq "Breakpoint 4, depth" "\$4 = 0"
finish
