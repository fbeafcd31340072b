#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gdb-multiarch on the Linux kernel (make linux, built with DWARF)
# through xbow's stub: a breakpoint on the e1000 driver's interrupt
# handler, a backtrace through kernel frames with their arguments,
# registers, the disassembly, stepping by instruction at a source line,
# finish with the value returned as its C type, and the NIC's ring one
# "monitor" away.  Skips when no kernel was built.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"
KERNEL=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null)
if [ -z "$KERNEL" ] || [ ! -f "$KERNEL" ]; then
    echo "SKIP: no Linux kernel built: run 'make linux' first"
    exit 77
fi

# The kernel's DWARF names its files relative to the source tree
# (linux/build.sh maps its path out, for a reproducible vmlinux).
ksrc=$(ls -d "$(dirname "$KERNEL")"/src/linux-source-* 2>/dev/null | head -n 1)
if [ -z "$ksrc" ]; then
    echo "FAIL: no kernel source tree next to $KERNEL (make linux keeps it)"
    exit 1
fi

xbow_start linux --nic e1000-82544 --net echo \
    --append 'xbow.run="ping -c 3 10.0.2.2" xbow.after=reboot' "$KERNEL"
xbow_cmd "gdbserver on-detach stop"
gdb_run intr "$KERNEL" -ex "directory $ksrc" -ex "break e1000_intr" -ex continue -ex bt -ex "info registers pc sp ra" \
    -ex 'x/4i $pc' -ex "stepi" -ex 'p/x $pc' -ex "finish" -ex "monitor ring e1000_0 rx 2" \
    -ex "info threads" -ex detach
expect_rc 0
expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+"
expect_re "^Breakpoint 1, (0xa8[0-9a-f]+ in )?e1000_intr \("
expect_re "^#0  (0xa8[0-9a-f]+ in )?e1000_intr \("
expect_re "^#1  0xa8[0-9a-f]+ in __handle_irq_event_percpu \("
expect_re "^sp: 0xa8[0-9a-f]+$"
# the breakpoint is on the handler's first instruction (its first line)
expect_re "^=> 0xa8[0-9a-f]+ <e1000_intr>:"
# stepi: the next instruction, in the middle of that line
expect_re "^0xa8[0-9a-f]+	[0-9]+		u32 icr = er32\(ICR\);"
# finish: back in the caller, the value as the handler's type says
expect_re "^0xa8[0-9a-f]+ in __handle_irq_event_percpu \("
expect_re "^Value returned is \\\$[0-9]+ = IRQ_HANDLED$"
expect_re "^e1000_0 ring rx: base 0xa1[0-9a-f]+, 16-byte descriptors, 256 entries"
expect_re "^\* 1 +Thread 1 \(cpu0, node 0 slice A\) "
expect "[Inferior 1 (Remote target) detached]"
xbow_sync
on linux
expect "[gdb detached: the machine stays stopped (gdbserver on-detach stop)]"
xbow_cmd "info cpus"
xbow_sync
on linux
expect_re "^\* 0 +0xa8[0-9a-f]+ __handle_irq_event_percpu\+0x[0-9a-f]+ "
xbow_quit
expect_rc 0
finish
