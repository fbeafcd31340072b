#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# C types from the debug information in expressions, on the Hamachi example
# driver (examples/hamachi, built with -g): a descriptor pointer in $a0 cast
# to the driver's struct, struct members through pointers and arrays,
# casts to named types, gdb's {TYPE} ADDR, sizeof, &, pointer arithmetic
# by element, assignment to a C variable, ptype and whatis, x with a typed
# address; device registers keep working beside them.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GUEST="$top_builddir/examples/hamachi/hamachi.elf"
if [ ! -f "$GUEST" ]; then
    echo "SKIP: the Hamachi example is not built ($GUEST)"
    exit 77
fi

# fill_tx_desc(desc, buf, st) hands the first Tx descriptor to the NIC.
script typed --nic hamachi --append "tx 3" <<'X'
break fill_tx_desc
continue
print *(struct hamachi_desc *)$a0
print desc
print *desc
print desc->status
print/x st
whatis desc
ptype desc
whatis tx_ring
whatis tx_ring[1]
print &tx_ring[1]
print &tx_ring[1] - &tx_ring[0]
print (char *)&tx_ring[1] - (char *)tx_ring
print sizeof(struct hamachi_desc)
print sizeof tx_ring / sizeof tx_ring[0]
print {struct hamachi_desc} desc
print ((struct hamachi_desc *)$a0)->addr
print (unsigned long)desc == (unsigned long)&tx_ring[0]
finish
print/x tx_ring[0]
print/x tx_ring[0].status
print tx_ring[0].addr != 0
print tx_ring[1]
x/4xw &tx_ring[0]
x/2xg tx_ring
print/x mac
set var txdone_irqs = 7
print txdone_irqs
print txdone_irqs + 1
whatis cur_tx
ptype hamachi_open
whatis hamachi_interrupt
print/x hamachi0.InterruptEnable
x/4xw desc
X
expect_rc 1
expect_re "^Breakpoint 1, fill_tx_desc \\(desc=0xa8[0-9a-f]+ <tx_ring>, buf=[0-9]+, st=3489661952\\) at hamachi\\.c:[0-9]+$"
expect "\$1 = {status = 0, pad = 0, addr = 0}"
expect_re "^\\\$2 = \\(struct hamachi_desc \\*\\) 0xa8[0-9a-f]+ <tx_ring>$"
expect "\$3 = {status = 0, pad = 0, addr = 0}"
expect "\$4 = 0"
# DescOwn | DescEndPacket | DescIntr | 1024
expect "\$5 = 0xd0000400"
expect "type = struct hamachi_desc *"
expect_seq "type = struct hamachi_desc {" "    u32 status;" "    u32 pad;" "    u64 addr;" "} *"
expect "type = struct hamachi_desc [64]"
expect "type = struct hamachi_desc"
expect_re "^\\\$6 = \\(struct hamachi_desc \\*\\) 0xa8[0-9a-f]+ <tx_ring\\+16>$"
expect_seq "\$7 = 1" "\$8 = 16" "\$9 = 16" "\$10 = 64" \
    "\$11 = {status = 0, pad = 0, addr = 0}" "\$12 = 0" "\$13 = 1"
# after the barrier: the status the CPU wrote, little-endian (0x000400d0
# when the big-endian CPU reads it back), the NIC's byte order for the address
expect_seq "Run till exit from #0  fill_tx_desc (" "start_xmit (" \
    "\$14 = {status = 0x400d0, pad = 0x0, addr = 0x" "\$15 = 0x400d0" "\$16 = 1" \
    "\$17 = {status = 0, pad = 0, addr = 0}"
expect_re "^0xa8[0-9a-f]+ <tx_ring>:	0x000400d0	0x00000000	0x[0-9a-f]{8}	0x[0-9a-f]{8}$"
expect_re "^0xa8[0-9a-f]+ <tx_ring>:	0x000400d000000000	0x[0-9a-f]{16}$"
# the MAC the driver read from the EEPROM: 02:58:42 and the command line's hash
expect_re "^\\\$18 = \\{0x2, 0x58, 0x42, 0x[0-9a-f]{1,2}, 0x[0-9a-f]{1,2}, 0x[0-9a-f]{1,2}\\}$"
expect_seq "\$19 = 7" "\$20 = 8" \
    "type = volatile unsigned int" "type = int (int, u32)" "type = void (int, void *)"
# a device register beside the C variables, with its fields
expect_re "^\\\$21 = 0x80878787  \\[RxDone=1 "
# desc is gone after finish: x says so
expect "No symbol \"desc\" in current context."

