/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Expressions in the debugger: registers, convenience variables, value
 * history, symbols, device registers and event fields; memory through the
 * selected CPU's translation or physically ("p:").  See dbg_int.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/rr.h"
#include "dbg/dbg_int.h"
#include "dbg/source.h"

typedef struct var {
    char name[32];
    xval v;
} var;

typedef struct vars_state {
    var *v;
    unsigned n;
    xval *hist;
    unsigned nhist;
} vars;

static vars *get_vars(dbg *d) { return DBG_STATE(d, vars); }

static void dbg_vars_free(dbg *d)
{
    vars *vs = d->vars;
    if (!vs)
        return;
    free(vs->v);
    free(vs->hist);
    free(vs);
    d->vars = NULL;
}

void dbg_var_set(dbg *d, const char *name, xval v)
{
    vars *vs = get_vars(d);
    if (!vs)
        return;
    for (unsigned i = 0; i < vs->n; i++) {
        if (strcmp(vs->v[i].name, name) == 0) {
            vs->v[i].v = v;
            return;
        }
    }
    var *n = xrealloc(vs->v, (vs->n + 1) * sizeof *n);
    vs->v = n;
    snprintf(n[vs->n].name, sizeof n[vs->n].name, "%s", name);
    n[vs->n++].v = v;
}

int dbg_var_get(dbg *d, const char *name, xval *out)
{
    vars *vs = get_vars(d);
    for (unsigned i = 0; vs && i < vs->n; i++) {
        if (strcmp(vs->v[i].name, name) == 0) {
            *out = vs->v[i].v;
            return 0;
        }
    }
    return -1;
}

void dbg_var_names(dbg *d, void (*fn)(void *ctx, const char *name), void *ctx)
{
    vars *vs = d->vars;
    for (unsigned i = 0; vs && i < vs->n; i++)
        fn(ctx, vs->v[i].name);
}

unsigned dbg_history_add(dbg *d, xval v)
{
    vars *vs = get_vars(d);
    if (!vs)
        return 0;
    xval *n = xrealloc(vs->hist, (vs->nhist + 1) * sizeof *n);
    vs->hist = n;
    n[vs->nhist++] = v;
    return vs->nhist;
}

/* ---- registers ---------------------------------------------------------- */

enum reg_kind { RK_NONE, RK_GPR, RK_PC, RK_HI, RK_LO, RK_CP0, RK_FPR, RK_FCSR };

static int reg_parse(const char *name, unsigned *n)
{
    if (!strcmp(name, "pc"))
        return RK_PC;
    if (!strcmp(name, "hi"))
        return RK_HI;
    if (!strcmp(name, "lo"))
        return RK_LO;
    if (!strcmp(name, "fcsr") || !strcmp(name, "fsr"))
        return RK_FCSR;
    if (!strcmp(name, "fp") || !strcmp(name, "s8")) {
        *n = 30;
        return RK_GPR;
    }
    for (unsigned i = 0; i < 32; i++) {
        if (cpu_gpr_names[i] && strcmp(cpu_gpr_names[i], name) == 0) {
            *n = i;
            return RK_GPR;
        }
    }
    if ((name[0] == 'r' || name[0] == 'f') && name[1] >= '0' && name[1] <= '9') {
        char *end;
        unsigned long k = strtoul(name + 1, &end, 10);
        if (!*end && k < 32 && !(name[1] == '0' && name[2])) {
            *n = (unsigned)k;
            return name[0] == 'r' ? RK_GPR : RK_FPR;
        }
    }
    for (unsigned i = 0; i < 32; i++) {
        if (cpu_cp0_names[i] && cpu_cp0_names[i][0] && strcasecmp(cpu_cp0_names[i], name) == 0) {
            *n = i;
            return RK_CP0;
        }
    }
    return RK_NONE;
}

/* Registers that hold addresses print as pointers. */
static bool reg_is_pointer(int kind, unsigned n)
{
    return kind == RK_PC || (kind == RK_GPR && (n == 28 || n == 29 || n == 30 || n == 31)) ||
           (kind == RK_CP0 && (n == 8 || n == 14 || n == 30));
}

