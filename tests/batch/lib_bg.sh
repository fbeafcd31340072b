#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh's bg_start and out_lines, which the tap tests (linux_duplex.sh,
# linux_tap.sh) start xbow with and wait for the guest's "ttcp-r: msgsize"
# with before the host sends.  Their waits used to read a file the
# background xbow had yet to empty: the previous run's lines there ended the
# wait at once, and on a busy host the host sent all its datagrams while the
# guest still booted, its e1000's receiver not yet on (rx-off=211 in a
# parallel make check).  Here the "run before" is a file holding the lines
# waited for, and the command writes its own after a second: the wait must
# end on the command's lines.  Without bg_start emptying the file first it
# ends at once on the old ones, every time.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

last_cmd="out_lines on a file that does not exist yet"
checks=$((checks + 1))
n=$(out_lines "$WORK/none" x)
[ "$n" = 0 ] || fail "counted '$n', want 0 (an empty count makes the test's [ -lt ] an error)"

last_cmd="bg_start over the output of a run before"
printf 'ttcp-r: msgsize=old\nttcp-r: msgsize=old\n' >"$WORK/out"
bg_start "$WORK/out" "$WORK/err" sh -c 'sleep 1; echo "ttcp-r: msgsize=new"; echo "ttcp-r: msgsize=new"; echo oops >&2; exit 3'
pid=$!
k=0
while [ "$(out_lines "$WORK/out" '^ttcp-r: msgsize=')" -lt 2 ] && [ $k -lt 300 ]; do
    sleep 0.1
    k=$((k + 1))
done
checks=$((checks + 1))
[ "$(out_lines "$WORK/out" '=new$')" = 2 ] && [ "$(out_lines "$WORK/out" '=old$')" = 0 ] ||
    fail "the wait ended on the lines of the run before"
# $! is the command's process: its status, its stderr
wait "$pid"
status=$?
expect_status 3
expect_err '^oops$'
finish
