# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests that drive xbow on a terminal, the way a user does
# (sourced after lib.sh): the real binary in a private tmux server with a
# fixed-size window, keys sent with "tmux send-keys", the screen read back
# with "tmux capture-pane".  Every check polls the screen with a timeout:
# CI machines are slow.  Set SESSION (the tmux session's name) and, for a
# line-mode program whose output scrolls, CAPTURE_HISTORY (lines of
# scrollback to read too) before sourcing; start xbow with
# tmux_start COLS ROWS SCRIPT, where SCRIPT runs it and then prints
# XBOW-EXIT=STATUS.
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

# wait_for PATTERN [WHAT]: poll the screen until a line matches PATTERN
# (grep -E), up to $TIMEOUT seconds; a failed check when it never does.
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

# wait_gone PATTERN [WHAT]: poll until no line matches PATTERN.
wait_gone() {
    checks=$((checks + 1))
    end=$(($(date +%s) + TIMEOUT))
    while :; do
        screen
        grep -Eq -e "$1" "$WORK/out" || return 0
        dead
        [ "$(date +%s)" -lt "$end" ] || break
        sleep 0.2
    done
    fail "${2:-the screen} still shows /$1/ after ${TIMEOUT}s"
    return 1
}

# clear_screen: a fresh screen and scrollback (line-mode programs), so
# that the next checks see only what comes after.
clear_screen() {
    keys C-l
    $T clear-history -t "$SESSION"
    sleep 0.3
}
