/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A CPU's whole state as an image, for machine snapshots: the
 * architectural registers (GPRs, HI/LO, PC and the delay slot, CP0 with the
 * TLB and the LL bit, the FPU), its clock (retired ticks, ticks waited,
 * Count's offset, the Compare deadline) and the idle-skip state (a wait in
 * progress, a polling-loop probe), so that a loaded CPU goes on exactly as
 * the saved one would have.  Not in it: breakpoints, watchpoints, HLE
 * hooks, idle points, the sampler (the debugger's and the machine's
 * wiring), the soft TLBs and decoded or translated code (caches, dropped on
 * load).  Device registers a wait polls are saved as device numbers the
 * caller maps (cpu_dev_map). */
#include <stdio.h>
#include <stdlib.h>

#include "core/image.h"
#include "cpu/cpu_internal.h"

#define CPU_IMAGE_VERSION 1
#define CPU_MAX_IDLE_POINTS 64

static void put_reads(strbuf *out, const poll_read *r, unsigned n, const cpu_dev_map *map)
{
    img_put(out, n, 4);
    for (unsigned i = 0; i < n; i++) {
        img_put(out, r[i].dev ? (uint64_t)(map->index_of(map->ctx, r[i].dev) + 1) : 0, 4);
        img_put(out, r[i].id, 2);
        img_put(out, r[i].idx, 2);
        img_put(out, r[i].size, 1);
        img_put64(out, r[i].addr);
        img_put64(out, r[i].value);
    }
}

void cpu_state_save(cpu *c, strbuf *out, const cpu_dev_map *map)
{
    img_put(out, CPU_IMAGE_VERSION, 4);
    for (unsigned i = 0; i < 32; i++)
        img_put64(out, c->gpr[i]);
    img_put64(out, c->hi);
    img_put64(out, c->lo);
    img_put64(out, c->pc);
    img_put(out, c->in_ds, 1);
    img_put(out, c->dly, 1);
    img_put64(out, c->dly || c->in_ds ? c->dtarget : 0); /* else a stale value */
    for (unsigned i = 0; i < 32; i++)
        img_put64(out, c->cp0[i]);
    img_put64(out, c->status);
    img_put64(out, c->cause);
    img_put(out, c->count_off, 4);
    img_put(out, c->compare, 4);
    img_put64(out, c->rand_base);
    img_put64(out, c->timer_at);
    for (unsigned i = 0; i < 2; i++) {
        img_put64(out, c->perf_ctl[i]);
        img_put64(out, c->perf_cnt[i]);
    }
    img_put(out, c->irq_lines, 1);
    img_put(out, c->timer_ip, 1);
    img_put(out, c->nmi_pending, 1);
    img_put(out, c->sreset_pending, 1);
    img_put(out, c->llbit, 1);
    img_put64(out, c->lladdr_bus);
    img_put(out, c->watch_armed, 1);
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        img_put64(out, c->tlb[i].hi);
        img_put64(out, c->tlb[i].lo[0]);
        img_put64(out, c->tlb[i].lo[1]);
        img_put64(out, c->tlb[i].mask);
    }
    for (unsigned i = 0; i < 32; i++)
        img_put64(out, c->fpu.fpr[i]);
    img_put(out, c->fpu.fcsr, 4);
    img_put(out, c->fpu.fir, 4);
    /* The clock. */
    img_put64(out, cpu_now_retired(c));
    img_put64(out, c->waited);
    for (unsigned i = 0; i < 3; i++)
        img_put64(out, c->waits[i]);
    /* Idle skip: the wait in progress and the probe. */
    img_put(out, (uint32_t)c->wait, 4);
    img_put64(out, c->wait_pc);
    img_put64(out, c->wait_since);
    img_put64(out, c->wait_deadline);
    img_put(out, c->wait_mmio, 1);
    put_reads(out, c->wait_reads, c->wait_nreads, map);
    const cpu_probe *p = &c->probe;
    img_put(out, p->on, 1);
    img_put(out, p->steps, 4);
    img_put64(out, p->pc0);
    img_put(out, p->again, 1);
    for (unsigned i = 0; i < 34; i++)
        img_put64(out, p->regs[i]);
    put_reads(out, p->reads, p->nreads, map);
    img_put64(out, p->deadline);
    img_put64(out, p->next_at);
    img_put64(out, p->period);
    img_put(out, p->retried, 1);
    /* The idle points: where the OS waits (from its symbols, part of the
     * timing model: a snapshot loaded without the kernel's symbols runs the
     * same). */
    img_put(out, c->nidle_pts, 4);
    for (unsigned i = 0; i < c->nidle_pts; i++)
        img_put64(out, c->idle_pts[i]);
}

