/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/sched.h"

#include "core/hostprof.h"

#include <time.h>

void sched_init(sched *s, uint64_t hz)
{
    memset(s, 0, sizeof *s);
    s->hz = hz ? hz : XBOW_CPU_HZ;
}

void timer_init(timer *t, const char *name, void (*fn)(void *), void *opaque)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->fn = fn;
    t->opaque = opaque;
}

void timer_del(sched *s, timer *t)
{
    if (!t->pending)
        return;
    for (timer **pp = &s->head; *pp; pp = &(*pp)->next) {
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    }
    t->pending = false;
    t->next = NULL;
}

void timer_mod(sched *s, timer *t, uint64_t when)
{
    timer_del(s, t);
    if (when < s->now)
        when = s->now;
    t->when = when;
    t->seq = s->seq++;
    timer **pp = &s->head;
    while (*pp && ((*pp)->when < when || ((*pp)->when == when && (*pp)->seq < t->seq)))
        pp = &(*pp)->next;
    t->next = *pp;
    *pp = t;
    t->pending = true;
    if (when < s->horizon && s->earlier)
        s->earlier(s->earlier_ctx, when);
}

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sched_idle_pace(sched *s, uint64_t max_ns)
{
    if (!s->idle) {
        s->pace_host_ns = 0;
        return 0;
    }
    uint64_t host = host_ns();
    if (!s->pace_host_ns || s->now < s->pace_now) {
        s->pace_host_ns = host;
        s->pace_now = s->now;
        return 0;
    }
    uint64_t due = s->pace_host_ns + sched_ticks_to_ns(s, s->now - s->pace_now);
    if (due <= host)
        return 0;
    return due - host < max_ns ? due - host : max_ns;
}

void timer_restore(sched *s, timer *t, uint64_t when, uint64_t seq)
{
    timer_del(s, t);
    t->when = when;
    t->seq = seq;
    timer **pp = &s->head;
    while (*pp && ((*pp)->when < when || ((*pp)->when == when && (*pp)->seq < seq)))
        pp = &(*pp)->next;
    t->next = *pp;
    *pp = t;
    t->pending = true;
}

void sched_run_due(sched *s)
{
    while (s->head && s->head->when <= s->now) {
        timer *t = s->head;
        s->head = t->next;
        t->next = NULL;
        t->pending = false;
        HOSTPROF_BEGIN(t->name, HP_TIMER, t->name);
        t->fn(t->opaque);
        HOSTPROF_END();
    }
}

void sched_run_until(sched *s, uint64_t until)
{
    while (sched_next(s) <= until) {
        if (sched_next(s) > s->now)
            s->now = sched_next(s);
        sched_run_due(s);
    }
    if (until > s->now)
        s->now = until;
}
