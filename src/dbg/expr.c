/* The expression language: lexer, parser (precedence climbing) and
 * evaluator.  See expr.h. */
#include "dbg/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum node_kind { N_NUM, N_VAR, N_IDENT, N_UNARY, N_CAST, N_BIN, N_COND, N_ASSIGN, N_INDEX };

/* Two-character operators are encoded as these codes. */
enum {
    OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_SHL, OP_SHR, OP_LAND, OP_LOR,
};

struct expr {
    enum node_kind kind;
    int op;
    xval val;          /* N_NUM; N_CAST: the target type */
    char *name;        /* N_VAR, N_IDENT */
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
    } two[] = {{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE},
               {"<<", OP_SHL}, {">>", OP_SHR}, {"&&", OP_LAND}, {"||", OP_LOR}};
    for (unsigned i = 0; i < ARRAY_SIZE(two); i++) {
        if (s[0] == two[i].s[0] && s[1] == two[i].s[1]) {
            lx->kind = T_OP;
            lx->op = two[i].op;
            lx->s = s + 2;
            return;
        }
    }
    if (strchr("+-*/%<>&|^!~?:=()[],", c)) {
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

static expr *node(int kind)
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
    {"char", 1, true}, {"short", 2, true}, {"int", 4, true}, {"long", 8, true},
    {"int8_t", 1, true}, {"int16_t", 2, true}, {"int32_t", 4, true}, {"int64_t", 8, true},
    {"uint8_t", 1, false}, {"uint16_t", 2, false}, {"uint32_t", 4, false},
    {"uint64_t", 8, false}, {"s8", 1, true}, {"s16", 2, true}, {"s32", 4, true},
    {"s64", 8, true}, {"u8", 1, false}, {"u16", 2, false}, {"u32", 4, false},
    {"u64", 8, false}, {"void", 1, false},
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

/* After '(': a type name such as "unsigned long", "u32 *", "char **"?
 * Consumes it and the ')' and fills *t; returns false (consuming nothing)
 * when the parenthesis holds an expression. */
static bool parse_type(lexer *lx, xval *t)
{
    if (lx->kind != T_IDENT || type_word(lx->text) < 0)
        return false;
    int sgn = -1; /* -1: not said */
    int size = 0;
    bool is_void = false;
    while (lx->kind == T_IDENT) {
        int k = type_word(lx->text);
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
    if (!is_op(lx, ')')) {
        syntax_error(lx);
        return true;
    }
    lex_next(lx);
    if (is_void && !stars) {
        lex_error(lx, "Cannot cast to void.");
        return true;
    }
    *t = (xval){0, (uint8_t)size, sgn > 0, 0, false, 0};
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
            e = parse_assign(lx);
            if (!e)
                return NULL;
            if (!is_op(lx, ')')) {
                expr_free(e);
                lex_error(lx, "Missing ')' in expression.");
                return NULL;
            }
            lex_next(lx);
            return e;
        }
        break;
    default:
        break;
    }
    syntax_error(lx);
    return NULL;
}

static expr *parse_postfix(lexer *lx)
{
    expr *e = parse_primary(lx);
    while (e && is_op(lx, '[')) {
        lex_next(lx);
        expr *i = parse_assign(lx);
        if (!i || !is_op(lx, ']')) {
            if (i)
                lex_error(lx, "Missing ']' in expression.");
            expr_free(i);
            expr_free(e);
            return NULL;
        }
        lex_next(lx);
        expr *n = node(N_INDEX);
        n->a = e;
        n->b = i;
        e = n;
    }
    return e;
}

static expr *parse_unary(lexer *lx)
{
    if (lx->kind == T_OP && lx->op < 256 && strchr("-+!~*&", lx->op)) {
        int op = lx->op;
        lex_next(lx);
        expr *a = parse_unary(lx);
        if (!a)
            return NULL;
        expr *e = node(N_UNARY);
        e->op = op;
        e->a = a;
        return e;
    }
    if (is_op(lx, '(')) {
        /* A cast, or a parenthesised expression? */
        lexer save = *lx;
        lex_next(lx);
        xval t;
        if (parse_type(lx, &t)) {
            if (lx->failed)
                return NULL;
            expr *a = parse_unary(lx);
            if (!a)
                return NULL;
            expr *e = node(N_CAST);
            e->val = t;
            e->a = a;
            return e;
        }
        *lx = save;
    }
    return parse_postfix(lx);
}

