#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's speed target (make bench-tui, part of make bench; not a test):
# refreshing the panes while the guest runs must cost under 5% of the
# guest's speed.  Runs the CPU benchmark's guest for N million instructions
# ("continue N") in batch mode, then in the TUI (in a private tmux server,
# 160x50) in the debug and full layouts, and prints the wall-clock times.
# Each configuration runs ROUNDS times and the fastest run counts (the
# machine is shared).  Without tmux it says so and succeeds.
#
# Usage: tui_bench.sh XBOW GUEST.ELF [MILLION_INSNS [ROUNDS]]
set -u
XBOW=$1
GUEST=$2
MINSNS=${3:-2000}
ROUNDS=${4:-3}
TARGET_PCT=5
N=$((MINSNS * 1000000))
command -v tmux >/dev/null 2>&1 || { echo "bench-tui: skipped: tmux is not installed"; exit 0; }
case $XBOW in /*) ;; *) XBOW=$PWD/$XBOW ;; esac
case $GUEST in /*) ;; *) GUEST=$PWD/$GUEST ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/xbow-bench.XXXXXX")
unset TMUX
T="tmux -S $WORK/tmux"
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

now() { date +%s.%N; }
# CPU seconds (user + system) a process has used so far.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$1/stat"; }
sub() { echo "$1 $2" | awk '{ printf "%.3f", $1 - $2 }'; }
min() { echo "$1 $2" | awk '{ print (NF < 2 || $2 < $1) ? $NF : $1 }'; }

# Batch: the CPU time of "continue N" minus that of the start-up
# ("continue 1"), read from a shell's children's times once it waited.
batch_once() {
    sh -c '"$0" --batch -q --rtc-fixed -ex "continue $1" "$2" >/dev/null 2>&1 </dev/null
        awk -v hz="$(getconf CLK_TCK)" "{ printf \"%.3f\", (\$16 + \$17) / hz }" /proc/$$/stat' \
        "$XBOW" "$1" "$GUEST"
}

# The TUI: the CPU time of xbow from the Enter of "continue N" to the
# screen showing the stop.
screen() { $T capture-pane -p -t b; }
stops() { screen | grep -cE "^│0x[0-9a-f]{16} <"; }
wait_screen() {
    i=0
    until screen | grep -Eq -e "$1"; do
        i=$((i + 1))
        [ $i -lt 6000 ] || { echo "bench-tui: the TUI never showed /$1/" >&2; exit 1; }
        sleep 0.02
    done
}
tui_once() {
    layout=$1
    $T -f /dev/null new-session -d -s b -x 160 -y 50 \
        "HOME='$WORK' exec '$XBOW' --rtc-fixed '$GUEST'"
    pid=$($T display -p -t b '#{pane_pid}')
    wait_screen "^│\(xbow\) +│"
    $T send-keys -t b -l "layout $layout"
    $T send-keys -t b Enter
    wait_screen "layout $layout "
    before=$(stops)
    $T send-keys -t b -l "continue $N"
    c0=$(cpu_of "$pid")
    $T send-keys -t b Enter
    i=0
    while [ "$(stops)" -le "$before" ]; do
        i=$((i + 1))
        [ $i -lt 30000 ] || { echo "bench-tui: the run never stopped" >&2; exit 1; }
        sleep 0.02
    done
    c1=$(cpu_of "$pid")
    $T kill-server 2>/dev/null
    sub "$c1" "$c0"
}

b=
d=
f=
startup=
for r in $(seq "$ROUNDS"); do
    startup=$(min "$startup" "$(batch_once 1)")
    b=$(min "$b" "$(batch_once "$N")")
    d=$(min "$d" "$(tui_once debug)")
    f=$(min "$f" "$(tui_once full)")
done
b=$(sub "$b" "$startup")
line() { printf '%-20s %s\n' "$1" "$(echo "$2 $b $MINSNS" | awk '{
    printf "%7.2f s  %6.1f MIPS  %+6.1f%%", $1, $3 / $1, ($1 / $2 - 1) * 100 }')"; }
echo "bench-tui: $MINSNS M instructions of $(basename "$GUEST"), CPU time, fastest of $ROUNDS"
line "batch" "$b"
line "TUI, layout debug" "$d"
line "TUI, layout full" "$f"
echo "$d $f $b $TARGET_PCT" | awk '{ w = ($1 > $2) ? $1 : $2; pct = (w / $3 - 1) * 100;
    printf "TUI overhead %.1f%% (target < %d%%): %s\n", pct, $4, (pct < $4) ? "met" : "MISSED";
    exit (pct < $4) ? 0 : 1 }'
