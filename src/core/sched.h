/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Virtual time and the device scheduler.
 *
 * Time is counted in ticks, one per instruction a CPU executes and one per
 * exception it takes (the Origin 200's R10000 ran at 180 MHz: 180 million
 * ticks per virtual second); `now` is the running CPU's own clock, and
 * between turns the time every CPU has reached (src/machine/machine.c).
 * Devices schedule callbacks on that clock.  Timers due at the same tick
 * fire in the order they were armed, so two runs with the same inputs are
 * identical. */
#ifndef XBOW_SCHED_H
#define XBOW_SCHED_H

#include "core/common.h"

#define XBOW_CPU_HZ 180000000ull

typedef struct timer {
    uint64_t when;
    uint64_t seq;
    void (*fn)(void *opaque);
    void *opaque;
    const char *name;
    struct timer *next;
    bool pending;
} timer;

typedef struct sched {
    uint64_t now; /* current virtual time in ticks */
    uint64_t hz;  /* ticks per virtual second */
    timer *head;  /* pending timers sorted by (when, seq) */
    uint64_t seq;
    /* Whoever runs ahead of the timers (a CPU running up to `horizon`)
     * asks to hear about a timer armed before that point: a device that
     * arms one from a register access (a doorbell, an MDIO command) must
     * not wait for the end of the CPU's run.  0 = nobody. */
    uint64_t horizon;
    void (*earlier)(void *ctx, uint64_t when);
    void *earlier_ctx;
    /* Set by the run loop for the turn whose timers fire next: every CPU
     * waited through it (idle skip), so nothing but a timer or the host
     * could have ended it.  A host network backend then lets virtual time
     * pass no faster than host time (src/net/port.c, sched_idle_pace). */
    bool idle;
    uint64_t pace_host_ns, pace_now; /* where the idle stretch began; 0: none */
    /* The record/replay session of the machine's outside inputs (core/rr.h),
     * NULL when there is none: every input point has the clock. */
    struct rr *rr;
    /* Counters the debugger's history (src/dbg/history.c) watches: inputs
     * from outside taken by the machine (host network frames and link
     * changes, console bytes: chardev_inputs adds those), and changes the
     * debugger made to the machine (machine_outside_change). */
    uint64_t inputs, changes;
    /* The history's log of those inputs (core/rr.h, rr_log), NULL while the
     * history is off; host network ports are numbered in it (host_ports). */
    struct rr_log *hist;
    unsigned host_ports;
} sched;

void sched_init(sched *s, uint64_t hz);
void timer_init(timer *t, const char *name, void (*fn)(void *), void *opaque);
/* Arm (or re-arm) t to fire at absolute time `when` (clamped to now). */
void timer_mod(sched *s, timer *t, uint64_t when);
void timer_del(sched *s, timer *t);
/* Put t back as a snapshot had it: pending at `when`, in arming order
 * `seq` (neither clamped nor renumbered; s->seq is the snapshot's too). */
void timer_restore(sched *s, timer *t, uint64_t when, uint64_t seq);
static inline bool timer_pending(const timer *t) { return t->pending; }
/* Time of the earliest pending timer, UINT64_MAX if none. */
static inline uint64_t sched_next(const sched *s) { return s->head ? s->head->when : UINT64_MAX; }
/* While the CPUs are idle (s->idle): how many nanoseconds of host time
 * must still pass for virtual time not to be ahead of host time since the
 * idle stretch began (capped at max_ns); 0 otherwise.  Host time is
 * CLOCK_MONOTONIC. */
uint64_t sched_idle_pace(sched *s, uint64_t max_ns);
/* Fire every timer due at or before `now` (s->now is left at max(now, s->now)). */
void sched_run_due(sched *s);
/* Advance virtual time to `until`, firing every timer due on the way at its
 * own time, in order (a clock with nothing else running: the device unit
 * tests); now is left at max(now, until). */
void sched_run_until(sched *s, uint64_t until);

static inline uint64_t sched_ns_to_ticks(const sched *s, uint64_t ns)
{
    return (uint64_t)((unsigned __int128)ns * s->hz / 1000000000ull);
}
static inline uint64_t sched_ticks_to_ns(const sched *s, uint64_t t)
{
    return (uint64_t)((unsigned __int128)t * 1000000000ull / s->hz);
}

#endif
