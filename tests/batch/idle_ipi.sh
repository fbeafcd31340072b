#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An IPI to a CPU parked at an idle point is seen at the tick it was sent
# (docs/cpu.md, "Solo turns"): tests/guest/idle_ipi.c parks one CPU in its
# arch_cpu_idle while the other works and raises its HUB level; the woken
# CPU's Count at the idle routine's first instruction equals the sender's
# right after its store, in both directions (cpu1 to cpu0 was seen up to a
# turn late, cpu0 to cpu1 up to a turn early, before solo turns), with
# both engines.  While one CPU parks, the other runs long turns (`info
# engine`: far fewer turn ends than the 1000-instruction turns of
# --no-idle-skip); what the guest prints is the same without idle skip.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

GUEST="$top_builddir/tests/guest/idle_ipi.elf"
[ -f "$GUEST" ] || { echo "SKIP: $GUEST is not built"; exit 77; }

# turn_ends NAME CPU: the CPU's "turn end N" in NAME.out's info engine
turn_ends() {
    sed -n "s/^cpu$2: .*ended by: turn end \([0-9]*\),.*/\1/p" "$TMP/$1.out"
}
guest_lines() { grep "^idle_ipi:" "$TMP/$1.out"; }

for engine in jit interp; do
    run "$engine" --cpus 2 --engine=$engine -ex continue -ex 'info cpus' -ex 'info engine' "$GUEST"
    expect_rc 0
    expect "$engine.out" "idle_ipi: done"
    # three wake-ups, each seen at the tick after the store
    n=$(grep -c "^idle_ipi-timing: cpu[01] resumed at the sender's Count after the store +0, before it +1$" \
        "$TMP/$engine.out")
    [ "$n" = 3 ] || fail "$engine: $n of 3 wake-ups seen at the sender's time"
    expect "$engine.out" "idle_ipi: cpu1 woke cpu0, which saw message 1 (sent 1)"
    expect "$engine.out" "idle_ipi: cpu0 woke cpu1, which saw message 2 (sent 2)"
    expect "$engine.out" "idle_ipi: cpu1 after long work woke cpu0, which saw message 3 (sent 3)"
    grep -q "^Solo turns (one CPU runs, the others wait at an idle point): [1-9][0-9]*, [3-9] ended by an interrupt" \
        "$TMP/$engine.out" || fail "$engine: info cpus lacks the solo turns ended by the 3 IPIs"
done
# both engines: the same run (instruction counts, waits, solo turns)
for f in jit interp; do
    sed -n '/CPU  PC/,/^Solo turns/p' "$TMP/$f.out" >"$TMP/$f.cpus"
done
cmp -s "$TMP/jit.cpus" "$TMP/interp.cpus" || fail "the engines ran differently"

run again --cpus 2 -ex continue -ex 'info cpus' -ex 'info engine' "$GUEST"
cmp -s "$TMP/jit.out" "$TMP/again.out" || fail "two runs differ"

run off --cpus 2 --no-idle-skip -ex continue -ex 'info cpus' -ex 'info engine' "$GUEST"
expect_rc 0
[ "$(guest_lines jit)" = "$(guest_lines off)" ] ||
    fail "the guest printed something else without idle skip"
grep -q "^Solo turns" "$TMP/off.out" && fail "off: solo turns without idle skip"

# cpu1 worked about 15 M instructions while cpu0 parked: long turns
on=$(turn_ends jit 1)
off=$(turn_ends off 1)
[ -n "$on" ] && [ -n "$off" ] || fail "no turn ends in info engine"
[ $((on * 50)) -lt "$off" ] || fail "cpu1 ended $on turns with idle skip, $off without"
finish
