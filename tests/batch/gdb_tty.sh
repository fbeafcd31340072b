#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# xbow on a terminal (a private tmux server, 80x24) while gdb is attached:
# the TUI's panes follow gdb's stops, its status bar says gdb is there, and
# its prompt still takes commands; the line-mode prompt keeps a half-typed
# line while gdb attaches and runs the guest (their output goes above it).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }
case $XBOW in /*) ;; *) XBOW=$PWD/$XBOW ;; esac
case $GUEST in /*) ;; *) GUEST=$PWD/$GUEST ;; esac
unset TMUX
T="tmux -S $TMP/tmux1"
trap 'tmux -S "$TMP/tmux1" kill-server 2>/dev/null; tmux -S "$TMP/tmux2" kill-server 2>/dev/null
rm -rf "$TMP"' EXIT

screen() { $T capture-pane -p -t x >"$TMP/screen.out"; }
# until PATTERN WHAT: poll the screen (20 s at most) for a line matching PATTERN
until_screen() {
    name=screen
    for _ in $(seq 100); do
        screen
        grep -Eq -e "$1" "$TMP/screen.out" && return 0
        sleep 0.2
    done
    fail "the screen never showed /$1/ ($2)"
}
# enter TEXT: TEXT typed at the terminal, then Enter
enter() {
    $T send-keys -t x -l "$1"
    $T send-keys -t x Enter
}
term() {
    $T -f /dev/null new-session -d -s x -x 80 -y 24 "HOME='$TMP' $*; sleep 600" ||
        { echo "SKIP: tmux cannot start a session here"; exit 77; }
}

# 1. The TUI.
term "'$XBOW' --rtc-fixed --gdb unix:$SOCK '$GUEST'"
until_screen "gdb waiting" "the status bar names the stub"
enter "gdbserver on-detach stop"
gdb_run tui "$GUEST" -ex "break leaf" -ex continue -ex "shell sleep 2" -ex detach
expect_re "^Breakpoint 1, (0xa8[0-9a-f]{14} in )?leaf \("
until_screen "^ xbow \| stopped \| cpu0 leaf \|" "the TUI follows gdb's stop"
until_screen "\[gdb attached from pid [0-9]+\]" "the attach in the command pane"
until_screen "\[gdb detached: the machine stays stopped" "the detach"
until_screen "gdb waiting" "the status bar once gdb is gone"
enter "info cpus"
until_screen "^.\* 0 +0xa8[0-9a-f]{14} leaf " "a command after gdb left"
$T kill-server
T="tmux -S $TMP/tmux2" # a server of its own: the first one may still be going away

# 2. The line-mode prompt: a half-typed line survives gdb's visit.
term "'$XBOW' --cli --rtc-fixed --gdb unix:$SOCK '$GUEST'"
until_screen "^\(xbow\) ?$" "the prompt"
$T send-keys -t x -l "info cp"
sleep 0.3
gdb_run cli "$GUEST" -ex "break leaf" -ex continue -ex kill
expect_re "^Breakpoint 1, (0xa8[0-9a-f]{14} in )?leaf \("
until_screen "\[gdb killed its session" "gdb's visit reported"
until_screen "^dbgtest: hello, debugger$" "the guest's console on a line of its own"
until_screen "^\(xbow\) info cp$" "the half-typed line, after the rest"
enter "us"
until_screen "^\* 0 +0xa8[0-9a-f]{14} leaf " "the completed command"
$T kill-server
finish
