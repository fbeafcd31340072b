/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Start-up code of mix.c on QEMU's Malta and GXemul's testmips: a stack in
 * .bss, .bss cleared, main(), then the shim's bench_exit().  Linked in KSEG0
 * by shim.ld; 64-bit code (n64) in 32-bit compatibility addresses. */
#include "clear_bss.h"
	.set	noreorder
	.section .text.start, "ax"
	.globl	_start
	.ent	_start
_start:
	dla	$sp, shim_stack_top
	clear_bss
	jal	main
	nop
	jal	bench_exit
	nop
3:	b	3b
	nop
	.end	_start

	.bss
	.align	4
	.space	0x10000
shim_stack_top:
