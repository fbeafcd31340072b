/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The code generator: a block is a prologue that loads the FPU state, then
 * `len` random MIPS IV instructions of every class the R10000 implements.
 *
 * Control flow only goes forward and stays inside the block (a target may
 * be the block's end, where Unicorn stops).  Multi-instruction sequences
 * (an address built in $at for JR, LL ... SC, a CTC1 value) are never
 * entered in the middle: branch targets are chosen before the code after
 * the branch exists, and a sequence is only started where none of its inner
 * slots is a pending target.
 *
 * UNPREDICTABLE cases are not generated.  The one that needs care is the
 * MIPS64 rule that 32-bit operations (ADDU, MULT, DIV, SRL, ...) on a GPR
 * that does not hold a sign-extended 32-bit value are UNPREDICTABLE: the
 * generator tracks which registers are known to hold one ("SE"), meeting
 * the sets of all paths at each branch target, and only gives such
 * registers to those instructions ($gp, the data base, is never written).
 */
#include "oracle_gen.h"

const char *const orc_class_names[C_NCLASSES] = {
    "prologue",   "alu32",         "alu64",     "shift32",  "shift64",   "immediate",
    "slt",        "muldiv32",      "muldiv64",  "hilo",     "movz/movn", "movf/movt",
    "branch",     "branch-likely", "jump",      "load",     "store",     "unaligned",
    "ll/sc",      "trap",          "sync/pref", "fp-arith", "fp-cvt",    "fp-round",
    "fp-compare", "bc1",           "fp-movcc",  "fp-madd",  "fp-move",   "fp-load/store",
    "ctc1",       "exception",
};

#define SE_HI 32
#define SE_LO 33
#define SE_ALL ((1ull << 34) - 1)
#define AT 1

typedef struct gen {
    orc_rng r;
    orc_block *b;
    const orc_cfg *cfg;
    unsigned pos, end;
    uint64_t se;
    uint64_t se_at[ORC_MAX_INSNS + 1];
    bool target[ORC_MAX_INSNS + 1];
} gen;

static void emit(gen *g, uint32_t w, int cls)
{
    g->b->code[g->pos] = w;
    g->b->cls[g->pos] = (uint8_t)cls;
    g->pos++;
}

static bool is_se(const gen *g, unsigned r) { return r == 0 || ((g->se >> r) & 1); }
static void set_se(gen *g, unsigned r, bool v)
{
    if (r == 0)
        return;
    if (v)
        g->se |= 1ull << r;
    else
        g->se &= ~(1ull << r);
}

static unsigned src(gen *g) { return chance(&g->r, 5) ? 0 : rnd(&g->r, 32); }
static unsigned src_se(gen *g)
{
    for (int i = 0; i < 12; i++) {
        unsigned r = rnd(&g->r, 32);
        if (is_se(g, r))
            return r;
    }
    return 0;
}
static unsigned dst(gen *g)
{
    if (chance(&g->r, 3))
        return 0;
    unsigned r;
    do
        r = 1 + rnd(&g->r, 31);
    while (r == ORC_BASE_REG);
    return r;
}
static unsigned sa5(gen *g)
{
    return chance(&g->r, 30) ? (chance(&g->r, 50) ? 0 : 31) : rnd(&g->r, 32);
}
static uint16_t imm16(gen *g)
{
    static const uint16_t special[] = {0, 1, 0xffff, 0x7fff, 0x8000, 0x8001, 0x00ff, 0xff00};
    if (chance(&g->r, 30))
        return special[rnd(&g->r, ARRAY_SIZE(special))];
    if (chance(&g->r, 40))
        return (uint16_t)((int)rnd(&g->r, 33) - 16);
    return (uint16_t)orc_rng_next(&g->r);
}
static unsigned freg(gen *g, bool wide)
{
    return (g->cfg->fr || !wide) ? rnd(&g->r, 32) : 2 * rnd(&g->r, 16);
}
static unsigned off_aligned(gen *g, unsigned size) { return rnd(&g->r, ORC_SCRATCH / size) * size; }
static unsigned cc(gen *g) { return chance(&g->r, 40) ? 0 : rnd(&g->r, 8); }

/* ---- Integer ---------------------------------------------------------------- */

static void k_alu32(gen *g)
{
    static const uint8_t fn[] = {0x21, 0x21, 0x23, 0x23, 0x20, 0x22}; /* ADDU SUBU ADD SUB */
    unsigned rs = src_se(g), rt = src_se(g), rd = dst(g);
    emit(g, ENC_R(OPC_SPECIAL, rs, rt, rd, 0, fn[rnd(&g->r, ARRAY_SIZE(fn))]), C_ALU32);
    set_se(g, rd, true);
}

static void k_logic(gen *g)
{
    unsigned rs = src(g), rt = src(g), rd = dst(g);
    bool se = is_se(g, rs) && is_se(g, rt);
    emit(g, ENC_R(OPC_SPECIAL, rs, rt, rd, 0, 0x24 + rnd(&g->r, 4)), C_ALU32);
    set_se(g, rd, se);
}

static void k_alu64(gen *g)
{
    static const uint8_t fn[] = {0x2d, 0x2d, 0x2f, 0x2f, 0x2c, 0x2e}; /* DADDU DSUBU DADD DSUB */
    unsigned rs = src(g), rt = src(g), rd = dst(g);
    emit(g, ENC_R(OPC_SPECIAL, rs, rt, rd, 0, fn[rnd(&g->r, ARRAY_SIZE(fn))]), C_ALU64);
    set_se(g, rd, false);
}

static void k_shift32(gen *g)
{
    static const uint8_t fn[] = {0x00, 0x02, 0x03, 0x04, 0x06, 0x07};
    unsigned f = fn[rnd(&g->r, ARRAY_SIZE(fn))];
    bool right = f != 0x00 && f != 0x04; /* SRL/SRA need a sign-extended input */
    unsigned rt = right ? src_se(g) : src(g), rd = dst(g);
    if (f < 4)
        emit(g, ENC_R(OPC_SPECIAL, 0, rt, rd, sa5(g), f), C_SHIFT32);
    else
        emit(g, ENC_R(OPC_SPECIAL, src(g), rt, rd, 0, f), C_SHIFT32);
    set_se(g, rd, true);
}

static void k_shift64(gen *g)
{
    static const uint8_t fn[] = {0x38, 0x3a, 0x3b, 0x3c, 0x3e, 0x3f, 0x14, 0x16, 0x17};
    unsigned f = fn[rnd(&g->r, ARRAY_SIZE(fn))], rt = src(g), rd = dst(g);
    if (f >= 0x38)
        emit(g, ENC_R(OPC_SPECIAL, 0, rt, rd, sa5(g), f), C_SHIFT64);
    else
        emit(g, ENC_R(OPC_SPECIAL, src(g), rt, rd, 0, f), C_SHIFT64);
    set_se(g, rd, false);
}

static void k_imm(gen *g)
{
    unsigned rt = dst(g);
    switch (rnd(&g->r, 8)) {
    case 0:
    case 1: {
        unsigned rs = src_se(g);
        emit(g, ENC_I(9, rs, rt, imm16(g)), C_IMM);
        set_se(g, rt, true);
        break;
    } /* ADDIU */
    case 2: {
        unsigned rs = src_se(g);
        emit(g, ENC_I(8, rs, rt, imm16(g)), C_IMM);
        set_se(g, rt, true);
        break;
    } /* ADDI */
    case 3:
        emit(g, ENC_I(chance(&g->r, 80) ? 0x19 : 0x18, src(g), rt, imm16(g)), C_IMM);
        set_se(g, rt, false);
        break; /* DADDIU/DADDI */
    case 4:
        emit(g, ENC_I(0x0c, src(g), rt, imm16(g)), C_IMM);
        set_se(g, rt, true);
        break; /* ANDI */
    case 5:
    case 6: {
        unsigned rs = src(g);
        bool se = is_se(g, rs);
        emit(g, ENC_I(0x0d + rnd(&g->r, 2), rs, rt, imm16(g)), C_IMM);
        set_se(g, rt, se);
        break;
    } /* ORI XORI */
    default:
        emit(g, ENC_I(0x0f, 0, rt, imm16(g)), C_IMM);
        set_se(g, rt, true);
        break; /* LUI */
    }
}

static void k_slt(gen *g)
{
    unsigned rd = dst(g);
    if (chance(&g->r, 50))
        emit(g, ENC_R(OPC_SPECIAL, src(g), src(g), rd, 0, 0x2a + rnd(&g->r, 2)), C_SLT);
    else
        emit(g, ENC_I(0x0a + rnd(&g->r, 2), src(g), rd, imm16(g)), C_SLT);
    set_se(g, rd, true);
}

static void k_muldiv32(gen *g)
{
    emit(g, ENC_R(OPC_SPECIAL, src_se(g), src_se(g), 0, 0, 0x18 + rnd(&g->r, 4)), C_MULDIV32);
    g->se |= 1ull << SE_HI | 1ull << SE_LO;
}

static void k_muldiv64(gen *g)
{
    emit(g, ENC_R(OPC_SPECIAL, src(g), src(g), 0, 0, 0x1c + rnd(&g->r, 4)), C_MULDIV64);
    g->se &= ~(1ull << SE_HI | 1ull << SE_LO);
}

static void k_hilo(gen *g)
{
    unsigned which = rnd(&g->r, 4), bit = (which & 2) ? SE_LO : SE_HI;
    if (which & 1) { /* MTHI / MTLO */
        unsigned rs = src(g);
        emit(g, ENC_R(OPC_SPECIAL, rs, 0, 0, 0, 0x10 + which), C_HILO);
        g->se = is_se(g, rs) ? g->se | 1ull << bit : g->se & ~(1ull << bit);
    } else { /* MFHI / MFLO */
        unsigned rd = dst(g);
        emit(g, ENC_R(OPC_SPECIAL, 0, 0, rd, 0, 0x10 + which), C_HILO);
        set_se(g, rd, (g->se >> bit) & 1);
    }
}

static void k_movzn(gen *g)
{
    unsigned rs = src(g), rd = dst(g);
    bool se = is_se(g, rs) && is_se(g, rd);
    emit(g, ENC_R(OPC_SPECIAL, rs, src(g), rd, 0, 0x0a + rnd(&g->r, 2)), C_MOVZN);
    set_se(g, rd, se);
}

static void k_movci(gen *g)
{
    unsigned rs = src(g), rd = dst(g);
    bool se = is_se(g, rs) && is_se(g, rd);
    emit(g, ENC_R(OPC_SPECIAL, rs, cc(g) << 2 | rnd(&g->r, 2), rd, 0, 0x01), C_MOVCI);
    set_se(g, rd, se);
}

/* ---- Memory ------------------------------------------------------------------- */

static void k_load(gen *g)
{
    static const struct {
        uint8_t op, size;
        signed char se;
    } ld[] = {
        {0x20, 1, 1}, {0x24, 1, 1}, {0x21, 2, 1}, {0x25, 2, 1},
        {0x23, 4, 1}, {0x27, 4, 0}, {0x37, 8, 0},
    };
    unsigned i = rnd(&g->r, ARRAY_SIZE(ld)), rt = dst(g);
    emit(g, ENC_I(ld[i].op, ORC_BASE_REG, rt, off_aligned(g, ld[i].size)), C_LOAD);
    set_se(g, rt, ld[i].se);
}

static void k_store(gen *g)
{
    static const struct {
        uint8_t op, size;
    } st[] = {{0x28, 1}, {0x29, 2}, {0x2b, 4}, {0x3f, 8}};
    unsigned i = rnd(&g->r, ARRAY_SIZE(st));
    emit(g, ENC_I(st[i].op, ORC_BASE_REG, src(g), off_aligned(g, st[i].size)), C_STORE);
}

/* LWL LWR LDL LDR SWL SWR SDL SDR at any alignment. */
static void k_unaligned(gen *g)
{
    static const uint8_t op[] = {0x22, 0x26, 0x1a, 0x1b, 0x2a, 0x2e, 0x2c, 0x2d};
    unsigned i = rnd(&g->r, ARRAY_SIZE(op)), off = rnd(&g->r, ORC_SCRATCH - 8);
    if (i < 4) {
        unsigned rt = dst(g);
        emit(g, ENC_I(op[i], ORC_BASE_REG, rt, off), C_UNALIGNED);
        set_se(g, rt, false); /* a partial load may leave a mixed value */
    } else {
        emit(g, ENC_I(op[i], ORC_BASE_REG, src(g), off), C_UNALIGNED);
    }
}

/* The unaligned-access idioms: LWL+LWR / LDL+LDR / SWL+SWR / SDL+SDR. */
static void k_unaligned_pair(gen *g)
{
    bool dbl = chance(&g->r, 50), store = chance(&g->r, 40);
    unsigned w = dbl ? 8 : 4, off = rnd(&g->r, ORC_SCRATCH - 16), r = store ? src(g) : dst(g);
    uint8_t left = store ? (dbl ? 0x2c : 0x2a) : (dbl ? 0x1a : 0x22);
    uint8_t right = store ? (dbl ? 0x2d : 0x2e) : (dbl ? 0x1b : 0x26);
    emit(g, ENC_I(left, ORC_BASE_REG, r, off), C_UNALIGNED);
    emit(g, ENC_I(right, ORC_BASE_REG, r, off + w - 1), C_UNALIGNED);
    if (!store)
        set_se(g, r, false);
}

static void k_simple_alu(gen *g);

/* LL ... SC on the same address with no store between (single-threaded
 * success).  LL/SC on different addresses, or with a store in between, are
 * not generated: see excl.c. */
static void k_llsc(gen *g)
{
    bool dbl = chance(&g->r, 40);
    unsigned off = off_aligned(g, dbl ? 8 : 4), rt = dst(g), mid = rnd(&g->r, 3);
    emit(g, ENC_I(dbl ? 0x34 : 0x30, ORC_BASE_REG, rt, off), C_LLSC);
    set_se(g, rt, !dbl);
    for (unsigned i = 0; i < mid; i++)
        k_simple_alu(g);
    unsigned rs = dst(g); /* SC writes its register */
    emit(g, ENC_I(dbl ? 0x3c : 0x38, ORC_BASE_REG, rs, off), C_LLSC);
    set_se(g, rs, true);
}

/* Traps.  Most use operands whose values are known ($zero, the data base in
 * $gp) so that they do not fire; the rest use random registers and may fire,
 * which ends the block with a compared Trap exception. */
static void k_trap(gen *g)
{
    unsigned code = rnd(&g->r, 1024);
    if (chance(&g->r, 25)) {
        static const uint8_t rfn[] = {0x30, 0x31, 0x32, 0x33, 0x34, 0x36};
        static const uint8_t ifn[] = {0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0e};
        if (chance(&g->r, 50))
            emit(g, ENC_R(OPC_SPECIAL, src(g), src(g), code >> 5, code & 31, rfn[rnd(&g->r, 6)]),
                 C_TRAP);
        else
            emit(g, ENC_I(OPC_REGIMM, src(g), ifn[rnd(&g->r, 6)], imm16(g)), C_TRAP);
        return;
    }
    const unsigned gp = ORC_BASE_REG;
    switch (rnd(&g->r, 12)) {
    case 0: emit(g, ENC_R(0, 0, gp, 0, code & 31, 0x34), C_TRAP); break;   /* TEQ  0, gp */
    case 1: emit(g, ENC_R(0, gp, gp, 0, code & 31, 0x36), C_TRAP); break;  /* TNE  gp, gp */
    case 2: emit(g, ENC_R(0, 0, gp, 0, code & 31, 0x30), C_TRAP); break;   /* TGE  0, gp */
    case 3: emit(g, ENC_R(0, 0, gp, 0, code & 31, 0x31), C_TRAP); break;   /* TGEU 0, gp */
    case 4: emit(g, ENC_R(0, gp, 0, 0, code & 31, 0x32), C_TRAP); break;   /* TLT  gp, 0 */
    case 5: emit(g, ENC_R(0, gp, 0, 0, code & 31, 0x33), C_TRAP); break;   /* TLTU gp, 0 */
    case 6: emit(g, ENC_I(OPC_REGIMM, gp, 0x0c, imm16(g)), C_TRAP); break; /* TEQI gp, imm */
    case 7: emit(g, ENC_I(OPC_REGIMM, 0, 0x0e, 0), C_TRAP); break;         /* TNEI 0, 0 */
    case 8:
        emit(g, ENC_I(OPC_REGIMM, 0, 0x08, 1 + rnd(&g->r, 0x7fff)), C_TRAP);
        break; /* TGEI 0, >0 */
    case 9:
        emit(g, ENC_I(OPC_REGIMM, 0, 0x09, 1 + rnd(&g->r, 0xfffe)), C_TRAP);
        break; /* TGEIU 0, !=0 */
    case 10:
        emit(g, ENC_I(OPC_REGIMM, gp, 0x0a, rnd(&g->r, 0x8000)), C_TRAP);
        break; /* TLTI gp, imm */
    default:
        emit(g, ENC_I(OPC_REGIMM, gp, 0x0b, rnd(&g->r, 0x8000)), C_TRAP);
        break; /* TLTIU gp, imm */
    }
}

static void k_misc(gen *g)
{
    switch (rnd(&g->r, 3)) {
    case 0: emit(g, ENC_R(0, 0, 0, 0, 0, 0x0f), C_MISC); break; /* SYNC */
    case 1:
        emit(g, ENC_I(0x33, ORC_BASE_REG, rnd(&g->r, 32), off_aligned(g, 4)), C_MISC);
        break;                          /* PREF */
    default: emit(g, 0, C_MISC); break; /* NOP */
    }
}

/* ---- Floating point -------------------------------------------------------------- */

static unsigned fmt_sd(gen *g) { return chance(&g->r, 50) ? FMT_S : FMT_D; }

static void k_fp_arith(gen *g)
{
    static const uint8_t fn[] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 21, 22};
    unsigned fmt = fmt_sd(g), f = fn[rnd(&g->r, ARRAY_SIZE(fn))];
    bool w = fmt == FMT_D, two = f < 4;
    emit(g, ENC_R(OPC_COP1, fmt, two ? freg(g, w) : 0, freg(g, w), freg(g, w), f), C_FP_ARITH);
}

static void k_fp_cvt(gen *g)
{
    static const struct {
        uint8_t from, fn;
    } cv[] = {
        {FMT_D, 32}, {FMT_W, 32}, {FMT_L, 32}, {FMT_S, 33}, {FMT_W, 33},
        {FMT_L, 33}, {FMT_S, 36}, {FMT_D, 36}, {FMT_S, 37}, {FMT_D, 37},
    };
    unsigned i;
    do /* with FR=0, Unicorn (MIPS64 R1) reserves every L-format operation: see excl.c */
        i = rnd(&g->r, ARRAY_SIZE(cv));
    while (!g->cfg->fr && (cv[i].from == FMT_L || cv[i].fn == 37));
    bool wsrc = cv[i].from == FMT_D || cv[i].from == FMT_L, wdst = cv[i].fn == 33 || cv[i].fn == 37;
    emit(g, ENC_R(OPC_COP1, cv[i].from, 0, freg(g, wsrc), freg(g, wdst), cv[i].fn), C_FP_CVT);
}

static void k_fp_rnd(gen *g)
{
    unsigned fmt = fmt_sd(g), f = 8 + rnd(&g->r, 8);
    if (!g->cfg->fr)
        f |= 4; /* W only */
    emit(g, ENC_R(OPC_COP1, fmt, 0, freg(g, fmt == FMT_D), freg(g, f < 12), f), C_FP_RND);
}

