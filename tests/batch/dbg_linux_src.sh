#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Source-level debugging of Linux's own e1000 driver (make linux builds the
# kernel with DWARF 5): stop in e1000_xmit_frame when init's ping sends
# its ARP request, step through it by source line, run to the line of the
# inlined e1000_tx_queue() that finishes the Tx descriptor, and print the
# descriptor as the driver's struct e1000_tx_desc; bt through the softirq
# and the interrupt's exception frame down to the idle loop.  Every run is
# bounded.  Skips when no kernel was built.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null)
if [ -z "$GUEST" ] || [ ! -f "$GUEST" ]; then
    echo "SKIP: no Linux kernel built: run 'make linux' first"
    exit 77
fi
if ! grep -q "^CONFIG_DEBUG_INFO_DWARF5=y" "$(dirname "$GUEST")/config" 2>/dev/null; then
    echo "SKIP: the kernel has no DWARF (its config lacks DEBUG_INFO_DWARF5): run 'make linux'"
    exit 77
fi
# The kernel's DWARF names its files relative to the source and build
# trees (linux/build.sh maps their paths out, for a reproducible vmlinux):
# "directory" says where they are, as a user does.
ksrc=$(ls -d "$(dirname "$GUEST")"/src/linux-source-* 2>/dev/null | head -n 1)
kobj=$(ls -d "$(dirname "$GUEST")"/build-* 2>/dev/null | head -n 1)
if [ -z "$ksrc" ] || [ -z "$kobj" ]; then
    echo "FAIL: no kernel source or build tree next to $GUEST (make linux keeps them)"
    exit 1
fi
nic="--nic e1000-82544 --net echo"
app='xbow.run="ping -c 1 10.0.2.2" xbow.after=reboot'

{ echo "directory $ksrc $kobj"; cat; } >"$TMP/xmit.cmds" <<'X'
break e1000_xmit_frame
continue 2000000000
delete
bt
info args
next
next
next
until 3010
bt 2
info locals
print *tx_desc
print/x tx_desc->lower.flags.length
print tx_desc - (struct e1000_tx_desc *)tx_ring->desc
ptype tx_desc
finish
ring e1000_0 tx 1
print system_state
print/d system_state
print system_state == SYSTEM_RUNNING && system_state > SYSTEM_SCHEDULING
print (enum system_states)2
X
script xmit $nic --append "$app" <"$TMP/xmit.cmds"
expect_rc 0
expect_re "^Breakpoint 1, e1000_xmit_frame \(skb=0xa8[0-9a-f]+, netdev=0xa8[0-9a-f]+\) at e1000_main\.c:[0-9]+$"
expect "	struct e1000_adapter *adapter = netdev_priv(netdev);"
# the backtrace: the ARP request from the neighbour timer in a softirq,
# run at the end of an interrupt, whose exception frame leads to the idle
# loop and start_kernel
expect_seq "#0  e1000_xmit_frame (skb=" " in arp_solicit (" " in neigh_timer_handler (" \
    " in handle_softirqs (" " in handle_int () at genex.S:" " at idle.c:" \
    " in start_kernel () at main.c:"
expect_re "^#[0-9]+ +0x[0-9a-f]+ in handle_int \(\) at genex\.S:[0-9]+ <exception frame>$"
# every argument has a value or is <optimized out> (call_timer_fn's
# baseclk is a DW_OP_GNU_parameter_ref the call site has no value for)
expect_not "<error: "
expect_re "^skb = 0xa8[0-9a-f]+$"
# three next: each a line of e1000_xmit_frame (or of what it inlines)
n=$(grep -cE "^[0-9]+	" "$TMP/xmit.out")
[ "$n" -ge 5 ] || fail "xmit: $n source lines shown, want at least 5"
# e1000_tx_queue is inlined into e1000_xmit_frame: a frame of its own
expect_seq "e1000_tx_queue (adapter=0xa8" "3010		tx_desc->lower.data |= cpu_to_le32(adapter->txd_cmd);" \
    "#0  e1000_tx_queue (adapter=0xa8" "#1  e1000_xmit_frame (skb=" \
    "tx_desc = 0xa8" "i = 1"
# the descriptor of the 60-byte ARP request: lengths are little-endian
# (0x3c00 is 60 read by the big-endian CPU), the FCS insertion command set
expect_re "^\\\$1 = \{buffer_addr = [0-9]+, lower = \{data = [0-9]+, flags = \{length = 15360, cso = 0 '\\\\000', cmd = 2 '\\\\002'\}\}, upper = \{data = 0, fields = \{status = 0 '\\\\000', css = 0 '\\\\000', special = 0\}\}\}$"
expect "\$2 = 0x3c00"
expect "\$3 = 0"
expect_seq "type = struct e1000_tx_desc {" "    __le64 buffer_addr;" "    union {" \
    "        __le32 data;" "            __le16 length;" "    } lower;" "} *"
expect "Run till exit from #0  e1000_tx_queue (adapter=0xa8"
expect_re "^e1000_xmit_frame \(skb=.*\) at e1000_main\.c:[0-9]+$"
# the NIC's view of the same descriptor
expect_re "^ >T   0 0xa1[0-9a-f]+ host   60     0xa1[0-9a-f]+ EOP\|IFCS\|RS\|IDE$"
# init is running: the kernel's enum system_states by its enumerators
expect_seq "\$4 = SYSTEM_RUNNING" "\$5 = 3" "\$6 = 1" "\$7 = SYSTEM_FREEING_INITMEM"
finish
