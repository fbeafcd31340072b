#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux's own hamachi and acenic drivers (and e1000 on the 82543) on the
# kernel flavour with linux/patches/ip27-dma64 (make linux PATCHES=ip27-dma64:
# 64-bit DMA masks, which IP27 needs, every DMA address lying above 4 GB).
# Each NIC probes, links up and answers ping through the echo peer; then UDP
# floods to the sink peer with every frame accounted for, as linux_udp.sh
# does for the 82544: what ttcp sent, what Linux counted on eth0, what the
# NIC model counted, what the sink swallowed and what the capture holds
# (tests/batch/ttcp_pcap.py checks every frame's pattern and checksums: ttcp -V,
# which fills and numbers every datagram).
# 1472-byte datagrams at MTU 1500 on 1 and 2 CPUs, with raw and per-word
# payload DMA; jumbo (8972 bytes at MTU 9000) on the Tigon2, whose driver
# takes it (Linux's hamachi.c keeps the standard MTU).  Every run is bounded.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

vmlinux=$(bash "${top_srcdir:-.}/linux/build.sh" --print-path --patches ip27-dma64 2>/dev/null) ||
    skip "the ip27-dma64 kernel flavour is not built: run 'make linux PATCHES=ip27-dma64' (after 'make linux')"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the capture"
mac=02:58:42:72:00:00

# ping NIC PROBE-LINE: probe, link, two echoes.
ping_echo() {
    run_xbow --batch -q --nic "$1" --mac $mac --net echo --max-insns 2500000000 \
        --append 'xbow.run="ping -c 2 10.0.2.2; ifconfig eth0" xbow.after=reboot' "$vmlinux"
    expect_status 0
    expect_err "the guest reset the machine"
    expect_out "$2"
    expect_no_out "probe of .* failed"
    expect_out "xbow-init: eth0 10.0.2.15/24 mtu 1500 up"
    expect_out "2 packets transmitted, 2 received, 0% packet loss"
    expect_out "eth0: flags=0x1043<UP,BROADCAST,RUNNING,MULTICAST> mtu 1500"
    expect_out "XBOW-RUN-END status=0"
}

ping_echo hamachi "eth0: Hamachi GNIC-II type 2 at .*, $mac, IRQ"
expect_out "eth0:  64-bit 33 Mhz PCI bus"
ping_echo tigon2 "0000:00:03.0: SGI AceNIC"
expect_out "Tigon II (Rev. 6)"
ping_echo acenic "0000:00:03.0: Alteon AceNIC"
# the 82543 (64-bit PCI, not PCI-X): 03-e1000-dma64-pci64.patch
ping_echo e1000-82543 "e1000 0000:00:03.0 eth[01]: (PCI:33MHz:64-bit) $mac"
expect_out "e1000: eth0 NIC Link is Up 1000 Mbps Full Duplex"
expect_no_out "Allocation for Tx Queue 0 failed"

