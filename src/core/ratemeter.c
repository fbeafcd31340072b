/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live rates over a sliding window in virtual and host time: see
 * ratemeter.h. */
#include <string.h>
#include <time.h>

#include "core/ratemeter.h"

uint64_t rate_host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void rate_init(rate_meter *r, uint64_t window_ticks)
{
    memset(r, 0, sizeof *r);
    r->window = window_ticks ? window_ticks : 1;
}

void rate_clear(rate_meter *r)
{
    r->head = r->count = 0;
    r->next = 0;
}

static rate_meter *meters;

void rate_register(rate_meter *r)
{
    if (r->registered)
        return;
    r->list_next = meters;
    meters = r;
    r->registered = true;
}

void rate_unregister(rate_meter *r)
{
    for (rate_meter **p = &meters; *p; p = &(*p)->list_next) {
        if (*p == r) {
            *p = r->list_next;
            break;
        }
    }
    r->registered = false;
}

void rate_pause_all(void)
{
    uint64_t now = rate_host_ns();
    for (rate_meter *r = meters; r; r = r->list_next)
        rate_pause(r, now);
}

void rate_resume_all(void)
{
    uint64_t now = rate_host_ns();
    for (rate_meter *r = meters; r; r = r->list_next)
        rate_resume(r, now);
}

void rate_sample_now(rate_meter *r, uint64_t vt, const uint64_t *v)
{
    if (r->count) {
        const rate_sample *last = &r->s[(r->head + r->count - 1) % (RATE_SLOTS + 1)];
        bool back = vt < last->vt;
        for (unsigned i = 0; i < RATE_NVALS; i++)
            back |= v[i] < last->v[i];
        if (back)
            rate_clear(r);
    }
    if (r->count == RATE_SLOTS + 1) {
        r->head = (r->head + 1) % (RATE_SLOTS + 1);
        r->count--;
    }
    rate_sample *s = &r->s[(r->head + r->count) % (RATE_SLOTS + 1)];
    s->vt = vt;
    s->host_ns = r->paused ? r->paused : rate_host_ns();
    memcpy(s->v, v, sizeof s->v);
    r->count++;
    uint64_t slot = r->window / RATE_SLOTS ? r->window / RATE_SLOTS : 1;
    r->next = vt + slot;
}

void rate_pause(rate_meter *r, uint64_t host_ns)
{
    if (!r->paused)
        r->paused = host_ns ? host_ns : 1;
}

void rate_resume(rate_meter *r, uint64_t host_ns)
{
    if (!r->paused)
        return;
    /* The time stopped counts for neither end of the span. */
    uint64_t gap = host_ns > r->paused ? host_ns - r->paused : 0;
    for (unsigned i = 0; i < r->count; i++)
        r->s[(r->head + i) % (RATE_SLOTS + 1)].host_ns += gap;
    r->paused = 0;
}

void rate_read(const rate_meter *r, uint64_t vt, uint64_t hz, const uint64_t *cur, rate_result *out)
{
    memset(out, 0, sizeof *out);
    if (!r->count)
        return;
    /* The oldest sample inside the window, or the newest before it. */
    const rate_sample *base = NULL;
    uint64_t from = vt > r->window ? vt - r->window : 0;
    for (unsigned i = 0; i < r->count; i++) {
        const rate_sample *s = &r->s[(r->head + i) % (RATE_SLOTS + 1)];
        base = s;
        if (s->vt >= from)
            break;
    }
    if (vt < base->vt)
        return; /* virtual time went back: the next sample clears */
    for (unsigned i = 0; i < RATE_NVALS; i++)
        if (cur[i] < base->v[i])
            return;
    uint64_t host_now = r->paused ? r->paused : rate_host_ns();
    out->valid = true;
    out->vt_span = (double)(vt - base->vt) / (double)(hz ? hz : 1);
    out->host_span = host_now > base->host_ns ? (double)(host_now - base->host_ns) / 1e9 : 0;
    for (unsigned i = 0; i < RATE_NVALS; i++) {
        double d = (double)(cur[i] - base->v[i]);
        out->per_vt[i] = out->vt_span > 0 ? d / out->vt_span : 0;
        out->per_host[i] = out->host_span > 0 ? d / out->host_span : -1;
    }
}
