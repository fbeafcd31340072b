#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger on the example NIC drivers.
#
# Who wrote a NIC's register: the example drivers program each NIC through
# the Bridge's PIO windows, so `break reg` and `break event NIC.reg.write`
# must name the CPU and the store that did it, never "by debugger" (which
# only a `set` from the command line is).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
EX=$top_builddir/examples

# nic NAME MODEL ELF REG: a register breakpoint and an event breakpoint on
# the first guest write of REG; both stop in the driver, by cpu0.
nic() {
    n=$1 model=$2 GUEST=$EX/$3 reg=$4
    if [ ! -f "$GUEST" ]; then
        echo "SKIP: $GUEST is not built"
        return
    fi
    script "$n" --nic "$model" --net sink <<X
break reg $n.$reg
run
delete
break event $n.reg.write
continue
delete
set $n.$reg = 0
X
    expect_rc 0
    at="by cpu0 at 0xa8[0-9a-f]+ <[a-z_0-9]+\+0x[0-9a-f]+>\)"
    expect_re "^Register breakpoint 1: $n\.$reg 0x[0-9a-f]+ -> 0x[0-9a-f]+ \(t=[1-9][0-9]*, .*, $at"
    expect_re "^Event breakpoint 2: $n\.reg\.write reg=[A-Za-z0-9_]+ .*, $at"
    expect_not "by debugger"
}

nic hamachi0 hamachi hamachi/hamachi.elf InterruptEnable
nic e1000_0 e1000-82544 e1000/tx.elf IMC
nic tigon0 tigon2 tigon/tigon_tx.elf MaskInt

# The debugger's own write is still the debugger's.
GUEST=$EX/hamachi/hamachi.elf
if [ -f "$GUEST" ]; then
    script debugger --nic hamachi --net sink <<'X'
break reg hamachi0.InterruptEnable
set hamachi0.InterruptEnable = 0x81
X
    expect_rc 0
    expect_re "^Register breakpoint 1: hamachi0\.InterruptEnable 0x0 -> 0x81 \(t=0, .*, by debugger\)"
fi
# A DMA watchpoint on a driver's ring, by symbol (an XKPHYS address: the
# physical address behind it): the device's write of Rx descriptor 1.
if [ -f "$GUEST" ]; then
    script ring --nic hamachi --net 'gen:size=200,rate=10000,count=20,start=tx' \
        --append 'rx 20' <<'X'
watch dma hamachi0 rx_ring+16,16 write
continue
X
    expect_rc 0
    expect_re "^DMA watchpoint 1: dma by hamachi0 write p:0x[0-9a-f]{10}, 16 bytes"
    expect_re "^DMA watchpoint 1: hamachi0 wrote 4 bytes at p:0x[0-9a-f]{10} \(word\)"
    expect "for: rx-desc, ring 1, descriptor 1"
fi
finish