static void k_fp_cmp(gen *g)
{
    unsigned fmt = fmt_sd(g);
    bool w = fmt == FMT_D;
    emit(g, ENC_R(OPC_COP1, fmt, freg(g, w), freg(g, w), cc(g) << 2, 48 + rnd(&g->r, 16)),
         C_FP_CMP);
}

static void k_fp_movc(gen *g)
{
    unsigned fmt = fmt_sd(g);
    bool w = fmt == FMT_D;
    switch (rnd(&g->r, 3)) {
    case 0:
        emit(g, ENC_R(OPC_COP1, fmt, cc(g) << 2 | rnd(&g->r, 2), freg(g, w), freg(g, w), 17),
             C_FP_MOVC);
        break;
    default:
        emit(g, ENC_R(OPC_COP1, fmt, src(g), freg(g, w), freg(g, w), 18 + rnd(&g->r, 2)),
             C_FP_MOVC);
        break;
    }
}

static void k_fp_madd(gen *g)
{
    bool d = chance(&g->r, 50);
    emit(g,
         ENC_R(OPC_COP1X, freg(g, d), freg(g, d), freg(g, d), freg(g, d),
               (4 + rnd(&g->r, 4)) << 3 | d),
         C_FP_MADD);
}

static void k_fp_move(gen *g)
{
    unsigned rt;
    switch (rnd(&g->r, 5)) {
    case 0:
        rt = dst(g);
        emit(g, ENC_R(OPC_COP1, 0, rt, freg(g, false), 0, 0), C_FP_MOVE);
        set_se(g, rt, true);
        break; /* MFC1 */
    case 1:
        rt = dst(g);
        emit(g, ENC_R(OPC_COP1, 1, rt, freg(g, true), 0, 0), C_FP_MOVE);
        set_se(g, rt, false);
        break;                                                                           /* DMFC1 */
    case 2: emit(g, ENC_R(OPC_COP1, 4, src(g), freg(g, false), 0, 0), C_FP_MOVE); break; /* MTC1 */
    case 3: emit(g, ENC_R(OPC_COP1, 5, src(g), freg(g, true), 0, 0), C_FP_MOVE); break;  /* DMTC1 */
    default:
        rt = dst(g);
        emit(g, ENC_R(OPC_COP1, 2, rt, 31, 0, 0), C_FP_MOVE);
        set_se(g, rt, true);
        break; /* CFC1 FCSR */
    }
}

