/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The expression language: lexer, parser (precedence climbing) and
 * evaluator.  See expr.h. */
#include "dbg/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg/ctype.h"

/* clang-format off */
enum node_kind {
    N_NUM, N_VAR, N_IDENT, N_UNARY, N_CAST, N_BIN, N_COND, N_ASSIGN, N_INDEX, N_MEMBER,
    N_SIZEOF,
};
/* clang-format on */

/* Two-character operators are encoded as these codes. */
/* clang-format off */
enum {
    OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_SHL, OP_SHR, OP_LAND, OP_LOR, OP_ARROW,
};
/* clang-format on */

/* N_CAST: e->name is a C type name looked up when evaluated ("struct
 * desc"), with e->op pointer levels; CAST_OBJECT in e->op: gdb's {TYPE}
 * ADDR, the object of that type at the address. */
#define CAST_OBJECT 0x100

struct expr {
    enum node_kind kind;
    int op;
    xval val;   /* N_NUM; N_CAST: the target type */
    char *name; /* N_VAR, N_IDENT, N_MEMBER (the member path); N_CAST, N_SIZEOF: a type */
    struct expr *a, *b, *c;
};

/* ---- lexer ------------------------------------------------------------ */

enum tok_kind { T_END, T_NUM, T_VAR, T_IDENT, T_OP };

typedef struct lexer {
    const char *s;     /* next character */
    const char *start; /* the current token */
    enum tok_kind kind;
    int op;
    uint64_t num;
    bool num_unsigned;
    char text[128];
    xerr *err;
    bool failed;
} lexer;

