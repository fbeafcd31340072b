#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Source-level debugging on the debugger's test guest, built with -g
# (DWARF 5): list, info line, info source; breakpoints by FILE:LINE, LINE
# and FUNCTION; step, next, until, advance and finish by line, into and
# over calls, never stopping in a delay slot; info args, info locals,
# info frame; frame, up and down; bt with the call-frame information
# through the exception frame of an interrupt.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# list and friends, before the guest runs: main's file is the current one.
script listing <<'X'
list middle
list
list -
list dbgtest.c:40,43
list 21,
info line middle
info line dbgtest.c:24
info line *middle
info source
X
expect_rc 0
# list FUNCTION centres on its line (21), the next list goes on, list - goes back
expect_seq "16	" "21	__attribute__((noinline)) u64 middle(u64 x)" "25	    return r;" \
    "26	}" "35	    return depth(n - 1) + 1 + (here - n);" "16	" "25	"
expect_seq "40	{" "41	    u64 s = 0;" "42	    for (u64 i = 0; i < n; i++)" "43	        s += middle(i);"
expect_seq "21	__attribute__" "30	__attribute__((noinline)) u64 depth(u64 n)"
expect_re "^Line 23 of \"dbgtest.c\" starts at address 0xa8[0-9a-f]+ <middle> and ends at 0xa8[0-9a-f]+ <middle\+0x[0-9a-f]+>\.$"
expect_re "^Line 24 of \"dbgtest.c\" starts at address 0xa8[0-9a-f]+ <middle\+0x[0-9a-f]+> and ends at "
# the CPU starts at _start, in crt0.S (assembled with -g)
expect_re "^Current source file is .*/examples/lib/crt0\.S$"
expect "Source language is asm."
expect "Compiled with DWARF 5 debugging format."

# Stepping by line through outer -> middle -> leaf and back.
script stepping <<'X'
break outer
run
info args
info locals
next
step
bt 2
info args
next
info locals
next
next
finish
X
expect_rc 0
expect "Breakpoint 1 at 0xa8"
expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+ <outer>: file dbgtest.c, line 42\.$"
expect_seq "Breakpoint 1, outer (n=4) at dbgtest.c:42" "<outer>:" \
    "42	    for (u64 i = 0; i < n; i++)" \
    "n = 4" "i = 0" "s = 0" \
    "43	        s += middle(i);" \
    "middle (x=0) at dbgtest.c:23" "23	    u64 r = leaf(x) + leaf(x + 1);" \
    "#0  middle (x=0) at dbgtest.c:23" "#1  0x" \
    "x = 0" \
    "24	    table[x & 15] = r;" \
    "r = 5" \
    "25	    return r;" \
    "outer (n=4) at dbgtest.c:42" \
    "Run till exit from #0  outer (n=4) at dbgtest.c:42" \
    "main (argc=" "Value returned is \$1 = 56"
# next over leaf's calls, never stopping in between
expect_not "leaf (x="

# A branch and its delay slot are one step: crt0.S gives the delay slot of
# "jal main" (line 23) a line of its own (24); next over the call stops
# after it, at line 25, never in the slot.  stepi does stop there.
script slots <<'X'
break crt0.S:23
run
next
run
stepi
info line *$pc
X
expect_rc 0
expect_seq "Breakpoint 1, _start () at crt0.S:23" "23		jal	main" "dbgtest: 1 timer interrupt, done" \
    "25		jal	machine_reset" "Starting the machine again from reset." \
    "Breakpoint 1, _start () at crt0.S:23" "<_start+0x6c>:" "24		move	\$a1, \$s1" \
    "Line 24 of \"crt0.S\""
expect_count 1 "24	"

# Breakpoints by FILE:LINE and by LINE of the current file; until and
# advance by line; a condition on an argument, its names checked when set.
script lines <<'X'
break dbgtest.c:24
tbreak 43
run
info breakpoints
continue
delete
break middle if x == 2
continue
print x
delete
until 25
print r
break main
run
advance 76
print counter
print s
break middle if nosuch == 1
X
expect_rc 1
expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+ <middle\+0x[0-9a-f]+>: file dbgtest.c, line 24\.$"
expect_re "^Temporary breakpoint 2 at 0xa8[0-9a-f]+ <outer\+0x[0-9a-f]+>: file dbgtest.c, line 43\.$"
expect_seq "Temporary breakpoint 2, outer (n=4) at dbgtest.c:43" \
    "Breakpoint 1, middle (x=0) at dbgtest.c:24" \
    "Breakpoint 3, middle (x=2) at dbgtest.c:23" "\$1 = 2" \
    "25	    return r;" "\$2 = 17" \
    "Breakpoint 4, main (argc=" "<main+0x" "76	        counter++;" \
    "\$3 = 0" "\$4 = 56"
