#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# jump, kill and shell as a gdb user uses them: jump continues elsewhere;
# kill resets the machine to power-on (the guest starts afresh, breakpoints
# kept); shell and !CMD run host commands, off in batch mode unless
# --allow-shell.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# jump: from outer's first instruction to its early return (outer+0x40,
# the path for n == 0): outer returns 0 without calling middle, so round 0
# sums to 0 and leaf's breakpoint is not reached before outer's next call.
script jump <<'X'
break outer
break leaf
run
jump outer+0x40
X
expect_rc 0
expect_seq "Breakpoint 1, outer" "<outer+0x40>." \
    "dbgtest: round 0 sum 0" "Breakpoint 1, outer"
expect_not "Breakpoint 2, leaf"
expect_re "^Continuing at 0x[0-9a-f]{16} <outer\+0x40>\.$"

ex_script jumpbad <<'EOF'
jump
jump 0x3
jump 0x1000
jump main if 1
break leaf
run
jump main
EOF
expect_rc 1
expect "jump: give a location.  Usage: jump LOCATION"
expect "jump: 0x3 is not an instruction address"
expect "jump: no instruction to run there: Cannot access memory at address 0x1000 (not mapped)."
expect "jump: no condition here."
expect "Note: jumping from leaf into main; the stack and registers stay as leaf left them."

# kill: back to the state before run; run and continue start the guest
# from its entry again, with the breakpoints kept.
script kill <<'X'
break middle
run
print *(int *)&counter
continue 20000
kill
print $pc == _start
print *(int *)&table
info breakpoints
continue
kill
run
X
expect_rc 0
expect_seq "Breakpoint 1, middle" "[Machine killed: reset to power-on" \
    "0xa800000000020000 <_start>:" '$2 = 1' '$3 = 0' "breakpoint already hit" \
    "dbgtest: hello, debugger" "Breakpoint 1, middle" "[Machine killed" \
    "dbgtest: hello, debugger" "Breakpoint 1, middle"
expect_count 3 "dbgtest: hello, debugger"
expect_not "Starting the machine again"
xbow_run killargs -ex 'kill now'
expect_rc 1
expect "kill: it takes no arguments.  Usage: kill"

# shell: off in batch mode ...
xbow_run noshell -ex 'shell echo hello' -ex '!echo hello'
expect_rc 1
expect_count 2 "shell: running host commands is off in batch mode (start xbow with --allow-shell"
expect_not "hello"
# ... on with --allow-shell: output and errors shown (and logged), the
# exit status in $_shell_exitcode.
xbow_run shell --allow-shell -ex "set logging file $TMP/shell.log" -ex 'set logging on' \
    -ex 'shell echo out; echo err >&2; exit 3' -ex 'print $_shell_exitcode' \
    -ex '!printf "%s\n" bang' -ex 'print $_shell_exitcode' -ex 'set logging off' -ex 'shell'
expect_rc 1
expect_seq "out" "err" '$1 = 3' "bang" '$2 = 0'
expect "shell: give a command (xbow runs no interactive shell).  Usage: shell COMMAND"
name=shell.log
cp "$TMP/shell.log" "$TMP/$name.out"
expect_seq "out" "err" '$1 = 3' "bang"
finish
