/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FPU's arithmetic core: every rounding operation runs on the host's
 * IEEE 754 unit under the guest's rounding mode (<fenv.h>), and the host's
 * exception flags become the guest's cause bits.  What the host cannot give
 * bit for bit is done here around it:
 *   - NaN operands never reach the host: a signalling NaN raises Invalid and
 *     yields the MIPS legacy default quiet NaN, a quiet NaN propagates (the
 *     first in operand order fs, ft, fr), and a NaN the host creates for an
 *     invalid operation is replaced by the default quiet NaN;
 *   - denormal operands raise Unimplemented Operation (E), and tiny results
 *     raise E unless FCSR.FS is set (then they flush), as the R4000-family
 *     hardware does; see docs/fpu.md;
 *   - RSQRT is correctly rounded by an exact integer check.
 *
 * Built with -frounding-math -fsignaling-nans -ffp-contract=off (fpu.mk), and
 * every host operation reads its operands from and writes its result to
 * volatile objects, so the compiler neither folds an operation at build time
 * nor moves it across the fesetround()/fetestexcept() calls around it. */
#include <fenv.h>
#include <float.h>
#include <math.h>

#include "cpu/fpu_internal.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error \
    "the FPU model needs a host that evaluates float and double in their own precision (x86-64 SSE2, AArch64)"
#endif
#ifdef __clang__
#pragma STDC FENV_ACCESS ON
#endif

static const int host_rm[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

static float as_f(uint64_t v) { return fpu_float((uint32_t)v); }

/* Run the host operations between host_begin() and host_end() in the
 * guest's rounding mode; host_end() returns the exceptions they raised. */
static int host_begin(unsigned rm)
{
    int saved = fegetround();
    fesetround(host_rm[rm & 3]);
    feclearexcept(FE_ALL_EXCEPT);
    return saved;
}
static unsigned host_end(int saved)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    fesetround(saved);
    feclearexcept(FE_ALL_EXCEPT);
    return ((e & FE_INEXACT) ? X_I : 0) | ((e & FE_UNDERFLOW) ? X_U : 0) |
           ((e & FE_OVERFLOW) ? X_O : 0) | ((e & FE_DIVBYZERO) ? X_Z : 0) |
           ((e & FE_INVALID) ? X_V : 0);
}

/* NaN and denormal operands decide the result before any arithmetic.
 * Returns true (with *res or X_E set) when they do. */
static bool screen(int fmt, const uint64_t *ops, int n, uint64_t *res, unsigned *x)
{
    for (int i = 0; i < n; i++)
        if (f_issnan(fmt, ops[i])) {
            *x |= X_V;
            *res = f_default_nan(fmt);
            return true;
        }
    for (int i = 0; i < n; i++)
        if (f_isnan(fmt, ops[i])) {
            *res = ops[i];
            return true;
        }
    for (int i = 0; i < n; i++)
        if (f_isdenorm(fmt, ops[i])) {
            *x = X_E;
            return true;
        }
    return false;
}

/* A host-rounded result as the R10000 delivers it.  `hx` are the host's
 * exceptions for this step; they are ORed into *x.
 * Tiny results (tininess after rounding, as MIPS requires, or an exact
 * denormal) are not produced by the hardware: with FS clear, or with the
 * Underflow or Inexact enable set, the instruction raises E; otherwise the
 * result is flushed to 0 or the smallest normal according to the rounding
 * mode (the R4000 table, which IRIX and Linux's emulators both follow), with
 * Underflow and Inexact. */
static uint64_t deliver(int fmt, uint64_t r, unsigned hx, const fpu_env *env, unsigned *x)
{
    if (f_isnan(fmt, r)) {
        *x |= hx;
        return f_default_nan(fmt);
    }
    if (!(hx & X_U) && !f_isdenorm(fmt, r)) {
        *x |= hx;
        return r;
    }
    if (!env->fs || (env->enables & (X_U | X_I))) {
        *x = X_E;
        return r;
    }
    *x |= hx | X_U | X_I;
    uint64_t sign = f_sign(fmt, r), mag = f_abs(fmt, r);
    if (mag == f_min_normal(fmt))
        return r; /* rounded up to the smallest normal: keep it */
    bool up = (env->rm == 2 && !sign) || (env->rm == 3 && sign);
    return sign | (up ? f_min_normal(fmt) : 0);
}

/* arith_s and arith_d: the operation on the host's float or double (the
 * operands read by `read`), in its current rounding mode; the volatiles
 * keep it between host_begin and host_end. */
