/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the host's time goes while the guest runs, by section: each CPU's
 * interpreter, each device's register accesses, each timer (device engines),
 * each PCI function's DMA (per word and bulk), host network backends, the
 * console.  The debugger's profiler (src/dbg/profile.c) turns it on and
 * reports it.
 *
 * Sections nest, and a section's time is its own: a DMA inside a NIC's
 * transmit timer counts for the DMA, not for the timer.  Time is host
 * monotonic time.  Off (the default), a section costs one test of
 * hostprof_on; on, two clock reads. */
#ifndef XBOW_HOSTPROF_H
#define XBOW_HOSTPROF_H

#include "core/common.h"

enum hostprof_kind {
    HP_RUN,      /* the machine's run loop itself (turns, scheduling) */
    HP_CPU,      /* a CPU's interpreter: guest instructions */
    HP_REGS,     /* a device's register accesses (name: the device) */
    HP_TIMER,    /* a timer's callback: device engines, host polls (name: the timer) */
    HP_DMA_WORD, /* per-word DMA of a PCI function (name: the function) */
    HP_DMA_BULK, /* bulk DMA of a PCI function */
    HP_NET_IO,   /* a NIC's host network backend: sends and reads (name: the NIC) */
    HP_CONSOLE,  /* the console's host side */
    HP_NKINDS
};

typedef struct hostprof_entry {
    const void *key;
    int kind;
    char name[32];
    uint64_t ns; /* time in the section itself */
    uint64_t calls;
} hostprof_entry;

extern bool hostprof_on;

/* Start (clearing what was measured) and stop measuring. */
void hostprof_start(void);
void hostprof_stop(void);
void hostprof_enter(const void *key, int kind, const char *name);
void hostprof_leave(void);
/* The sections measured since hostprof_start(), in no particular order. */
unsigned hostprof_entries(const hostprof_entry **e);
/* "DMA (bulk) e1000_0" */
void hostprof_label(const hostprof_entry *e, char *buf, size_t len);

/* A section in a function: HOSTPROF_BEGIN at its start, HOSTPROF_END on
 * the way out (one per scope). */
#define HOSTPROF_BEGIN(key, kind, name)        \
    bool hostprof_in_ = unlikely(hostprof_on); \
    if (hostprof_in_)                          \
    hostprof_enter((key), (kind), (name))
#define HOSTPROF_END()        \
    do {                      \
        if (hostprof_in_)     \
            hostprof_leave(); \
    } while (0)

#endif
