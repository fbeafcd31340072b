#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Auto-display: expressions shown after every reported stop, in x's formats
# (display/i $pc) and print's (display/x $a0); listed, disabled, deleted;
# one that cannot be shown at a stop says why without failing the run.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script display <<'X'
display/i $pc
display/x $a0
break leaf
run
stepi
info display
set $p = main
display/x *(int *)$p
undisplay 1
continue
set $p = 0
disable display 2
continue
info display
enable display
delete display 2
nexti 3
display
X
expect_rc 0
expect_seq "1: x/i \$pc" "=> 0xa800000000020000 <_start>:" "2: /x \$a0 = 0x" \
    "Breakpoint 1, leaf" "<leaf>:" \
    "1: x/i \$pc" "<leaf>:" "2: /x \$a0 = 0x0" \
    "<leaf+0x4>:" "1: x/i \$pc" "<leaf+0x4>:" \
    "2: /x \$a0 = 0x0" \
    "Auto-display expressions now in effect:" "Num Enb Expression" "1   y   x/i \$pc" \
    "2   y   /x \$a0" \
    "3: /x *(int *)\$p = 0x67bdffd0" \
    "Breakpoint 1, leaf" "2: /x \$a0 = 0x1" "3: /x *(int *)\$p = 0x67bdffd0" \
    "Breakpoint 1, leaf" \
    "3: /x *(int *)\$p = <error: Cannot access memory at address 0x0 (not mapped).>" \
    "2   n   /x \$a0" "3   y   /x *(int *)\$p" \
    "Cannot access memory at address 0x0"
expect_count 3 "1: x/i \$pc"
expect_count 4 "2: /x \$a0 = "
# nexti 3 reports one stop, so the displays come once after it
expect_count 5 "3: /x *(int *)\$p"

# Bad displays are refused and not kept.
ex_script bad <<'EOF'
display
display/q $pc
display nosuch
display *(int *)0
display/f $pc
undisplay 7
info display
EOF
expect_rc 1
expect 'Undefined output format "q".'
expect 'No symbol "nosuch" in current context.'
expect 'Cannot access memory at address 0x0 (not mapped).'
expect 'display: format "f" shows memory'
expect 'No display number 7.'
expect 'There are no auto-display expressions now.'
finish