#define HOST_ARITH(name, T, read, sqrt_fn)                  \
    static T name(enum arith_op op, uint64_t a, uint64_t b) \
    {                                                       \
        volatile T va = read(a), vb = read(b), vr = 0;      \
        switch (op) {                                       \
        case AOP_ADD: vr = va + vb; break;                  \
        case AOP_SUB: vr = va - vb; break;                  \
        case AOP_MUL: vr = va * vb; break;                  \
        case AOP_DIV: vr = va / vb; break;                  \
        case AOP_SQRT: vr = sqrt_fn(va); break;             \
        case AOP_RECIP: vr = (T)1 / va; break;              \
        default: break;                                     \
        }                                                   \
        return vr;                                          \
    }
HOST_ARITH(arith_s, float, as_f, sqrtf)
HOST_ARITH(arith_d, double, fpu_double, sqrt)

static uint64_t host_binop(int fmt, enum arith_op op, uint64_t a, uint64_t b, unsigned rm,
                           unsigned *hx)
{
    int saved = host_begin(rm);
    uint64_t r =
        fmt == FMT_S ? fpu_float_bits(arith_s(op, a, b)) : fpu_double_bits(arith_d(op, a, b));
    *hx = host_end(saved);
    return r;
}

/* --- RSQRT, correctly rounded ---------------------------------------------
 * For positive normal x = mx * 2^ex the result y = my * 2^ey is found from a
 * host estimate by comparing y^2 * x with 1 exactly in 192-bit integers. */

/* Sign of m^2 * mx * 2^k - 1 (m up to 54 bits, mx up to 53 bits). */
static int sq_cmp(uint64_t m, uint64_t mx, int k)
{
    unsigned __int128 m2 = (unsigned __int128)m * m;
    unsigned __int128 p0 = (unsigned __int128)(uint64_t)m2 * mx;
    unsigned __int128 p1 = (unsigned __int128)(uint64_t)(m2 >> 64) * mx + (p0 >> 64);
    uint64_t w[3] = {(uint64_t)p0, (uint64_t)p1, (uint64_t)(p1 >> 64)};
    int len = w[2]   ? 192 - __builtin_clzll(w[2])
              : w[1] ? 128 - __builtin_clzll(w[1])
                     : 64 - __builtin_clzll(w[0]);
    int top = len - 1 + k; /* the product's leading bit is worth 2^top */
    if (top != 0)
        return top > 0 ? 1 : -1;
    int ones = __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) + __builtin_popcountll(w[2]);
    return ones == 1 ? 0 : 1;
}

static uint64_t rsqrt_exact(int fmt, uint64_t v, unsigned rm, unsigned *x)
{
    const int p = fmt == FMT_S ? 24 : 53, bias = fmt == FMT_S ? 127 : 1023;
    const uint64_t hidden = 1ull << (p - 1);
    uint64_t mx = (v & f_frac_mask(fmt)) | hidden;
    int ex = (int)((v & f_exp_mask(fmt)) >> (p - 1)) - bias - (p - 1);

    /* Estimate (host default rounding; exactness comes from the checks). */
    double est = 1.0 / sqrt(fmt == FMT_S ? (double)as_f(v) : fpu_double(v));
    uint64_t eb = fmt == FMT_S ? fpu_float_bits((float)est) : fpu_double_bits(est);
    uint64_t m = (eb & f_frac_mask(fmt)) | hidden;
    int e = (int)((eb & f_exp_mask(fmt)) >> (p - 1)) - bias - (p - 1);

    /* Walk to the largest y with y^2 x <= 1 (the result rounded down). */
    while (sq_cmp(m, mx, 2 * e + ex) > 0)
        if (--m < hidden) {
            m = 2 * hidden - 1;
            e--;
        }
    for (;;) {
        uint64_t m2 = m + 1;
        int e2 = e;
        if (m2 == 2 * hidden) {
            m2 = hidden;
            e2++;
        }
        if (sq_cmp(m2, mx, 2 * e2 + ex) > 0)
            break;
        m = m2;
        e = e2;
    }
    if (sq_cmp(m, mx, 2 * e + ex) != 0) {
        *x |= X_I;
        bool up = rm == 2;
        if (rm == 0) /* above the midpoint (2m+1) 2^(e-1)?  (never equal) */
            up = sq_cmp(2 * m + 1, mx, 2 * (e - 1) + ex) < 0;
        if (up && ++m == 2 * hidden) {
            m = hidden;
            e++;
        }
    }
    return ((uint64_t)(e + (p - 1) + bias) << (p - 1)) | (m - hidden);
}

