/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A minimal user PROM for --prom: every CPU starts here at the reset
 * vector (0xffffffffbfc00000) with BEV and ERL set.  Slice A gets a stack
 * in cached memory and runs prom_main(); any other CPU waits. */
	.set	noreorder
	.section .text.start, "ax"
	.globl	_start
_start:
	lui	$t0, 0x2440		/* Status: CU1 FR BEV KX, ERL/EXL clear */
	ori	$t0, $t0, 0x0080
	mtc0	$t0, $12
	nop
	nop
	dla	$t1, 0x9200000001000020	/* PI_CPU_NUM */
	ld	$t1, 0($t1)
	bnez	$t1, 1f
	nop
	dla	$sp, 0xa800000000100000	/* 1 MB into node memory */
	jal	prom_main
	nop
1:	b	1b
	nop
