/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interrupt coalescing on the virtual clock.  See nic_coalesce.h. */
#include "dev/nic/nic_coalesce.h"

static void do_fire(nic_coal *c, int reason)
{
    nic *n = c->n;
    uint64_t now = nic_now(n);
    if (c->min_ival && c->fired_once && now < c->last_fire + c->min_ival) {
        if (c->deferred < 0)
            c->deferred = reason;
        timer_mod(n->clock, &c->ival_t, c->last_fire + c->min_ival);
        return;
    }
    unsigned pending = c->pending;
    uint64_t waited = pending ? now - c->first : 0;
    c->pending = 0;
    c->deferred = -1;
    timer_del(n->clock, &c->gap_t);
    timer_del(n->clock, &c->lat_t);
    timer_del(n->clock, &c->ival_t);
    c->last_fire = now;
    c->fired_once = true;
    c->fires[reason]++;
    EVENT_EMIT(nic_ev(n, NIC_EV_COAL_FIRE), nic_initiator(n), (uint64_t)c->ring, (uint64_t)reason,
               pending, waited);
    c->fire(n, c->ring);
}

static void gap_expired(void *opaque)
{
    nic_coal *c = opaque;
    if (c->pending)
        do_fire(c, NIC_COAL_GAP);
}

static void lat_expired(void *opaque)
{
    nic_coal *c = opaque;
    if (c->pending)
        do_fire(c, NIC_COAL_LATENCY);
}

static void ival_expired(void *opaque)
{
    nic_coal *c = opaque;
    if (c->pending && c->deferred >= 0)
        do_fire(c, c->deferred);
}

void nic_coal_init(nic_coal *c, nic *n, int ring, void (*fire)(nic *n, int ring))
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->ring = ring;
    c->fire = fire;
    c->deferred = -1;
    timer_init(&c->gap_t, "nic-coal-gap", gap_expired, c);
    timer_init(&c->lat_t, "nic-coal-latency", lat_expired, c);
    timer_init(&c->ival_t, "nic-coal-interval", ival_expired, c);
    for (unsigned i = 0; i < n->ncoal; i++)
        if (n->coal[i] == c)
            return;
    if (nic_part(n, c) && n->ncoal < NIC_MAX_COAL)
        n->coal[n->ncoal++] = c;
}

void nic_coal_reset(nic_coal *c)
{
    sched *s = c->n->clock;
    timer_del(s, &c->gap_t);
    timer_del(s, &c->lat_t);
    timer_del(s, &c->ival_t);
    c->pending = 0;
    c->deferred = -1;
    c->fired_once = false;
}

void nic_coal_fini(nic_coal *c)
{
    if (c->n)
        nic_coal_reset(c);
}

static bool coalescing(const nic_coal *c) { return c->count || c->gap || c->latency; }

/* Decide with the current parameters whether pending work fires now, and
 * (re)arm the timers otherwise. */
static void evaluate(nic_coal *c)
{
    sched *s = c->n->clock;
    if (!c->pending)
        return;
    if (!coalescing(c)) {
        do_fire(c, NIC_COAL_IMMEDIATE);
        return;
    }
    if (c->count && c->pending >= c->count) {
        do_fire(c, NIC_COAL_COUNT);
        return;
    }
    if (c->deferred >= 0)
        return; /* already decided, waiting for min_ival */
    if (c->gap)
        timer_mod(s, &c->gap_t, c->last + c->gap);
    else
        timer_del(s, &c->gap_t);
    if (c->latency) {
        if (!timer_pending(&c->lat_t) || c->lat_t.when != c->first + c->latency)
            timer_mod(s, &c->lat_t, c->first + c->latency);
    } else {
        timer_del(s, &c->lat_t);
    }
}

void nic_coal_config(nic_coal *c, uint32_t count, uint64_t gap, uint64_t latency, uint64_t min_ival)
{
    c->count = count;
    c->gap = gap;
    c->latency = latency;
    c->min_ival = min_ival;
    evaluate(c);
}

void nic_coal_event(nic_coal *c)
{
    uint64_t now = nic_now(c->n);
    if (!c->pending)
        c->first = now;
    c->last = now;
    c->pending++;
    evaluate(c);
}

void nic_coal_flush(nic_coal *c)
{
    if (c->pending)
        do_fire(c, NIC_COAL_FORCED);
}

static const state_decl nic_coal_decls[] = {
    STATE_WIRING(nic_coal, n, "the NIC: nic_coal_init"),
    STATE_WIRING(nic_coal, fire, "the model's hook: nic_coal_init"),
    STATE_INT(nic_coal, count, "completions per interrupt"),
    STATE_INT(nic_coal, gap, "gap timeout (ticks)"),
    STATE_INT(nic_coal, latency, "latency bound (ticks)"),
    STATE_INT(nic_coal, min_ival, "minimum interval (ticks)"),
    STATE_INT(nic_coal, pending, "qualifying completions not yet signalled"),
    STATE_INT(nic_coal, first, "time of the first pending one"),
    STATE_INT(nic_coal, last, "time of the last pending one"),
    STATE_INT(nic_coal, last_fire, "time of the last interrupt"),
    STATE_BOOL(nic_coal, fired_once, "an interrupt was signalled"),
    STATE_INT(nic_coal, deferred, "reason waiting for min_ival, -1 = none"),
    STATE_TIMER(nic_coal, gap_t, "gap timeout"),
    STATE_TIMER(nic_coal, lat_t, "latency bound"),
    STATE_TIMER(nic_coal, ival_t, "minimum interval"),
    STATE_INTS(nic_coal, fires, "interrupts by reason"),
};
const state_table nic_coal_state = STATE_TABLE(nic_coal_decls, nic_coal);
