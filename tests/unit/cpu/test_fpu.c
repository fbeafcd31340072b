/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the R10000 FPU (src/cpu/fpu.c, fpu_arith.c).
 *
 * Instructions are encoded here and run through fpu_exec() as the CPU core
 * would.  Expected values are literal constants, or are computed by the
 * host's IEEE unit in the same rounding mode (never by the code under test).
 * Registers are set and read through fpr[] directly with FR=1 so that the
 * register accessors are tested on their own (FR tests). */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/fpu.h"
#include "../check_run.h"

/* --- encodings ------------------------------------------------------------- */
enum { S = 16, D = 17, W = 20, L = 21 };
/* clang-format off */
enum {
    F_ADD = 0, F_SUB, F_MUL, F_DIV, F_SQRT, F_ABS, F_MOV, F_NEG,
    F_ROUNDL, F_TRUNCL, F_CEILL, F_FLOORL, F_ROUNDW, F_TRUNCW, F_CEILW, F_FLOORW,
    F_MOVCF = 17, F_MOVZ = 18, F_MOVN = 19, F_RECIP = 21, F_RSQRT = 22,
    F_CVTS = 32, F_CVTD = 33, F_CVTW = 36, F_CVTL = 37, F_C = 48,
};
/* clang-format on */
enum {
    C_F,
    C_UN,
    C_EQ,
    C_UEQ,
    C_OLT,
    C_ULT,
    C_OLE,
    C_ULE,
    C_SF,
    C_NGLE,
    C_SEQ,
    C_NGL,
    C_LT,
    C_NGE,
    C_LE,
    C_NGT
};
enum { X_MADD = 4, X_MSUB = 5, X_NMADD = 6, X_NMSUB = 7 };

static uint32_t cop1(unsigned fmt, unsigned ft, unsigned fs, unsigned fd, unsigned func)
{
    return (0x11u << 26) | (fmt << 21) | (ft << 16) | (fs << 11) | (fd << 6) | func;
}
static uint32_t ccmp(unsigned fmt, unsigned ft, unsigned fs, unsigned cc, unsigned cond)
{
    return cop1(fmt, ft, fs, cc << 2, F_C + cond);
}
static uint32_t movcf(unsigned fmt, unsigned cc, bool tf, unsigned fs, unsigned fd)
{
    return cop1(fmt, (cc << 2) | tf, fs, fd, F_MOVCF);
}
static uint32_t cop1x(unsigned fr, unsigned ft, unsigned fs, unsigned fd, unsigned op,
                      unsigned fmt3)
{
    return (0x13u << 26) | (fr << 21) | (ft << 16) | (fs << 11) | (fd << 6) | (op << 3) | fmt3;
}
static uint32_t move(unsigned rs, unsigned rt, unsigned fs)
{
    return (0x11u << 26) | (rs << 21) | (rt << 16) | (fs << 11);
}

/* FCSR fields, spelled out here rather than taken from the code. */
#define C_I (1u << 12)
#define C_U (1u << 13)
#define C_O (1u << 14)
#define C_Z (1u << 15)
#define C_V (1u << 16)
#define C_E (1u << 17)
#define CAUSE (0x3fu << 12)
#define FL_I (1u << 2)
#define FL_U (1u << 3)
#define FL_V (1u << 6)
#define FLAGS (0x1fu << 2)
#define EN_I (1u << 7)
#define EN_U (1u << 8)
#define EN_O (1u << 9)
#define EN_Z (1u << 10)
#define EN_V (1u << 11)
#define FS_BIT (1u << 24)
static const unsigned cc_bit[8] = {23, 25, 26, 27, 28, 29, 30, 31};

#define QNAN_S 0x7fbfffffu
#define QNAN_D 0x7ff7ffffffffffffull
#define MINN_S 0x00800000u
#define MINN_D 0x0010000000000000ull
#define MAX_S 0x7f7fffffu
#define INF_S 0x7f800000u
#define INF_D 0x7ff0000000000000ull

static uint32_t fb(float f) { return fpu_float_bits(f); }
static uint64_t db(double d) { return fpu_double_bits(d); }
static float bf(uint32_t v) { return fpu_float(v); }
static double bd(uint64_t v) { return fpu_double(v); }

static fpu_state F;
static uint64_t G[32];

static void setup(void)
{
    fpu_reset(&F);
    memset(G, 0, sizeof G);
}

static void set_rm(unsigned rm) { F.fcsr = (F.fcsr & ~3u) | rm; }
static int ex(uint32_t insn) { return fpu_exec(&F, insn, true, G); }
static uint32_t cause(void) { return F.fcsr & CAUSE; }
#define S32(r) ((uint32_t)F.fpr[r])

