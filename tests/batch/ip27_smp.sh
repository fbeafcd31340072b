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

run smp2 --cpus 2 --max-insns 100000000 "$EX/smp/smp.elf"
expect_rc 0
expect smp2.out "smp: nasid 0 slice B: hello (parm 1)"
expect smp2.out "smp: nasid 0 slice B: interrupt 10 from nasid 0 slice A"
expect smp2.out "smp: 2 CPUs on 1 node ran"

# --cpus 3: the second node has slice A only.
run smp3 --cpus 3 --max-insns 100000000 "$EX/smp/smp.elf"
expect_rc 0
expect smp3.out "smp: nasid 0 slice A: the boot CPU, 2 nodes in the GDA"
expect smp3.out "smp: nasid 1 slice A: hello (parm 2)"
expect smp3.out "smp: nasid 1 slice A: interrupt 9 from nasid 0 slice A"
expect smp3.out "smp: 3 CPUs on 2 nodes ran"
grep -q "nasid 1 slice B" "$TMP/smp3.out" && fail "smp3: a CPU in node 1 slice B"

run smp4 --cpus 4 --max-insns 100000000 "$EX/smp/smp.elf"
expect_rc 0
expect smp4.out "smp: nasid 0 slice A: the boot CPU, 2 nodes in the GDA"
expect smp4.out "smp: nasid 0 slice B: hello (parm 1)"
expect smp4.out "smp: nasid 1 slice A: hello (parm 2)"
expect smp4.out "smp: nasid 1 slice B: hello (parm 3)"
expect smp4.out "smp: nasid 0 slice B: interrupt 10 from nasid 0 slice A"
expect smp4.out "smp: nasid 1 slice A: interrupt 9 from nasid 0 slice A"
expect smp4.out "smp: nasid 1 slice B: interrupt 10 from nasid 0 slice A"
expect smp4.out "smp: 4 CPUs on 2 nodes ran"

# A restart on four CPUs: the PROM's tables of both nodes are rebuilt and
# every CPU runs again.
run smp4r --cpus 4 --on-reset restart --max-insns 1200000 "$EX/smp/smp.elf"
[ "$(grep -c "smp: 4 CPUs on 2 nodes ran" "$TMP/smp4r.out")" -ge 2 ] ||
    fail "smp4r: the program did not run twice"
finish
