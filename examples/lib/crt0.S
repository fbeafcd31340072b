/* Start-up code for the bare-metal IP27 examples: the synthetic PROM
 * enters here with a0 = argc, a1 = argv and Status.KX set.  Set up a stack
 * in cached memory, clear .bss, call main(argc, argv), then reset the
 * machine through the HUB. */
	.set	noreorder
	.section .text.start, "ax"
	.globl	_start
	.ent	_start
_start:
	move	$s0, $a0
	move	$s1, $a1
	dla	$sp, boot_stack_top
	dla	$t0, __bss_start
	dla	$t1, __bss_end
1:	beq	$t0, $t1, 2f
	nop
	sd	$zero, 0($t0)
	b	1b
	daddiu	$t0, $t0, 8
2:	move	$a0, $s0
	jal	main
	move	$a1, $s1
	jal	machine_reset
	nop
	.end	_start

/* The general exception vector is copied from here to 0xffffffff80000180
 * (irq.c): it jumps to exc_entry wherever the program is linked. */
	.globl	exc_vector, exc_vector_end
exc_vector:
	dla	$k0, exc_entry
	jr	$k0
	nop
exc_vector_end:

/* Save the caller-saved registers, call exc_dispatch(frame), restore,
 * return from the exception.  Runs on the interrupted stack (kernel mode
 * only: there is no user mode in these examples). */
#define FRAME 0x100
	.globl	exc_entry
	.ent	exc_entry
exc_entry:
	.set	noat
	daddiu	$sp, $sp, -FRAME
	sd	$1, 0x08($sp)
	sd	$v0, 0x10($sp)
	sd	$v1, 0x18($sp)
	sd	$a0, 0x20($sp)
	sd	$a1, 0x28($sp)
	sd	$a2, 0x30($sp)
	sd	$a3, 0x38($sp)
	sd	$a4, 0x40($sp)
	sd	$a5, 0x48($sp)
	sd	$a6, 0x50($sp)
	sd	$a7, 0x58($sp)
	sd	$t0, 0x60($sp)
	sd	$t1, 0x68($sp)
	sd	$t2, 0x70($sp)
	sd	$t3, 0x78($sp)
	sd	$t8, 0x80($sp)
	sd	$t9, 0x88($sp)
	sd	$ra, 0x90($sp)
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
	.end	exc_entry

	.bss
	.align	4
	.space	0x10000
boot_stack_top:
