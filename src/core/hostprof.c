/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host time by section: see hostprof.h. */
#include "core/hostprof.h"

#include <stdio.h>
#include <time.h>

#define MAX_ENTRIES 512
#define MAX_DEPTH 32
#define HASH_SLOTS 1024 /* a power of two, more than twice MAX_ENTRIES */

bool hostprof_on;

static hostprof_entry entries[MAX_ENTRIES];
static hostprof_entry shown[MAX_ENTRIES]; /* hostprof_entries(): times in ns */
static uint16_t slot[HASH_SLOTS];         /* index + 1 into entries; 0 = free */
static unsigned nentries;
static hostprof_entry *stack[MAX_DEPTH];
static unsigned depth, excess;
static uint64_t last; /* when the section on top of the stack last resumed */
static hostprof_entry overflow = {.kind = HP_NKINDS, .name = "(sections over 512)"};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The sections' clock.  On x86-64, the time-stamp counter (a few cycles,
 * where clock_gettime costs a few dozen instructions at every device access
 * and timer), turned into nanoseconds by its rate between hostprof_start
 * and the reading (constant on every x86-64 of the last 15 years:
 * constant_tsc); elsewhere, CLOCK_MONOTONIC itself. */
#if defined(__x86_64__)
static inline uint64_t ticks(void) { return __builtin_ia32_rdtsc(); }
#else
static inline uint64_t ticks(void) { return now_ns(); }
#endif
static uint64_t tick0, ns0; /* at hostprof_start */
static uint64_t tick1, ns1; /* at hostprof_stop, or 0 while on */

void hostprof_start(void)
{
    memset(entries, 0, sizeof entries);
    memset(slot, 0, sizeof slot);
    nentries = 0;
    depth = excess = 0;
    overflow.ns = overflow.calls = 0;
    ns0 = now_ns();
    tick0 = ticks();
    tick1 = ns1 = 0;
    hostprof_on = true;
}

void hostprof_stop(void)
{
    /* Sections still open (a stop from a breakpoint's commands) end now. */
    excess = 0;
    while (depth)
        hostprof_leave();
    if (hostprof_on) {
        tick1 = ticks();
        ns1 = now_ns();
    }
    hostprof_on = false;
}

static hostprof_entry *lookup(const void *key, int kind, const char *name)
{
    unsigned h = (unsigned)((((uintptr_t)key ^ (uintptr_t)kind) * 0x9e3779b97f4a7c15ull) >> 54) &
                 (HASH_SLOTS - 1);
    for (; slot[h]; h = (h + 1) & (HASH_SLOTS - 1)) {
        hostprof_entry *e = &entries[slot[h] - 1];
        if (e->key == key && e->kind == kind)
            return e;
    }
    if (nentries == MAX_ENTRIES)
        return &overflow;
    hostprof_entry *e = &entries[nentries++];
    slot[h] = (uint16_t)nentries;
    e->key = key;
    e->kind = kind;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "?");
    return e;
}

void hostprof_enter(const void *key, int kind, const char *name)
{
    uint64_t t = ticks();
    if (depth)
        stack[depth - 1]->ns += t - last;
    last = t;
    if (depth == MAX_DEPTH) { /* (nesting this deep does not happen) */
        excess++;
        return;
    }
    hostprof_entry *e = lookup(key, kind, name);
    e->calls++;
    stack[depth++] = e;
}

void hostprof_leave(void)
{
    if (excess) {
        excess--;
        return;
    }
    if (!depth)
        return; /* measuring started inside the section */
    uint64_t t = ticks();
    stack[depth - 1]->ns += t - last;
    depth--;
    last = t;
}

unsigned hostprof_entries(const hostprof_entry **e)
{
    /* entries[].ns holds clock ticks: nanoseconds at the clock's rate
     * from hostprof_start to its stop (or to now, while measuring). */
    uint64_t t1 = tick1, n1 = ns1;
    if (!t1) {
        t1 = ticks();
        n1 = now_ns();
    }
    double ns_per_tick = t1 > tick0 ? (double)(n1 - ns0) / (double)(t1 - tick0) : 1.0;
    for (unsigned i = 0; i < nentries; i++) {
        shown[i] = entries[i];
        shown[i].ns = (uint64_t)((double)entries[i].ns * ns_per_tick + 0.5);
    }
    *e = shown;
    return nentries;
}

void hostprof_label(const hostprof_entry *e, char *buf, size_t len)
{
    switch (e->kind) {
    case HP_RUN: snprintf(buf, len, "run loop (turns, scheduling)"); break;
    case HP_CPU: snprintf(buf, len, "%s: guest instructions", e->name); break;
    case HP_REGS: snprintf(buf, len, "%s registers", e->name); break;
    case HP_TIMER: snprintf(buf, len, "timer %s", e->name); break;
    case HP_DMA_WORD: snprintf(buf, len, "DMA per-word %s", e->name); break;
    case HP_DMA_BULK: snprintf(buf, len, "DMA bulk %s", e->name); break;
    case HP_NET_IO: snprintf(buf, len, "%s host network I/O", e->name); break;
    case HP_CONSOLE: snprintf(buf, len, "console (host side)"); break;
    default: snprintf(buf, len, "%s", e->name); break;
    }
}
