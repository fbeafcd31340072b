#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Machine state: print and the expression language, set, x/xp in every
# format, registers, disassemble, symbols and symbol files, devices, cpu.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script exprs <<'X'
print 6 * 7
print $ + 1
print/x 255
print/t 10
print -7 / 2
print (u8)0x1ff
print 1 ? 2 : 3
break outer
run
print $a0
print/x $ra
print counter
print message
print &message
print *(char *)message
print *(u8 *)(message + 1)
print/c *(u8 *)message
output $a0 + 1
echo \n
print hub.PI_RT_EN_A
print/x bridge.WID_CONTROL
X
expect_rc 0
expect_seq "\$1 = 42" "\$2 = 43" "\$3 = 0xff" "\$4 = 1010" "\$5 = -3" "\$6 = 255" "\$7 = 2"
expect "Breakpoint 1, outer"
expect "\$8 = 4"
expect_re "^\\\$9 = 0xa8[0-9a-f]+$"
# (the guest has debug information: C variables have their types)
expect "\$10 = 0"
expect "\$11 = \"hello, debugger\", '\\000' <repeats 16 times>"
expect_re "^\\\$12 = \\(char \\(\\*\\)\\[32\\]\\) 0xa8[0-9a-f]+ <message>$"
expect "\$13 = 104"
expect "\$14 = 101"
expect "\$15 = 104 'h'"
expect "5"
expect_re "^\\\$16 = 0x0*1  \\[|^\\\$16 = 0x0*1$"

script setting <<'X'
break main
run
set *(u8 *)message = 'J'
set var $n = 2
set $n = $n * 21
print $n
x/s message
break outer
continue
set $a0 = 3
finish
set var counter = 40
x/1dw counter
print/x $sp
X
expect_rc 0
expect "\$1 = 42"
expect_re "<message>:	\"Jello, debugger\""
expect "dbgtest: Jello, debugger"
# outer(3) = middle(0) + middle(1) + middle(2) = 5 + 11 + 17
expect "Value returned is \$2 = 33"
expect_re "<counter>:	40$"

script examine <<'X'
break main
run
x/4xb message
x/2xh message
x/1xw message
x/1xg message
x/3dw table
x/2i leaf
x/a $sp
x/s message
x
xp/4xb message & 0xffffffffff
x/4cb message
x/2tb message
x/2ub message
x/1ob message
x/1fw message
X
expect_rc 0
expect_re "<message>:	0x68	0x65	0x6c	0x6c$"
expect_re "<message>:	0x6865	0x6c6c$"
expect_re "<message>:	0x68656c6c$"
expect_re "<message>:	0x68656c6c6f2c2064$"
expect_re "<table>:	0	0	0$"
expect_re "^   0x[0-9a-f]+ <leaf>:	"
expect_re "^   0x[0-9a-f]+ <leaf\+0x4>:	"
expect_re "<message>:	\"hello, debugger\"$"
expect_re "^p:0x[0-9a-f]+:	0x68	0x65	0x6c	0x6c$"
expect_re "<message>:	104 'h'	101 'e'	108 'l'	108 'l'$"
expect_re "<message>:	01101000	01100101$"
expect_re "<message>:	104	101$"
expect_re "<message>:	0150$"

script regs <<'X'
break leaf
run
info registers
info registers a0 ra status cause
info all-registers
info fpu
info tlb
info cpus
cpu
cpu 0
disassemble
disassemble leaf
disassemble /r leaf,+8
disassemble main,main+8
X
expect_rc 0
expect_re "^pc   [0-9a-f]{16}"
expect_re "^status         0x[0-9a-f]+  [0-9]+  0x[0-9a-f]+ <.*KX"
expect_re "^cause          0x"
expect "fcsr"
expect "Index"
expect_re "^\* 0    0x[0-9a-f]+ leaf "
expect "[Current CPU is cpu0]"
expect "Dump of assembler code for function leaf:"
expect_re "^=> 0x[0-9a-f]+ <\+0>:	dsll"
expect_re "^   0x[0-9a-f]+ <leaf\+0x4>:	[0-9a-f]{2} [0-9a-f]{2} [0-9a-f]{2} [0-9a-f]{2}	"
expect_count 4 "End of assembler dump."
expect_re "^   0x[0-9a-f]+ <main\+0x4>:	"

NM=${GUEST_CC:-mips64-linux-gnuabi64-gcc}
NM=${NM%gcc}nm
"$NM" "$GUEST" | grep ' [Tt] ' | sed 's/ leaf$/ leaf_again/' | grep leaf_again >"$TMP/extra.map"
echo "a800000000070000 T far_away" >>"$TMP/extra.map"
script symbols <<X
symbol-file $TMP/extra.map
info symbol leaf + 4
info symbol far_away + 16
info symbol 0x1234
info address outer
info functions ^(leaf|middle)
info variables ^count
break far_away
info breakpoints
X
expect_rc 0
expect "Reading symbols from $TMP/extra.map: 2 symbols."
expect_re "^leaf(_again)? \+ 4$"
expect "far_away + 16"
expect "No symbol matches 0x1234."
expect_re "^Symbol \"outer\" is a function at 0x[0-9a-f]+, [0-9]+ bytes.$"
expect_re "^0x[0-9a-f]+  leaf$"
expect_re "^0x[0-9a-f]+  middle$"
expect_re "^0x[0-9a-f]+  counter$"
expect "<far_away>"

script devices <<'X'
info devices
info device hub PI_RT_EN_A
info device bridge windows
info events hub.*
info bridge
info pci
info dma
info irq
X
expect_rc 0
expect_re "^  hub +hub "
expect_re "^  bridge +bridge "
expect "hub.PI_RT_EN_A @0x"
expect "hub.reg.write"
expect "slot 2: ioc3"
expect "hub (HUB PI) levels pending:"
expect "bridge pins (INT_STATUS"
expect_re "^cpu0: Cause.IP 0x"
finish
