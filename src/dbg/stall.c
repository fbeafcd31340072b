/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stall detector: `watch stall NIC` samples the NIC's rings on the
 * virtual clock (through the device class's ring_state hook) and stops
 * when a ring has held work the host posted while the device sat idle, or
 * has held completions the host did not reclaim, for longer than a limit
 * (the Hamachi DescIntr story: no Tx interrupt, so the driver never
 * reclaims, and transmit stalls).  The device says how long each condition
 * has lasted; sampling every limit/4 bounds how late the stop comes. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

#define MAX_RINGS 4
#define DEFAULT_LIMIT_NS 10000000ull /* 10 ms of virtual time */

typedef struct ringwatch {
    char name[32];
    bool idle_fired; /* reported this idle spell already */
    int done_fired;  /* oldest unreclaimed index reported (-2 = none) */
} ringwatch;

typedef struct stallpriv {
    dbg *d;
    bpoint *bp;
    device *dev;
    ringwatch rings[MAX_RINGS];
    unsigned nrings;
    uint64_t limit, period;
    timer t;
} stallpriv;

/* What a stall watch's condition sees. */
static const event_field stall_fields[] = {
    {"posted", EVF_BOOL, NULL, NULL},           {"idle", EVF_BOOL, NULL, NULL},
    {"idle_ticks", EVF_DEC, NULL, NULL},        {"unreclaimed", EVF_DEC, NULL, NULL},
    {"unreclaimed_ticks", EVF_DEC, NULL, NULL}, {"oldest", EVF_DEC, NULL, NULL},
};
static const cond_fields stall_cond = {"a stall watch", stall_fields, ARRAY_SIZE(stall_fields)};

/* Report a stall if the breakpoint's condition holds; false if not (the
 * next sample asks again). */
static bool fire(stallpriv *p, ringwatch *r, const ring_state *st, bool idle)
{
    dbg *d = p->d;
    bpoint *b = p->bp;
    uint64_t vals[] = {st->posted,
                       st->idle,
                       st->idle_ticks,
                       st->unreclaimed,
                       st->unreclaimed_ticks,
                       (uint64_t)(int64_t)st->oldest_index};
    eval_scope sc = {NULL, NULL, vals, ARRAY_SIZE(vals), &stall_cond};
    strbuf t;
    if (!bp_report_begin(d, b, &sc, "Stall watch", &t))
        return false;
    char tb[32];
    sb_printf(&t, "%s %s: ", p->dev->name, r->name);
    if (idle) {
        dbg_format_time(st->idle_ticks, d->m->clock.hz, tb, sizeof tb);
        sb_printf(&t, "the host posted work, but the device has been idle for %s (virtual)\n", tb);
    } else {
        dbg_format_time(st->unreclaimed_ticks, d->m->clock.hz, tb, sizeof tb);
        sb_printf(&t,
                  "%u completed descriptor%s not reclaimed by the host, the oldest "
                  "(entry %d) for %s (virtual)\n",
                  st->unreclaimed, st->unreclaimed == 1 ? "" : "s", st->oldest_index, tb);
    }
    if (bp_hit(d, b, t.s, &sc))
        dbg_request_stop(d);
    sb_free(&t);
    return true;
}

static void sample(void *opaque)
{
    stallpriv *p = opaque;
    bpoint *b = p->bp;
    sched *clk = &p->d->m->clock;
    if (!b->armed || b->doomed)
        return;
    for (unsigned i = 0; i < p->nrings; i++) {
        ringwatch *r = &p->rings[i];
        ring_state st;
        if (p->dev->cls->ring_state(p->dev, r->name, &st) != 0)
            continue;
        bool stalled = ring_stalled(&st);
        if (!stalled)
            r->idle_fired = false;
        else if (!r->idle_fired && st.idle_ticks >= p->limit)
            r->idle_fired = fire(p, r, &st, true);
        if (!st.unreclaimed)
            r->done_fired = -2;
        else if (r->done_fired != st.oldest_index && st.unreclaimed_ticks >= p->limit &&
                 fire(p, r, &st, false))
            r->done_fired = st.oldest_index; /* again only when the oldest one changes */
    }
    if (b->armed && !b->doomed)
        timer_mod(clk, &p->t, clk->now + p->period);
}

static int stall_arm(dbg *d, bpoint *b)
{
    stallpriv *p = b->priv;
    p->bp = b;
    for (unsigned i = 0; i < p->nrings; i++) {
        p->rings[i].idle_fired = false;
        p->rings[i].done_fired = -2;
    }
    timer_init(&p->t, "debugger stall watch", sample, p);
    timer_mod(&d->m->clock, &p->t, d->m->clock.now + p->period);
    return 0;
}

static void stall_disarm(dbg *d, bpoint *b)
{
    stallpriv *p = b->priv;
    timer_del(&d->m->clock, &p->t);
}

static void stall_describe(dbg *d, const bpoint *b, strbuf *out)
{
    const stallpriv *p = b->priv;
    char tb[32];
    dbg_format_time(p->limit, d->m->clock.hz, tb, sizeof tb);
    sb_printf(out, "stall %s", p->dev->name);
    for (unsigned i = 0; i < p->nrings; i++)
        sb_printf(out, "%c%s", i ? ',' : ' ', p->rings[i].name);
    sb_printf(out, " for %s", tb);
}

static void stall_free(bpoint *b) { free(b->priv); }

static const bp_ops stall_ops = {"stall watch", stall_arm,   stall_disarm, stall_describe,
                                 stall_free,    &stall_cond, NULL};

static int cmd_watch_stall(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0], *rest = a->text[1];
    device *dev = machine_find_device(d->m, name);
    if (!dev)
        return dbg_error(d, "No device named \"%s\" (see \"info devices\").", name);
    if (!dev->cls->ring_state)
        return dbg_error(d,
                         "%s does not report the state of its rings: no stall detection "
                         "for it.",
                         name);
    stallpriv *p = xcalloc(1, sizeof *p);
    p->d = d;
    p->dev = dev;
    p->limit = sched_ns_to_ticks(&d->m->clock, DEFAULT_LIMIT_NS);
    char w[32];
    while (*rest) {
        const char *next = dbg_next_word(rest, w, sizeof w);
        ring_state st;
        uint64_t t;
        int tk = dbg_parse_time(w, d->m->clock.hz, &t);
        if (tk == 0 && t) {
            p->limit = t;
        } else if (tk == 0) {
            free(p);
            return dbg_error(d, "watch stall: a time of %s makes no sense (want more than 0).", w);
        } else if (tk == -2) {
            free(p);
            return dbg_error(d,
                             "watch stall: %s is shorter than one tick of the machine's "
                             "clock (%.1f ns at %llu MHz): give a longer time.",
                             w, 1e9 / (double)d->m->clock.hz,
                             (unsigned long long)(d->m->clock.hz / 1000000));
        } else if (dev->cls->ring_state(dev, w, &st) == 0 && p->nrings < MAX_RINGS) {
            snprintf(p->rings[p->nrings++].name, sizeof p->rings[0].name, "%s", w);
        } else {
            free(p);
            return dbg_error(d,
                             "watch stall: \"%s\" is neither a ring of %s nor a time "
                             "(a number with a unit: ns, us, ms or s, as in 500us; or "
                             "clock ticks).",
                             w, name);
        }
        rest = next;
    }
    if (!p->nrings) { /* every ring it has of the usual ones */
        static const char *const usual[] = {"tx", "rx", "request", "response"};
        for (unsigned i = 0; i < ARRAY_SIZE(usual); i++) {
            ring_state st;
            if (dev->cls->ring_state(dev, usual[i], &st) == 0)
                snprintf(p->rings[p->nrings++].name, sizeof p->rings[0].name, "%s", usual[i]);
        }
    }
    if (!p->nrings) {
        free(p);
        return dbg_error(d, "watch stall: %s has no tx, rx, request or response ring; name one.",
                         name);
    }
    p->period = p->limit / 4 ? p->limit / 4 : 1;
    return bp_announce(d, bp_create(d, &stall_ops, p, 0, a->cond), "Stall watch");
}

#include "dbg/stall.cmds.h"

const dbg_module dbg_stall_module = {
    .name = "stall",
    .commands = DBG_COMMANDS("Breakpoints", stall_commands),
};
