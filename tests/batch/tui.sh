#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI, driven the way a user drives it: the real binary on a terminal
# (tests/batch/tmux_lib.sh: a private tmux server with a fixed-size window,
# keys sent with "tmux send-keys", the screen read back with "tmux
# capture-pane").
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
SESSION=tui
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"

# xbow runs under sh so that after it exits the pane shows its exit status
# and whether the terminal is back in cooked mode (icanon, echo).
cat >"$WORK/run.sh" <<EOF
HOME='$WORK'
export HOME
'$XBOW' --rtc-fixed '$GUEST'
echo XBOW-EXIT=\$?
echo "TTY: \$(stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e echo | tr '\n' ' ')"
exec sleep 600
EOF
tmux_start 160 50 "$WORK/run.sh"
last_cmd="xbow (TUI in tmux)"

# The value of the pc in the registers pane.
pc_shown() { screen; sed -n 's/^.pc \([0-9a-f]\{16\}\) .*/\1/p' "$WORK/out" | head -n 1; }

# Start-up: the debug layout's panes, the status bar and the prompt.
wait_for "cpu0 registers" "the registers pane" || { finish; exit 1; }
wait_for "─ disassembly" "the disassembly pane"
wait_for "─ console ─" "the console pane"
wait_for "─ commands ─" "the commands pane"
wait_for "^ xbow \| stopped \| cpu0 _start .*layout debug" "the status bar"
wait_for "^│\(xbow\) +│" "the prompt"
# The registers that matter first: pc, sp, ra (issue 12 item 14).
wait_for "^│pc a8[0-9a-f]{14}  +sp a8[0-9a-f]{14}  +ra [0-9a-f]{16}  +v0 " "pc, sp and ra first"

# Commands typed as fast as tmux can send them, and the Delete key (once
# taken as Ctrl-D, which quit xbow on an empty line).
keys Delete
type_line "info registers"
wait_for "^│Status +0x[0-9a-f]{8} <" "info registers' output"
keys "delete" Enter
keys -l "info brXeak"
keys Left Left Left Left Delete End
keys -l "points"
keys Enter
wait_for "^│\(xbow\) info breakpoints +│" "a line edited with Left, Delete and End"
wait_for "^│No breakpoints or watchpoints" "info breakpoints' output"
long="print 1+2+3+4+5+6+7+8+9+10+11+12+13+14+15+16+17+18+19+20+21+22+23+24+25+26+27+28+29+30"
long="$long+31+32+33+34+35+36+37+38+39+40+41+42+43+44+45+46+47+48+49+50+51+52+53+54+55+56+57+58+59+60"
type_line "$long"
wait_for "^│\\\$1 = 1830 +│" "the result of a long pasted command"

# A guest that never stops (a counting loop written into free memory: a
# bare "b ." would only wait, which idle skip does without executing): the
# status bar shows it running with a live instruction rate, Ctrl-C stops
# it, and the pc goes back to _start for the rest.
type_line "set *0xa800000001000000 = 0x24420001"
type_line "set *0xa800000001000004 = 0x1000fffe"
type_line "set *0xa800000001000008 = 0"
type_line "set \$pc = 0xa800000001000000"
type_line "continue"
wait_for "^ xbow \| RUNNING \| .*\| [1-9][0-9.]* MIPS \|" "the status bar of a running guest"
wait_for "^│\(running: Ctrl-C stops\)" "the prompt while running"
keys C-c
wait_for "^│Interrupted\." "Ctrl-C's stop report"
wait_for "^ xbow \| stopped \| cpu0 [^|]*\| vtime" "the status bar after Ctrl-C"
type_line "set \$pc = _start"
wait_for "^ xbow \| stopped \| cpu0 _start " "the pc back at _start"