# The debugger on the drivers.  The line after hamachi_start_xmit() has
# filled a Tx descriptor, found in the flavour's patched source (kept next
# to its vmlinux): the ring view shows what the driver wrote, the ARP
# request's 42 bytes in a buffer above 4 GB, handed to the device, with
# DescIntr.  Then the driver's interrupt handler.
tree=$(dirname "$vmlinux")/${vmlinux##*/vmlinux-}
ksrc=$(ls -d "$tree"/src/linux-source-* 2>/dev/null | head -n 1)
kobj=$(ls -d "$tree"/build-* 2>/dev/null | head -n 1)
hc=$ksrc/drivers/net/ethernet/packetengines/hamachi.c
line=$(grep -n 'hmp->cur_tx++;' "$hc" 2>/dev/null | head -n 1 | cut -d: -f1)
checks=$((checks + 1))
[ -n "$line" ] || fail "no patched source next to $vmlinux ($hc)"
run_xbow --batch -q --nic hamachi --net echo --append 'xbow.run="ping -c 1 10.0.2.2" xbow.after=reboot' \
    -ex "directory $ksrc $kobj" -ex "break hamachi.c:${line:-0}" -ex 'continue 2000000000' \
    -ex 'ring hamachi0 tx 2' -ex 'list' -ex 'delete' -ex 'break hamachi_interrupt' -ex 'continue 2000000000' \
    -ex 'bt 1' -ex 'delete' -ex 'continue 2000000000' "$vmlinux"
expect_status 0
expect_out "^Breakpoint 1, hamachi_start_xmit (skb=0xa8[0-9a-f]*, dev=0xa8[0-9a-f]*) at hamachi.c:$line"
expect_out "^hamachi0 ring tx: base 0xa1000000[0-9a-f]*, 16-byte descriptors, device at entry 0 "
expect_out "^ >    0 0xa1000000[0-9a-f]* device 42     0xa1000000[0-9a-f]* Own|EndPacket|Intr"
expect_out "^$line	*hmp->cur_tx++;"
expect_out "^Breakpoint 2, hamachi_interrupt (irq=[0-9]*, dev_instance=0xa8[0-9a-f]*) at hamachi.c:"
expect_out "^#0  hamachi_interrupt "
expect_out "1 packets transmitted, 1 received"
expect_out "The guest reset the machine"

run_xbow --batch -q --nic acenic --net echo --append 'xbow.run="ping -c 1 10.0.2.2" xbow.after=reboot' \
    -ex 'break ace_interrupt' -ex 'continue 2000000000' -ex 'bt 1' -ex 'delete' -ex 'continue 2000000000' "$vmlinux"
expect_status 0
expect_out "^Breakpoint 1 at 0xa8[0-9a-f]* <ace_interrupt>: file acenic.c, line [0-9]*"
expect_out "^Breakpoint 1, ace_interrupt (irq=[0-9]*, dev_id=0xa8[0-9a-f]*) at acenic.c:"
expect_out "1 packets transmitted, 1 received"

# flood NIC DEV MTU LEN COUNT CPUS DMA: COUNT datagrams of LEN bytes, one
# frame each, to a multicast group on the sink (it answers no ARP).
flood() {
    nic=$1 dev=$2 mtu=$3 len=$4 n=$5 cpus=$6 dma=$7
    frames=$((n + 5)) # one sentinel before the data, four after
    run_xbow --batch -q --cpus "$cpus" --nic "$nic" --nic-dma="$dma" --mac $mac --net sink:noverify \
        --pcap "$WORK/u.pcap" \
        --append "xbow.mtu=$mtu xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t -V -l $len -n $n 239.1.2.3; ifconfig eth0\" xbow.after=reboot" \
        -ex 'continue 3000000000' -ex "info device $dev stats" -ex 'info dma' "$vmlinux"
    last_cmd="$last_cmd ($nic, $cpus CPU(s), $dma DMA)"
    expect_status 0
    expect_out "The guest reset the machine"
    expect_out "xbow-init: eth0 10.0.2.15/24 mtu $mtu up"
    expect_out "ttcp-t: msgs=$n bytes=$((n * len)) "
    expect_out "XBOW-RUN-END status=0"
    expect_out "TX packets $frames bytes [0-9]* errors 0 dropped 0"
    expect_out "^  tx frames $frames bytes "
    expect_out "^  tx drops 0$"
    expect_out "^  DMA (payload $dma): .* errors 0$"
    expect_out "^  tx        $frames frames, [0-9]* bytes, 0 dropped"
    expect_out "^  sink      $frames frames, [0-9]* bytes; 0 not UDP"
    expect_out "^  capture   .*: $frames frames"
    # The NIC's, the port's, the sink's and the capture's byte counts agree.
    bytes=$(sed -n "s/^  tx frames $frames bytes \([0-9]*\)$/\1/p" "$WORK/out")
    expect_out "^  sink      $frames frames, ${bytes:-none} bytes"
    expect_out "^  capture   .*: $frames frames, ${bytes:-none} bytes"
    # Linux's: hamachi.c reads the chip's byte counter, which counts the
    # 4-byte FCS; acenic.c counts what it queued, before the NIC pads the
    # five 46-byte sentinels to the 60-byte minimum.
    case $nic in
    hamachi) lbytes=$((${bytes:-0} + 4 * frames)) ;;
    *) lbytes=$((${bytes:-0} - 5 * 14)) ;;
    esac
    expect_out "TX packets $frames bytes $lbytes errors 0 dropped 0"
    # per-word DMA moves the payload one word at a time: no bulk copies
    if [ "$dma" = per-word ]; then
        expect_out "^  DMA (payload per-word): word ops [1-9][0-9]* .* bulk ops 0 (0 bytes)"
    else
        # one bulk copy per frame at least (the Tigon adds its own)
        bulk=$(sed -n 's/^  DMA (payload raw): .* bulk ops \([0-9]*\) .*/\1/p' "$WORK/out")
        checks=$((checks + 1))
        [ "${bulk:-0}" -ge "$frames" ] || fail "raw DMA: ${bulk:-no} bulk copies for $frames frames"
    fi
    cksum=$(sed -n 's/^ttcp-t: msgs=.* cksum=\(0x[0-9a-f]*\) .*/\1/p' "$WORK/out")
    got=$(python3 "${top_srcdir:-.}/tests/batch/ttcp_pcap.py" "$WORK/u.pcap" --src $mac)
    want="frames=$frames udp=$frames data=$n sentinels=5 bytes=$((n * len)) cksum=${cksum:-none} bad=0 seqerr=0 badip=0 badl4=0 frag=0 other=0 maxframe=$((len + 42))"
    checks=$((checks + 1))
    [ "$got" = "$want" ] || fail "capture: $got, want $want"
}

for dma in raw per-word; do
    for cpus in 1 2; do
        flood hamachi hamachi0 1500 1472 1000 $cpus $dma
        flood tigon2 tigon0 1500 1472 1000 $cpus $dma
        flood acenic tigon0 1500 1472 1000 $cpus $dma
    done
done
flood tigon2 tigon0 9000 8972 200 1 raw
flood acenic tigon0 9000 8972 200 2 per-word
finish
