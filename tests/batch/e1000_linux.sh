#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux's own e1000 driver (make linux: Debian's linux-source-6.1, CONFIG_E1000)
# on the emulated parts.  The 82544 (PCI-X mode reported, so the driver uses
# 64-bit DMA, which the IP27 needs) probes, links up, answers ping and sends
# an 8000-byte UDP stream as jumbo frames whose UDP checksums it leaves to
# the NIC (context descriptors; the capture is checked by e1000_pcap.py).
# The 82543 probes but cannot open: the driver keeps 32-bit DMA masks, which
# the IP27's PCI64-only DMA cannot satisfy (docs/hardware.md).  The kernel
# may register the IOC3's Ethernet first (eth0, then the card eth1); /init
# renames them so that the card is eth0 (docs/linux.md).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the capture"

# ping first: it waits for the link (autonegotiation) and resolves the peer.
run_xbow --batch -q --nic e1000-82544 --net echo --pcap "$WORK/l.pcap" \
    --max-insns 2500000000 \
    --append 'xbow.mtu=9000 xbow.run="ping -c 2 10.0.2.2; ttcp -t -l 8000 -n 100 10.0.2.2" xbow.after=reboot' \
    "$vmlinux"
expect_status 0
expect_err "the guest reset the machine"
expect_out "e1000 0000:00:03.0 eth[01]: (PCI-X:66MHz:64-bit) "
expect_out "e1000: eth0 NIC Link is Up 1000 Mbps Full Duplex"
expect_out "xbow-init: eth0 10.0.2.15/24 mtu 9000 up"
expect_out "2 packets transmitted, 2 received"
expect_out "ttcp-t: msgs=100 bytes=800000 "
expect_out "XBOW-RUN-END status=0"
mac=$(sed -n 's/.*eth[01]: (PCI-X:66MHz:64-bit) \([0-9a-f:]*\).*/\1/p' "$WORK/out" | head -n 1)
checks=$((checks + 1))
if [ -n "$mac" ]; then
    got=$(python3 "${top_srcdir:-.}/tests/batch/e1000_pcap.py" "$WORK/l.pcap" --src "$mac")
    jumbo=$(echo "$got" | sed -n 's/.*jumbo=\([0-9]*\).*/\1/p')
    case "$got" in
    *" badip=0 badl4=0 "*) ;;
    *) fail "bad checksums in what eth0 sent: $got" ;;
    esac
    checks=$((checks + 1))
    [ "${jumbo:-0}" -ge 100 ] || fail "want 100 jumbo frames from eth0, the capture has: $got"
else
    fail "no MAC address in the probe line"
fi

run_xbow --batch -q --nic e1000-82543 --net echo --max-insns 1500000000 \
    --append 'xbow.run=true xbow.after=reboot' "$vmlinux"
expect_status 0
expect_out "e1000 0000:00:03.0 eth[01]: (PCI:33MHz:64-bit) "
expect_out "e1000 0000:00:03.0 eth0: Allocation for Tx Queue 0 failed"
expect_out "xbow-init: eth0 configuration FAILED"
finish
