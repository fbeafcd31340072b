/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Entry of a torture test: stack, clear .bss, main(), exit(). */
    .set noreorder
    .section .text.start, "ax"
    .globl _start
    .ent _start
_start:
    dla     $sp, __stack_top
    dla     $t0, __bss_start
    dla     $t1, __bss_end
1:  beq     $t0, $t1, 2f
    nop
    sd      $zero, 0($t0)
    b       1b
    daddiu  $t0, $t0, 8
2:  move    $a0, $zero
    jal     main
    move    $a1, $zero
    jal     exit
    move    $a0, $v0
    .end _start
