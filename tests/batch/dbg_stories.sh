#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The two stories xbow is built around (DEVELOPERS.md), as the scripts in
# examples/ tell them, on the Hamachi example driver examples/hamachi/hamachi.c.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST="$top_builddir/examples/hamachi/hamachi.elf"
if [ ! -f "$GUEST" ] || ! "$XBOW" --help | grep -q -- "--nic MODEL"; then
    echo "SKIP: no Hamachi model or Hamachi example driver in this build"
    exit 77
fi
EX="$top_srcdir/examples"

# 1. DescIntr: with DescIntr only on the wrap slot and reclaim only in the
# interrupt handler (Becker's driver), the driver stalls with its Tx ring
# full of finished descriptors and no Tx interrupt ever raised; the stall
# watch says so.
xbow_run descintr --nic hamachi --append "tx 300 intr=last reclaim=isr wait=20" \
    -x "$EX/descintr.xbow"
expect_rc 0
expect "hamachi0 tx: 60 completed descriptors not reclaimed by the host, the oldest (entry 0)"
expect_re "^ +0 0x[0-9a-f]+ host +1024 +0x[0-9a-f]+ EndPacket  done "
expect_re "^ +15 0x[0-9a-f]+ host +1024 +0x[0-9a-f]+ EndPacket  done "
expect "Tx interrupts raised: 0"
expect "\$1 = 0x0"
expect_not "hamachi: tx sent="
# The fixed driver asks for interrupts on every descriptor, reclaims, and
# sends everything.
xbow_run descintr_ok --nic hamachi --append "tx 300 wait=20" -x "$EX/descintr.xbow"
expect_rc 0
expect "hamachi: tx sent=300 reclaimed=300"
expect_re "^Tx interrupts raised: [1-9][0-9]*$"
expect_not "Stall watch 2: hamachi0"

# 2. Per-word DMA: the same frames, the same bytes, a word at a time
# through the Bridge; the per-word DMA counter shows what it costs, and
# the PCI bus time of every word makes the NIC drop frames at this rate.
GEN="gen:size=1514,rate=80000,count=200,start=tx"
xbow_run raw --nic hamachi --net "$GEN" --nic-dma=raw --append "rx 200" -x "$EX/perword.xbow"
expect_rc 0
expect "DMA watchpoint 1: hamachi0 wrote 1514 bytes at p:"
expect "  for: rx-buf, ring 1, descriptor 0"
expect "hamachi: rx frames=200 good=200 bad=0"
expect_re "^hamachi0 +pci64 +[0-9]{1,4} +[0-9]+ +20[01] +30[0-9]{4} +0$"
raw_bytes=$(sed -n 's/.*data: 0x\([0-9a-f]*\).*/\1/p' "$TMP/raw.out" | head -1)
xbow_run perword --nic hamachi --net "$GEN" --nic-dma=per-word --append "rx 200" \
    -x "$EX/perword.xbow"
expect_rc 0
expect "DMA watchpoint 1: hamachi0 wrote 2 bytes at p:"
expect "DMA watchpoint 1: hamachi0 wrote 4 bytes at p:"
expect_re "^\(and [0-9]+ more hits before the machine stopped\)$"
expect_re "^hamachi0 +pci64 +[0-9]{5,} +[0-9]+ +0 +0 +0$"
expect_re "^hamachi: rx frames=[0-9]+ good=[0-9]+ bad=0 .* rate_Mbps="
expect_re "^  rx drops [1-9][0-9]* fifo-overflow="
# identical bytes: the first words written one by one are the start of the
# raw frame
word_bytes=$(sed -n 's/.*data: 0x\([0-9a-f]*\).*/\1/p' "$TMP/perword.out" | head -4 | tr -d '\n')
[ -n "$raw_bytes" ] || fail "no data in the raw run's watchpoint report"
case "$word_bytes" in
"$raw_bytes"*) ;;
*) fail "per-word data $word_bytes does not start with the raw data $raw_bytes" ;;
esac
# The stall watch on the 8254x too (the same ring engine as the Hamachi):
# the bare-metal e1000 transmit example never reclaims its descriptors.
GUEST="$top_builddir/examples/e1000/tx.elf"
printf 'watch stall e1000_0 tx 1ms\ncontinue\nring e1000_0 tx 2\n' >"$TMP/e1000_stall.cmd"
xbow_run e1000_stall --nic e1000 --rtc-fixed -x "$TMP/e1000_stall.cmd"
expect "Stall watch 1: e1000_0 tx: 24 completed descriptors not reclaimed by the host, the oldest (entry 0)"
expect_not "does not report the state of its rings"
finish
