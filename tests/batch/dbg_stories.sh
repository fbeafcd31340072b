#!/bin/sh
# The two stories xbow is built around (DEVELOPERS.md), as the scripts in
# examples/ tell them, on the small Hamachi driver examples/stories/hamachi.c.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST="$top_builddir/examples/stories/hamachi.elf"
if [ ! -f "$GUEST" ] || ! "$XBOW" --help | grep -q -- "--nic MODEL"; then
    echo "SKIP: no Hamachi model or story guest in this build"
    exit 77
fi
EX="$top_srcdir/examples"

# 1. DescIntr: the buggy driver stalls with its Tx ring full of finished
# descriptors and no Tx interrupt ever raised; the stall watch says so.
xbow_run descintr --nic hamachi --append "tx 40 nointr" -x "$EX/descintr.xbow"
expect_rc 0
expect "hamachi0 tx: 15 completed descriptors not reclaimed by the host, the oldest (entry 0)"
expect_re "^ +0 0x[0-9a-f]+ host +60 +0x[0-9a-f]+ EndPacket  done "
expect_re "^ +14 0x[0-9a-f]+ host +660 +0x[0-9a-f]+ EndPacket  done "
expect "Tx interrupts raised: 0"
expect "\$1 = 0x0"
expect_not "hamachi: sent"
# The fixed driver asks for interrupts, reclaims, and sends everything.
xbow_run descintr_ok --nic hamachi --append "tx 40" -x "$EX/descintr.xbow"
expect_rc 0
expect "hamachi: sent 40 frames"
expect_re "^Tx interrupts raised: [1-9][0-9]*$"
expect_not "Stall watch 2: hamachi0"

# 2. Per-word DMA: the same frames, the same bytes, a word at a time
# through the Bridge; the per-word DMA counter shows what it costs.  (How
# much receive throughput it costs depends on the model charging PCI bus
# time per word: the guest prints its rate, the test does not judge it.)
GEN="gen:size=1514,rate=80000,count=200,start=tx"
xbow_run raw --nic hamachi --net "$GEN" --nic-dma=raw --append "rx 200" -x "$EX/perword.xbow"
expect_rc 0
expect "DMA watchpoint 1: hamachi0 wrote 1512 bytes at p:"
expect "  for: rx-buf, ring 1, descriptor 0"
expect "hamachi: received 200 frames"
expect_re "^hamachi0 +dir32 +[0-9]{1,4} +[0-9]+ +20[01] +30[0-9]{4} +0$"
raw_bytes=$(sed -n 's/.*data: 0x\([0-9a-f]*\).*/\1/p' "$TMP/raw.out" | head -1)
xbow_run perword --nic hamachi --net "$GEN" --nic-dma=per-word --append "rx 200" \
    -x "$EX/perword.xbow"
expect_rc 0
expect "DMA watchpoint 1: hamachi0 wrote 4 bytes at p:"
expect_re "^\(and [0-9]+ more hits before the machine stopped\)$"
expect_re "^hamachi0 +dir32 +[0-9]{5,} +[0-9]+ +0 +0 +0$"
expect_re "^hamachi: received [0-9]+ frames, [0-9]+ bytes in [0-9]+ us of virtual time"
# identical bytes: the first payload word is the start of the raw frame
word_bytes=$(sed -n 's/.*data: 0x\([0-9a-f]*\).*/\1/p' "$TMP/perword.out" | head -1)
case "$raw_bytes" in
"$word_bytes"*) ;;
*) fail "per-word data $word_bytes is not the start of the raw data $raw_bytes" ;;
esac
finish
