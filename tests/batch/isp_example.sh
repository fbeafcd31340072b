#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ISP1040B example driver (examples/isp/isp_disk.c) on a disk image: the
# bring-up qla1280 does, INQUIRY, the unit attention, READ CAPACITY, a write
# and a read back, a selection timeout, completions by interrupt through the
# Bridge; the image holds what the guest wrote.  Then the debugger on it:
# info scsi and ring with the IOCBs decoded, break event isp0.iocb.* with a
# condition on the CDB's operation code, watch dma isp0 on the read buffer
# (stops on the controller's bulk write, naming the request), info dma,
# watch stall on the queues, info device-state.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

elf=${top_builddir:-.}/examples/isp/isp_disk.elf
[ -f "$elf" ] || skip "$elf is not built (make $elf)"
truncate -s 1M "$WORK/d.img"

run_xbow --batch -q --nic none --disk "$WORK/d.img" -ex 'continue 300000000' -ex 'info scsi' \
    -ex 'ring isp0 response 3' -ex 'info dma' "$elf"
expect_status 0
expect_out "^isp: slot 0, BAR1 at 0x9200000008200000, revision 5$"
expect_out "^isp: product id 4953 5020 2020 0001$"
expect_out "^isp: verify checksum 4000, execute 4000$"
expect_out "^isp: queues 4000 4000, features 4000, bus reset 4000$"
expect_out "^isp: INQUIRY 0: type 0, \"SGI     XBOW DISK       0001\"$"
expect_out "^isp: TEST UNIT READY 2, sense key 6 asc 29$"
expect_out "^isp: TEST UNIT READY 0$"
expect_out "^isp: READ CAPACITY 0: 2048 blocks of 512 bytes$"
expect_out "^isp: WRITE(10) 0$"
expect_out "^isp: READ(10) 0: the 4096 bytes read back$"
expect_out "^isp: ID 4: completion 1 (selection timeout)$"
expect_out "^isp: done, [0-9]* interrupts$"
expect_out "The guest reset the machine"
expect_out "RISC running the firmware (xbow firmware 1.00.00 at 0x1000, features 0x1: fast posting)"
expect_out "request queue: 16 entries at 0xa1[0-9a-f]*, host in 8, firmware out 8 (0 waiting)"
expect_out " *6 cmd64 h=0x6 t=1 l=0 READ(10) lba 5 blocks 8 in entries=1 segs=1 \[0xa1[0-9a-f]*+4096\]"
expect_out " *7 cmd64 h=0x7 t=4 l=0 TEST UNIT READY no-data entries=1 segs=0"
expect_out " *0 status h=0x2 scsi=0x02 comp=0x00 state=0x3700 resid=0 sense=6/29/00"
expect_out " *1 status h=0x7 scsi=0x00 comp=0x01 state=0x0100 resid=0$"
expect_out " *2 type 0x00 h=0x0  <- in (firmware)  <- out (host)$"
expect_out "ID  1: disk $WORK/d.img, 2048 blocks (1.0 MB); 6 commands, 8 blocks read, 8 written"
expect_out "^isp0 *pci64 *10 *640 *4 *8236 *0$"
# Blocks 5 to 12 of the image hold the pattern the guest wrote.
checks=$((checks + 1))
got=$(od -An -tx1 -j 2560 -N 8 "$WORK/d.img" | tr -d ' ')
[ "$got" = "030a11181f262d34" ] || fail "image block 5 starts with $got"

# The debugger: stop on the WRITE(10)'s fetch, watch the read buffer.
run_xbow --batch -q --nic none --disk "$WORK/d.img" \
    -ex 'break event isp0.iocb.fetch if op == 0x2a' -ex 'continue 300000000' -ex 'delete' \
    -ex 'watch dma isp0 rbuf,512 write' -ex 'continue 300000000' -ex 'delete' \
    -ex 'break event isp0.iocb.*' -ex 'continue 300000000' -ex 'delete' \
    -ex 'watch stall isp0 1ms' -ex 'info device-state isp0' "$elf"
expect_status 0
expect_out "^Event breakpoint 1: isp0.iocb.fetch index=5 type=0x9 handle=0x5 target=1 lun=0 op=0x2a len=4096 dir=out "
expect_out "^DMA watchpoint 2: isp0 wrote 4096 bytes at p:0x0*[0-9a-f]* (bulk)$"
expect_out "  path: Bridge pci64 window, swap off, PCI address 0xa1[0-9a-f]*$"
expect_out "  for: isp-data, descriptor 6$"
expect_out "  data: 0x030a11181f262d34 ..."
expect_out "^Event breakpoint 3: isp0.iocb.done index=6 handle=0x6 target=1 scsi_status=0x0 comp=0x0 resid=0 fast=1 "
expect_out "^Stall watch 4: stall isp0 request,response for 1.000 ms"
expect_out "fw_running"
# The guest is done: nothing posted, nothing left to take: no stall.
expect_no_out "stalled"
finish
