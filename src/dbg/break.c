/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Breakpoints of every kind share one numbered table (as gdb's breakpoints
 * and watchpoints do): enable/disable, conditions, ignore counts, commands.
 * This file also holds code breakpoints (break, tbreak) and the hit
 * bookkeeping the resume loop uses.  The other kinds live in watch.c,
 * evbreak.c and stall.c and plug in through bp_ops. */
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

/* The names a hit's condition saw, kept for its commands: the event's
 * fields or the access's values. */
#define SCOPE_MAX 24
typedef struct flatscope {
    const char *names[SCOPE_MAX];
    uint64_t vals[SCOPE_MAX];
    eval_scope sc;
} flatscope;

typedef struct hitrec {
    int num; /* breakpoint number, 0 for other stops */
    bool silent;
    char *text;
    flatscope scope;
} hitrec;

typedef struct addr_ref {
    uint64_t addr;
    uint16_t count[MAX_CPUS];
} addr_ref;

typedef struct bp_state {
    bpoint *list;
    int next_num;
    int last_num;
    hitrec *hits;
    unsigned nhits;
    addr_ref *refs;
    unsigned nrefs;
} bp_state;

static bp_state *state(dbg *d) { return DBG_STATE(d, bp); }

bpoint *bp_list(dbg *d) { return state(d) ? state(d)->list : NULL; }

bpoint *bp_find(dbg *d, int num)
{
    for (bpoint *b = bp_list(d); b; b = b->next)
        if (b->num == num && !b->doomed)
            return b;
    return NULL;
}

/* ---- code addresses in the CPUs, reference-counted -------------------- */

static addr_ref *ref_find(bp_state *s, uint64_t addr, bool create)
{
    for (unsigned i = 0; i < s->nrefs; i++)
        if (s->refs[i].addr == addr)
            return &s->refs[i];
    if (!create)
        return NULL;
    addr_ref *n = xrealloc(s->refs, (s->nrefs + 1) * sizeof *n);
    s->refs = n;
    memset(&n[s->nrefs], 0, sizeof *n);
    n[s->nrefs].addr = addr;
    return &n[s->nrefs++];
}

/* One more (or one less) user of addr on the CPU cpu_i (-1: every CPU): the
 * CPU's own breakpoint goes in with the first and out with the last. */
static void addr_count(dbg *d, int cpu_i, uint64_t addr, bool insert)
{
    bp_state *s = state(d);
    addr_ref *r = s ? ref_find(s, addr, insert) : NULL;
    for (unsigned i = 0; r && i < d->m->ncpus; i++) {
        if (cpu_i >= 0 && (int)i != cpu_i)
            continue;
        if (insert && r->count[i]++ == 0)
            cpu_bp_insert(d->m->cpus[i], addr);
        else if (!insert && r->count[i] && --r->count[i] == 0)
            cpu_bp_remove(d->m->cpus[i], addr);
    }
}

void bp_addr_insert(dbg *d, int cpu_i, uint64_t addr) { addr_count(d, cpu_i, addr, true); }
void bp_addr_remove(dbg *d, int cpu_i, uint64_t addr) { addr_count(d, cpu_i, addr, false); }

/* ---- the table ---------------------------------------------------------- */

static void free_cmds(bpoint *b)
{
    for (unsigned i = 0; i < b->ncmds; i++)
        free(b->cmds[i]);
    free(b->cmds);
    b->cmds = NULL;
    b->ncmds = 0;
}

static void bp_destroy(dbg *d, bpoint *b)
{
    if (b->armed && b->ops->disarm)
        b->ops->disarm(d, b);
    b->armed = false;
    if (b->ops->free)
        b->ops->free(b);
    expr_free(b->cond);
    free(b->cond_text);
    free_cmds(b);
    free(b);
}

static void bp_remove(dbg *d, bpoint *b)
{
    bp_state *s = state(d);
    for (bpoint **pp = &s->list; *pp; pp = &(*pp)->next) {
        if (*pp == b) {
            *pp = b->next;
            break;
        }
    }
    bp_destroy(d, b);
}

