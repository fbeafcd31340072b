#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# DMA through the real Bridge, with the PCI DMA test device (--testdev) and
# its guest (examples/testdev/testdev_dma.elf): DMA watchpoints with the
# window, swap mode and purpose; device events and the interrupt they
# raise; who last wrote a byte; the DMA counters and PCI views.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST="$top_builddir/examples/testdev/testdev_dma.elf"
if [ ! -f "$GUEST" ]; then
    echo "SKIP: the testdev guest is not built ($GUEST)"
    exit 77
fi

# dst is the guest's global buffer, but td_run() has a parameter of that
# name: where it stops, C's scope rules make dst the parameter, so the
# buffer's address is taken first (the guest has debug information).
script dma --testdev <<'X'
set $dst = &dst[0]
watch dma testdev0 p:dst,8192 write
continue
info dma
delete
break event testdev0.done if bytes == 301
continue
delete
track writes on p:$dst,8192
watch dma testdev0 p:$dst,8192 write if size == 4
continue
info lastwrite p:$dst+3
info pci
delete
break event bridge.int.set
continue
info irq
X
expect_rc 0
expect "DMA watchpoint 1: dma by testdev0 write p:0x"
expect_re "^DMA watchpoint 1: testdev0 wrote 301 bytes at p:0x[0-9a-f]+ \(bulk\)$"
expect_re "^  path: Bridge dir32 window, swap off, PCI address 0x80[0-9a-f]+$"
expect "  for: testdev-dst"
expect_re "^testdev0 +dir32 +0 +0 +[1-9][0-9]* +[1-9][0-9]* +0$"
expect_re "^Event breakpoint 2: testdev0.done status=0x2 bytes=301 \(t=[0-9]+, [0-9.]+ ms, by testdev0\)"
# a word DMA (4 bytes) found by the condition, and the writer of the byte
expect_re "^DMA watchpoint 3: testdev0 wrote 4 bytes at p:0x[0-9a-f]+ \(word\)$"
expect "(and "
expect_re "^p:0x[0-9a-f]+ was last written at t=[0-9]+ \([0-9.]+ ms\) by testdev0:$"
expect_re "^  through the Bridge (dir32|ate|pci64) window, swap (on|off), PCI address 0x"
expect "  for testdev-dst"
expect_re "^slot 7: testdev0 5842:0001 "
expect_re "^Event breakpoint 4: bridge.int.set pin=7 vector=33 "
expect "hub (HUB PI) levels pending: 33 |-"
expect "CPU A pending and enabled: 33 |-  -> IP2 up, IP3 down"
expect_re "^  7   high  yes     yes       0      33$"
finish
