# Helpers for tests that drive xbow on a terminal (sourced after lib.sh):
# a private tmux server with fixed-size windows, keys sent with "tmux
# send-keys", the screen read back with "tmux capture-pane".  Every check
# polls the screen with a timeout: CI machines are slow.  $S names the
# session the helpers talk to (default "tui").
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
unset TMUX
T="tmux -S $WORK/tmux"
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
TIMEOUT=${TUI_TEST_TIMEOUT:-60}
S=tui

screen() { $T capture-pane -p -t "$S" >"$WORK/out" 2>"$WORK/err"; }
keys() { $T send-keys -t "$S" "$@"; }
# type TEXT: the text in one go (as fast as a paste), then Enter
type_line() {
    $T send-keys -t "$S" -l "$1"
    $T send-keys -t "$S" Enter
}

# dead: when xbow has exited before its time, a failure and the end (the
# pane's shell prints XBOW-EXIT= after xbow).
dead() {
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