# F11 steps: the pc in the registers pane moves.
pc0=$(pc_shown)
checks=$((checks + 1))
[ -n "$pc0" ] || fail "no pc in the registers pane"
keys F11
wait_for "cpu0 _start\+0x4 " "the status bar after F11"
pc1=$(pc_shown)
checks=$((checks + 1))
[ -n "$pc1" ] && [ "$pc1" != "$pc0" ] || fail "F11 left the pc at $pc0 (now \"$pc1\")"

# A breakpoint set with a command, then F5: stopped there.
type_line "break middle"
wait_for "^│Breakpoint 1 at 0xa8" "break's answer"
keys F5
wait_for "^│Breakpoint 1, middle" "the stop at the breakpoint"
wait_for "^ xbow \| stopped \| cpu0 middle " "the status bar at the breakpoint"
wait_for "││\\*>[0-9a-f]{16} " "the current instruction (and breakpoint) in the disassembly"
wait_for "dbgtest: hello, debugger" "the guest's console output"
type_line "delete"
type_line "continue"
wait_for "^│The guest reset the machine" "continue's stop report"
wait_for "dbgtest: 1 timer interrupt, done" "the guest's console output at its end"

# Layouts: each shows its own panes.
type_line "layout net"
wait_for "─ NIC rings" "layout net's rings pane"
wait_for "─ DMA counter" "layout net's DMA counter pane"
wait_for "─ Bridge windows" "layout net's Bridge pane"
wait_gone "cpu0 registers" "layout net"
type_line "layout mem"
wait_for "─ memory @0x" "layout mem's memory pane"
wait_gone "─ NIC rings" "layout mem"
type_line "layout full"
wait_for "─ NIC rings" "layout full's rings pane"
wait_for "cpu0 registers" "layout full's registers pane"
wait_for "─ Bridge windows" "layout full's Bridge pane"
keys F2
wait_for "layout mem " "F2 (layout next)"
type_line "layout debug"
wait_for "─ disassembly" "layout debug"

# winheight: as tall or short as the screen and the other panes allow
# (it says so), bad counts refused, and "layout" gives back the layout's
# own sizes.  The commands pane's top line tells its height.
cmd_top() { screen; grep -n "─ commands ─" "$WORK/out" | cut -d: -f1; }
# wait_top LINE WHAT: poll until the commands pane's top is at LINE.
wait_top() {
    checks=$((checks + 1))
    end=$(($(date +%s) + TIMEOUT))
    while [ "$(cmd_top)" != "$1" ]; do
        [ "$(date +%s)" -lt "$end" ] || { fail "$2: the commands pane's top at line" \
            "$(cmd_top), not $1"; return 1; }
        sleep 0.2
    done
}
top0=$(cmd_top)
type_line "winheight cmd 1000"
wait_for "^│winheight: cmd can be 4 to [0-9]+ lines on this screen; it is [0-9]+\." \
    "winheight clamped to the screen"
wait_for "cpu0 registers" "the registers pane next to a tall commands pane"
top1=$(cmd_top)
checks=$((checks + 1))
[ "$top1" -lt "$top0" ] || fail "winheight cmd 1000: the commands pane's top at $top1"
type_line "winheight cmd -3"
wait_top $((top1 + 3)) "winheight -3 after the clamp"
type_line "winheight regs 0"
wait_for "^│winheight: the count must be positive, not 0\." "winheight 0 refused"
type_line "winheight rings 5"
wait_for "^│winheight: pane \"rings\" is not shown in layout \"debug\"\." "a pane not shown"
type_line "layout debug"
wait_top "$top0" "layout debug after winheight"

# Resizing the terminal: the screen is laid out again, xbow lives on.
$T resize-window -t tui -x 100 -y 30
wait_for "^└─{98}┘$" "the 100-column redraw"
wait_for "^ xbow \| stopped \| " "the status bar after resizing"
type_line "echo still-alive-1"
wait_for "^│still-alive-1" "a command after resizing"
$T resize-window -t tui -x 160 -y 50
wait_for "^└─{158}┘$" "the 160-column redraw"
type_line "echo still-alive-2"
wait_for "^│still-alive-2" "a command after resizing back"

# quit: xbow exits 0 and the shell gets a cooked terminal back.
type_line "quit"
quitting=1
wait_for "^XBOW-EXIT=" "xbow's exit"
wait_for "^XBOW-EXIT=0$" "exit status 0"
wait_for "^TTY: icanon echo *$" "the terminal restored"
$T kill-session -t tui 2>/dev/null

# Started small, made bigger, then quit: the screen from before comes back
# whole, with none of the panes left on it (issue 12 item 10).  Here with
# TERM=xterm-256color (tmux's capture shows its line-drawing characters as
# the letters that select them, so the patterns do not use them).
sed 's/^export HOME$/TERM=xterm-256color; export HOME TERM/' "$WORK/run.sh" >"$WORK/run256.sh"
$T new-session -d -s tui -x 40 -y 10 "sh '$WORK/run256.sh'" || fail "tmux: no resize session"
quitting=
wait_for "^.\(xbow\) +.$" "the prompt at 40x10"
$T resize-window -t tui -x 100 -y 30
wait_for "^ xbow \| stopped \| cpu0 _start \| .*layout debug \| F1 help F5 cont F10" "the 100-column status bar"
# At 100x30: pc, sp and ra first, two to a line.
wait_for "^.pc a8[0-9a-f]{14} +sp a8[0-9a-f]{14} " "pc and sp at 100x30"
wait_for "^.ra [0-9a-f]{16} +v0 [0-9a-f]{16} " "ra at 100x30"
type_line "quit"
quitting=1
wait_for "^XBOW-EXIT=0$" "the exit after resizing"
checks=$((checks + 1))
screen
if grep -Eq "commands|registers|disassembly|xbow TUI" "$WORK/out"; then
    fail "panes left on the screen after a resize and quit"
fi
checks=$((checks + 1))
[ "$(sed -n 1p "$WORK/out")" = "XBOW-EXIT=0" ] ||
    fail "the shell's output does not start on the first line of the restored screen"
wait_for "^TTY: icanon echo *$" "the terminal restored after resizing"
$T kill-session -t tui 2>/dev/null

# The default demo (no arguments: a Tigon2 on the echo peer and its example
# driver) at 80x24 on a terminal without colours or line-drawing glyphs of
# its own (TERM=vt100) in the C locale: the net layout's rings and DMA
# counter fill as the driver runs, lines never cross a pane's border, and
# the help overlay opens on '?'.
cat >"$WORK/demo.sh" <<EOF
HOME='$WORK'
TERM=vt100 LANG=C LC_ALL=C
export HOME TERM LANG LC_ALL
cd '$top_builddir'
'$XBOW' --rtc-fixed
echo XBOW-EXIT=\$?
exec sleep 600
EOF
$T new-session -d -s tui -x 80 -y 24 "sh '$WORK/demo.sh'" || fail "tmux: no second session"
quitting=
wait_for "cpu0 registers" "the demo's registers pane"
wait_for "^ xbow \| stopped \| cpu0 _start " "the demo stopped at the driver's entry"
# At 80x24 the debug layout's registers pane starts with pc, sp and ra,
# and says there is more to scroll to (issue 12 item 14).
wait_for "^.pc a8[0-9a-f]{14}  sp a8[0-9a-f]{14}  [^ ]" "pc and sp at 80x24"
wait_for "^.ra [0-9a-f]{16}  v0 [0-9a-f]{16}  [^ ]" "ra at 80x24"
wait_for "cpu0 registers \(lines 1-8 of [0-9]+\)" "the registers pane's scroll hint"
type_line "focus regs"
keys NPage
wait_for "cpu0 registers \(lines 6-13 of [0-9]+\)" "the registers pane scrolled"
keys PPage
wait_for "cpu0 registers \(lines 1-8 of [0-9]+\)" "the registers pane scrolled back"
type_line "focus cmd"
type_line "layout net"
wait_for "NIC rings" "the demo's rings pane"