/* Delete now, or mark for deletion when we are inside a callback. */
static void bp_delete(dbg *d, bpoint *b)
{
    if (d->in_callback || d->running) {
        b->doomed = true;
        b->enabled = false;
        return;
    }
    bp_remove(d, b);
}

static void reap(dbg *d)
{
    bp_state *s = state(d);
    for (bpoint **pp = s ? &s->list : NULL; pp && *pp;) {
        bpoint *b = *pp;
        if (b->doomed) {
            *pp = b->next;
            bp_destroy(d, b);
        } else {
            pp = &b->next;
        }
    }
}

static void dbg_bp_free(dbg *d)
{
    bp_state *s = d->bp;
    if (!s)
        return;
    while (s->list) {
        bpoint *b = s->list;
        s->list = b->next;
        bp_destroy(d, b);
    }
    for (unsigned i = 0; i < s->nhits; i++)
        free(s->hits[i].text);
    free(s->hits);
    free(s->refs);
    free(s);
    d->bp = NULL;
}

/* Every name a condition uses must mean something when it is set, as in
 * gdb: a misspelt field would otherwise be an error at every hit. */
typedef struct check {
    dbg *d;
    const cond_fields *cf;
    char bad[80];
    xerr err;      /* a device that has no such register */
    uint64_t addr; /* where a code breakpoint is: the program's names there */
} check;

static void check_name(void *ctx, const char *name)
{
    check *c = ctx;
    if (c->bad[0])
        return;
    for (unsigned i = 0; c->cf && i < c->cf->n; i++) {
        const event_field *f = &c->cf->fields[i];
        if (!strcmp(f->name, name))
            return;
        for (unsigned k = 0; f->fmt == EVF_ENUM && f->names && f->names[k]; k++)
            if (!strcmp(f->names[k], name))
                return;
    }
    dev_ref r;
    int k = dbg_dev_ref(c->d, name, &r, &c->err);
    if (k > 0 || (c->d->m && symtab_lookup_name(&c->d->m->syms, name)) ||
        dbg_src_name_known(c->d, name, c->addr))
        return;
    if (k == 0)
        c->err.msg[0] = 0;
    snprintf(c->bad, sizeof c->bad, "%s", name);
}

static int check_cond_at(dbg *d, const char *cond, const cond_fields *cf, uint64_t addr);

int bp_check_cond(dbg *d, const char *cond, const cond_fields *cf)
{
    return check_cond_at(d, cond, cf, 0);
}

static int check_cond_at(dbg *d, const char *cond, const cond_fields *cf, uint64_t addr)
{
    cond = cond ? dbg_skip_ws(cond) : NULL;
    if (!cond || !*cond)
        return 0;
    xerr err;
    expr *e = expr_parse(cond, NULL, &err);
    if (!e)
        return dbg_error(d, "%s", err.msg);
    check c = {d, cf, "", {""}, addr};
    expr_idents(e, check_name, &c);
    expr_free(e);
    if (!c.bad[0])
        return 0;
    if (c.err.msg[0])
        return dbg_error(d, "%s", c.err.msg);
    if (!cf || !cf->n)
        return dbg_error(d, "No symbol \"%s\" in current context.", c.bad);
    strbuf b;
    sb_init(&b);
    for (unsigned i = 0; i < cf->n; i++)
        sb_printf(&b, " %s", cf->fields[i].name);
    dbg_error(d, "%s has no field \"%s\" (fields:%s).", cf->owner, c.bad, b.s);
    sb_free(&b);
    return -1;
}

static int set_cond(dbg *d, bpoint *b, const char *text)
{
    text = text ? dbg_skip_ws(text) : NULL;
    if (text && *text && b->ops->cond && check_cond_at(d, text, b->ops->cond, b->addr))
        return -1;
    expr_free(b->cond);
    free(b->cond_text);
    b->cond = NULL;
    b->cond_text = NULL;
    if (!text || !*text)
        return 0;
    xerr err;
    b->cond = expr_parse(text, NULL, &err);
    if (!b->cond)
        return dbg_error(d, "%s", err.msg);
    b->cond_text = xstrdup(text);
    return 0;
}