static void k_fp_ldst(gen *g)
{
    switch (rnd(&g->r, 9)) {
    case 0:
        emit(g, ENC_I(0x31, ORC_BASE_REG, freg(g, false), off_aligned(g, 4)), C_FP_LDST);
        break; /* LWC1 */
    case 1:
        emit(g, ENC_I(0x35, ORC_BASE_REG, freg(g, true), off_aligned(g, 8)), C_FP_LDST);
        break; /* LDC1 */
    case 2:
        emit(g, ENC_I(0x39, ORC_BASE_REG, freg(g, false), off_aligned(g, 4)), C_FP_LDST);
        break; /* SWC1 */
    case 3:
        emit(g, ENC_I(0x3d, ORC_BASE_REG, freg(g, true), off_aligned(g, 8)), C_FP_LDST);
        break; /* SDC1 */
    case 4:
        emit(g, ENC_R(OPC_COP1X, ORC_BASE_REG, 0, 0, freg(g, false), 0), C_FP_LDST);
        break; /* LWXC1 fd, 0(gp) */
    case 5:
        emit(g, ENC_R(OPC_COP1X, ORC_BASE_REG, 0, 0, freg(g, true), 1), C_FP_LDST);
        break; /* LDXC1 */
    case 6:
        emit(g, ENC_R(OPC_COP1X, ORC_BASE_REG, 0, freg(g, false), 0, 8), C_FP_LDST);
        break; /* SWXC1 */
    case 7:
        emit(g, ENC_R(OPC_COP1X, ORC_BASE_REG, 0, freg(g, true), 0, 9), C_FP_LDST);
        break; /* SDXC1 */
    default:
        emit(g, ENC_R(OPC_COP1X, ORC_BASE_REG, src(g), rnd(&g->r, 32), 0, 15), C_FP_LDST);
        break; /* PREFX */
    }
}

