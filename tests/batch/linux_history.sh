#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux with the history on, taking inputs from outside (docs/time-travel.md):
# a UDP socket peer (rr_peer.py) answers its pings and takes a ttcp, and a
# command is typed at the shell's prompt (a pipe, once the shell says it is
# ready).  Then back to tick 400 M (past the typed line and the peer's
# frames), which has the state of the forward run there, and forward again:
# the recorded line is fed back (nothing is typed any more), the UART's
# receive (break serial8250_rx_chars) comes at the same instruction with the
# same state, and so do the shell's output and the present.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

vmlinux=$(bash "${top_srcdir:-.}/linux/build.sh" --print-path 2>/dev/null) ||
    skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed for the peer"
peerpid=
trap '[ -n "$peerpid" ] && kill "$peerpid" 2>/dev/null; rm -rf "$WORK"' EXIT

peer_start || { finish; exit; }
last_cmd="xbow record (socket peer, typed line)"
type_at_shell 'echo typed at the prompt\n' | "$XBOW" --batch -q --rtc-fixed --nic e1000-82544 --net "$net" --append "$app" -ex record \
    -ex 'continue 400000000' -ex 'info state-hash' \
    -ex 'break serial8250_rx_chars' -ex continue -ex 'info state-hash' -ex delete \
    -ex 'continue 20000000' -ex 'info state-hash' -ex 'info time' \
    -ex 'echo =back\n' -ex 'goto-time 400000000' -ex 'info state-hash' \
    -ex 'break serial8250_rx_chars' -ex continue -ex 'info state-hash' -ex delete \
    -ex 'continue 20000000' -ex 'info state-hash' -ex 'goto-time 450000000' \
    -ex 'goto-time present' -ex 'info state-hash' -ex 'info time' \
    "$vmlinux" >"$WORK/out" 2>"$WORK/err"
status=$?
peer_stop
expect_status 0
expect_out "3 packets transmitted, 3 received, 0% packet loss"
expect_out "ttcp-t: msgs=20 bytes=10240 "
expect_count "^typed at the prompt" 2
checks=$((checks + 1))
grep -q '^  cut at' "$WORK/out" && fail "an input cut the history"
h() { grep '^state hash' "$WORK/out" | sed -n "$1p"; }
checks=$((checks + 1))
[ -n "$(h 1)" ] && [ "$(h 4)" = "$(h 1)" ] || fail "back at tick 400 M: '$(h 4)', forward: '$(h 1)'"
checks=$((checks + 1))
[ -n "$(h 2)" ] && [ "$(h 5)" = "$(h 2)" ] ||
    fail "forward again to the typed line's first byte: '$(h 5)', the first time: '$(h 2)'"
checks=$((checks + 1))
[ -n "$(h 3)" ] && [ "$(h 6)" = "$(h 3)" ] ||
    fail "forward again over the line to the present: '$(h 6)', the first time: '$(h 3)'"
checks=$((checks + 1))
[ "$(h 7)" = "$(h 3)" ] || fail "goto-time present: '$(h 7)', the present: '$(h 3)'"
expect_out '^  inputs from outside kept: [1-9][0-9]* '
finish
