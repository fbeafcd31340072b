#!/bin/sh
# Call frames as a gdb user walks them: frame, up, down and info frame on
# the test guest's main -> outer -> middle -> leaf; in a selected outer
# frame $pc, $sp, $ra and the saved s-registers have that frame's values
# (x, print, info registers, disassemble and finish follow it), and what is
# not known there says so.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# ex_script NAME <<EOF: the lines as -ex commands (each runs even after
# one failed, unlike a -x script in batch mode).
ex_script() {
    exname=$1
    shift
    set --
    while IFS= read -r line; do
        set -- "$@" -ex "$line"
    done
    xbow_run "$exname" "$@"
}

# At the first leaf(0): #0 leaf, #1 middle+0x10, #2 outer+0x24, #3 main+0x148,
# #4 _start+0x70 (main saved s0-s4 and ra in its prologue).
ex_script walk <<'X'
break leaf
run
frame
up
print $pc == middle + 0x10
print $ra == $pc
print $a0
info registers a0 sp
info registers
disassemble
up
x/2i $pc
frame 3
set $main_sp = $sp
print $s4
info frame
frame 4
print $s1 == *(u64 *)($main_sp + 8)
print $s4 == *(u64 *)($main_sp + 0x20)
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
expect_seq "Breakpoint 1, leaf" \
    "#0  0xa8000000000217b8 in leaf+0x0 (sp 0xa800000000031e50)" \
    "#1  0xa8000000000217d8 in middle+0x10 (sp 0xa800000000031e50)" \
    "0xa8000000000217d8 <middle+0x10>:" \
    '$1 = 1' '$2 = 1' \
    '$a0 is not saved in frame #1: a caller-saved register is lost once a callee runs' \
    "a0             <not saved>" \
    "sp             0xa800000000031e50" \
    "Registers of frame #1 (<not saved>: caller-saved, lost when a callee ran):" \
    "a0   <not saved>" \
    "ra   a8000000000217d8" \
    "Status " \
    "=> 0xa8000000000217d8 <+16>:" \
    "#2  0xa800000000021844 in outer+0x24 (sp 0xa800000000031e60)" \
    "=> 0xa800000000021844 <outer+0x24>:" \
    "#3  0xa8000000000219b8 in main+0x148 (sp 0xa800000000031e70)" \
    '$3 = 3' \
    "Stack level 3, frame at 0xa800000000031ea0 (its sp 0xa800000000031e70 + 48 bytes" \
    " pc = 0xa8000000000219b8 in main+0x148; saved pc = 0xa800000000020070 (_start+0x70," \
    " caller of frame #2 (sp 0xa800000000031e60); called by frame #4 (sp 0xa800000000031ea0)" \
    " Saved registers: s0 at 0xa800000000031e70, s1 at 0xa800000000031e78," \
    " Known in this frame: pc s0 s1 s2 s3 s4 s5 s6 s7 gp sp s8 ra" \
    " Not known (caller-saved, lost when a callee ran): at v0 v1 a0 a1" \
    "#4  0xa800000000020070 in _start+0x70" \
    '$4 = 1' '$5 = 1' \
    "0xa800000000031e78" "#4  0xa800000000020070 in _start+0x70" \
    "Already in the outermost frame #4: no caller found above it." \
    "#1  0xa8000000000217d8 in middle+0x10" \
    "#0  0xa8000000000217b8 in leaf+0x0" \
    "Already in the innermost frame #0: nothing to go down to." \
    'No frame at level 9 (the stack has 5: see "backtrace").' \
    "#1  0xa8000000000217d8 in middle+0x10" \
    "Cannot set this register in frame #1"
expect_re "^0xa800000000031e78 .*:	0x0000000000001234$"

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
expect_seq "Run till exit from #1  0xa8000000000217d8 in middle+0x10" \
    "0xa800000000021844 <outer+0x24>:" "Value returned is \$1 = 5" '$2 = 1' \
    "#1  0xa8000000000219b8 in main+0x148" '$3 = 0'
finish
