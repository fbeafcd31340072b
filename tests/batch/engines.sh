#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The translator against the interpreter: every example guest, the CPU
# self-tests and the benchmark guest run on two machines, one per engine, in
# the same pseudo-random steps (tests/engines/engine_compare.c compares
# instruction counts, registers, the TLB, console output and memory after
# each step), and Linux to its shell on 1 CPU when the kernel is built (with
# a small code cache, so that it is flushed).  Idle skip is on (the default):
# the CPUs must also wait alike (ticks waited, waits started), and the
# limits count ticks, waited ones included.
#   engines.sh [--linux-only]     (ENGINES_LINUX_CPUS: "1" by default)
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CMP=$top_builddir/tests/engines/engine_compare
EX=$top_builddir/examples
failures=0
runs=0

[ -x "$CMP" ] || { echo "SKIP: no $CMP"; exit 77; }
"$CMP" --steps 1 --max-insns 1 "$EX/hello/hello.elf" >/dev/null 2>&1
[ $? -eq 77 ] && { echo "SKIP: this host has no translator"; exit 77; }

# compare NAME [--seed S] XBOW-OPTIONS... GUEST: in steps of up to 5000
# instructions (a long step now and then), so that the small guests stop in
# many places too
compare() {
    name=$1
    shift
    runs=$((runs + 1))
    out=$("$CMP" --steps "${STEPS:-5000}" ${MEM:---mem 32} "$@" 2>&1)
    st=$?
    echo "$name: $out"
    if [ $st -ne 0 ]; then
        echo "FAIL: $name: engine_compare $*"
        failures=$((failures + 1))
    fi
}

# The example guests are small: most of their code runs a few times, and
# the translator's tiers (jit.h) would leave it to the interpreter.  They
# run with every block translated at once (XBOW_JIT_TIER=0), and two of
# them and Linux again with the default tiers (and with tier 1: each block
# interpreted once, then translated).
if [ "${1:-}" != --linux-only ]; then
    export XBOW_JIT_TIER=${XBOW_JIT_TIER:-0}
    compare hello "$EX/hello/hello.elf"
    compare hello-4cpus --cpus 4 "$EX/hello/hello.elf"
    compare timer "$EX/timer/timer.elf"
    compare serial-irq --max-insns 20000000 "$EX/serial-irq/serial_irq.elf"
    compare smp --cpus 2 --max-insns 100000000 "$EX/smp/smp.elf"
    compare smp4 --seed 4 --cpus 4 --max-insns 100000000 "$EX/smp/smp.elf"
    compare restart --on-reset=restart --max-insns 3000000 "$EX/restart/restart.elf"
    compare prom --prom "$EX/prom-hello/prom.bin" --max-insns 20000000
    compare dbgtest --max-insns 50000000 "$EX/dbgtest/dbgtest.elf"
    compare tigon-tx --nic tigon2 --net sink --append "count=200" "$EX/tigon/tigon_tx.elf"
    compare tigon-rx --nic tigon2 --net "gen:size=1514,rate=20000,count=100,start=tx" \
        --append "count=100" "$EX/tigon/tigon_rx.elf"
    compare tigon-echo --max-insns 30000000 "$EX/tigon/tigon_echo.elf"
    compare hamachi --nic hamachi --net sink --append "tx 100" "$EX/hamachi/hamachi.elf"
    compare e1000-tx --nic e1000-82544 --net sink --append "size=1514 count=50" "$EX/e1000/tx.elf"
    compare e1000-rx --nic e1000-82544 --net "gen:size=1514,rate=20000,count=80,start=tx" \
        --append "count=80" "$EX/e1000/rx.elf"
    compare e1000-echo --nic e1000-82544 --net echo --append "count=25 size=700" \
        "$EX/e1000/echo.elf"
    compare testdev --testdev --max-insns 50000000 "$EX/testdev/testdev_dma.elf"
    compare cpu-selftest "$top_builddir/tests/guest/cpu_selftest.elf"
    # idle skip (on by default): waits on the RT counter, an interrupt, a
    # word another CPU stores, delay loops; and the reference run without it
    compare idle-wait --cpus 2 "$top_builddir/tests/guest/idle_wait.elf"
    compare idle-wait-1cpu "$top_builddir/tests/guest/idle_wait.elf"
    compare idle-wait-no-skip --no-idle-skip --cpus 2 "$top_builddir/tests/guest/idle_wait.elf"
    compare mix "$top_builddir/tests/bench/mix-r2-xbow.elf"
    XBOW_JIT_TIER= compare dbgtest-tiers --max-insns 50000000 "$EX/dbgtest/dbgtest.elf"
    XBOW_JIT_TIER=1 compare e1000-tx-tier1 --nic e1000-82544 --net sink \
        --append "size=1514 count=50" "$EX/e1000/tx.elf"
    XBOW_JIT_TIER= compare smp-tiers --cpus 2 --max-insns 100000000 "$EX/smp/smp.elf"
    unset XBOW_JIT_TIER
    # the translator's soft-TLB path without BMI2 (hosts without RORX)
    XBOW_JIT_NO_BMI2=1 compare mix-no-bmi2 "$top_builddir/tests/bench/mix-r2-xbow.elf"
    XBOW_JIT_NO_BMI2=1 compare cpu-selftest-no-bmi2 "$top_builddir/tests/guest/cpu_selftest.elf"
fi

# In make check, Linux runs with a 1 MB code cache (it needs about 25 MB), so
# that the translator flushes it many times during the boot; make
# engines-long keeps the default size.
cache_kb=
[ "${1:-}" = --linux-only ] || cache_kb=1024
vmlinux=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null) || vmlinux=
if [ -n "$vmlinux" ]; then
    for n in ${ENGINES_LINUX_CPUS:-1}; do
        budget=$((n * 700000000))
        XBOW_JIT_CACHE_KB=$cache_kb MEM= STEPS=1000000 compare linux-$n${cache_kb:+-cache-${cache_kb}k} --cpus $n --max-insns $budget --nic e1000-82544 --net sink \
            --append 'xbow.run="cat /proc/cpuinfo" xbow.after=reboot' "$vmlinux"
    done
else
    echo "(no Linux kernel built: 'make linux' adds a Linux boot to this test)"
fi

echo "engines: $runs guests compared, $failures failed"
[ $failures -eq 0 ]
