#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The IOC3's 10/100 Ethernet (the Origin 200's own NIC) with its example
# driver, as a user runs them: the MAC address read from the 1-wire NIC, the
# PHY found on the MII bus, datagrams sent to the echo peer and back with
# the chip's checksums (the peer drops bad ones), frames received from gen
# with raw and per-word payload DMA, a guest that echoes gen's frames into a
# capture, the unplugged default, the debugger on its rings, DMA and stalls,
# and the command line's mistakes.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
need_example ioc3/ioc3_eth.elf
MAX=--max-insns=2000000000
MAC=08:00:69:0e:c3:01

# Transmit to echo: large frames (some split at a 16 KB boundary into B1 +
# B2) with the chip's UDP checksum, each answered by the peer.
run_xbow --batch -q $MAX --nic none --ioc3-net echo --ioc3-mac $MAC --append 'tx 300 size=1514' \
    -ex continue -ex 'info device ioc3_eth0 stats' "$ELF"
expect_out "ioc3: MAC $MAC, PHY 31 id 2000:5c01, link up full duplex, SSRAM 128 KB"
expect_out 'ioc3: tx sent=300 done=300 split=[1-9][0-9]* txdone_irqs=[1-9][0-9]* replies=300 good=300 bad=0'
expect_out '^  tx frames 300 bytes 454200$'
expect_out '^  rx frames 300 bytes 454200 '
expect_out 'answered  0 ARP, 0 ICMP echo, 300 UDP; 0 bad checksums, 0 ignored'
expect_out 'causes asserted: RxTimer=[1-9][0-9]* TxDone=[1-9][0-9]*'
# Short frames inline in the descriptor (padded to 60), the checksum by the driver.
run_xbow --batch -q $MAX --nic none --ioc3-net echo --append 'tx 50 size=60 csum=sw' "$ELF"
expect_out 'ioc3: tx sent=50 done=50 split=0 txdone_irqs=[1-9][0-9]* replies=50 good=50 bad=0'
run_xbow --batch -q $MAX --nic none --ioc3-net echo --append 'tx 100 size=104' \
    -ex continue -ex 'info device ioc3_eth0 stats' "$ELF"
expect_out 'ioc3: tx sent=100 done=100 split=0 txdone_irqs=[1-9][0-9]* replies=100 good=100 bad=0'
# 100 inline frames read (104 bytes each) and 100 written (112 bytes from +8)
expect_out 'bulk ops 200 (21600 bytes)'

# Receive from gen: the same bytes whether the payload moves in bulk or
# word by word through the Bridge; the per-word DMA counter tells them apart.
for dma in raw per-word; do
    run_xbow --batch -q $MAX --nic none --nic-dma=$dma --ioc3-mac $MAC \
        --ioc3-net 'gen:size=1514,rate=5000,count=300,start=tx' --append 'rx 300' \
        -ex continue -ex 'info dma' "$ELF"
    expect_out 'ioc3: rx frames=300 good=300 bad=0 bytes=454200 time_us=59800 rate_Mbps=60.762'
    if [ $dma = raw ]; then
        expect_out '^ioc3_eth0 *pci64 *[0-9]* *[0-9]* *301 *456060 *0$'
    else
        expect_out '^ioc3_eth0 *pci64 *[0-9]* *[0-9]* *0 *0 *0$'
    fi
done

# The guest echoes gen's frames: 100 in, 100 out (and its "ready" frame),
# as the capture shows.
run_xbow --batch -q $MAX --nic none --ioc3-mac $MAC --ioc3-net 'gen:size=800,rate=2000,count=100,start=tx' \
    --ioc3-pcap "$WORK/e.pcap" --append 'echo 100' "$ELF"
expect_out 'ioc3: echo frames=100 sent=100 good=100 bad=0'
if command -v python3 >/dev/null 2>&1; then
    python3 "${top_srcdir:-.}/tests/batch/pcap_stats.py" "$WORK/e.pcap" $MAC >"$WORK/pcap.txt"
    checks=$((checks + 1))
    grep -q '^tx frames 101 bytes 80060 udp-good 101 udp-bad 0' "$WORK/pcap.txt" &&
        grep -q '^rx frames 100 bytes 80000 udp-good 100 udp-bad 0' "$WORK/pcap.txt" ||
        fail "capture: $(cat "$WORK/pcap.txt")"
fi

# Unplugged by default: no link; frames the driver queues are dropped.
run_xbow --batch -q $MAX --nic none --append 'tx 5 size=100' \
    -ex continue -ex 'info device ioc3_eth0 stats' "$ELF"
expect_out 'link down'
expect_out 'net none (no cable)'
expect_out '^  tx drops 5 no-link=5$'

# The debugger: the rings, a descriptor fetch, a DMA watchpoint on a
# receive buffer (data in bulk, then the error word, then w0 with its valid
# bit last), a Tx stall made by switching the Tx DMA off.
cat >"$WORK/dbg.x" <<'X'
break event ioc3_eth0.tx.desc-fetch
continue
delete
ring ioc3_eth0 tx 2
watch dma ioc3_eth0 &rx_buf[1],16 write
continue
delete
watch stall ioc3_eth0 tx 1ms
break ioc3_interrupt
continue
set ioc3_eth0.EMCR.TXDMAEN = 0
delete 4
continue
X
run_xbow --batch -q $MAX --nic none --ioc3-net echo --append 'tx 5 size=100' -x "$WORK/dbg.x" "$ELF"
expect_status 0
expect_out '^Event breakpoint 1: ioc3_eth0.tx.desc-fetch ring=tx index=0 addr=0xa4[0-9a-f]* own=1 flags=IntWhenDone|D0V|DoChecksum len=100 '
expect_out '^ioc3_eth0 ring tx: base 0xa4[0-9a-f]*, 24-byte descriptors, 128 entries, host index 1, '
expect_out '^DMA watchpoint 2: ioc3_eth0 wrote 108 bytes at p:0x[0-9a-f]* (bulk)'
expect_out '^  for: rx-status, ring 1, descriptor 1'
expect_out '^  data: 0x80680[0-9a-f]*$'
expect_out '^Stall watch 3: ioc3_eth0 tx: the host posted work, but the device has been idle for 1.0[0-9]* ms'

# Mistakes.
run_xbow --batch --nic none --ioc3-pcap "$WORK/x.pcap" "$ELF"
expect_status 2
expect_err '--ioc3-pcap needs --ioc3-net SPEC: the on-board Ethernet is unplugged'
run_xbow --batch --ioc3-mac 01:00:00:00:00:01 "$ELF"
expect_status 2
expect_err '--ioc3-mac: 01:00:00:00:00:01 is a multicast address'
run_xbow --batch --nic ioc3-eth "$ELF"
expect_status 2
expect_err '--nic: unknown model "ioc3-eth"'
run_xbow --batch --ioc3-net bogus "$ELF"
expect_status 2
expect_err 'ioc3_eth0'
finish
