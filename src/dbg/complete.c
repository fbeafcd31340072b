/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tab completion for the front ends: command names, then each argument by
 * what the command declares it to be (its cmd_arg kinds): symbols and
 * registers in expressions, device names, a NIC's rings, event names,
 * DEVICE.REGISTER.FIELD, settings' words, file names.  See dbg.h. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "dbg/dbg_int.h"

typedef struct comp {
    const char *word; /* the beginning typed so far */
    size_t len;
    dbg_complete_fn add;
    void *ctx;
} comp;

static void offer(comp *c, const char *cand)
{
    if (!strncmp(cand, c->word, c->len))
        c->add(c->ctx, cand);
}

/* Offer prefix + name when it extends the word ("$" + "pc", "p:" + sym). */
static void offer2(comp *c, const char *prefix, const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s", prefix, name);
    offer(c, buf);
}

/* ---- what there is to offer -------------------------------------------- */

static void symbols(dbg *d, comp *c, const char *prefix)
{
    if (!d->m)
        return;
    size_t pl = strlen(prefix);
    if (strncmp(c->word, prefix, c->len < pl ? c->len : pl) != 0)
        return;
    const symtab *st = &d->m->syms;
    for (unsigned i = 0; i < st->n; i++)
        offer2(c, prefix, st->syms[i].name);
}

static void registers(dbg *d, comp *c, const char *prefix)
{
    static const char *const more[] = {"pc", "hi", "lo", "fp", "fcsr"};
    for (unsigned i = 0; i < 32; i++)
        offer2(c, prefix, cpu_gpr_names[i]);
    for (unsigned i = 0; i < ARRAY_SIZE(more); i++)
        offer2(c, prefix, more[i]);
    for (unsigned i = 0; i < 32; i++) {
        char f[8];
        snprintf(f, sizeof f, "f%u", i);
        offer2(c, prefix, f);
        if (cpu_cp0_names[i] && cpu_cp0_names[i][0]) {
            char lower[32];
            snprintf(lower, sizeof lower, "%s", cpu_cp0_names[i]);
            for (char *p = lower; *p; p++)
                *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
            offer2(c, prefix, lower);
        }
    }
}

static void add_var(void *ctx, const char *name) { offer2(ctx, "$", name); }

static void devices(dbg *d, comp *c, bool rings_only, const char *suffix)
{
    for (device *v = d->m ? d->m->devices : NULL; v; v = v->next)
        if (!rings_only || dev_view_find(v, "ring"))
            offer2(c, v->name, suffix);
}

/* A device's register names (the first 64 elements of an array). */
static void register_names(device *v, comp *c, const char *prefix)
{
    for (unsigned i = 0; i < v->cls->nregs; i++) {
        const reg_decl *r = &v->cls->regs[i];
        unsigned n = r->count > 1 ? r->count : 1;
        for (unsigned k = 0; k < n && k < 64; k++) {
            char rn[64];
            dev_reg_name(v, i, k, rn, sizeof rn);
            offer2(c, prefix, rn);
        }
    }
}

/* "dev.", "dev.REG", "dev.REG.FIELD" */
static void device_registers(dbg *d, comp *c)
{
    const char *dot = strchr(c->word, '.');
    if (!d->m || !dot)
        return;
    char dev[32];
    snprintf(dev, sizeof dev, "%.*s", (int)(dot - c->word), c->word);
    device *v = machine_find_device(d->m, dev);
    if (!v)
        return;
    const char *fdot = strchr(dot + 1, '.');
    char pre[128];
    if (fdot) { /* fields of one register */
        char reg[64];
        snprintf(reg, sizeof reg, "%.*s", (int)(fdot - dot - 1), dot + 1);
        unsigned id, idx;
        if (dev_reg_lookup(v, reg, &id, &idx) != 0)
            return;
        snprintf(pre, sizeof pre, "%.*s", (int)(fdot + 1 - c->word), c->word);
        const reg_decl *r = &v->cls->regs[id];
        for (unsigned i = 0; i < r->nfields; i++)
            offer2(c, pre, r->fields[i].name);
        return;
    }
    snprintf(pre, sizeof pre, "%s.", dev);
    register_names(v, c, pre);
}

