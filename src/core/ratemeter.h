/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live rates of a few counters over a sliding window, in guest (virtual)
 * time and in host time.
 *
 * The owner calls rate_tick() where its counters change (a NIC: each frame);
 * it takes a sample (the counters, virtual time, host time) when at least a
 * slot of virtual time (window / RATE_SLOTS) has passed since the last one,
 * and costs one comparison otherwise, so the guest's run never depends on it.
 * rate_read() gives the rates over the span from the oldest sample inside
 * the window (the newest one before it if none is) to now: per second of
 * virtual time, a function of the run alone; and per second of host time,
 * the time the machine spent running (rate_pause/rate_resume take out the
 * time it was stopped).  Host time is CLOCK_MONOTONIC. */
#ifndef XBOW_RATEMETER_H
#define XBOW_RATEMETER_H

#include "core/common.h"

#define RATE_SLOTS 16
#define RATE_NVALS 4

typedef struct rate_sample {
    uint64_t vt, host_ns;
    uint64_t v[RATE_NVALS];
} rate_sample;

typedef struct rate_meter {
    uint64_t window; /* virtual ticks */
    uint64_t next;   /* virtual time of the next sample */
    uint64_t paused; /* host ns the machine stopped at; 0 = running */
    unsigned head, count;
    rate_sample s[RATE_SLOTS + 1];
    struct rate_meter *list_next; /* rate_register's list */
    bool registered;
} rate_meter;

/* What rate_read() gives: per second of each time base over the span. */
typedef struct rate_result {
    bool valid;                  /* false: no sample yet */
    double vt_span, host_span;   /* seconds */
    double per_vt[RATE_NVALS];   /* per virtual second */
    double per_host[RATE_NVALS]; /* per host second; < 0: no host time */
} rate_result;

uint64_t rate_host_ns(void);
void rate_init(rate_meter *r, uint64_t window_ticks);
/* Forget every sample (counters or virtual time went back: a reset, a
 * snapshot restored). */
void rate_clear(rate_meter *r);
void rate_sample_now(rate_meter *r, uint64_t vt, const uint64_t *v);
static inline void rate_tick(rate_meter *r, uint64_t vt, const uint64_t *v)
{
    if (unlikely(vt >= r->next))
        rate_sample_now(r, vt, v);
}
/* The machine stopped (the debugger has it) / runs again. */
void rate_pause(rate_meter *r, uint64_t host_ns);
void rate_resume(rate_meter *r, uint64_t host_ns);
/* The meters of the process (a NIC registers its own), so that the debugger
 * can pause and resume them all without knowing their owners. */
void rate_register(rate_meter *r);
void rate_unregister(rate_meter *r);
void rate_pause_all(void);
void rate_resume_all(void);
/* The rates at virtual time vt (hz ticks a second) with the counters cur. */
void rate_read(const rate_meter *r, uint64_t vt, uint64_t hz, const uint64_t *cur,
               rate_result *out);

#endif
