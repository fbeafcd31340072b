#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the front ends read of the devices, as a user sees it: the Bridge's DMA
# counters (the TUI's DMA rates sample them) are the totals of `info dma`,
# and each NIC's "station" view is the line xbow prints at start-up.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
need_example hamachi/hamachi.elf

# Before any DMA, every counter is 0.
run_xbow --batch -q --nic hamachi -ex 'info device bridge'
expect_status 0
for c in dma.word-ops dma.word-bytes dma.bulk-ops dma.bulk-bytes dma.errors; do
    expect_out "^  counter: bridge $c = 0 -- "
done

# After 30 frames of 1024 bytes: the counters are the column sums of info dma.
run_xbow --batch --max-insns=2000000000 --nic hamachi --net sink --append 'tx 30 size=1024' \
    -ex continue -ex 'info dma' -ex 'info device bridge' -ex 'info device hamachi0 station' "$ELF"
expect_status 0
sums=$(awk '$1 == "initiator" { t = 1; next }
            t && NF == 7 && $3 ~ /^[0-9]+$/ { w += $3; wb += $4; b += $5; bb += $6; e += $7; next }
            { t = 0 }
            END { printf "%d %d %d %d %d", w, wb, b, bb, e }' "$WORK/out")
set -- $sums
expect_out "^  counter: bridge dma.word-ops = $1 -- "
expect_out "^  counter: bridge dma.word-bytes = $2 -- "
expect_out "^  counter: bridge dma.bulk-ops = $3 -- "
expect_out "^  counter: bridge dma.bulk-bytes = $4 -- "
expect_out "^  counter: bridge dma.errors = $5 -- "
# 30 payloads of 1024 bytes went out as bulk DMA.
[ "$4" -ge 30720 ] || fail "bulk bytes $4, want at least 30720"
# The start-up line (standard error in batch mode) is the station view.
line=$(sed -n 's/^xbow: \(hamachi0 (hamachi in slot 3): MAC .*\)$/\1/p' "$WORK/err")
[ -n "$line" ] || fail "no start-up line for hamachi0"
expect_out "^$line\$"
finish
