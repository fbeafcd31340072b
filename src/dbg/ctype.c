/* SPDX-License-Identifier: GPL-2.0-or-later */
/* C types: arena, queries and C declarator syntax.  See ctype.h. */
#include "dbg/ctype.h"

#include <stdio.h>
#include <stdlib.h>

struct ctype_arena {
    void **blocks;
    size_t n, cap;
};

ctype_arena *ctype_arena_new(void) { return xcalloc(1, sizeof(ctype_arena)); }

void ctype_arena_free(ctype_arena *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->blocks[i]);
    free(a->blocks);
    free(a);
}

void *ctype_alloc(ctype_arena *a, size_t size)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        a->blocks = xrealloc(a->blocks, cap * sizeof *a->blocks);
        a->cap = cap;
    }
    void *p = xcalloc(1, size);
    a->blocks[a->n++] = p;
    return p;
}

const char *ctype_strdup(ctype_arena *a, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = ctype_alloc(a, n);
    memcpy(p, s, n);
    return p;
}

ctype *ctype_new(ctype_arena *a, ctype_kind kind, const char *name)
{
    ctype *t = ctype_alloc(a, sizeof *t);
    t->kind = kind;
    t->arena = a;
    t->name = ctype_strdup(a, name);
    return t;
}

const ctype *ctype_target(const ctype *t)
{
    if (!t)
        return NULL;
    if (t->lazy_target) {
        ctype *m = (ctype *)t; /* filling in a cache: the type means the same */
        const ctype *(*fn)(void *, uint64_t) = m->lazy_target;
        m->lazy_target = NULL; /* a cycle back to here sees void, not a loop */
        m->target = fn(m->lazy_ctx, m->lazy_key);
    }
    return t->target;
}

const ctype *ctype_strip(const ctype *t)
{
    while (t && (t->kind == CT_TYPEDEF || t->kind == CT_CONST || t->kind == CT_VOLATILE))
        t = ctype_target(t);
    return t;
}

const ctype *ctype_pointer(ctype_arena *a, const ctype *t)
{
    if (t && t->ptr_to)
        return t->ptr_to;
    ctype *p = ctype_new(t ? t->arena : a, CT_PTR, NULL);
    p->size = 8;
    p->target = t;
    if (t)
        ((ctype *)t)->ptr_to = p; /* a cache: the type itself does not change */
    return p;
}

bool ctype_is_scalar(const ctype *t)
{
    t = ctype_strip(t);
    if (!t)
        return false;
    switch (t->kind) {
    case CT_INT:
    case CT_BOOL:
    case CT_ENUM:
    case CT_PTR:
    case CT_FLOAT: return t->size >= 1 && t->size <= 8;
    default: return false;
    }
}

bool ctype_is_aggregate(const ctype *t)
{
    t = ctype_strip(t);
    return t && (t->kind == CT_STRUCT || t->kind == CT_UNION || t->kind == CT_ARRAY);
}

uint64_t ctype_stride(const ctype *t)
{
    t = ctype_strip(t);
    if (!t || (t->kind != CT_PTR && t->kind != CT_ARRAY))
        return 1;
    const ctype *e = ctype_strip(ctype_target(t));
    return e && e->size ? e->size : 1;
}

const cmember *ctype_member(const ctype *t, const char *name, uint64_t *offset)
{
    t = ctype_strip(t);
    if (!t || (t->kind != CT_STRUCT && t->kind != CT_UNION))
        return NULL;
    for (unsigned i = 0; i < t->nmembers; i++) {
        const cmember *m = &t->members[i];
        if (m->name && !strcmp(m->name, name)) {
            *offset = m->offset;
            return m;
        }
    }
    for (unsigned i = 0; i < t->nmembers; i++) { /* anonymous struct/union members */
        const cmember *m = &t->members[i];
        uint64_t inner;
        const cmember *f;
        if (!m->name && (f = ctype_member(m->type, name, &inner))) {
            *offset = m->offset + inner;
            return f;
        }
    }
    return NULL;
}

const char *ctype_enum_name(const ctype *t, int64_t v)
{
    t = ctype_strip(t);
    for (unsigned i = 0; t && t->kind == CT_ENUM && i < t->nenums; i++)
        if (t->enums[i].value == v)
            return t->enums[i].name;
    return NULL;
}

/* ---- declarators ------------------------------------------------------------ */

static void indent(strbuf *out, int n)
{
    for (int i = 0; i < n; i++)
        sb_putc(out, ' ');
}

static void declare(const ctype *t, const char *name, int expand, int ind, strbuf *out);

/* The body of a struct, union or enum, as ptype shows it. */
static void body(const ctype *t, int ind, strbuf *out)
{
    if (t->incomplete) {
        sb_puts(out, "{\n");
        indent(out, ind + 4);
        sb_puts(out, "<incomplete type>\n");
        indent(out, ind);
        sb_putc(out, '}');
        return;
    }
    if (t->kind == CT_ENUM) {
        sb_puts(out, "{");
        int64_t next = 0;
        for (unsigned i = 0; i < t->nenums; i++) {
            sb_printf(out, "%s%s", i ? ", " : "", t->enums[i].name);
            if (t->enums[i].value != next)
                sb_printf(out, " = %lld", (long long)t->enums[i].value);
            next = t->enums[i].value + 1;
        }
        sb_putc(out, '}');
        return;
    }
    sb_puts(out, "{\n");
    for (unsigned i = 0; i < t->nmembers; i++) {
        const cmember *m = &t->members[i];
        indent(out, ind + 4);
        /* anonymous aggregates are shown in place, named ones by name */
        declare(m->type, m->name ? m->name : "", m->name ? 0 : 1, ind + 4, out);
        if (m->bit_size)
            sb_printf(out, " : %u", m->bit_size);
        sb_puts(out, ";\n");
    }
    indent(out, ind);
    sb_putc(out, '}');
}

