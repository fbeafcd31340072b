#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gdb on an example NIC driver (examples/hamachi) with xbow's device
# commands one "monitor" away: a breakpoint in the driver, the Tx ring, a
# device-event breakpoint and a DMA watchpoint set from gdb that stop gdb's
# continue with a T05 whose reason gdb shows (xbow's report), and the full
# report with "monitor info stop".
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"
ELF=$top_builddir/examples/hamachi/hamachi.elf
[ -f "$ELF" ] || { echo "SKIP: $ELF not built"; exit 77; }

xbow_start nic --nic hamachi --net sink --append 'tx 20 size=1024' "$ELF"
gdb_run ring "$ELF" -ex "break start_xmit" -ex continue -ex bt -ex "monitor ring hamachi0 tx 2" \
    -ex delete -ex "monitor break event hamachi0.tx.desc-fetch" -ex continue \
    -ex "monitor info stop" -ex "monitor delete" \
    -ex "monitor watch dma hamachi0 tx_ring,0x100 write" -ex continue -ex "monitor info stop" \
    -ex "monitor delete" -ex "monitor info breakpoints" -ex kill
expect_rc 0
expect_re "^Breakpoint 1, (0xa8[0-9a-f]+ in )?start_xmit \("
expect_re "^#[12]  (0xa8[0-9a-f]+ in )?main \("  # with DWARF, run_tx inlined between
expect_re "^hamachi0 ring tx: base 0xa1[0-9a-f]+, 16-byte descriptors"
expect_re "^ >    0 0xa1[0-9a-f]+ host "
expect "Event breakpoint 1: hamachi0.tx.desc-fetch"
# the event stops gdb's continue: gdb prints xbow's reason, then SIGTRAP
expect_seq "xbow: Event breakpoint 1: hamachi0.tx.desc-fetch ring=tx index=0 " \
    "Program received signal SIGTRAP, Trace/breakpoint trap." \
    "Event breakpoint 1: hamachi0.tx.desc-fetch ring=tx index=0 "
expect "DMA watchpoint 2: dma by hamachi0 write "
expect_seq "xbow: DMA watchpoint 2: hamachi0 wrote 4 bytes at p:" "xbow:   for: tx-desc, ring 0, descriptor " \
    "Program received signal SIGTRAP, Trace/breakpoint trap."
# monitor info stop: the whole report, path and data included
expect_seq "DMA watchpoint 2: hamachi0 wrote 4 bytes at p:" "  path: Bridge pci64 window" \
    "  data: 0x"
expect "No breakpoints or watchpoints."
xbow_sync
on nic
# xbow's console saw the same stops
expect "Event breakpoint 1: hamachi0.tx.desc-fetch ring=tx index=0 "
expect "DMA watchpoint 2: hamachi0 wrote 4 bytes at p:"
xbow_quit
expect_rc 0
finish