/* --- host reference ------------------------------------------------------- */
static const int HRM[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

static uint32_t host_cause(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    return ((e & FE_INEXACT) ? C_I : 0) | ((e & FE_UNDERFLOW) ? C_U : 0) |
           ((e & FE_OVERFLOW) ? C_O : 0) | ((e & FE_DIVBYZERO) ? C_Z : 0) |
           ((e & FE_INVALID) ? C_V : 0);
}

/* a op b on the host in mode rm; returns the bits and sets *hc. */
static uint64_t host(unsigned fmt, unsigned func, uint64_t a, uint64_t b, unsigned rm, uint32_t *hc)
{
    uint64_t r;
    fesetround(HRM[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    if (fmt == S) {
        volatile float x = bf((uint32_t)a), y = bf((uint32_t)b), z = 0;
        switch (func) {
        case F_ADD: z = x + y; break;
        case F_SUB: z = x - y; break;
        case F_MUL: z = x * y; break;
        case F_DIV: z = x / y; break;
        case F_SQRT: z = sqrtf(x); break;
        case F_RECIP: z = 1.0f / x; break;
        }
        r = fb(z);
    } else {
        volatile double x = bd(a), y = bd(b), z = 0;
        switch (func) {
        case F_ADD: z = x + y; break;
        case F_SUB: z = x - y; break;
        case F_MUL: z = x * y; break;
        case F_DIV: z = x / y; break;
        case F_SQRT: z = sqrt(x); break;
        case F_RECIP: z = 1.0 / x; break;
        }
        r = db(z);
    }
    *hc = host_cause();
    fesetround(FE_TONEAREST);
    return r;
}

static bool is_tiny_or_nan(unsigned fmt, uint64_t v, uint32_t hc)
{
    if (hc & C_U)
        return true;
    if (fmt == S)
        return isnan(bf((uint32_t)v)) || fpclassify(bf((uint32_t)v)) == FP_SUBNORMAL;
    return isnan(bd(v)) || fpclassify(bd(v)) == FP_SUBNORMAL;
}

/* ============================ arithmetic ================================= */

/* Every basic op, both formats, all rounding modes, against the host. */
START_TEST(arith_matches_host)
{
    static const double vals[] = {1,        3,         -3,          0.1,     -7.5,
                                  1e30,     -2.5e-20,  1e300,       0.0,     -0.0,
                                  INFINITY, -INFINITY, 123456789.0, 1.0 / 3, 3.4e38};
    static const unsigned funcs[] = {F_ADD, F_SUB, F_MUL, F_DIV, F_SQRT, F_RECIP};
    int checked = 0;
    for (unsigned fmt = S; fmt <= D; fmt++)
        for (unsigned rm = 0; rm < 4; rm++)
            for (size_t fi = 0; fi < ARRAY_SIZE(funcs); fi++)
                for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
                    for (size_t j = 0; j < ARRAY_SIZE(vals); j++) {
                        unsigned func = funcs[fi];
                        uint64_t a = fmt == S ? fb((float)vals[i]) : db(vals[i]);
                        uint64_t b = fmt == S ? fb((float)vals[j]) : db(vals[j]);
                        uint32_t hc;
                        uint64_t want = host(fmt, func, a, b, rm, &hc);
                        if (is_tiny_or_nan(fmt, want, hc))
                            continue; /* tested on their own */
                        setup();
                        set_rm(rm);
                        F.fpr[2] = a;
                        F.fpr[4] = b;
                        int rc = ex(cop1(fmt, 4, 2, 6, func));
                        uint64_t got = fmt == S ? S32(6) : F.fpr[6];
                        ck_assert_int_eq(rc, FPU_OK);
                        if (got != want || cause() != hc)
                            ck_abort_msg("fmt %u func %u rm %u a=%g b=%g: got %#llx cause %#x, "
                                         "want %#llx cause %#x",
                                         fmt, func, rm, vals[i], vals[j], (unsigned long long)got,
                                         cause(), (unsigned long long)want, hc);
                        ck_assert_uint_eq(F.fcsr & FLAGS, (hc >> 12) << 2);
                        checked++;
                    }
    ck_assert_int_gt(checked, 1500);
}
END_TEST

/* 1/3 in each rounding mode: literal results. */
START_TEST(rounding_modes_one_third)
{
    static const uint32_t s[4] = {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaaa};
    static const uint64_t d[4] = {0x3fd5555555555555ull, 0x3fd5555555555555ull,
                                  0x3fd5555555555556ull, 0x3fd5555555555555ull};
    static const uint32_t sneg[4] = {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaaa, 0xbeaaaaab};
    for (unsigned rm = 0; rm < 4; rm++) {
        setup();
        set_rm(rm);
        F.fpr[1] = 0x3f800000; /* 1.0f */
        F.fpr[2] = 0x40400000; /* 3.0f */
        ck_assert_int_eq(ex(cop1(S, 2, 1, 3, F_DIV)), FPU_OK);
        ck_assert_uint_eq(S32(3), s[rm]);
        ck_assert_uint_eq(cause(), C_I);
        ck_assert_int_eq(ex(cop1(S, 0, 2, 4, F_RECIP)), FPU_OK);
        ck_assert_uint_eq(S32(4), s[rm]);
        F.fpr[5] = 0xbf800000; /* -1.0f */
        ck_assert_int_eq(ex(cop1(S, 2, 5, 6, F_DIV)), FPU_OK);
        ck_assert_uint_eq(S32(6), sneg[rm]);
        F.fpr[8] = db(1.0);
        F.fpr[10] = db(3.0);
        ck_assert_int_eq(ex(cop1(D, 10, 8, 12, F_DIV)), FPU_OK);
        ck_assert_uint_eq(F.fpr[12], d[rm]);
        ck_assert_uint_eq(cause(), C_I);
    }
}
END_TEST

START_TEST(signed_zeros)
{
    setup();
    F.fpr[1] = 0x00000000;
    F.fpr[2] = 0x80000000;
    ex(cop1(S, 2, 1, 3, F_ADD)); /* +0 + -0 = +0 in RN */
    ck_assert_uint_eq(S32(3), 0x00000000);
    set_rm(3);
    ex(cop1(S, 2, 1, 3, F_ADD)); /* = -0 in RM */
    ck_assert_uint_eq(S32(3), 0x80000000);
    set_rm(0);
    F.fpr[4] = db(5.0);
    F.fpr[6] = 0x8000000000000000ull;
    ex(cop1(D, 4, 6, 8, F_MUL)); /* -0 * 5 = -0 */
    ck_assert_uint_eq(F.fpr[8], 0x8000000000000000ull);
    ex(cop1(D, 0, 6, 8, F_SQRT)); /* sqrt(-0) = -0 */
    ck_assert_uint_eq(F.fpr[8], 0x8000000000000000ull);
    ck_assert_uint_eq(cause(), 0);
    F.fpr[10] = db(1.0);
    ex(cop1(D, 10, 10, 8, F_SUB)); /* 1 - 1 = +0 (RN), -0 (RM) */
    ck_assert_uint_eq(F.fpr[8], 0);
    set_rm(3);
    ex(cop1(D, 10, 10, 8, F_SUB));
    ck_assert_uint_eq(F.fpr[8], 0x8000000000000000ull);
}
END_TEST

START_TEST(invalid_gives_legacy_default_nan)
{
    setup();
    F.fpr[1] = INF_S;
    F.fpr[2] = 0;
    ck_assert_int_eq(ex(cop1(S, 1, 1, 3, F_SUB)), FPU_OK); /* inf - inf */
    ck_assert_uint_eq(S32(3), QNAN_S);
    ck_assert_uint_eq(cause(), C_V);
    ck_assert_uint_eq(F.fcsr & FL_V, FL_V);
    ex(cop1(S, 2, 1, 3, F_MUL)); /* inf * 0 */
    ck_assert_uint_eq(S32(3), QNAN_S);
    ex(cop1(S, 2, 2, 3, F_DIV)); /* 0 / 0 */
    ck_assert_uint_eq(S32(3), QNAN_S);
    ck_assert_uint_eq(cause(), C_V);
    F.fpr[4] = db(-1.0);
    ex(cop1(D, 0, 4, 6, F_SQRT));
    ck_assert_uint_eq(F.fpr[6], QNAN_D);
    ck_assert_uint_eq(cause(), C_V);
    F.fpr[8] = INF_D;
    ex(cop1(D, 8, 8, 6, F_DIV)); /* inf / inf */
    ck_assert_uint_eq(F.fpr[6], QNAN_D);
}
END_TEST

START_TEST(nan_operands)
{
    const uint32_t q1 = 0x7f812345, q2 = 0xff800001; /* quiet: top fraction bit clear */
    const uint32_t sn = 0x7fc00001;                  /* signalling: top bit set */
    setup();
    F.fpr[1] = q1;
    F.fpr[2] = q2;
    F.fpr[3] = 0x3f800000;
    F.fpr[4] = sn;
    ex(cop1(S, 3, 1, 5, F_ADD));
    ck_assert_uint_eq(S32(5), q1);
    ck_assert_uint_eq(cause(), 0);
    ex(cop1(S, 2, 3, 5, F_MUL));
    ck_assert_uint_eq(S32(5), q2);
    ex(cop1(S, 2, 1, 5, F_SUB)); /* first quiet NaN wins */
    ck_assert_uint_eq(S32(5), q1);
    ex(cop1(S, 4, 1, 5, F_ADD)); /* a signalling NaN beats a quiet one */
    ck_assert_uint_eq(S32(5), QNAN_S);
    ck_assert_uint_eq(cause(), C_V);
    ex(cop1(S, 0, 4, 5, F_SQRT));
    ck_assert_uint_eq(S32(5), QNAN_S);
    /* double */
    F.fpr[6] = 0x7ff0000000000badull; /* quiet */
    F.fpr[8] = 0x7ff8000000000000ull; /* signalling */
    F.fpr[10] = db(2.0);
    ex(cop1(D, 6, 10, 12, F_DIV));
    ck_assert_uint_eq(F.fpr[12], 0x7ff0000000000badull);
    ck_assert_uint_eq(cause(), 0);
    ex(cop1(D, 8, 10, 12, F_DIV));
    ck_assert_uint_eq(F.fpr[12], QNAN_D);
    ck_assert_uint_eq(cause(), C_V);
    /* MADD: a quiet NaN addend propagates */
    ex(cop1x(6, 10, 10, 12, X_MADD, 1));
    ck_assert_uint_eq(F.fpr[12], 0x7ff0000000000badull);
    /* MOV copies a signalling NaN without signalling and leaves the FCSR */
    F.fcsr = C_I | FL_I;
    ex(cop1(D, 0, 8, 14, F_MOV));
    ck_assert_uint_eq(F.fpr[14], 0x7ff8000000000000ull);
    ck_assert_uint_eq(F.fcsr, C_I | FL_I);
}
END_TEST

START_TEST(enabled_exceptions_trap)
{
    setup();
    F.fcsr = EN_V;
    F.fpr[1] = 0x7fc00001; /* sNaN */
    F.fpr[2] = 0x3f800000;
    F.fpr[3] = 0x12345678;
    ck_assert_int_eq(ex(cop1(S, 2, 1, 3, F_ADD)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_V);
    ck_assert_uint_eq(F.fcsr & FLAGS, 0);  /* flags untouched */
    ck_assert_uint_eq(S32(3), 0x12345678); /* destination untouched */

    F.fcsr = EN_I;
    F.fpr[4] = 0x40400000;
    ck_assert_int_eq(ex(cop1(S, 4, 2, 3, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_I);
    ck_assert_uint_eq(S32(3), 0x12345678);

    F.fcsr = EN_Z;
    F.fpr[5] = 0;
    ck_assert_int_eq(ex(cop1(S, 5, 2, 3, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_Z);

    F.fcsr = EN_O;
    F.fpr[6] = MAX_S;
    ck_assert_int_eq(ex(cop1(S, 6, 6, 3, F_ADD)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_O | C_I);
    ck_assert_uint_eq(S32(3), 0x12345678);

    /* the same with nothing enabled completes and sets the flags */
    F.fcsr = 0;
    ck_assert_int_eq(ex(cop1(S, 6, 6, 3, F_ADD)), FPU_OK);
    ck_assert_uint_eq(S32(3), INF_S);
    ck_assert_uint_eq(F.fcsr, C_O | C_I | (1u << 4) | FL_I);
}
END_TEST

START_TEST(overflow_by_mode)
{
    /* +-MAX * 2: RN, RZ, RP, RM */
    static const uint32_t pos[4] = {INF_S, MAX_S, INF_S, MAX_S};
    static const uint32_t neg[4] = {0xff800000, 0xff7fffff, 0xff7fffff, 0xff800000};
    for (unsigned rm = 0; rm < 4; rm++) {
        setup();
        set_rm(rm);
        F.fpr[1] = MAX_S;
        F.fpr[2] = 0x40000000; /* 2 */
        F.fpr[3] = 0xff7fffff;
        ex(cop1(S, 2, 1, 4, F_MUL));
        ck_assert_uint_eq(S32(4), pos[rm]);
        ck_assert_uint_eq(cause(), C_O | C_I);
        ex(cop1(S, 2, 3, 4, F_MUL));
        ck_assert_uint_eq(S32(4), neg[rm]);
    }
}
END_TEST

START_TEST(division_by_zero)
{
    setup();
    F.fpr[1] = db(-4.0);
    F.fpr[2] = 0;
    ex(cop1(D, 2, 1, 3, F_DIV));
    ck_assert_uint_eq(F.fpr[3], 0xfff0000000000000ull);
    ck_assert_uint_eq(cause(), C_Z);
    ex(cop1(D, 0, 2, 3, F_RECIP));
    ck_assert_uint_eq(F.fpr[3], INF_D);
    ck_assert_uint_eq(cause(), C_Z);
}
END_TEST

/* Tiny results: E with FS clear; flushed (U, I) with FS set. */
START_TEST(tiny_results)
{
    setup();
    F.fpr[1] = MINN_S;
    F.fpr[2] = 0x40400000; /* 3 */
    F.fpr[3] = 0x40000000; /* 2 */
    F.fpr[4] = 0x11111111;
    ck_assert_int_eq(ex(cop1(S, 2, 1, 4, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    ck_assert_uint_eq(S32(4), 0x11111111);
    ck_assert_int_eq(ex(cop1(S, 3, 1, 4, F_DIV)), FPU_EXC_FPE); /* exact denormal too */
    ck_assert_uint_eq(cause(), C_E);
    F.fpr[6] = MINN_D;
    F.fpr[8] = db(3.0);
    ck_assert_int_eq(ex(cop1(D, 8, 6, 10, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);

    /* FS set: MINN/3 -> RN +0, RZ +0, RP +MINN, RM +0 ; -MINN/3 mirrored */
    static const uint32_t pos[4] = {0, 0, MINN_S, 0};
    static const uint32_t neg[4] = {0x80000000, 0x80000000, 0x80000000, 0x80000000 | MINN_S};
    F.fpr[5] = 0x80000000 | MINN_S;
    for (unsigned rm = 0; rm < 4; rm++) {
        F.fcsr = FS_BIT | rm;
        ck_assert_int_eq(ex(cop1(S, 2, 1, 4, F_DIV)), FPU_OK);
        ck_assert_uint_eq(S32(4), pos[rm]);
        ck_assert_uint_eq(cause(), C_U | C_I);
        ck_assert_uint_eq(F.fcsr & FLAGS, FL_U | FL_I);
        ck_assert_int_eq(ex(cop1(S, 2, 5, 4, F_DIV)), FPU_OK);
        ck_assert_uint_eq(S32(4), neg[rm]);
    }
    F.fcsr = FS_BIT;
    ck_assert_int_eq(ex(cop1(D, 8, 6, 10, F_DIV)), FPU_OK);
    ck_assert_uint_eq(F.fpr[10], 0);
    /* FS set but Underflow or Inexact enabled: E */
    F.fcsr = FS_BIT | EN_U;
    ck_assert_int_eq(ex(cop1(S, 2, 1, 4, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    F.fcsr = FS_BIT | EN_I;
    ck_assert_int_eq(ex(cop1(S, 2, 1, 4, F_DIV)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    /* a result of exactly the smallest normal is not tiny */
    F.fcsr = 0;
    F.fpr[7] = 0x00800000 * 2u; /* 2 * MINN */
    ck_assert_int_eq(ex(cop1(S, 3, 7, 4, F_DIV)), FPU_OK);
    ck_assert_uint_eq(S32(4), MINN_S);
    ck_assert_uint_eq(cause(), 0);
}
END_TEST

/* Denormal operands: E for computational and convert ops, whatever FS;
 * moves and compares take them as they are. */
START_TEST(denormal_operands)
{
    const uint32_t den = 0x00000123;
    setup();
    F.fpr[1] = den;
    F.fpr[2] = 0x3f800000;
    ck_assert_int_eq(ex(cop1(S, 2, 1, 3, F_ADD)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    F.fcsr = FS_BIT;
    ck_assert_int_eq(ex(cop1(S, 1, 2, 3, F_MUL)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    F.fcsr = 0;
    ck_assert_int_eq(ex(cop1(S, 0, 1, 4, F_CVTD)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1(S, 0, 1, 4, F_ABS)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1(S, 0, 1, 4, F_TRUNCW)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1x(2, 2, 1, 4, X_MADD, 0)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1x(1, 2, 2, 4, X_MADD, 0)), FPU_EXC_FPE); /* addend */
    F.fcsr = 0;
    ck_assert_int_eq(ex(cop1(S, 0, 1, 5, F_MOV)), FPU_OK);
    ck_assert_uint_eq(S32(5), den);
    ck_assert_uint_eq(F.fcsr, 0);
    F.fpr[6] = MINN_S;
    ck_assert_int_eq(ex(ccmp(S, 6, 1, 0, C_LT)), FPU_OK); /* den < MINN */
    ck_assert(F.fcsr & (1u << 23));
    ck_assert_int_eq(ex(ccmp(S, 1, 1, 0, C_EQ)), FPU_OK);
    ck_assert(F.fcsr & (1u << 23));
}
END_TEST

START_TEST(sticky_flags)
{
    setup();
    F.fpr[1] = 0x3f800000;
    F.fpr[2] = 0x40400000;
    ex(cop1(S, 2, 1, 3, F_DIV)); /* inexact */
    ck_assert_uint_eq(F.fcsr, C_I | FL_I);
    ex(cop1(S, 1, 1, 3, F_ADD)); /* exact: cause cleared, flag kept */
    ck_assert_uint_eq(F.fcsr, FL_I);
    F.fpr[4] = 0x7fc00000; /* sNaN */
    ex(cop1(S, 4, 1, 3, F_ADD));
    ck_assert_uint_eq(F.fcsr, C_V | FL_V | FL_I);
}
END_TEST

START_TEST(abs_neg)
{
    setup();
    F.fpr[1] = fb(-1.5f);
    ex(cop1(S, 0, 1, 2, F_ABS));
    ck_assert_uint_eq(S32(2), fb(1.5f));
    F.fpr[3] = 0;
    ex(cop1(S, 0, 3, 2, F_NEG));
    ck_assert_uint_eq(S32(2), 0x80000000);
    F.fpr[4] = 0xfff0000000000000ull;
    ex(cop1(D, 0, 4, 6, F_ABS));
    ck_assert_uint_eq(F.fpr[6], INF_D);
    ex(cop1(D, 0, 4, 6, F_NEG));
    ck_assert_uint_eq(F.fpr[6], INF_D);
    F.fpr[8] = 0x7ff8000000000001ull; /* sNaN */
    ex(cop1(D, 0, 8, 6, F_NEG));
    ck_assert_uint_eq(F.fpr[6], QNAN_D);
    ck_assert_uint_eq(cause(), C_V);
    F.fpr[8] = 0xfff0000000000001ull; /* qNaN */
    ex(cop1(D, 0, 8, 6, F_ABS));
    ck_assert_uint_eq(F.fpr[6], 0xfff0000000000001ull);
    ck_assert_uint_eq(cause(), 0);
}
END_TEST

/* ============================ MADD family ================================ */

/* (1+2^-27)(1-2^-27) = 1-2^-54 rounds to 1.0, so MADD with -1 gives +0;
 * a fused multiply-add would give -2^-54. */
START_TEST(madd_is_not_fused)
{
    double a = 1.0 + ldexp(1.0, -27), b = 1.0 - ldexp(1.0, -27);
    ck_assert(fma(a, b, -1.0) == -ldexp(1.0, -54)); /* the case discriminates */
    setup();
    F.fpr[2] = db(a);
    F.fpr[4] = db(b);
    F.fpr[6] = db(-1.0);
    F.fpr[8] = db(1.0);
    ck_assert_int_eq(ex(cop1x(6, 4, 2, 10, X_MADD, 1)), FPU_OK);
    ck_assert_uint_eq(F.fpr[10], 0);
    ck_assert_uint_eq(cause(), C_I); /* the product was rounded */
    ck_assert_int_eq(ex(cop1x(8, 4, 2, 10, X_MSUB, 1)), FPU_OK);
    ck_assert_uint_eq(F.fpr[10], 0);
    /* NMSUB negates after rounding: -(1*1 - 1) = -0, NMADD: -(1+1) = -2 */
    ck_assert_int_eq(ex(cop1x(8, 8, 8, 10, X_NMSUB, 1)), FPU_OK);
    ck_assert_uint_eq(F.fpr[10], 0x8000000000000000ull);
    ck_assert_int_eq(ex(cop1x(8, 8, 8, 10, X_NMADD, 1)), FPU_OK);
    ck_assert_uint_eq(F.fpr[10], db(-2.0));
    /* single: (1+2^-13)(1-2^-13) = 1-2^-26 rounds to 1.0 */
    ck_assert(fmaf(1.0f + ldexpf(1.0f, -13), 1.0f - ldexpf(1.0f, -13), -1.0f) ==
              -ldexpf(1.0f, -26));
    F.fpr[1] = fb(1.0f + ldexpf(1.0f, -13));
    F.fpr[3] = fb(1.0f - ldexpf(1.0f, -13));
    F.fpr[5] = fb(-1.0f);
    ck_assert_int_eq(ex(cop1x(5, 3, 1, 7, X_MADD, 0)), FPU_OK);
    ck_assert_uint_eq(S32(7), 0);
}
END_TEST

/* The MADD family against two host roundings, in every mode. */
START_TEST(madd_matches_host)
{
    static const double t[][3] = {{1.1, 2.3, 0.7},     {-3.3, 1e-5, 1.0 / 3}, {7.0, 1.0 / 7, -1.0},
                                  {1e200, 1e200, 1.0}, {0.0, 5.0, -0.0},      {2.5, -0.4, 1.0}};
    for (unsigned rm = 0; rm < 4; rm++)
        for (size_t i = 0; i < ARRAY_SIZE(t); i++)
            for (unsigned op = X_MADD; op <= X_NMSUB; op++) {
                fesetround(HRM[rm]);
                volatile double a = t[i][0], b = t[i][1], c = t[i][2], p, r;
                p = a * b;
                r = (op == X_MADD || op == X_NMADD) ? p + c : p - c;
                if (op >= X_NMADD)
                    r = -r;
                volatile float fa = (float)t[i][0], fbv = (float)t[i][1], fc = (float)t[i][2];
                volatile float fp, fr;
                fp = fa * fbv;
                fr = (op == X_MADD || op == X_NMADD) ? fp + fc : fp - fc;
                if (op >= X_NMADD)
                    fr = -fr;
                fesetround(FE_TONEAREST);
                setup();
                set_rm(rm);
                F.fpr[2] = db(a);
                F.fpr[4] = db(b);
                F.fpr[6] = db(c);
                ck_assert_int_eq(ex(cop1x(6, 4, 2, 8, op, 1)), FPU_OK);
                ck_assert_uint_eq(F.fpr[8], db(r));
                F.fpr[1] = fb(fa);
                F.fpr[3] = fb(fbv);
                F.fpr[5] = fb(fc);
                ck_assert_int_eq(ex(cop1x(5, 3, 1, 7, op, 0)), FPU_OK);
                ck_assert_uint_eq(S32(7), fb(fr));
            }
}
END_TEST

/* ============================ RECIP / RSQRT =============================== */

/* 1/sqrt(2^(2k+1)) = sqrt(2) 2^-(k+1) exactly, and the host's sqrt is
 * correctly rounded, so these are exact oracles in every mode. */
START_TEST(rsqrt_powers_of_two)
{
    static const int ks[] = {0, -1, 49, -60, 10};
    for (unsigned rm = 0; rm < 4; rm++)
        for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
            int k = ks[i];
            fesetround(HRM[rm]);
            volatile double two = 2.0, sd = sqrt(two);
            volatile float twof = 2.0f, sf = sqrtf(twof);
            fesetround(FE_TONEAREST);
            setup();
            set_rm(rm);
            F.fpr[2] = db(ldexp(1.0, 2 * k + 1));
            ck_assert_int_eq(ex(cop1(D, 0, 2, 4, F_RSQRT)), FPU_OK);
            ck_assert_uint_eq(F.fpr[4], db(ldexp(sd, -(k + 1))));
            ck_assert_uint_eq(cause(), C_I);
            F.fpr[1] = fb(ldexpf(1.0f, 2 * k + 1));
            ck_assert_int_eq(ex(cop1(S, 0, 1, 3, F_RSQRT)), FPU_OK);
            ck_assert_uint_eq(S32(3), fb(ldexpf(sf, -(k + 1))));
        }
    /* exact cases */
    setup();
    F.fpr[2] = db(4.0);
    ex(cop1(D, 0, 2, 4, F_RSQRT));
    ck_assert_uint_eq(F.fpr[4], db(0.5));
    ck_assert_uint_eq(cause(), 0);
    F.fpr[1] = fb(0.25f);
    ex(cop1(S, 0, 1, 3, F_RSQRT));
    ck_assert_uint_eq(S32(3), fb(2.0f));
    ck_assert_uint_eq(cause(), 0);
}
END_TEST

/* Single-precision RSQRT checked exactly: the result rounded down, y,
 * satisfies y^2 x <= 1 < (y+ulp)^2 x, and round-to-nearest picks the side of
 * the midpoint; all computed here in 128-bit integers.  sq_vs_one(m, e, x)
 * is the sign of (m 2^e)^2 x - 1. */
static int sq_vs_one(uint64_t m, int e, uint32_t x)
{
    uint64_t mx = (x & 0x7fffff) | 0x800000;
    int exx = (int)(x >> 23) - 150;
    unsigned __int128 p = (unsigned __int128)(m * m) * mx;
    int sh = -(2 * e + exx); /* compare p with 2^sh */
    ck_assert(sh > 0 && sh < 127);
    unsigned __int128 one = (unsigned __int128)1 << sh;
    return p < one ? -1 : p > one ? 1 : 0;
}
static uint64_t mant(uint32_t y) { return (y & 0x7fffff) | 0x800000; }
static int expo(uint32_t y) { return (int)(y >> 23) - 150; }

START_TEST(rsqrt_single_exact)
{
    srand(12345);
    for (int n = 0; n < 3000; n++) {
        uint32_t x = (uint32_t)(((unsigned)rand() << 16) ^ (unsigned)rand());
        x = (x & 0x007fffff) | ((uint32_t)(1 + rand() % 253) << 23); /* positive normal */
        setup();
        F.fpr[1] = x;
        set_rm(1);
        ck_assert_int_eq(ex(cop1(S, 0, 1, 2, F_RSQRT)), FPU_OK);
        uint32_t lo = S32(2);
        set_rm(2);
        ex(cop1(S, 0, 1, 2, F_RSQRT));
        uint32_t hi = S32(2);
        set_rm(0);
        ex(cop1(S, 0, 1, 2, F_RSQRT));
        uint32_t rn = S32(2);
        int c = sq_vs_one(mant(lo), expo(lo), x);
        ck_assert_int_le(c, 0);
        if (c == 0) {
            ck_assert_uint_eq(hi, lo);
            ck_assert_uint_eq(cause(), 0);
            continue;
        }
        ck_assert_uint_eq(hi, lo + 1);
        ck_assert_int_gt(sq_vs_one(mant(hi), expo(hi), x), 0);
        int mid = sq_vs_one(2 * mant(lo) + 1, expo(lo) - 1, x);
        ck_assert_int_ne(mid, 0);
        ck_assert_uint_eq(rn, mid < 0 ? hi : lo);
        ck_assert_uint_eq(cause(), C_I);
    }
}
END_TEST

START_TEST(rsqrt_recip_specials)
{
    setup();
    F.fpr[1] = 0;
    ex(cop1(S, 0, 1, 2, F_RSQRT));
    ck_assert_uint_eq(S32(2), INF_S);
    ck_assert_uint_eq(cause(), C_Z);
    F.fpr[1] = 0x80000000;
    ex(cop1(S, 0, 1, 2, F_RSQRT));
    ck_assert_uint_eq(S32(2), 0xff800000);
    F.fpr[1] = fb(-1.0f);
    ex(cop1(S, 0, 1, 2, F_RSQRT));
    ck_assert_uint_eq(S32(2), QNAN_S);
    ck_assert_uint_eq(cause(), C_V);
    F.fpr[4] = INF_D;
    ex(cop1(D, 0, 4, 6, F_RSQRT));
    ck_assert_uint_eq(F.fpr[6], 0);
    ck_assert_uint_eq(cause(), 0);
    F.fpr[4] = 0xfff0000000000000ull;
    ex(cop1(D, 0, 4, 6, F_RSQRT));
    ck_assert_uint_eq(F.fpr[6], QNAN_D);
    ex(cop1(D, 0, 4, 6, F_RECIP)); /* 1/-inf = -0 */
    ck_assert_uint_eq(F.fpr[6], 0x8000000000000000ull);
}
END_TEST

/* ============================ conversions ================================= */

START_TEST(cvt_float_formats)
{
    for (unsigned rm = 0; rm < 4; rm++) {
        fesetround(HRM[rm]);
        volatile double third = 1.0 / 3, big = 1e300;
        volatile float f3 = (float)third;
        fesetround(FE_TONEAREST);
        setup();
        set_rm(rm);
        F.fpr[2] = db(third);
        ck_assert_int_eq(ex(cop1(D, 0, 2, 3, F_CVTS)), FPU_OK);
        ck_assert_uint_eq(S32(3), fb(f3));
        ck_assert_uint_eq(cause(), C_I);
        F.fpr[2] = db(big);
        ex(cop1(D, 0, 2, 3, F_CVTS));
        ck_assert_uint_eq(cause(), C_O | C_I);
        ck_assert_uint_eq(S32(3), (rm == 0 || rm == 2) ? INF_S : MAX_S);
    }
    setup();
    F.fpr[1] = fb(0.1f);
    ex(cop1(S, 0, 1, 2, F_CVTD));
    ck_assert_uint_eq(F.fpr[2], db((double)0.1f));
    ck_assert_uint_eq(cause(), 0);
    F.fpr[2] = db(1e-40); /* a single-precision denormal: tiny */
    ck_assert_int_eq(ex(cop1(D, 0, 2, 3, F_CVTS)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    F.fpr[1] = 0x7f800123; /* qNaN -> default double qNaN */
    ex(cop1(S, 0, 1, 2, F_CVTD));
    ck_assert_uint_eq(F.fpr[2], QNAN_D);
    ck_assert_uint_eq(cause(), 0);
    F.fpr[1] = 0x7fc00000; /* sNaN */
    ex(cop1(S, 0, 1, 2, F_CVTD));
    ck_assert_uint_eq(F.fpr[2], QNAN_D);
    ck_assert_uint_eq(cause(), C_V);
    /* CVT.S.S and CVT.D.D do not exist */
    ck_assert_int_eq(ex(cop1(S, 0, 1, 2, F_CVTS)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    ck_assert_int_eq(ex(cop1(D, 0, 2, 4, F_CVTD)), FPU_EXC_FPE);
}
END_TEST

static uint64_t to_int(unsigned fmt, unsigned func, double v, unsigned rm, int *rc)
{
    setup();
    set_rm(rm);
    F.fpr[2] = fmt == S ? fb((float)v) : db(v);
    F.fpr[4] = 0x5555555555555555ull;
    *rc = ex(cop1(fmt, 0, 2, 4, func));
    return (func == F_CVTW || (func >= F_ROUNDW && func <= F_FLOORW)) ? S32(4) : F.fpr[4];
}
#define TO_INT(fmt, func, v, rm, want, want_cause)      \
    do {                                                \
        int rc_;                                        \
        uint64_t got_ = to_int(fmt, func, v, rm, &rc_); \
        ck_assert_int_eq(rc_, FPU_OK);                  \
        ck_assert_uint_eq(got_, (uint64_t)(want));      \
        ck_assert_uint_eq(cause(), want_cause);         \
    } while (0)

START_TEST(cvt_to_integer)
{
    TO_INT(D, F_CVTW, 2.5, 0, 2, C_I);
    TO_INT(D, F_CVTW, 3.5, 0, 4, C_I);
    TO_INT(D, F_CVTW, -2.5, 0, (uint32_t)-2, C_I);
    TO_INT(D, F_CVTW, 2.5, 1, 2, C_I);
    TO_INT(D, F_CVTW, 2.1, 2, 3, C_I);
    TO_INT(D, F_CVTW, -2.1, 3, (uint32_t)-3, C_I);
    TO_INT(S, F_CVTW, 7.0, 0, 7, 0);
    /* ROUND/TRUNC/CEIL/FLOOR ignore FCSR.RM (set to RP here) */
    TO_INT(D, F_ROUNDW, 2.5, 2, 2, C_I);
    TO_INT(D, F_TRUNCW, -2.7, 2, (uint32_t)-2, C_I);
    TO_INT(D, F_CEILW, 2.1, 3, 3, C_I);
    TO_INT(D, F_FLOORW, -2.1, 2, (uint32_t)-3, C_I);
    TO_INT(S, F_FLOORL, -0.5, 0, (uint64_t)-1, C_I);
    TO_INT(S, F_CEILL, -0.5, 0, 0, C_I);
    TO_INT(D, F_ROUNDL, -1e15 - 0.5, 0, (uint64_t)(int64_t)-1000000000000000, C_I);
    TO_INT(D, F_TRUNCL, 1e18, 0, 1000000000000000000ull, 0);
    /* word limits */
    TO_INT(D, F_CVTW, 2147483647.0, 0, 0x7fffffff, 0);
    TO_INT(D, F_CVTW, -2147483648.0, 0, 0x80000000, 0);
    TO_INT(D, F_CVTW, 2147483648.0, 0, 0x7fffffff, C_V);
    TO_INT(D, F_CVTW, -2147483649.0, 0, 0x7fffffff, C_V);
    TO_INT(D, F_ROUNDW, 2147483647.5, 0, 0x7fffffff, C_V); /* rounds to 2^31 */
    TO_INT(D, F_TRUNCW, 2147483647.5, 0, 0x7fffffff, C_I);
    TO_INT(D, F_CVTW, -2147483648.5, 1, 0x80000000, C_I);
    TO_INT(D, F_CVTW, NAN, 0, 0x7fffffff, C_V);
    TO_INT(S, F_CVTW, INFINITY, 0, 0x7fffffff, C_V);
    TO_INT(S, F_CVTW, -INFINITY, 0, 0x7fffffff, C_V);
    /* long limits */
    TO_INT(D, F_CVTL, 9223372036854775808.0, 0, 0x7fffffffffffffffull, C_V);
    TO_INT(D, F_CVTL, -9223372036854775808.0, 0, 0x8000000000000000ull, 0);
    TO_INT(D, F_CVTL, 9223372036854774784.0, 0, 9223372036854774784ull, 0);
    TO_INT(S, F_TRUNCL, 1e19, 0, 0x7fffffffffffffffull, C_V);
    TO_INT(D, F_CVTL, -INFINITY, 0, 0x7fffffffffffffffull, C_V);
    /* with Invalid enabled the conversion traps */
    setup();
    F.fcsr = EN_V;
    F.fpr[2] = db(1e10);
    F.fpr[4] = 99;
    ck_assert_int_eq(ex(cop1(D, 0, 2, 4, F_CVTW)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_V);
    ck_assert_uint_eq(F.fpr[4], 99);
}
END_TEST

START_TEST(cvt_from_integer)
{
    static const int64_t ls[] = {0x7fffffffffffffffll,
                                 -0x7fffffffffffffffll - 1,
                                 (1ll << 53) + 1,
                                 -((1ll << 53) + 3),
                                 123,
                                 -1};
    static const int32_t ws[] = {0x7fffffff, -0x7fffffff - 1, 16777217, -5, 0};
    for (unsigned rm = 0; rm < 4; rm++) {
        for (size_t i = 0; i < ARRAY_SIZE(ls); i++) {
            fesetround(HRM[rm]);
            feclearexcept(FE_ALL_EXCEPT);
            volatile int64_t v = ls[i];
            volatile double d = (double)v;
            uint32_t hc = host_cause();
            volatile float s = (float)v;
            fesetround(FE_TONEAREST);
            setup();
            set_rm(rm);
            F.fpr[2] = (uint64_t)ls[i];
            ck_assert_int_eq(ex(cop1(L, 0, 2, 4, F_CVTD)), FPU_OK);
            ck_assert_uint_eq(F.fpr[4], db(d));
            ck_assert_uint_eq(cause(), hc);
            ck_assert_int_eq(ex(cop1(L, 0, 2, 5, F_CVTS)), FPU_OK);
            ck_assert_uint_eq(S32(5), fb(s));
        }
        for (size_t i = 0; i < ARRAY_SIZE(ws); i++) {
            fesetround(HRM[rm]);
            volatile int32_t v = ws[i];
            volatile float s = (float)v;
            volatile double d = (double)v;
            fesetround(FE_TONEAREST);
            setup();
            set_rm(rm);
            F.fpr[2] = (uint32_t)ws[i];
            ck_assert_int_eq(ex(cop1(W, 0, 2, 4, F_CVTS)), FPU_OK);
            ck_assert_uint_eq(S32(4), fb(s));
            ck_assert_int_eq(ex(cop1(W, 0, 2, 6, F_CVTD)), FPU_OK);
            ck_assert_uint_eq(F.fpr[6], db(d));
            ck_assert_uint_eq(cause(), 0); /* W to D is exact */
        }
    }
    /* literal: 2^31-1 to single is 2^31 in RN, 2^31-128 in RZ */
    setup();
    F.fpr[2] = 0x7fffffff;
    ex(cop1(W, 0, 2, 4, F_CVTS));
    ck_assert_uint_eq(S32(4), 0x4f000000);
    set_rm(1);
    ex(cop1(W, 0, 2, 4, F_CVTS));
    ck_assert_uint_eq(S32(4), 0x4effffff);
    ck_assert_uint_eq(cause(), C_I);
}
END_TEST

/* ============================ compares and cc ============================= */

START_TEST(compare_all_conditions)
{
    struct {
        double a, b;
        bool un, eq, lt;
    } p[] = {
        {1, 2, false, false, true},
        {2, 1, false, false, false},
        {1, 1, false, true, false},
        {-0.0, 0.0, false, true, false},
        {-INFINITY, -1e30, false, false, true},
        {1, NAN, true, false, false},
    };
    for (size_t i = 0; i < ARRAY_SIZE(p); i++)
        for (unsigned fmt = S; fmt <= D; fmt++)
            for (unsigned cond = 0; cond < 16; cond++) {
                bool want =
                    ((cond & 1) && p[i].un) || ((cond & 2) && p[i].eq) || ((cond & 4) && p[i].lt);
                setup();
                /* a quiet NaN in the legacy encoding */
                uint64_t nan = fmt == S ? 0x7f800001ull : 0x7ff0000000000001ull;
                uint64_t a = isnan(p[i].a) ? nan : fmt == S ? fb((float)p[i].a) : db(p[i].a);
                uint64_t b = isnan(p[i].b) ? nan : fmt == S ? fb((float)p[i].b) : db(p[i].b);
                F.fpr[2] = a;
                F.fpr[4] = b;
                F.fcsr = want ? 0 : 1u << 23; /* the opposite of the answer */
                ck_assert_int_eq(ex(ccmp(fmt, 4, 2, 0, cond)), FPU_OK);
                ck_assert_uint_eq((F.fcsr >> 23) & 1, want);
                ck_assert_uint_eq(cause(), (p[i].un && (cond & 8)) ? C_V : 0);
            }
    /* a signalling NaN raises Invalid for every condition */
    for (unsigned cond = 0; cond < 16; cond++) {
        setup();
        F.fpr[2] = 0x7fc00000;
        F.fpr[4] = 0x3f800000;
        ex(ccmp(S, 4, 2, 0, cond));
        ck_assert_uint_eq(cause(), C_V);
    }
    /* with Invalid enabled the condition code is not written */
    setup();
    F.fcsr = EN_V | (1u << 23);
    F.fpr[2] = 0x7f800001;
    F.fpr[4] = 0x3f800000;
    ck_assert_int_eq(ex(ccmp(S, 4, 2, 0, C_LT)), FPU_EXC_FPE);
    ck_assert_uint_eq(F.fcsr & (1u << 23), 1u << 23);
    ck_assert_uint_eq(cause(), C_V);
}
END_TEST

START_TEST(eight_condition_codes)
{
    for (unsigned cc = 0; cc < 8; cc++) {
        setup();
        F.fpr[2] = db(1.0);
        ck_assert_int_eq(ex(ccmp(D, 2, 2, cc, C_EQ)), FPU_OK);
        ck_assert_uint_eq(F.fcsr, 1u << cc_bit[cc]);
        ck_assert(fpu_cc(&F, cc));
        F.fcsr = 0xfe800000u; /* all eight set */
        F.fpr[4] = db(2.0);
        ck_assert_int_eq(ex(ccmp(D, 4, 2, cc, C_EQ)), FPU_OK);
        ck_assert_uint_eq(F.fcsr, 0xfe800000u & ~(1u << cc_bit[cc]));
    }
}
END_TEST

START_TEST(conditional_moves)
{
    for (unsigned cc = 0; cc < 8; cc++)
        for (int val = 0; val < 2; val++) {
            setup();
            F.fcsr = val ? 1u << cc_bit[cc] : 0;
            F.fpr[2] = 0x11111111;
            F.fpr[4] = 0x2222222222222222ull;
            F.fpr[6] = 0;
            F.fpr[8] = 0;
            ck_assert_int_eq(ex(movcf(S, cc, true, 2, 6)), FPU_OK); /* MOVT.S */
            ck_assert_uint_eq(S32(6), val ? 0x11111111 : 0);
            ck_assert_int_eq(ex(movcf(D, cc, false, 4, 8)), FPU_OK); /* MOVF.D */
            ck_assert_uint_eq(F.fpr[8], val ? 0 : 0x2222222222222222ull);
            ck_assert_uint_eq(F.fcsr & CAUSE, 0);
        }
    setup();
    F.fpr[2] = 0x33333333;
    F.fpr[4] = 0x4444444444444444ull;
    G[5] = 0;
    G[7] = 0x100000000ull; /* non-zero only in the high word */
    ex(cop1(S, 5, 2, 6, F_MOVZ));
    ck_assert_uint_eq(S32(6), 0x33333333);
    ex(cop1(D, 5, 4, 8, F_MOVN));
    ck_assert_uint_eq(F.fpr[8], 0);
    ex(cop1(D, 7, 4, 8, F_MOVN));
    ck_assert_uint_eq(F.fpr[8], 0x4444444444444444ull);
    ex(cop1(S, 7, 2, 10, F_MOVZ));
    ck_assert_uint_eq(S32(10), 0);
}
END_TEST

/* ============================ moves and control =========================== */

START_TEST(moves_to_from_cpu)
{
    setup();
    F.fpr[3] = 0xaaaaaaaa80000001ull;
    ex(move(0, 5, 3)); /* MFC1: sign-extended low word */
    ck_assert_uint_eq(G[5], 0xffffffff80000001ull);
    F.fpr[3] = 0x7fffffff;
    ex(move(0, 5, 3));
    ck_assert_uint_eq(G[5], 0x7fffffff);
    ex(move(0, 0, 3)); /* rt = 0 is not written */
    ck_assert_uint_eq(G[0], 0);
    G[6] = 0x123456789abcdef0ull;
    F.fpr[7] = 0xffffffff00000000ull;
    ex(move(4, 6, 7)); /* MTC1: low word */
    ck_assert_uint_eq((uint32_t)F.fpr[7], 0x9abcdef0);
    ex(move(5, 6, 8)); /* DMTC1 */
    ck_assert_uint_eq(F.fpr[8], 0x123456789abcdef0ull);
    ex(move(1, 9, 8)); /* DMFC1 */
    ck_assert_uint_eq(G[9], 0x123456789abcdef0ull);
    ck_assert_uint_eq(F.fcsr, 0);
}
END_TEST

START_TEST(control_registers)
{
    setup();
    ex(move(2, 4, 0)); /* CFC1 FIR */
    ck_assert_uint_eq(G[4], 0x0900);
    G[5] = 0x80000003u | FS_BIT | EN_V | 0x007c0000u; /* bits 22..18 do not exist */
    ck_assert_int_eq(ex(move(6, 5, 31)), FPU_OK);
    ck_assert_uint_eq(F.fcsr, 0x81000803u);
    ex(move(2, 6, 31));
    ck_assert_uint_eq(G[6], 0xffffffff81000803ull); /* sign-extended */
    ck_assert_uint_eq(fpu_cc(&F, 7), true);
    /* writing a cause bit that is enabled raises the exception at once */
    G[5] = EN_V | C_V;
    ck_assert_int_eq(ex(move(6, 5, 31)), FPU_EXC_FPE);
    ck_assert_uint_eq(F.fcsr, EN_V | C_V);
    G[5] = C_E; /* E is always enabled */
    ck_assert_int_eq(ex(move(6, 5, 31)), FPU_EXC_FPE);
    G[5] = C_I | C_V | EN_O;
    ck_assert_int_eq(ex(move(6, 5, 31)), FPU_OK);
    /* an arithmetic op uses the new rounding mode at once */
    G[5] = 1; /* RZ */
    ex(move(6, 5, 31));
    F.fpr[1] = 0x3f800000;
    F.fpr[2] = 0x40400000;
    ex(cop1(S, 2, 1, 3, F_DIV));
    ck_assert_uint_eq(S32(3), 0x3eaaaaaa);
    ck_assert_int_eq(fegetround(), FE_TONEAREST); /* the host's mode is restored */
    /* the R10000 has no other control registers */
    G[5] = 0xffffffff;
    uint32_t before = F.fcsr;
    ck_assert_int_eq(ex(move(6, 5, 25)), FPU_OK);
    ck_assert_uint_eq(F.fcsr, before);
    G[6] = 77;
    ex(move(2, 6, 26));
    ck_assert_uint_eq(G[6], 0);
}
END_TEST

/* With FS set, a tiny product inside MADD is flushed before the add. */
START_TEST(madd_tiny_product)
{
    setup();
    F.fpr[2] = db(ldexp(1.0, -600));
    F.fpr[4] = db(ldexp(1.0, -600));
    F.fpr[6] = db(1.0);
    F.fpr[8] = 0x0123;
    ck_assert_int_eq(ex(cop1x(6, 4, 2, 8, X_MADD, 1)), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    ck_assert_uint_eq(F.fpr[8], 0x0123);
    F.fcsr = FS_BIT | 2; /* RP: the product flushes up to the smallest normal */
    ck_assert_int_eq(ex(cop1x(6, 4, 2, 8, X_MSUB, 1)), FPU_OK);
    /* 2^-1022 - 1 rounded up is -(1 - 2^-53); a product flushed to 0 gives -1 */
    ck_assert_uint_eq(F.fpr[8], 0xbfefffffffffffffull);
    ck_assert_uint_eq(cause(), C_U | C_I);
    F.fcsr = FS_BIT; /* RN: flushed to +0, then 0 - 1 = -1 exactly */
    ck_assert_int_eq(ex(cop1x(6, 4, 2, 8, X_MSUB, 1)), FPU_OK);
    ck_assert_uint_eq(F.fpr[8], db(-1.0));
    ck_assert_uint_eq(cause(), C_U | C_I);
}
END_TEST

/* With FR=0 a conversion from D to a 32-bit format may write an odd
 * register (found by the differential tester, tests/oracle). */
START_TEST(fr0_convert_to_odd_single)
{
    F.fpr[30] = 0x20db00ebu;
    F.fpr[31] = 0x7fbfffffu; /* $f30/$f31 = 0x7fbfffff20db00eb, about 2^1020 */
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 0, 30, 17, F_CEILW), false, G), FPU_OK);
    ck_assert_uint_eq((uint32_t)F.fpr[17], 0x7fffffffu);
    ck_assert_uint_eq(cause(), C_V);
    F.fpr[30] = 0;
    F.fpr[31] = 0x3ff80000u; /* 1.5 */
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 0, 30, 3, F_CVTS), false, G), FPU_OK);
    ck_assert_uint_eq((uint32_t)F.fpr[3], fb(1.5f));
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 0, 30, 5, F_TRUNCW), false, G), FPU_OK);
    ck_assert_uint_eq((uint32_t)F.fpr[5], 1u);
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 0, 30, 7, F_CVTW), false, G), FPU_OK);
    ck_assert_uint_eq((uint32_t)F.fpr[7], 2u);
    /* A 64-bit destination in an odd register is still refused. */
    ck_assert_int_eq(fpu_exec(&F, cop1(S, 0, 3, 9, F_CVTD), false, G), FPU_EXC_FPE);
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 0, 30, 9, F_MOV), false, G), FPU_EXC_FPE);
}
END_TEST

START_TEST(fr0_register_pairs)
{
    setup();
    G[5] = 0x1122334455667788ull;
    ck_assert_int_eq(fpu_exec(&F, move(5, 5, 2), false, G), FPU_OK); /* DMTC1 f2 */
    ck_assert_uint_eq((uint32_t)F.fpr[2], 0x55667788);
    ck_assert_uint_eq((uint32_t)F.fpr[3], 0x11223344);
    ck_assert_int_eq(fpu_exec(&F, move(0, 6, 3), false, G), FPU_OK); /* MFC1 f3 */
    ck_assert_uint_eq(G[6], 0x11223344);
    ck_assert_int_eq(fpu_exec(&F, move(1, 7, 2), false, G), FPU_OK); /* DMFC1 f2 */
    ck_assert_uint_eq(G[7], 0x1122334455667788ull);
    ck_assert_uint_eq(fpu_get_d(&F, 2, false), 0x1122334455667788ull);
    /* ADD.D f4 = f0 + f2 on pairs */
    uint64_t one = db(1.0), half = db(0.5);
    F.fpr[0] = (uint32_t)one;
    F.fpr[1] = one >> 32;
    F.fpr[2] = (uint32_t)half;
    F.fpr[3] = half >> 32;
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 2, 0, 4, F_ADD), false, G), FPU_OK);
    ck_assert_uint_eq(((F.fpr[5] & 0xffffffff) << 32) | (F.fpr[4] & 0xffffffff), db(1.5));
    /* odd register in a double op: Unimplemented with FR=0, fine with FR=1 */
    F.fcsr = 0;
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 2, 1, 4, F_ADD), false, G), FPU_EXC_FPE);
    ck_assert_uint_eq(cause(), C_E);
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 2, 0, 5, F_MOV), false, G), FPU_EXC_FPE);
    ck_assert_int_eq(fpu_exec(&F, move(1, 7, 3), false, G), FPU_EXC_FPE); /* DMFC1 f3 */
    ck_assert_int_eq(fpu_exec(&F, cop1x(0, 2, 4, 7, X_MADD, 1), false, G), FPU_EXC_FPE);
    F.fpr[1] = db(2.0);
    F.fpr[2] = db(3.0);
    ck_assert_int_eq(fpu_exec(&F, cop1(D, 2, 1, 5, F_ADD), true, G), FPU_OK);
    ck_assert_uint_eq(F.fpr[5], db(5.0));
    /* single ops may use odd registers with FR=0 */
    F.fpr[1] = 0x3f800000;
    F.fpr[3] = 0x40000000;
    ck_assert_int_eq(fpu_exec(&F, cop1(S, 3, 1, 7, F_ADD), false, G), FPU_OK);
    ck_assert_uint_eq((uint32_t)F.fpr[7], 0x40400000);
}
END_TEST

START_TEST(reserved_encodings)
{
    setup();
    F.fcsr = FL_I;
    ck_assert_int_eq(ex(cop1(W, 0, 0, 0, F_ADD)), FPU_EXC_FPE);
    ck_assert_uint_eq(F.fcsr, FL_I | C_E);
    ck_assert_int_eq(ex(cop1(L, 0, 0, 0, F_CVTW)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1(18, 0, 0, 0, F_ADD)), FPU_EXC_FPE); /* fmt E */
    ck_assert_int_eq(ex(cop1(S, 0, 0, 0, 20)), FPU_EXC_FPE);
    ck_assert_int_eq(ex(cop1x(0, 0, 0, 0, X_MADD, 4)), FPU_EXC_FPE);
    F.fcsr = 0;
    ck_assert_int_eq(ex(move(3, 1, 0)), FPU_EXC_RI);
    ck_assert_int_eq(ex(move(7, 1, 0)), FPU_EXC_RI);
    ck_assert_int_eq(ex(move(8, 1, 0)), FPU_EXC_RI);           /* BC1 is the CPU's */
    ck_assert_int_eq(ex(cop1x(0, 0, 0, 0, 0, 0)), FPU_EXC_RI); /* LWXC1 */
    ck_assert_int_eq(ex(0x00000000), FPU_EXC_RI);
    ck_assert_uint_eq(F.fcsr, 0);
}
END_TEST


int main(void)
{
    return check_main(
        "fpu", "fpu", NULL, NULL, 0, arith_matches_host, rounding_modes_one_third, signed_zeros,
        invalid_gives_legacy_default_nan, nan_operands, enabled_exceptions_trap, overflow_by_mode,
        division_by_zero, tiny_results, denormal_operands, sticky_flags, abs_neg, madd_is_not_fused,
        madd_matches_host, madd_tiny_product, rsqrt_powers_of_two, rsqrt_single_exact,
        rsqrt_recip_specials, cvt_float_formats, cvt_to_integer, cvt_from_integer,
        compare_all_conditions, eight_condition_codes, conditional_moves, moves_to_from_cpu,
        control_registers, fr0_register_pairs, fr0_convert_to_odd_single, reserved_encodings);
}
