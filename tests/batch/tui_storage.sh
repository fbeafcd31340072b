#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's storage layout at 80x24 (tests/batch/tmux_lib.sh): the queues
# pane of the ISP1040Bs while the example driver (examples/isp/isp_disk.c)
# runs, its IOCBs decoded, the firmware's pointer followed; focused, the
# arrow keys scroll a queue and pick the other.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=storage
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"
ELF="$top_builddir/examples/isp/isp_disk.elf"
[ -f "$ELF" ] || skip "the example is not built ($ELF)"
truncate -s 1M "$WORK/d.img"

tmux_xbow 80 24 --rtc-fixed --nic none --disk "$WORK/d.img" "$ELF"
last_cmd="xbow --disk (TUI in tmux)"
wait_for "─ commands ─" "the commands pane" || { finish; exit 1; }
type_line "layout storage"
wait_for "─ SCSI queues" "the queues pane"
wait_for "isp0 request queue: not set up" "the queue before the driver"
type_line "continue 300000000"
# One line a queue at 80x24: the last request before the firmware's pointer.
wait_for "7 cmd64 h=0x7 t=4 l=0 TEST UNIT READY" "the last IOCB of the request queue"
wait_for "1 status h=0x7 scsi=0x00 comp=0x01 " "the last status IOCB"
# Focused, Up scrolls the request queue back (it stays there).
type_line "focus queues"
keys Up
wait_for "6 cmd64 h=0x6 t=1 l=0 READ\(10\) lba 5" "the READ(10) one entry up"
keys Right
keys Home
wait_for "isp0 response queue: 8 entries" "the response queue"
type_line "quit"
quitting=1
wait_for "XBOW-EXIT=0" "xbow's exit"
finish
