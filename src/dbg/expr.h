/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The debugger's expression language: C operators over 64-bit values,
 * registers and convenience variables ($pc, $a0, $foo, $1), symbols and
 * device registers (hamachi0.TxStatus, bridge.DEVICE(2).SWAP_DIR), event
 * fields in conditions (len, cause), memory reads (*ADDR, *(char *)ADDR,
 * p[i]) and assignment (=).
 *
 * The parser builds a small tree once (breakpoint conditions are evaluated
 * many times); names are resolved at evaluation time through an expr_env,
 * so the same code serves the debugger, event conditions and unit tests. */
#ifndef XBOW_EXPR_H
#define XBOW_EXPR_H

#include "core/common.h"

struct ctype;

/* Whether a typed value has a value at all (xval.avail). */
enum xval_avail { XV_AVAILABLE = 0, XV_OPTIMIZED_OUT, XV_NOT_SAVED };

/* A value and its C type: an integer of `size` bytes, signed or not, or a
 * pointer to `psize`-byte integers (psize 0 = not a pointer).  Pointers
 * from casts step by their pointee size, as in C; addresses (symbols,
 * $pc, $sp) step by bytes, as assembler programmers expect ("main+8"),
 * and dereference as the given psize. */
typedef struct xval {
    uint64_t v;
    uint8_t size; /* 1, 2, 4 or 8 */
    bool sgn;
    uint8_t psize;  /* pointee size for pointers, else 0 */
    bool psgn;      /* pointee signedness */
    uint8_t stride; /* bytes per +1 for pointers: psize, or 1 for addresses */
    /* A value of a C type from the debug information (NULL: a plain value
     * as above).  Scalars (integers, enums, pointers, floats) have their
     * value in v; a struct, union or array is the object at addr (v is
     * addr too).  lval: the object is in memory at addr (a bit-field:
     * bit_size bits from bit_off bits past the most significant bit of
     * addr).  avail says when there is no value at all. */
    const struct ctype *type;
    uint64_t addr;
    bool lval;
    uint8_t bit_off, bit_size;
    enum xval_avail avail;
} xval;

static inline xval xval_int(int64_t v) { return (xval){.v = (uint64_t)v, .size = 8, .sgn = true}; }
static inline xval xval_uns(uint64_t v) { return (xval){.v = v, .size = 8}; }
static inline xval xval_ptr(uint64_t v, unsigned psize)
{
    return (xval){.v = v, .size = 8, .psize = (uint8_t)psize, .stride = (uint8_t)psize};
}
/* An address: dereferences as a psize-byte signed integer, steps by bytes. */
static inline xval xval_addr(uint64_t v, unsigned psize)
{
    return (xval){.v = v, .size = 8, .psize = (uint8_t)psize, .psgn = true, .stride = 1};
}

/* Where names and memory come from.  Each callback returns 0, or -1 after
 * writing a one-line message (no newline) into err.  NULL callbacks make the
 * corresponding names "unknown". */
typedef struct expr_env {
    void *ctx;
    /* $NAME (registers, convenience variables, value history: "1", "", "$") */
    int (*get_var)(void *ctx, const char *name, xval *out, xerr *err);
    int (*set_var)(void *ctx, const char *name, const xval *v, xerr *err);
    /* Bare names: event fields, symbols, device registers and fields. */
    int (*get_ident)(void *ctx, const char *name, xval *out, xerr *err);
    int (*set_ident)(void *ctx, const char *name, const xval *v, xerr *err);
    /* Memory at a (virtual) address: `size` bytes, big-endian value. */
    int (*read_mem)(void *ctx, uint64_t addr, unsigned size, uint64_t *v, xerr *err);
    int (*write_mem)(void *ctx, uint64_t addr, unsigned size, uint64_t v, xerr *err);
    /* A C type by name ("struct desc", "u32", "enum state") for casts and
     * sizeof; NULL: only the built-in integer types are known. */
    int (*lookup_type)(void *ctx, const char *name, const struct ctype **out, xerr *err);
} expr_env;

typedef struct expr expr;

/* Parse the longest expression at the start of `text`; *end (if given) gets
 * where parsing stopped (at a token that cannot continue the expression,
 * such as ',' or the word "if").  Without `end`, anything left over is an
 * error.  Returns NULL with err set on a syntax error. */
expr *expr_parse(const char *text, const char **end, xerr *err);
void expr_free(expr *e);
int expr_eval(const expr *e, const expr_env *env, xval *out, xerr *err);
/* Parse and evaluate the whole of `text`. */
int expr_evaluate(const char *text, const expr_env *env, xval *out, xerr *err);
/* True when the expression is an assignment. */
bool expr_is_assignment(const expr *e);
/* The name when the whole expression is one bare name, else NULL. */
const char *expr_single_ident(const expr *e);
/* Call fn for every bare name in the expression (to check names early). */
void expr_idents(const expr *e, void (*fn)(void *ctx, const char *name), void *ctx);

/* The value as a 64-bit number with its sign extended when signed. */
int64_t xval_signed(const xval *v);

/* Typed values (C types, ctype.h). */
/* The object of type t in memory at addr: a scalar is read, an aggregate
 * stays where it is.  0, or -1 with err set. */
int xval_load(const expr_env *env, const struct ctype *t, uint64_t addr, xval *out, xerr *err);
/* A scalar of type t holding the raw value v (truncated, sign-extended). */
xval xval_typed(const struct ctype *t, uint64_t v);
/* An object of type t that has no value: optimized out or not saved. */
xval xval_unavailable(const struct ctype *t, enum xval_avail avail);
/* The address a command that takes one (x, watch, break, info symbol ...)
 * makes of a value: a pointer's value; for a C object in memory that is
 * not a pointer (a variable, a struct member, an array, a function), its
 * address; otherwise the number itself. */
uint64_t xval_address(const xval *v);

#endif
