#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The DescIntr story on Linux's own Hamachi driver: the flavour with
# linux/patches/hamachi-txintr-1999 (the 1999 transmit path: DescIntr on the
# wrap slot only, reclaim in the interrupt handler only) stalls a
# transmit-only UDP flow (ttcp -t to a multicast group on the sink):
# examples/linux-descintr.xbow's `watch stall hamachi0 tx 20ms` stops with
# the ring's 60 finished descriptors unreclaimed and no Tx interrupt raised,
# and the kernel's watchdog resets the ring 5 s later.  The stock driver
# (PATCHES=ip27-dma64, DescIntr on every descriptor) runs the same script
# to the end.  Every run is bounded.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

build="bash ${top_srcdir:-.}/linux/build.sh --print-path --patches ip27-dma64"
stock=$($build 2>/dev/null) ||
    skip "the ip27-dma64 kernel flavour is not built: run 'make linux PATCHES=ip27-dma64'"
old=$($build --patches hamachi-txintr-1999 2>/dev/null) ||
    skip "the hamachi-txintr-1999 kernel flavour is not built: run \"make linux PATCHES='ip27-dma64 hamachi-txintr-1999'\""
script=${top_srcdir:-.}/examples/linux-descintr.xbow
app='xbow.gw=10.0.2.2 xbow.run="sleep 2; ttcp -t -l 1472 -n 300 239.1.2.3; ifconfig eth0" xbow.after=reboot'

run_xbow --batch -q --nic hamachi --net sink:noverify --append "$app" -x "$script" \
    -ex 'continue 1500000000' "$old"
expect_status 0
expect_out "^Stall watch 3: hamachi0 tx: 60 completed descriptors not reclaimed by the host, the oldest (entry 0) for 2[0-9].[0-9]* ms (virtual)"
expect_out "^hamachi0 ring tx: base 0xa1000000[0-9a-f]*, 16-byte descriptors, device at entry 60 "
expect_out "^  fetched 120, written back 60, wrapped 0"
# done, the host's, the frame's length, a buffer above 4 GB, no Intr
expect_out "^      1 0xa1000000[0-9a-f]* host   1514   0xa1000000[0-9a-f]* EndPacket  done [0-9]*[mu]s ago"
expect_no_out "EndPacket|Intr"
expect_out "^Tx interrupts raised: 0; hamachi_interrupt ran 1 times"
# and then, 5 s on, the kernel's watchdog
expect_out "eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out"
expect_out "eth0: Hamachi transmit timed out, status 00000002, resetting..."
expect_no_out "XBOW-RUN-END"

run_xbow --batch -q --nic hamachi --net sink:noverify --append "$app" -x "$script" "$stock"
expect_status 0
expect_no_out "^Stall watch 3: hamachi0 tx:"
expect_out "ttcp-t: msgs=300 bytes=441600 "
expect_out "TX packets 305 bytes [0-9]* errors 0 dropped 0"
expect_out "XBOW-RUN-END status=0"
expect_out "The guest reset the machine"
expect_out "^Tx interrupts raised: [1-9][0-9]*; hamachi_interrupt ran [1-9][0-9]* times"
expect_no_out "Tx interrupts raised: 0;"
expect_no_out "NETDEV WATCHDOG"
finish