/* Symbols, $registers and $variables, device registers: what an
 * expression can name. */
static void expression(dbg *d, comp *c)
{
    if (c->word[0] == '$') {
        registers(d, c, "$");
        static const char *const builtin[] = {
            "cpu", "time", "insns", "_", "__", "bpnum", "_shell_exitcode", "_shell_exitsignal"};
        for (unsigned i = 0; i < ARRAY_SIZE(builtin); i++)
            offer2(c, "$", builtin[i]);
        dbg_var_names(d, add_var, c);
        return;
    }
    if (strchr(c->word, '.')) {
        device_registers(d, c);
        return;
    }
    if (!strncmp(c->word, "p:", 2)) { /* a physical address: p:SYMBOL */
        symbols(d, c, "p:");
        return;
    }
    symbols(d, c, "");
    devices(d, c, false, ".");
}

/* The rings a NIC has: the names its events' "ring" field can take that
 * its ring_state knows. */
static void rings(dbg *d, comp *c, const char *devname)
{
    device *v = d->m ? machine_find_device(d->m, devname) : NULL;
    if (!v || !v->cls->ring_state)
        return;
    const char *const *names = NULL;
    for (unsigned i = 0; i < v->cls->nevents && !names; i++) {
        const event_decl *e = &v->cls->events[i];
        for (unsigned k = 0; k < e->nfields && !names; k++)
            if (e->fields[k].fmt == EVF_ENUM && !strcmp(e->fields[k].name, "ring"))
                names = e->fields[k].names;
    }
    for (unsigned i = 0; names && names[i]; i++) {
        ring_state st;
        if (v->cls->ring_state(v, names[i], &st) == 0)
            offer(c, names[i]);
    }
}

static void events(dbg *d, comp *c)
{
    const event_bus *eb = d->m ? &d->m->events : NULL;
    for (unsigned i = 0; eb && i < eb->nsrcs; i++)
        offer(c, eb->srcs[i]->name);
}

/* info device NAME <this>: its registers and views */
static void device_args(dbg *d, comp *c, const char *devname)
{
    device *v = d->m ? machine_find_device(d->m, devname) : NULL;
    if (!v)
        return;
    for (unsigned i = 0; i < v->cls->nviews; i++)
        offer(c, v->cls->views[i].name);
    register_names(v, c, "");
}

static void initiators(dbg *d, comp *c)
{
    static const char *const groups[] = {"devices", "cpus", "all"};
    for (unsigned i = 0; i < ARRAY_SIZE(groups); i++)
        offer(c, groups[i]);
    for (device *v = d->m ? d->m->devices : NULL; v; v = v->next)
        if (v->initiator >= 0)
            offer(c, v->name);
}

/* Words of the command table: the next word of every command whose name
 * starts with the words typed. */
static void command_words(const dbg *d, comp *c, const char *typed)
{
    size_t tl = strlen(typed);
    for (unsigned i = 0; i < dbg_command_count(d); i++) {
        const char *name = dbg_command_at(d, i)->name;
        if (tl && (strncmp(name, typed, tl) != 0 || name[tl] != ' '))
            continue;
        const char *rest = tl ? name + tl + 1 : name;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)strcspn(rest, " "), rest);
        offer(c, w);
    }
}

/* The settings "show" knows: the "set NAME" commands, and version. */
static void settings(const dbg *d, comp *c)
{
    for (unsigned i = 0; i < dbg_command_count(d); i++) {
        const command *cmd = dbg_command_at(d, i);
        if (cmd->flags & CMD_SETTING)
            offer(c, cmd->name + strlen("set "));
    }
    offer(c, "version");
}

/* ---- the argument kinds ------------------------------------------------- */

/* The declared arguments' kinds; a command that parses its line itself
 * (fn) takes expressions when it needs a machine. */
