/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The xbow side of the differential tester: one R10000 from cpu_new() on a
 * bus with 4 MB of RAM.  The CPU runs in kernel mode with Status.ERL set,
 * where the low 2 GB of the user segment are unmapped and uncached: virtual
 * address = physical address, as in Unicorn.  The RAM is mapped both as
 * cached memory and at the uncached attribute-0 bus addresses that the
 * ERL segment produces.
 *
 * The translator's twin (xb_side_new_mode with `mapped`) gets the same
 * virtual = physical view through the TLB instead (64 wired pairs of 16 MB
 * pages over the low 2 GB, Status.ERL clear), so that its code and data get
 * exec and data soft-TLB entries and the translated fast paths run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/event.h"
#include "core/sched.h"
#include "cpu/cpu.h"
#include "oracle.h"

#define XB_RAM_SIZE (4u << 20)
#define ST_ERL 0x4ull
#define ST_BEV 0x00400000ull
#define ST_FR 0x04000000ull
#define ST_CU1 0x20000000ull

struct xb_side {
    bus b;
    sched clk;
    event_bus eb;
    ram_block *ram;
    cpu *c;
    bool mapped;
    int exc; /* ExcCode + 1 of the exception taken in the current step */
};

static void on_exception(void *ctx, const event *ev)
{
    xb_side *x = ctx;
    if (ev->nvals > 1 && !x->exc)
        x->exc = (int)ev->vals[1] + 1;
}

xb_side *xb_side_new(xerr *err) { return xb_side_new_mode(err, CPU_ENGINE_INTERP, false); }

/* The low 2 GB, virtual = physical, cacheable, dirty, valid, global. */
static void map_low(cpu *c)
{
    const uint64_t half = 16ull << 20, mask = 0x1ffe000ull;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t va = 2 * half * i;
        uint64_t lo0 = ((va >> 12) << 6) | (3u << 3) | 7u;
        uint64_t lo1 = (((va + half) >> 12) << 6) | (3u << 3) | 7u;
        cpu_tlb_set(c, i, va, lo0, lo1, mask);
    }
}

xb_side *xb_side_new_mode(xerr *err, int engine, bool mapped)
{
    xb_side *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    bus_init(&x->b);
    sched_init(&x->clk, XBOW_CPU_HZ);
    event_bus_init(&x->eb, &x->clk.now);
    x->ram = ram_block_new(&x->b, "ram", XB_RAM_SIZE);
    if (!x->ram || bus_map_ram(&x->b, "ram", BUS_CAC(0), XB_RAM_SIZE, x->ram, 0, false) != 0 ||
        bus_map_ram(&x->b, "ram-uncached", BUS_UNC(0, 0), XB_RAM_SIZE, x->ram, 0, false) != 0) {
        xerr_set(err, "cannot map RAM");
        goto fail;
    }
    x->c = cpu_new(0, &x->b, &x->clk, &x->eb);
    if (!x->c) {
        xerr_set(err, "cpu_new failed");
        goto fail;
    }
    if (cpu_set_engine(x->c, engine) != 0) {
        xerr_set(err, "this host has no translator");
        goto fail;
    }
    x->mapped = mapped;
    if (mapped)
        map_low(x->c);
    event_src *src = cpu_event(x->c, CPU_EV_EXCEPTION);
    if (!src || event_subscribe(src, on_exception, x) <= 0) {
        xerr_set(err, "no cpu exception event");
        goto fail;
    }
    return x;
fail:
    xb_side_free(x);
    return NULL;
}

void xb_side_free(xb_side *x)
{
    if (!x)
        return;
    if (x->c)
        cpu_free(x->c);
    event_bus_free(&x->eb);
    bus_free(&x->b);
    free(x);
}

static uint64_t status_for(const xb_side *x, bool fr)
{
    return ST_CU1 | (fr ? ST_FR : 0) | ST_BEV | (x->mapped ? 0 : ST_ERL);
}

int xb_side_load(xb_side *x, const orc_block *b)
{
    uint8_t code[4 * ORC_MAX_INSNS + 64];
    for (unsigned i = 0; i < b->n + 16; i++) /* BREAK after the end, as in Unicorn */
        store_be(code + 4 * i, 4, i < b->n ? b->code[i] : 0x0000000d);
    if (bus_poke(&x->b, BUS_CAC(ORC_CODE_BASE), code, 4 * (b->n + 16)) != BUS_OK ||
        bus_poke(&x->b, BUS_CAC(ORC_DATA_BASE), b->data, ORC_DATA_SIZE) != BUS_OK)
        return -1;
    cpu_set_cp0(x->c, 12, status_for(x, b->cfg.fr));
    for (unsigned i = 1; i < 32; i++)
        cpu_set_gpr(x->c, i, b->gpr[i]);
    cpu_set_hi(x->c, b->hi);
    cpu_set_lo(x->c, b->lo);
    cpu_set_llbit(x->c, false);
    cpu_set_pc(x->c, ORC_CODE_BASE);
    return 0;
}

int xb_side_step(xb_side *x)
{
    x->exc = 0;
    int rc = cpu_run(x->c, x->clk.now + 1);
    if (rc != CPU_RAN)
        return -1;
    return x->exc;
}