static void lex_error(lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lex_error(lexer *lx, const char *fmt, ...)
{
    if (lx->failed)
        return;
    lx->failed = true;
    va_list ap;
    va_start(ap, fmt);
    xerr_vset(lx->err, fmt, ap);
    va_end(ap);
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* "(12)" or "[12]" right here?  Returns its length, 0 if not. */
static size_t index_suffix(const char *s)
{
    char close = *s == '(' ? ')' : *s == '[' ? ']' : 0;
    if (!close || !isdigit((unsigned char)s[1]))
        return 0;
    size_t n = 1;
    while (isdigit((unsigned char)s[n]))
        n++;
    return s[n] == close ? n + 1 : 0;
}

static void lex_number(lexer *lx)
{
    const char *s = lx->s;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0' && isdigit((unsigned char)s[1]))
        base = 8, s += 1;
    const char *digits = s;
    uint64_t v = 0;
    bool overflow = false;
    for (;; s++) {
        int dv;
        char c = *s;
        if (isdigit((unsigned char)c))
            dv = c - '0';
        else if (c >= 'a' && c <= 'f')
            dv = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            dv = c - 'A' + 10;
        else
            break;
        if (dv >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
            overflow = true;
        v = v * (uint64_t)base + (uint64_t)dv;
    }
    if (s == digits && base != 8) { /* "0x", "0xzz": name the whole token */
        const char *e = s;
        while (ident_char(*e))
            e++;
        lex_error(lx, "Invalid number \"%.*s\".", (int)(e - lx->s), lx->s);
        return;
    }
    bool uns = false;
    while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L') {
        if (*s == 'u' || *s == 'U')
            uns = true;
        s++;
    }
    if (ident_char(*s)) {
        const char *e = s;
        while (ident_char(*e))
            e++;
        lex_error(lx, "Invalid number \"%.*s\".", (int)(e - lx->s), lx->s);
        return;
    }
    if (overflow) {
        lex_error(lx, "Numeric constant too large.");
        return;
    }
    /* C: a decimal constant that does not fit `long` is unsigned; so is a
     * hex/octal/binary one above INT64_MAX. */
    lx->num = v;
    lx->num_unsigned = uns || v > INT64_MAX;
    lx->kind = T_NUM;
    lx->s = s;
}

static int char_escape(const char **sp)
{
    const char *s = *sp;
    int c = (unsigned char)*s++;
    if (c == '\\') {
        c = (unsigned char)*s++;
        switch (c) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case '0': c = 0; break;
        case 'e': c = 27; break;
        case 'a': c = 7; break;
        default: break;
        }
    }
    *sp = s;
    return c;
}

static void lex_next(lexer *lx)
{
    if (lx->failed) {
        lx->kind = T_END;
        return;
    }
    while (isspace((unsigned char)*lx->s))
        lx->s++;
    lx->start = lx->s;
    const char *s = lx->s;
    char c = *s;
    if (!c) {
        lx->kind = T_END;
        return;
    }
    if (isdigit((unsigned char)c)) {
        lex_number(lx);
        return;
    }
    if (c == '\'') {
        s++;
        if (!*s || *s == '\'') {
            lex_error(lx, "Empty character constant.");
            return;
        }
        int v = char_escape(&s);
        if (*s != '\'') {
            lex_error(lx, "Unmatched single quote.");
            return;
        }
        lx->num = (uint64_t)v;
        lx->num_unsigned = false;
        lx->kind = T_NUM;
        lx->s = s + 1;
        return;
    }
    if (c == '$') {
        size_t n = 0;
        s++;
        if (*s == '$') { /* $$, $$N */
            lx->text[n++] = '$';
            s++;
        }
        while (ident_char(*s) && n + 1 < sizeof lx->text)
            lx->text[n++] = *s++;
        lx->text[n] = 0;
        lx->kind = T_VAR;
        lx->s = s;
        return;
    }
    if (ident_start(c)) {
        size_t n = 0;
        bool dotted = false;
        for (;;) {
            while (ident_char(*s) && n + 1 < sizeof lx->text)
                lx->text[n++] = *s++;
            size_t k = dotted ? index_suffix(s) : 0;
            if (k && n + k < sizeof lx->text) {
                memcpy(lx->text + n, s, k);
                n += k;
                s += k;
            }
            if (s[0] == '.' && ident_char(s[1]) && n + 1 < sizeof lx->text) {
                lx->text[n++] = '.';
                s++;
                dotted = true;
                continue;
            }
            break;
        }
        if (ident_char(*s)) {
            lex_error(lx, "Name too long.");
            return;
        }
        lx->text[n] = 0;
        lx->kind = T_IDENT;
        lx->s = s;
        return;
    }
    static const struct {
        char s[3];
        int op;
    } two[] = {{"==", OP_EQ},  {"!=", OP_NE},   {"<=", OP_LE},  {">=", OP_GE},   {"<<", OP_SHL},
               {">>", OP_SHR}, {"&&", OP_LAND}, {"||", OP_LOR}, {"->", OP_ARROW}};
    for (unsigned i = 0; i < ARRAY_SIZE(two); i++) {
        if (s[0] == two[i].s[0] && s[1] == two[i].s[1]) {
            lx->kind = T_OP;
            lx->op = two[i].op;
            lx->s = s + 2;
            return;
        }
    }
    if (strchr("+-*/%<>&|^!~?:=()[],.{}", c)) {
        lx->kind = T_OP;
        lx->op = c;
        lx->s = s + 1;
        return;
    }
    lex_error(lx, "Invalid character '%c' in expression.", c);
    lx->kind = T_END;
}

static bool is_op(const lexer *lx, int op) { return lx->kind == T_OP && lx->op == op; }

/* ---- parser ----------------------------------------------------------- */

static expr *node(enum node_kind kind)
{
    expr *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    return e;
}

void expr_free(expr *e)
{
    if (!e)
        return;
    expr_free(e->a);
    expr_free(e->b);
    expr_free(e->c);
    free(e->name);
    free(e);
}

static expr *parse_assign(lexer *lx);
static expr *parse_unary(lexer *lx);

static void syntax_error(lexer *lx)
{
    if (lx->kind == T_END)
        lex_error(lx, "A syntax error in expression, near `'.");
    else
        lex_error(lx, "A syntax error in expression, near `%s'.", lx->start);
}

/* Type names for casts. */
static const struct {
    const char *name;
    uint8_t size;
    bool sgn;
} type_names[] = {
    {"char", 1, true},     {"short", 2, true},     {"int", 4, true},       {"long", 8, true},
    {"int8_t", 1, true},   {"int16_t", 2, true},   {"int32_t", 4, true},   {"int64_t", 8, true},
    {"uint8_t", 1, false}, {"uint16_t", 2, false}, {"uint32_t", 4, false}, {"uint64_t", 8, false},
    {"s8", 1, true},       {"s16", 2, true},       {"s32", 4, true},       {"s64", 8, true},
    {"u8", 1, false},      {"u16", 2, false},      {"u32", 4, false},      {"u64", 8, false},
    {"void", 1, false},
};

static int type_word(const char *w)
{
    for (unsigned i = 0; i < ARRAY_SIZE(type_names); i++)
        if (strcmp(type_names[i].name, w) == 0)
            return (int)i;
    if (!strcmp(w, "unsigned") || !strcmp(w, "signed"))
        return 100;
    return -1;
}

/* A type name as a cast, sizeof or {TYPE} has it. */
typedef struct type_name {
    xval t;     /* a built-in type (name NULL) */
    char *name; /* a C type looked up when evaluated: "struct desc", "dma_addr_t" */
    int stars;  /* pointer levels on a named type */
} type_name;

static bool can_start_operand(const lexer *lx)
{
    return lx->kind == T_NUM || lx->kind == T_IDENT || lx->kind == T_VAR ||
           (lx->kind == T_OP && (lx->op == '(' || lx->op == '{'));
}

/* After '(' or '{': a type name such as "unsigned long", "u32 *", "char
 * **", "struct desc *", "dma_addr_t"?  Consumes it and the closing `close`
 * and fills *tn; returns false (consuming nothing) when the parenthesis
 * holds an expression.  A name that is not a built-in type is taken as a
 * typedef when nothing else can be meant: followed by '*' or, after ')',
 * by an operand; "(name) - 1" stays an expression. */
static bool parse_type(lexer *lx, int close, type_name *tn)
{
    memset(tn, 0, sizeof *tn);
    lexer save = *lx;
    while (lx->kind == T_IDENT && (!strcmp(lx->text, "const") || !strcmp(lx->text, "volatile")))
        lex_next(lx);
    if (lx->kind != T_IDENT) {
        *lx = save;
        return false;
    }
    if (type_word(lx->text) < 0) {
        char name[160];
        bool tagged =
            !strcmp(lx->text, "struct") || !strcmp(lx->text, "union") || !strcmp(lx->text, "enum");
        if (tagged) {
            snprintf(name, sizeof name, "%s ", lx->text);
            lex_next(lx);
            if (lx->kind != T_IDENT || strchr(lx->text, '.')) {
                syntax_error(lx);
                return true;
            }
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s", lx->text);
        } else {
            if (strchr(lx->text, '.')) {
                *lx = save;
                return false;
            }
            snprintf(name, sizeof name, "%s", lx->text);
        }
        lex_next(lx);
        while (lx->kind == T_IDENT && (!strcmp(lx->text, "const") || !strcmp(lx->text, "volatile")))
            lex_next(lx);
        int stars = 0;
        while (is_op(lx, '*')) {
            stars++;
            lex_next(lx);
        }
        if (!is_op(lx, close)) {
            if (tagged || stars) {
                syntax_error(lx);
                return true;
            }
            *lx = save;
            return false;
        }
        lex_next(lx);
        if (!tagged && !stars && close == ')' && !can_start_operand(lx)) {
            *lx = save; /* "(x) + 1": a parenthesised name */
            return false;
        }
        tn->name = xstrdup(name);
        tn->stars = stars;
        return true;
    }
    int sgn = -1; /* -1: not said */
    int size = 0;
    bool is_void = false;
    while (lx->kind == T_IDENT) {
        int k = type_word(lx->text);
        if (!strcmp(lx->text, "const") || !strcmp(lx->text, "volatile")) {
            lex_next(lx);
            continue;
        }
        if (k < 0)
            break;
        if (k == 100) {
            sgn = strcmp(lx->text, "signed") == 0;
        } else if (!strcmp(lx->text, "long") && size == 8) {
            /* long long */
        } else if (!strcmp(lx->text, "int") && size) {
            /* short int, long int */
        } else {
            size = type_names[k].size;
            is_void = !strcmp(lx->text, "void");
            if (sgn < 0)
                sgn = type_names[k].sgn;
        }
        lex_next(lx);
    }
    if (!size)
        size = 4; /* "unsigned" alone */
    int stars = 0;
    while (is_op(lx, '*')) {
        stars++;
        lex_next(lx);
    }
    if (!is_op(lx, close)) {
        syntax_error(lx);
        return true;
    }
    lex_next(lx);
    if (is_void && !stars && close == ')') {
        lex_error(lx, "Cannot cast to void.");
        return true;
    }
    xval *t = &tn->t;
    *t = (xval){.size = (uint8_t)size, .sgn = sgn > 0};
    if (stars) {
        /* A pointer to pointers reads 8-byte values. */
        t->psize = stars > 1 ? 8 : (uint8_t)size;
        t->psgn = stars > 1 ? false : t->sgn;
        t->stride = t->psize;
        t->size = 8;
        t->sgn = false;
    }
    return true;
}

/* e (a sub-expression just parsed, NULL after an error) followed by the
 * operator `op`, which is consumed; else say `missing` and give NULL. */
static expr *closed_by(lexer *lx, expr *e, int op, const char *missing)
{
    if (e && is_op(lx, op)) {
        lex_next(lx);
        return e;
    }
    if (e)
        lex_error(lx, "%s", missing);
    expr_free(e);
    return NULL;
}

static expr *parse_primary(lexer *lx)
{
    expr *e;
    switch (lx->kind) {
    case T_NUM:
        e = node(N_NUM);
        e->val = lx->num_unsigned ? xval_uns(lx->num) : xval_int((int64_t)lx->num);
        lex_next(lx);
        return e;
    case T_VAR:
    case T_IDENT:
        e = node(lx->kind == T_VAR ? N_VAR : N_IDENT);
        e->name = xstrdup(lx->text);
        lex_next(lx);
        return e;
    case T_OP:
        if (lx->op == '(') {
            lex_next(lx);
            return closed_by(lx, parse_assign(lx), ')', "Missing ')' in expression.");
        }
        break;
    default: break;
    }
    syntax_error(lx);
    return NULL;
}

/* A node of one operand a (NULL after an error, passed on). */
static expr *unary_node(enum node_kind kind, int op, expr *a)
{
    if (!a)
        return NULL;
    expr *e = node(kind);
    e->op = op;
    e->a = a;
    return e;
}

/* A node of two operands; NULL when either is (an error, passed on: the
 * other is freed). */
static expr *binary_node(enum node_kind kind, int op, expr *a, expr *b)
{
    if (!a || !b) {
        expr_free(a);
        expr_free(b);
        return NULL;
    }
    expr *e = unary_node(kind, op, a);
    e->b = b;
    return e;
}

static expr *parse_postfix(lexer *lx)
{
    expr *e = parse_primary(lx);
    while (e && (is_op(lx, '[') || is_op(lx, '.') || is_op(lx, OP_ARROW))) {
        if (!is_op(lx, '[')) { /* .member, ->member (a path: the lexer joins a.b[2].c) */
            int op = is_op(lx, '.') ? '.' : '>';
            lex_next(lx);
            if (lx->kind != T_IDENT) {
                expr_free(e);
                lex_error(lx, "A member name is missing after \"%s\".", op == '.' ? "." : "->");
                return NULL;
            }
            expr *n = node(N_MEMBER);
            n->name = xstrdup(lx->text);
            n->op = op;
            n->a = e;
            e = n;
            lex_next(lx);
            continue;
        }
        lex_next(lx);
        e = binary_node(N_INDEX, 0, e,
                        closed_by(lx, parse_assign(lx), ']', "Missing ']' in expression."));
    }
    return e;
}


/* A cast node (or sizeof's type) from a parsed type name. */
static expr *type_node(enum node_kind kind, type_name *tn, expr *a)
{
    expr *e = node(kind);
    e->val = tn->t;
    e->name = tn->name;
    e->op = tn->stars;
    e->a = a;
    return e;
}

/* A cast to the type just parsed, of the operand that follows (NULL after
 * an error). */
static expr *cast_node(lexer *lx, type_name *tn)
{
    expr *a = parse_unary(lx);
    if (!a) {
        free(tn->name);
        return NULL;
    }
    return type_node(N_CAST, tn, a);
}

/* "(TYPE)" here?  Then true, with the type in tn (and lx->failed after an
 * error in it); else false, with the lexer where it was. */
static bool paren_type(lexer *lx, type_name *tn)
{
    if (!is_op(lx, '('))
        return false;
    lexer save = *lx;
    lex_next(lx);
    if (parse_type(lx, ')', tn))
        return true;
    *lx = save;
    return false;
}

static expr *parse_unary(lexer *lx)
{
    if (lx->kind == T_OP && lx->op < 256 && strchr("-+!~*&", lx->op)) {
        int op = lx->op;
        lex_next(lx);
        return unary_node(N_UNARY, op, parse_unary(lx));
    }
    if (lx->kind == T_IDENT && !strcmp(lx->text, "sizeof")) {
        lex_next(lx);
        type_name tn;
        if (paren_type(lx, &tn))
            return lx->failed ? NULL : type_node(N_SIZEOF, &tn, NULL);
        return unary_node(N_SIZEOF, 0, parse_unary(lx));
    }
    if (is_op(lx, '{')) { /* gdb's {TYPE} ADDR: the object of TYPE at ADDR */
        lex_next(lx);
        type_name tn;
        if (!parse_type(lx, '}', &tn)) {
            lex_error(lx, "A type name is missing after \"{\".");
            return NULL;
        }
        if (lx->failed)
            return NULL;
        expr *e = cast_node(lx, &tn);
        if (e)
            e->op |= CAST_OBJECT;
        return e;
    }
    type_name tn; /* a cast, or a parenthesised expression? */
    if (paren_type(lx, &tn))
        return lx->failed ? NULL : cast_node(lx, &tn);
    return parse_postfix(lx);
}

/* Binary operators by precedence level, lowest first. */
static const int levels[][5] = {
    {OP_LOR},
    {OP_LAND},
    {'|'},
    {'^'},
    {'&'},
    {OP_EQ, OP_NE},
    {'<', '>', OP_LE, OP_GE},
    {OP_SHL, OP_SHR},
    {'+', '-'},
    {'*', '/', '%'},
};

static expr *parse_binary(lexer *lx, unsigned level)
{
    if (level >= ARRAY_SIZE(levels))
        return parse_unary(lx);
    expr *e = parse_binary(lx, level + 1);
    while (e && lx->kind == T_OP) {
        int op = 0;
        for (unsigned k = 0; k < 5 && levels[level][k]; k++)
            if (lx->op == levels[level][k])
                op = lx->op;
        if (!op)
            break;
        lex_next(lx);
        e = binary_node(N_BIN, op, e, parse_binary(lx, level + 1));
    }
    return e;
}

static expr *parse_cond(lexer *lx)
{
    expr *e = parse_binary(lx, 0);
    if (!e || !is_op(lx, '?'))
        return e;
    lex_next(lx);
    expr *n =
        binary_node(N_COND, 0, e,
                    closed_by(lx, parse_assign(lx), ':', "Missing ':' in conditional expression."));
    expr *c = n ? parse_cond(lx) : NULL;
    if (!c) {
        expr_free(n);
        return NULL;
    }
    n->c = c;
    return n;
}

static bool is_lvalue(const expr *e)
{
    return e->kind == N_VAR || e->kind == N_IDENT || e->kind == N_INDEX || e->kind == N_MEMBER ||
           (e->kind == N_UNARY && e->op == '*') || (e->kind == N_CAST && (e->op & CAST_OBJECT));
}

static expr *parse_assign(lexer *lx)
{
    expr *e = parse_cond(lx);
    if (!e || !is_op(lx, '='))
        return e;
    if (!is_lvalue(e)) {
        expr_free(e);
        lex_error(lx, "Left operand of assignment is not an lvalue.");
        return NULL;
    }
    lex_next(lx);
    return binary_node(N_ASSIGN, 0, e, parse_assign(lx));
}

expr *expr_parse(const char *text, const char **end, xerr *err)
{
    lexer lx = {.s = text, .err = err};
    xerr_clear(err);
    lex_next(&lx);
    if (lx.kind == T_END && !lx.failed) {
        xerr_set(err, "An expression is missing.");
        return NULL;
    }
    expr *e = parse_assign(&lx);
    if (e && !lx.failed) {
        if (end) {
            *end = lx.start;
            return e;
        }
        if (lx.kind == T_END)
            return e;
        syntax_error(&lx);
    }
    expr_free(e);
    if (!lx.failed)
        syntax_error(&lx);
    return NULL;
}

bool expr_is_assignment(const expr *e) { return e && e->kind == N_ASSIGN; }

const char *expr_single_ident(const expr *e) { return e && e->kind == N_IDENT ? e->name : NULL; }

void expr_idents(const expr *e, void (*fn)(void *ctx, const char *name), void *ctx)
{
    if (!e)
        return;
    if (e->kind == N_IDENT)
        fn(ctx, e->name);
    expr_idents(e->a, fn, ctx);
    expr_idents(e->b, fn, ctx);
    expr_idents(e->c, fn, ctx);
}

/* ---- evaluation ------------------------------------------------------- */

typedef struct evalctx {
    const expr_env *env;
    xerr *err;
} evalctx;


int64_t xval_signed(const xval *v)
{
    unsigned bits = v->size * 8u;
    if (bits >= 64 || !v->sgn)
        return (int64_t)v->v;
    uint64_t m = 1ull << (bits - 1);
    uint64_t x = v->v & MASK(bits);
    return (int64_t)((x ^ m) - m);
}

/* Normalise to the type's width (truncate, sign-extend into 64 bits). */
static xval fit(xval v)
{
    if (v.size < 8)
        v.v = v.sgn ? (uint64_t)xval_signed(&v) : v.v & MASK(v.size * 8u);
    return v;
}

/* ---- typed values ------------------------------------------------------ */

static unsigned scalar_size(uint64_t n) { return n == 1 || n == 2 || n == 4 ? (unsigned)n : 8; }

xval xval_typed(const ctype *t, uint64_t raw)
{
    const ctype *st = ctype_strip(t);
    xval r;
    memset(&r, 0, sizeof r);
    r.type = t;
    r.size = (uint8_t)scalar_size(st ? st->size : 8);
    r.sgn = st && (st->kind == CT_INT || st->kind == CT_ENUM) && st->sgn;
    r.v = raw;
    if (st && st->kind == CT_PTR) {
        const ctype *p = ctype_strip(ctype_target(st));
        bool plain = p && (p->kind == CT_INT || p->kind == CT_ENUM || p->kind == CT_BOOL) &&
                     (p->size == 1 || p->size == 2 || p->size == 4 || p->size == 8);
        r.psize = plain ? (uint8_t)p->size : 1;
        r.psgn = plain && p->sgn;
        r.stride = r.psize;
    }
    return fit(r);
}

xval xval_unavailable(const ctype *t, enum xval_avail avail)
{
    xval r = xval_typed(t, 0);
    r.avail = (uint8_t)avail;
    return r;
}

uint64_t xval_address(const xval *v)
{
    const ctype *st = ctype_strip(v->type);
    if (!v->type)
        return v->v;
    if (st && st->kind == CT_PTR)
        return v->v;
    return v->lval ? v->addr : v->v;
}

static int read_mem(evalctx *x, uint64_t addr, unsigned size, uint64_t *v)
{
    if (!x->env->read_mem)
        return xerr_fail(x->err, "Cannot access memory here.");
    return x->env->read_mem(x->env->ctx, addr, size, v, x->err);
}

static int load_typed(evalctx *x, const ctype *t, uint64_t addr, xval *out)
{
    const ctype *st = ctype_strip(t);
    if (!st || st->kind == CT_VOID)
        return xerr_fail(x->err, "Attempt to take contents of a non-pointer value.");
    if (st->kind == CT_STRUCT || st->kind == CT_UNION || st->kind == CT_ARRAY ||
        st->kind == CT_FUNC) {
        memset(out, 0, sizeof *out);
        out->v = addr;
        out->size = 8;
        out->type = t;
        out->lval = true;
        out->addr = addr;
        return 0;
    }
    if (!st->size || st->size > 8)
        return xerr_fail(x->err, "Cannot read a %llu-byte scalar.", (unsigned long long)st->size);
    uint64_t raw;
    if (read_mem(x, addr, (unsigned)st->size, &raw))
        return -1;
    *out = xval_typed(t, raw);
    out->lval = true;
    out->addr = addr;
    return 0;
}

int xval_load(const expr_env *env, const ctype *t, uint64_t addr, xval *out, xerr *err)
{
    evalctx x = {env, err};
    return load_typed(&x, t, addr, out);
}

/* A bit-field: bits [off, off+size) counted from the most significant bit
 * of the byte at addr. */
static int load_bits(evalctx *x, const cmember *m, uint64_t addr, xval *out)
{
    unsigned nbytes = (m->bit_offset + m->bit_size + 7u) / 8u;
    if (nbytes > 8)
        return xerr_fail(x->err, "A bit-field across more than 8 bytes.");
    uint64_t raw;
    if (read_mem(x, addr, nbytes, &raw))
        return -1;
    unsigned shift = nbytes * 8u - m->bit_offset - m->bit_size;
    uint64_t v = (raw >> shift) & MASK(m->bit_size);
    const ctype *st = ctype_strip(m->type);
    if (st && st->sgn && m->bit_size < 64 && (v >> (m->bit_size - 1)) & 1)
        v |= ~0ull << m->bit_size;
    *out = xval_typed(m->type, v);
    out->lval = true;
    out->addr = addr;
    out->bit_off = (uint8_t)m->bit_offset;
    out->bit_size = (uint8_t)m->bit_size;
    return 0;
}

static int check_avail(evalctx *x, const xval *v)
{
    if (v->avail == XV_OPTIMIZED_OUT)
        return xerr_fail(x->err, "value has been optimized out");
    if (v->avail == XV_NOT_SAVED)
        return xerr_fail(x->err,
                         "value is not available: the register was not saved in this frame");
    return 0;
}

/* A pointer to t (NULL: void, which has no arena to make it in). */
static const ctype *pointer_to(const ctype *t) { return t ? ctype_pointer(t->arena, t) : NULL; }

/* A value as an operand of arithmetic: arrays and functions become
 * pointers, aggregates are refused. */
static int rvalue(evalctx *x, xval *v)
{
    if (!v->type)
        return 0;
    if (check_avail(x, v))
        return -1;
    const ctype *st = ctype_strip(v->type);
    if (st && st->kind == CT_ARRAY && v->lval) {
        const ctype *p = pointer_to(ctype_target(st));
        if (!p)
            return xerr_fail(x->err, "An array of elements of no known type.");
        uint64_t a = v->addr;
        *v = xval_typed(p, a);
        return 0;
    }
    if (st && st->kind == CT_FUNC && v->lval) {
        const ctype *p = pointer_to(v->type);
        uint64_t a = v->addr;
        *v = xval_typed(p, a);
        return 0;
    }
    if (st && (st->kind == CT_STRUCT || st->kind == CT_UNION))
        return xerr_fail(x->err, "A %s is not a number (print it, or take its address with &).",
                         st->kind == CT_STRUCT ? "struct" : "union");
    return 0;
}

static bool is_float(const xval *v)
{
    const ctype *st = ctype_strip(v->type);
    return st && st->kind == CT_FLOAT;
}

static double float_of(const xval *v)
{
    if (v->size == 4) {
        uint32_t w = (uint32_t)v->v;
        float f;
        memcpy(&f, &w, 4);
        return f;
    }
    double d;
    memcpy(&d, &v->v, 8);
    return d;
}

static uint64_t float_bits(double d, uint64_t size)
{
    if (size == 4) {
        float f = (float)d;
        uint32_t w;
        memcpy(&w, &f, 4);
        return w;
    }
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* A value converted to type t (a cast, or an assignment to an object of
 * type t). */
static int convert(evalctx *x, const ctype *t, const xval *v, xval *out)
{
    const ctype *st = ctype_strip(t);
    if (!st || st->kind == CT_VOID)
        return xerr_fail(x->err, "Cannot cast to void.");
    if (!ctype_is_scalar(t)) {
        strbuf b;
        sb_init(&b);
        ctype_name(t, &b);
        xerr_fail(x->err,
                  "Invalid cast to %s (for the object at an address: *(%s *)ADDR or {%s} ADDR).",
                  b.s, b.s, b.s);
        sb_free(&b);
        return -1;
    }
    if (st->kind == CT_FLOAT) {
        double d = is_float(v) ? float_of(v) : v->sgn ? (double)xval_signed(v) : (double)v->v;
        *out = xval_typed(t, float_bits(d, st->size));
        return 0;
    }
    uint64_t raw = v->v;
    if (is_float(v))
        raw = (uint64_t)(int64_t)float_of(v);
    *out = xval_typed(t, raw);
    return 0;
}

/* ---- evaluation ------------------------------------------------------------ */

static int eval(evalctx *x, const expr *e, xval *out);

/* The typed value p as a pointer (its value in *q): its type, or NULL after
 * saying `not_ptr` (it is not one) or `void_ptr` (it points to void). */
static const ctype *as_pointer(evalctx *x, const xval *p, xval *q, const char *not_ptr,
                               const char *void_ptr)
{
    *q = *p;
    if (rvalue(x, q))
        return NULL;
    const ctype *st = ctype_strip(q->type);
    if (!st || st->kind != CT_PTR)
        xerr_fail(x->err, "%s", not_ptr);
    else if (!ctype_strip(ctype_target(st)))
        xerr_fail(x->err, "%s", void_ptr);
    else
        return st;
    return NULL;
}

static int deref(evalctx *x, const xval *p, xval *out)
{
    if (p->type) {
        xval q;
        const ctype *st = as_pointer(x, p, &q, "Attempt to take contents of a non-pointer value.",
                                     "Attempt to take contents of a void pointer (cast it first).");
        return st ? load_typed(x, ctype_target(st), q.v, out) : -1;
    }
    unsigned size = p->psize ? p->psize : 4;
    bool sgn = p->psize ? p->psgn : true;
    uint64_t v;
    if (read_mem(x, p->v, size, &v))
        return -1;
    *out = fit((xval){.v = v, .size = (uint8_t)size, .sgn = sgn});
    return 0;
}

/* base.name or base->name (pointers are followed either way, as gdb does). */
static int member(evalctx *x, const xval *base, const char *name, xval *out)
{
    xval b = *base;
    if (!b.type)
        return xerr_fail(x->err,
                         "\"%s\" is not a C struct: no member \"%s\" (cast the address, as in "
                         "((struct NAME *)ADDR)->%s).",
                         "the value", name, name);
    if (check_avail(x, &b))
        return -1;
    const ctype *st = ctype_strip(b.type);
    uint64_t obj;
    if (st && st->kind == CT_PTR) {
        st = ctype_strip(ctype_target(st));
        obj = b.v;
    } else {
        obj = b.addr;
        if (st && (st->kind == CT_STRUCT || st->kind == CT_UNION) && !b.lval)
            return xerr_fail(x->err, "The struct is not in memory (held in registers): xbow cannot "
                                     "take its members.");
    }
    if (!st || (st->kind != CT_STRUCT && st->kind != CT_UNION)) {
        strbuf tb;
        sb_init(&tb);
        ctype_name(b.type, &tb);
        xerr_fail(x->err, "Attempt to extract a component of a value that is not a structure (%s).",
                  tb.s ? tb.s : "?");
        sb_free(&tb);
        return -1;
    }
    if (st->incomplete)
        return xerr_fail(x->err, "struct %s is incomplete (only declared): no member \"%s\".",
                         st->name ? st->name : "", name);
    uint64_t off;
    const cmember *m = ctype_member(st, name, &off);
    if (!m)
        return xerr_fail(x->err, "There is no member named %s.", name);
    if (m->bit_size) {
        cmember at = *m;
        return load_bits(x, &at, obj + off, out);
    }
    return load_typed(x, m->type, obj + off, out);
}

static int index_typed(evalctx *x, const xval *base, int64_t i, xval *out)
{
    xval p;
    const ctype *st =
        as_pointer(x, base, &p, "Cannot subscript something that is not an array or a pointer.",
                   "Cannot subscript a void pointer (cast it first).");
    return st ? load_typed(x, ctype_target(st), p.v + (uint64_t)i * ctype_stride(st), out) : -1;
}

/* "a.b[3].c": a member path the lexer joined into one name, applied to a
 * typed base. */
static int apply_path(evalctx *x, xval *v, const char *path)
{
    const char *s = path;
    while (*s) {
        char name[128];
        size_t n = 0;
        while (*s && *s != '.' && *s != '[' && *s != '(' && n + 1 < sizeof name)
            name[n++] = *s++;
        name[n] = 0;
        if (*s == '(')
            return xerr_fail(x->err, "\"%s\": (N) indexes device registers; C arrays use [N].",
                             path);
        if (n && member(x, v, name, v))
            return -1;
        while (*s == '[') {
            char *end;
            long long i = strtoll(s + 1, &end, 10);
            if (*end != ']')
                return xerr_fail(x->err, "Bad index in \"%s\".", path);
            if (index_typed(x, v, i, v))
                return -1;
            s = end + 1;
        }
        if (*s == '.')
            s++;
    }
    return 0;
}

static int ident(evalctx *x, const char *name, xval *out)
{
    if (!x->env->get_ident)
        return xerr_fail(x->err, "No symbol \"%s\" in current context.", name);
    int rc = x->env->get_ident(x->env->ctx, name, out, x->err);
    const char *dot = strchr(name, '.');
    if (rc == 0 || !dot)
        return rc;
    /* Not a device register: a C variable and a member path?  If not,
     * the first answer's error stands. */
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)(dot - name), name);
    xval base;
    xerr ignored;
    if (x->env->get_ident(x->env->ctx, first, &base, &ignored) != 0 || !base.type)
        return -1;
    *out = base;
    return apply_path(x, out, dot + 1);
}