/* Binary operators by precedence level, lowest first. */
static const int levels[][5] = {
    {OP_LOR}, {OP_LAND}, {'|'}, {'^'}, {'&'}, {OP_EQ, OP_NE}, {'<', '>', OP_LE, OP_GE},
    {OP_SHL, OP_SHR}, {'+', '-'}, {'*', '/', '%'},
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
        expr *b = parse_binary(lx, level + 1);
        if (!b) {
            expr_free(e);
            return NULL;
        }
        expr *n = node(N_BIN);
        n->op = op;
        n->a = e;
        n->b = b;
        e = n;
    }
    return e;
}

static expr *parse_cond(lexer *lx)
{
    expr *e = parse_binary(lx, 0);
    if (!e || !is_op(lx, '?'))
        return e;
    lex_next(lx);
    expr *b = parse_assign(lx);
    if (!b || !is_op(lx, ':')) {
        if (b)
            lex_error(lx, "Missing ':' in conditional expression.");
        expr_free(e);
        expr_free(b);
        return NULL;
    }
    lex_next(lx);
    expr *c = parse_cond(lx);
    if (!c) {
        expr_free(e);
        expr_free(b);
        return NULL;
    }
    expr *n = node(N_COND);
    n->a = e;
    n->b = b;
    n->c = c;
    return n;
}

