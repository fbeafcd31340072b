#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every CPU, on one node or two: the boot CPU starts the others through the
# PROM's LAUNCH_SLAVE (0xffffffffbfc00038, with their nasid and slice), each
# prints the nasid and slice its own HUB reports, then takes an interrupt the
# boot CPU sends through its node's PI_INT_PEND_MOD.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run smp1 "$EX/smp/smp.elf"
expect_rc 0
expect smp1.out "smp: nasid 0 slice A: the boot CPU, 1 node in the GDA"
expect smp1.out "smp: 1 CPU on 1 node ran"
grep -q "slice B" "$TMP/smp1.out" && fail "smp1: a CPU in slice B"

# smp N NODES: N CPUs on NODES nodes.  The boot CPU counts the nodes in the
# GDA; every other CPU k (nasid k / 2, slice A or B) says hello with parm k
# and takes the interrupt the boot CPU sends it (level 9 to a slice A, 10 to
# a slice B); at the end, how many ran.
smp() {
    run smp$1 --cpus $1 --max-insns 100000000 "$EX/smp/smp.elf"
    expect_rc 0
    nodes="$2 nodes"
    [ "$2" = 1 ] && nodes="1 node"
    expect smp$1.out "smp: nasid 0 slice A: the boot CPU, $nodes in the GDA"
    k=1
    while [ $k -lt $1 ]; do
        slice=A level=9
        [ $((k % 2)) = 1 ] && slice=B level=10
        expect smp$1.out "smp: nasid $((k / 2)) slice $slice: hello (parm $k)"
        expect smp$1.out "smp: nasid $((k / 2)) slice $slice: interrupt $level from nasid 0 slice A"
        k=$((k + 1))
    done
    expect smp$1.out "smp: $1 CPUs on $nodes ran"
}

smp 2 1
# --cpus 3: the second node has slice A only.
smp 3 2
grep -q "nasid 1 slice B" "$TMP/smp3.out" && fail "smp3: a CPU in node 1 slice B"
smp 4 2

# A restart on four CPUs: the PROM's tables of both nodes are rebuilt and
# every CPU runs again.
run smp4r --cpus 4 --on-reset restart --max-insns 1200000 "$EX/smp/smp.elf"
[ "$(grep -c "smp: 4 CPUs on 2 nodes ran" "$TMP/smp4r.out")" -ge 2 ] ||
    fail "smp4r: the program did not run twice"
finish
