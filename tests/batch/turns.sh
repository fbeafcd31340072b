#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# info cpus counts the turns of the one-thread run loop with several CPUs,
# by kind (several CPUs ran, a solo turn, one ran while the others polled,
# every CPU waited) and by what ended each (the quantum, a device timer, a
# waiting CPU's wait, a replay's end): docs/cpu.md, "Turns".  On
# tests/guest/idle_ipi.c (one CPU parks in its idle routine while the
# other works, three times): the turns' ends add up to the turns, both
# engines and two runs count the same turns, and without idle skip every turn is one where both CPUs ran, ended by the
# quantum or a timer, and there are far more of them.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

GUEST="$top_builddir/tests/guest/idle_ipi.elf"
[ -f "$GUEST" ] || { echo "SKIP: $GUEST is not built"; exit 77; }

# turns NAME: "TOTAL SHARED SOLO ONE QUIET QUANTUM TIMER WAIT REPLAY" of NAME.out
turns() {
    sed -n 's/^Turns: \([0-9]*\) (several CPUs ran \([0-9]*\), solo \([0-9]*\), one ran while the others polled \([0-9]*\), all waited \([0-9]*\)); ended by the quantum \([0-9]*\), a device timer \([0-9]*\), a wait.s end \([0-9]*\), the replay.s end \([0-9]*\)\.$/\1 \2 \3 \4 \5 \6 \7 \8 \9/p' "$TMP/$1.out"
}

for engine in jit interp; do
    run "$engine" --cpus 2 --engine=$engine -ex continue -ex 'info cpus' "$GUEST"
    expect_rc 0
    expect "$engine.out" "idle_ipi: done"
    t=$(turns "$engine")
    [ -n "$t" ] || fail "$engine: info cpus has no Turns line"
    set -- $t
    [ $(($6 + $7 + $8 + $9)) = "$1" ] || fail "$engine: what ended the turns does not add up to $1: $t"
    [ "$3" -gt 0 ] && [ "$2" -gt 0 ] || fail "$engine: no solo turns or no turns where both ran: $t"
    [ "$9" = 0 ] || fail "$engine: turns ended by a replay's end in a run that replays nothing"
done
[ "$(turns jit)" = "$(turns interp)" ] || fail "the engines took different turns: $(turns jit) / $(turns interp)"
run again --cpus 2 -ex continue -ex 'info cpus' "$GUEST"
[ "$(turns jit)" = "$(turns again)" ] || fail "two runs took different turns"

run off --cpus 2 --no-idle-skip -ex continue -ex 'info cpus' "$GUEST"
expect_rc 0
t=$(turns off)
[ -n "$t" ] || fail "off: info cpus has no Turns line"
set -- $t
[ "$2" = "$1" ] && [ "$3" = 0 ] && [ "$4" = 0 ] && [ "$5" = 0 ] ||
    fail "off: without idle skip every turn is one where both CPUs ran: $t"
[ $(($6 + $7)) = "$1" ] || fail "off: turns ended by something else than the quantum or a timer: $t"
on=$(turns jit | cut -d' ' -f1)
[ $((on * 10)) -lt "$1" ] || fail "$on turns with idle skip, $1 without"

run one --cpus 1 -ex continue -ex 'info cpus' "$GUEST"
grep -q "^Turns:" "$TMP/one.out" && fail "one CPU: a Turns line"
finish
