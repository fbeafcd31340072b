/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where xbow (the R10000) and Unicorn (QEMU 5's MIPS64 R1 "5Kf") may
 * differ, by name.  Each rule is as narrow as we could make it: it names an
 * instruction class and the operand or result condition, and says what may
 * differ; anything else that differs is a mismatch.  The table is printed
 * by `oracle --exclusions` and listed in docs/cpu-testing.md.
 *
 * "avoided" entries are UNPREDICTABLE or model-specific cases the generator
 * does not produce.  orc_excl_pre() recognises those that show in the
 * instruction and its operands (32-bit operands, FR=0 L format and odd
 * doubles, CFC1 of FCR0), so a generator bug there shows up as a non-zero
 * count in the summary and fails the run; the other two (LL/SC pairing,
 * reserved encodings) are kept out by construction.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"

/* clang-format off */
enum {
    X_SE32, X_FR0_LONG, X_FR0_ODD, X_LLSC, X_FIR, X_RESERVED_FP,
    X_E_DENORM, X_E_TINY, X_FS_FLUSH, X_RSQRT, X_ABSNEG, X_NMADD_NAN, X_CVT_NAN, X_MADD_NAN_FLAGS,
};
/* clang-format on */

const orc_excl orc_excls[] = {
    [X_SE32] =
        {"unpredictable-32bit-operand",
         "a 32-bit operation (ADDU, MULT, DIV, SRL, ...) on a GPR that is not a sign-extended "
         "32-bit value is UNPREDICTABLE in MIPS IV/MIPS64",
         true},
    [X_FR0_LONG] = {"fr0-long-format",
                    "with FR=0 QEMU's MIPS64 R1 reserves every L-format operation; the R10000 "
                    "executes them on register pairs",
                    true},
    [X_FR0_ODD] = {"fr0-odd-double",
                   "with FR=0 a D/L operand in an odd register is UNPREDICTABLE (xbow: "
                   "Unimplemented Operation, QEMU: Reserved Instruction)",
                   true},
    [X_LLSC] = {"llsc-not-paired",
                "SC without a matching LL on the same address, or a store between them: the "
                "R10000 keys SC on its LLbit, QEMU compares the address and the value",
                true},
    [X_FIR] = {"cfc1-fir",
               "CFC1 of FCR0 (implementation/revision) names the CPU: 0x0900 on the R10000", true},
    [X_RESERVED_FP] = {"reserved-fp-encoding",
                       "reserved COP1 formats/functions: xbow raises Unimplemented Operation as "
                       "the R10000 does, QEMU raises Reserved Instruction",
                       true},
    [X_E_DENORM] = {"fp-denormal-operand",
                    "the R10000 traps a denormal operand of an arithmetic or convert "
                    "instruction (Unimplemented Operation, for software to complete); QEMU "
                    "computes the result",
                    false},
    [X_E_TINY] = {"fp-tiny-result",
                  "the R10000 traps a tiny result when FS=0 (or when Underflow/Inexact is "
                  "enabled); QEMU delivers the denormal",
                  false},
    [X_FS_FLUSH] = {"fp-flush-to-zero",
                    "with FS=1 the R10000 flushes a tiny result to 0 (or to the smallest normal "
                    "in RP/RM) and signals Underflow and Inexact; QEMU flushes to 0 silently, "
                    "also a result that rounds up to the smallest normal",
                    false},
    [X_RSQRT] = {"rsqrt-double-rounding",
                 "QEMU computes RSQRT as 1/sqrt(x) with two roundings; xbow returns the "
                 "correctly rounded result, one or two ulps apart in rare cases",
                 false},
    [X_ABSNEG] = {"abs-neg-bitwise",
                  "QEMU implements ABS/NEG as sign-bit operations: no cause update, no Invalid "
                  "for a signalling NaN, the sign of a NaN flipped; on the R10000 they are "
                  "arithmetic",
                  false},
    [X_NMADD_NAN] = {"nmadd-nan-sign",
                     "QEMU negates a NaN result of NMADD/NMSUB; the R10000 does not", false},
    [X_MADD_NAN_FLAGS] = {"madd-nan-addend-flags",
                          "MADD family with a NaN addend (fr) and non-NaN fs, ft: QEMU multiplies "
                          "first, keeping the product's flags (and an invalid product's default "
                          "NaN, e.g. inf*0); xbow returns the addend with no flag.  The R10000's "
                          "choice is not documented",
                          false},
    [X_CVT_NAN] = {"cvt-nan-payload",
                   "CVT.S.D/CVT.D.S of a quiet NaN: QEMU carries the payload over, xbow gives "
                   "the default NaN",
                   false},
};
const unsigned orc_nexcls = sizeof orc_excls / sizeof orc_excls[0];

/* ---- Decoding helpers ------------------------------------------------------------ */

#define OP(w) ((w) >> 26)
#define RS(w) (((w) >> 21) & 31)
#define RT(w) (((w) >> 16) & 31)
#define RD(w) (((w) >> 11) & 31)
#define SA(w) (((w) >> 6) & 31)
#define FN(w) ((w)&63)

#define CAUSE(f) (((f) >> 12) & 0x3f)
#define C_I 0x01
#define C_U 0x02
#define C_E 0x20

static bool se32(uint64_t v) { return v == (uint64_t)(int64_t)(int32_t)v; }

static uint32_t fp_w(const orc_state *s, unsigned r) { return (uint32_t)s->fpr[r]; }
static uint64_t fp_d(const orc_state *s, unsigned r, bool fr)
{
    return fr ? s->fpr[r] : ((uint64_t)(uint32_t)s->fpr[r | 1] << 32) | (uint32_t)s->fpr[r & ~1u];
}

static bool denorm_s(uint32_t v) { return (v & 0x7f800000u) == 0 && (v & 0x7fffffu) != 0; }
static bool denorm_d(uint64_t v)
{
    return (v & 0x7ff0000000000000ull) == 0 && (v & 0xfffffffffffffull) != 0;
}
static bool nan_s(uint32_t v) { return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) != 0; }
static bool nan_d(uint64_t v)
{
    return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull) != 0;
}

