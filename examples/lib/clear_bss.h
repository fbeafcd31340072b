/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start-up code's loop that zeroes .bss (__bss_start to __bss_end,
 * 8-byte words, as the linker scripts align it), for assembler sources
 * (.S): examples/lib/crt0.S, and the torture tests' and the benchmark
 * shim's start-up code.  Uses $t0 and $t1 and the local labels 1 and 2;
 * expects .set noreorder (the branches' delay slots are filled). */
#ifndef XBOW_GUEST_CLEAR_BSS_H
#define XBOW_GUEST_CLEAR_BSS_H

	.macro	clear_bss
	dla	$t0, __bss_start
	dla	$t1, __bss_end
1:	beq	$t0, $t1, 2f
	nop
	sd	$zero, 0($t0)
	b	1b
	daddiu	$t0, $t0, 8
2:
	.endm

#endif