# Change marks, one set per viewer (issue 12 item 8): the ring command
# looks at one entry at the first send; two sends later the entry the last
# run filled is marked in the pane, stays marked there, and the ring
# command marks it too (its view of one entry kept the whole ring).
type_line "break tg_send"
type_line "continue"
wait_for "^.0x[0-9a-f]{16} <tg_send>:" "the first send" # (the breakpoint line may have scrolled out)
type_line "ring tigon0 tx 1"
type_line "zoom cmd"
wait_for "^.tigon0 ring tx: base 0x" "ring tigon0 tx 1"
type_line "zoom cmd"
wait_for "NIC rings" "the rings pane back"
type_line "continue"
wait_for "^.tigon0 tx: device at 1, " "the second send in the rings pane"
type_line "continue"
wait_for "^.tigon0 tx: device at 2, " "the third send in the rings pane"
wait_for "^.\*     1 0x[0-9a-f]{16} host +98 " "the changed entry marked in the rings pane"
sleep 1
wait_for "^.\*     1 0x[0-9a-f]{16} host +98 " "the mark still there after the pane's redraws"
type_line "ring tigon0 tx 4"
type_line "zoom cmd"
wait_for "^.\*     1 0x[0-9a-f]{16} host +98 +0x[0-9a-f]{16} END " "the ring command's own mark"
type_line "zoom cmd"
type_line "delete"
type_line "continue 30000000"
# The pane follows the device's position (entry 11 of 256 by now).
wait_for "^.tigon0 tx: device at 11, host 11, 256 entries" "the Tigon2 Tx ring in the rings pane"
wait_for "^. >T  11 0x[0-9a-f]{16} host " "the device's position in the rings pane"
wait_for "^.[* ]    10 0x[0-9a-f]{16} host +[0-9]+ +0x" "a Tx descriptor the driver filled, back with the host"
wait_for "per-word [1-9][0-9.]*k?/s" "a per-word rate in the DMA counter"
# The DMA counter's table fits: who, per-word operations, bulk bytes.
wait_for "initiator word-ops bulk-bytes .$" "the DMA counter's heading"
wait_for "tigon0 +[1-9][0-9]* +[1-9][0-9]* .$" "the Tigon2's DMA totals in the DMA counter"
# Scrolling the rings pane: PgUp moves the Tx ring's window back, Home
# follows the device again; Right chooses the Rx ring, Down moves it.
type_line "focus rings"
keys PPage
wait_for "^.[* ]     8 0x[0-9a-f]{16} host " "the Tx window moved back by PgUp"
wait_gone "^. >T  11 0x" "the Tx window moved back by PgUp"
keys Home
wait_for "^. >T  11 0x" "the Tx window following the device again"
keys Right
keys Down
wait_gone "^.     10 0x[0-9a-f]{16} host +1536 " "the Rx window moved by Down"
wait_for "^. >   11 0x[0-9a-f]{16} device 1536 " "the Rx window from the device's position"
type_line "focus cmd"
checks=$((checks + 1))
screen
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$WORK/out" ||
    fail "a line wider than the 80-column terminal"
checks=$((checks + 1))
if grep '<machine_reset' "$WORK/out" | grep -qv '[x│]$'; then
    fail "a command's output crossed the commands pane's border"
fi
keys '?'
wait_for "xbow TUI keys" "the help overlay"
wait_for "Home: follow the device" "the rings pane's keys in the help overlay"
wait_for "quit +leave xbow" "the help overlay's last line, over the commands pane"
keys q
wait_gone "xbow TUI keys" "the help overlay after a key"
type_line "quit"
quitting=1
wait_for "^XBOW-EXIT=0([^0-9]|$)" "the demo's exit status"
finish
