/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One host thread per CPU (the machine's --threads, src/machine/threads.c):
 * what the CPU needs for it.
 *
 * A threaded CPU has a clock of its own (c->own_clock: its virtual time),
 * a group of its own (decoded pages and translated code: only its thread
 * touches them) and does LL/SC with a host compare-and-swap (mem.c).  While
 * its thread runs it (c->live), no other thread touches its state: they
 * post what they would have done (an interrupt line, a soft-TLB flush, a
 * decoded page dropped) and kick it; cpu_run's outer loop applies the posts
 * before it executes again, so a post takes effect within the block the
 * CPU was running when it came. */
#include "cpu/cpu_internal.h"
#include "cpu/jit.h"

_Thread_local cpu *cpu_self;

void cpu_set_threaded(cpu *c)
{
    if (c->threaded)
        return;
    c->threaded = true;
    pthread_mutex_init(&c->rq_mu, NULL);
    c->rq_until = UINT64_MAX;
    sched_init(&c->own_clock, c->clock->hz);
    c->own_clock.now = c->clock->now;
    c->clock = &c->own_clock;
    cpu_group_own(c);
}

bool cpu_threaded(const cpu *c) { return c->threaded; }
sched *cpu_clock(cpu *c) { return c->clock; }

void cpu_thread_enter(cpu *c) { cpu_self = c; }

void cpu_set_live(cpu *c, bool live, void (*kick)(void *ctx, cpu *c), void *ctx)
{
    c->kick_fn = kick;
    c->kick_ctx = ctx;
    __atomic_store_n(&c->live, live, __ATOMIC_SEQ_CST);
}

bool cpu_running(const cpu *c) { return c->running; }

bool cpu_has_posts(const cpu *c) { return __atomic_load_n(&c->rq_pending, __ATOMIC_ACQUIRE); }

static void posted(cpu *c)
{
    __atomic_store_n(&c->rq_pending, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&c->rq_mu);
    cpu_kick(c);
    if (c->kick_fn)
        c->kick_fn(c->kick_ctx, c);
}

void cpu_post_irq(cpu *c, int ip, bool level)
{
    pthread_mutex_lock(&c->rq_mu);
    c->rq_irq_mask |= (uint8_t)(1u << ip);
    if (level)
        c->rq_irq_val |= (uint8_t)(1u << ip);
    else
        c->rq_irq_val &= (uint8_t) ~(1u << ip);
    posted(c);
}

void cpu_post_flush(cpu *c)
{
    pthread_mutex_lock(&c->rq_mu);
    c->rq_flush = true;
    posted(c);
}

void cpu_post_code_written(cpu *c, ram_block *rb, uint64_t page)
{
    pthread_mutex_lock(&c->rq_mu);
    if (c->rq_ncode < ARRAY_SIZE(c->rq_code)) {
        c->rq_code[c->rq_ncode].rb = rb;
        c->rq_code[c->rq_ncode++].page = page;
    } else {
        c->rq_code_all = true;
    }
    posted(c);
}

void cpu_post_until(cpu *c, uint64_t t)
{
    pthread_mutex_lock(&c->rq_mu);
    if (t < c->rq_until)
        c->rq_until = t;
    posted(c);
}

void cpu_take_posted(cpu *c)
{
    if (!c->threaded || !__atomic_load_n(&c->rq_pending, __ATOMIC_ACQUIRE))
        return;
    pthread_mutex_lock(&c->rq_mu);
    uint8_t mask = c->rq_irq_mask, val = c->rq_irq_val;
    bool flush = c->rq_flush, all = c->rq_code_all;
    if (c->rq_until < c->until)
        c->until = c->rq_until; /* (cpu_run reads it back) */
    c->rq_until = UINT64_MAX;
    unsigned n = c->rq_ncode;
    __typeof__(c->rq_code) code;
    memcpy(code, c->rq_code, n * sizeof code[0]);
    c->rq_irq_mask = 0;
    c->rq_flush = c->rq_code_all = false;
    c->rq_ncode = 0;
    __atomic_store_n(&c->rq_pending, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&c->rq_mu);
    cpu *self = cpu_self;
    cpu_self = c; /* (the calls below act on c itself) */
    for (int ip = 2; ip <= 7; ip++)
        if (mask & (1u << ip))
            cpu_set_irq(c, ip, (val >> ip) & 1);
    if (all) {
        cpu_group *g = c->group;
        for (unsigned i = 0; i < c->bus->nrams && i < 8; i++)
            for (uint64_t pg = 0; g->pages[i] && pg < g->npages[i]; pg++)
                if (g->pages[i][pg])
                    group_code_written_one(g, c->bus->rams[i], pg << RAM_PAGE_SHIFT);
    } else {
        for (unsigned k = 0; k < n; k++)
            group_code_written_one(c->group, code[k].rb, code[k].page);
    }
    if (flush) {
        stlb_flush(c);
        cpu_wait_debug_changed(c);
    }
    cpu_self = self;
}