/* Reads a saved image into a scratch CPU image (no side effects on c). */
typedef struct cpu_img {
    uint64_t gpr[32], hi, lo, pc, dtarget, cp0[32], status, cause, rand_base, timer_at;
    uint64_t perf_ctl[2], perf_cnt[2], lladdr_bus, retired, waited, waits[3];
    uint64_t wait_pc, wait_since, wait_deadline;
    uint32_t count_off, compare;
    uint8_t in_ds, dly, irq_lines, timer_ip, nmi, sreset, llbit, watch_armed, wait_mmio;
    int wait;
    tlb_entry tlb[TLB_ENTRIES];
    fpu_state fpu;
    poll_read wait_reads[POLL_MAX_READS];
    unsigned wait_nreads;
    cpu_probe probe;
    unsigned nidle;
    uint64_t idle_pts[CPU_MAX_IDLE_POINTS];
} cpu_img;

static int get_flag(img_reader *r, uint8_t *v, const char *what, xerr *err)
{
    *v = (uint8_t)img_get(r, 1);
    if (*v > 1)
        return xerr_fail(err, "%s holds %u, not a flag", what, *v);
    return 0;
}

static int get_reads(img_reader *r, poll_read *out, unsigned *n, const cpu_dev_map *map, xerr *err)
{
    uint64_t cnt = img_get(r, 4);
    if (cnt > POLL_MAX_READS)
        return xerr_fail(err, "%llu polled reads, at most %u", (unsigned long long)cnt,
                         POLL_MAX_READS);
    *n = (unsigned)cnt;
    for (unsigned i = 0; i < *n; i++) {
        uint64_t d = img_get(r, 4);
        out[i].dev = NULL;
        if (d) {
            out[i].dev = map->device_at(map->ctx, (int)(d - 1));
            if (!out[i].dev && !r->short_read)
                return xerr_fail(err, "polled read %u names device %llu, which is not there", i,
                                 (unsigned long long)(d - 1));
        }
        out[i].id = (uint16_t)img_get(r, 2);
        out[i].idx = (uint16_t)img_get(r, 2);
        out[i].size = (uint8_t)img_get(r, 1);
        out[i].addr = img_get64(r);
        out[i].value = img_get64(r);
        if (out[i].dev && out[i].id >= out[i].dev->cls->nregs)
            return xerr_fail(err, "polled read %u: register %u of %s does not exist", i, out[i].id,
                             out[i].dev->name);
    }
    return 0;
}

static int parse(const void *img, size_t len, cpu_img *s, const cpu_dev_map *map, xerr *err)
{
    img_reader r;
    img_reader_init(&r, img, len);
    memset(s, 0, sizeof *s);
    uint64_t v = img_get(&r, 4);
    if (!r.short_read && v != CPU_IMAGE_VERSION)
        return xerr_fail(err, "CPU image version %llu, this xbow reads %u", (unsigned long long)v,
                         CPU_IMAGE_VERSION);
    for (unsigned i = 0; i < 32; i++)
        s->gpr[i] = img_get64(&r);
    s->hi = img_get64(&r);
    s->lo = img_get64(&r);
    s->pc = img_get64(&r);
    if (get_flag(&r, &s->in_ds, "in_ds", err) || get_flag(&r, &s->dly, "dly", err))
        return -1;
    s->dtarget = img_get64(&r);
    for (unsigned i = 0; i < 32; i++)
        s->cp0[i] = img_get64(&r);
    s->status = img_get64(&r);
    s->cause = img_get64(&r);
    s->count_off = (uint32_t)img_get(&r, 4);
    s->compare = (uint32_t)img_get(&r, 4);
    s->rand_base = img_get64(&r);
    s->timer_at = img_get64(&r);
    for (unsigned i = 0; i < 2; i++) {
        s->perf_ctl[i] = img_get64(&r);
        s->perf_cnt[i] = img_get64(&r);
    }
    s->irq_lines = (uint8_t)img_get(&r, 1);
    if (get_flag(&r, &s->timer_ip, "timer_ip", err) || get_flag(&r, &s->nmi, "nmi", err) ||
        get_flag(&r, &s->sreset, "sreset", err) || get_flag(&r, &s->llbit, "llbit", err))
        return -1;
    s->lladdr_bus = img_get64(&r);
    if (get_flag(&r, &s->watch_armed, "watch_armed", err))
        return -1;
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        s->tlb[i].hi = img_get64(&r);
        s->tlb[i].lo[0] = img_get64(&r);
        s->tlb[i].lo[1] = img_get64(&r);
        s->tlb[i].mask = img_get64(&r);
    }
    for (unsigned i = 0; i < 32; i++)
        s->fpu.fpr[i] = img_get64(&r);
    s->fpu.fcsr = (uint32_t)img_get(&r, 4);
    s->fpu.fir = (uint32_t)img_get(&r, 4);
    s->retired = img_get64(&r);
    s->waited = img_get64(&r);
    for (unsigned i = 0; i < 3; i++)
        s->waits[i] = img_get64(&r);
    uint64_t w = img_get(&r, 4);
    if (w > CPU_WAIT_POLL)
        return xerr_fail(err, "wait kind %llu is not one", (unsigned long long)w);
    s->wait = (int)w;
    s->wait_pc = img_get64(&r);
    s->wait_since = img_get64(&r);
    s->wait_deadline = img_get64(&r);
    if (get_flag(&r, &s->wait_mmio, "wait_mmio", err) ||
        get_reads(&r, s->wait_reads, &s->wait_nreads, map, err))
        return -1;
    cpu_probe *p = &s->probe;
    uint8_t f;
    if (get_flag(&r, &f, "probe.on", err))
        return -1;
    p->on = f;
    p->steps = (unsigned)img_get(&r, 4);
    p->pc0 = img_get64(&r);
    if (get_flag(&r, &f, "probe.again", err))
        return -1;
    p->again = f;
    for (unsigned i = 0; i < 34; i++)
        p->regs[i] = img_get64(&r);
    if (get_reads(&r, p->reads, &p->nreads, map, err))
        return -1;
    p->deadline = img_get64(&r);
    p->next_at = img_get64(&r);
    p->period = img_get64(&r);
    if (get_flag(&r, &f, "probe.retried", err))
        return -1;
    p->retried = f;
    uint64_t ni = img_get(&r, 4);
    if (ni > CPU_MAX_IDLE_POINTS)
        return xerr_fail(err, "%llu idle points, at most %u", (unsigned long long)ni,
                         CPU_MAX_IDLE_POINTS);
    s->nidle = (unsigned)ni;
    for (unsigned i = 0; i < s->nidle; i++)
        s->idle_pts[i] = img_get64(&r);
    if (r.short_read)
        return xerr_fail(err, "the CPU image is truncated");
    if (img_left(&r))
        return xerr_fail(err, "%zu bytes after the end of the CPU image", img_left(&r));
    if (s->waited > s->retired)
        return xerr_fail(err, "the CPU waited longer than it ran");
    return 0;
}

