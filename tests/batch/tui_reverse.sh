#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI and the history (docs/tui.md, docs/time-travel.md), in tmux: with record on, the status bar shows the history's span after the
# virtual time; F8 (reverse-continue) goes back to the previous hit of a
# breakpoint, F7 (reverse-stepi) one instruction back; the help overlay
# lists both keys.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=tuirev
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"

tui_start 120 40 --rtc-fixed "$GUEST"
type_line 'record'
wait_for "^│Recording the history" "record"
type_line 'break leaf'
type_line 'continue'
wait_for "^│Breakpoint 1, leaf" "the first hit"
type_line 'continue'
wait_for "^ xbow \| stopped \| cpu0 leaf \| vtime [0-9.]+s \| hist 0.000000-[0-9.]+s \|" \
    "the history's span in the status bar"
keys F8
wait_for "^│Back at tick [0-9]+ " "F8 went back to the previous hit"
keys F7
wait_for "^│0x[0-9a-f]+ <middle\+0x[0-9a-f]+>:" "F7 went one instruction back, into the caller"
keys F1
wait_for "F7 +reverse-stepi +F8 +reverse-continue" "the help overlay lists F7 and F8"
keys q
type_line 'quit'
wait_for "^XBOW-EXIT=0" "quit"
finish
