#!/bin/sh
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
expect_seq "Breakpoint 1, middle" "<middle>:" "#0  0x" "#1  0x" "#2  0x" "#3  0x" \
    "Run till exit from #0"
expect_re "^#0  0x[0-9a-f]+ in middle\+0x0 \(sp 0x"
expect_re "^#1  0x[0-9a-f]+ in outer\+0x[0-9a-f]+ \(sp 0x"
expect_re "^#2  0x[0-9a-f]+ in main\+0x[0-9a-f]+ \(sp 0x"
expect_re "^#3  0x[0-9a-f]+ in _start\+0x[0-9a-f]+ \(sp 0x"
expect_not "#4"
# middle(0) = leaf(0) + leaf(1) = 1 + 4
expect "Value returned is \$1 = 5 (0x5)"
expect_re "^pc +0x[0-9a-f]+  <outer\+0x"
# until main: outer returns to main before main's address comes again
expect_re "^0x[0-9a-f]+ <main\+0x[0-9a-f]+>:"
expect "breakpoint already hit 1 time"

# next runs over a call, step goes into it; stepi N; nexti N.
script calls <<'X'
break middle
run
set $call = $ra - 8
delete
tbreak *$call
continue
print $a0
next
print $pc == $call + 8
print $v0
tbreak *$call
continue
step
step
print $pc == middle
stepi 3
nexti 2
info breakpoints
X
expect_rc 0
expect "Temporary breakpoint 2, outer+0x"
expect_seq "\$1 = 1" "\$2 = 1" "\$3 = 11" "\$4 = 1"
expect "No breakpoints or watchpoints."

# Instruction budgets: continue N, stepi N; the budget ends a run quietly.
script budget <<'X'
continue 100000
print *counter
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
expect_seq "Breakpoint 2, middle" "\$1 = 1" "#0  0x" "#1  0x"
expect_re "^#0  0x[0-9a-f]+ in middle\+0x[0-9a-f]+ \(sp"
expect_re "^#1  0x[0-9a-f]+ in outer\+0x[0-9a-f]+ \(sp"
# depth(3): the inner calls pass $back first; until stops in depth(3) when
# depth(2) has returned 2, its caller main
expect_seq "Breakpoint 4, depth" "\$2 = 1" "\$3 = 2" "in depth+0x" "in main+0x" "in _start+0x"
expect_count 1 "in depth+0x"
# advance stops in the first (deepest) frame that gets there: depth(1)
expect_seq "Breakpoint 4, depth" "\$4 = 0"
finish