static void kinds_of(const command *cmd, strbuf *out)
{
    if (cmd->run)
        dbg_args_completion(cmd, out);
    else
        sb_puts(out, cmd->flags & CMD_MACHINE ? "expr..." : "");
}

/* Kind number k of spec ("nic ring...", "=on|off file"); the last one
 * repeats when it ends with "...".  *out gets it without the dots. */
static bool spec_kind(const char *spec, unsigned k, char *out, size_t len)
{
    char w[160] = "";
    const char *s = spec;
    for (unsigned i = 0; i <= k; i++) {
        if (!*dbg_skip_ws(s)) {
            size_t n = strlen(w);
            if (n < 3 || strcmp(w + n - 3, "..."))
                return false;
            break; /* repeat the last one */
        }
        s = dbg_next_word(s, w, sizeof w);
    }
    size_t n = strlen(w);
    if (n >= 3 && !strcmp(w + n - 3, "..."))
        w[n - 3] = 0;
    snprintf(out, len, "%s", w);
    return true;
}

static int argument(dbg *d, comp *c, const char *kind, const char *prev)
{
    if (kind[0] == '=') { /* fixed words: =on|off */
        for (const char *p = kind + 1; *p;) {
            size_t n = strcspn(p, "|");
            char w[64];
            snprintf(w, sizeof w, "%.*s", (int)n, p);
            offer(c, w);
            p += n + (p[n] == '|');
        }
    } else if (!strcmp(kind, "expr")) {
        expression(d, c);
    } else if (!strcmp(kind, "cmd")) {
        command_words(d, c, "");
    } else if (!strcmp(kind, "dev")) {
        devices(d, c, false, "");
    } else if (!strcmp(kind, "nic")) {
        devices(d, c, true, "");
    } else if (!strcmp(kind, "ring")) {
        rings(d, c, prev);
    } else if (!strcmp(kind, "event")) {
        events(d, c);
    } else if (!strcmp(kind, "reg")) {
        if (strchr(c->word, '.'))
            device_registers(d, c);
        else
            devices(d, c, false, ".");
    } else if (!strcmp(kind, "devarg")) {
        device_args(d, c, prev);
    } else if (!strcmp(kind, "register")) {
        registers(d, c, c->word[0] == '$' ? "$" : "");
    } else if (!strcmp(kind, "initiator")) {
        initiators(d, c);
        expression(d, c);
    } else if (!strcmp(kind, "setting")) {
        settings(d, c);
    } else if (!strcmp(kind, "file")) {
        return DBG_COMPLETE_FILES;
    }
    return 0;
}

int dbg_complete(dbg *d, const char *before, const char *word, dbg_complete_fn add, void *ctx)
{
    comp c = {word, strlen(word), add, ctx};
    /* The words before the one being completed: canonical command name
     * (aliases and abbreviations resolved) and the arguments after it. */
    const char *rest = NULL;
    const command *cmd = *dbg_skip_ws(before) ? dbg_command_lookup(d, before, &rest) : NULL;
    char typed[256];
    snprintf(typed, sizeof typed, "%s", before);
    for (size_t n = strlen(typed); n && (typed[n - 1] == ' ' || typed[n - 1] == '\t');)
        typed[--n] = 0;
    if (cmd && rest && !*dbg_skip_ws(rest))
        snprintf(typed, sizeof typed, "%s", cmd->name);
    command_words(d, &c, dbg_skip_ws(typed)); /* "info " -> registers, devices ... */
    if (!cmd || !rest)
        return 0;
    /* Which argument is it, and what came just before it? */
    unsigned k = 0;
    char prev[64] = "";
    for (const char *s = dbg_skip_ws(rest); *s; k++)
        s = dbg_next_word(s, prev, sizeof prev);
    strbuf spec;
    sb_init(&spec);
    kinds_of(cmd, &spec);
    char kind[160];
    int rc = 0;
    if (spec_kind(spec.s ? spec.s : "", k, kind, sizeof kind) && strcmp(kind, "-"))
        rc = argument(d, &c, kind, prev);
    sb_free(&spec);
    return rc;
}
