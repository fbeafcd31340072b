#!/bin/sh
# Two CPUs: slice B waits in the PROM's slave loop until slice A calls
# LAUNCH_SLAVE (0xffffffffbfc00038); each prints its slice.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run smp2 --cpus 2 --max-insns 100000000 "$EX/smp/smp.elf"
expect_rc 0
expect smp2.out "smp: hello from CPU slice A"
expect smp2.out "smp: hello from CPU slice B (parm 42)"
expect smp2.out "smp: both slices ran"

run smp1 "$EX/smp/smp.elf"
expect_rc 0
expect smp1.out "smp: no CPU in slice B"
finish