/* Is a value of format fmt (16 S, 17 D, 20 W, 21 L) in register r denormal / NaN? */
static bool denorm_in(const orc_state *s, unsigned fmt, unsigned r, bool fr)
{
    return fmt == 16 ? denorm_s(fp_w(s, r)) : fmt == 17 ? denorm_d(fp_d(s, r, fr)) : false;
}

static bool nan_in(const orc_state *s, unsigned fmt, unsigned r, bool fr)
{
    return fmt == 16 ? nan_s(fp_w(s, r)) : fmt == 17 ? nan_d(fp_d(s, r, fr)) : false;
}

/* An arithmetic or convert instruction (the ones that may raise E), with
 * its source format and registers. */
typedef struct fpop {
    unsigned fmt, nsrc, src[3], fd, dfmt;
    bool madd;
    unsigned fn;
} fpop;

static bool decode_fp(uint32_t w, fpop *o)
{
    memset(o, 0, sizeof *o);
    if (OP(w) == 0x13 && FN(w) >= 0x20) { /* MADD family */
        o->fmt = (FN(w) & 7) == 0 ? 16 : 17;
        o->nsrc = 3;
        o->src[0] = RD(w); /* fs */
        o->src[1] = RT(w); /* ft */
        o->src[2] = RS(w); /* fr */
        o->fd = SA(w);
        o->dfmt = o->fmt;
        o->madd = true;
        o->fn = FN(w) >> 3;
        return true;
    }
    if (OP(w) != 0x11 || RS(w) < 16)
        return false;
    unsigned f = FN(w);
    o->fmt = RS(w);
    o->fn = f;
    o->src[0] = RD(w);
    o->src[1] = RT(w);
    o->fd = SA(w);
    o->dfmt = o->fmt;
    if (f <= 3)
        o->nsrc = 2;
    else if (f == 4 || f == 5 || f == 7 || f == 21 || f == 22)
        o->nsrc = 1;
    else if (f >= 8 && f <= 15) {
        o->nsrc = 1;
        o->dfmt = f < 12 ? 21 : 20;
    } else if (f >= 32 && f <= 37) {
        o->nsrc = 1;
        o->dfmt = f == 32 ? 16 : f == 33 ? 17 : f == 36 ? 20 : 21;
    } else
        return false; /* MOV, moves, compares: no E */
    return true;
}

static uint64_t fp_dest(const orc_state *s, const fpop *o, bool fr)
{
    return (o->dfmt == 17 || o->dfmt == 21) ? fp_d(s, o->fd, fr) : fp_w(s, o->fd);
}

