/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing values of C types the way gdb does: scalars by their type,
 * pointers with the symbol they point at, char arrays and char pointers as
 * strings, arrays and structs in braces with runs of equal elements as
 * <repeats N times>.  Memory is read without side effects (dbg_read). */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/source.h"

#define PRINT_ELEMENTS 200 /* gdb's "print elements" */
#define REPEATS 10         /* gdb's "print repeats" */
#define MAX_NEST 12

static int env_read(void *ctx, uint64_t addr, unsigned size, uint64_t *v, xerr *err)
{
    uint8_t b[8];
    if (dbg_read(ctx, (dbg_addr){addr, false}, b, size, err))
        return -1;
    *v = load_be(b, size);
    return 0;
}

expr_env dbg_mem_env(dbg *d)
{
    expr_env e;
    memset(&e, 0, sizeof e);
    e.ctx = d;
    e.read_mem = env_read;
    return e;
}

static void print_value(dbg *d, const xval *v, char fmt, bool top, unsigned depth, strbuf *out);

/* 0x... <sym+off>, as gdb shows a pointer (no symbol for stack and heap). */
static void pointer_text(dbg *d, uint64_t a, strbuf *out)
{
    sb_printf(out, "0x%llx", (unsigned long long)a);
    uint64_t off;
    const symbol *s = a && d->m ? symtab_lookup_addr(&d->m->syms, a, &off) : NULL;
    if (s && s->type != 'T' && off && (!s->size || off >= s->size))
        s = NULL;
    if (s && off)
        sb_printf(out, " <%s+%llu>", s->name, (unsigned long long)off);
    else if (s)
        sb_printf(out, " <%s>", s->name);
}

static void char_text(unsigned c, strbuf *out)
{
    switch (c) {
    case '\n': sb_puts(out, "\\n"); return;
    case '\t': sb_puts(out, "\\t"); return;
    case '\r': sb_puts(out, "\\r"); return;
    case '\a': sb_puts(out, "\\a"); return;
    case '\b': sb_puts(out, "\\b"); return;
    case '\f': sb_puts(out, "\\f"); return;
    case '\v': sb_puts(out, "\\v"); return;
    case 27: sb_puts(out, "\\033"); return;
    default: break;
    }
    if (c >= 32 && c < 127)
        sb_putc(out, (char)c);
    else
        sb_printf(out, "\\%03o", c & 0xff);
}

static void quoted_char(unsigned c, strbuf *out)
{
    sb_putc(out, '\'');
    if (c == '\'' || c == '\\')
        sb_putc(out, '\\');
    char_text(c, out);
    sb_putc(out, '\'');
}

/* Characters as gdb prints a char array: quoted runs, long runs of one
 * character as 'c' <repeats N times>. */
static void chars_text(const uint8_t *s, size_t n, bool more, strbuf *out)
{
    bool in_quote = false, any = false;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && s[i + run] == s[i])
            run++;
        if (run >= REPEATS) {
            if (in_quote)
                sb_puts(out, "\", ");
            else if (any)
                sb_puts(out, ", ");
            quoted_char(s[i], out);
            sb_printf(out, " <repeats %zu times>", run);
            in_quote = false;
            any = true;
            i += run;
            continue;
        }
        if (!in_quote) {
            if (any)
                sb_puts(out, ", ");
            sb_putc(out, '"');
            in_quote = true;
        }
        for (size_t k = 0; k < run; k++) {
            if (s[i] == '"' || s[i] == '\\')
                sb_putc(out, '\\');
            char_text(s[i], out);
        }
        any = true;
        i += run;
    }
    if (in_quote)
        sb_putc(out, '"');
    if (!any)
        sb_puts(out, "\"\"");
    if (more)
        sb_puts(out, "...");
}

static void bits_text(uint64_t v, unsigned bits, strbuf *out)
{
    bool seen = false;
    for (unsigned i = bits; i-- > 0;) {
        seen |= (v >> i) & 1 || i == 0;
        if (seen)
            sb_putc(out, (v >> i) & 1 ? '1' : '0');
    }
}

/* An integer of the type's size in a print format. */
static bool int_format(dbg *d, const xval *v, char fmt, strbuf *out)
{
    unsigned bits = v->size * 8u;
    uint64_t u = v->v & MASK(bits);
    switch (fmt) {
    case 'x': sb_printf(out, "0x%llx", (unsigned long long)u); return true;
    case 'z': sb_printf(out, "0x%0*llx", (int)v->size * 2, (unsigned long long)u); return true;
    case 'o': sb_printf(out, "0%llo", (unsigned long long)u); return true;
    case 't': bits_text(u, bits, out); return true;
    case 'u': sb_printf(out, "%llu", (unsigned long long)u); return true;
    case 'd': {
        xval s = *v;
        s.sgn = true;
        sb_printf(out, "%lld", (long long)xval_signed(&s));
        return true;
    }
    case 'c':
        sb_printf(out, "%lld ", (long long)(int8_t)u);
        quoted_char((unsigned)u & 0xff, out);
        return true;
    case 'a': pointer_text(d, u, out); return true;
    default: return false;
    }
}

