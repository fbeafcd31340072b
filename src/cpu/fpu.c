/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The R10000 FPU (CP1): register file, FCSR, instruction decode, moves,
 * compares and conditional moves.  Rounding arithmetic lives in
 * fpu_arith.c; the behaviour chosen where the R10000 documentation is silent
 * is listed in docs/fpu.md.
 *
 * Every arithmetic instruction (anything that may round or signal,
 * including ABS, NEG, C.cond and conversions) replaces the FCSR cause field
 * with the exceptions it raised.  If one of them is enabled, or it is E
 * (always enabled), the instruction does not complete: no result is written,
 * no condition code changes, the flags are left alone and fpu_exec() returns
 * FPU_EXC_FPE.  Otherwise the flags accumulate the cause.  Moves (MOV,
 * MOVF/MOVT/MOVN/MOVZ.fmt, MFC1, MTC1, ...) never touch the FCSR. */
#include "cpu/fpu.h"

#include "cpu/fpu_internal.h"

#define FCSR_CAUSE_MASK (0x3fu << FCSR_CAUSE_SHIFT)
/* FCSR bits 22..18 are unimplemented on the R10000 and read as zero. */
#define FCSR_WRITABLE 0xff83ffffu
#define FIR_R10000 0x0900u /* implementation 0x09, revision 0 */

/* COP1 rs-field values below the formats. */
enum { RS_MF = 0, RS_DMF = 1, RS_CF = 2, RS_MT = 4, RS_DMT = 5, RS_CT = 6 };

void fpu_reset(fpu_state *f)
{
    memset(f, 0, sizeof *f);
    f->fir = FIR_R10000;
}

/* --- registers -------------------------------------------------------------
 * FR=1: 32 64-bit registers; a 32-bit value is the low half (the high half
 * is kept).  FR=0: 32 32-bit registers held in the low halves of fpr[]; a
 * 64-bit value lives in the even/odd pair (low word in the even register).
 * These raw accessors use the even register of the pair for an odd r; the
 * instructions themselves reject odd registers first (see reg_ok()). */
uint32_t fpu_get_w(const fpu_state *f, unsigned r, bool fr) { return (uint32_t)f->fpr[r & 31]; }

void fpu_set_w(fpu_state *f, unsigned r, bool fr, uint32_t v)
{
    r &= 31;
    f->fpr[r] = (f->fpr[r] & 0xffffffff00000000ull) | v;
}

uint64_t fpu_get_d(const fpu_state *f, unsigned r, bool fr)
{
    r &= 31;
    if (fr)
        return f->fpr[r];
    r &= ~1u;
    return ((uint64_t)(uint32_t)f->fpr[r + 1] << 32) | (uint32_t)f->fpr[r];
}

void fpu_set_d(fpu_state *f, unsigned r, bool fr, uint64_t v)
{
    r &= 31;
    if (fr) {
        f->fpr[r] = v;
        return;
    }
    r &= ~1u;
    fpu_set_w(f, r, false, (uint32_t)v);
    fpu_set_w(f, r + 1, false, (uint32_t)(v >> 32));
}

bool fpu_cc(const fpu_state *f, unsigned cc) { return (f->fcsr >> fcsr_cc_bit(cc & 7)) & 1; }

static void set_cc(fpu_state *f, unsigned cc, bool v)
{
    uint32_t bit = 1u << fcsr_cc_bit(cc & 7);
    f->fcsr = v ? f->fcsr | bit : f->fcsr & ~bit;
}

/* With FR=0 a 64-bit operand in an odd register is undefined on MIPS; we
 * raise Unimplemented Operation for it (as a reserved encoding would). */
static bool reg_ok(int fmt, unsigned r, bool fr) { return fr || !fmt_is64(fmt) || !(r & 1); }

static uint64_t get_fmt(const fpu_state *f, int fmt, unsigned r, bool fr)
{
    return fmt_is64(fmt) ? fpu_get_d(f, r, fr) : fpu_get_w(f, r, fr);
}

