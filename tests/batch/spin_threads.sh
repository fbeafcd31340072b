#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU spinning on memory another CPU will store to (examples/spinwait):
# with --threads the spinner is seen to wait (idle skip) within a few
# thousand of its instructions of each spin's start, because the probes
# back off to 4096 ticks at most (src/machine/threads.c, THREAD_PROBE).
# They backed off to 2^20 ticks before, and a spinner's clock runs at the
# speed of its spin loop, not of the CPU it waits for: a guest's spin on a
# lock cost up to a million instructions (docs/performance.md, "One host
# thread per CPU").  The example counts the instructions each spin executed
# with the R10000's performance counter (graduated instructions: a waiting
# CPU graduates none); the bound is 4096 ticks plus the probe's watch of the
# loop, whatever the host's timing.  Also: info cpus says how long the
# threads ran at once and why they napped; with a thread about to nap
# spinning for a wake-up first (the default) and without (XBOW_THREAD_SPIN=0,
# every other round), the same bound holds and the spin counts are
# consistent; a knob that is not a number in range is named in a warning.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

ELF="$EX/spinwait/spinwait.elf"
[ -f "$ELF" ] || { echo "SKIP: $ELF not built"; exit 77; }

# One thread: deterministic, the probes back off as far as they like.
run one --cpus 2 --max-insns 1000000000 "$ELF"
expect_rc 0
expect one.out "spinwait: 8 spins, "

i=0
while [ $i -lt "${SPIN_RUNS:-3}" ]; do
    i=$((i + 1))
    spin=
    [ $((i % 2)) -eq 1 ] && spin=0
    XBOW_THREAD_SPIN=$spin run thr --cpus 2 --threads=2 --max-insns 1000000000 -ex run -ex 'info cpus' "$ELF"
    expect_rc 0
    most=$(sed -n 's/^spinwait: 8 spins, [0-9]* instructions executed spinning, at most \([0-9]*\) in one$/\1/p' "$TMP/thr.out")
    [ -n "$most" ] || { fail "thr.out: no spinwait report"; break; }
    [ "$most" -le 8192 ] || fail "thr.out: a spin executed $most instructions (more than 4096 ticks and the probe's watch)"
    grep -Eq "^  wall time running: [0-9.]+ s; 0 threads active [0-9.]+ s \([0-9.]+%\), 1 thread active [0-9.]+ s \([0-9.]+%\), 2 threads active [0-9.]+ s" "$TMP/thr.out" ||
        fail "thr.out: info cpus does not say how long the threads ran at once"
    grep -Eq "^              naps: [0-9]+ parked waiting for an interrupt \([0-9.]+ s\), [0-9]+ held while waiting" "$TMP/thr.out" ||
        fail "thr.out: info cpus does not say why the threads napped"
    # naps that spun first: none with XBOW_THREAD_SPIN=0, no more than the
    # naps, woken while spinning no more than spun
    awk -v spin="$spin" '/^  cpu[0-9] thread: / { n = $11 }
        /^              spun before a nap / { s = $5; w = $12; if (s > n || w > s || (spin == "0" && s != 0)) bad = 1; seen++ }
        END { exit !(seen == 2 && !bad) }' "$TMP/thr.out" ||
        fail "thr.out: the spin counts are not consistent (XBOW_THREAD_SPIN=$spin)"
    [ "$fails" -eq 0 ] || break
done
# A knob that is not a number in its range: one warning line, the default.
for bad in abc -1 99999999999999999999; do
    XBOW_THREAD_SPIN=$bad run knob --cpus 2 --threads=2 --max-insns 1000000000 "$ELF"
    expect_rc 0
    grep -qx "xbow: warning: threads: XBOW_THREAD_SPIN=$bad: not a number from 0 to 10000000; 50000 is used" "$TMP/knob.err" ||
        fail "XBOW_THREAD_SPIN=$bad: no warning"
done
finish
