#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The writer thread of a host backend (src/net/writer.c) through a whole
# run, the way a user drives it: the e1000 transmit example sends 60
# frames through socket:unix-connect to net_probe (a fake NIC on a
# listening port), then `kill` and `run` send them again from a reset, then
# `snapshot load` of an earlier point and `continue` once more.  Every one
# of the 180 frames either arrives, good, or is counted as refused by the
# host (the peer's socket holds them all unless the host is very slow), in
# the writer's totals (which a snapshot does not roll back) and, for the
# last run, in the port's tx drops; the frames still queued when the
# machine stops go out at the end.  No root needed.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"
probe="$top_builddir/tests/unit/net/net_probe"
[ -x "$probe" ] || { echo "SKIP: $probe not built"; exit 77; }

"$probe" --ip 10.0.2.2 --expect 180 --timeout 120 --ready "$TMP/ready" "socket:unix:$TMP/wire" \
    >"$TMP/probe.out" 2>&1 &
ppid=$!
i=0
while [ ! -e "$TMP/ready" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
run tx --nic e1000 --net "socket:unix-connect:$TMP/wire" --append "size=600 count=60" \
    -ex 'continue 1000' -ex 'snapshot save -m start' -ex 'continue' -ex 'kill' -ex 'run' \
    -ex 'snapshot load start' -ex 'continue' -ex 'info device e1000_0 stats' "$EX/e1000/tx.elf"
expect_rc 0
wait $ppid
n=$(grep -c 'e1000-tx: sent 60 frames, 36000 bytes' "$TMP/tx.out")
[ "$n" -eq 3 ] || fail "the example ran $n times, want 3"
# info device while the writer may still hold frames of the last run:
# handed over + refused + queued = 180; those still queued go out at the
# end (what the host refused of the frames after the last poll is said on
# stderr then), so the peer got 180 less the refusals, which are at least
# those counted in info device and at most those and the queued ones.
line=$(sed -n 's/^  writer    thread: \([0-9]*\) frames to the host, \([0-9]*\) refused by it, \([0-9]*\) queued.*/\1 \2 \3/p' "$TMP/tx.out")
[ -n "$line" ] || fail "no writer line in info device"
set -- $line
sent=${1:-0} refused=${2:-0} queued=${3:-0}
[ $((sent + refused + queued)) -eq 180 ] || fail "the writer: $sent handed over, $refused refused, $queued queued; want 180 in all"
got=$(sed -n 's/^received \([0-9]*\) good, 0 bad$/\1/p' "$TMP/probe.out")
lost=$((180 - ${got:-0}))
[ -n "$got" ] && [ $lost -ge "$refused" ] && [ $lost -le $((refused + queued)) ] ||
    fail "the peer received ${got:-?} good frames; the writer: $refused refused, $queued queued"
# The last run's own count: the port's tx drops are machine state (the
# snapshot load put them back to the start's), so they count only its refusals.
drops=$(sed -n 's/^  tx        60 frames, 36000 bytes, \([0-9]*\) dropped$/\1/p' "$TMP/tx.out")
[ -n "$drops" ] && [ "$drops" -le "$refused" ] || fail "port tx drops ${drops:-?} (the writer: $refused refused)"
finish