static void set_fmt(fpu_state *f, int fmt, unsigned r, bool fr, uint64_t v)
{
    if (fmt_is64(fmt))
        fpu_set_d(f, r, fr, v);
    else
        fpu_set_w(f, r, fr, (uint32_t)v);
}

static fpu_env env_of(const fpu_state *f)
{
    fpu_env e = {
        .rm = f->fcsr & FCSR_RM,
        .fs = (f->fcsr & FCSR_FS) != 0,
        .enables = (f->fcsr >> FCSR_ENABLES_SHIFT) & 0x1f,
    };
    return e;
}

/* End of an arithmetic instruction that raised `x`: true if it completes. */
static bool complete(fpu_state *f, unsigned x)
{
    f->fcsr = (f->fcsr & ~FCSR_CAUSE_MASK) | (x << FCSR_CAUSE_SHIFT);
    unsigned enables = (f->fcsr >> FCSR_ENABLES_SHIFT) & 0x1f;
    if ((x & X_E) || (x & enables))
        return false;
    f->fcsr |= (x & 0x1f) << FCSR_FLAGS_SHIFT;
    return true;
}

static int unimplemented(fpu_state *f)
{
    complete(f, X_E);
    return FPU_EXC_FPE;
}

/* Write an arithmetic result if the instruction completes. */
static int finish(fpu_state *f, int fmt, unsigned fd, bool fr, uint64_t v, unsigned x)
{
    if (!complete(f, x))
        return FPU_EXC_FPE;
    set_fmt(f, fmt, fd, fr, v);
    return FPU_OK;
}

/* --- C.cond.fmt ------------------------------------------------------------
 * cond bit 0: true if unordered, bit 1: if equal, bit 2: if less; bit 3:
 * signalling (unordered raises Invalid).  A signalling NaN always raises
 * Invalid.  Compared exactly, so denormals need no special case. */
static int compare(int fmt, uint64_t a, uint64_t b, unsigned cond, unsigned *x)
{
    if (f_issnan(fmt, a) || f_issnan(fmt, b))
        *x |= X_V;
    if (f_isnan(fmt, a) || f_isnan(fmt, b)) {
        if (cond & 8)
            *x |= X_V;
        return cond & 1;
    }
    bool eq, lt;
    if (f_iszero(fmt, a) && f_iszero(fmt, b)) {
        eq = true;
        lt = false;
    } else {
        /* sign-magnitude to a totally ordered integer */
        int64_t ka = (int64_t)f_abs(fmt, a), kb = (int64_t)f_abs(fmt, b);
        if (f_sign(fmt, a))
            ka = -ka;
        if (f_sign(fmt, b))
            kb = -kb;
        eq = ka == kb;
        lt = ka < kb;
    }
    return ((cond & 4) && lt) || ((cond & 2) && eq);
}

