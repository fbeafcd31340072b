/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Exception handlers of the CPU self-test (cpu_selftest.c), copied to the
 * R10000's vectors (Status.BEV = 0): XTLB refill at 0xffffffff80000080,
 * general exceptions at 0xffffffff80000180.  They use k0/k1 only and refer
 * to data by absolute address, so they run wherever they are copied.
 *
 * XTLB refill: maps the faulting 8 KB pair at `tlb_delta` bytes from its
 * virtual address (4 KB pages, cacheable, dirty, valid, global), with
 * TLBWR, and counts the refills.
 * General: records Cause, EPC, BadVAddr, Status and counts; then returns to
 * `user_return` if set (clearing it and Status.KSU: the end of a user-mode
 * test), else skips the faulting instruction (never in a delay slot here). */
    .set noreorder
    .set noat
    .set mips4

#define LA(r, sym) \
    lui r, %highest(sym); daddiu r, r, %higher(sym); dsll r, r, 16; \
    daddiu r, r, %hi(sym); dsll r, r, 16; daddiu r, r, %lo(sym)

    .section .text.vectors, "ax"
    .globl vec_xtlb, vec_xtlb_end, vec_general, vec_general_end

vec_xtlb:
    LA($27, exc_log)
    ld      $26, 40($27)            /* refills++ */
    daddiu  $26, $26, 1
    sd      $26, 40($27)
    ld      $27, 48($27)            /* tlb_delta */
    dmfc0   $26, $8                 /* BadVAddr */
    dsrl    $26, $26, 13
    dsll    $26, $26, 13            /* the even page of the pair */
    daddu   $26, $26, $27           /* its physical address */
    dsrl    $26, $26, 12
    dsll    $26, $26, 6             /* PFN */
    ori     $26, $26, 0x1f          /* C=3, D, V, G */
    dmtc0   $26, $2                 /* EntryLo0 */
    daddiu  $26, $26, 0x40          /* the next 4 KB page */
    dmtc0   $26, $3                 /* EntryLo1 */
    mtc0    $0, $5                  /* PageMask: 4 KB */
    nop
    tlbwr
    eret
vec_xtlb_end:

vec_general:
    LA($27, exc_log)
    mfc0    $26, $13
    sd      $26, 0($27)             /* Cause */
    dmfc0   $26, $14
    sd      $26, 8($27)             /* EPC */
    dmfc0   $26, $8
    sd      $26, 16($27)            /* BadVAddr */
    mfc0    $26, $12
    sd      $26, 56($27)            /* Status */
    ld      $26, 24($27)
    daddiu  $26, $26, 1
    sd      $26, 24($27)            /* count */
    ld      $26, 32($27)            /* user_return */
    beqz    $26, 1f
    nop
    sd      $0, 32($27)
    dmtc0   $26, $14                /* EPC = the kernel continuation */
    mfc0    $26, $12
    li      $27, ~0x18
    and     $26, $26, $27           /* KSU = kernel */
    mtc0    $26, $12
    nop
    eret
1:  dmfc0   $26, $14
    daddiu  $26, $26, 4
    dmtc0   $26, $14
    nop
    eret
vec_general_end:

/* The user-mode program, mapped at USER_VA: LUI/ORI a value, SYSCALL. */
    .section .text.user, "ax"
    .globl user_code, user_code_end
    .align 12
user_code:
    lui     $2, 0x1234
    ori     $2, $2, 0x5678
    daddiu  $3, $2, 1
    syscall
    b       .
    nop
user_code_end:
