/* The interpreter's handlers for exceptions on purpose (reserved
 * instructions, SYSCALL, BREAK, the traps), CP0, the TLB, CACHE, and the
 * coprocessors 1 (the FPU's own operations) and 2.
 *
 * Not a header: exec.c includes it inside run_inner(). */

OP(RI) EXC(EXC_RI);
OP(SYSCALL) EXC(EXC_SYS);
OP(BREAK) EXC(EXC_BP);
OP(TGE) if ((int64_t)R[d->rs] >= (int64_t)R[d->rt]) EXC(EXC_TR); NEXT();
OP(TGEU) if (R[d->rs] >= R[d->rt]) EXC(EXC_TR); NEXT();
OP(TLT) if ((int64_t)R[d->rs] < (int64_t)R[d->rt]) EXC(EXC_TR); NEXT();
OP(TLTU) if (R[d->rs] < R[d->rt]) EXC(EXC_TR); NEXT();
OP(TEQ) if (R[d->rs] == R[d->rt]) EXC(EXC_TR); NEXT();
OP(TNE) if (R[d->rs] != R[d->rt]) EXC(EXC_TR); NEXT();
OP(TGEI) if ((int64_t)R[d->rs] >= d->imm) EXC(EXC_TR); NEXT();
OP(TGEIU) if (R[d->rs] >= (uint64_t)(int64_t)d->imm) EXC(EXC_TR); NEXT();
OP(TLTI) if ((int64_t)R[d->rs] < d->imm) EXC(EXC_TR); NEXT();
OP(TLTIU) if (R[d->rs] < (uint64_t)(int64_t)d->imm) EXC(EXC_TR); NEXT();
OP(TEQI) if ((int64_t)R[d->rs] == d->imm) EXC(EXC_TR); NEXT();
OP(TNEI) if ((int64_t)R[d->rs] != d->imm) EXC(EXC_TR); NEXT();
OP(CACHE)
    if (unlikely(!c->cu0))
        EXC_CE(0);
    /* Index Load Tag (op 1) reads an all-invalid tag; the rest is a no-op:
     * there are no caches to maintain. */
    if ((d->rt >> 2) == 1)
        c->cp0[CP0_TAGLO] = c->cp0[CP0_TAGHI] = 0;
    NEXT();
OP(COP1X) goto L_COP1;
OP(COP1) {
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    if (d->op == OP_COP1X)
        CHK4();
    SYNC();
    int r = fpu_exec(&c->fpu, d->raw, (c->status & ST_FR) != 0, R);
    R[0] = 0;
    if (r == FPU_EXC_FPE)
        EXC(EXC_FPE);
    if (r == FPU_EXC_RI)
        EXC(EXC_RI);
    NEXT();
}
OP(COP2)
    if (!(c->status & ST_CU2))
        EXC_CE(2);
    EXC(EXC_RI);
OP(DMFC0) goto L_MFC0;
OP(MFC0) {
    if (unlikely(!c->cu0))
        EXC_CE(0);
    if (d->op == OP_DMFC0)
        CHK64();
    SYNC();
    uint64_t v = cp0_read(c, d->sa, (unsigned)d->imm);
    R[d->rd] = d->op == OP_MFC0 ? (uint64_t)sext32(v) : v;
    SLOW_DONE();
}
OP(DMTC0) goto L_MTC0;
OP(MTC0) {
    if (unlikely(!c->cu0))
        EXC_CE(0);
    if (d->op == OP_DMTC0)
        CHK64();
    SYNC();
    uint64_t v = R[d->rt];
    cp0_write(c, d->sa, (unsigned)d->imm, d->op == OP_MTC0 ? (uint64_t)sext32(v) : v);
    goto done_reload;
}
OP(TLBWI) goto L_TLBR;
OP(TLBWR) goto L_TLBR;
OP(TLBP) goto L_TLBR;
OP(TLBR)
    if (unlikely(!c->cu0))
        EXC_CE(0);
    SYNC();
    switch (d->op) {
    case OP_TLBR: tlb_read(c); break;
    case OP_TLBWI: tlb_write(c, c->cp0[CP0_INDEX] & 63); break;
    case OP_TLBWR: tlb_write(c, tlb_random(c)); break;
    default: tlb_probe(c); break;
    }
    goto done_reload;
OP(ERET)
    if (unlikely(!c->cu0))
        EXC_CE(0);
    SYNC();
    cpu_eret(c);
    c->dly = false;
    goto reload;