/* Indexed FP load/store with a non-zero index: ORI $at, then the access. */
static void k_fp_indexed(gen *g)
{
    static const uint8_t fn[] = {0, 1, 8, 9};
    unsigned f = fn[rnd(&g->r, 4)], size = (f & 1) ? 8 : 4, r = freg(g, size == 8);
    emit(g, ENC_I(0x0d, 0, AT, off_aligned(g, size)), C_IMM);
    set_se(g, AT, true);
    emit(g,
         f < 8 ? ENC_R(OPC_COP1X, ORC_BASE_REG, AT, 0, r, f)
               : ENC_R(OPC_COP1X, ORC_BASE_REG, AT, r, 0, f),
         C_FP_LDST);
}

/* A new FCSR: the block's FS and enables, random rounding mode, flags,
 * condition codes, and bits 22..18 (which read as zero); cause bits only
 * when no exception is enabled (an enabled cause traps at once). */
static void k_fcsr(gen *g)
{
    uint32_t v = rnd(&g->r, 4) | (uint32_t)(orc_rng_next(&g->r) & 0x7c) |
                 (g->cfg->fs ? 0x01000000u : 0) | g->cfg->enables |
                 (uint32_t)(orc_rng_next(&g->r) & 0xfe800000u) |
                 (uint32_t)(orc_rng_next(&g->r) & 0x007c0000u);
    if (!g->cfg->enables && chance(&g->r, 30))
        v |= (uint32_t)(orc_rng_next(&g->r) & 0x1f000u);
    emit(g, ENC_I(0x0f, 0, AT, v >> 16), C_FCSR);
    emit(g, ENC_I(0x0d, AT, AT, v & 0xffff), C_FCSR);
    emit(g, ENC_R(OPC_COP1, 6, AT, 31, 0, 0), C_FCSR);
    set_se(g, AT, true); /* LUI sign-extends */
}

