/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Entry of a torture test: stack, clear .bss, main(), exit(). */
#include "clear_bss.h"
    .set noreorder
    .section .text.start, "ax"
    .globl _start
    .ent _start
_start:
    dla     $sp, __stack_top
    clear_bss
    move    $a0, $zero
    jal     main
    move    $a1, $zero
    jal     exit
    move    $a0, $v0
    .end _start
