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
 * caller maps (cpu_dev_map).
 *
 * The image is described once, by cpu_image below: saving, checking and
 * loading all walk that table, so a field is added in one place. */
#include <stdio.h>
#include <stdlib.h>

#include "core/image.h"
#include "cpu/cpu_internal.h"

#define CPU_IMAGE_VERSION 1
#define CPU_MAX_IDLE_POINTS 64

/* ---- the description -------------------------------------------------------- */

enum cf_kind {
    CF_NUM,   /* n little-endian integers of `size` bytes */
    CF_FLAG,  /* a bool: a load accepts 0 and 1 only */
    CF_GROUP, /* the rows of `sub`, n times, `stride` bytes apart */
    CF_READS, /* a polled-read list: u32 count (at `count`), then the reads */
};

typedef struct cpu_field {
    const char *name; /* in error messages */
    enum cf_kind kind;
    size_t off;                    /* in struct cpu (in one element, for a group's rows) */
    unsigned size;                 /* of one element, in the struct and in the image */
    unsigned n;                    /* elements, or a group's repeats */
    uint64_t max;                  /* CF_NUM: the largest value a load accepts, 0 = any */
    uint64_t (*get)(const cpu *c); /* what is saved, when not the field itself */
    const struct cpu_field *sub;   /* CF_GROUP: its rows ... */
    unsigned nsub, stride;         /* ... and the distance between repeats */
    size_t count;                  /* CF_READS: where the list's length is */
} cpu_field;

#define CF_SIZE_(T, m) sizeof(((T *)0)->m)
/* One field of struct T (or of a group's element); more initializers after nm. */
#define CF_ONE(T, m, k, nm, ...)                                                                  \
    {                                                                                             \
        .name = nm, .kind = k, .off = offsetof(T, m), .size = CF_SIZE_(T, m), .n = 1, __VA_ARGS__ \
    }
#define CF_U(m) CF_ONE(cpu, m, CF_NUM, #m)
#define CF_F(m, nm) CF_ONE(cpu, m, CF_FLAG, nm)
#define CF_ARRAY(T, m, cnt)                                                                      \
    {                                                                                            \
        .name = #m, .kind = CF_NUM, .off = offsetof(T, m), .size = CF_SIZE_(T, m[0]), .n = (cnt) \
    }
#define CF_GROUP_(base, reps, step, rows)                                           \
    {                                                                               \
        .name = #rows, .kind = CF_GROUP, .off = (base), .n = (reps), .sub = (rows), \
        .nsub = ARRAY_SIZE(rows), .stride = (step)                                  \
    }
#define CF_READS_(arr, cnt)                                                                    \
    {                                                                                          \
        .name = #arr, .kind = CF_READS, .off = offsetof(cpu, arr), .count = offsetof(cpu, cnt) \
    }

/* A target only matters in a delay slot: else a stale value. */
static uint64_t saved_dtarget(const cpu *c) { return c->dly || c->in_ds ? c->dtarget : 0; }

/* perf_ctl[i], perf_cnt[i] for each counter */
static const cpu_field perf_rows[] = {CF_U(perf_ctl[0]), CF_U(perf_cnt[0])};
static const cpu_field tlb_rows[] = {
    CF_ONE(tlb_entry, hi, CF_NUM, "hi"), CF_ONE(tlb_entry, lo[0], CF_NUM, "lo0"),
    CF_ONE(tlb_entry, lo[1], CF_NUM, "lo1"), CF_ONE(tlb_entry, mask, CF_NUM, "mask")};

/* The image, in order (CPU_IMAGE_VERSION first, the idle points last). */
static const cpu_field cpu_image[] = {
    CF_ARRAY(cpu, gpr, 32),
    CF_U(hi),
    CF_U(lo),
    CF_U(pc),
    CF_F(in_ds, "in_ds"),
    CF_F(dly, "dly"),
    CF_ONE(cpu, dtarget, CF_NUM, "dtarget", .get = saved_dtarget),
    CF_ARRAY(cpu, cp0, 32),
    CF_U(status),
    CF_U(cause),
    CF_U(count_off),
    CF_U(compare),
    CF_U(rand_base),
    CF_U(timer_at),
    CF_GROUP_(0, 2, sizeof(uint64_t), perf_rows),
    CF_U(irq_lines),
    CF_F(timer_ip, "timer_ip"),
    CF_F(nmi_pending, "nmi"),
    CF_F(sreset_pending, "sreset"),
    CF_F(llbit, "llbit"),
    CF_U(lladdr_bus),
    CF_F(watch_armed, "watch_armed"),
    CF_GROUP_(offsetof(cpu, tlb), TLB_ENTRIES, sizeof(tlb_entry), tlb_rows),
    CF_ARRAY(cpu, fpu.fpr, 32),
    CF_U(fpu.fcsr),
    CF_U(fpu.fir),
    /* The clock. */
    CF_ONE(cpu, retired, CF_NUM, "retired", .get = cpu_now_retired),
    CF_U(waited),
    CF_ARRAY(cpu, waits, 3),
    /* Idle skip: the wait in progress and the probe. */
    CF_ONE(cpu, wait, CF_NUM, "wait kind", .max = CPU_WAIT_POLL),
    CF_U(wait_pc),
    CF_U(wait_since),
    CF_U(wait_deadline),
    CF_F(wait_mmio, "wait_mmio"),
    CF_READS_(wait_reads, wait_nreads),
    CF_F(probe.on, "probe.on"),
    CF_U(probe.steps),
    CF_U(probe.pc0),
    CF_F(probe.again, "probe.again"),
    CF_ARRAY(cpu, probe.regs, 34),
    CF_READS_(probe.reads, probe.nreads),
    CF_U(probe.deadline),
    CF_U(probe.next_at),
    CF_U(probe.period),
    CF_F(probe.retried, "probe.retried"),
};