static bool dest_tiny(const orc_state *s, const fpop *o, bool fr)
{
    uint64_t v = fp_dest(s, o, fr);
    return o->dfmt == 16 ? denorm_s((uint32_t)v) : o->dfmt == 17 ? denorm_d(v) : false;
}

/* The exact product of a MADD is tiny (nonzero, below the smallest normal)? */
static bool madd_product_tiny(const orc_state *s, const fpop *o, bool fr)
{
    long double a, b, lim;
    if (o->fmt == 16) {
        float x, y;
        uint32_t u = fp_w(s, o->src[0]), v = fp_w(s, o->src[1]);
        memcpy(&x, &u, 4);
        memcpy(&y, &v, 4);
        a = x, b = y, lim = 0x1p-126L;
    } else {
        double x, y;
        uint64_t u = fp_d(s, o->src[0], fr), v = fp_d(s, o->src[1], fr);
        memcpy(&x, &u, 8);
        memcpy(&y, &v, 8);
        a = x, b = y, lim = 0x1p-1022L;
    }
    long double p = fabsl(a * b);
    return p != 0 && p <= lim;
}

/* The FP source operands of an instruction, as it reads them. */
void orc_describe_fp(uint32_t w, const orc_state *s, bool fr, char *buf, unsigned len)
{
    fpop o;
    buf[0] = 0;
    if (!decode_fp(w, &o) && !(OP(w) == 0x11 && RS(w) >= 16 && FN(w) >= 48)) {
        return;
    }
    if (!o.nsrc) { /* a compare */
        o.fmt = RS(w);
        o.nsrc = 2;
        o.src[0] = RD(w);
        o.src[1] = RT(w);
    }
    unsigned n = 0;
    for (unsigned i = 0; i < o.nsrc && n < len; i++) {
        bool wide = o.fmt == 17 || o.fmt == 21;
        uint64_t v = wide ? fp_d(s, o.src[i], fr) : fp_w(s, o.src[i]);
        n += (unsigned)snprintf(buf + n, len - n, " $f%u=0x%0*llx", o.src[i], wide ? 16 : 8,
                                (unsigned long long)v);
    }
}

/* QEMU's RSQRT: sqrt, then 1/x, each rounded in the current mode. */
static uint64_t qemu_rsqrt(unsigned fmt, uint64_t v, unsigned rm)
{
    static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
    int saved = fegetround();
    uint64_t out;
    fesetround(modes[rm & 3]);
    if (fmt == 16) {
        volatile float x, sq, r;
        uint32_t u = (uint32_t)v, o;
        memcpy((void *)&x, &u, 4);
        sq = sqrtf(x);
        r = 1.0f / sq;
        float rr = r;
        memcpy(&o, &rr, 4);
        out = o;
    } else {
        volatile double x, sq, r;
        memcpy((void *)&x, &v, 8);
        sq = sqrt(x);
        r = 1.0 / sq;
        double rr = r;
        memcpy(&out, &rr, 8);
    }
    fesetround(saved);
    return out;
}

/* ---- Before the instruction -------------------------------------------------------- */

int orc_excl_pre(uint32_t w, const orc_state *pre, bool fr)
{
    unsigned op = OP(w), f = FN(w);
    if (op == 0 && ((f >= 0x18 && f <= 0x1b) || (f >= 0x20 && f <= 0x23)))
        if (!se32(pre->gpr[RS(w)]) || !se32(pre->gpr[RT(w)]))
            return X_SE32;
    if (op == 0 && (f == 2 || f == 3 || f == 6 || f == 7) && !se32(pre->gpr[RT(w)]))
        return X_SE32;
    if ((op == 8 || op == 9) && !se32(pre->gpr[RS(w)]))
        return X_SE32;
    if (op == 0x11 && RS(w) == 2 && RD(w) != 31)
        return X_FIR;
    if (!fr) {
        fpop o;
        if (op == 0x11 && (RS(w) == 21 || (RS(w) >= 16 && (f == 37 || (f >= 8 && f <= 11)))))
            return X_FR0_LONG;
        if (decode_fp(w, &o)) {
            bool wide_src = o.fmt == 17 || o.fmt == 21, wide_dst = o.dfmt == 17 || o.dfmt == 21;
            for (unsigned i = 0; i < o.nsrc; i++)
                if (wide_src && (o.src[i] & 1))
                    return X_FR0_ODD;
            if (wide_dst && (o.fd & 1))
                return X_FR0_ODD;
        }
    }
    return -1;
}