int cpu_state_check(const void *img, size_t len, const cpu_dev_map *map, xerr *err)
{
    cpu_img *s = xmalloc(sizeof *s);
    int rc = parse(img, len, s, map, err);
    free(s);
    return rc;
}

int cpu_state_load(cpu *c, const void *img, size_t len, const cpu_dev_map *map, xerr *err)
{
    cpu_img *s = xmalloc(sizeof *s);
    if (parse(img, len, s, map, err) != 0) {
        free(s);
        return -1;
    }
    memcpy(c->gpr, s->gpr, sizeof s->gpr);
    c->gpr[32] = 0;
    c->hi = s->hi;
    c->lo = s->lo;
    c->pc = s->pc;
    c->in_ds = s->in_ds;
    c->dly = s->dly;
    c->dtarget = s->dtarget;
    memcpy(c->cp0, s->cp0, sizeof c->cp0);
    c->status = s->status;
    c->cause = s->cause;
    c->count_off = s->count_off;
    c->compare = s->compare;
    c->rand_base = s->rand_base;
    c->timer_at = s->timer_at;
    memcpy(c->perf_ctl, s->perf_ctl, sizeof c->perf_ctl);
    memcpy(c->perf_cnt, s->perf_cnt, sizeof c->perf_cnt);
    c->irq_lines = s->irq_lines;
    c->timer_ip = s->timer_ip;
    c->nmi_pending = s->nmi;
    c->sreset_pending = s->sreset;
    c->llbit = s->llbit;
    c->lladdr_bus = s->lladdr_bus;
    c->watch_armed = s->watch_armed;
    memcpy(c->tlb, s->tlb, sizeof c->tlb);
    c->fpu = s->fpu;
    c->running = false;
    c->retired = s->retired;
    c->waited = s->waited;
    memcpy(c->waits, s->waits, sizeof c->waits);
    c->wait = s->wait;
    c->wait_pc = s->wait_pc;
    c->wait_since = s->wait_since;
    c->wait_deadline = s->wait_deadline;
    c->wait_mmio = s->wait_mmio;
    memcpy(c->wait_reads, s->wait_reads, sizeof c->wait_reads);
    c->wait_nreads = s->wait_nreads;
    c->probe = s->probe;
    c->probe.noting = false;
    c->stop = CPU_RAN;
    c->halt_reason = NULL;
    c->skip_bp = false;
    c->step_over = false;
    cpu_idle_points_clear(c);
    for (unsigned i = 0; i < s->nidle; i++)
        cpu_idle_point_add(c, s->idle_pts[i]);
    free(s);
    /* Derived state and caches. */
    c->st = NULL; /* cpu_mode_changed recomputes the mode's state */
    cpu_mode_changed(c);
    stlb_flush(c);
    cpu_kick(c);
    return 0;
}