static int var(evalctx *x, const char *name, xval *out)
{
    if (!x->env->get_var)
        return xerr_fail(x->err, "No register or variable \"$%s\".", name);
    return x->env->get_var(x->env->ctx, name, out, x->err);
}

/* Address of the memory an untyped lvalue of kind '*' or [] designates. */
static int mem_lvalue(evalctx *x, const expr *e, xval *ptr)
{
    if (e->kind == N_INDEX) {
        xval b, i;
        if (eval(x, e->a, &b) || eval(x, e->b, &i) || rvalue(x, &i))
            return -1;
        if (!b.psize)
            return xerr_fail(x->err, "Cannot subscript something that is not a pointer.");
        *ptr = b;
        ptr->v = b.v + (uint64_t)xval_signed(&i) * b.stride;
        return 0;
    }
    if (eval(x, e->a, ptr))
        return -1;
    return 0;
}

static const ctype *named_type(evalctx *x, const expr *e)
{
    const ctype *t = NULL;
    if (!x->env->lookup_type) {
        xerr_fail(x->err, "No type named %s (no debugging information).", e->name);
        return NULL;
    }
    if (x->env->lookup_type(x->env->ctx, e->name, &t, x->err))
        return NULL;
    for (int i = 0; i < (e->op & 0xff); i++) /* lookup_type gives a type, not NULL */
        t = ctype_pointer(t->arena, t);
    return t;
}

