/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handlers and tables here are macros laid out by hand: */
/* clang-format off */
/* The interpreter's handlers for exceptions on purpose (reserved
 * instructions, SYSCALL, BREAK, the traps), CP0, the TLB, CACHE, and the
 * coprocessors 1 (the FPU's own operations) and 2.
 *
 * Not a header: exec.c includes it inside cpu_interp().  The CP0 and TLB
 * instructions can change the mode, the soft TLB or what interrupt is
 * pending: they end in done_reload, which reloads everything the loop keeps
 * in locals. */

/* Traps: compare rs with rt or with the immediate. */
#define TRAP(n, b)                                      \
    OP(n) {                                             \
        if (insn_trap(OP_##n, R[d->rs], (b)))           \
            EXC(EXC_TR);                                \
        NEXT();                                         \
    }
#define TRAP_R(n) TRAP(n, R[d->rt])
#define TRAP_I(n) TRAP(n, (uint64_t)(int64_t)d->imm)

OP(RI) EXC(EXC_RI);
OP(SYSCALL) EXC(EXC_SYS);
OP(BREAK) EXC(EXC_BP);
TRAP_R(TGE) TRAP_R(TGEU) TRAP_R(TLT) TRAP_R(TLTU) TRAP_R(TEQ) TRAP_R(TNE)
TRAP_I(TGEI) TRAP_I(TGEIU) TRAP_I(TLTI) TRAP_I(TLTIU) TRAP_I(TEQI) TRAP_I(TNEI)

/* CP0 moves: register in sa, select in imm. */
OP(MFC0)
    NEED_CU0();
    SYNC();
    R[d->rd] = insn_mfc0(c, OP_MFC0, d->sa, (unsigned)d->imm);
    SLOW_DONE();
OP(DMFC0)
    NEED_CU0();
    CHK64();
    SYNC();
    R[d->rd] = insn_mfc0(c, OP_DMFC0, d->sa, (unsigned)d->imm);
    SLOW_DONE();
OP(MTC0)
    NEED_CU0();
    SYNC();
    insn_mtc0(c, OP_MTC0, d->sa, (unsigned)d->imm, R[d->rt]);
    goto done_reload;
OP(DMTC0)
    NEED_CU0();
    CHK64();
    SYNC();
    insn_mtc0(c, OP_DMTC0, d->sa, (unsigned)d->imm, R[d->rt]);
    goto done_reload;

OP(TLBR) NEED_CU0(); SYNC(); insn_tlb(c, OP_TLBR); goto done_reload;
OP(TLBWI) NEED_CU0(); SYNC(); insn_tlb(c, OP_TLBWI); goto done_reload;
OP(TLBWR) NEED_CU0(); SYNC(); insn_tlb(c, OP_TLBWR); goto done_reload;
OP(TLBP) NEED_CU0(); SYNC(); insn_tlb(c, OP_TLBP); goto done_reload;
OP(ERET) NEED_CU0(); SYNC(); cpu_eret(c); c->dly = false; goto reload;

OP(CACHE) NEED_CU0(); insn_cache(c, d->rt); NEXT();

/* Every other COP1 and COP1X instruction is the FPU's (fpu.c). */
#define COP1_EXEC()                                     \
    do {                                                \
        SYNC();                                         \
        int e_ = insn_cop1(c, d->raw);                  \
        if (e_)                                         \
            EXC(e_);                                    \
        NEXT();                                         \
    } while (0)
OP(COP1) NEED_CU1(); COP1_EXEC();
OP(COP1X) NEED_CU1(); CHK4(); COP1_EXEC();
OP(COP2) /* no coprocessor 2 */
    if (!(c->status & ST_CU2))
        EXC_CE(2);
    EXC(EXC_RI);

#undef TRAP
#undef TRAP_R
#undef TRAP_I
#undef COP1_EXEC
