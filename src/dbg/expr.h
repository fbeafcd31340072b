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

/* A value and its C type: an integer of `size` bytes, signed or not, or a
 * pointer to `psize`-byte integers (psize 0 = not a pointer).  Pointers
 * from casts step by their pointee size, as in C; addresses (symbols,
 * $pc, $sp) step by bytes, as assembler programmers expect ("main+8"),
 * and dereference as the given psize. */
typedef struct xval {
    uint64_t v;
    uint8_t size;   /* 1, 2, 4 or 8 */
    bool sgn;
    uint8_t psize;  /* pointee size for pointers, else 0 */
    bool psgn;      /* pointee signedness */
    uint8_t stride; /* bytes per +1 for pointers: psize, or 1 for addresses */
} xval;

static inline xval xval_int(int64_t v) { return (xval){(uint64_t)v, 8, true, 0, false, 0}; }
static inline xval xval_uns(uint64_t v) { return (xval){v, 8, false, 0, false, 0}; }
static inline xval xval_ptr(uint64_t v, unsigned psize)
{
    return (xval){v, 8, false, (uint8_t)psize, false, (uint8_t)psize};
}
/* An address: dereferences as a psize-byte signed integer, steps by bytes. */
static inline xval xval_addr(uint64_t v, unsigned psize)
{
    return (xval){v, 8, false, (uint8_t)psize, true, 1};
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

#endif
