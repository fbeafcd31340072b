#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger on the real Linux kernel (make linux): breakpoints on kernel
# functions, backtraces through the interrupt path, a watchpoint on jiffies,
# a register breakpoint on the HUB's RT comparator, a system call from init
# caught as a CPU event.  Every "continue" has a bound on guest instructions,
# so a hang fails.  Skips when no kernel was built.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null)
if [ -z "$GUEST" ] || [ ! -f "$GUEST" ]; then
    echo "SKIP: no Linux kernel built: run 'make linux' first"
    exit 77
fi

script linux --append 'xbow.run="cat /proc/cpuinfo" xbow.after=reboot' <<'X'
break start_kernel
run
x/s linux_banner
delete
watch jiffies
continue 2000000000
delete
break reg hub.PI_RT_COMPARE_A
continue 2000000000
delete
break event cpu.exception if code == Sys
continue 2000000000
print $v0 > 5000 && $v0 < 5500
delete
break ip27_do_irq_mask0
continue 2000000000
bt
finish
X
expect_rc 0
expect "Breakpoint 1, start_kernel"
expect_re "<linux_banner>:	\"Linux version 6\.1"
expect "Hardware watchpoint 2: jiffies"
expect_re "^Written by cpu0 at 0x[0-9a-f]+ <[a-z_0-9]+\+0x"
expect_re "^New value = 0x[0-9a-f]{16}$"
expect_re "^Event breakpoint 4: cpu0.exception cpu=0 code=Sys pc=0x"
# a system call number of the n64 ABI (5000 + n)
expect "\$1 = 1"
# (the kernel has DWARF: frames by their source lines, through the
# exception frame of the interrupt; ip27_do_irq_mask0 returns void)
expect "Breakpoint 5, ip27_do_irq_mask0"
expect_seq "#0  " "#1  " "#2  " "#3  "
expect_re "^#[1-9]  0x[0-9a-f]+ in handle_int (\\(\\) at genex\\.S:[0-9]+ <exception frame>|\\+0x)"
expect "Run till exit from #0  ip27_do_irq_mask0 ("
expect_re "^Register breakpoint 3: hub.PI_RT_COMPARE_A 0x[0-9a-f]+ -> 0x[0-9a-f]+ \(t=[0-9]+, [0-9.]+ (ms|s), by cpu0 at 0x[0-9a-f]+ <"
finish