/* ---- saving ------------------------------------------------------------------- */

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

static void put_fields(strbuf *out, const cpu *c, const char *base, const cpu_field *f, unsigned nf,
                       const cpu_dev_map *map)
{
    for (; nf--; f++) {
        const char *p = base + f->off;
        switch (f->kind) {
        case CF_NUM:
        case CF_FLAG:
            for (unsigned i = 0; i < f->n; i++)
                img_put(out, f->get ? f->get(c) : load_host(p + i * f->size, f->size), f->size);
            break;
        case CF_GROUP:
            for (unsigned i = 0; i < f->n; i++)
                put_fields(out, c, p + i * f->stride, f->sub, f->nsub, map);
            break;
        case CF_READS:
            put_reads(out, (const poll_read *)p, *(const unsigned *)(base + f->count), map);
            break;
        }
    }
}

void cpu_state_save(cpu *c, strbuf *out, const cpu_dev_map *map)
{
    img_put(out, CPU_IMAGE_VERSION, 4);
    put_fields(out, c, (const char *)c, cpu_image, ARRAY_SIZE(cpu_image), map);
    /* The idle points: where the OS waits (from its symbols, part of the
     * timing model: a snapshot loaded without the kernel's symbols runs the
     * same). */
    img_put(out, c->nidle_pts, 4);
    for (unsigned i = 0; i < c->nidle_pts; i++)
        img_put64(out, c->idle_pts[i]);
}

/* ---- reading ------------------------------------------------------------------ */

/* A saved image read into a scratch CPU (no side effects on the real one):
 * the fields of cpu_image, then the idle points. */
typedef struct cpu_img {
    cpu c;
    unsigned nidle;
    uint64_t idle_pts[CPU_MAX_IDLE_POINTS];
} cpu_img;

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

static int get_fields(img_reader *r, char *base, const cpu_field *f, unsigned nf,
                      const cpu_dev_map *map, xerr *err)
{
    for (; nf--; f++) {
        char *p = base + f->off;
        switch (f->kind) {
        case CF_NUM:
        case CF_FLAG:
            for (unsigned i = 0; i < f->n; i++) {
                uint64_t v = img_get(r, f->size);
                if (f->kind == CF_FLAG && v > 1)
                    return xerr_fail(err, "%s holds %u, not a flag", f->name, (unsigned)v);
                if (f->max && v > f->max)
                    return xerr_fail(err, "%s %llu is not one", f->name, (unsigned long long)v);
                store_host(p + i * f->size, f->size, v);
            }
            break;
        case CF_GROUP:
            for (unsigned i = 0; i < f->n; i++)
                if (get_fields(r, p + i * f->stride, f->sub, f->nsub, map, err))
                    return -1;
            break;
        case CF_READS:
            if (get_reads(r, (poll_read *)p, (unsigned *)(base + f->count), map, err))
                return -1;
            break;
        }
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
    if (get_fields(&r, (char *)&s->c, cpu_image, ARRAY_SIZE(cpu_image), map, err))
        return -1;
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
    if (s->c.waited > s->c.retired)
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

/* ---- loading ------------------------------------------------------------------ */

/* Copy the fields of a table from one CPU to another. */
static void copy_fields(char *dst, const char *src, const cpu_field *f, unsigned nf)
{
    for (; nf--; f++) {
        switch (f->kind) {
        case CF_GROUP:
            for (unsigned i = 0; i < f->n; i++)
                copy_fields(dst + f->off + i * f->stride, src + f->off + i * f->stride, f->sub,
                            f->nsub);
            break;
        case CF_READS:
            memcpy(dst + f->off, src + f->off, sizeof(poll_read) * POLL_MAX_READS);
            memcpy(dst + f->count, src + f->count, sizeof(unsigned));
            break;
        default: memcpy(dst + f->off, src + f->off, (size_t)f->n * f->size); break;
        }
    }
}

int cpu_state_load(cpu *c, const void *img, size_t len, const cpu_dev_map *map, xerr *err)
{
    cpu_img *s = xmalloc(sizeof *s);
    if (parse(img, len, s, map, err) != 0) {
        free(s);
        return -1;
    }
    copy_fields((char *)c, (const char *)&s->c, cpu_image, ARRAY_SIZE(cpu_image));
    c->gpr[32] = 0;
    c->running = false;
    c->probe.noting = false;
    memset(&c->probe.note, 0, sizeof c->probe.note);
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