/* --- the S and D formats ---------------------------------------------------- */
static int exec_fmt_sd(fpu_state *f, uint32_t insn, int fmt, bool fr, uint64_t *gpr)
{
    unsigned func = insn & 63, ft = (insn >> 16) & 31, fs = (insn >> 11) & 31,
             fd = (insn >> 6) & 31;
    fpu_env env = env_of(f);
    unsigned x = 0;
    uint64_t a = get_fmt(f, fmt, fs, fr), b = get_fmt(f, fmt, ft, fr), r;

    if (func >= 48) { /* C.cond.fmt: cc in bits 10..8 */
        if (!reg_ok(fmt, fs, fr) || !reg_ok(fmt, ft, fr))
            return unimplemented(f);
        bool c = compare(fmt, a, b, func & 15, &x);
        if (!complete(f, x))
            return FPU_EXC_FPE;
        set_cc(f, (insn >> 8) & 7, c);
        return FPU_OK;
    }
    /* fd holds the source format except for the conversions, which check
     * it against their destination format below. */
    bool convert = (func >= 8 && func <= 15) || (func >= 32 && func <= 37);
    if (!reg_ok(fmt, fs, fr) || (!convert && !reg_ok(fmt, fd, fr)))
        return unimplemented(f);

    switch (func) {
    case 0:
    case 1:
    case 2:
    case 3: /* ADD SUB MUL DIV */
        if (!reg_ok(fmt, ft, fr))
            return unimplemented(f);
        r = fpu_arith(fmt, (enum arith_op)(AOP_ADD + func), a, b, &env, &x);
        return finish(f, fmt, fd, fr, r, x);
    case 4:
    case 21:
    case 22: /* SQRT RECIP RSQRT */
        r = fpu_arith(fmt,
                      func == 4    ? AOP_SQRT
                      : func == 21 ? AOP_RECIP
                                   : AOP_RSQRT,
                      a, 0, &env, &x);
        return finish(f, fmt, fd, fr, r, x);
    case 5:
    case 7: /* ABS NEG: arithmetic, so a signalling NaN is Invalid */
        if (f_issnan(fmt, a)) {
            x = X_V;
            r = f_default_nan(fmt);
        } else if (f_isnan(fmt, a)) {
            r = a;
        } else if (f_isdenorm(fmt, a)) {
            return unimplemented(f);
        } else {
            uint64_t sign = f_sign(fmt, ~0ull);
            r = func == 5 ? a & ~sign : a ^ sign;
        }
        return finish(f, fmt, fd, fr, r, x);
    case 6: /* MOV */ set_fmt(f, fmt, fd, fr, a); return FPU_OK;
    case 17: /* MOVF.fmt / MOVT.fmt: cc in bits 20..18, tf in bit 16 */
        if (insn & (1u << 17))
            return unimplemented(f);
        if (fpu_cc(f, (insn >> 18) & 7) == ((insn >> 16) & 1))
            set_fmt(f, fmt, fd, fr, a);
        return FPU_OK;
    case 18:
    case 19: /* MOVZ.fmt / MOVN.fmt on GPR ft */
        if ((gpr[ft] == 0) == (func == 18))
            set_fmt(f, fmt, fd, fr, a);
        return FPU_OK;
    case 8:
    case 9:
    case 10:
    case 11: /* ROUND TRUNC CEIL FLOOR .L */
    case 12:
    case 13:
    case 14:
    case 15: /* ROUND TRUNC CEIL FLOOR .W */
    {
        int dfmt = func < 12 ? FMT_L : FMT_W;
        if (!reg_ok(dfmt, fd, fr))
            return unimplemented(f);
        fpu_env e2 = env;
        e2.rm = func & 3; /* ROUND: RN, TRUNC: RZ, CEIL: RP, FLOOR: RM */
        r = fpu_convert(dfmt, fmt, a, &e2, &x);
        return finish(f, dfmt, fd, fr, r, x);
    }
    case 32:
    case 33:
    case 36:
    case 37: /* CVT.S CVT.D CVT.W CVT.L */
    {
        static const int dst[6] = {FMT_S, FMT_D, 0, 0, FMT_W, FMT_L};
        int dfmt = dst[func - 32];
        if (dfmt == fmt || !reg_ok(dfmt, fd, fr))
            return unimplemented(f);
        r = fpu_convert(dfmt, fmt, a, &env, &x);
        return finish(f, dfmt, fd, fr, r, x);
    }
    default: return unimplemented(f);
    }
}

/* --- the W and L formats: only CVT.S and CVT.D exist ----------------------- */
static int exec_fmt_wl(fpu_state *f, uint32_t insn, int fmt, bool fr)
{
    unsigned func = insn & 63, fs = (insn >> 11) & 31, fd = (insn >> 6) & 31;
    if (func != 32 && func != 33)
        return unimplemented(f);
    int dfmt = func == 32 ? FMT_S : FMT_D;
    if (!reg_ok(fmt, fs, fr) || !reg_ok(dfmt, fd, fr))
        return unimplemented(f);
    fpu_env env = env_of(f);
    unsigned x = 0;
    uint64_t r = fpu_convert(dfmt, fmt, get_fmt(f, fmt, fs, fr), &env, &x);
    return finish(f, dfmt, fd, fr, r, x);
}

