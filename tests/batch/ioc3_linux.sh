#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux's own ioc3-eth driver (make linux: CONFIG_SGI_IOC3_ETH) on the
# IOC3's Ethernet, the only NIC of the machine (--nic none), so it is eth0:
# it probes once the w1 bus has found the DS1981U with its MAC address,
# finds the DP83840 at MII address 31, links up, answers ping through the
# echo peer, and floods UDP to the sink on 1 and 2 CPUs with every frame
# accounted for: what ttcp says it sent, what Linux counted on eth0, what the
# NIC model counted, what the sink swallowed and what the capture holds
# (tests/batch/ttcp_pcap.py checks the pattern, ttcp's checksum, and the IP
# and UDP checksums the chip inserted, independently of xbow).  The sink
# answers no ARP, so ttcp sends to a multicast group through a default route
# (docs/linux.md); it waits for the link first (sleep 2).  The classic
# ttcp (one buffer, sent again and again) writes faster than the 100 Mb/s
# line: its writes return once the datagrams are queued (the qdisc, the Tx
# ring), so the guest waits for them to drain (sleep 1) before ifconfig
# counts them and xbow.after=reboot resets the chip.  Each run has a bound
# on guest instructions.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the capture"
grep -q '^CONFIG_SGI_IOC3_ETH=y' "$(dirname "$vmlinux")/config-$(basename "$vmlinux" | sed 's/^vmlinux-//')" 2>/dev/null ||
    skip "the kernel in the cache has no CONFIG_SGI_IOC3_ETH: run 'make linux'"
mac=08:00:69:0e:c3:01

# Probe, link, ping.
run_xbow --batch -q --nic none --ioc3-net echo --ioc3-mac $mac --ioc3-pcap "$WORK/p.pcap" \
    --append 'xbow.run="ping -c 3 10.0.2.2; ifconfig eth0" xbow.after=reboot' \
    -ex 'continue 2500000000' -ex 'info device ioc3_eth0 stats' "$vmlinux"
expect_status 0
expect_out "The guest reset the machine"
expect_out "ioc3-eth ioc3-eth.*: Using PHY 31, vendor 0x20005c0, model 0, rev 1."
expect_out "ioc3-eth ioc3-eth.*: IOC3 SSRAM has 128 kbyte."
expect_out "eth0: link up, 100Mbps, full-duplex"
expect_out "xbow-init: eth0 10.0.2.15/24 mtu 1500 up"
expect_out "3 packets transmitted, 3 received"
expect_out "ether $mac"
expect_out "XBOW-RUN-END status=0"
expect_out "causes asserted: RxTimer=[1-9][0-9]* TxDone=[1-9][0-9]*"
python3 "${top_srcdir:-.}/tests/batch/pcap_stats.py" "$WORK/p.pcap" $mac >"$WORK/pcap.txt"
checks=$((checks + 1))
grep -q '^icmp requests 3 replies 3' "$WORK/pcap.txt" || fail "capture: $(cat "$WORK/pcap.txt")"

# flood LEN COUNT CPUS [-V]: 1472-byte datagrams, one 1514-byte frame each;
# the classic ttcp, or with -V each message filled with its own pattern.
flood() {
    len=$1 n=$2 cpus=$3 verify=${4:-}
    frames=$((n + 5)) # one sentinel before the data, four after
    run_xbow --batch -q --cpus $cpus --nic none --ioc3-mac $mac --ioc3-net sink:noverify \
        --ioc3-pcap "$WORK/u.pcap" \
        --append "xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t $verify -l $len -n $n 239.1.2.3; sleep 1; ifconfig eth0\" xbow.after=reboot" \
        -ex 'continue 3000000000' -ex 'info device ioc3_eth0 stats' "$vmlinux"
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "ttcp-t: msgs=$n bytes=$((n * len)) "
    expect_out "XBOW-RUN-END status=0"
    expect_out "TX packets $frames bytes [0-9]* errors 0 dropped 0"
    expect_out "^  tx frames $frames bytes "
    expect_out "^  tx drops 0$"
    expect_out "^  tx        $frames frames, [0-9]* bytes, 0 dropped"
    expect_out "^  sink      $frames frames, [0-9]* bytes"
    expect_out "^  capture   .*: $frames frames"
    # Linux counts each frame as the driver got it; the chip pads the five
    # 46-byte sentinels to 60 (EMCR.PADEN), and the NIC, the sink and the
    # capture count what went on the wire.
    bytes=$(sed -n "s/.*TX packets $frames bytes \([0-9]*\) .*/\1/p" "$WORK/out")
    wire=$((${bytes:-0} + 5 * 14))
    expect_out "^  tx frames $frames bytes $wire$"
    expect_out "^  sink      $frames frames, $wire bytes"
    cksum=$(sed -n 's/^ttcp-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/out")
    got=$(python3 "${top_srcdir:-.}/tests/batch/ttcp_pcap.py" "$WORK/u.pcap" --src $mac $([ -n "$verify" ] || echo --classic))
    want="frames=$frames udp=$frames data=$n sentinels=5 bytes=$((n * len)) cksum=${cksum:-none} bad=0 seqerr=0 badip=0 badl4=0 frag=0 other=0 maxframe=$((len + 42))"
    checks=$((checks + 1))
    [ "$got" = "$want" ] || fail "capture: $got, want $want"
}

flood 1472 500 1
flood 1472 500 2 -V
finish
