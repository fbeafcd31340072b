#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --disk as a user meets it before any guest runs: the controllers in slots
# 0 and 1 with their BARs, info scsi, the ring view, the register view, and
# a clear error at start-up for every bad image or option: a missing file,
# a size that is not whole blocks, an image another xbow holds, bad bus=,
# id=, an ID taken twice, 31 disks.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

truncate -s 4M "$WORK/a.img"
truncate -s 1M "$WORK/b.img"

run_xbow --batch -q --nic none --disk "$WORK/a.img" --disk "$WORK/b.img,bus=1,id=3,ro" \
    -ex 'info pci' -ex 'info scsi' -ex 'ring isp0 request' -ex 'ring isp0 bogus' \
    -ex 'info device isp1' -ex 'info device-state isp0'
expect_status 0
expect_out "^slot 0: isp0 1077:1020 rev 05 class 010000"
expect_out "^slot 1: isp1 1077:1020 rev 05 class 010000"
expect_out "BAR0 io  0x08[0-9a-f]*00000 size 256"
expect_out "BAR1 mem 0x08200000 size 4K"
expect_out "BAR1 mem 0x08400000 size 4K"
expect_out "^isp0:"
expect_out "RISC running its ROM"
expect_out "request queue: not set up"
expect_out "ID  1: disk $WORK/a.img, 8192 blocks (4.2 MB); 0 commands"
expect_out "ID  3: disk $WORK/b.img, 2048 blocks (1.0 MB), read-only"
expect_out "isp0 request queue: not set up"
expect_out "isp0 has two queues: request and response (not \"bogus\")"
expect_out "MAILBOX1 *4953"
expect_out "HCCR "

# Start-up errors, each naming the problem, and nothing runs.
run_xbow --batch -q --disk "$WORK/none.img"
expect_status 2
expect_err "disk image $WORK/none.img: No such file or directory"
truncate -s 1000 "$WORK/odd.img"
run_xbow --batch -q --disk "$WORK/odd.img"
expect_status 2
expect_err "1000 bytes is not a whole number of 512-byte blocks"
run_xbow --batch -q --disk "$WORK/a.img,bus=2"
expect_status 2
expect_err "\"bus=2\" is not bus=0|1, id=N or ro"
run_xbow --batch -q --disk "$WORK/a.img,id=7"
expect_status 2
expect_err "id=7 is not a target ID (0-15; 7 is the adapter's own)"
run_xbow --batch -q --disk "$WORK/a.img,id=2" --disk "$WORK/b.img,id=2"
expect_status 2
expect_err "SCSI ID 2 already has $WORK/a.img"
run_xbow --batch -q --disk ",ro"
expect_status 2
expect_err "no image file"

# A second xbow cannot use an image the first one holds.
"$XBOW" --batch -q --disk "$WORK/a.img" -ex 'shell sleep 3' --allow-shell >/dev/null 2>&1 &
first=$!
sleep 1
run_xbow --batch -q --disk "$WORK/a.img"
expect_status 2
expect_err "disk image $WORK/a.img is in use by another program"
wait $first

finish
