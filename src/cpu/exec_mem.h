/* The interpreter's handlers for loads and stores: integer, partial
 * (LWL ... SDR), linked (LL/SC), floating-point, and the hints.
 *
 * Not a header: exec.c includes it inside run_inner(). */

OP(SYNC) NEXT();
OP(PREF) NEXT();
OP(LB) LOADR(1, LB_);
OP(LBU) LOADR(1, LBU_);
OP(LH) LOADR(2, LH_);
OP(LHU) LOADR(2, LHU_);
OP(LW) LOADR(4, LW_);
OP(LWU) LOADR(4, LWU_);
OP(LD) LOADR(8, LD_);
OP(SB) STORE(1, EA(), R[d->rt], SB_);
OP(SH) STORE(2, EA(), R[d->rt], SH_);
OP(SW) STORE(4, EA(), R[d->rt], SW_);
OP(SD) STORE(8, EA(), R[d->rt], SD_);
OP(LWR) goto L_LWL;
OP(LWL) {
    uint64_t va = EA(), w;
    unsigned k = va & 3, rd = d->rd;
    uint32_t old = (uint32_t)R[d->rt], r;
    bool left_ = d->op == OP_LWL;
    SYNC();
    if (!mem_load_aligned(c, va, 4, &w))
        goto exc;
    if (left_)
        r = (uint32_t)(w << (8 * k)) | (k ? old & (0xffffffffu >> (32 - 8 * k)) : 0);
    else
        r = (uint32_t)(w >> (8 * (3 - k))) | (k == 3 ? 0 : old & ~(0xffffffffu >> (8 * (3 - k))));
    R[rd] = (uint64_t)sext32(r);
    SLOW_DONE();
}
OP(LDR) goto L_LDL;
OP(LDL) {
    uint64_t va = EA(), w, old = R[d->rt], r;
    unsigned k = va & 7, rd = d->rd;
    bool left_ = d->op == OP_LDL;
    SYNC();
    if (!mem_load_aligned(c, va, 8, &w))
        goto exc;
    if (left_)
        r = (w << (8 * k)) | (k ? old & (~0ull >> (64 - 8 * k)) : 0);
    else
        r = (w >> (8 * (7 - k))) | (k == 7 ? 0 : old & ~(~0ull >> (8 * (7 - k))));
    R[rd] = r;
    SLOW_DONE();
}
OP(SWR) goto L_SWL;
OP(SWL) {
    uint64_t va = EA();
    uint32_t v = (uint32_t)R[d->rt];
    unsigned k = va & 3;
    uint64_t val, mask;
    if (d->op == OP_SWL) {
        val = v >> (8 * k);
        mask = 0xffffffffu >> (8 * k);
    } else {
        val = (uint32_t)(v << (8 * (3 - k)));
        mask = (uint32_t)(0xffffffffu << (8 * (3 - k)));
    }
    SYNC();
    if (!mem_store_merge(c, va, 4, val, mask))
        goto exc;
    SLOW_DONE();
}
OP(SDR) goto L_SDL;
OP(SDL) {
    uint64_t va = EA(), v = R[d->rt], val, mask;
    unsigned k = va & 7;
    if (d->op == OP_SDL) {
        val = v >> (8 * k);
        mask = ~0ull >> (8 * k);
    } else {
        val = v << (8 * (7 - k));
        mask = ~0ull << (8 * (7 - k));
    }
    SYNC();
    if (!mem_store_merge(c, va, 8, val, mask))
        goto exc;
    SLOW_DONE();
}
OP(LLD) goto L_LL;
OP(LL) {
    unsigned size = d->op == OP_LL ? 4 : 8, rd = d->rd;
    uint64_t v;
    SYNC();
    if (!mem_ll(c, EA(), size, &v))
        goto exc;
    R[rd] = size == 4 ? (uint64_t)sext32(v) : v;
    SLOW_DONE();
}
OP(SCD) goto L_SC;
OP(SC) {
    unsigned size = d->op == OP_SC ? 4 : 8, rt_ = d->rt;
    SYNC();
    int r = mem_sc(c, EA(), size, R[rt_]);
    if (r < 0)
        goto exc;
    R[rt_ ? rt_ : 32] = (uint64_t)r;
    SLOW_DONE();
}
OP(LDC1) goto L_LWC1;
OP(LWXC1) goto L_LWC1;
OP(LDXC1) goto L_LWC1;
OP(LWC1) {
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    if (d->op == OP_LWXC1 || d->op == OP_LDXC1)
        CHK4();
    bool dbl = d->op == OP_LDC1 || d->op == OP_LDXC1;
    uint64_t va = (d->op == OP_LWC1 || d->op == OP_LDC1) ? EA() : R[d->rs] + R[d->rt];
    unsigned size = dbl ? 8 : 4;
    uint64_t v;
    uint8_t *p = stlb_lookup(rt, va, size);
    bool slow = p == NULL;
    if (likely(!slow)) {
        v = dbl ? LD_(p) : LWU_(p);
    } else {
        SYNC();
        if (!mem_load_slow(c, va, size, &v))
            goto exc;
    }
    bool fr = (c->status & ST_FR) != 0;
    if (dbl)
        fpu_set_d(&c->fpu, d->sa, fr, v);
    else
        fpu_set_w(&c->fpu, d->sa, fr, (uint32_t)v);
    if (slow)
        SLOW_DONE();
    NEXT();
}
OP(SDC1) goto L_SWC1;
OP(SWXC1) goto L_SWC1;
OP(SDXC1) goto L_SWC1;
OP(SWC1) {
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    if (d->op == OP_SWXC1 || d->op == OP_SDXC1)
        CHK4();
    bool fr = (c->status & ST_FR) != 0;
    uint64_t va = (d->op == OP_SWC1 || d->op == OP_SDC1) ? EA() : R[d->rs] + R[d->rt];
    if (d->op == OP_SDC1 || d->op == OP_SDXC1)
        STORE(8, va, fpu_get_d(&c->fpu, d->sa, fr), SD_);
    else
        STORE(4, va, fpu_get_w(&c->fpu, d->sa, fr), SW_);
}
OP(PREFX)
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    CHK4();
    NEXT();