/* ---- Deliberate exceptions (they end the block) ------------------------------------ */

static void k_exc(gen *g)
{
    unsigned rt = dst(g), off = off_aligned(g, 8);
    switch (rnd(&g->r, 9)) {
    case 0:
        emit(g, ENC_I(0x23, ORC_BASE_REG, rt, off + 1 + rnd(&g->r, 3)), C_EXC);
        break;                                                                 /* LW AdEL */
    case 1: emit(g, ENC_I(0x21, ORC_BASE_REG, rt, off + 1), C_EXC); break;     /* LH AdEL */
    case 2: emit(g, ENC_I(0x37, ORC_BASE_REG, rt, off + 4), C_EXC); break;     /* LD AdEL */
    case 3: emit(g, ENC_I(0x2b, ORC_BASE_REG, src(g), off + 2), C_EXC); break; /* SW AdES */
    case 4:
        emit(g, ENC_I(0x3d, ORC_BASE_REG, freg(g, true), off + 4), C_EXC);
        break; /* SDC1 AdES */
    case 5: emit(g, ENC_R(0, rnd(&g->r, 32), rnd(&g->r, 32), 0, 0, 0x0d), C_EXC); break; /* BREAK */
    case 6: emit(g, ENC_R(0, 0, 0, 0, 0, 0x0c), C_EXC); break;              /* SYSCALL */
    case 7: emit(g, ENC_R(0, 0, 0, 0, 0, 0x34), C_EXC); break;              /* TEQ 0, 0 */
    default: emit(g, ENC_R(0x1f, 0, src(g), rt, 0x10, 0x20), C_EXC); break; /* SEB: not MIPS IV */
    }
}

/* ---- Control flow -------------------------------------------------------------------- */

static void k_simple_any(gen *g);

static unsigned pick_target(gen *g, unsigned from)
{
    unsigned lo = from + 2, hi = from + 2 + 24;
    if (hi > g->end)
        hi = g->end;
    unsigned t = lo + rnd(&g->r, hi - lo + 1);
    g->target[t] = true;
    return t;
}

/* Emit a delay slot, then record the state at the target and after. */
static void delay_slot(gen *g, unsigned t, bool likely, bool always)
{
    unsigned slot = g->pos;
    g->se &= g->se_at[slot]; /* the slot itself may be another branch's target */
    uint64_t before = g->se;
    k_simple_any(g);
    g->se_at[t] &= g->se;
    /* After a jump only other branches reach the next slot, unless the delay
     * slot is itself a target (entered there, it falls through). */
    if (always && !g->target[slot])
        g->se = SE_ALL;
    else if (likely)
        g->se &= before;
}

static void k_branch(gen *g, bool likely)
{
    unsigned at = g->pos, t = pick_target(g, at);
    uint16_t off = (uint16_t)(t - (at + 1));
    unsigned rs = src(g), rt = chance(&g->r, 20) ? rs : src(g);
    uint32_t w;
    int cls = likely ? C_BRANCHL : C_BRANCH;
    switch (rnd(&g->r, 6)) {
    case 0: w = ENC_I(likely ? 0x14 : 4, rs, rt, off); break;                        /* BEQ */
    case 1: w = ENC_I(likely ? 0x15 : 5, rs, rt, off); break;                        /* BNE */
    case 2: w = ENC_I(likely ? 0x16 : 6, rs, 0, off); break;                         /* BLEZ */
    case 3: w = ENC_I(likely ? 0x17 : 7, rs, 0, off); break;                         /* BGTZ */
    case 4: w = ENC_I(OPC_REGIMM, rs, (likely ? 2 : 0) + rnd(&g->r, 2), off); break; /* BLTZ BGEZ */
    default: /* BLTZAL BGEZAL: rs != ra */
        if (rs == 31)
            rs = 0;
        w = ENC_I(OPC_REGIMM, rs, (likely ? 0x12 : 0x10) + rnd(&g->r, 2), off);
        emit(g, w, cls);
        set_se(g, 31, true);
        delay_slot(g, t, likely, false);
        return;
    }
    emit(g, w, cls);
    delay_slot(g, t, likely, false);
}

