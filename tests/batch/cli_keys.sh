#!/bin/sh
# The line-mode debugger on a real terminal (tmux), as a gdb user types at
# it: Enter on an empty line repeats the last command the way gdb does (x
# goes on from the next address; run is not repeated), and Tab completes
# command names, symbols, devices, rings, events and registers.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
top_builddir=${top_builddir:-$PWD}
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
[ -x "$XBOW" ] || skip "the xbow binary is not built ($XBOW)"
GUEST="$top_builddir/examples/dbgtest/dbgtest.elf"
[ -f "$GUEST" ] || skip "the test guest is not built ($GUEST)"
case $XBOW in /*) ;; *) XBOW=$PWD/$XBOW ;; esac

unset TMUX
T="tmux -S $WORK/tmux"
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
TIMEOUT=${TUI_TEST_TIMEOUT:-60}

cat >"$WORK/run.sh" <<EOF
HOME='$WORK'
export HOME
'$XBOW' --cli -q --nic hamachi --rtc-fixed '$GUEST'
echo XBOW-EXIT=\$?
exec sleep 600
EOF
$T -f /dev/null new-session -d -s cli -x 150 -y 50 "sh '$WORK/run.sh'" ||
    skip "tmux cannot start a session here"
last_cmd="xbow --cli (in tmux)"

screen() { $T capture-pane -p -S -2000 -t cli >"$WORK/out" 2>"$WORK/err"; }
keys() { $T send-keys -t cli "$@"; }
type_line() {
    $T send-keys -t cli -l "$1"
    $T send-keys -t cli Enter
}
dead() {
    grep -q "^XBOW-EXIT=" "$WORK/out" || return 0
    fail "xbow exited (screen above)"
    finish
    exit 1
}
wait_for() {
    checks=$((checks + 1))
    end=$(($(date +%s) + TIMEOUT))
    while :; do
        screen
        grep -Eq -e "$1" "$WORK/out" && return 0
        dead
        [ "$(date +%s)" -lt "$end" ] || break
        sleep 0.2
    done
    fail "${2:-the screen} never showed /$1/ in ${TIMEOUT}s"
    return 1
}
# clear: a fresh screen and scrollback, so that the next checks see only
# what comes after.
clear_screen() {
    keys C-l
    $T clear-history -t cli
    sleep 0.3
}

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

type_line 'quit'
wait_for '^XBOW-EXIT=0' "quit"
finish