/* Write v into the typed object lv designates. */
static int store_typed(evalctx *x, const xval *lv, const xval *v)
{
    if (!lv->lval)
        return xerr_fail(x->err, "Left operand of assignment is not in memory.");
    const ctype *st = ctype_strip(lv->type);
    if (!ctype_is_scalar(lv->type))
        return xerr_fail(x->err, "Cannot assign to a whole %s here: assign its members.",
                         st && st->kind == CT_ARRAY ? "array" : "struct");
    xval c;
    if (convert(x, lv->type, v, &c))
        return -1;
    if (!x->env->write_mem)
        return xerr_fail(x->err, "Cannot write memory here.");
    if (lv->bit_size) {
        unsigned nbytes = (lv->bit_off + lv->bit_size + 7u) / 8u;
        uint64_t raw;
        if (read_mem(x, lv->addr, nbytes, &raw))
            return -1;
        unsigned shift = nbytes * 8u - lv->bit_off - lv->bit_size;
        uint64_t m = MASK(lv->bit_size) << shift;
        raw = (raw & ~m) | ((c.v << shift) & m);
        return x->env->write_mem(x->env->ctx, lv->addr, nbytes, raw, x->err);
    }
    return x->env->write_mem(x->env->ctx, lv->addr, (unsigned)st->size, c.v & MASK(st->size * 8u),
                             x->err);
}

