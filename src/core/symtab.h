/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol tables for the debugger: from ELF files and System.map files. */
#ifndef XBOW_SYMTAB_H
#define XBOW_SYMTAB_H

#include "core/common.h"

typedef struct symbol {
    char *name;
    uint64_t addr;
    uint64_t size; /* 0 when unknown */
    char type;     /* 'T' function, 'D' object, '?' other */
} symbol;

typedef struct symtab {
    symbol *syms; /* sorted by address once symtab_sort() ran */
    unsigned n, cap;
    bool sorted;
} symtab;

void symtab_init(symtab *st);
void symtab_free(symtab *st);
int symtab_add(symtab *st, const char *name, uint64_t addr, uint64_t size, char type);
void symtab_sort(symtab *st);
/* Symbol containing addr (or the nearest function before it within 64 KB when
 * sizes are unknown); *off gets addr - sym->addr. */
const symbol *symtab_lookup_addr(symtab *st, uint64_t addr, uint64_t *off);
const symbol *symtab_lookup_name(symtab *st, const char *name);
/* Load "ADDR TYPE NAME" lines (System.map, nm output).  Returns the number
 * of symbols added or -1 with errno set. */
int symtab_load_map(symtab *st, const char *path, xerr *err);
/* "func+0x1c" or "0x..." */
const char *symtab_format(symtab *st, uint64_t addr, char *buf, size_t len);

#endif
