/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The R10000 FPU (CP1): every MIPS IV single, double, word and long
 * operation, IEEE-correct bit for bit, with FCSR rounding modes, flags,
 * enables, cause and the unimplemented-operation exception.
 *
 * The CPU core owns the coprocessor-usable check, the FP loads and stores
 * (LWC1, LDC1, LWXC1, ...), BC1T/BC1F and MOVF/MOVT on GPRs; it calls
 * fpu_exec() for every other COP1 and COP1X instruction. */
#ifndef XBOW_FPU_H
#define XBOW_FPU_H

#include "core/common.h"

typedef struct fpu_state {
    uint64_t fpr[32]; /* raw registers; with FR=0 only the low 32 bits of
                          each are used and a double lives in an even/odd pair */
    uint32_t fcsr;
    uint32_t fir; /* FCR0: implementation/revision (R10000: 0x0900) */
} fpu_state;

enum fpu_result {
    FPU_OK = 0,
    FPU_EXC_FPE, /* floating-point exception: FCSR cause bits say which */
    FPU_EXC_RI,  /* not an FPU instruction: reserved instruction */
};

/* FCSR bits */
#define FCSR_RM 0x3u
#define FCSR_FLAGS_SHIFT 2
#define FCSR_ENABLES_SHIFT 7
#define FCSR_CAUSE_SHIFT 12
#define FCSR_UNIMPL 0x20000u /* cause E */
#define FCSR_FS 0x01000000u  /* flush to zero */
/* Condition code n: bit 23 for cc 0, bits 25..31 for cc 1..7. */
static inline unsigned fcsr_cc_bit(unsigned cc) { return cc == 0 ? 23 : 24 + cc; }

void fpu_reset(fpu_state *f);
/* Execute one COP1 (opcode 0x11) or COP1X (opcode 0x13, excluding the
 * indexed loads/stores) instruction.  `fr` is Status.FR.  gpr is the CPU's
 * register file for MFC1/MTC1/DMFC1/DMTC1/CFC1/CTC1 (gpr[0] is kept 0 by the
 * caller). */
int fpu_exec(fpu_state *f, uint32_t insn, bool fr, uint64_t *gpr);

/* Register access honouring FR: single (32-bit) and double (64-bit) views. */
uint32_t fpu_get_w(const fpu_state *f, unsigned r, bool fr);
void fpu_set_w(fpu_state *f, unsigned r, bool fr, uint32_t v);
uint64_t fpu_get_d(const fpu_state *f, unsigned r, bool fr);
void fpu_set_d(fpu_state *f, unsigned r, bool fr, uint64_t v);
bool fpu_cc(const fpu_state *f, unsigned cc);

#endif
