/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Start-up code for the bare-metal IP27 examples: the synthetic PROM
 * enters here with a0 = argc, a1 = argv and Status.KX set.  Set up a stack
 * in cached memory, clear .bss, call main(argc, argv), then reset the
 * machine through the HUB (the loop that clears .bss: clear_bss.h).
 * Call-frame information (in .debug_frame, with the C code's) lets a
 * debugger unwind: _start is the outermost frame, and exc_entry is an
 * exception frame (.cfi_signal_frame) that says where the interrupted
 * code's registers and pc (EPC) are, the way Linux's handlers do. */
#include "clear_bss.h"
	.cfi_sections .debug_frame
	.set	noreorder
	.section .text.start, "ax"
	.globl	_start
	.ent	_start
_start:
	.cfi_startproc
	.cfi_undefined $ra
	move	$s0, $a0
	move	$s1, $a1
	dla	$sp, boot_stack_top
	clear_bss
	move	$a0, $s0
	jal	main
	move	$a1, $s1
	jal	machine_reset
	nop
	.cfi_endproc
	.end	_start

/* The general exception vector is copied from here to 0xffffffff80000180
 * (irq.c): it jumps to exc_entry wherever the program is linked. */
	.globl	exc_vector, exc_vector_end
exc_vector:
	dla	$k0, exc_entry
	jr	$k0
	nop
exc_vector_end:

/* Save the caller-saved registers and EPC, call exc_dispatch(frame),
 * restore, return from the exception.  Runs on the interrupted stack
 * (kernel mode only: there is no user mode in these examples).  The CFA is
 * the interrupted $sp; the return-address column is EPC, saved at 0xa8
 * (the interrupted $ra's slot is given first, so a debugger that knows the
 * convention finds it too). */
#define FRAME 0x100
#define SAVE(reg, off) sd reg, off($sp); .cfi_rel_offset reg, off
	.globl	exc_entry
	.ent	exc_entry
exc_entry:
	.cfi_startproc
	.cfi_signal_frame
	.cfi_undefined $ra	/* until EPC is saved */
	.set	noat
	daddiu	$sp, $sp, -FRAME
	.cfi_adjust_cfa_offset FRAME
	SAVE($1, 0x08)
	SAVE($v0, 0x10)
	SAVE($v1, 0x18)
	SAVE($a0, 0x20)
	SAVE($a1, 0x28)
	SAVE($a2, 0x30)
	SAVE($a3, 0x38)
	SAVE($a4, 0x40)
	SAVE($a5, 0x48)
	SAVE($a6, 0x50)
	SAVE($a7, 0x58)
	SAVE($t0, 0x60)
	SAVE($t1, 0x68)
	SAVE($t2, 0x70)
	SAVE($t3, 0x78)
	SAVE($t8, 0x80)
	SAVE($t9, 0x88)
	SAVE($ra, 0x90)
	dmfc0	$k0, $14
	sd	$k0, 0xa8($sp)
	.cfi_rel_offset $ra, 0xa8	/* the pc the exception interrupted */
	mfhi	$t0
	sd	$t0, 0x98($sp)
	mflo	$t0
	sd	$t0, 0xa0($sp)
	jal	exc_dispatch
	move	$a0, $sp
	ld	$t0, 0x98($sp)
	mthi	$t0
	ld	$t0, 0xa0($sp)
	mtlo	$t0
	ld	$1, 0x08($sp)
	ld	$v0, 0x10($sp)
	ld	$v1, 0x18($sp)
	ld	$a0, 0x20($sp)
	ld	$a1, 0x28($sp)
	ld	$a2, 0x30($sp)
	ld	$a3, 0x38($sp)
	ld	$a4, 0x40($sp)
	ld	$a5, 0x48($sp)
	ld	$a6, 0x50($sp)
	ld	$a7, 0x58($sp)
	ld	$t0, 0x60($sp)
	ld	$t1, 0x68($sp)
	ld	$t2, 0x70($sp)
	ld	$t3, 0x78($sp)
	ld	$t8, 0x80($sp)
	ld	$t9, 0x88($sp)
	ld	$ra, 0x90($sp)
	daddiu	$sp, $sp, FRAME
	eret
	.set	at
	.cfi_endproc
	.end	exc_entry

	.bss
	.align	4
	.space	0x10000
boot_stack_top:
