/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Breakpoints on what devices and CPUs publish: `break event NAME` is a
 * subscription on the event bus with a condition over the event's named
 * fields; `break reg DEV.REG[.FIELD]` subscribes to the device's built-in
 * reg.write event and reports the register's fields before and after. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

enum reg_match { RM_ANY, RM_CHANGES, RM_EQUALS };

typedef struct evpriv {
    dbg *d;
    char pattern[112]; /* what the subscription matches */
    char name[104];    /* as the user wrote it */
    int sub;
    /* break reg */
    dev_ref ref;
    char regname[96];
    enum reg_match mode;
    uint64_t value;
} evpriv;

static void ev_text_header(dbg *d, const event *ev, strbuf *t)
{
    char tb[32];
    dbg_format_time(ev->time, d->m->clock.hz, tb, sizeof tb);
    sb_printf(t, " (t=%llu, %s", (unsigned long long)ev->time, tb);
    if (ev->initiator >= 0) {
        sb_puts(t, ", by ");
        dbg_describe_initiator(d, ev->initiator, t);
    }
    sb_puts(t, ")\n");
}

static void on_event(void *ctx, const event *ev)
{
    bpoint *b = ctx;
    evpriv *p = b->priv;
    dbg *d = p->d;
    if (!b->enabled || b->doomed)
        return;
    eval_scope sc = {ev, NULL, NULL, 0, NULL};
    strbuf t;
    if (!bp_report_begin(d, b, &sc, "Event breakpoint", &t))
        return;
    event_format(ev, &t);
    ev_text_header(d, ev, &t);
    if (bp_hit(d, b, t.s, &sc))
        dbg_request_stop(d);
    sb_free(&t);
}

static int ev_arm(dbg *d, bpoint *b)
{
    evpriv *p = b->priv;
    p->sub = event_subscribe_glob(&d->m->events, p->pattern, on_event, b);
    if (!p->sub)
        return dbg_error(d, "No event \"%s\" (see \"info events\").", p->name);
    return 0;
}

static void ev_disarm(dbg *d, bpoint *b)
{
    evpriv *p = b->priv;
    if (p->sub)
        event_unsubscribe(&d->m->events, p->sub);
    p->sub = 0;
}

static void ev_describe(dbg *d, const bpoint *b, strbuf *out)
{
    const evpriv *p = b->priv;
    sb_puts(out, p->name);
}

static void ev_free(bpoint *b) { free(b->priv); }

static const bp_ops event_ops = {"event", ev_arm, ev_disarm, ev_describe, ev_free, NULL, NULL};

/* Every name in a condition must mean something for the first matching
 * event: a field, a value name, a symbol or a device register. */
static int check_cond(dbg *d, const event_src *src, const char *cond)
{
    cond_fields cf = {src->name, src->decl->fields, src->decl->nfields};
    return bp_check_cond(d, cond, &cf);
}

static const event_src *first_match(dbg *d, const char *pattern)
{
    event_bus *eb = &d->m->events;
    for (unsigned i = 0; i < eb->nsrcs; i++)
        if (glob_match(pattern, eb->srcs[i]->name))
            return eb->srcs[i];
    return NULL;
}

void dbg_event_pattern(const char *name, char *out, size_t len)
{
    if (!strncmp(name, "cpu.", 4))
        snprintf(out, len, "cpu*.%s", name + 4);
    else
        snprintf(out, len, "%s", name);
}

static int cmd_break_event(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0];
    evpriv *p = xcalloc(1, sizeof *p);
    p->d = d;
    snprintf(p->name, sizeof p->name, "%s", name);
    dbg_event_pattern(name, p->pattern, sizeof p->pattern);
    const event_src *src = first_match(d, p->pattern);
    if (!src) {
        free(p);
        return dbg_error(d, "No event \"%s\" (see \"info events\").", name);
    }
    if (check_cond(d, src, a->cond)) {
        free(p);
        return -1;
    }
    return bp_announce(d, bp_create(d, &event_ops, p, 0, a->cond), "Event breakpoint");
}

/* ---- break reg ------------------------------------------------------------- */

static uint64_t field_of(const evpriv *p, uint64_t v)
{
    return p->ref.field ? EXTRACT(v, p->ref.field->lsb, p->ref.field->width) : v;
}