bpoint *bp_create(dbg *d, const bp_ops *ops, void *priv, uint64_t addr, const char *cond)
{
    bp_state *s = state(d);
    bpoint *b = xcalloc(1, sizeof *b);
    b->ops = ops;
    b->priv = priv;
    b->addr = addr;
    b->enabled = true;
    /* "if" with nothing after it is a mistake, not "no condition". */
    if (cond && !*dbg_skip_ws(cond)) {
        dbg_error(d, "Argument required (a condition after \"if\").");
        bp_destroy(d, b);
        return NULL;
    }
    if (set_cond(d, b, cond) != 0) {
        bp_destroy(d, b);
        return NULL;
    }
    b->num = ++s->next_num;
    bpoint **pp = &s->list;
    while (*pp)
        pp = &(*pp)->next;
    *pp = b; /* in the list before arming: hooks look for armed entries */
    if (ops->arm && ops->arm(d, b) != 0) {
        *pp = NULL;
        s->next_num--;
        bp_destroy(d, b);
        return NULL;
    }
    b->armed = true;
    s->last_num = b->num;
    dbg_var_set(d, "bpnum", xval_int(b->num));
    return b;
}

int bp_announce(dbg *d, const bpoint *b, const char *what)
{
    if (!b)
        return -1;
    strbuf t;
    sb_init(&t);
    b->ops->describe(d, b, &t);
    dbg_printf(d, "%s %d: %s\n", what, b->num, t.s);
    sb_free(&t);
    return 0;
}

static void set_enabled(dbg *d, bpoint *b, bool on)
{
    if (b->enabled == on)
        return;
    b->enabled = on;
    if (on && !b->armed && b->ops->arm && b->ops->arm(d, b) == 0)
        b->armed = true;
    else if (!on && b->armed && b->ops->disarm) {
        b->ops->disarm(d, b);
        b->armed = false;
    }
}

void bp_disarm_all(dbg *d)
{
    for (bpoint *b = bp_list(d); b; b = b->next) {
        if (b->armed && b->ops->disarm)
            b->ops->disarm(d, b);
        b->armed = false;
    }
}

void bp_resync_all(dbg *d)
{
    for (bpoint *b = bp_list(d); b; b = b->next)
        if (b->armed && b->ops->resync)
            b->ops->resync(d, b);
}

void bp_rearm_all(dbg *d)
{
    for (bpoint *b = bp_list(d); b; b = b->next)
        if (b->enabled && !b->doomed && b->ops->arm && b->ops->arm(d, b) == 0)
            b->armed = true;
}

/* ---- hits --------------------------------------------------------------- */

bool bp_cond_true(dbg *d, bpoint *b, const eval_scope *sc, xerr *err)
{
    xerr_clear(err);
    if (!b->cond)
        return true;
    xval v;
    xerr e;
    if (dbg_eval_expr(d, b->cond, sc, &v, &e) != 0) {
        xerr_set(err, "Error in testing condition for breakpoint %d:\n%s\n", b->num, e.msg);
        return true;
    }
    return v.v != 0;
}

bool bp_report_begin(dbg *d, bpoint *b, const eval_scope *sc, const char *what, strbuf *t)
{
    xerr err;
    if (!bp_cond_true(d, b, sc, &err))
        return false;
    sb_init(t);
    sb_printf(t, "\n%s%s %d: ", err.msg, what, b->num);
    return true;
}

static bool is_continue(const char *line)
{
    char w[16];
    dbg_next_word(line, w, sizeof w);
    return !strcmp(w, "continue") || !strcmp(w, "c") || !strcmp(w, "cont") || !strcmp(w, "fg");
}

static bool is_silent(const bpoint *b)
{
    return b->ncmds && strcmp(dbg_skip_ws(b->cmds[0]), "silent") == 0;
}