static int reload(evalctx *x, const xval *lv, xval *out)
{
    if (lv->bit_size) {
        cmember m = {NULL, lv->type, 0, lv->bit_off, lv->bit_size};
        return load_bits(x, &m, lv->addr, out);
    }
    return load_typed(x, lv->type, lv->addr, out);
}

static int assign(evalctx *x, const expr *e, xval *out)
{
    xval v;
    if (eval(x, e->b, &v) || rvalue(x, &v))
        return -1;
    const expr *l = e->a;
    if (l->kind == N_VAR) {
        if (!x->env->set_var)
            return xerr_fail(x->err, "Cannot assign to $%s here.", l->name);
        if (x->env->set_var(x->env->ctx, l->name, &v, x->err))
            return -1;
        return var(x, l->name, out);
    }
    if (l->kind == N_IDENT) {
        /* A C variable in memory is written here; registers, symbols,
         * device registers and variables in registers by the env. */
        xval lv;
        if (ident(x, l->name, &lv) == 0 && lv.type && lv.lval) {
            if (store_typed(x, &lv, &v))
                return -1;
            return reload(x, &lv, out);
        }
        if (!x->env->set_ident)
            return xerr_fail(x->err, "Cannot assign to \"%s\" here.", l->name);
        if (x->env->set_ident(x->env->ctx, l->name, &v, x->err))
            return -1;
        return ident(x, l->name, out);
    }
    /* Typed objects: members, {TYPE} ADDR, *p and p[i] of a typed p. */
    bool typed = l->kind == N_MEMBER || l->kind == N_CAST;
    if (!typed) {
        xval base;
        if (eval(x, l->a, &base))
            return -1;
        typed = base.type != NULL;
    }
    if (typed) {
        xval lv;
        if (eval(x, l, &lv))
            return -1;
        if (!lv.type)
            return xerr_fail(x->err, "Left operand of assignment is not an lvalue.");
        if (store_typed(x, &lv, &v))
            return -1;
        return reload(x, &lv, out);
    }
    xval p;
    if (mem_lvalue(x, l, &p))
        return -1;
    unsigned size = p.psize ? p.psize : 4;
    if (!x->env->write_mem)
        return xerr_fail(x->err, "Cannot write memory here.");
    if (x->env->write_mem(x->env->ctx, p.v, size, v.v & MASK(size * 8u), x->err))
        return -1;
    return deref(x, &p, out);
}