uint64_t fpu_arith(int fmt, enum arith_op op, uint64_t a, uint64_t b, const fpu_env *env,
                   unsigned *x)
{
    uint64_t ops[2] = {a, b}, r;
    bool unary = op == AOP_SQRT || op == AOP_RECIP || op == AOP_RSQRT;
    if (screen(fmt, ops, unary ? 1 : 2, &r, x))
        return r;
    if (op == AOP_RSQRT) {
        if (f_iszero(fmt, a)) { /* 1/sqrt(+-0) = +-inf */
            *x |= X_Z;
            return f_sign(fmt, a) | f_exp_mask(fmt);
        }
        if (f_sign(fmt, a)) {
            *x |= X_V;
            return f_default_nan(fmt);
        }
        if (f_isinf(fmt, a))
            return 0;
        return rsqrt_exact(fmt, a, env->rm, x);
    }
    unsigned hx;
    r = host_binop(fmt, op, a, b, env->rm, &hx);
    return deliver(fmt, r, hx, env, x);
}

uint64_t fpu_madd(int fmt, enum madd_kind k, uint64_t fs, uint64_t ft, uint64_t fr,
                  const fpu_env *env, unsigned *x)
{
    uint64_t ops[3] = {fs, ft, fr}, r;
    if (screen(fmt, ops, 3, &r, x))
        return r;
    unsigned hx;
    uint64_t prod = host_binop(fmt, AOP_MUL, fs, ft, env->rm, &hx);
    prod = deliver(fmt, prod, hx, env, x); /* the product is rounded here */
    if (*x & X_E)
        return 0;
    if (f_isnan(fmt, prod))
        return prod; /* inf * 0: Invalid, default NaN */
    r = host_binop(fmt, (k == MADD || k == NMADD) ? AOP_ADD : AOP_SUB, prod, fr, env->rm, &hx);
    r = deliver(fmt, r, hx, env, x);
    if ((k == NMADD || k == NMSUB) && !f_isnan(fmt, r))
        r ^= f_sign(fmt, ~0ull); /* negated after rounding */
    return r;
}

/* Float to integer (W or L) in the current rounding mode.  NaN, infinity
 * and out-of-range values raise Invalid and give 2^31-1 / 2^63-1. */
static uint64_t to_int(int dfmt, int sfmt, uint64_t v, const fpu_env *env, unsigned *x)
{
    uint64_t imax = dfmt == FMT_W ? 0x7fffffffull : 0x7fffffffffffffffull;
    if (f_isnan(sfmt, v) || f_isinf(sfmt, v)) {
        *x |= X_V;
        return imax;
    }
    if (f_isdenorm(sfmt, v)) {
        *x = X_E;
        return 0;
    }
    double d = sfmt == FMT_S ? (double)as_f(v) : fpu_double(v); /* exact */
    int saved = host_begin(env->rm);
    volatile double vd = d, vr = nearbyint(vd);
    double r = vr;
    host_end(saved);
    double lim = dfmt == FMT_W ? 2147483648.0 : 9223372036854775808.0;
    if (r >= lim || r < -lim) {
        *x |= X_V;
        return imax;
    }
    if (r != d)
        *x |= X_I;
    int64_t i = (int64_t)r;
    return dfmt == FMT_W ? (uint32_t)i : (uint64_t)i;
}

/* to_s and to_d: v, of the other floating format (sfmt == ofmt, its value
 * read by `read`), W or L, converted by the host in its current rounding
 * mode; the volatiles keep the conversion between host_begin and host_end. */
#define CONVERT_TO(name, T, ofmt, OT, read)  \
    static T name(int sfmt, uint64_t v)      \
    {                                        \
        volatile T vr;                       \
        switch (sfmt) {                      \
        case ofmt: {                         \
            volatile OT s = read(v);         \
            vr = (T)s;                       \
            break;                           \
        }                                    \
        case FMT_W: {                        \
            volatile int32_t s = (int32_t)v; \
            vr = (T)s;                       \
            break;                           \
        }                                    \
        default: {                           \
            volatile int64_t s = (int64_t)v; \
            vr = (T)s;                       \
            break;                           \
        }                                    \
        }                                    \
        return vr;                           \
    }
CONVERT_TO(to_s, float, FMT_D, double, fpu_double)
CONVERT_TO(to_d, double, FMT_S, float, as_f)

uint64_t fpu_convert(int dfmt, int sfmt, uint64_t v, const fpu_env *env, unsigned *x)
{
    if (dfmt == FMT_W || dfmt == FMT_L)
        return to_int(dfmt, sfmt, v, env, x);
    uint64_t r;
    unsigned hx;
    if (sfmt == FMT_S || sfmt == FMT_D) {
        /* Between S and D a NaN becomes the destination's default NaN. */
        if (screen(sfmt, &v, 1, &r, x))
            return (*x & X_E) ? 0 : f_default_nan(dfmt);
    }
    int saved = host_begin(env->rm);
    r = dfmt == FMT_S ? fpu_float_bits(to_s(sfmt, v)) : fpu_double_bits(to_d(sfmt, v));
    hx = host_end(saved);
    return deliver(dfmt, r, hx, env, x);
}