static void flatten(const eval_scope *sc, flatscope *f)
{
    unsigned n = 0;
    for (unsigned i = 0; sc && i < sc->nvals && n < SCOPE_MAX; i++, n++) {
        f->names[n] = scope_name(sc, i);
        f->vals[n] = sc->vals[i];
    }
    const event_decl *decl = sc && sc->ev ? sc->ev->src->decl : NULL;
    for (unsigned i = 0; decl && i < decl->nfields && i < sc->ev->nvals && n < SCOPE_MAX; i++) {
        f->names[n] = decl->fields[i].name;
        f->vals[n++] = sc->ev->vals[i];
    }
    f->sc = (eval_scope){NULL, f->names, f->vals, n, sc ? sc->cf : NULL};
}

/* Run a breakpoint's commands; stops at "continue" or when a command ran
 * the guest (the rest are ignored, as in gdb).  The hit's fields are
 * visible by name. */
static void run_cmds(dbg *d, const bpoint *b, const flatscope *fs)
{
    const void *saved_scope = d->scope;
    d->scope = fs ? &fs->sc : NULL;
    unsigned n = b->ncmds;
    char **copy = xcalloc(n, sizeof *copy);
    for (unsigned i = 0; i < n; i++)
        copy[i] = xstrdup(b->cmds[i]);
    uint64_t stops = d->stop_count;
    for (unsigned i = is_silent(b) ? 1 : 0; i < n; i++) {
        if (is_continue(copy[i]) || d->quit || d->stop_count != stops)
            break;
        dbg_execute(d, copy[i]);
    }
    for (unsigned i = 0; i < n; i++)
        free(copy[i]);
    free(copy);
    d->scope = saved_scope;
}

static bool continues(const bpoint *b)
{
    for (unsigned i = 0; i < b->ncmds; i++)
        if (is_continue(b->cmds[i]))
            return true;
    return false;
}

static void queue(dbg *d, int num, bool silent, const char *text, const eval_scope *sc)
{
    bp_state *s = state(d);
    hitrec *n = xrealloc(s->hits, (s->nhits + 1) * sizeof *n);
    s->hits = n;
    n[s->nhits].num = num;
    n[s->nhits].silent = silent;
    flatten(sc, &n[s->nhits].scope);
    n[s->nhits++].text = xstrdup(text);
}

bool bp_hit(dbg *d, bpoint *b, const char *text, const eval_scope *sc)
{
    if (d->replaying) {
        /* The history re-executes (reverse-continue looks for the last
         * hit): a stop is noted, nothing counted, no command run.  A
         * breakpoint whose commands continue never stops. */
        if (continues(b))
            return false;
        queue(d, b->num, is_silent(b), text, sc);
        return true;
    }
    b->hits++; /* an ignored crossing is a hit too, as gdb counts them */
    if (b->ignore) {
        b->ignore--;
        return false;
    }
    if (b->temp)
        b->doomed = true;
    if (continues(b) || !d->running) {
        if (!is_silent(b))
            dbg_puts(d, text);
        flatscope fs;
        flatten(sc, &fs);
        d->in_callback += d->running;
        run_cmds(d, b, &fs);
        d->in_callback -= d->running;
        return false;
    }
    queue(d, b->num, is_silent(b), text, sc);
    return true;
}

void bp_note_stop(dbg *d, const char *text) { queue(d, 0, false, text, NULL); }

bool bp_pending(dbg *d)
{
    bp_state *s = d->bp;
    return s && s->nhits;
}

/* Hits reported in full at one stop (a per-word DMA can hit a watchpoint
 * hundreds of times before the machine stops); the rest are counted. */
#define MAX_REPORTED_HITS 8

void bp_report_pending(dbg *d, cpu *c)
{
    bp_state *s = state(d);
    bool loud = false;
    unsigned shown = 0, more = 0;
    for (unsigned i = 0; s && i < s->nhits; i++) {
        if (s->hits[i].silent)
            continue;
        if (shown++ < MAX_REPORTED_HITS)
            dbg_puts(d, s->hits[i].text);
        else
            more++;
        loud = true;
    }
    if (more)
        dbg_printf(d, "\n(and %u more hits before the machine stopped)\n", more);
    if (loud && c) {
        strbuf b;
        sb_init(&b);
        dbg_format_location(d, c, cpu_pc(c), &b);
        dbg_puts_sb(d, &b);
    }
}