static void on_reg_write(void *ctx, const event *ev)
{
    bpoint *b = ctx;
    evpriv *p = b->priv;
    dbg *d = p->d;
    if (!b->enabled || b->doomed || ev->nvals < 6 || ev->vals[0] != p->ref.id ||
        ev->vals[1] != p->ref.idx)
        return;
    uint64_t nv = ev->vals[3], ov = ev->vals[4];
    uint64_t fn = field_of(p, nv), fo = field_of(p, ov);
    if ((p->mode == RM_CHANGES && fn == fo) || (p->mode == RM_EQUALS && fn != p->value))
        return;
    static const char *const names[] = {"old", "new"};
    uint64_t vals[] = {fo, fn};
    eval_scope sc = {ev, names, vals, 2, NULL};
    strbuf t;
    if (!bp_report_begin(d, b, &sc, "Register breakpoint", &t))
        return;
    const reg_decl *rd = &p->ref.dev->cls->regs[p->ref.id];
    sb_printf(&t, "%s 0x%llx -> 0x%llx", p->regname, (unsigned long long)fo,
              (unsigned long long)fn);
    ev_text_header(d, ev, &t);
    sb_printf(&t, "  before: 0x%0*llx", rd->width * 2, (unsigned long long)ov);
    if (rd->fields) {
        sb_puts(&t, "  ");
        dev_format_fields(rd, ov, &t);
    }
    sb_printf(&t, "\n  after:  0x%0*llx", rd->width * 2, (unsigned long long)nv);
    if (rd->fields) {
        sb_puts(&t, "  ");
        dev_format_fields(rd, nv, &t);
    }
    sb_putc(&t, '\n');
    if (bp_hit(d, b, t.s, &sc))
        dbg_request_stop(d);
    sb_free(&t);
}

static int reg_arm(dbg *d, bpoint *b)
{
    evpriv *p = b->priv;
    event_src *src = event_find(&d->m->events, p->pattern);
    p->sub = src ? event_subscribe(src, on_reg_write, b) : 0;
    if (!p->sub)
        return dbg_error(d, "%s publishes no register writes.", p->ref.dev->name);
    return 0;
}

static void reg_describe(dbg *d, const bpoint *b, strbuf *out)
{
    const evpriv *p = b->priv;
    sb_puts(out, p->regname);
    if (p->mode == RM_CHANGES)
        sb_puts(out, " changes");
    else if (p->mode == RM_EQUALS)
        sb_printf(out, " == 0x%llx", (unsigned long long)p->value);
}

/* A register breakpoint's condition: the field (or register) before and
 * after, and the fields of the DEVICE.reg.write event. */
static const event_field reg_fields[] = {
    {"old", EVF_HEX, NULL, NULL},  {"new", EVF_HEX, NULL, NULL},    {"reg", EVF_DEC, NULL, NULL},
    {"idx", EVF_DEC, NULL, NULL},  {"offset", EVF_HEX, NULL, NULL}, {"value", EVF_HEX, NULL, NULL},
    {"size", EVF_DEC, NULL, NULL},
};
static const cond_fields reg_cond = {"a register breakpoint", reg_fields, ARRAY_SIZE(reg_fields)};
static const bp_ops reg_ops = {"register", reg_arm,   ev_disarm, reg_describe,
                               ev_free,    &reg_cond, NULL};

static int cmd_break_reg(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0], *rest = a->text[1];
    evpriv *p = xcalloc(1, sizeof *p);
    p->d = d;
    xerr err;
    int k = dbg_dev_ref(d, name, &p->ref, &err);
    if (k <= 0) {
        free(p);
        if (k == 0)
            return dbg_error(d,
                             "No device register \"%s\" (want DEVICE.REGISTER[.FIELD]; "
                             "see \"info devices\").",
                             name);
        return dbg_error(d, "%s", err.msg);
    }
    char rn[48];
    dev_reg_name(p->ref.dev, p->ref.id, p->ref.idx, rn, sizeof rn);
    snprintf(p->regname, sizeof p->regname, "%s.%s%s%s", p->ref.dev->name, rn,
             p->ref.field ? "." : "", p->ref.field ? p->ref.field->name : "");
    snprintf(p->name, sizeof p->name, "%s", p->regname);
    snprintf(p->pattern, sizeof p->pattern, "%s.reg.write", p->ref.dev->name);
    if (!strncmp(rest, "changes", 7) && (!rest[7] || rest[7] == ' ')) {
        p->mode = RM_CHANGES;
        rest = dbg_skip_ws(rest + 7);
    } else if (!strncmp(rest, "==", 2)) {
        xval v;
        const char *end;
        if (dbg_eval_prefix(d, rest + 2, &end, &v)) {
            free(p);
            return -1;
        }
        p->mode = RM_EQUALS;
        p->value = v.v;
        rest = dbg_skip_ws(end);
    }
    if (*rest) {
        free(p);
        return dbg_error(d,
                         "break reg: want \"changes\", \"== VALUE\" or \"if COND\", not "
                         "\"%s\".",
                         rest);
    }
    return bp_announce(d, bp_create(d, &reg_ops, p, 0, a->cond), "Register breakpoint");
}

#include "dbg/evbreak.cmds.h"

const dbg_module dbg_evbreak_module = {
    .name = "evbreak",
    .commands = DBG_COMMANDS("Breakpoints", evbreak_commands),
};
