/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbols: the kernel ELF's come with it; symbol-file adds more (another
 * ELF such as a kernel's vmlinux, or a System.map / nm listing).  Stops,
 * disassembly and backtraces show func+off from them. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

static bool is_elf(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char m[4] = {0};
    bool elf = fread(m, 1, 4, f) == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
    fclose(f);
    return elf;
}

/* Returns the number of symbols added, or -1 with err set. */
static int load(dbg *d, const char *path, xerr *err)
{
    if (!is_elf(path))
        return symtab_load_map(&d->m->syms, path, err);
    elf_image img;
    if (elf_read_file(path, &img, err) != 0)
        return -1;
    int n = elf_symbols(&img, &d->m->syms, err);
    elf_free(&img);
    return n;
}

static int cmd_symbol_file(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    FILE *f = fopen(args, "r");
    if (!f)
        return dbg_error(d, "%s: %s.", args, strerror(errno));
    struct stat st;
    bool dir = fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
    fclose(f);
    if (dir)
        return dbg_error(d, "%s: is a directory (want an ELF or a System.map).", args);
    xerr err;
    int n = load(d, args, &err);
    if (n < 0) /* the reason, naming the file once */
        return dbg_error(d, "%s%s%s", strstr(err.msg, args) ? "" : args,
                         strstr(err.msg, args) ? "" : ": ", err.msg);
    if (n == 0) {
        /* gdb's words; an ELF without .symtab is stripped, a map file
         * without one "ADDR TYPE NAME" line is not a map. */
        dbg_printf(
            d, "Reading symbols from %s...\n(No debugging symbols found in %s: %s)\n", args, args,
            is_elf(args) ? "no symbol table; was it stripped?" : "no \"ADDR TYPE NAME\" lines");
        return 0;
    }
    dbg_printf(d, "Reading symbols from %s: %d symbols.\n", args, n);
    /* and its debug information: lines, types, variables, CFI */
    if (is_elf(args) && dbg_src_load(d, args, false) < 0)
        return -1;
    machine_update_idle_points(d->m); /* an OS idle routine among them? (idle skip) */
    return 0;
}

static int cmd_info_symbol(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    xval v;
    if (dbg_eval(d, args, &v))
        return -1;
    v.v = xval_address(&v);
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&d->m->syms, v.v, &off);
    if (!s) {
        dbg_printf(d, "No symbol matches %s.\n", args);
        return 0;
    }
    if (off)
        dbg_printf(d, "%s + %llu\n", s->name, (unsigned long long)off);
    else
        dbg_printf(d, "%s\n", s->name);
    return 0;
}

static int cmd_info_address(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    const symbol *s = symtab_lookup_name(&d->m->syms, args);
    if (!s)
        return dbg_error(d, "No symbol \"%s\" in current context.", args);
    dbg_printf(d, "Symbol \"%s\" is %s at 0x%016llx", s->name,
               s->type == 'T'   ? "a function"
               : s->type == 'D' ? "data"
                                : "a symbol",
               (unsigned long long)s->addr);
    if (s->size)
        dbg_printf(d, ", %llu bytes", (unsigned long long)s->size);
    dbg_puts(d, ".\n");
    return 0;
}

static int list_symbols(dbg *d, const char *args, char type)
{
    regex_t re;
    if (*args && regcomp(&re, args, REG_EXTENDED | REG_NOSUB) != 0)
        return dbg_error(d, "Invalid regular expression \"%s\".", args);
    symtab *st = &d->m->syms;
    symtab_sort(st);
    strbuf b;
    sb_init(&b);
    unsigned n = 0;
    for (unsigned i = 0; i < st->n; i++) {
        const symbol *s = &st->syms[i];
        if (s->type != type || (*args && regexec(&re, s->name, 0, NULL, 0) != 0))
            continue;
        sb_printf(&b, "0x%016llx  %s\n", (unsigned long long)s->addr, s->name);
        n++;
    }
    if (*args)
        regfree(&re);
    if (!n)
        sb_printf(&b, "No %s%s%s.\n", type == 'T' ? "functions" : "variables",
                  *args ? " match " : "", args);
    return dbg_puts_sb(d, &b);
}

static int cmd_info_functions(dbg *d, const cmd_args *a)
{
    return list_symbols(d, a->text[0], 'T');
}
static int cmd_info_variables(dbg *d, const cmd_args *a)
{
    return list_symbols(d, a->text[0], 'D');
}

#include "dbg/symbols.cmds.h"

const dbg_module dbg_symbols_module = {
    .name = "symbols",
    .commands = DBG_COMMANDS("Symbols", symbol_commands),
};
