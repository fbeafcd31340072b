/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program's variables and types in the debugger: names in
 * expressions (a local, a parameter, a static, a global, as C scopes
 * them at the pc), casts to named types, info locals, info args, ptype
 * and whatis, and what info frame (cmd_frame.c) says with the debug
 * information.  The selected frame of the selected CPU (frame, up, down;
 * frame 0 after a stop) is the frame they look at. */
#include <ctype.h>
#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/rr.h"
#include "dbg/source.h"

/* The CFA of a frame, once: from the CFI, or the prologue for frame 0. */
static void frame_cfa(dbg *d, cpu *c, frame *f)
{
    if (f->cfa || !c)
        return;
    frame caller;
    if (dbg_cfi_step(d, c, f, &caller) > 0)
        return;
    if (f->exact_pc && f->pc == cpu_pc(c) && f->sp == cpu_gpr(c, 29))
        f->cfa = dbg_frame_cfa(d, c);
}

/* The value of a variable in a frame (f NULL: no frame, globals only). */
static int var_value(dbg *d, cpu *c, const dw_var *v, frame *f, xval *out, xerr *err)
{
    const ctype *t = dw_var_type(v);
    dw_regs r, up;
    memset(&r, 0, sizeof r);
    if (f) {
        frame_cfa(d, c, f);
        dbg_frame_dwregs(f, &r);
        /* the caller, for the values arguments had at the call */
        frame fc = *f, caller;
        if (c && dbg_cfi_step(d, c, &fc, &caller) > 0) {
            dbg_frame_dwregs(&caller, &up);
            r.caller = &up;
        }
    } else {
        r.exact_pc = true;
    }
    dw_mem mem = dbg_dw_mem(d);
    dw_value loc;
    if (dw_var_location(v, &r, &mem, &loc, err))
        return -1;
    const ctype *st = ctype_strip(t);
    switch (loc.kind) {
    case DWV_MEM: {
        expr_env env = dbg_mem_env(d);
        return xval_load(&env, t, loc.addr, out, err);
    }
    case DWV_REG:
    case DWV_VALUE:
        if (!ctype_is_scalar(t) && st && st->kind != CT_VOID) {
            xerr_set(err, "%s is held in registers: xbow cannot show a %s there", v->name,
                     st->kind == CT_ARRAY ? "array" : "struct");
            return -1;
        }
        *out = xval_typed(t, loc.value);
        return 0;
    case DWV_NOT_SAVED: /* in a register this frame's callee did not keep: gdb's word */
        *out = xval_unavailable(t, XV_OPTIMIZED_OUT);
        return 0;
    default: *out = xval_unavailable(t, XV_OPTIMIZED_OUT); return 0;
    }
}

/* Where the program's names are seen from: the selected frame (frame,
 * up, down), its pc and the inlined scopes of its physical frame inside
 * it (hidden ones in frame 0); no frame without a CPU. */
typedef struct viewpoint {
    cpu *c;
    bool have;
    frame f;
    uint64_t pc;    /* where its debug information is looked up */
    unsigned skip;  /* inlined scopes at pc to pass over */
    unsigned level; /* as bt numbers it */
} viewpoint;

static viewpoint view_of(dbg *d)
{
    viewpoint v = {dbg_cpu(d), false, {0}, 0, 0, 0};
    src_frame sf;
    if (!v.c)
        return v;
    if (d->frame == 0) { /* the common case, without unwinding */
        dbg_frame0(v.c, &v.f);
        v.pc = cpu_pc(v.c);
        v.skip = dbg_src_hidden(d, v.c);
    } else if (dbg_src_selected(d, v.c, &sf)) {
        v.f = sf.f;
        v.pc = src_frame_lookup(&sf);
        v.skip = sf.depth;
        v.level = sf.level;
    } else {
        return v;
    }
    frame_cfa(d, v.c, &v.f);
    v.have = true;
    return v;
}

static bool lookup(dwarf_db *db, const viewpoint *vp, const char *name, dw_var *v)
{
    return dw_var_lookup(db, vp->pc, vp->skip, name, v);
}

int dbg_src_ident(dbg *d, const char *name, xval *out, xerr *err)
{
    dwarf_db *db = dbg_dwarf(d);
    if (!db)
        return 0;
    viewpoint vp = view_of(d);
    dw_var v;
    if (!lookup(db, &vp, name, &v))
        return 0;
    return var_value(d, vp.c, &v, vp.have ? &vp.f : NULL, out, err) ? -1 : 1;
}