static int binary(evalctx *x, int op, const xval *a, const xval *b, xval *out)
{
    if (is_float(a) || is_float(b))
        return xerr_fail(x->err,
                         "Floating-point arithmetic is not supported (print the value alone).");
    const ctype *ta = ctype_strip(a->type), *tb = ctype_strip(b->type);
    bool pa = ta && ta->kind == CT_PTR, pb = tb && tb->kind == CT_PTR;
    if ((pa || pb) && (op == '+' || op == '-')) {
        if (pa && pb) {
            if (op == '+')
                return xerr_fail(x->err, "Cannot add two pointers.");
            *out = xval_int(((int64_t)(a->v - b->v)) / (int64_t)ctype_stride(ta));
            return 0;
        }
        const xval *p = pa ? a : b, *n = pa ? b : a;
        if (op == '-' && pb)
            return xerr_fail(x->err, "Cannot subtract a pointer from a number.");
        if (n->psize)
            return xerr_fail(x->err, "Cannot add two pointers.");
        uint64_t k = (uint64_t)xval_signed(n) * ctype_stride(pa ? ta : tb);
        *out = xval_typed(p->type, op == '+' ? p->v + k : p->v - k);
        return 0;
    }
    bool uns = !a->sgn || !b->sgn || a->psize || b->psize;
    uint64_t ua = a->v, ub = b->v;
    int64_t sa = xval_signed(a), sb = xval_signed(b);
    xval r = uns ? xval_uns(0) : xval_int(0);
    switch (op) {
    case '+':
    case '-':
        if (a->psize && b->psize && op == '-') {
            r = xval_int((sa - sb) / (int64_t)(a->stride ? a->stride : 1));
            break;
        }
        if (a->psize && b->psize)
            return xerr_fail(x->err, "Cannot add two pointers.");
        if (a->psize || b->psize) {
            const xval *p = a->psize ? a : b, *n = a->psize ? b : a;
            if (op == '-' && b->psize)
                return xerr_fail(x->err, "Cannot subtract a pointer from a number.");
            int64_t k = xval_signed(n) * (int64_t)p->stride;
            r = *p;
            r.type = NULL;
            r.lval = false;
            r.v = op == '+' ? p->v + (uint64_t)k : p->v - (uint64_t)k;
            break;
        }
        r.v = op == '+' ? ua + ub : ua - ub;
        break;
    case '*': r.v = ua * ub; break;
    case '/':
    case '%':
        if (ub == 0)
            return xerr_fail(x->err, "Division by zero");
        if (uns)
            r.v = op == '/' ? ua / ub : ua % ub;
        else if (sa == INT64_MIN && sb == -1)
            r.v = op == '/' ? ua : 0;
        else
            r.v = (uint64_t)(op == '/' ? sa / sb : sa % sb);
        break;
    case OP_SHL:
        r.v = ub >= 64 ? 0 : ua << ub;
        r.sgn = a->sgn && !a->psize;
        break;
    case OP_SHR:
        if (a->sgn && !a->psize)
            r = xval_int(ub >= 64 ? (sa < 0 ? -1 : 0) : sa >> ub);
        else
            r = xval_uns(ub >= 64 ? 0 : ua >> ub);
        break;
    case '&': r.v = ua & ub; break;
    case '|': r.v = ua | ub; break;
    case '^': r.v = ua ^ ub; break;
    case OP_EQ: r = xval_int(ua == ub); break;
    case OP_NE: r = xval_int(ua != ub); break;
    case '<': r = xval_int(uns ? ua < ub : sa < sb); break;
    case '>': r = xval_int(uns ? ua > ub : sa > sb); break;
    case OP_LE: r = xval_int(uns ? ua <= ub : sa <= sb); break;
    case OP_GE: r = xval_int(uns ? ua >= ub : sa >= sb); break;
    default: return xerr_fail(x->err, "internal error: operator %d", op);
    }
    *out = r;
    return 0;
}