void bp_after_stop(dbg *d)
{
    bp_state *s = state(d);
    if (!s)
        return;
    /* Commands may run the guest again (which resets the queue). */
    unsigned n = s->nhits;
    hitrec *hits = s->hits;
    s->hits = NULL;
    s->nhits = 0;
    uint64_t stops = d->stop_count;
    for (unsigned i = 0; i < n && d->stop_count == stops && !d->quit; i++) {
        bpoint *b = NULL;
        for (bpoint *k = bp_list(d); hits[i].num && k; k = k->next)
            if (k->num == hits[i].num) /* doomed ones too: temporary breakpoints */
                b = k;
        if (b)
            run_cmds(d, b, &hits[i].scope);
    }
    for (unsigned i = 0; i < n; i++)
        free(hits[i].text);
    free(hits);
    if (d->stop_count == stops)
        reap(d);
}

void bp_forget_pending(dbg *d)
{
    bp_state *s = state(d);
    for (unsigned i = 0; s && i < s->nhits; i++)
        free(s->hits[i].text);
    if (s)
        s->nhits = 0;
}

char *bp_pending_text(dbg *d)
{
    bp_state *s = state(d);
    strbuf b;
    sb_init(&b);
    unsigned shown = 0, more = 0;
    for (unsigned i = 0; s && i < s->nhits; i++)
        if (!s->hits[i].silent && shown++ < MAX_REPORTED_HITS)
            sb_puts(&b, s->hits[i].text);
        else if (!s->hits[i].silent)
            more++;
    if (more)
        sb_printf(&b, "\n(and %u more hits before the machine stopped)\n", more);
    return b.s ? sb_take(&b) : xstrdup("");
}

void bp_before_run(dbg *d)
{
    bp_state *s = state(d);
    if (!s)
        return;
    for (unsigned i = 0; i < s->nhits; i++)
        free(s->hits[i].text);
    s->nhits = 0;
    reap(d);
}

/* ---- code breakpoints ---------------------------------------------------- */

static int code_arm(dbg *d, bpoint *b)
{
    bp_addr_insert(d, -1, b->addr);
    return 0;
}

static void code_disarm(dbg *d, bpoint *b) { bp_addr_remove(d, -1, b->addr); }

static void code_describe(dbg *d, const bpoint *b, strbuf *out)
{
    char a[160];
    dbg_format_addr(d, (dbg_addr){b->addr, false}, a, sizeof a);
    sb_puts(out, a);
}

static const cond_fields code_cond = {"a breakpoint", NULL, 0};
static const bp_ops code_ops = {"breakpoint", code_arm,   code_disarm, code_describe,
                                NULL,         &code_cond, NULL};

/* "middle (x=0) at dbgtest.c:22" for a CPU stopped where the debug
 * information has a line (where stays as it is otherwise). */
static void where_in_source(dbg *d, int cpu_i, char *where, size_t len)
{
    cpu *c = d->m->cpus[cpu_i];
    src_frame sf;
    if (!dbg_dwarf(d) || dbg_src_frames(d, c, &sf, 1) != 1 || !sf.file)
        return;
    strbuf b;
    sb_init(&b);
    if (dbg_src_describe(d, c, &sf, &b))
        snprintf(where, len, "%s", b.s);
    sb_free(&b);
    dbg_src_seen(d, c);
}