static void float_text(const xval *v, strbuf *out)
{
    if (v->size == 4) {
        uint32_t w = (uint32_t)v->v;
        float f;
        memcpy(&f, &w, 4);
        sb_printf(out, "%.9g", (double)f);
    } else {
        double x;
        memcpy(&x, &v->v, 8);
        sb_printf(out, "%.17g", x);
    }
}

static void enum_text(const ctype *t, const xval *v, strbuf *out)
{
    int64_t x = xval_signed(v);
    const char *n = ctype_enum_name(t, x);
    if (n) {
        sb_puts(out, n);
        return;
    }
    /* A flag enum: every value a distinct bit, shown as (A | B | unknown: 0x..). */
    bool flags = t->nenums > 0;
    for (unsigned i = 0; i < t->nenums && flags; i++) {
        uint64_t e = (uint64_t)t->enums[i].value;
        flags = e && !(e & (e - 1));
    }
    if (flags && x > 0) {
        uint64_t rest = (uint64_t)x;
        sb_putc(out, '(');
        bool first = true;
        for (unsigned i = 0; i < t->nenums; i++) {
            uint64_t e = (uint64_t)t->enums[i].value;
            if (rest & e) {
                sb_printf(out, "%s%s", first ? "" : " | ", t->enums[i].name);
                rest &= ~e;
                first = false;
            }
        }
        if (rest)
            sb_printf(out, "%sunknown: 0x%llx", first ? "" : " | ", (unsigned long long)rest);
        sb_putc(out, ')');
        return;
    }
    sb_printf(out, "%lld", (long long)x);
}

static bool is_char_type(const ctype *t)
{
    t = ctype_strip(t);
    return t && t->kind == CT_INT && t->is_char && t->size == 1;
}

static void pointer_value(dbg *d, const xval *v, const ctype *st, char fmt, bool top, strbuf *out)
{
    if (fmt && fmt != 's' && int_format(d, v, fmt, out))
        return;
    const ctype *to = ctype_strip(ctype_target(st));
    if (to && to->kind == CT_FUNC) {
        if (top) {
            sb_putc(out, '{');
            ctype_name(ctype_target(st), out);
            sb_puts(out, "} ");
        }
        pointer_text(d, v->v, out);
        return;
    }
    if (top && !is_char_type(ctype_target(st))) {
        sb_putc(out, '(');
        ctype_name(v->type, out);
        sb_puts(out, ") ");
    }
    pointer_text(d, v->v, out);
    if (is_char_type(ctype_target(st)) && v->v) {
        uint8_t buf[PRINT_ELEMENTS];
        size_t n = 0;
        xerr err;
        bool bad = false;
        while (n < sizeof buf) {
            if (dbg_read(d, (dbg_addr){v->v + n, false}, &buf[n], 1, &err)) {
                bad = true;
                break;
            }
            if (!buf[n])
                break;
            n++;
        }
        if (bad && !n) {
            sb_printf(out, " <error: Cannot access memory at address 0x%llx>",
                      (unsigned long long)v->v);
            return;
        }
        sb_putc(out, ' ');
        chars_text(buf, n, n == sizeof buf, out);
    }
}

static void array_value(dbg *d, const xval *v, const ctype *st, char fmt, unsigned depth,
                        strbuf *out)
{
    const ctype *et = ctype_target(st);
    const ctype *es = ctype_strip(et);
    uint64_t esize = es ? es->size : 0;
    if (st->incomplete || !esize) {
        sb_printf(out, "0x%llx", (unsigned long long)v->addr);
        return;
    }
    uint64_t n = st->count;
    bool more = n > PRINT_ELEMENTS;
    if (more)
        n = PRINT_ELEMENTS;
    xerr err;
    if (is_char_type(et) && (!fmt || fmt == 's')) {
        uint8_t buf[PRINT_ELEMENTS];
        if (dbg_read(d, (dbg_addr){v->addr, false}, buf, n, &err)) {
            sb_printf(out, "<error: %s>", err.msg);
            return;
        }
        /* gdb leaves out the one NUL that ends a string filling the array */
        size_t len = (size_t)n;
        if (!more && len && buf[len - 1] == 0)
            len--;
        chars_text(buf, len, more, out);
        return;
    }
    expr_env env = dbg_mem_env(d);
    sb_putc(out, '{');
    strbuf prev;
    sb_init(&prev);
    uint64_t i = 0;
    bool first = true;
    while (i < n) {
        xval e;
        if (xval_load(&env, et, v->addr + i * esize, &e, &err)) {
            sb_printf(out, "%s<error: %s>", first ? "" : ", ", err.msg);
            break;
        }
        strbuf cur;
        sb_init(&cur);
        print_value(d, &e, fmt, false, depth + 1, &cur);
        /* count the run of elements printing the same */
        uint64_t run = 1;
        while (i + run < n) {
            xval f;
            if (xval_load(&env, et, v->addr + (i + run) * esize, &f, &err))
                break;
            strbuf nx;
            sb_init(&nx);
            print_value(d, &f, fmt, false, depth + 1, &nx);
            bool same = nx.s && cur.s && !strcmp(nx.s, cur.s);
            sb_free(&nx);
            if (!same)
                break;
            run++;
        }
        if (!first)
            sb_puts(out, ", ");
        first = false;
        if (run >= REPEATS) {
            sb_printf(out, "%s <repeats %llu times>", cur.s ? cur.s : "", (unsigned long long)run);
            i += run;
        } else {
            sb_puts(out, cur.s ? cur.s : "");
            i++;
        }
        sb_free(&cur);
    }
    sb_free(&prev);
    if (more)
        sb_puts(out, "...");
    sb_putc(out, '}');
}