/* A plain copy of a typed scalar (its C type dropped): what arithmetic
 * results are. */
static xval plain(const xval *v)
{
    xval r = *v;
    r.type = NULL;
    r.lval = false;
    r.addr = 0;
    r.bit_off = r.bit_size = 0;
    return r;
}

static int address_of(evalctx *x, const expr *a, xval *out)
{
    if (a->kind == N_UNARY && a->op == '*') {
        if (eval(x, a->a, out))
            return -1;
        return out->type ? rvalue(x, out) : 0;
    }
    if (a->kind == N_IDENT || a->kind == N_INDEX || a->kind == N_MEMBER ||
        (a->kind == N_CAST && (a->op & CAST_OBJECT))) {
        xval v;
        if (a->kind == N_INDEX) {
            xval base;
            if (eval(x, a->a, &base))
                return -1;
            if (!base.type)
                return mem_lvalue(x, a, out);
        }
        if (eval(x, a, &v))
            return -1;
        if (!v.type) {
            if (a->kind == N_IDENT) { /* a symbol is its address already */
                *out = v;
                return 0;
            }
            return xerr_fail(x->err, "Attempt to take address of value not located in memory.");
        }
        if (!v.lval)
            return xerr_fail(x->err, "Attempt to take address of value not located in memory.");
        if (v.bit_size)
            return xerr_fail(x->err, "Attempt to take address of a bit-field.");
        const ctype *p = pointer_to(v.type);
        *out = xval_typed(p, v.addr);
        return 0;
    }
    return xerr_fail(x->err, "Attempt to take address of value not located in memory.");
}

