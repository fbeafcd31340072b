/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handlers and tables here are macros laid out by hand: */
/* clang-format off */
/* The interpreter's handlers for loads and stores: integer, partial
 * (LWL ... SDR), linked (LL/SC), floating-point, and the hints.
 *
 * Not a header: exec.c includes it inside cpu_interp().  The integer and FP
 * loads and stores try the soft TLB inline (LOAD, STORE); the partial and
 * linked ones go through insn.h's state helpers and mem.c. */

/* A load of op at va; set(op, v) writes the bytes read (v) to the
 * register.  The soft-TLB hit inline, the rest in mem.c. */
#define LOAD(op, va, set)                                               \
    do {                                                                \
        uint64_t va_ = (va);                                            \
        unsigned size_ = insn_mem_size(op);                             \
        stlb *e_ = STLB_ENTRY(rtlb, va_);                               \
        if (likely(STLB_HIT(e_, va_, size_))) {                         \
            set(op, insn_host_load(STLB_HOST(e_, va_), size_));         \
            NEXT();                                                     \
        }                                                               \
        uint64_t v_;                                                    \
        SYNC();                                                         \
        if (!mem_load_slow(c, va_, size_, &v_))                         \
            goto exc;                                                   \
        set(op, v_);                                                    \
        SLOW_DONE();                                                    \
    } while (0)
#define TO_GPR(op, v) (R[d->rd] = insn_load_extend((op), (v)))
#define TO_FPR(op, v) insn_fp_load(c, (op), d->sa, (v))
/* A store of op: val at va. */
#define STORE(op, va, val)                                              \
    do {                                                                \
        uint64_t va_ = (va), sv_ = (val);                               \
        unsigned size_ = insn_mem_size(op);                             \
        stlb *e_ = STLB_ENTRY(wtlb, va_);                               \
        if (likely(STLB_HIT(e_, va_, size_))) {                         \
            insn_host_store(STLB_HOST(e_, va_), size_, sv_);            \
            fast_store_link(c, va_, size_);                             \
            NEXT();                                                     \
        }                                                               \
        SYNC();                                                         \
        if (!mem_store_slow(c, va_, size_, sv_))                        \
            goto exc;                                                   \
        SLOW_DONE();                                                    \
    } while (0)
#define EA() (R[d->rs] + (uint64_t)(int64_t)d->imm)
#define FP_EA_X() (R[d->rs] + R[d->rt]) /* the indexed forms: base + index */

OP(LB) LOAD(OP_LB, EA(), TO_GPR);
OP(LBU) LOAD(OP_LBU, EA(), TO_GPR);
OP(LH) LOAD(OP_LH, EA(), TO_GPR);
OP(LHU) LOAD(OP_LHU, EA(), TO_GPR);
OP(LW) LOAD(OP_LW, EA(), TO_GPR);
OP(LWU) LOAD(OP_LWU, EA(), TO_GPR);
OP(LD) LOAD(OP_LD, EA(), TO_GPR);
OP(SB) STORE(OP_SB, EA(), R[d->rt]);
OP(SH) STORE(OP_SH, EA(), R[d->rt]);
OP(SW) STORE(OP_SW, EA(), R[d->rt]);
OP(SD) STORE(OP_SD, EA(), R[d->rt]);

OP(LWL) SLOW(insn_load_merge(c, OP_LWL, EA(), d->rd, R[d->rt]));
OP(LWR) SLOW(insn_load_merge(c, OP_LWR, EA(), d->rd, R[d->rt]));
OP(LDL) SLOW(insn_load_merge(c, OP_LDL, EA(), d->rd, R[d->rt]));
OP(LDR) SLOW(insn_load_merge(c, OP_LDR, EA(), d->rd, R[d->rt]));
OP(SWL) SLOW(insn_store_merge(c, OP_SWL, EA(), R[d->rt]));
OP(SWR) SLOW(insn_store_merge(c, OP_SWR, EA(), R[d->rt]));
OP(SDL) SLOW(insn_store_merge(c, OP_SDL, EA(), R[d->rt]));
OP(SDR) SLOW(insn_store_merge(c, OP_SDR, EA(), R[d->rt]));

OP(LL) SLOW(insn_ll(c, OP_LL, EA(), d->rd));
OP(LLD) SLOW(insn_ll(c, OP_LLD, EA(), d->rd));
OP(SC) SLOW(insn_sc(c, OP_SC, EA(), d->rt, R[d->rt]));
OP(SCD) SLOW(insn_sc(c, OP_SCD, EA(), d->rt, R[d->rt]));

/* FP loads and stores: FPR number in sa. */
OP(LWC1) NEED_CU1(); LOAD(OP_LWC1, EA(), TO_FPR);
OP(LDC1) NEED_CU1(); LOAD(OP_LDC1, EA(), TO_FPR);
OP(LWXC1) NEED_CU1(); CHK4(); LOAD(OP_LWXC1, FP_EA_X(), TO_FPR);
OP(LDXC1) NEED_CU1(); CHK4(); LOAD(OP_LDXC1, FP_EA_X(), TO_FPR);
OP(SWC1) NEED_CU1(); STORE(OP_SWC1, EA(), insn_fp_store_value(c, OP_SWC1, d->sa));
OP(SDC1) NEED_CU1(); STORE(OP_SDC1, EA(), insn_fp_store_value(c, OP_SDC1, d->sa));
OP(SWXC1) NEED_CU1(); CHK4(); STORE(OP_SWXC1, FP_EA_X(), insn_fp_store_value(c, OP_SWXC1, d->sa));
OP(SDXC1) NEED_CU1(); CHK4(); STORE(OP_SDXC1, FP_EA_X(), insn_fp_store_value(c, OP_SDXC1, d->sa));

/* Hints and ordering: nothing to do (no caches, one memory order). */
OP(SYNC) NEXT();
OP(PREF) NEXT();
OP(PREFX) NEED_CU1(); CHK4(); NEXT();

#undef LOAD
#undef TO_GPR
#undef TO_FPR
#undef STORE
#undef EA
#undef FP_EA_X
