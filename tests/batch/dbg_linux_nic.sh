#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger on Linux's own e1000 driver (make linux) and the emulated
# 82544: symbol-file on the vmlinux, a breakpoint on the driver's interrupt
# handler (e1000_intr), the Rx ring as the driver posted it, a DMA watchpoint
# on the first receive buffer that fires when the NIC writes the ARP reply
# into it, the Tx ring with the descriptor the driver filled for the ARP
# request, then the rest of the ping.  Also: the hamachi and acenic drivers'
# probes fail on the IP27, so their handlers never run.  Every run is bounded with
# "continue N" (guest instructions).  Skips when no kernel was built.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null)
if [ -z "$GUEST" ] || [ ! -f "$GUEST" ]; then
    echo "SKIP: no Linux kernel built: run 'make linux' first"
    exit 77
fi
nic="--nic e1000-82544 --mac 02:58:42:72:00:00 --net echo"
app='xbow.run="ping -c 3 10.0.2.2" xbow.after=reboot'

# 1. Where does the first receive buffer live?  The first e1000_intr comes
#    from the link coming up, before any traffic, with the Rx ring posted.
script rxbuf $nic --append "$app" <<X
symbol-file $GUEST
break e1000_intr
continue 2000000000
ring e1000_0 rx 2
X
expect_rc 0
expect_re "^Reading symbols from .*vmlinux.*: [0-9]+ symbols\.$"
expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+ <e1000_intr>: file e1000_main\.c, line [0-9]+\.$"
expect "Breakpoint 1, e1000_intr"
expect_re "^e1000_0 ring rx: base 0xa1[0-9a-f]+, 16-byte descriptors, 256 entries, .*device at entry 0 "
# Bus address as the NIC sees it (PCI64: 0xa1 attributes over the physical
# address); the low 40 bits are the physical address.
bus=$(awk '$1 == ">" && $2 == "0" && $4 == "device" { print $6 }' "$TMP/rxbuf.out")
case "$bus" in
0xa1[0-9a-f]*) ;;
*) fail "rxbuf: no buffer address for Rx entry 0 in the ring view ('$bus')" ;;
esac
phys=$(echo "$bus" | sed -n 's/^0x[0-9a-f]*\([0-9a-f]\{10\}\)$/0x\1/p')
[ -n "$phys" ] || phys=0x0

# 2. The same run with a DMA watchpoint on that buffer.
script nic $nic --append "$app" <<X
symbol-file $GUEST
break e1000_intr
continue 2000000000
delete
watch dma e1000_0 $phys,64 write
continue 2000000000
ring e1000_0 rx 2
xp/16xb $phys
delete
break e1000_intr
continue 2000000000
bt
ring e1000_0 tx 2
delete
continue 3000000000
X
expect_rc 0
expect "Breakpoint 1, e1000_intr"
expect_re "^DMA watchpoint 2: dma by e1000_0 write p:0x0*${phys#0x}, 64 bytes$"
# The ARP reply from the echo peer: 60 bytes and the FCS (the 82544 does
# not strip it; Linux's driver does).
expect_re "^DMA watchpoint 2: e1000_0 wrote 64 bytes at p:0x0*${phys#0x} \(bulk\)$"
expect "  path: Bridge pci64 window, swap off, PCI address $bus"
expect "  for: rx-buf, ring 1, descriptor 0"
expect_re "^      0 0xa1[0-9a-f]+ host   64     $bus DD\|EOP  done "
# destination MAC = the NIC's, source = echo's, EtherType ARP
expect_re "^p:0x0*${phys#0x}:	0x02	0x58	0x42	0x72	0x00	0x00	0x02	0x78$"
expect_re "	0x62	0x6f	0x77	0x02	0x08	0x06	0x00	0x01$"
expect "Breakpoint 3, e1000_intr"
expect_re "^#[1-4]  0x[0-9a-f]+ in (__)?handle_irq_event(_percpu)? \("
# The ARP request the driver put in Tx descriptor 0, done by the NIC.
expect_re "^e1000_0 ring tx: base 0xa1[0-9a-f]+, 16-byte descriptors, 256 entries, host index 1, device at entry 1 "
expect_re "^      0 0xa1[0-9a-f]+ host   60     0xa1[0-9a-f]+ DD\|EOP\|IFCS\|RS"
expect_seq "Breakpoint 1, e1000_intr" "DMA watchpoint 2: e1000_0 wrote" "Breakpoint 3, e1000_intr" \
    "3 packets transmitted, 3 received" "The guest reset the machine"

# 3. Linux's hamachi and acenic drivers cannot probe on the IP27 (32-bit
#    coherent DMA masks, PCI64-only DMA: docs/linux.md): their probe
#    functions return -ENOMEM and -ENODEV, and their interrupt handlers,
#    though breakpoints are set on them, are never reached.
# no_probe NIC IRQ PROBE ERRNO: Linux with NIC on the echo peer, breakpoints
# on the driver's interrupt handler IRQ (in NIC.c) and its probe PROBE;
# the probe returns -ERRNO, the handler is never reached, and the only
# interface is the IOC3's own Ethernet (unplugged).
no_probe() {
    script $1 --nic $1 --net echo --append 'xbow.run=true xbow.after=reboot' <<X
break $2
break $3
continue 2000000000
finish
continue 2000000000
X
    expect_rc 0
    expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+ <$2>: file $1\.c, line [0-9]+\.$"
    expect "Breakpoint 2, $3"
    expect "Value returned is \$1 = -$4"
    expect_re "ioc3-eth ioc3-eth\.[0-9a-z.]* eth0: link down"
    expect_not "eth1"
    expect "The guest reset the machine"
    expect_not "Breakpoint 1, $2"
}
no_probe hamachi hamachi_interrupt hamachi_init_one 12
expect "hamachi: probe of 0000:00:03.0 failed with error -12"
no_probe acenic ace_interrupt acenic_probe_one 19
finish
