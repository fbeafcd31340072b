#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a stop says and what the breakpoint table counts: crossings passed
# by "ignore" are hits (gdb's "already hit 4 times"), two watchpoints on
# the same address both report the write, and a "continue N" that runs out
# of its instruction budget says so.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script ignore <<'X'
break leaf
ignore 1 3
run
info breakpoints
print $a0
X
expect_rc 0
expect_seq "Will ignore next 3 crossings of breakpoint 1." "Breakpoint 1, leaf" \
    "breakpoint already hit 4 times" '$1 = 2'

script twowatch --append forever <<'X'
watch counter
watch counter if value == 1
rwatch counter
continue
continue
info watchpoints
X
expect_rc 0
expect_seq "Hardware read watchpoint 3: counter" "Read by cpu0" \
    "Hardware watchpoint 1: counter" "New value = 0x00000001" \
    "Hardware watchpoint 2: counter" "New value = 0x00000001"
expect_count 3 "breakpoint already hit 1 time"

script budget --append forever <<'X'
continue 1000
continue 1
break leaf
continue 1000000
X
expect_rc 0
expect_seq "Stopped: the budget of 1000 instructions (all CPUs together) is used up." \
    "Stopped: the budget of 1 instruction (all CPUs together) is used up." \
    "Breakpoint 1, leaf"
expect_count 2 "is used up"
finish