int dbg_src_set_ident(dbg *d, const char *name, const xval *val, xerr *err)
{
    dwarf_db *db = dbg_dwarf(d);
    viewpoint vp = view_of(d);
    dw_var v;
    if (!db || !vp.have || !lookup(db, &vp, name, &v))
        return 0;
    if (v.enum_type) {
        xerr_set(err, "%s is an enumerator: a constant, not a place to assign", name);
        return -1;
    }
    dw_regs r;
    dbg_frame_dwregs(&vp.f, &r);
    dw_mem mem = dbg_dw_mem(d);
    dw_value loc;
    if (dw_var_location(&v, &r, &mem, &loc, err))
        return -1;
    if (loc.kind == DWV_REG) {
        if (!loc.reg) {
            xerr_set(err, "%s is in $zero, which is always 0", name);
            return -1;
        }
        if (vp.f.pc != cpu_pc(vp.c) || vp.f.sp != cpu_gpr(vp.c, 29)) {
            xerr_set(err,
                     "%s is held in $%s in frame #%u: assign the register "
                     "(set var $%s = VALUE)",
                     name, cpu_gpr_names[loc.reg], vp.level, cpu_gpr_names[loc.reg]);
            return -1;
        }
        machine_outside_change(d->m, "a CPU register");
        cpu_set_gpr(vp.c, loc.reg, val->v);
        return 1;
    }
    xerr_set(err, "%s cannot be assigned here: %s", name,
             loc.kind == DWV_VALUE ? "it is a computed value, not a place"
                                   : "its value has been optimized out");
    return -1;
}

int dbg_src_type(dbg *d, const char *name, const ctype **t, xerr *err)
{
    dwarf_db *db = dbg_dwarf(d);
    viewpoint vp = view_of(d);
    *t = db ? dw_type_lookup(db, vp.pc, name) : NULL;
    if (*t)
        return 0;
    bool tagged =
        !strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6) || !strncmp(name, "enum ", 5);
    if (!db)
        xerr_set(err, "No type named %s (the program has no debugging information).", name);
    else if (tagged)
        xerr_set(err, "No %.*s type named %s.", (int)strcspn(name, " "), name,
                 name + strcspn(name, " ") + 1);
    else
        xerr_set(err, "No type named %s.", name);
    return -1;
}

bool dbg_src_name_known(dbg *d, const char *name, uint64_t addr)
{
    dwarf_db *db = dbg_dwarf(d);
    if (!db)
        return false;
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(name, ".["), name);
    cpu *c = dbg_cpu(d);
    return dw_name_known(db, addr ? addr : c ? cpu_pc(c) : 0, first);
}

/* ---- frames as text -------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* The parameter of an inlined (or out-of-line) instance standing for the
 * abstract parameter p, or false when it was optimized away. */
static bool concrete_param(Dwarf_Die *inst, Dwarf_Off p, Dwarf_Die *out)
{
    Dwarf_Die ch;
    if (dwarf_child(inst, &ch) != 0)
        return false;
    do {
        Dwarf_Attribute a;
        Dwarf_Die o;
        if (dwarf_tag(&ch) == DW_TAG_formal_parameter &&
            dwarf_attr(&ch, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &o) &&
            dwarf_dieoffset(&o) == p) {
            *out = ch;
            return true;
        }
    } while (dwarf_siblingof(&ch, &ch) == 0);
    return false;
}

/* Call fn for each parameter of a function or inlined instance, in the
 * order the source declares them (an inlined copy may list them in
 * another, or lack some). */
static void each_param(const dw_scope *s, void (*fn)(void *ctx, const char *name, Dwarf_Die *p),
                       void *ctx)
{
    Dwarf_Die die = s->die, origin, ch;
    Dwarf_Attribute a;
    bool abstract = dwarf_attr(&die, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin);
    Dwarf_Die *list = abstract ? &origin : &die;
    if (dwarf_child(list, &ch) != 0)
        return;
    do {
        if (dwarf_tag(&ch) != DW_TAG_formal_parameter)
            continue;
        const char *name = dwarf_diename(&ch);
        if (!name)
            continue;
        Dwarf_Die conc;
        if (!abstract)
            fn(ctx, name, &ch);
        else
            fn(ctx, name, concrete_param(&die, dwarf_dieoffset(&ch), &conc) ? &conc : NULL);
    } while (dwarf_siblingof(&ch, &ch) == 0);
}

