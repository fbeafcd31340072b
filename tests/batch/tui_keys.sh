#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's command line as a gdb user types at it (tmux): Tab completes
# commands, NICs and rings, registers, symbols and the TUI's own words;
# Enter repeats x from the next address; the status bar shows a speed only
# while the guest runs, none left over from the last run once it stopped.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=tui
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"

tui_start 120 40 --rtc-fixed --nic hamachi "$GUEST"
wait_for "^ xbow \| stopped \| cpu0 _start \| vtime [0-9.]+s \| layout debug \|" \
    "the status bar, stopped, without a speed"

keys -l 'ring ham'
keys Tab
keys -l 'r'
keys Tab
wait_for "^│\(xbow\) ring hamachi0 rx +│" "ring NIC and ring completed"
keys Enter
wait_for "^│hamachi0 ring rx: base" "the completed ring command"
keys -l 'print $stat'
keys Tab
wait_for "^│\(xbow\) print \\\$status +│" "a register completed"
keys C-u
keys -l 'tbreak mid'
keys Tab
keys Enter
wait_for "^│Temporary breakpoint 1 at 0x[0-9a-f]+ <middle>" "a symbol completed"
keys -l 'info registers s'
keys Tab
sleep 0.3
keys Tab
wait_for "^│.*\\\$?s7 +.*status" "register names listed"
keys C-u
keys -l 'layout n'
keys Tab
keys -l 't'
keys Enter
wait_for "─ NIC rings" "layout net, completed"
type_line 'layout debug'

# Enter after x/2i: the next two instructions.
type_line 'x/2i 0xa800000000020000'
wait_for "^│   0xa800000000020004 <_start\+0x4>:" "x/2i"
keys Enter
wait_for "^│   0xa80000000002000c <_start\+0xc>:" "Enter after x/2i"

# A run: a speed while it runs, none once it stopped.
type_line 'continue'
wait_for "^│Temporary breakpoint 1, middle" "the stop"
wait_for "^ xbow \| stopped \| cpu0 middle \| vtime [0-9.]+s \| layout debug \|" \
    "the status bar after the run, without a stale speed"
type_line 'quit'
wait_for "^XBOW-EXIT=0" "quit"
finish
