#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A slice of `make linux-sweep` (linux/sweep.sh): boots of the real Linux
# kernel that must reach the shell with the Bridge probed, /init's PCI bus,
# ttyS0 and XBOW-RUN-END, whatever the command line.  These are command lines
# with which some build of the kernel lost Linux's w1 boot race before /init
# learnt to repair it (docs/linux.md): on 4 CPUs the empty command line,
# xbow.run=true, xbow.run="cat /proc/cpuinfo" and quiet; on 2 CPUs issue 12's
# command line.  The whole sweep (100 boots) is `make linux-sweep`.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

bash "${top_srcdir:-.}/linux/build.sh" --print-path >/dev/null 2>&1 ||
    skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"

# sweep CPUS CASES: run the sweep, which prints its table and fails on a
# failed boot.
sweep() {
    last_cmd="linux/sweep.sh --cpus $1 --cases $2"
    checks=$((checks + 1))
    BUDGET=4000000000 bash "${top_srcdir:-.}/linux/sweep.sh" --cpus "$1" --cases "$2" "$XBOW" \
        >"$WORK/out" 2>"$WORK/err"
    status=$?
    cat "$WORK/out"
    [ $status -eq 0 ] || fail "a boot failed (exit status $status)"
}

sweep 4 1,2,4,7
sweep 2 3
finish