typedef struct arg_list {
    dbg *d;
    cpu *c;
    frame f;
    dw_file *file;
    strbuf *out;
    bool first;
    const char *sep, *eq; /* ", " and "=" (frame lines), "\n" and " = " (info args) */
    bool brief;           /* aggregates as "..." */
    unsigned n;
} arg_list;

static void show_arg(void *ctx, const char *name, Dwarf_Die *p)
{
    arg_list *al = ctx;
    sb_printf(al->out, "%s%s%s", al->first ? "" : al->sep, name, al->eq);
    al->first = false;
    al->n++;
    xval x;
    xerr err;
    if (!p) {
        sb_puts(al->out, "<optimized out>");
        return;
    }
    dw_var v = {al->file, *p, name, true, 0, NULL, 0};
    if (var_value(al->d, al->c, &v, &al->f, &x, &err))
        sb_printf(al->out, "<error: %s>", err.msg);
    else if (al->brief && ctype_is_aggregate(x.type) && x.avail == XV_AVAILABLE)
        sb_puts(al->out, "...");
    else
        dbg_format_typed(al->d, &x, 0, false, al->out);
}

/* name=value pairs of the parameters of a function or inlined instance. */
void dbg_src_args(dbg *d, cpu *c, const src_frame *sf, strbuf *out)
{
    if (!sf->has_scope)
        return;
    arg_list al = {d, c, sf->f, sf->scope.f, out, true, ", ", "=", true, 0};
    each_param(&sf->scope, show_arg, &al);
}

bool dbg_src_describe(dbg *d, cpu *c, const src_frame *sf, strbuf *out)
{
    if (!sf->has_scope)
        return false;
    sb_printf(out, "%s (", sf->scope.name);
    dbg_src_args(d, c, sf, out);
    sb_putc(out, ')');
    if (sf->file)
        sb_printf(out, " at %s:%u", base_name(sf->file), sf->line);
    return true;
}

/* ---- info locals, info args ---------------------------------------------------- */

typedef struct var_list {
    dbg *d;
    cpu *c;
    frame *f;
    strbuf *out;
} var_list;

static bool show_var(void *ctx, const dw_var *v)
{
    var_list *vl = ctx;
    xval x;
    xerr err;
    sb_printf(vl->out, "%s = ", v->name);
    if (var_value(vl->d, vl->c, v, vl->f, &x, &err))
        sb_printf(vl->out, "<error: %s>", err.msg);
    else
        dbg_format_typed(vl->d, &x, 0, false, vl->out);
    sb_putc(vl->out, '\n');
    return true;
}

static int info_vars(dbg *d, unsigned which)
{
    dwarf_db *db = dbg_dwarf(d);
    viewpoint vp = view_of(d);
    if (!vp.c)
        return dbg_error(d, "No CPU selected.");
    if (!db)
        return dbg_error(d, "No symbol table info available (no debugging information).");
    if (!vp.have || !dw_scopes_at(db, vp.pc, (dw_scope[1]){0}, 1))
        return dbg_error(d, "No symbol table info available at 0x%llx.",
                         (unsigned long long)vp.f.pc);
    strbuf b;
    sb_init(&b);
    var_list vl = {d, vp.c, &vp.f, &b};
    unsigned n = dw_vars_at(db, vp.pc, vp.skip, which, show_var, &vl);
    if (!n)
        sb_puts(&b, which == DW_ARGS ? "No arguments.\n" : "No locals.\n");
    return dbg_puts_sb(d, &b);
}

static int cmd_info_locals(dbg *d, const cmd_args *a) { return info_vars(d, DW_LOCALS); }

static int cmd_info_args(dbg *d, const cmd_args *a)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        return dbg_error(d, "No CPU selected.");
    if (!dbg_dwarf(d))
        return dbg_error(d, "No symbol table info available (no debugging information).");
    src_frame sf;
    if (!dbg_src_selected(d, c, &sf) || !sf.has_scope)
        return dbg_error(d, "No symbol table info available at 0x%llx.",
                         (unsigned long long)dbg_frame_pc(d, c));
    frame_cfa(d, c, &sf.f);
    strbuf b;
    sb_init(&b);
    arg_list al = {d, c, sf.f, sf.scope.f, &b, true, "\n", " = ", false, 0};
    each_param(&sf.scope, show_arg, &al);
    sb_puts(&b, al.n ? "\n" : "No arguments.\n");
    return dbg_puts_sb(d, &b);
}

