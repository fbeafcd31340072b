#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's source pane, driven in tmux at 80x24 as a user drives it: the
# debug layout shows the source of the pc's line (the line marked > and
# breakpoint lines *) while the pc has one and not otherwise; next (F10)
# moves the mark, up shows the selected frame's line; layout src, asm and
# split show what gdb's do.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=tui
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"
tui_start 80 24 --rtc-fixed "$GUEST"
# At _start, in crt0.S (assembled with -g): the debug layout has the source.
wait_for "─ crt0.S:18 ─" "the source pane at _start"
wait_for "^│ >  18 +move +\\\$s0, \\\$a0" "the pc's line marked"

type_line "break dbgtest.c:24"
type_line "run"
wait_for "^ xbow \| stopped \| cpu0 middle\+0x" "the stop at the breakpoint"
wait_for "─ dbgtest.c:24 ─" "the source pane's title"
wait_for "^│\*>  24     table\[x & 15\] = r;" "the line with the pc and the breakpoint"
wait_for "─ cpu0 registers" "the registers pane beside it"
wait_for "─ console ─" "the console pane under it"

# F10 is next: the mark moves to line 25, the breakpoint stays on 24.
keys F10
wait_for "─ dbgtest.c:25 ─" "the title after F10"
wait_for "^│ >  25     return r;" "the pc's line after F10"
wait_for "^│\*   24     table\[x & 15\] = r;" "the breakpoint's line after F10"

# up selects the caller's frame: the pane shows its line (outer's call of
# middle, line 43); down goes back to frame 0.
type_line "up"
wait_for "─ dbgtest.c:43 ─" "the selected frame's line in the title"
wait_for "^│ >  43         s \+= middle\(i\);" "the selected frame's line marked"
type_line "down"
wait_for "─ dbgtest.c:25 ─" "frame 0's line again"

# gdb's layouts.
type_line "layout src"
wait_for "^│    21 __attribute__\(\(noinline\)\) u64 middle\(u64 x\)" "layout src: more lines"
wait_gone "─ disassembly" "layout src"
wait_gone "cpu0 registers" "layout src"
type_line "layout asm"
wait_for "─ disassembly ─" "layout asm"
wait_gone "─ dbgtest.c:" "layout asm"
type_line "layout split"
wait_for "─ dbgtest.c:25 ─" "layout split's source"
wait_for "─ disassembly ─" "layout split's disassembly"
wait_for "─ console ─" "layout split's console"
type_line "focus src"
keys PPage
wait_for "^│    1[5-9] " "the source pane scrolled back"

# Where the pc has no line (an address outside the program's code), the
# debug layout is registers, disassembly and console again.
type_line "layout debug"
type_line "set \$pc = 0xa800000000020098"
wait_gone "─ dbgtest.c:" "the source pane without a line for the pc"
wait_for "─ console ─" "the console pane"
wait_for "cpu0 registers" "the registers pane"
type_line "set \$pc = middle"
wait_for "─ dbgtest.c:23 ─" "the source pane back with the pc in middle"

quitting=1
type_line "quit"
wait_for "^XBOW-EXIT=0" "quit"
finish