static int reg_get(cpu *c, int kind, unsigned n, xval *out)
{
    uint64_t v = 0;
    switch (kind) {
    case RK_GPR: v = cpu_gpr(c, n); break;
    case RK_PC: v = cpu_pc(c); break;
    case RK_HI: v = cpu_hi(c); break;
    case RK_LO: v = cpu_lo(c); break;
    case RK_CP0: v = cpu_cp0(c, n); break;
    case RK_FPR: v = cpu_fpr(c, n); break;
    case RK_FCSR: v = cpu_fcsr(c); break;
    default: return -1;
    }
    if (reg_is_pointer(kind, n))
        *out = xval_addr(v, kind == RK_PC || n == 31 ? 4 : 8);
    else if (kind == RK_GPR || kind == RK_HI || kind == RK_LO)
        *out = xval_int((int64_t)v);
    else
        *out = xval_uns(v);
    return 0;
}

static void reg_set(cpu *c, int kind, unsigned n, uint64_t v)
{
    switch (kind) {
    case RK_GPR: cpu_set_gpr(c, n, v); break;
    case RK_PC: cpu_set_pc(c, v); break;
    case RK_HI: cpu_set_hi(c, v); break;
    case RK_LO: cpu_set_lo(c, v); break;
    case RK_CP0: cpu_set_cp0(c, n, v); break;
    case RK_FPR: cpu_set_fpr(c, n, v); break;
    case RK_FCSR: cpu_set_fcsr(c, (uint32_t)v); break;
    default: break;
    }
}

/* ---- registers of the selected frame ------------------------------------ */

/* A register as the selected frame sees it (the innermost frame: the CPU's
 * own).  Returns 1 with *out, 0 when the frame does not know it (err
 * says why), -1 when the name is no register. */
int dbg_register_value(dbg *d, const char *name, xval *out, xerr *err)
{
    unsigned n = 0;
    int kind = reg_parse(name, &n);
    if (kind == RK_NONE)
        return -1;
    cpu *c = dbg_cpu(d);
    if (!c) {
        xerr_set(err, "No CPU: $%s has no value.", name);
        return 0;
    }
    if (d->frame == 0 || kind == RK_CP0 || kind == RK_FPR || kind == RK_FCSR)
        return reg_get(c, kind, n, out) == 0 ? 1 : -1;
    unsigned nf, level;
    frame *f = dbg_selected_frames(d, c, &nf, &level);
    uint64_t v = 0, slot;
    int known = 0;
    if (level == 0) {
        free(f);
        return reg_get(c, kind, n, out) == 0 ? 1 : -1;
    }
    if (kind == RK_PC) {
        v = f[level].pc;
        known = 1;
    } else if (kind == RK_GPR) {
        known = dbg_frame_gpr(c, f, nf, level, n, &v, &slot) == 1;
    }
    free(f);
    if (!known) {
        xerr_set(err,
                 "$%s is not saved in frame #%u: a caller-saved register is lost "
                 "once a callee runs (frame 0 has the live value).",
                 name, d->frame);
        return 0;
    }
    if (reg_is_pointer(kind, n))
        *out = xval_addr(v, kind == RK_PC || n == 31 ? 4 : 8);
    else
        *out = xval_int((int64_t)v);
    return 1;
}

/* Assign a register of an outer frame: a saved one in its stack slot, one
 * no inner frame saved in the CPU; pc, sp, ra and the lost ones not. */
static int frame_reg_set(dbg *d, cpu *c, int kind, unsigned n, uint64_t v, xerr *err)
{
    unsigned nf, level, w = 0;
    frame *f = dbg_selected_frames(d, c, &nf, &level);
    uint64_t old, slot = 0;
    int known = -1;
    if (level > 0 && kind == RK_GPR && n != 29 && n != 31)
        known = dbg_frame_gpr(c, f, nf, level, n, &old, &slot);
    for (unsigned j = 0; slot && j < level; j++) /* the width the prologue stored */
        if (f[j].saved_width[n] && f[j].saved[n] == slot)
            w = f[j].saved_width[n];
    free(f);
    if (level == 0) {
        machine_outside_change(d->m, "a CPU register");
        reg_set(c, kind, n, v);
        return 0;
    }
    if (known != 1) {
        xerr_set(err,
                 "Cannot set this register in frame #%u (only the saved "
                 "s0-s8 and gp can be; \"frame 0\" to set the CPU's).",
                 d->frame);
        return -1;
    }
    if (!slot) { /* no inner frame saved it: the CPU's register is the frame's */
        machine_outside_change(d->m, "a CPU register");
        cpu_set_gpr(c, n, v);
        return 0;
    }
    uint8_t b[8];
    store_be(b, w, v);
    return dbg_write(d, (dbg_addr){slot, false}, b, w, err);
}

/* ---- the environment ---------------------------------------------------- */

typedef struct envctx {
    dbg *d;
    const eval_scope *sc;
} envctx;

static int history_get(dbg *d, const char *name, xval *out, xerr *err)
{
    vars *vs = get_vars(d);
    unsigned n = vs ? vs->nhist : 0;
    long k;
    if (name[0] == '$' || name[0] == 0) {
        /* $ = last, $$ = one before, $$N = N before the last */
        long back = name[0] == 0 ? 0 : name[1] ? strtol(name + 1, NULL, 10) : 1;
        k = (long)n - back;
    } else {
        k = strtol(name, NULL, 10);
    }
    if (n == 0 && (name[0] == '$' || name[0] == 0)) {
        xerr_set(err, "History is empty.");
        return -1;
    }
    if (k < 1 || (unsigned long)k > n) {
        xerr_set(err, "History has not yet reached $%ld.", k);
        return -1;
    }
    *out = vs->hist[k - 1];
    return 0;
}