static void base_name(const ctype *t, int expand, int ind, strbuf *out)
{
    if (!t) {
        sb_puts(out, "void");
        return;
    }
    const char *tag = t->kind == CT_STRUCT  ? "struct"
                      : t->kind == CT_UNION ? "union"
                      : t->kind == CT_ENUM  ? "enum"
                                            : NULL;
    if (tag) {
        sb_puts(out, tag);
        if (t->name)
            sb_printf(out, " %s", t->name);
        if (expand || !t->name) {
            sb_putc(out, ' ');
            if (expand || ind < 40) /* anonymous: always shown (bounded depth) */
                body(t, ind, out);
            else
                sb_puts(out, "{...}");
        }
        return;
    }
    if (t->kind == CT_TYPEDEF && expand) { /* ptype shows what a typedef stands for */
        base_name(ctype_strip(t), expand, ind, out);
        return;
    }
    sb_puts(out, t->name ? t->name : t->kind == CT_VOID ? "void" : "<unnamed type>");
}

/* Prepend s to the declarator d. */
static void prepend(strbuf *d, const char *s)
{
    strbuf n;
    sb_init(&n);
    sb_puts(&n, s);
    if (d->s)
        sb_puts(&n, d->s);
    sb_free(d);
    *d = n;
}

static void declare(const ctype *t, const char *name, int expand, int ind, strbuf *out)
{
    strbuf d;
    sb_init(&d);
    sb_puts(&d, name ? name : "");
    const char *quals = "";
    char qbuf[32] = "";
    /* Walk from the outside of the type inwards, building the declarator
     * around the name; what is left is the base type. */
    for (unsigned guard = 0; t && guard < 64; guard++) {
        if (t->kind == CT_CONST || t->kind == CT_VOLATILE) {
            const char *q = t->kind == CT_CONST ? "const" : "volatile";
            const ctype *u = ctype_target(t);
            while (u && (u->kind == CT_CONST || u->kind == CT_VOLATILE))
                u = ctype_target(u);
            if (u && u->kind == CT_PTR) { /* the pointer itself is qualified */
                char s[16];
                snprintf(s, sizeof s, " %s%s", q, d.len && d.s[0] != ' ' ? " " : "");
                prepend(&d, s);
            } else if (!strstr(qbuf, q)) { /* volatile arrays of volatile: once */
                snprintf(qbuf + strlen(qbuf), sizeof qbuf - strlen(qbuf), "%s ", q);
                quals = qbuf;
            }
            t = ctype_target(t);
        } else if (t->kind == CT_PTR) {
            prepend(&d, "*");
            t = ctype_target(t);
        } else if (t->kind == CT_ARRAY) {
            if (d.len && (d.s[0] == '*' || d.s[0] == ' ')) {
                prepend(&d, "(");
                sb_putc(&d, ')');
            }
            if (t->incomplete)
                sb_puts(&d, "[]");
            else
                sb_printf(&d, "[%llu]", (unsigned long long)t->count);
            t = ctype_target(t);
        } else if (t->kind == CT_FUNC) {
            if (d.len && (d.s[0] == '*' || d.s[0] == ' ')) {
                prepend(&d, "(");
                sb_putc(&d, ')');
            }
            sb_putc(&d, '(');
            for (unsigned i = 0; i < t->nparams; i++) {
                if (i)
                    sb_puts(&d, ", ");
                strbuf p;
                sb_init(&p);
                declare(t->params[i], "", 0, ind, &p);
                sb_puts(&d, p.s ? p.s : "");
                sb_free(&p);
            }
            if (t->varargs)
                sb_puts(&d, t->nparams ? ", ..." : "...");
            else if (!t->nparams && t->prototyped)
                sb_puts(&d, "void");
            sb_putc(&d, ')');
            t = ctype_target(t);
        } else {
            break;
        }
    }
    sb_puts(out, quals);
    base_name(t, expand, ind, out);
    if (d.len) {
        if (d.s[0] != ' ')
            sb_putc(out, ' ');
        sb_puts(out, d.s);
    }
    sb_free(&d);
}

void ctype_name(const ctype *t, strbuf *out) { declare(t, "", 0, 0, out); }

void ctype_declare(const ctype *t, const char *name, strbuf *out) { declare(t, name, 0, 0, out); }

void ctype_ptype(const ctype *t, strbuf *out)
{
    /* One typedef is looked through; the struct, union or enum at the
     * bottom of pointers and arrays is shown with its members. */
    if (t && t->kind == CT_TYPEDEF)
        t = ctype_target(t);
    declare(t, "", 1, 0, out);
}