/* ---- info frame -------------------------------------------------------------------- */

static const char *lang_of(dbg *d, uint64_t pc)
{
    dw_cu_info cu;
    if (!dw_cu_at(dbg_dwarf(d), pc, &cu))
        return NULL;
    return cu.lang == DW_LANG_Mips_Assembler ? "asm" : "c";
}

int dbg_src_info_frame(dbg *d, cpu *c, unsigned level, int *rc)
{
    if (!dbg_dwarf(d))
        return 0;
    unsigned want = level < 1024 ? level + 2 : 1024; /* bt's limit */
    src_frame *sf = xcalloc(want, sizeof *sf);
    unsigned n = dbg_src_frames(d, c, sf, want);
    if (level >= n) {
        free(sf);
        *rc = dbg_error(d, "No frame at level %u (the stack has %u: see \"backtrace\").", level, n);
        return 1;
    }
    src_frame *s = &sf[level];
    if (!s->has_scope && !s->f.cfi) { /* nothing the debug information knows */
        free(sf);
        return 0;
    }
    *rc = 0;
    frame_cfa(d, c, &s->f);
    strbuf b;
    sb_init(&b);
    char where[200];
    dbg_format_addr(d, (dbg_addr){s->pc, false}, where, sizeof where);
    sb_printf(&b, "Stack level %u, frame at 0x%llx:\n", level, (unsigned long long)s->f.cfa);
    sb_printf(&b, " pc = %s", where);
    if (s->has_scope) {
        sb_printf(&b, " in %s", s->scope.name);
        if (s->file)
            sb_printf(&b, " (%s:%u)", base_name(s->file), s->line);
    }
    if (level + 1 < n) {
        src_frame *up = &sf[level + 1];
        frame_cfa(d, c, &up->f);
        sb_printf(&b, "; saved pc = 0x%llx\n", (unsigned long long)up->pc);
        if (s->inlined)
            sb_printf(&b, " inlined into frame %llu\n", (unsigned long long)(level + 1));
        else if (up->f.cfa) /* (not known for the outermost frame) */
            sb_printf(&b, " called by frame at 0x%llx\n", (unsigned long long)up->f.cfa);
    } else {
        sb_puts(&b, "\n Outermost frame: no caller found.\n");
    }
    if (level > 0 && !sf[level - 1].inlined)
        sb_printf(&b, " caller of frame at 0x%llx\n", (unsigned long long)sf[level - 1].f.cfa);
    const char *lang = s->has_scope ? lang_of(d, src_frame_lookup(s)) : NULL;
    if (lang)
        sb_printf(&b, " source language %s.\n", lang);
    sb_printf(&b, " Arglist at 0x%llx, args: ", (unsigned long long)s->f.cfa);
    dbg_src_args(d, c, s, &b);
    sb_putc(&b, '\n');
    sb_printf(&b, " Locals at 0x%llx, Previous frame's sp is 0x%llx\n",
              (unsigned long long)s->f.cfa, (unsigned long long)s->f.cfa);
    if (!s->f.cfi) {
        sb_puts(&b, " (no call-frame information here: the frame was found from the "
                    "function's prologue)\n");
    } else if (!s->inlined) {
        bool any = false;
        for (unsigned r = 0; r < 32; r++) {
            if (!s->f.saved[r])
                continue;
            sb_printf(&b, "%s%s at 0x%llx", any ? ", " : " Saved registers:\n  ", cpu_gpr_names[r],
                      (unsigned long long)s->f.saved[r]);
            any = true;
        }
        if (any)
            sb_putc(&b, '\n');
    }
    dbg_puts_sb(d, &b);
    free(sf);
    return 1;
}

/* ---- ptype, whatis --------------------------------------------------------------- */

/* ARGS as a type name ("struct desc", "u32 *", "enum state"): the type, or
 * NULL when it is not one (an expression, then). */
