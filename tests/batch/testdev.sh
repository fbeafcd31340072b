#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PCI DMA test device from a guest (xbow --testdev): every Bridge DMA
# window (direct, ATE, PCI64) in both swap modes, memory to device buffer,
# buffer to memory and memory to memory, bulk and per-word, checked byte by
# byte; INTA through the Bridge to the HUB; then DMA and PIO to nothing:
# device error codes, Bridge error bits and addresses, the error interrupt,
# a data bus error for the PIO read, and the machine carrying on.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run dma --testdev "$EX/testdev/testdev_dma.elf"
expect_rc 0
expect dma.out "testdev: slot 7, BAR0 at 0x9200000008b00000"
for w in dir32 ate pci64; do
    for m in byte-stream word-values; do
        for d in mem-to-buf buf-to-mem mem-to-mem; do
            for k in bulk word; do
                expect dma.out "testdev: $w $m $d $k: ok"
            done
        done
    done
done
expect dma.out "testdev: INTA arrived on HUB level 33 (1 interrupt), 36 transfers"
expect dma.out "testdev: 36 of 36 cases passed"
grep -q FAIL "$TMP/dma.out" && fail "dma: a case failed"

run err --testdev "$EX/testdev/testdev_err.elf"
expect_rc 0
expect err.out "local-range DMA aborted (read abort): ok"
expect err.out "Bridge latched PCI_ABORT at 0x1000: ok"
expect err.out "error interrupt on its HUB level: ok"
expect err.out "DMA to nowhere: write abort, RESP_XTLK_ERR: ok"
expect err.out "invalid ATE: PMU fault: ok"
expect err.out "PIO read to nothing: DBE and master abort: ok"
expect err.out "PIO write to nothing: posted, master abort latched: ok"
expect err.out "a good DMA afterwards: ok"
expect err.out "testdev-err: 0 failures, 5 error interrupts"

# Without --testdev the guests say so and stop.
run none "$EX/testdev/testdev_dma.elf"
expect_rc 0
expect none.out "no test device (start xbow with --testdev)"
finish