bool bp_code_stop(dbg *d, int cpu_i, uint64_t pc, bool *found_out)
{
    bool stop = false, found = false;
    int saved = d->cur_cpu;
    d->cur_cpu = cpu_i;
    for (bpoint *b = bp_list(d); b; b = b->next) {
        if (b->ops != &code_ops || !b->enabled || b->doomed || b->addr != pc)
            continue;
        found = true;
        xerr err;
        if (!bp_cond_true(d, b, NULL, &err))
            continue;
        char where[400], text[800];
        symtab_format(&d->m->syms, pc, where, sizeof where);
        /* the source position costs a DWARF scope lookup: only for a
         * stop that is printed */
        if (err.msg[0] || (!is_silent(b) && !b->ignore))
            where_in_source(d, cpu_i, where, sizeof where);
        snprintf(text, sizeof text, "%s\n%s %d, %s\n", err.msg[0] ? err.msg : "",
                 b->temp ? "Temporary breakpoint" : "Breakpoint", b->num, where);
        if (err.msg[0]) { /* stop on a broken condition, whatever the commands say */
            b->hits++;
            queue(d, b->num, false, text, NULL);
            stop = true;
        } else {
            stop |= bp_hit(d, b, text, NULL);
        }
    }
    d->cur_cpu = saved;
    *found_out = found;
    return stop;
}

/* A location and an optional condition: *ADDR, an expression, or (with
 * debug information) FILE:LINE, LINE or FUNCTION (after its prologue),
 * which may stand for several addresses (inlined copies). */
int bp_parse_locations(dbg *d, const char *args, uint64_t *addrs, unsigned max, unsigned *n,
                       const char **cond)
{
    const char *s = dbg_skip_ws(args);
    *cond = NULL;
    *n = 1;
    const char *ifw = dbg_find_if(s);
    if (!*s || ifw == s) {
        cpu *c = dbg_cpu(d);
        if (!c)
            return dbg_error(d, "No CPU: give a location.");
        addrs[0] = cpu_pc(c);
        if (ifw)
            *cond = ifw + 2;
        return 0;
    }
    if (*s != '*') {
        char spec[512];
        size_t len = ifw ? (size_t)(ifw - s) : strlen(s);
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        snprintf(spec, sizeof spec, "%.*s", (int)len, s);
        int k = dbg_src_location(d, spec, addrs, max, n);
        if (k < 0)
            return -1;
        if (k > 0) {
            if (ifw)
                *cond = ifw + 2;
            return 0;
        }
    } else {
        s++;
    }
    const char *end;
    xval v;
    if (dbg_eval_prefix(d, s, &end, &v))
        return -1;
    end = dbg_skip_ws(end);
    if (end == ifw)
        *cond = ifw + 2;
    else if (*end)
        return dbg_error(d, "Junk at end of arguments: \"%s\".", end);
    addrs[0] = xval_address(&v);
    *n = 1;
    return 0;
}

int bp_parse_location(dbg *d, const char *args, uint64_t *addr, const char **cond)
{
    unsigned n;
    return bp_parse_locations(d, args, addr, 1, &n, cond);
}

static int make_code_bp(dbg *d, const cmd_args *a, bool temp)
{
    uint64_t here;
    const uint64_t *addrs = a->locs;
    unsigned n = a->nlocs;
    const char *cond = a->cond;
    if (!a->given[0] && bp_parse_locations(d, "", &here, 1, &n, &cond)) /* where the CPU is */
        return -1;
    if (!a->given[0])
        addrs = &here;
    for (unsigned i = 0; i < n; i++)
        if (addrs[i] & 3)
            return dbg_error(d, "0x%llx is not an instruction address (not a multiple of 4).",
                             (unsigned long long)addrs[i]);
    if (n > 1)
        dbg_printf(d, "%s is at %u places (inlined or duplicated code): a breakpoint on each.\n",
                   a->text[0], n);
    for (unsigned i = 0; i < n; i++) {
        bpoint *nb = bp_create(d, &code_ops, NULL, addrs[i], cond);
        if (!nb)
            return -1;
        nb->temp = temp;
        char where[160], line[300];
        dbg_format_addr(d, (dbg_addr){addrs[i], false}, where, sizeof where);
        if (dbg_src_at(d, addrs[i], line, sizeof line))
            dbg_printf(d, "%s %d at %s: %s\n", temp ? "Temporary breakpoint" : "Breakpoint",
                       nb->num, where, line);
        else
            dbg_printf(d, "%s %d at %s\n", temp ? "Temporary breakpoint" : "Breakpoint", nb->num,
                       where);
    }
    return 0;
}

