#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C stops long commands and scripts, and long output is streamed, not
# kept: the way a user meets them, on a terminal (tmux) in the CLI and in
# the TUI, and with SIGINT in batch mode.  Memory is read from
# /proc/PID/status (VmRSS) while a huge x runs.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
. "${top_srcdir:-.}/tests/batch/tmux_lib.sh"
GUEST="$top_builddir/examples/hello/hello.elf"
[ -f "$GUEST" ] || skip "the test guest is not built ($GUEST)"

HUGE='x/99999999999gx 0xa800000000020000'
# Past 16 MB of guest memory: a million lines of output so far.
FAR='0xa80000000(1|2|3|4|5|6|7)[0-9a-f]{6}:'
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# start NAME ARGS...: xbow ARGS in a new 120x30 session NAME; $pid is xbow's.
start() {
    S=$1
    SESSION=$1
    shift
    # A sanitizer build keeps freed memory aside (256 MB by default): keep
    # little, so that VmRSS shows what xbow holds.
    cat >"$WORK/$S.sh" <<EOF2
HOME='$WORK'
ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4'
export HOME ASAN_OPTIONS
'$XBOW' $*
echo XBOW-EXIT=\$?
exec sleep 600
EOF2
    $T -f /dev/null new-session -d -s "$S" -x 120 -y 30 "sh '$WORK/$S.sh'" ||
        skip "tmux cannot start a session here"
    last_cmd="xbow $* (in tmux)"
    sh_pid=$($T display -p -t "$S" '#{pane_pid}')
    pid=
    for i in $(seq 100); do
        pid=$(pgrep -P "$sh_pid" -x xbow) && break
        sleep 0.1
    done
}

# huge_x PROMPT_RE: the huge x runs, streams, is stopped by Ctrl-C; memory
# stays where it was; the prompt comes back and takes a command.
huge_x() {
    rss0=$(rss_kb "$pid")
    type_line "$HUGE"
    wait_for "$FAR" "x's output streaming"
    rss1=$(rss_kb "$pid")
    keys C-c
    wait_for "Interrupted\." "Ctrl-C's answer"
    wait_for "$1" "the prompt after Ctrl-C"
    checks=$((checks + 1))
    [ "$((rss1 - rss0))" -lt 32768 ] ||
        fail "VmRSS grew from $rss0 kB to $rss1 kB during the huge x"
    type_line "echo alive-after-x"
    wait_for "^│?alive-after-x" "a command after Ctrl-C"
}

# The CLI (readline on a terminal).
start cli --cli -q --rtc-fixed "'$GUEST'"
wait_for "^\(xbow\)" "the CLI's prompt"
huge_x "^\(xbow\) ?$"
# A script loop that never ends, with and without running the guest.
type_line 'while 1'
type_line 'end'
sleep 1
keys C-c
wait_for "^Interrupted\.$" "Ctrl-C in an empty while loop"
type_line 'set $n = 0'
type_line 'while 1'
type_line 'stepi'
type_line 'set $n = $n + 1'
type_line 'end'
wait_for "^0xa8[0-9a-f]{14} <" "stepi's output in the loop"
keys C-c
type_line 'printf "looped %d\n", $n > 0'
wait_for "^looped 1$" "the loop stopped by Ctrl-C"
$T kill-session -t cli

# The TUI (Ctrl-C is a key there).
start tui --rtc-fixed "'$GUEST'"
wait_for "^│\(xbow\) +│" "the TUI's prompt"
huge_x "^│\(xbow\) +│"
$T kill-session -t tui

# Batch mode: SIGINT during a huge x stops it (a failed command); as in gdb
# and as after Ctrl-C stopped the guest (dbg_interrupt.sh), the next -ex
# command runs.
"$XBOW" --batch -q --rtc-fixed -ex "$HUGE" -ex 'echo next\n' "$GUEST" >"$WORK/batch.out" \
    2>"$WORK/batch.err" </dev/null &
bpid=$!
i=0
while [ "$(stat -c %s "$WORK/batch.out")" -lt 10000000 ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -INT $bpid
wait $bpid
status=$?
last_cmd="xbow --batch -ex '$HUGE' -ex 'echo next\\n' (SIGINT)"
cp "$WORK/batch.out" "$WORK/out.full"
tail -n 3 "$WORK/out.full" >"$WORK/out"
expect_status 1
expect_out "^Interrupted\.$"
expect_out "^next$"
finish