/* ---- After it: allowed differences ------------------------------------------------ */

int orc_excl_post(const orc_step *st, unsigned *ign)
{
    fpop o;
    bool fp = decode_fp(st->insn, &o);
    uint32_t xc = CAUSE(st->xb->fcsr), uc = CAUSE(st->uc->fcsr);
    *ign = IGN_ALL;
    if (fp && st->xb_exc == 15 + 1 && (xc & C_E)) {
        for (unsigned i = 0; i < o.nsrc; i++)
            if (denorm_in(st->pre, o.fmt, o.src[i], st->fr))
                return X_E_DENORM;
        if ((uc & C_U) || dest_tiny(st->uc, &o, st->fr) ||
            (o.madd && madd_product_tiny(st->pre, &o, st->fr)))
            return X_E_TINY;
    }
    if (!fp)
        return -1;
    bool wide = o.dfmt == 17 || o.dfmt == 21;
    uint64_t ud = fp_dest(st->uc, &o, st->fr), xd = fp_dest(st->xb, &o, st->fr);
    uint64_t sign = wide ? 1ull << 63 : 1ull << 31;
    if ((st->pre->fcsr & 0x01000000u) && !(uc & C_U) && !st->xb_exc && !st->uc_exc) {
        /* xbow flushed (Underflow), or QEMU flushed a value that rounds up
         * to the smallest normal (QEMU decides tininess before rounding) */
        uint64_t min_normal = o.dfmt == 17 ? 0x0010000000000000ull : 0x00800000ull;
        if ((xc & C_U) || ((xd & ~sign) == min_normal && (ud & ~sign) == 0)) {
            *ign = IGN_FCSR | IGN_FPR;
            return X_FS_FLUSH;
        }
    }
    if (!o.madd && (o.fn == 5 || o.fn == 7)) { /* ABS, NEG */
        if (nan_in(st->pre, o.fmt, o.src[0], st->fr))
            return X_ABSNEG;   /* anything may differ */
        *ign = IGN_FCSR_CAUSE; /* only the cause (QEMU leaves it) */
        return X_ABSNEG;
    }
    if (!o.madd && o.fn == 22) { /* RSQRT */
        uint64_t in = o.fmt == 17 ? fp_d(st->pre, o.src[0], st->fr) : fp_w(st->pre, o.src[0]);
        uint64_t delta = ud > xd ? ud - xd : xd - ud;
        if (ud == qemu_rsqrt(o.fmt, in, st->pre->fcsr & 3) && delta <= 2) {
            *ign = IGN_FPR;
            return X_RSQRT;
        }
    }
    if (o.madd && nan_in(st->pre, o.fmt, o.src[2], st->fr) &&
        !nan_in(st->pre, o.fmt, o.src[0], st->fr) && !nan_in(st->pre, o.fmt, o.src[1], st->fr)) {
        uint64_t addend = wide ? fp_d(st->pre, o.src[2], st->fr) : fp_w(st->pre, o.src[2]);
        bool unan = wide ? nan_d(ud) : nan_s((uint32_t)ud);
        *ign = (st->uc_exc && !st->xb_exc) ? IGN_ALL : IGN_FCSR;
        uint64_t dnan = wide ? 0x7ff7ffffffffffffull : 0x7fbfffffull;
        /* xbow: the addend (the default NaN for a signalling one); QEMU: the
         * product's NaN if it is one, negated by NMADD/NMSUB */
        if (unan && (xd == addend || xd == dnan))
            *ign |= IGN_FPR;
        return X_MADD_NAN_FLAGS;
    }
    if (o.madd && o.fn >= 6 && (wide ? nan_d(ud) : nan_s((uint32_t)ud)) && (ud ^ xd) == sign) {
        *ign = IGN_FPR;
        return X_NMADD_NAN;
    }
    if (!o.madd && ((o.fn == 32 && o.fmt == 17) || (o.fn == 33 && o.fmt == 16)) &&
        nan_in(st->pre, o.fmt, o.src[0], st->fr) &&
        xd == (wide ? 0x7ff7ffffffffffffull : 0x7fbfffffull)) {
        *ign = IGN_FPR;
        return X_CVT_NAN;
    }
    return -1;
}
