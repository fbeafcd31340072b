# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests that drive xbow on a terminal, the way a user does
# (sourced after lib.sh): the real binary in a private tmux server with a
# fixed-size window, keys sent with "tmux send-keys", the screen read back
# with "tmux capture-pane".  Every check polls the screen with a timeout:
# CI machines are slow.  Set SESSION (the tmux session's name) and, for a
# line-mode program whose output scrolls, CAPTURE_HISTORY (lines of
# scrollback to read too) before sourcing; start xbow with
# tmux_xbow COLS ROWS ARGS..., or tmux_start COLS ROWS SCRIPT, where SCRIPT
# runs it and then prints XBOW-EXIT=STATUS.
top_builddir=${top_builddir:-$PWD}
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
[ -x "$XBOW" ] || skip "the xbow binary is not built ($XBOW)"
GUEST="$top_builddir/examples/dbgtest/dbgtest.elf"
[ -f "$GUEST" ] || skip "the test guest is not built ($GUEST)"
case $XBOW in /*) ;; *) XBOW=$PWD/$XBOW ;; esac

unset TMUX
# The same terminal on every machine: a UTF-8 locale (C.UTF-8 is built into
# Debian's C library), whatever the caller's LANG says.  Without it ncurses
# draws the borders with the terminal's alternate character set, which
# tmux's capture shows as the letters that select it (q for a line).  A
# script that wants another locale sets LC_ALL itself.
LC_ALL=C.UTF-8
export LC_ALL
unset LANGUAGE
T="tmux -S $WORK/tmux"
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
TIMEOUT=${TUI_TEST_TIMEOUT:-60}
SESSION=${SESSION:-xbow}
CAPTURE_HISTORY=${CAPTURE_HISTORY:-0}

tmux_start() {
    $T -f /dev/null new-session -d -s "$SESSION" -x "$1" -y "$2" "sh '$3'" ||
        skip "tmux cannot start a session here"
}
# tmux_xbow COLS ROWS ARGS...: xbow ARGS on a COLSxROWS terminal, run by
# $WORK/run.sh under sh (HOME=$WORK) so that after it exits the pane shows
# XBOW-EXIT=STATUS, then what the shell line $TMUX_AFTER prints, if set.
tmux_xbow() {
    cols=$1
    rows=$2
    shift 2
    cmd="'$XBOW'"
    for a in "$@"; do cmd="$cmd '$a'"; done
    cat >"$WORK/run.sh" <<EOF
HOME='$WORK'
export HOME
$cmd
echo XBOW-EXIT=\$?
${TMUX_AFTER:-}
exec sleep 600
EOF
    tmux_start "$cols" "$rows" "$WORK/run.sh"
}
# tui_start COLS ROWS ARGS...: tmux_xbow, then the TUI's command prompt;
# when it never comes, a failed check and the end of the test.
tui_start() {
    last_cmd="xbow (TUI in tmux, $1x$2)"
    tmux_xbow "$@"
    wait_for "^│\(xbow\) +│" "the prompt" || { finish; exit 1; }
}
screen() {
    $T capture-pane -p -S "-$CAPTURE_HISTORY" -t "$SESSION" >"$WORK/out" 2>"$WORK/err"
}
keys() { $T send-keys -t "$SESSION" "$@"; }
# type_line TEXT: the text in one go (as fast as a paste), then Enter
type_line() {
    $T send-keys -t "$SESSION" -l "$1"
    $T send-keys -t "$SESSION" Enter
}

# dead: when xbow has exited before its time, a failure and the end.
# A test that makes xbow quit on purpose sets quitting=1 first.
quitting=
dead() {
    [ -z "$quitting" ] || return 0
    grep -q "^XBOW-EXIT=" "$WORK/out" || return 0
    fail "xbow exited (screen above)"
    finish
    exit 1
}

# poll_screen SHOWN PATTERN FAILURE: poll the screen, up to $TIMEOUT
# seconds, until a line matches PATTERN (grep -E; SHOWN=1) or none does
# (SHOWN=0); a failed check saying FAILURE when that never comes.
poll_screen() {
    checks=$((checks + 1))
    end=$(($(date +%s) + TIMEOUT))
    while :; do
        screen
        if grep -Eq -e "$2" "$WORK/out"; then [ "$1" = 1 ]; else [ "$1" = 0 ]; fi && return 0
        dead
        [ "$(date +%s)" -lt "$end" ] || break
        sleep 0.2
    done
    fail "$3"
    return 1
}

# wait_for PATTERN [WHAT]: poll the screen until a line matches PATTERN.
wait_for() { poll_screen 1 "$1" "${2:-the screen} never showed /$1/ in ${TIMEOUT}s"; }

# wait_gone PATTERN [WHAT]: poll until no line matches PATTERN.
wait_gone() { poll_screen 0 "$1" "${2:-the screen} still shows /$1/ after ${TIMEOUT}s"; }

# clear_screen: a fresh screen and scrollback (line-mode programs), so
# that the next checks see only what comes after.
clear_screen() {
    keys C-l
    $T clear-history -t "$SESSION"
    sleep 0.3
}
