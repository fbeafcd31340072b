#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Call frames as a gdb user walks them: frame, up, down and info frame on
# the test guest's main -> outer -> middle -> leaf; in a selected outer
# frame $pc, $sp, $ra and the saved s-registers have that frame's values
# (x, print, info registers, disassemble and finish follow it), and what is
# not known there says so.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# These are the prologue heuristic's frames: the test guest without its
# debug information (frames with the DWARF and its CFI: dbg_source.sh).
OBJCOPY=${GUEST_CC:-mips64-linux-gnuabi64-gcc}
OBJCOPY=${OBJCOPY%gcc}objcopy
command -v "$OBJCOPY" >/dev/null 2>&1 || { echo "SKIP: $OBJCOPY is not installed"; exit 77; }
"$OBJCOPY" --strip-debug "$GUEST" "$TMP/dbgtest.elf" || exit 1
GUEST=$TMP/dbgtest.elf

# At the first leaf(0): #0 leaf, #1 middle+0x10, #2 outer+0x24, #3 main,
# #4 _start+0x70.  leaf has no frame (sp as in middle), middle and outer
# take 16 bytes each, main 48 and saves s0-s4 and ra in its prologue.
ex_script walk <<'X'
break leaf
run
set $sp0 = $sp
frame
up
print $pc == middle + 0x10
print $ra == $pc
print $sp == $sp0
print $a0
info registers a0
info registers
disassemble
up
print $sp == $sp0 + 0x10
x/2i $pc
frame 3
set $main_sp = $sp
print $sp == $sp0 + 0x20
print $s4
info frame
frame 4
print $s1 == *(u64 *)($main_sp + 8)
print $s4 == *(u64 *)($main_sp + 0x20)
print $sp == $main_sp + 48
set $s1 = 0x1234
frame 3
x/gx $sp + 8
up
up
down 3
down
down
frame 9
frame level 1
set $a0 = 5
X
expect_rc 1
expect_seq "Breakpoint 1, leaf" " in leaf+0x0 (sp 0x" \
    " in middle+0x10 (sp 0x" "<middle+0x10>:" \
    '$1 = 1' '$2 = 1' '$3 = 1' \
    '$a0 is not saved in frame #1: a caller-saved register is lost once a callee runs' \
    "a0             <not saved>" \
    "Registers of frame #1 (<not saved>: caller-saved, lost when a callee ran):" \
    "a0   <not saved>" "Status " \
    "Dump of assembler code for function middle:" "=> 0x" \
    "#2  0x" '$4 = 1' "#3  0x" '$5 = 1' '$6 = 3' \
    "Stack level 3, frame at 0x" \
    " caller of frame #2 (sp 0x" "Saved registers: s0 at 0x" \
    " Known in this frame: pc s0 s1 s2 s3 s4 s5 s6 s7 gp sp s8 ra" \
    " Not known (caller-saved, lost when a callee ran): at v0 v1 a0 a1" \
    "#4  0x" '$7 = 1' '$8 = 1' '$9 = 1' \
    "#4  0x" "Already in the outermost frame #4: no caller found above it." \
    "#1  0x" "#0  0x" "Already in the innermost frame #0: nothing to go down to." \
    'No frame at level 9 (the stack has 5: see "backtrace").' \
    " in middle+0x10 (sp 0x" "Cannot set this register in frame #1"
expect_re "^=> 0x[0-9a-f]{16} <\+16>:"
expect_re "^=> 0x[0-9a-f]{16} <outer\+0x24>:"
expect_re "^#2  0x[0-9a-f]{16} in outer\+0x24 \(sp 0x"
expect_re "^#3  0x[0-9a-f]{16} in main\+0x"
expect_re "^ pc = 0x[0-9a-f]{16} in main\+0x[0-9a-f]+; saved pc = 0x[0-9a-f]{16} \(_start\+0x70,"
expect_re "^Stack level 3, frame at 0x[0-9a-f]+ \(its sp 0x[0-9a-f]+ \+ 48 bytes it allocated\):"
expect_re "^ Saved registers: s0 at 0x[0-9a-f]+, s1 at 0x[0-9a-f]+, s2 .*, ra at 0x[0-9a-f]+$"
expect_re "^0x[0-9a-f]{16} .*:	0x0000000000001234$"

# finish from a selected frame runs until that frame returns; a stop
# selects frame 0 again.
script finish <<'X'
break leaf
run
disable 1
up
finish
print $pc == outer + 0x24
up
continue 100
print $pc == outer + 0x24
X
expect_rc 0
expect_seq "Run till exit from #1  0x" "<outer+0x24>:" "Value returned is \$1 = 5" \
    '$2 = 1' "#1  0x" '$3 = 0'
expect_re "^Run till exit from #1  0x[0-9a-f]{16} in middle\+0x10$"
expect_re "^#1  0x[0-9a-f]{16} in main\+0x"
finish