static void k_branch_n(gen *g) { k_branch(g, false); }
static void k_branch_l(gen *g) { k_branch(g, true); }

static void k_bc1(gen *g)
{
    unsigned at = g->pos, t = pick_target(g, at), nd = rnd(&g->r, 2);
    emit(g, ENC_I(OPC_COP1, 8, cc(g) << 2 | nd << 1 | rnd(&g->r, 2), (uint16_t)(t - (at + 1))),
         C_FP_BC1);
    delay_slot(g, t, nd, false);
}

static void k_jump(gen *g)
{
    unsigned at = g->pos;
    if (chance(&g->r, 50)) { /* J / JAL */
        unsigned t = pick_target(g, at);
        bool link = chance(&g->r, 50);
        emit(g, ((link ? 3u : 2u) << 26) | (uint32_t)(((ORC_CODE_BASE + 4 * t) >> 2) & 0x3ffffff),
             C_JUMP);
        if (link)
            set_se(g, 31, true);
        delay_slot(g, t, false, true);
        return;
    }
    /* LUI $at; ORI $at; JR $at / JALR rd, $at */
    unsigned t = pick_target(g, at + 2);
    uint64_t a = ORC_CODE_BASE + 4 * t;
    emit(g, ENC_I(0x0f, 0, AT, a >> 16), C_IMM);
    emit(g, ENC_I(0x0d, AT, AT, a & 0xffff), C_IMM);
    set_se(g, AT, true);
    if (chance(&g->r, 50)) {
        emit(g, ENC_R(0, AT, 0, 0, 0, 0x08), C_JUMP);
    } else {
        unsigned rd = dst(g);
        if (rd == AT)
            rd = 31;
        emit(g, ENC_R(0, AT, 0, rd, 0, 0x09), C_JUMP);
        set_se(g, rd, true);
    }
    delay_slot(g, t, false, true);
}

/* ---- Choosing ------------------------------------------------------------------------- */

typedef struct kind {
    void (*fn)(gen *g);
    unsigned need; /* slots used; > 1 and not a branch: a sequence */
    bool branch;   /* a branch/jump with its delay slot */
    unsigned w[3]; /* weights: mixed, integer, FP */
} kind;

static const kind kinds[] = {
    {k_alu32, 1, false, {6, 10, 2}},    {k_logic, 1, false, {4, 6, 1}},
    {k_alu64, 1, false, {5, 9, 1}},     {k_shift32, 1, false, {4, 7, 1}},
    {k_shift64, 1, false, {4, 7, 1}},   {k_imm, 1, false, {5, 8, 2}},
    {k_slt, 1, false, {3, 5, 1}},       {k_muldiv32, 1, false, {3, 5, 1}},
    {k_muldiv64, 1, false, {3, 5, 1}},  {k_hilo, 1, false, {3, 5, 1}},
    {k_movzn, 1, false, {2, 3, 1}},     {k_movci, 1, false, {2, 1, 3}},
    {k_load, 1, false, {5, 7, 2}},      {k_store, 1, false, {4, 5, 2}},
    {k_unaligned, 1, false, {4, 6, 1}}, {k_unaligned_pair, 2, false, {2, 3, 0}},
    {k_llsc, 4, false, {1, 2, 0}},      {k_trap, 1, false, {2, 2, 1}},
    {k_misc, 1, false, {1, 1, 1}},      {k_branch_n, 2, true, {4, 6, 2}},
    {k_branch_l, 2, true, {2, 4, 1}},   {k_jump, 4, true, {2, 3, 1}},
    {k_fp_arith, 1, false, {7, 1, 16}}, {k_fp_cvt, 1, false, {4, 1, 9}},
    {k_fp_rnd, 1, false, {3, 1, 7}},    {k_fp_cmp, 1, false, {4, 1, 8}},
    {k_bc1, 2, true, {2, 0, 4}},        {k_fp_movc, 1, false, {2, 0, 4}},
    {k_fp_madd, 1, false, {4, 0, 9}},   {k_fp_move, 1, false, {3, 1, 5}},
    {k_fp_ldst, 1, false, {3, 1, 5}},   {k_fp_indexed, 2, false, {1, 0, 2}},
    {k_fcsr, 3, false, {1, 0, 2}},
};

