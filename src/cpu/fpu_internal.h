/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the FPU (fpu.c, fpu_arith.c): operand formats, the
 * exception bits one operation raises, IEEE operand classification in the
 * MIPS legacy NaN encoding, and the arithmetic core that runs on the host's
 * IEEE unit.  Nothing outside src/cpu/fpu*.c includes this. */
#ifndef XBOW_FPU_INTERNAL_H
#define XBOW_FPU_INTERNAL_H

#include "cpu/fpu.h"

/* Operand formats: the COP1 fmt field values. */
enum { FMT_S = 16, FMT_D = 17, FMT_W = 20, FMT_L = 21 };

/* Exceptions one instruction raises, in the order of the FCSR cause field
 * (cause = x << FCSR_CAUSE_SHIFT; the low five are also flags and enables). */
enum { X_I = 1, X_U = 2, X_O = 4, X_Z = 8, X_V = 16, X_E = 32 };

/* Legacy (pre-NaN2008) MIPS NaNs: a NaN whose top fraction bit is SET is
 * signalling; quiet NaNs have it clear.  Default quiet NaNs: */
#define DEFAULT_NAN_S 0x7fbfffffull
#define DEFAULT_NAN_D 0x7ff7ffffffffffffull

static inline bool fmt_is64(int fmt) { return fmt == FMT_D || fmt == FMT_L; }
static inline uint64_t f_sign(int fmt, uint64_t v)
{
    return fmt == FMT_S ? v & 0x80000000ull : v & 0x8000000000000000ull;
}
static inline uint64_t f_abs(int fmt, uint64_t v)
{
    return fmt == FMT_S ? v & 0x7fffffffull : v & 0x7fffffffffffffffull;
}
static inline uint64_t f_exp_mask(int fmt)
{
    return fmt == FMT_S ? 0x7f800000ull : 0x7ff0000000000000ull;
}
static inline uint64_t f_frac_mask(int fmt)
{
    return fmt == FMT_S ? 0x007fffffull : 0x000fffffffffffffull;
}
static inline uint64_t f_min_normal(int fmt)
{
    return fmt == FMT_S ? 0x00800000ull : 0x0010000000000000ull;
}
static inline bool f_isnan(int fmt, uint64_t v)
{
    return (v & f_exp_mask(fmt)) == f_exp_mask(fmt) && (v & f_frac_mask(fmt));
}
static inline bool f_issnan(int fmt, uint64_t v)
{
    uint64_t quiet_bit = fmt == FMT_S ? 0x00400000ull : 0x0008000000000000ull;
    return f_isnan(fmt, v) && (v & quiet_bit);
}
static inline bool f_isinf(int fmt, uint64_t v) { return f_abs(fmt, v) == f_exp_mask(fmt); }
static inline bool f_iszero(int fmt, uint64_t v) { return f_abs(fmt, v) == 0; }
static inline bool f_isdenorm(int fmt, uint64_t v)
{
    return (v & f_exp_mask(fmt)) == 0 && (v & f_frac_mask(fmt));
}
static inline uint64_t f_default_nan(int fmt)
{
    return fmt == FMT_S ? DEFAULT_NAN_S : DEFAULT_NAN_D;
}

/* What the arithmetic core needs from the FCSR. */
typedef struct fpu_env {
    unsigned rm;      /* 0 RN, 1 RZ, 2 RP, 3 RM */
    bool fs;          /* flush tiny results instead of raising E */
    unsigned enables; /* X_I..X_V */
} fpu_env;

enum arith_op { AOP_ADD, AOP_SUB, AOP_MUL, AOP_DIV, AOP_SQRT, AOP_RECIP, AOP_RSQRT };
enum madd_kind { MADD, MSUB, NMADD, NMSUB };

/* Each returns the result bits and ORs the exceptions raised into *x.  When
 * *x has X_E the result is meaningless (the instruction does not complete). */
uint64_t fpu_arith(int fmt, enum arith_op op, uint64_t a, uint64_t b, const fpu_env *env,
                   unsigned *x);
/* MADD family: fs*ft (+|-) fr, with fs*ft rounded first (not fused). */
uint64_t fpu_madd(int fmt, enum madd_kind k, uint64_t fs, uint64_t ft, uint64_t fr,
                  const fpu_env *env, unsigned *x);
/* Conversion between any two different formats of S, D, W, L. */
uint64_t fpu_convert(int dfmt, int sfmt, uint64_t v, const fpu_env *env, unsigned *x);

#endif
