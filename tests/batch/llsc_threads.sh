#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# LL/SC across CPUs (examples/llsc): 2 and 4 CPUs add 1 to shared counters
# (LL/SC, LLD/SCD, a spinlock) 100000 times each, at once; every total must
# be exact.  On one host thread (the default) once, and with --threads
# (one host thread per CPU: the CPUs truly run at once, the SC is a host
# compare-and-swap) LLSC_RUNS times each (default 10): a lost update is a
# matter of timing, so one run proves little.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

ELF="$EX/llsc/llsc.elf"
[ -f "$ELF" ] || { echo "SKIP: $ELF not built"; exit 77; }

for cpus in 2 4; do
    run one$cpus --cpus $cpus --max-insns 2000000000 "$ELF"
    expect_rc 0
    expect one$cpus.out "llsc: $cpus CPUs x 100000 rounds"
    expect one$cpus.out "llsc: exact"
    expect one$cpus.out "llsc: sc failures seen (the CPUs contended)"
    i=0
    while [ $i -lt "${LLSC_RUNS:-10}" ]; do
        i=$((i + 1))
        run thr$cpus --cpus $cpus --threads=$cpus --max-insns 2000000000 "$ELF"
        expect_rc 0
        want=$((cpus * 100000))
        expect thr$cpus.out "llsc: ll/sc $want, lld/scd $want, spinlock $want, expected $want"
        expect thr$cpus.out "llsc: exact"
        [ "$fails" -eq 0 ] || break
    done
done
# --on-reset restart: the guest runs again after each reset, and the budget
# of --max-insns is shared by the restarts (it was renewed at each one).
run restart --cpus 2 --threads=2 --on-reset restart --max-insns 60000000 "$ELF"
expect restart.err "stopped after the instruction limit"
runs=$(grep -c "^llsc: exact" "$TMP/restart.out")
[ "$runs" -ge 2 ] && [ "$runs" -le 12 ] || fail "restart.out: $runs runs in 60 M instructions"

# A watchpoint on the LL/SC counter stops every thread at an SC that wrote
# it (the compare-and-swap path checks the debugger's watchpoints too).
run watch --cpus 2 --threads=2 -ex 'break add32' -ex 'continue 500000000' -ex 'delete' \
    -ex 'watch count32' -ex 'continue 500000000' -ex 'continue 500000000' -ex 'info cpus' "$ELF"
expect_rc 0
expect watch.out "Hardware watchpoint 2: count32"
[ "$(grep -c "^Written by cpu[01] at 0x[0-9a-f]* <work+0x[0-9a-f]*>" "$TMP/watch.out")" -eq 2 ] ||
    fail "watch.out: not two stops on writes by an SC in work()"
expect watch.out "One host thread per CPU (--threads=2, experimental); host CPU time: cpu0 "
# ... and each thread's counters (runs, naps, the machine lock, device timers).
grep -Eq "^  cpu1 thread: [0-9]+ runs \([0-9]+ cut short by a timer\), [0-9]+ naps \([0-9.]+ s asleep\); machine lock taken [1-9][0-9]* times" "$TMP/watch.out" ||
    fail "watch.out: no counters of cpu1's thread"
expect watch.out "fired "
finish
