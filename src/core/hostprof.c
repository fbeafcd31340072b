/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host time by section: see hostprof.h. */
#include "core/hostprof.h"

#include <stdio.h>
#include <time.h>

#define MAX_ENTRIES 512
#define MAX_DEPTH 32

bool hostprof_on;

static hostprof_entry entries[MAX_ENTRIES];
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

void hostprof_start(void)
{
    memset(entries, 0, sizeof entries);
    nentries = 0;
    depth = excess = 0;
    overflow.ns = overflow.calls = 0;
    hostprof_on = true;
}

void hostprof_stop(void)
{
    /* Sections still open (a stop from a breakpoint's commands) end now. */
    excess = 0;
    while (depth)
        hostprof_leave();
    hostprof_on = false;
}

static hostprof_entry *lookup(const void *key, int kind, const char *name)
{
    for (unsigned i = 0; i < nentries; i++)
        if (entries[i].key == key && entries[i].kind == kind)
            return &entries[i];
    if (nentries == MAX_ENTRIES)
        return &overflow;
    hostprof_entry *e = &entries[nentries++];
    e->key = key;
    e->kind = kind;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "?");
    return e;
}

void hostprof_enter(const void *key, int kind, const char *name)
{
    uint64_t t = now_ns();
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
    uint64_t t = now_ns();
    stack[depth - 1]->ns += t - last;
    depth--;
    last = t;
}

unsigned hostprof_entries(const hostprof_entry **e)
{
    *e = entries;
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
