/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/symtab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void symtab_init(symtab *st) { memset(st, 0, sizeof *st); }

void symtab_free(symtab *st)
{
    for (unsigned i = 0; i < st->n; i++)
        free(st->syms[i].name);
    free(st->syms);
    memset(st, 0, sizeof *st);
}

int symtab_add(symtab *st, const char *name, uint64_t addr, uint64_t size, char type)
{
    if (!name || !*name)
        return -1;
    if (st->n == st->cap) {
        unsigned cap = st->cap ? st->cap * 2 : 256;
        st->syms = xrealloc(st->syms, cap * sizeof *st->syms);
        st->cap = cap;
    }
    symbol *s = &st->syms[st->n];
    s->name = xstrdup(name);
    s->addr = addr;
    s->size = size;
    s->type = type;
    st->n++;
    st->sorted = false;
    return 0;
}

static int sym_cmp(const void *a, const void *b)
{
    const symbol *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* Functions before other kinds at the same address, then by name. */
    if (x->type != y->type)
        return x->type == 'T' ? -1 : y->type == 'T' ? 1 : 0;
    return strcmp(x->name, y->name);
}

void symtab_sort(symtab *st)
{
    if (!st->sorted && st->n)
        qsort(st->syms, st->n, sizeof *st->syms, sym_cmp);
    st->sorted = true;
}

const symbol *symtab_lookup_addr(symtab *st, uint64_t addr, uint64_t *off)
{
    symtab_sort(st);
    unsigned lo = 0, hi = st->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (st->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* lo is the first symbol above addr: look back for one that contains
     * addr (by size), or take the nearest unsized one within 64 KB. */
    for (unsigned i = lo, k = 0; i-- > 0 && k < 32; k++) {
        const symbol *s = &st->syms[i];
        uint64_t d = addr - s->addr;
        bool nearest = s->addr == st->syms[lo - 1].addr;
        if (s->size ? d < s->size : nearest && d < 0x10000) {
            if (off)
                *off = d;
            return s;
        }
    }
    return NULL;
}

const symbol *symtab_lookup_name(symtab *st, const char *name)
{
    for (unsigned i = 0; i < st->n; i++)
        if (strcmp(st->syms[i].name, name) == 0)
            return &st->syms[i];
    return NULL;
}

int symtab_load_map(symtab *st, const char *path, xerr *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        xerr_set(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char name[256], type;
        uint64_t addr;
        if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3) {
            xerr_set(err, "%s:%d: not a symbol line (want ADDR TYPE NAME)", path, lineno);
            fclose(f);
            return -1;
        }
        char t = (type == 'T' || type == 't') ? 'T'
                 : (type == 'D' || type == 'd' || type == 'B' || type == 'b' || type == 'R' ||
                    type == 'r')
                     ? 'D'
                     : '?';
        if (symtab_add(st, name, addr, 0, t) == 0)
            n++;
    }
    fclose(f);
    return n;
}

const char *symtab_format(symtab *st, uint64_t addr, char *buf, size_t len)
{
    uint64_t off;
    const symbol *s = symtab_lookup_addr(st, addr, &off);
    if (!s)
        snprintf(buf, len, "0x%016" PRIx64, addr);
    else if (off)
        snprintf(buf, len, "%s+0x%" PRIx64, s->name, off);
    else
        snprintf(buf, len, "%s", s->name);
    return buf;
}