static void k_simple_alu(gen *g)
{
    static void (*const alu[])(gen *) = {k_alu32,   k_logic, k_alu64, k_shift32,
                                         k_shift64, k_imm,   k_slt};
    alu[rnd(&g->r, ARRAY_SIZE(alu))](g);
}

/* A single non-control-flow instruction (a delay slot). */
static void k_simple_any(gen *g)
{
    unsigned tot = 0, p = g->cfg->profile;
    for (unsigned i = 0; i < ARRAY_SIZE(kinds); i++)
        if (kinds[i].need == 1)
            tot += kinds[i].w[p];
    unsigned x = rnd(&g->r, tot);
    for (unsigned i = 0; i < ARRAY_SIZE(kinds); i++) {
        if (kinds[i].need != 1)
            continue;
        if (x < kinds[i].w[p]) {
            kinds[i].fn(g);
            return;
        }
        x -= kinds[i].w[p];
    }
}

static bool fits(const gen *g, const kind *k)
{
    if (g->pos + k->need > g->end)
        return false;
    if (k->branch) /* JR's LUI/ORI must not be entered in the middle either */
        return k->need == 2 || (!g->target[g->pos + 1] && !g->target[g->pos + 2]);
    for (unsigned i = 1; i < k->need; i++)
        if (g->target[g->pos + i])
            return false;
    return true;
}

void orc_generate(orc_block *b, uint64_t seed, const orc_cfg *cfg)
{
    static gen g; /* large: keep it off the stack */
    memset(b, 0, sizeof *b);
    memset(&g, 0, sizeof g);
    orc_rng_seed(&g.r, seed);
    g.b = b;
    g.cfg = &b->cfg;
    b->cfg = *cfg;

    for (unsigned i = 0; i < ORC_SCRATCH; i += 8) {
        uint64_t v = chance(&g.r, 50) ? val_fpr(&g.r) : val_int(&g.r, chance(&g.r, 50));
        store_be(b->data + i, 8, v);
    }
    for (unsigned i = 0; i < 32; i++)
        store_be(b->data + ORC_FPINIT + 8 * i, 8, val_fpr(&g.r));

    b->fcsr = cfg->rm | (cfg->fs ? 0x01000000u : 0) | cfg->enables |
              (uint32_t)(orc_rng_next(&g.r) & 0xfe80007cu);
    g.se = 0;
    for (unsigned i = 1; i < 32; i++) {
        b->gpr[i] = val_int(&g.r, chance(&g.r, 60));
        set_se(&g, i, b->gpr[i] == (uint64_t)(int64_t)(int32_t)b->gpr[i]);
    }
    b->gpr[AT] = (uint64_t)(int64_t)(int32_t)b->fcsr;
    b->gpr[ORC_BASE_REG] = ORC_DATA_BASE;
    set_se(&g, AT, true);
    set_se(&g, ORC_BASE_REG, true);
    b->hi = val_int(&g.r, chance(&g.r, 50));
    b->lo = val_int(&g.r, chance(&g.r, 50));
    if (b->hi == (uint64_t)(int64_t)(int32_t)b->hi)
        g.se |= 1ull << SE_HI;
    if (b->lo == (uint64_t)(int64_t)(int32_t)b->lo)
        g.se |= 1ull << SE_LO;

    /* Prologue: FCSR first (so the compared FCSR is defined from step one),
     * then the FPRs (even registers hold a pair with FR=0). */
    emit(&g, ENC_R(OPC_COP1, 6, AT, 31, 0, 0), C_PROLOGUE);
    for (unsigned i = 0; i < 32; i += cfg->fr ? 1 : 2)
        emit(&g, ENC_I(0x35, ORC_BASE_REG, i, ORC_FPINIT + 8 * i), C_PROLOGUE);
    b->prologue = g.pos;

    g.end = g.pos + cfg->len;
    if (g.end > ORC_MAX_INSNS)
        g.end = ORC_MAX_INSNS;
    for (unsigned i = 0; i <= ORC_MAX_INSNS; i++)
        g.se_at[i] = SE_ALL;

    unsigned p = cfg->profile, tot = 0;
    for (unsigned i = 0; i < ARRAY_SIZE(kinds); i++)
        tot += kinds[i].w[p];
    /* One block in eight ends with a deliberate exception somewhere. */
    unsigned exc_at = chance(&g.r, 12) ? g.pos + rnd(&g.r, cfg->len) : ~0u;
    while (g.pos < g.end) {
        g.se &= g.se_at[g.pos];
        if (g.pos >= exc_at) {
            k_exc(&g);
            exc_at = ~0u;
            continue;
        }
        const kind *k = NULL;
        for (int tries = 0; tries < 16 && !k; tries++) {
            unsigned x = rnd(&g.r, tot), i = 0;
            while (x >= kinds[i].w[p])
                x -= kinds[i++].w[p];
            if (fits(&g, &kinds[i]))
                k = &kinds[i];
        }
        if (!k)
            k = &kinds[0]; /* a single instruction always fits */
        k->fn(&g);
    }
    b->n = g.end;
}
