#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The line-mode debugger on a real terminal (tmux), as a gdb user types at
# it: Enter on an empty line repeats the last command the way gdb does (x
# goes on from the next address; run is not repeated), and Tab completes
# command names, symbols, devices, rings, events and registers.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=cli
CAPTURE_HISTORY=2000
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"

cat >"$WORK/run.sh" <<EOF
HOME='$WORK'
export HOME
'$XBOW' --cli -q --nic hamachi --rtc-fixed '$GUEST'
echo XBOW-EXIT=\$?
exec sleep 600
EOF
tmux_start 150 50 "$WORK/run.sh"
last_cmd="xbow --cli (in tmux)"

wait_for '^\(xbow\)' "the prompt" || { finish; exit 1; }

# x/2i, then Enter twice: the next four instructions, not the same two.
type_line 'x/2i $pc'
wait_for '^   0xa800000000020004 <_start\+0x4>:' "x/2i"
keys Enter
wait_for '^   0xa80000000002000c <_start\+0xc>:' "Enter after x/2i"
keys Enter
wait_for '^   0xa800000000020014 <_start\+0x14>:' "a second Enter"
type_line 'x/2xw 0xa800000000020000'
wait_for '^0xa800000000020000 <_start>:' "x/2xw"
keys Enter
wait_for '^0xa800000000020008 <_start\+0x8>:' "Enter after x/2xw"
# print repeats as typed (a new history value each time)
type_line 'print 40 + 2'
wait_for '^\$1 = 42' "print"
keys Enter
wait_for '^\$2 = 42' "Enter after print"

# run is not repeated by Enter: the guest runs once.
type_line 'run'
wait_for '^The guest reset the machine' "run"
keys Enter
sleep 1
screen
n=$(grep -c "Starting the machine again" "$WORK/out")
checks=$((checks + 1))
[ "$n" -eq 0 ] || fail "Enter after run ran the guest again"

# Tab: command names, NIC names and their rings, registers, symbols,
# event names, DEVICE.REG; two Tabs list the candidates.
clear_screen
keys -l 'inf'
keys Tab
keys -l 'device'
keys Tab
sleep 0.3
keys Tab
wait_for '^device +device-state +devices' "the subcommands of info listed by Tab Tab"
keys C-u
clear_screen
keys -l 'ring ham'
keys Tab
keys -l 'r'
keys Tab
wait_for '^\(xbow\) ring hamachi0 rx ?$' "ring NIC and ring completed"
keys Enter
wait_for '^hamachi0 ring rx: base' "the completed ring command"
clear_screen
keys -l 'print $stat'
keys Tab
wait_for '^\(xbow\) print \$status ?$' "a register completed"
keys C-u
keys -l 'break mid'
keys Tab
keys Enter
wait_for '^Breakpoint 1 at 0x[0-9a-f]+ <middle>' "a symbol completed"
clear_screen
keys -l 'break event hamachi0.tx.desc-f'
keys Tab
wait_for '^\(xbow\) break event hamachi0.tx.desc-fetch ?$' "an event name completed"
keys C-u
keys -l 'print hamachi0.TxSt'
keys Tab
wait_for '^\(xbow\) print hamachi0.TxStatus$' "a device register completed"
keys C-u
keys -l 'info registers s'
keys Tab
sleep 0.3
keys Tab
wait_for 'status' "register names listed"
keys C-u

type_line 'quit'
wait_for '^XBOW-EXIT=0' "quit"
finish