/* Run n instructions (exceptions taken count one each). */
int xb_side_run(xb_side *x, uint64_t n)
{
    x->exc = 0;
    int rc = cpu_run(x->c, x->clk.now + n);
    return rc == CPU_RAN ? 0 : -1;
}

uint64_t xb_side_retired(xb_side *x) { return cpu_retired(x->c); }

void xb_side_jit(xb_side *x, uint64_t *interp, uint64_t *blocks, uint64_t *invalidated)
{
    cpu_jit_info ji;
    cpu_jit_info_get(x->c, &ji);
    *interp = ji.interp_ticks;
    *blocks = ji.blocks;
    *invalidated = ji.invalidated;
}

/* Everything the two xbow CPUs must agree on; a description of the first
 * difference in why (and false) if they do not. */
bool xb_side_same(xb_side *a, xb_side *b, char *why, unsigned len)
{
    cpu *p = a->c, *q = b->c;
#define SAME(what, va, vb)                                                              \
    do {                                                                                \
        uint64_t va_ = (va), vb_ = (vb);                                                \
        if (va_ != vb_) {                                                               \
            snprintf(why, len, "%s: interpreter 0x%016llx, translator 0x%016llx", what, \
                     (unsigned long long)va_, (unsigned long long)vb_);                 \
            return false;                                                               \
        }                                                                               \
    } while (0)
    char name[32];
    SAME("instructions", cpu_retired(p), cpu_retired(q));
    SAME("pc", cpu_pc(p), cpu_pc(q));
    SAME("delay slot", cpu_in_delay_slot(p), cpu_in_delay_slot(q));
    if (cpu_in_delay_slot(p))
        SAME("delay slot target", cpu_delay_target(p), cpu_delay_target(q));
    for (unsigned i = 0; i < 32; i++) {
        snprintf(name, sizeof name, "$%u", i);
        SAME(name, cpu_gpr(p, i), cpu_gpr(q, i));
        snprintf(name, sizeof name, "$f%u", i);
        SAME(name, cpu_fpr(p, i), cpu_fpr(q, i));
    }
    SAME("hi", cpu_hi(p), cpu_hi(q));
    SAME("lo", cpu_lo(p), cpu_lo(q));
    SAME("fcsr", cpu_fcsr(p), cpu_fcsr(q));
    SAME("Status (but ERL)", cpu_cp0(p, 12) & ~ST_ERL, cpu_cp0(q, 12) & ~ST_ERL);
    SAME("Cause", cpu_cp0(p, 13), cpu_cp0(q, 13));
    SAME("EPC", cpu_cp0(p, 14), cpu_cp0(q, 14));
    SAME("BadVAddr", cpu_cp0(p, 8), cpu_cp0(q, 8));
    SAME("LLAddr", cpu_cp0(p, 17), cpu_cp0(q, 17));
    SAME("LL bit", cpu_llbit(p), cpu_llbit(q));
    SAME("Count", cpu_cp0(p, 9), cpu_cp0(q, 9));
    uint8_t da[ORC_DATA_SIZE], db[ORC_DATA_SIZE];
    if (xb_side_read(a, ORC_DATA_BASE, da, sizeof da) ||
        xb_side_read(b, ORC_DATA_BASE, db, sizeof db)) {
        snprintf(why, len, "data area unreadable");
        return false;
    }
    for (unsigned i = 0; i < sizeof da; i += 8)
        if (memcmp(da + i, db + i, 8)) {
            snprintf(name, sizeof name, "data +0x%x", i);
            SAME(name, load_be(da + i, 8), load_be(db + i, 8));
        }
#undef SAME
    return true;
}

void xb_side_state(xb_side *x, orc_state *s)
{
    for (unsigned i = 0; i < 32; i++) {
        s->gpr[i] = cpu_gpr(x->c, i);
        s->fpr[i] = cpu_fpr(x->c, i);
    }
    s->hi = cpu_hi(x->c);
    s->lo = cpu_lo(x->c);
    s->pc = cpu_pc(x->c);
    s->fcsr = cpu_fcsr(x->c);
}

void xb_side_set_state(xb_side *x, const orc_state *s, uint64_t status)
{
    cpu_set_cp0(x->c, 12, status);
    for (unsigned i = 1; i < 32; i++)
        cpu_set_gpr(x->c, i, s->gpr[i]);
    for (unsigned i = 0; i < 32; i++)
        cpu_set_fpr(x->c, i, s->fpr[i]);
    cpu_set_hi(x->c, s->hi);
    cpu_set_lo(x->c, s->lo);
    cpu_set_fcsr(x->c, s->fcsr);
    cpu_set_pc(x->c, s->pc);
}

uint64_t xb_side_status(xb_side *x) { return cpu_cp0(x->c, 12); }
uint64_t xb_side_cp0(xb_side *x, unsigned n) { return cpu_cp0(x->c, n); }

int xb_side_read(xb_side *x, uint64_t addr, void *buf, unsigned len)
{
    return bus_peek(&x->b, BUS_CAC(addr), buf, len) == BUS_OK ? 0 : -1;
}

int xb_side_write(xb_side *x, uint64_t addr, const void *buf, unsigned len)
{
    return bus_poke(&x->b, BUS_CAC(addr), buf, len) == BUS_OK ? 0 : -1;
}

void xb_side_disasm(uint64_t pc, uint32_t insn, char *buf, unsigned len)
{
    cpu_disasm(pc, insn, NULL, buf, len);
}
