#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's status bar shows a NIC's live bit rates while the guest runs:
# "hamachi0 tx G/H rx G/H Mb/s g/h", per second of guest time (G) and of
# host time (H).  The example Hamachi driver receives from the gen peer
# (far more frames than it gets the time to take); Ctrl-C stops it.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
elf=${top_builddir:-.}/examples/hamachi/hamachi.elf
[ -f "$elf" ] || skip "$elf is not built"
SESSION=tuinic
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"

tmux_xbow 200 50 --rtc-fixed --nic hamachi --net gen --append 'rx 100000000' "$elf"
last_cmd="xbow --nic hamachi --net gen (TUI in tmux)"
wait_for "^ xbow \| stopped \| cpu0 " "the status bar" || { finish; exit 1; }
# No frame yet: no rates.
checks=$((checks + 1))
grep -q "hamachi0 tx" "$WORK/out" && fail "rates before any frame"
type_line "continue"
R='[0-9]+\.[0-9]'
wait_for "^ xbow \| RUNNING \| .*\| hamachi0 tx $R/$R rx (0\.[1-9]|[1-9][0-9]*\.[0-9])/[0-9]+\.[0-9] Mb/s g/h \|" \
    "the NIC's live rates in the status bar of a running guest"
keys C-c
wait_for "^ xbow \| stopped \| .*\| hamachi0 tx $R/$R rx $R/$R Mb/s g/h \|" "the rates after Ctrl-C"
type_line "info nic"
wait_for "^│    host time:  tx $R+ frames/s $R+ Mbit/s, rx $R+ frames/s $R+ Mbit/s" "info nic in the commands pane"
type_line "quit"
quitting=1
wait_for "^XBOW-EXIT=0([^0-9]|$)" "the exit status"
finish
