#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# UDP floods from Linux's own e1000 driver (make linux) on the emulated 82544
# to the `sink` peer, with every frame accounted for: what ttcp says it sent,
# what Linux counted on eth0, what the NIC model counted, what the sink
# swallowed and what the capture holds (tests/batch/ttcp_pcap.py checks the
# pattern, ttcp's checksum, IP and UDP checksums independently of xbow).
#   8972-byte datagrams at MTU 9000: one 9014-byte jumbo frame each;
#   9000-byte datagrams at MTU 9000: two IP fragments each (9000 + 8 bytes
#     of UDP do not fit in 9000 - 20);
#   1472-byte datagrams at MTU 1500: one 1514-byte frame each, on 1 and on
#     2 CPUs.
# The sink answers no ARP, so ttcp sends to a multicast group (239.1.2.3,
# reached through a default route; no ARP for multicast).  ttcp waits for the
# link first (sleep 2): before carrier is up Linux's noop qdisc drops frames
# without an error.  Each run has a bound on guest instructions ("continue N":
# a hang stops there, and the missing reset line fails the test).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the capture"
mac=02:58:42:72:00:00 # the NIC's address (--mac)

# flood MTU LEN COUNT FRAMES_PER_MSG CPUS [-V]
flood() {
    mtu=$1 len=$2 n=$3 per=$4 cpus=$5 verify=${6:-}
    frames=$((n * per + 5)) # one sentinel before the data, four after
    run_xbow --batch -q --cpus $cpus --nic e1000-82544 --mac $mac --net sink:noverify --pcap "$WORK/u.pcap" \
        --append "xbow.mtu=$mtu xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t $verify -l $len -n $n 239.1.2.3; ifconfig eth0\" xbow.after=reboot" \
        -ex 'continue 3000000000' -ex 'info cpus' -ex 'info device e1000_0 stats' -ex 'info dma' -ex 'info nic' "$vmlinux"
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "xbow-init: eth0 10.0.2.15/24 mtu $mtu up"
    expect_out "ttcp-t: msgs=$n bytes=$((n * len)) .* verify=$([ -n "$verify" ] && echo 1 || echo 0) "
    expect_out "^ttcp-t: $((n * len)) bytes in [0-9]*\.[0-9]\{6\} s = [0-9]*\.[0-9]\{3\} Mbit/s (guest time)"
    expect_out "XBOW-RUN-END status=0"
    # info nic: the counts, and rates in both time bases (tx only; the link
    # is down when Linux has shut the interface for the reboot).
    expect_out "^  link [a-z]*; tx $frames frames, [0-9]* bytes; rx 0 frames, 0 bytes$"
    expect_out "^  rates over the last 0\.[0-9]\{6\} s of guest time ([0-9]*\.[0-9]\{6\} s of host time running):$"
    expect_out "^    guest time: tx [0-9.]* frames/s [0-9.]* Mbit/s, rx 0\.0 frames/s 0\.000 Mbit/s$"
    expect_out "^    host time:  tx [0-9.]* frames/s [0-9.]* Mbit/s, rx 0\.0 frames/s 0\.000 Mbit/s$"
    # Linux's count, the NIC's, the port's, the sink's, the capture's.
    expect_out "TX packets $frames bytes [0-9]* errors 0 dropped 0"
    expect_out "^  tx frames $frames bytes "
    expect_out "^  tx drops 0$"
    expect_out "^  tx        $frames frames, [0-9]* bytes, 0 dropped"
    # The sink parses whole UDP datagrams only: fragments are "not UDP".
    expect_out "^  sink      $frames frames, [0-9]* bytes; $((per > 1 ? n * per : 0)) not UDP"
    expect_out "^  capture   .*: $frames frames"
    # The same byte count everywhere: Linux's ifconfig counts the frames it
    # handed the driver, without FCS.
    bytes=$(sed -n "s/.*TX packets $frames bytes \([0-9]*\) .*/\1/p" "$WORK/out")
    expect_out "^  tx frames $frames bytes ${bytes:-none}$"
    expect_out "^  sink      $frames frames, ${bytes:-none} bytes"
    cksum=$(sed -n 's/^ttcp-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/out")
    got=$(python3 "${top_srcdir:-.}/tests/batch/ttcp_pcap.py" "$WORK/u.pcap" --src $mac $([ -n "$verify" ] || echo --classic))
    if [ "$per" -eq 1 ]; then
        want="frames=$frames udp=$frames data=$n sentinels=5 bytes=$((n * len)) cksum=${cksum:-none} bad=0 seqerr=0 badip=0 badl4=0 frag=0 other=0 maxframe=$((len + 42))"
    else
        # fragments are not reassembled: only the sentinels are whole
        want="frames=$frames udp=5 data=0 sentinels=5 bytes=0 cksum=0x00000000 bad=0 seqerr=0 badip=0 badl4=0 frag=$((n * per)) other=0 maxframe=$((14 + 20 + (mtu - 20) / 8 * 8))"
    fi
    checks=$((checks + 1))
    [ "$got" = "$want" ] || fail "capture: $got, want $want"
}

flood 9000 8972 200 1 1 -V
flood 9000 9000 50 2 1
flood 1500 1472 1000 1 1
# SMP: the driver's interrupt and the sender on either CPU
flood 1500 1472 1000 1 2
finish