static int cmd_break(dbg *d, const cmd_args *a) { return make_code_bp(d, a, false); }
static int cmd_tbreak(dbg *d, const cmd_args *a) { return make_code_bp(d, a, true); }

/* ---- commands on the table ---------------------------------------------- */

typedef void bp_fn(dbg *d, bpoint *b);

static bool apply_num(dbg *d, long n, void *fn)
{
    bpoint *b = bp_find(d, (int)n);
    if (b)
        (*(bp_fn **)fn)(d, b);
    return b != NULL;
}

/* Apply fn to the breakpoints numbered in args ("1 3 5-7"), or to all. */
static int for_each_num(dbg *d, const char *args, const char *cmd, bp_fn *fn)
{
    if (*args)
        return dbg_each_number(d, args, cmd, "breakpoint", state(d)->next_num, apply_num, &fn);
    bpoint *next;
    for (bpoint *b = bp_list(d); b; b = next) {
        next = b->next;
        if (!b->doomed)
            fn(d, b);
    }
    return 0;
}

static void do_delete(dbg *d, bpoint *b) { bp_delete(d, b); }
static void do_enable(dbg *d, bpoint *b) { set_enabled(d, b, true); }
static void do_disable(dbg *d, bpoint *b) { set_enabled(d, b, false); }

static int cmd_delete(dbg *d, const cmd_args *a)
{
    return for_each_num(d, a->text[1], "delete", do_delete);
}
static int cmd_enable(dbg *d, const cmd_args *a)
{
    return for_each_num(d, a->text[0], "enable", do_enable);
}
static int cmd_disable(dbg *d, const cmd_args *a)
{
    return for_each_num(d, a->text[0], "disable", do_disable);
}

static int cmd_clear(dbg *d, const cmd_args *a)
{
    uint64_t addr = a->num[0];
    const char *cond;
    if (!a->given[0] && bp_parse_location(d, "", &addr, &cond)) /* where the CPU is */
        return -1;
    if (a->cond)
        return dbg_error(d, "clear: no condition here.");
    unsigned n = 0;
    strbuf b;
    sb_init(&b);
    bpoint *next;
    for (bpoint *k = bp_list(d); k; k = next) {
        next = k->next;
        if (k->ops == &code_ops && k->addr == addr && !k->doomed) {
            sb_printf(&b, "%s%d", n++ ? " " : "", k->num);
            bp_delete(d, k);
        }
    }
    if (!n) {
        sb_free(&b);
        return dbg_error(d, "No breakpoint at 0x%llx.", (unsigned long long)addr);
    }
    dbg_printf(d, "Deleted breakpoint%s %s\n", n > 1 ? "s" : "", b.s);
    sb_free(&b);
    return 0;
}

/* Breakpoint N of a declared argument. */
static bpoint *find_num(dbg *d, uint64_t n)
{
    bpoint *b = bp_find(d, (int)n);
    if (!b)
        dbg_error(d, "No breakpoint number %llu.", (unsigned long long)n);
    return b;
}

static int cmd_condition(dbg *d, const cmd_args *a)
{
    bpoint *b = find_num(d, a->num[0]);
    if (!b || set_cond(d, b, a->text[1]))
        return -1;
    if (!a->given[1])
        dbg_printf(d, "Breakpoint %d now unconditional.\n", b->num);
    return 0;
}

static int cmd_ignore(dbg *d, const cmd_args *a)
{
    bpoint *b = find_num(d, a->num[0]);
    uint64_t n = a->num[1];
    if (!b)
        return -1;
    b->ignore = (unsigned)n;
    if (n == 0)
        dbg_printf(d, "Will stop next time breakpoint %d is reached.\n", b->num);
    else
        dbg_printf(d, "Will ignore next %llu crossings of breakpoint %d.\n", (unsigned long long)n,
                   b->num);
    return 0;
}