expect "No symbol \"nosuch\" in current context."

# The frame and its registers: info frame; bt through an interrupt's
# exception frame (crt0.S's exc_entry, .cfi_signal_frame) to the code it
# interrupted and _start, the outermost frame.
script frames <<'X'
break leaf
run
info frame
info frame 1
delete
break tick
continue
bt
finish
X
expect_rc 0
expect_seq "Breakpoint 1, leaf (x=0) at dbgtest.c:19" "Stack level 0, frame at 0xa8" \
    " in leaf (dbgtest.c:19); saved pc = 0xa8" " called by frame at 0xa8" \
    " source language c." ", args: x=0" \
    "Stack level 1, frame at 0xa8" " in middle (dbgtest.c:23)" " caller of frame at 0xa8" \
    " Saved registers:" "  ra at 0xa8"
expect_seq "Breakpoint 2, tick (arg=0x0) at dbgtest.c:50" \
    "#0  tick (arg=0x0) at dbgtest.c:50" \
    "in exc_dispatch (frame=" \
    "in exc_entry () at crt0.S:82 <exception frame>" \
    "in main (argc=<optimized out>, argv=<optimized out>) at dbgtest.c:80" \
    "in _start () at crt0.S:24"
expect_re "^#1  0x[0-9a-f]{16} in exc_dispatch "
expect_re "^#3  0x[0-9a-f]{16} in main "
expect_not "#5"
expect "Run till exit from #0  tick (arg=0x0) at dbgtest.c:50"

# Selecting a frame with the debug information (the recursion depth(3) ->
# depth(0)): frame, up and down show gdb's frame line and source line; in
# an outer frame the program's names, info locals, info args, list, info
# line, info frame and the saved registers ($s0 holds n, saved by the
# callee as the CFI says) are that frame's; finish returns from it; a stop
# selects frame 0 again.
ex_script selecting <<'X'
break depth if n == 0
run
up
print n
print here
info args
info locals
print $s0
info line
list
info frame
up 2
print n
down
frame
frame 9
set var n = 5
finish
print n
bt
X
expect_rc 1
expect_seq "Breakpoint 1, depth (n=0) at dbgtest.c:32" \
    "#1  0x" "35	    return depth(n - 1) + 1 + (here - n);" \
    "\$1 = 1" "\$2 = 1" "n = 1" "here = 1" "\$3 = 1" "Line 35 of \"dbgtest.c\"" \
    "30	__attribute__((noinline)) u64 depth(u64 n)" "39	" \
    "Stack level 1, frame at 0xa8" " in depth (dbgtest.c:35); saved pc = 0xa8" \
    " caller of frame at 0xa8" ", args: n=1" " Saved registers:" "  s0 at 0xa8" \
    "#3  0x" "\$4 = 3" "#2  0x" "#2  0x" \
    "No frame at level 9 (the stack has 6: see \"backtrace\")." \
    "n is held in \$s0 in frame #2: assign the register (set var \$s0 = VALUE)" \
    "Run till exit from #2  0x" \
    "depth (n=3) at dbgtest.c:35" "Value returned is \$5 = 2" \
    "\$6 = 3" "#0  depth (n=3) at dbgtest.c:35" "#1  0x"
expect_re "^#1  0x[0-9a-f]{16} in depth \(n=1\) at dbgtest\.c:35$"
expect_re "^#3  0x[0-9a-f]{16} in depth \(n=3\) at dbgtest\.c:35$"
expect_re "^#1  0x[0-9a-f]{16} in main \(argc=.*\) at dbgtest\.c:69$"

# Wrong arguments get one clear line each.
cat >"$TMP/cases" <<'X'
list nosuch.c:3|No source file named nosuch.c.
list nosuchfunc|Function "nosuchfunc" not defined.
list dbgtest.c:999|Line number 994 out of range; "dbgtest.c" has 85 lines.
list 99999999999999999999|Line number 99999999999999999999 out of range.
list 1,99999999999999999999|Line number 99999999999999999999 out of range.
break dbgtest.c:99999999999999999999|Line number 99999999999999999999 out of range.
break nosuch.c:3|No source file named nosuch.c.
break dbgtest.c:9999|Line 9999 in "dbgtest.c:9999" has no code (nor does any line after it).
info line nosuch.c:1|No source file named nosuch.c.
list 5,2|list: the last line 2 comes before the first, 5.
info frame 99|No frame at level 99 (the stack has 1: see "backtrace").
info locals 3|info locals: it takes no arguments.  Usage: info locals
ptype struct nosuch|No struct type named nosuch.
X
error_cases errors "print 12345"
expect "\$1 = 12345"
finish