static bool is_lvalue(const expr *e)
{
    return e->kind == N_VAR || e->kind == N_IDENT || e->kind == N_INDEX ||
           (e->kind == N_UNARY && e->op == '*');
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
    expr *b = parse_assign(lx);
    if (!b) {
        expr_free(e);
        return NULL;
    }
    expr *n = node(N_ASSIGN);
    n->a = e;
    n->b = b;
    return n;
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

static int fail(evalctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(evalctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xerr_vset(x->err, fmt, ap);
    va_end(ap);
    return -1;
}

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

static int eval(evalctx *x, const expr *e, xval *out);

static int deref(evalctx *x, const xval *p, xval *out)
{
    unsigned size = p->psize ? p->psize : 4;
    bool sgn = p->psize ? p->psgn : true;
    if (!x->env->read_mem)
        return fail(x, "Cannot access memory here.");
    uint64_t v;
    if (x->env->read_mem(x->env->ctx, p->v, size, &v, x->err))
        return -1;
    *out = fit((xval){v, (uint8_t)size, sgn, 0, false, 0});
    return 0;
}

static int ident(evalctx *x, const char *name, xval *out)
{
    if (!x->env->get_ident)
        return fail(x, "No symbol \"%s\" in current context.", name);
    return x->env->get_ident(x->env->ctx, name, out, x->err);
}

static int var(evalctx *x, const char *name, xval *out)
{
    if (!x->env->get_var)
        return fail(x, "No register or variable \"$%s\".", name);
    return x->env->get_var(x->env->ctx, name, out, x->err);
}

/* Address of the memory an lvalue of kind '*' or [] designates. */
static int mem_lvalue(evalctx *x, const expr *e, xval *ptr)
{
    if (e->kind == N_INDEX) {
        xval b, i;
        if (eval(x, e->a, &b) || eval(x, e->b, &i))
            return -1;
        if (!b.psize)
            return fail(x, "Cannot subscript something that is not a pointer.");
        *ptr = b;
        ptr->v = b.v + (uint64_t)xval_signed(&i) * b.stride;
        return 0;
    }
    if (eval(x, e->a, ptr))
        return -1;
    return 0;
}

static int assign(evalctx *x, const expr *e, xval *out)
{
    xval v;
    if (eval(x, e->b, &v))
        return -1;
    const expr *l = e->a;
    if (l->kind == N_VAR) {
        if (!x->env->set_var)
            return fail(x, "Cannot assign to $%s here.", l->name);
        if (x->env->set_var(x->env->ctx, l->name, &v, x->err))
            return -1;
        return var(x, l->name, out);
    }
    if (l->kind == N_IDENT) {
        if (!x->env->set_ident)
            return fail(x, "Cannot assign to \"%s\" here.", l->name);
        if (x->env->set_ident(x->env->ctx, l->name, &v, x->err))
            return -1;
        return ident(x, l->name, out);
    }
    xval p;
    if (mem_lvalue(x, l, &p))
        return -1;
    unsigned size = p.psize ? p.psize : 4;
    if (!x->env->write_mem)
        return fail(x, "Cannot write memory here.");
    if (x->env->write_mem(x->env->ctx, p.v, size, v.v & MASK(size * 8u), x->err))
        return -1;
    return deref(x, &p, out);
}

static int binary(evalctx *x, int op, const xval *a, const xval *b, xval *out)
{
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
            return fail(x, "Cannot add two pointers.");
        if (a->psize || b->psize) {
            const xval *p = a->psize ? a : b, *n = a->psize ? b : a;
            if (op == '-' && b->psize)
                return fail(x, "Cannot subtract a pointer from a number.");
            int64_t k = xval_signed(n) * (int64_t)p->stride;
            r = *p;
            r.v = op == '+' ? p->v + (uint64_t)k : p->v - (uint64_t)k;
            break;
        }
        r.v = op == '+' ? ua + ub : ua - ub;
        break;
    case '*': r.v = ua * ub; break;
    case '/':
    case '%':
        if (ub == 0)
            return fail(x, "Division by zero");
        if (uns)
            r.v = op == '/' ? ua / ub : ua % ub;
        else if (sa == INT64_MIN && sb == -1)
            r.v = op == '/' ? ua : 0;
        else
            r.v = (uint64_t)(op == '/' ? sa / sb : sa % sb);
        break;
    case OP_SHL: r.v = ub >= 64 ? 0 : ua << ub; r.sgn = a->sgn && !a->psize; break;
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
    default: return fail(x, "internal error: operator %d", op);
    }
    *out = r;
    return 0;
}

static int eval(evalctx *x, const expr *e, xval *out)
{
    xval a, b;
    switch (e->kind) {
    case N_NUM:
        *out = e->val;
        return 0;
    case N_VAR:
        return var(x, e->name, out);
    case N_IDENT:
        return ident(x, e->name, out);
    case N_INDEX: {
        xval p;
        if (mem_lvalue(x, e, &p))
            return -1;
        return deref(x, &p, out);
    }
    case N_CAST:
        if (eval(x, e->a, &a))
            return -1;
        b = e->val;
        b.v = a.v;
        *out = fit(b);
        return 0;
    case N_UNARY:
        if (e->op == '&') {
            if (e->a->kind == N_IDENT)
                return ident(x, e->a->name, out);
            if (e->a->kind == N_UNARY && e->a->op == '*')
                return eval(x, e->a->a, out);
            return fail(x, "Attempt to take address of value not located in memory.");
        }
        if (eval(x, e->a, &a))
            return -1;
        switch (e->op) {
        case '-': *out = a.sgn ? xval_int(-xval_signed(&a)) : xval_uns(-a.v); return 0;
        case '+': *out = a; return 0;
        case '!': *out = xval_int(a.v == 0); return 0;
        case '~': *out = fit((xval){~a.v, a.size, a.sgn, 0, false, 0}); return 0;
        case '*': return deref(x, &a, out);
        }
        return fail(x, "internal error: unary %c", e->op);
    case N_BIN:
        if (eval(x, e->a, &a))
            return -1;
        if (e->op == OP_LAND || e->op == OP_LOR) {
            bool t = a.v != 0;
            if (t == (e->op == OP_LOR)) {
                *out = xval_int(t);
                return 0;
            }
            if (eval(x, e->b, &b))
                return -1;
            *out = xval_int(b.v != 0);
            return 0;
        }
        if (eval(x, e->b, &b))
            return -1;
        return binary(x, e->op, &a, &b, out);
    case N_COND:
        if (eval(x, e->a, &a))
            return -1;
        return eval(x, a.v ? e->b : e->c, out);
    case N_ASSIGN:
        return assign(x, e, out);
    }
    return fail(x, "internal error: node %d", e->kind);
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