/* --- moves to and from the CPU --------------------------------------------- */
static int exec_move(fpu_state *f, uint32_t insn, unsigned rs, bool fr, uint64_t *gpr)
{
    unsigned rt = (insn >> 16) & 31, fs = (insn >> 11) & 31;
    switch (rs) {
    case RS_MF: /* MFC1: sign-extended */
        if (rt)
            gpr[rt] = (uint64_t)sext32(fpu_get_w(f, fs, fr));
        return FPU_OK;
    case RS_DMF:
        if (!reg_ok(FMT_D, fs, fr))
            return unimplemented(f);
        if (rt)
            gpr[rt] = fpu_get_d(f, fs, fr);
        return FPU_OK;
    case RS_MT: fpu_set_w(f, fs, fr, (uint32_t)gpr[rt]); return FPU_OK;
    case RS_DMT:
        if (!reg_ok(FMT_D, fs, fr))
            return unimplemented(f);
        fpu_set_d(f, fs, fr, gpr[rt]);
        return FPU_OK;
    case RS_CF: /* FCR0 = FIR, FCR31 = FCSR; the R10000 has no others: 0 */
        if (rt)
            gpr[rt] = (uint64_t)sext32(fs == 0 ? f->fir : fs == 31 ? f->fcsr : 0);
        return FPU_OK;
    case RS_CT: /* only FCR31 is writable; a cause bit that is enabled (or
                   E) raises the FP exception at once, the FCSR written */
        if (fs != 31)
            return FPU_OK;
        f->fcsr = (uint32_t)gpr[rt] & FCSR_WRITABLE;
        {
            unsigned cause = (f->fcsr >> FCSR_CAUSE_SHIFT) & 0x3f;
            unsigned enables = ((f->fcsr >> FCSR_ENABLES_SHIFT) & 0x1f) | X_E;
            return (cause & enables) ? FPU_EXC_FPE : FPU_OK;
        }
    default: return FPU_EXC_RI;
    }
}

/* --- COP1X: MADD MSUB NMADD NMSUB .S/.D -------------------------------------- */
static int exec_cop1x(fpu_state *f, uint32_t insn, bool fr)
{
    unsigned fr_ = (insn >> 21) & 31, ft = (insn >> 16) & 31, fs = (insn >> 11) & 31,
             fd = (insn >> 6) & 31, op = (insn >> 3) & 7, fmt3 = insn & 7;
    if (op < 4)
        return FPU_EXC_RI; /* indexed loads/stores and PREFX are the CPU's */
    if (fmt3 > 1)
        return unimplemented(f);
    int fmt = fmt3 == 0 ? FMT_S : FMT_D;
    if (!reg_ok(fmt, fr_, fr) || !reg_ok(fmt, ft, fr) || !reg_ok(fmt, fs, fr) ||
        !reg_ok(fmt, fd, fr))
        return unimplemented(f);
    static const enum madd_kind kind[4] = {MADD, MSUB, NMADD, NMSUB};
    fpu_env env = env_of(f);
    unsigned x = 0;
    uint64_t r = fpu_madd(fmt, kind[op - 4], get_fmt(f, fmt, fs, fr), get_fmt(f, fmt, ft, fr),
                          get_fmt(f, fmt, fr_, fr), &env, &x);
    return finish(f, fmt, fd, fr, r, x);
}

int fpu_exec(fpu_state *f, uint32_t insn, bool fr, uint64_t *gpr)
{
    unsigned opcode = insn >> 26, rs = (insn >> 21) & 31;
    if (opcode == 0x13)
        return exec_cop1x(f, insn, fr);
    if (opcode != 0x11)
        return FPU_EXC_RI;
    switch (rs) {
    case FMT_S:
    case FMT_D: return exec_fmt_sd(f, insn, (int)rs, fr, gpr);
    case FMT_W:
    case FMT_L: return exec_fmt_wl(f, insn, (int)rs, fr);
    default:
        if (rs >= 16) /* reserved formats (E, Q, ...): unimplemented */
            return unimplemented(f);
        return exec_move(f, insn, rs, fr, gpr);
    }
}