# Inlined functions: fill_tx_desc starts with the inlined dma_addr(); the
# breakpoint shows fill_tx_desc at the line of the call, step enters the
# inlined function (a frame of its own in bt), finish leaves it, and next
# stops at the lines that call the inlined wmb() and le32() and steps over
# them and the call of le64().
script inlined --nic hamachi --append "tx 3" <<'X'
break fill_tx_desc
continue
bt 1
step
bt 2
info args
finish
next
next
next
X
expect_rc 0
expect_seq "Breakpoint 1, fill_tx_desc (desc=0xa8" "119	    desc->addr = le64(dma_addr((const void *)buf));" \
    "#0  fill_tx_desc (desc=0xa8" \
    "dma_addr (p=<optimized out>) at hamachi.c:80" \
    "#0  dma_addr (p=<optimized out>) at hamachi.c:80" "#1  fill_tx_desc (desc=0xa8" \
    "p = <optimized out>" \
    "Run till exit from #0  dma_addr (p=<optimized out>) at hamachi.c:80" \
    "fill_tx_desc (desc=0xa8" \
    "120	    wmb();" "121	    desc->status = le32(st);" \
    "start_xmit (len=" "136	    cur_tx++;"
expect_not "le64 (v="
expect_not "le32 (v="

# Frames of inlined functions count as bt counts them: up from the inlined
# dma_addr() is fill_tx_desc (the same pc, its arguments), up again
# start_xmit and its locals; finish from the selected fill_tx_desc
# returns to start_xmit.
script inlinedframes --nic hamachi --append "tx 3" <<'X'
break fill_tx_desc
continue
step
up
print st
info frame
up
info locals
down 2
frame 1
finish
X
expect_rc 0
expect_seq "dma_addr (p=<optimized out>) at hamachi.c:80" \
    "#1  fill_tx_desc (desc=0xa8" "119	    desc->addr = le64(dma_addr((const void *)buf));" \
    "\$1 = 3489661952" "Stack level 1, frame at 0xa8" " in fill_tx_desc (hamachi.c:119); saved pc = 0xa8" \
    ", args: desc=0xa8" "#2  0x" "135	    fill_tx_desc(&tx_ring[entry], (u64)tx_buf[entry], st);" \
    "entry = 0" "#0  dma_addr (p=<optimized out>) at hamachi.c:80" "#1  fill_tx_desc (desc=0xa8" \
    "Run till exit from #1  fill_tx_desc (desc=0xa8" "start_xmit (len=" "136	    cur_tx++;"
expect_re "^#2  0x[0-9a-f]{16} in start_xmit \(len="

# Wrong uses of C values get gdb's messages; the next command still runs.
ex_script typeerrs --nic hamachi --append 'tx 3' <<'EOF'
break fill_tx_desc
continue
print desc->nosuch
print *txdone_irqs
print tx_ring.status
print (struct hamachi_desc)desc
print (struct nosuch *)desc
print sizeof(struct nosuch)
print &st
print desc + desc
print $a0->status
whatis struct nosuch
print 1
EOF
expect_rc 1
expect "There is no member named nosuch."
expect "Attempt to take contents of a non-pointer value."
expect "Attempt to extract a component of a value that is not a structure (struct hamachi_desc [64])."
expect "Invalid cast to struct hamachi_desc (for the object at an address: *(struct hamachi_desc *)ADDR or {struct hamachi_desc} ADDR)."
expect "No struct type named nosuch."
expect "Attempt to take address of value not located in memory."
expect "Cannot add two pointers."
expect "The -> operator needs a C struct or a pointer to one: cast the address, as in ((struct NAME *)ADDR)->status."
expect_count 3 "No struct type named nosuch."
expect "\$1 = 1"

# Enumerators of the driver's anonymous enum (its register offsets) and of
# xbow.h's by name, as gdb shows them; a device register of the same name
# stays the register; an enumerator is no place to assign; unknown names
# and conditions with them are refused.
xbow_run enums --nic hamachi --append "tx 3" -ex "break fill_tx_desc" -ex continue \
    -ex "print TxCmd" -ex "print/d TxCmd" -ex "print/x InterruptEnable" \
    -ex "print TxCmd < RxCmd" -ex "print RxCmd - TxCmd" -ex "print UART_LCR" \
    -ex "print (regs + InterruptEnable) - regs" -ex "print hamachi0.InterruptEnable" \
    -ex "print \$e = TxStatus" -ex "print/d \$e * 2" -ex "whatis RxCmd" \
    -ex "set var TxCmd = 3" -ex "print NoSuchEnumerator" -ex "print TxCmd + NoSuchEnumerator" \
    -ex "break start_xmit if NoSuchEnumerator == 4" -ex "break start_xmit if TxCmd == 4" \
    -ex continue -ex "print 1"
expect_rc 1
expect "\$1 = TxCmd"
expect "\$2 = 4"
expect "\$3 = 0x80"
expect "\$4 = 1"
expect "\$5 = 32"
expect "\$6 = UART_LCR"
expect "\$7 = 128"
expect_re "^\\\$8 = 0x[0-9a-f]{8}  \\[RxDone="
expect "\$9 = TxStatus"
expect "\$10 = 12"
expect_re "^type = enum \\{TxDMACtrl, TxCmd = 4, TxStatus = 6, .*, RxCmd = 36, .*, EEAddr\\}$"
expect "TxCmd is an enumerator: a constant, not a place to assign"
expect_count 3 "No symbol \"NoSuchEnumerator\" in current context."
expect_seq "Breakpoint 2 at 0xa8" "Breakpoint 2, start_xmit (" "\$11 = 1"

finish