static const ctype *as_type(dbg *d, const char *args)
{
    dwarf_db *db = dbg_dwarf(d);
    if (!db)
        return NULL;
    viewpoint vp = view_of(d);
    char name[256];
    snprintf(name, sizeof name, "%s", args);
    int stars = 0;
    size_t n = strlen(name);
    while (n && (name[n - 1] == '*' || name[n - 1] == ' ')) {
        stars += name[n - 1] == '*';
        name[--n] = 0;
    }
    bool tagged =
        !strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6) || !strncmp(name, "enum ", 5);
    if (!tagged) {
        for (const char *p = name; *p; p++)
            if (!(isalnum((unsigned char)*p) || *p == '_' || *p == ' '))
                return NULL;
        dw_var v;
        if (lookup(db, &vp, name, &v))
            return NULL; /* a variable of that name wins, as in C */
    }
    const ctype *t = dw_type_lookup(db, vp.pc, name);
    for (int i = 0; t && i < stars; i++)
        t = ctype_pointer(t->arena, t);
    return t;
}

/* A function of the program named by the whole expression: its type. */
static const ctype *function_type(dbg *d, const char *args)
{
    dwarf_db *db = dbg_dwarf(d);
    const symbol *s = db && d->m ? symtab_lookup_name(&d->m->syms, args) : NULL;
    dw_scope fn;
    if (s && s->type == 'T' && dw_function_at(db, s->addr, &fn))
        return dw_type_of(fn.f, &fn.die);
    for (const char *p = args; *p; p++) /* a name alone: maybe a function only inlined */
        if (!isalnum((unsigned char)*p) && *p != '_')
            return NULL;
    dw_var v;
    viewpoint vp = view_of(d);
    if (db && lookup(db, &vp, args, &v))
        return NULL; /* a variable of that name */
    return db ? dw_function_type(db, args) : NULL;
}

static void untyped_name(dbg *d, const char *args, const xval *v, strbuf *b)
{
    const symbol *s = d->m ? symtab_lookup_name(&d->m->syms, args) : NULL;
    if (s) {
        sb_printf(b, "<%s variable, no debug info>", s->type == 'T' ? "text" : "data");
        return;
    }
    if (v->psize) {
        if (v->stride == 1 && v->psgn)
            sb_puts(b, "void *");
        else
            sb_printf(b, "%s%s *", v->psgn ? "" : "unsigned ",
                      v->psize == 1   ? "char"
                      : v->psize == 2 ? "short"
                      : v->psize == 4 ? "int"
                                      : "long");
        return;
    }
    sb_printf(b, "%s%s", v->sgn ? "" : "unsigned ",
              v->size == 1   ? "char"
              : v->size == 2 ? "short"
              : v->size == 4 ? "int"
                             : "long");
}

static int type_command(dbg *d, const char *args, bool expand)
{
    const char *text = *args ? args : "$";
    const ctype *t = as_type(d, text);
    if (!t && (!strncmp(text, "struct ", 7) || !strncmp(text, "union ", 6) ||
               !strncmp(text, "enum ", 5))) {
        char name[256];
        xerr err;
        snprintf(name, sizeof name, "%.*s", (int)strcspn(text, "*"), text);
        size_t n = strlen(name);
        while (n && name[n - 1] == ' ')
            name[--n] = 0;
        dbg_src_type(d, name, &t, &err);
        return dbg_error(d, "%s", err.msg);
    }
    bool is_typename = t != NULL;
    if (!t)
        t = function_type(d, text);
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "type = ");
    if (t) {
        /* whatis of a typedef name shows what it names, one level */
        if (!expand && is_typename && t->kind == CT_TYPEDEF)
            ctype_name(ctype_target(t), &b);
        else if (expand)
            ctype_ptype(t, &b);
        else
            ctype_name(t, &b);
    } else {
        xval v;
        xerr err;
        expr *e = expr_parse(text, NULL, &err);
        if (!e) {
            sb_free(&b);
            return dbg_error(d, "%s", err.msg);
        }
        int rc = dbg_eval_expr(d, e, d->scope, &v, &err);
        expr_free(e);
        if (rc) {
            sb_free(&b);
            return dbg_error(d, "%s", err.msg);
        }
        if (v.type && expand)
            ctype_ptype(v.type, &b);
        else if (v.type)
            ctype_name(v.type, &b);
        else
            untyped_name(d, text, &v, &b);
    }
    sb_putc(&b, '\n');
    return dbg_puts_sb(d, &b);
}

static int cmd_ptype(dbg *d, const cmd_args *a) { return type_command(d, a->text[0], true); }
static int cmd_whatis(dbg *d, const cmd_args *a) { return type_command(d, a->text[0], false); }

#include "dbg/srcvars.cmds.h"

const dbg_cmd_table dbg_srcvars_table = {"Source", var_commands, ARRAY_SIZE(var_commands)};