static bool is_history_name(const char *name)
{
    const char *s = name[0] == '$' ? name + 1 : name;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static int env_get_var(void *ctx, const char *name, xval *out, xerr *err)
{
    envctx *x = ctx;
    dbg *d = x->d;
    if (is_history_name(name))
        return history_get(d, name, out, err);
    int known = dbg_register_value(d, name, out, err);
    if (known >= 0)
        return known ? 0 : -1;
    if (d->m && !strcmp(name, "cpu")) {
        *out = xval_int(d->cur_cpu);
        return 0;
    }
    if (d->m && !strcmp(name, "time")) {
        *out = xval_uns(d->m->clock.now);
        return 0;
    }
    if (dbg_cpu(d) && !strcmp(name, "insns")) {
        *out = xval_uns(cpu_retired(dbg_cpu(d)));
        return 0;
    }
    if (dbg_var_get(d, name, out) == 0)
        return 0;
    xerr_set(err, "Convenience variable \"$%s\" has no value.", name);
    return -1;
}

static int env_set_var(void *ctx, const char *name, const xval *v, xerr *err)
{
    envctx *x = ctx;
    dbg *d = x->d;
    if (is_history_name(name) || !strcmp(name, "cpu") || !strcmp(name, "time") ||
        !strcmp(name, "insns")) {
        xerr_set(err, "$%s cannot be assigned.", name);
        return -1;
    }
    unsigned n = 0;
    int kind = reg_parse(name, &n);
    if (kind != RK_NONE) {
        cpu *c = dbg_cpu(d);
        if (!c) {
            xerr_set(err, "No CPU: cannot set $%s.", name);
            return -1;
        }
        if (kind == RK_GPR && n == 0) {
            xerr_set(err, "$zero is always 0.");
            return -1;
        }
        if (d->frame && kind != RK_CP0 && kind != RK_FPR && kind != RK_FCSR)
            return frame_reg_set(d, c, kind, n, v->v, err);
        machine_outside_change(d->m, "a CPU register");
        reg_set(c, kind, n, v->v);
        return 0;
    }
    dbg_var_set(d, name, *v);
    return 0;
}

int dbg_dev_ref(dbg *d, const char *name, dev_ref *r, xerr *err)
{
    const char *dot = strchr(name, '.');
    if (!d->m || !dot)
        return 0;
    char dev[32], reg[64];
    snprintf(dev, sizeof dev, "%.*s", (int)(dot - name), name);
    device *v = machine_find_device(d->m, dev);
    if (!v)
        return 0;
    const char *rest = dot + 1;
    const char *fdot = strchr(rest, '.');
    snprintf(reg, sizeof reg, "%.*s", fdot ? (int)(fdot - rest) : (int)strlen(rest), rest);
    memset(r, 0, sizeof *r);
    r->dev = v;
    if (dev_reg_lookup(v, reg, &r->id, &r->idx) != 0) {
        xerr_set(err, "%s has no register \"%s\" (see \"info device %s\").", dev, reg, dev);
        return -1;
    }
    if (fdot) {
        const reg_decl *rd = &v->cls->regs[r->id];
        r->field = dev_field_lookup(rd, fdot + 1);
        if (!r->field) {
            char rn[48];
            dev_reg_name(v, r->id, r->idx, rn, sizeof rn);
            xerr_set(err, "%s.%s has no field \"%s\" (see \"info device %s %s\").", dev, rn,
                     fdot + 1, dev, rn);
            return -1;
        }
    }
    return 1;
}

static bool scope_lookup(const eval_scope *sc, const char *name, xval *out)
{
    if (!sc)
        return false;
    for (unsigned i = 0; i < sc->nvals; i++) {
        if (strcmp(scope_name(sc, i), name) == 0) {
            *out = xval_uns(sc->vals[i]);
            return true;
        }
    }
    for (unsigned i = 0; sc->cf && i < sc->cf->n; i++) {
        const event_field *f = &sc->cf->fields[i];
        for (unsigned k = 0; f->fmt == EVF_ENUM && f->names && f->names[k]; k++) {
            if (strcmp(f->names[k], name) == 0) {
                *out = xval_uns(k);
                return true;
            }
        }
    }
    if (!sc->ev)
        return false;
    const event_decl *decl = sc->ev->src->decl;
    for (unsigned i = 0; i < decl->nfields && i < sc->ev->nvals; i++) {
        if (strcmp(decl->fields[i].name, name) == 0) {
            *out = xval_uns(sc->ev->vals[i]);
            return true;
        }
    }
    /* Names of enumerated field values ("ring == tx"). */
    for (unsigned i = 0; i < decl->nfields; i++) {
        const event_field *f = &decl->fields[i];
        if (f->fmt != EVF_ENUM || !f->names)
            continue;
        for (unsigned k = 0; f->names[k]; k++) {
            if (strcmp(f->names[k], name) == 0) {
                *out = xval_uns(k);
                return true;
            }
        }
    }
    return false;
}

static int env_get_ident(void *ctx, const char *name, xval *out, xerr *err)
{
    envctx *x = ctx;
    dbg *d = x->d;
    if (scope_lookup(x->sc, name, out))
        return 0;
    dev_ref r;
    int k = dbg_dev_ref(d, name, &r, err);
    if (k < 0)
        return -1;
    if (k > 0) {
        uint64_t v = dev_peek(r.dev, r.id, r.idx);
        if (r.field)
            v = EXTRACT(v, r.field->lsb, r.field->width);
        *out = xval_uns(v);
        return 0;
    }
    /* A variable of the program as C scopes it at the pc (debug info). */
    k = dbg_src_ident(d, name, out, err);
    if (k)
        return k < 0 ? -1 : 0;
    const symbol *s = d->m ? symtab_lookup_name(&d->m->syms, name) : NULL;
    if (s) {
        *out = xval_addr(s->addr, 4);
        return 0;
    }
    if (x->sc && x->sc->ev)
        xerr_set(err, "No field or symbol \"%s\" (%s has: see \"info events %s\").", name,
                 x->sc->ev->src->name, x->sc->ev->src->name);
    else
        xerr_set(err, "No symbol \"%s\" in current context.", name);
    return -1;
}

static int env_set_ident(void *ctx, const char *name, const xval *v, xerr *err)
{
    envctx *x = ctx;
    dbg *d = x->d;
    dev_ref r;
    int k = dbg_dev_ref(d, name, &r, err);
    if (k < 0)
        return -1;
    if (k == 0) {
        k = dbg_src_set_ident(d, name, v, err); /* a variable in a register */
        if (k)
            return k < 0 ? -1 : 0;
        if (d->m && symtab_lookup_name(&d->m->syms, name))
            xerr_set(err,
                     "\"%s\" has no type: say its width, as in "
                     "set *(int *)%s = VALUE.",
                     name, name);
        else
            xerr_set(err, "No symbol \"%s\" in current context.", name);
        return -1;
    }
    const reg_decl *rd = &r.dev->cls->regs[r.id];
    uint64_t val = v->v & MASK(rd->width * 8u);
    if (r.field) {
        uint64_t fm = MASK(r.field->width) << r.field->lsb;
        val = (dev_peek(r.dev, r.id, r.idx) & ~fm) | ((v->v << r.field->lsb) & fm);
    }
    /* A real register write (with its side effects), by the debugger. */
    bus_op op = {
        .addr = 0, .size = rd->width, .write = 1, .initiator = (uint16_t)d->m->debugger_initiator};
    machine_outside_change(d->m, "a device register");
    dev_write(r.dev, &op, rd->offset + r.idx * rd->stride, rd->width, val);
    return 0;
}

static int env_read_mem(void *ctx, uint64_t addr, unsigned size, uint64_t *v, xerr *err)
{
    envctx *x = ctx;
    uint8_t b[8];
    dbg_addr a = {addr, false};
    if (dbg_read(x->d, a, b, size, err))
        return -1;
    *v = load_be(b, size);
    return 0;
}

static int env_write_mem(void *ctx, uint64_t addr, unsigned size, uint64_t v, xerr *err)
{
    envctx *x = ctx;
    uint8_t b[8];
    store_be(b, size, v);
    dbg_addr a = {addr, false};
    return dbg_write(x->d, a, b, size, err);
}

static int env_lookup_type(void *ctx, const char *name, const struct ctype **out, xerr *err)
{
    envctx *x = ctx;
    return dbg_src_type(x->d, name, out, err);
}

/* The env points at a context that must outlive it: evaluation entry
 * points keep both on their stack. */
static void env_init(envctx *x, expr_env *env)
{
    env->ctx = x;
    env->get_var = env_get_var;
    env->set_var = env_set_var;
    env->get_ident = env_get_ident;
    env->set_ident = env_set_ident;
    env->read_mem = env_read_mem;
    env->write_mem = env_write_mem;
    env->lookup_type = env_lookup_type;
}

int dbg_eval_expr(dbg *d, const expr *e, const eval_scope *sc, xval *out, xerr *err)
{
    envctx x = {d, sc};
    expr_env env;
    env_init(&x, &env);
    return expr_eval(e, &env, out, err);
}

int dbg_eval_prefix(dbg *d, const char *s, const char **end, xval *out)
{
    xerr err;
    expr *e = expr_parse(s, end, &err);
    if (!e)
        return dbg_error(d, "%s", err.msg);
    int rc = dbg_eval_expr(d, e, d->scope, out, &err);
    expr_free(e);
    if (rc)
        return dbg_error(d, "%s", err.msg);
    return 0;
}

int dbg_eval(dbg *d, const char *text, xval *out) { return dbg_eval_prefix(d, text, NULL, out); }

/* ---- counts ----------------------------------------------------------------- */

static void count_rule(uint64_t min, uint64_t max, char *buf, size_t len)
{
    if (max != UINT64_MAX)
        snprintf(buf, len, "a number from %llu to %llu", (unsigned long long)min,
                 (unsigned long long)max);
    else if (min == 0)
        snprintf(buf, len, "0 or more");
    else if (min == 1)
        snprintf(buf, len, "positive");
    else
        snprintf(buf, len, "at least %llu", (unsigned long long)min);
}

int dbg_count_parse(dbg *d, const char *what, const char *text, uint64_t min, uint64_t max,
                    uint64_t *n, xerr *err)
{
    const char *s = dbg_skip_ws(text);
    uint64_t v;
    bool neg;
    if (d) {
        xval x;
        expr *e = expr_parse(s, NULL, err);
        if (!e)
            return -1;
        int rc = dbg_eval_expr(d, e, d->scope, &x, err);
        expr_free(e);
        if (rc)
            return -1;
        neg = x.sgn && xval_signed(&x) < 0;
        v = neg ? 0 - x.v : x.v; /* the magnitude */
    } else {
        neg = *s == '-';
        const char *digits = neg ? s + 1 : s;
        char *end;
        errno = 0;
        v = strtoull(digits, &end, 0);
        if (!isdigit((unsigned char)*digits) || (errno && errno != ERANGE) || *dbg_skip_ws(end)) {
            xerr_set(err, "%s must be a number, not \"%s\".", what, text);
            return -1;
        }
        if (errno == ERANGE) { /* beyond 64 bits */
            char rule[64];
            count_rule(min, max, rule, sizeof rule);
            xerr_set(err, "%s must be %s, not %s.", what, rule, s);
            return -1;
        }
    }
    if (neg || v < min || v > max) {
        char rule[64];
        count_rule(min, max, rule, sizeof rule);
        xerr_set(err, "%s must be %s, not %s%llu.", what, rule, neg ? "-" : "",
                 (unsigned long long)v);
        return -1;
    }
    *n = v;
    return 0;
}

int dbg_parse_count(dbg *d, const char *cmd, const char *text, uint64_t min, uint64_t max,
                    uint64_t *n)
{
    xerr err;
    if (dbg_count_parse(d, "the count", text, min, max, n, &err))
        return dbg_error(d, "%s: %s", cmd, err.msg);
    return 0;
}

/* ---- addresses and memory ----------------------------------------------- */

int dbg_phys_addr(dbg *d, const char *what, uint64_t v, uint64_t *ba)
{
    /* Bus addresses (the 40-bit physical address and the attribute bits)
     * are below 2^43. */
    if (!(v >> 43)) {
        *ba = v;
        return 0;
    }
    if (elf_vaddr_to_bus(v, ba))
        return 0;
    const char *seg = mips_segment_name(v);
    if (!seg)
        return dbg_error(d, "%s needs a physical address: 0x%llx is in no MIPS segment.", what,
                         (unsigned long long)v);
    if (!strcmp(seg, "XKPHYS"))
        return dbg_error(d,
                         "%s needs a physical address: 0x%llx is not one (in XKPHYS, the "
                         "bits between the attributes and the 40-bit address are zero).",
                         what, (unsigned long long)v);
    return dbg_error(d,
                     "%s needs a physical address: 0x%llx is in %s, which the TLB maps; "
                     "give a physical address, or an XKPHYS, KSEG0 or KSEG1 one.",
                     what, (unsigned long long)v, seg);
}

/* ADDR with an optional "p:"; `phys_what` names a command that only takes
 * physical addresses (NULL: virtual unless "p:"). */
static int parse_addr(dbg *d, const char *phys_what, const char *s, const char **end, dbg_addr *out)
{
    s = dbg_skip_ws(s);
    out->phys = phys_what != NULL;
    const char *what = phys_what;
    if (s[0] == 'p' && s[1] == ':') {
        out->phys = true;
        what = what ? what : "p:ADDR";
        s += 2;
    }
    xval v;
    if (dbg_eval_prefix(d, s, end, &v))
        return -1;
    out->a = xval_address(&v); /* a C variable: where it is */
    return out->phys ? dbg_phys_addr(d, what, out->a, &out->a) : 0;
}

int dbg_parse_addr(dbg *d, const char *s, const char **end, dbg_addr *out)
{
    return parse_addr(d, NULL, s, end, out);
}

int dbg_parse_phys(dbg *d, const char *what, const char *s, const char **end, dbg_addr *out)
{
    return parse_addr(d, what, s, end, out);
}

void dbg_explain_addr(dbg *d, dbg_addr a, xerr *err)
{
    char where[48];
    uint64_t ba = a.a;
    if (!a.phys) {
        cpu *c = dbg_cpu(d);
        if (!c || cpu_translate(c, a.a, false, &ba) != 0) {
            xerr_set(err, "Cannot access memory at address 0x%llx (not mapped).",
                     (unsigned long long)a.a);
            return;
        }
    }
    const bus_region *r = d->m ? bus_find(&d->m->bus, ba) : NULL;
    bus_addr_str(ba, where, sizeof where);
    if (!r)
        xerr_set(err, "Cannot access memory at address 0x%llx (nothing at %s).",
                 (unsigned long long)a.a, where);
    else if (!r->ram)
        xerr_set(err,
                 "Cannot read 0x%llx without side effects: %s is MMIO (%s); read device "
                 "registers by name (print DEVICE.REG, info device NAME).",
                 (unsigned long long)a.a, where, r->name);
    else
        xerr_set(err, "Cannot access memory at address 0x%llx (%s runs past %s).",
                 (unsigned long long)a.a, where, r->name);
}

/* Reads into rbuf, or writes wbuf when it is not NULL. */
static int dbg_access(dbg *d, dbg_addr a, void *rbuf, const void *wbuf, uint64_t len, xerr *err)
{
    if (!d->m) {
        xerr_set(err, "No machine: no memory to %s.", wbuf ? "write" : "read");
        return -1;
    }
    bool ok;
    if (a.phys) {
        bus *b = &d->m->bus;
        ok = (wbuf ? bus_poke(b, a.a, wbuf, len) : bus_peek(b, a.a, rbuf, len)) == BUS_OK;
    } else {
        cpu *c = dbg_cpu(d);
        ok = c &&
             (wbuf ? cpu_write_virt(c, a.a, wbuf, len) : cpu_read_virt(c, a.a, rbuf, len)) == len;
    }
    if (!ok)
        dbg_explain_addr(d, a, err);
    else if (wbuf)
        machine_outside_change(d->m, "memory");
    return ok ? 0 : -1;
}

int dbg_read(dbg *d, dbg_addr a, void *buf, uint64_t len, xerr *err)
{
    return dbg_access(d, a, buf, NULL, len, err);
}

int dbg_write(dbg *d, dbg_addr a, const void *buf, uint64_t len, xerr *err)
{
    return dbg_access(d, a, NULL, buf, len, err);
}

void dbg_format_addr(dbg *d, dbg_addr a, char *buf, size_t len)
{
    if (a.phys) {
        snprintf(buf, len, "p:0x%010llx", (unsigned long long)a.a);
        return;
    }
    uint64_t off;
    const symbol *s = d->m ? symtab_lookup_addr(&d->m->syms, a.a, &off) : NULL;
    /* Name code by the function it is in; data only inside a symbol that
     * has a size (or at its very start): a stack address is not
     * "__bss_start+0xffc0". */
    if (s && s->type != 'T' && off && (!s->size || off >= s->size))
        s = NULL;
    if (!s)
        snprintf(buf, len, "0x%016llx", (unsigned long long)a.a);
    else if (off)
        snprintf(buf, len, "0x%016llx <%s+0x%llx>", (unsigned long long)a.a, s->name,
                 (unsigned long long)off);
    else
        snprintf(buf, len, "0x%016llx <%s>", (unsigned long long)a.a, s->name);
}

/* Convenience variables and the value history: state, no commands. */
const dbg_module dbg_vars_module = {
    .name = "vars",
    .free = dbg_vars_free,
};