static int commands_done(dbg *d, const char *body)
{
    bpoint *b = bp_find(d, atoi(d->block_arg));
    if (!b)
        return dbg_error(d, "No breakpoint number %s.", d->block_arg);
    free_cmds(b);
    for (const char *s = body; *s;) {
        size_t n = strcspn(s, "\n");
        char *line = xstrndup(s, n);
        s += n + (s[n] == '\n');
        if (!*dbg_skip_ws(line)) {
            free(line);
            continue;
        }
        b->cmds = xrealloc(b->cmds, (b->ncmds + 1) * sizeof *b->cmds);
        b->cmds[b->ncmds++] = line;
    }
    return 0;
}

static int cmd_commands(dbg *d, const cmd_args *a)
{
    bp_state *s = state(d);
    int num = s ? s->last_num : 0;
    if (a->given[0]) {
        bpoint *b = find_num(d, a->num[0]);
        if (!b)
            return -1;
        num = b->num;
    } else if (!num || !bp_find(d, num)) {
        return dbg_error(d, "commands: no breakpoint to attach commands to.");
    }
    char arg[16];
    snprintf(arg, sizeof arg, "%d", num);
    dbg_collect_block(d, arg, commands_done);
    if (!d->batch && !d->source_depth)
        dbg_puts(d, "Type commands for when the breakpoint is hit, one per line.\n"
                    "End with a line saying just \"end\".\n");
    return 0;
}

static void show_bp(dbg *d, const bpoint *b, strbuf *out)
{
    sb_printf(out, "%-7d %-15s %-4s %-3s ", b->num, b->ops->type, b->temp ? "del" : "keep",
              b->enabled ? "y" : "n");
    if (b->ops->describe)
        b->ops->describe(d, b, out);
    sb_putc(out, '\n');
    if (b->cond_text)
        sb_printf(out, "\tstop only if %s\n", b->cond_text);
    if (b->hits)
        sb_printf(out, "\tbreakpoint already hit %llu time%s\n", (unsigned long long)b->hits,
                  b->hits == 1 ? "" : "s");
    if (b->ignore)
        sb_printf(out, "\tignore next %u hits\n", b->ignore);
    for (unsigned i = 0; i < b->ncmds; i++)
        sb_printf(out, "        %s\n", dbg_skip_ws(b->cmds[i]));
}

static int list_bps(dbg *d, const char *args, bool watch_only)
{
    strbuf out;
    sb_init(&out);
    unsigned n = 0;
    for (bpoint *b = bp_list(d); b; b = b->next) {
        if (b->doomed || (watch_only && !strstr(b->ops->type, "watch")))
            continue;
        if (*args) {
            bool want = false;
            char w[32];
            for (const char *s = dbg_next_word(args, w, sizeof w); *w;
                 s = dbg_next_word(s, w, sizeof w))
                want |= atoi(w) == b->num;
            if (!want)
                continue;
        }
        if (!n++)
            sb_puts(&out, "Num     Type            Disp Enb What\n");
        show_bp(d, b, &out);
    }
    if (!n)
        sb_printf(&out, "No %s.\n", watch_only ? "watchpoints" : "breakpoints or watchpoints");
    return dbg_puts_sb(d, &out);
}

static int cmd_info_breakpoints(dbg *d, const cmd_args *a)
{
    return list_bps(d, a->text[0], false);
}
static int cmd_info_watchpoints(dbg *d, const cmd_args *a) { return list_bps(d, a->text[0], true); }

#include "dbg/break.cmds.h"

bool dbg_breakpoint_at(dbg *d, uint64_t addr)
{
    for (bpoint *bp = bp_list(d); bp; bp = bp->next)
        if (bp->ops == &code_ops && bp->enabled && !bp->doomed && bp->addr == addr)
            return true;
    return false;
}

/* The breakpoints first: disarming a watchpoint updates the bus hook. */
static void breaks_free(dbg *d)
{
    dbg_bp_free(d);
    dbg_watch_free(d);
}

static const dbg_cmd_table break_table = {"Breakpoints", break_commands,
                                          ARRAY_SIZE(break_commands)};
static const dbg_cmd_table *const break_tables[] = {&break_table, &dbg_watch_table,
                                                    &dbg_track_table, NULL};

const dbg_module dbg_break_module = {
    .name = "break",
    .commands = break_tables,
    .free = breaks_free,
};