static void struct_value(dbg *d, const xval *v, const ctype *st, char fmt, unsigned depth,
                         strbuf *out)
{
    if (st->incomplete) {
        sb_puts(out, "<incomplete type>");
        return;
    }
    if (!v->lval) {
        sb_puts(out, "<held in registers: not shown>");
        return;
    }
    if (depth >= MAX_NEST) {
        sb_puts(out, "{...}");
        return;
    }
    expr_env env = dbg_mem_env(d);
    xerr err;
    sb_putc(out, '{');
    for (unsigned i = 0; i < st->nmembers; i++) {
        const cmember *m = &st->members[i];
        if (i)
            sb_puts(out, ", ");
        if (m->name)
            sb_printf(out, "%s = ", m->name);
        xval mv;
        uint64_t a = v->addr + m->offset;
        if (m->bit_size) {
            unsigned nbytes = (m->bit_offset + m->bit_size + 7u) / 8u;
            uint64_t raw;
            if (nbytes > 8 || env_read(d, a, nbytes, &raw, &err)) {
                sb_puts(out, "<error>");
                continue;
            }
            uint64_t x = (raw >> (nbytes * 8u - m->bit_offset - m->bit_size)) & MASK(m->bit_size);
            const ctype *ms = ctype_strip(m->type);
            if (ms && ms->sgn && m->bit_size < 64 && (x >> (m->bit_size - 1)) & 1)
                x |= ~0ull << m->bit_size;
            mv = xval_typed(m->type, x);
        } else if (xval_load(&env, m->type, a, &mv, &err)) {
            sb_printf(out, "<error: %s>", err.msg);
            continue;
        }
        print_value(d, &mv, fmt, false, depth + 1, out);
    }
    sb_putc(out, '}');
}

static void print_value(dbg *d, const xval *v, char fmt, bool top, unsigned depth, strbuf *out)
{
    if (v->avail == XV_OPTIMIZED_OUT) {
        sb_puts(out, "<optimized out>");
        return;
    }
    if (v->avail == XV_NOT_SAVED) {
        sb_puts(out, "<not saved>");
        return;
    }
    const ctype *st = ctype_strip(v->type);
    if (!st || st->kind == CT_VOID) {
        sb_puts(out, st && st->name && st->name[0] == '<' ? st->name : "void");
        return;
    }
    switch (st->kind) {
    case CT_INT:
        if (fmt && int_format(d, v, fmt, out))
            return;
        if (st->is_char && st->size == 1) {
            sb_printf(out, "%lld ", (long long)xval_signed(v));
            quoted_char((unsigned)v->v & 0xff, out);
        } else if (v->sgn) {
            sb_printf(out, "%lld", (long long)xval_signed(v));
        } else {
            sb_printf(out, "%llu", (unsigned long long)(v->v & MASK(v->size * 8u)));
        }
        return;
    case CT_BOOL:
        if (fmt && int_format(d, v, fmt, out))
            return;
        if (v->v == 0 || v->v == 1)
            sb_puts(out, v->v ? "true" : "false");
        else
            sb_printf(out, "%llu", (unsigned long long)v->v);
        return;
    case CT_ENUM:
        if (fmt && int_format(d, v, fmt, out))
            return;
        enum_text(st, v, out);
        return;
    case CT_FLOAT:
        if (fmt && fmt != 'f' && int_format(d, v, fmt, out))
            return;
        float_text(v, out);
        return;
    case CT_PTR: pointer_value(d, v, st, fmt, top, out); return;
    case CT_ARRAY: array_value(d, v, st, fmt, depth, out); return;
    case CT_STRUCT:
    case CT_UNION: struct_value(d, v, st, fmt, depth, out); return;
    case CT_FUNC:
        sb_putc(out, '{');
        ctype_name(v->type, out);
        sb_puts(out, "} ");
        pointer_text(d, v->addr, out);
        return;
    default: sb_puts(out, "<unknown type>"); return;
    }
}

void dbg_format_typed(dbg *d, const xval *v, char fmt, bool top, strbuf *out)
{
    print_value(d, v, fmt, top, 0, out);
}
