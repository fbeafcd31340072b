#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Hamachi GNIC-II with its example driver, as a user runs them: the
# two seed stories.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
need_example hamachi/hamachi.elf
MAX=--max-insns=2000000000

# Transmit with DescIntr on every descriptor: everything goes out and comes back.
run_xbow --batch $MAX --nic hamachi --net sink --append 'tx 300 size=1024' \
    -ex continue -ex 'info device hamachi0' "$ELF"
expect_out 'hamachi: slot 3, MAC 02:58:42:'
expect_out 'hamachi: tx sent=300 reclaimed=300 txdone_irqs=[1-9][0-9]* stalled=0'
expect_out 'StatTxBytes *0004b4b0'   # 300 * (1024 + 4 bytes of FCS)

# Story 2: DescIntr only on the wrap slot, reclaim only in the interrupt
# handler (Becker's driver): transmit-only traffic stalls with no Tx
# interrupt at all, the ring full of finished descriptors, TxStatus idle.
run_xbow --batch $MAX --nic hamachi --net sink --append 'tx 300 size=1024 intr=last reclaim=isr wait=20' \
    -ex continue -ex 'info device hamachi0' "$ELF"
expect_out 'hamachi: tx sent=60 reclaimed=0 txdone_irqs=0 stalled=1'
expect_out 'TxStatus *0002 *State=suspended'
# The same driver with DescIntr on every descriptor does not stall.
run_xbow --batch $MAX --nic hamachi --net sink --append 'tx 300 size=1024 reclaim=isr wait=20' "$ELF"
expect_out 'hamachi: tx sent=300 reclaimed=[0-9]* txdone_irqs=[1-9][0-9]* stalled=0'

# Story 1: payload DMA word by word gives the same bytes... (the checksum
# covers whole frames: their destination is the NIC's address, pinned here)
for dma in raw per-word; do
    run_xbow --batch $MAX --nic hamachi --mac 02:58:42:37:00:00 \
        --net 'gen:size=1514,rate=10000,count=300,start=tx' \
        --nic-dma=$dma --append 'rx 300' "$ELF"
    expect_out 'hamachi: rx frames=300 good=300 bad=0 bytes=454200 cksum=0xd955ac4e90f1bf82'
done
# ...but costs the bus time of every word: at line rate it cannot keep up.
run_xbow --batch $MAX --nic hamachi --net 'gen:size=1514,rate=60000,count=2000,start=tx' \
    --nic-dma=raw --append 'rx 2000' "$ELF"
expect_out 'hamachi: rx frames=2000 good=2000 bad=0'
run_xbow --batch $MAX --nic hamachi --net 'gen:size=1514,rate=60000,count=2000,start=tx' \
    --nic-dma=per-word --append 'rx 2000' "$ELF"
expect_out 'hamachi: rx frames=[1-9][0-9][0-9] good=[0-9]* bad=0'

# No NIC: the driver says so.
run_xbow --batch $MAX --append 'tx 1' "$ELF"
expect_out 'hamachi: no GNIC-II on the Bridge'
finish