static int cast(evalctx *x, const expr *e, xval *out)
{
    xval a;
    if (eval(x, e->a, &a))
        return -1;
    if (e->op & CAST_OBJECT) { /* {TYPE} ADDR */
        if (rvalue(x, &a))
            return -1;
        if (!e->name) {
            xval t = e->val;
            t.psize = t.psize ? t.psize : t.size;
            t.psgn = t.psize == t.size ? t.sgn : t.psgn;
            t.v = a.v;
            return deref(x, &t, out);
        }
        const ctype *t = named_type(x, e);
        return t ? load_typed(x, t, xval_address(&a), out) : -1;
    }
    if (rvalue(x, &a))
        return -1;
    if (e->name) {
        const ctype *t = named_type(x, e);
        return t ? convert(x, t, &a, out) : -1;
    }
    xval b = e->val;
    b.v = is_float(&a) ? (uint64_t)(int64_t)float_of(&a) : a.v;
    *out = fit(b);
    return 0;
}

static int size_of(evalctx *x, const expr *e, xval *out)
{
    if (!e->a) {
        if (!e->name) {
            *out = xval_uns(e->val.size);
            return 0;
        }
        const ctype *t = named_type(x, e);
        if (!t)
            return -1;
        const ctype *st = ctype_strip(t);
        if (st && (st->incomplete || st->kind == CT_VOID || st->kind == CT_FUNC))
            return xerr_fail(x->err, "%s has no size (incomplete or not an object).", e->name);
        *out = xval_uns(st ? st->size : 1);
        return 0;
    }
    xval v;
    if (eval(x, e->a, &v))
        return -1;
    const ctype *st = ctype_strip(v.type);
    *out = xval_uns(v.type ? (st ? st->size : 1) : v.size);
    return 0;
}

static int eval(evalctx *x, const expr *e, xval *out)
{
    xval a, b;
    switch (e->kind) {
    case N_NUM: *out = e->val; return 0;
    case N_VAR: return var(x, e->name, out);
    case N_IDENT: return ident(x, e->name, out);
    case N_MEMBER:
        if (eval(x, e->a, &a))
            return -1;
        if (!a.type)
            return xerr_fail(x->err,
                             "The %s operator needs a C struct or a pointer to one: cast the "
                             "address, as in ((struct NAME *)ADDR)->%s.",
                             e->op == '.' ? "." : "->", e->name);
        *out = a;
        return apply_path(x, out, e->name);
    case N_INDEX: {
        if (eval(x, e->a, &a))
            return -1;
        if (a.type) {
            if (eval(x, e->b, &b) || rvalue(x, &b))
                return -1;
            if (is_float(&b))
                return xerr_fail(x->err, "An array index must be an integer.");
            return index_typed(x, &a, xval_signed(&b), out);
        }
        xval p;
        if (mem_lvalue(x, e, &p))
            return -1;
        return deref(x, &p, out);
    }
    case N_CAST: return cast(x, e, out);
    case N_SIZEOF: return size_of(x, e, out);
    case N_UNARY:
        if (e->op == '&')
            return address_of(x, e->a, out);
        if (eval(x, e->a, &a))
            return -1;
        if (e->op == '*')
            return deref(x, &a, out);
        if (rvalue(x, &a))
            return -1;
        if (is_float(&a) && e->op != '+')
            return xerr_fail(x->err,
                             "Floating-point arithmetic is not supported (print the value alone).");
        a = plain(&a);
        switch (e->op) {
        case '-': *out = a.sgn ? xval_int(-xval_signed(&a)) : xval_uns(-a.v); return 0;
        case '+': *out = a; return 0;
        case '!': *out = xval_int(a.v == 0); return 0;
        case '~': *out = fit((xval){.v = ~a.v, .size = a.size, .sgn = a.sgn}); return 0;
        }
        return xerr_fail(x->err, "internal error: unary %c", e->op);
    case N_BIN:
        if (eval(x, e->a, &a) || rvalue(x, &a))
            return -1;
        if (e->op == OP_LAND || e->op == OP_LOR) {
            bool t = a.v != 0;
            if (t == (e->op == OP_LOR)) {
                *out = xval_int(t);
                return 0;
            }
            if (eval(x, e->b, &b) || rvalue(x, &b))
                return -1;
            *out = xval_int(b.v != 0);
            return 0;
        }
        if (eval(x, e->b, &b) || rvalue(x, &b))
            return -1;
        return binary(x, e->op, &a, &b, out);
    case N_COND:
        if (eval(x, e->a, &a) || rvalue(x, &a))
            return -1;
        return eval(x, a.v ? e->b : e->c, out);
    case N_ASSIGN: return assign(x, e, out);
    }
    return xerr_fail(x->err, "internal error: node %d", e->kind);
}

int expr_eval(const expr *e, const expr_env *env, xval *out, xerr *err)
{
    evalctx x = {env, err};
    xerr_clear(err);
    return eval(&x, e, out);
}

int expr_evaluate(const char *text, const expr_env *env, xval *out, xerr *err)
{
    expr *e = expr_parse(text, NULL, err);
    if (!e)
        return -1;
    int rc = expr_eval(e, env, out, err);
    expr_free(e);
    return rc;
}
