#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C stops a running guest and gives the prompt back: in batch mode
# the next command runs.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

name=interrupt
"$XBOW" --batch -q --append forever -ex continue -ex "print counter > 3" -ex "info cpus" \
    "$GUEST" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null &
pid=$!
# Wait until the guest is well into its loop, then interrupt it.
for i in 1 2 3 4 5 6 7 8 9 10; do
    grep -q "round 2" "$TMP/$name.out" 2>/dev/null && break
    sleep 0.5
done
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
expect_rc 0
expect "Interrupted."
expect "\$1 = 1"
expect_re "^\* 0    0x[0-9a-f]+ "
finish
