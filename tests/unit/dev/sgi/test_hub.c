/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the HUB (src/dev/sgi/hub.c), driven from fake initiators
 * without CPUs: the interrupt, NMI and reset outputs are observed through
 * the wiring callbacks. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/sgi/hub.h"
#include "../../check_run.h"
#include "../../mmio_probe.h"

#define IO(off) BUS_UNC(1, (off))
#define LOCAL(r) IO(HUB_IALIAS_BASE + (r))
#define REMOTE(r) IO(HUB_REMOTE0_BASE + (r))

typedef struct rig {
    bus b;
    sched clock;
    event_bus eb;
    hub *h;
    int cpu0, cpu1, bridge;
    bool line[2][8];
    unsigned line_changes;
    int nmi_slice, nmis;
    int resets;
    uint64_t promop;
    bool use_xio;
    unsigned xio_widget, xio_size;
    uint64_t xio_addr;
} rig;

static void w_irq(void *ctx, int slice, int ip, bool level)
{
    rig *r = ctx;
    if (r->line[slice][ip] != level)
        r->line_changes++;
    r->line[slice][ip] = level;
}

static void w_nmi(void *ctx, int slice)
{
    rig *r = ctx;
    r->nmi_slice = slice;
    r->nmis++;
}

static void w_reset(void *ctx, uint64_t promop)
{
    rig *r = ctx;
    r->resets++;
    r->promop = promop;
}

static int w_xio(void *ctx, unsigned widget, const bus_op *op, uint64_t xio, uint64_t *val)
{
    rig *r = ctx;
    r->xio_widget = widget;
    r->xio_addr = xio;
    r->xio_size = op->size;
    if (!op->write)
        *val = 0x1234;
    return BUS_OK;
}

static void rig_init_x(rig *r, unsigned ncpus, bool use_xio)
{
    memset(r, 0, sizeof *r);
    r->use_xio = use_xio;
    bus_init(&r->b);
    sched_init(&r->clock, XBOW_CPU_HZ);
    event_bus_init(&r->eb, &r->clock.now);
    r->cpu0 = initiator_register(&r->b, "cpu0", INIT_CPU, 0);
    r->cpu1 = initiator_register(&r->b, "cpu1", INIT_CPU, 1);
    r->bridge = initiator_register(&r->b, "bridge", INIT_DEVICE, -1);
    hub_wiring w = {w_irq, w_nmi, w_reset, r->use_xio ? w_xio : NULL, r};
    r->h = hub_new("hub", &r->b, &r->clock, &r->eb, ncpus, &w);
    ck_assert_ptr_nonnull(r->h);
}

static void rig_init(rig *r, unsigned ncpus) { rig_init_x(r, ncpus, false); }

static void rig_free(rig *r)
{
    device_free(hub_device(r->h));
    hub_free(r->h);
    event_bus_free(&r->eb);
    bus_free(&r->b);
}

static uint64_t rd(rig *r, int who, uint64_t addr, unsigned size)
{
    uint64_t v = 0xdeadbeef;
    ck_assert_int_eq(bus_read(&r->b, who, addr, size, &v), BUS_OK);
    return v;
}

static void wr(rig *r, int who, uint64_t addr, unsigned size, uint64_t v)
{
    ck_assert_int_eq(bus_write(&r->b, who, addr, size, v), BUS_OK);
}

START_TEST(hub_cpu_num_and_presence)
{
    rig r;
    rig_init(&r, 2);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_CPU_NUM), 8), 0);
    ck_assert_uint_eq(rd(&r, r.cpu1, LOCAL(PI_CPU_NUM), 8), 1);
    ck_assert_uint_eq(rd(&r, r.cpu1, REMOTE(PI_CPU_NUM), 8), 1);
    ck_assert_uint_eq(rd(&r, r.bridge, REMOTE(PI_CPU_NUM), 8), 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x40), 8), 1); /* PRESENT_A */
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x48), 8), 1); /* PRESENT_B */
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x58), 8), 1); /* ENABLE_B */
    /* PRESENT is read-only. */
    wr(&r, r.cpu0, LOCAL(0x48), 8, 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x48), 8), 1);
    rig_free(&r);

    rig_init(&r, 1);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x40), 8), 1);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x48), 8), 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x58), 8), 0);
    rig_free(&r);
}
END_TEST

/* MD_MLAN_CTL: the node's 1-wire master, nothing on its bus.  IRIX's
 * hub_nic_access writes its clock divider ("phase") bits with the timing
 * fields and polls for DONE: a reset slot takes 520 + 65 us, then samples
 * the line high (no presence pulse). */
START_TEST(hub_mlan_slot_time)
{
    rig r;
    rig_init(&r, 1);
    uint64_t phase = 44ull << 27 | 44ull << 20; /* 90 MHz HUB: divisor/2 - 1 */
    uint64_t fields = 520u << 10 | 65u << 2;
    wr(&r, r.cpu0, LOCAL(0x2000a8), 8, phase | fields);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x2000a8), 8), fields);
    r.clock.now += 585 * 180 - 1;
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x2000a8), 8) & 3, 0);
    r.clock.now++;
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x2000a8), 8), fields | 3);
    rig_free(&r);
}
END_TEST

START_TEST(hub_identity_registers)
{
    rig r;
    rig_init(&r, 1);
    uint64_t nsri = rd(&r, r.cpu0, LOCAL(NI_STATUS_REV_ID), 8);
    ck_assert_uint_eq((nsri >> 8) & 0x1ff, 0);                              /* nasid 0 */
    ck_assert_uint_eq((nsri >> 18) & 1, 0);                                 /* M mode */
    ck_assert_uint_eq((nsri >> 29) & 1, 1);                                 /* link up */
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x400128), 8) & 0x2000, 0x2000); /* ILCSR up */
    /* Link status bits cannot be written away. */
    wr(&r, r.cpu0, LOCAL(0x400128), 8, 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x400128), 8), 0x2000);
    ck_assert_uint_eq((rd(&r, r.cpu0, LOCAL(0x400000), 8) >> 12) & 0xffff, 0xc101);
    /* Writes to the error and CRB timeout registers are accepted. */
    wr(&r, r.cpu0, LOCAL(0x4003c0), 8, 0x800);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x4003c0), 8), 0x800);
    wr(&r, r.cpu0, LOCAL(0x490), 8, 0x3f);
    ck_assert_uint_eq(rd(&r, r.cpu0, REMOTE(0x490), 8), 0x3f);
    rig_free(&r);
}
END_TEST

static unsigned set_events, clear_events;
static int last_initiator;
static uint64_t last_level;
static void on_int(void *ctx, const event *ev)
{
    bool *is_set = ctx;
    if (*is_set)
        set_events++;
    else
        clear_events++;
    last_initiator = ev->initiator;
    last_level = ev->vals[0];
}

START_TEST(hub_pend_mod_and_masks)
{
    rig r;
    rig_init(&r, 2);
    static bool t = true, f = false;
    event_subscribe(event_find(&r.eb, "hub.int.set"), on_int, &t);
    event_subscribe(event_find(&r.eb, "hub.int.clear"), on_int, &f);
    set_events = clear_events = 0;
    /* The Bridge's interrupt packet sets level 40. */
    wr(&r, r.bridge, REMOTE(PI_INT_PEND_MOD), 8, 0x100 | 40);
    ck_assert_uint_eq(set_events, 1);
    ck_assert_int_eq(last_initiator, r.bridge);
    ck_assert_uint_eq(last_level, 40);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 1ull << 40);
    ck_assert(!r.line[0][2] && !r.line[1][2]);
    /* CPU B's mask routes it to B's IP2 only. */
    wr(&r, r.cpu1, LOCAL(0xb8), 8, 1ull << 40);
    ck_assert(!r.line[0][2]);
    ck_assert(r.line[1][2]);
    ck_assert(hub_irq_line(r.h, 1, 2));
    wr(&r, r.cpu0, LOCAL(0xa8), 8, 1ull << 40);
    ck_assert(r.line[0][2]);
    /* Level 100 is PEND1 bit 36 and drives IP3 through MASK1. */
    wr(&r, r.cpu0, LOCAL(PI_INT_PEND_MOD), 8, 0x100 | 100);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND1), 8), 1ull << 36);
    ck_assert(!r.line[0][3]);
    wr(&r, r.cpu0, LOCAL(0xb0), 8, 1ull << 36);
    ck_assert(r.line[0][3]);
    /* Clearing: write the bare level.  PEND registers are read-only. */
    wr(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8, 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 1ull << 40);
    wr(&r, r.bridge, REMOTE(PI_INT_PEND_MOD), 8, 40);
    ck_assert_uint_eq(clear_events, 1);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 0);
    ck_assert(!r.line[0][2] && !r.line[1][2]);
    ck_assert(r.line[0][3]);
    wr(&r, r.cpu0, LOCAL(PI_INT_PEND_MOD), 8, 100);
    ck_assert(!r.line[0][3]);
    /* All 128 levels. */
    for (unsigned l = 0; l < 128; l++)
        wr(&r, r.cpu0, LOCAL(PI_INT_PEND_MOD), 8, 0x100 | l);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), ~0ull);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND1), 8), ~0ull);
    /* Crosscall B sets PEND0 bit 6. */
    for (unsigned l = 0; l < 128; l++)
        wr(&r, r.cpu0, LOCAL(PI_INT_PEND_MOD), 8, l);
    wr(&r, r.cpu0, LOCAL(0xd0), 8, 1);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 1ull << 6);
    wr(&r, r.cpu0, LOCAL(0xe0), 8, 1);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 0);
    rig_free(&r);
}
END_TEST

START_TEST(hub_access_widths)
{
    rig r;
    rig_init(&r, 1);
    wr(&r, r.cpu0, LOCAL(0xa8), 8, 0x0123456789abcdefull);
    /* Big-endian lanes: the lower address holds the upper half. */
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xa8), 4), 0x01234567);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xac), 4), 0x89abcdef);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xae), 2), 0xcdef);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xa9), 1), 0x23);
    /* A 32-bit write replaces its half only. */
    wr(&r, r.cpu0, LOCAL(0xac), 4, 0x11223344);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xa8), 8), 0x0123456711223344ull);
    wr(&r, r.cpu0, LOCAL(0xa8), 1, 0xff);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0xa8), 8), 0xff23456711223344ull);
    /* PI_INT_PEND_MOD works as a 32-bit store of the low word too. */
    wr(&r, r.cpu0, LOCAL(PI_INT_PEND_MOD + 4), 4, 0x100 | 3);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_INT_PEND0), 8), 8);
    rig_free(&r);
}
END_TEST

START_TEST(hub_read_to_clear)
{
    rig r;
    rig_init(&r, 1);
    /* PI_ERR_STATUS0_A is plain storage; its _RCLR alias reads and clears. */
    wr(&r, r.cpu0, LOCAL(0x430), 8, 0x1234);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x438), 8), 0x1234);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x430), 8), 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x438), 8), 0);
    /* The debugger's peek does not clear. */
    wr(&r, r.cpu0, LOCAL(0x608008), 8, 0x77);
    device *d = hub_device(r.h);
    unsigned id, idx;
    ck_assert_int_eq(dev_reg_lookup(d, "NI_PORT_ERROR_CLEAR", &id, &idx), 0);
    ck_assert_uint_eq(dev_peek(d, id, idx), 0x77);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x608088), 8), 0x77);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(0x608008), 8), 0);
    /* Register names follow hubpi.h. */
    ck_assert_int_eq(dev_reg_lookup(d, "PI_RT_COMPARE_B", &id, &idx), 0);
    ck_assert_uint_eq(d->cls->regs[id].offset, 0x110);
    rig_free(&r);
}
END_TEST

static unsigned fires;
static uint64_t fire_cpu;
static void on_fire(void *ctx, const event *ev)
{
    fires++;
    fire_cpu = ev->vals[0];
}


START_TEST(hub_rt_counter_and_compare)
{
    rig r;
    rig_init(&r, 2);
    event_subscribe(event_find(&r.eb, "hub.rt.fire"), on_fire, NULL);
    fires = 0;
    /* 1.25 MHz: one count per 144 ticks of the 180 MHz clock. */
    r.clock.now = 144 * 1000 + 10;
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8), 1000);
    /* Writable: Linux writes 0. */
    wr(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8, 0);
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8), 0);
    r.clock.now += 144 * 5;
    ck_assert_uint_eq(rd(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8), 5);
    /* Compare B = count + 100, enabled: IP4 of CPU B at that moment. */
    wr(&r, r.cpu1, LOCAL(PI_RT_EN_A + 8), 8, 1);
    wr(&r, r.cpu1, LOCAL(PI_RT_COMPARE_A + 8), 8, 105);
    uint64_t due = sched_next(&r.clock);
    sched_run_until(&r.clock, due - 1);
    ck_assert_uint_eq(fires, 0);
    ck_assert(!r.line[1][4]);
    sched_run_until(&r.clock, due);
    ck_assert_uint_eq(fires, 1);
    ck_assert_uint_eq(fire_cpu, 1);
    ck_assert_uint_eq(rd(&r, r.cpu1, LOCAL(PI_RT_COUNT), 8), 105);
    ck_assert(r.line[1][4]);
    ck_assert(!r.line[0][4]);
    ck_assert_uint_eq(rd(&r, r.cpu1, LOCAL(PI_RT_PEND_A + 8), 8), 1);
    /* Ack by writing 0: IP4 drops and stays low (edge, not level). */
    wr(&r, r.cpu1, LOCAL(PI_RT_PEND_A + 8), 8, 0);
    ck_assert(!r.line[1][4]);
    sched_run_until(&r.clock, r.clock.now + 144 * 10000);
    ck_assert_uint_eq(fires, 1);
    ck_assert(!r.line[1][4]);
    /* A compare value already in the past never fires (Linux sees -ETIME). */
    uint64_t c = rd(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8);
    wr(&r, r.cpu0, LOCAL(PI_RT_COMPARE_A), 8, c - 1);
    sched_run_until(&r.clock, r.clock.now + XBOW_CPU_HZ);
    ck_assert_uint_eq(fires, 1);
    /* Pending without enable does not raise IP4; enabling it does. */
    c = rd(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8);
    wr(&r, r.cpu0, LOCAL(PI_RT_COMPARE_A), 8, c + 2);
    sched_run_until(&r.clock, r.clock.now + 144 * 3);
    ck_assert_uint_eq(fires, 2);
    ck_assert_uint_eq(fire_cpu, 0);
    ck_assert(!r.line[0][4]);
    wr(&r, r.cpu0, LOCAL(PI_RT_EN_A), 8, 1);
    ck_assert(r.line[0][4]);
    /* Moving the counter re-arms the comparators. */
    wr(&r, r.cpu0, LOCAL(PI_RT_PEND_A), 8, 0);
    wr(&r, r.cpu0, LOCAL(PI_RT_COMPARE_A), 8, 5000);
    wr(&r, r.cpu0, LOCAL(PI_RT_COUNT), 8, 4990);
    sched_run_until(&r.clock, r.clock.now + 144 * 10);
    ck_assert_uint_eq(fires, 3);
    ck_assert(r.line[0][4]);
    rig_free(&r);
}
END_TEST

START_TEST(hub_nmi_and_reset)
{
    rig r;
    rig_init(&r, 2);
    wr(&r, r.cpu0, LOCAL(0x78), 8, 1); /* PI_NMI_B */
    ck_assert_int_eq(r.nmis, 1);
    ck_assert_int_eq(r.nmi_slice, 1);
    wr(&r, r.cpu0, LOCAL(0x70), 8, 0); /* bit 0 clear: nothing */
    ck_assert_int_eq(r.nmis, 1);
    /* A port or link reset alone does not reset the node. */
    wr(&r, r.cpu0, LOCAL(NI_PORT_RESET), 8, 0x80);
    ck_assert_int_eq(r.resets, 0);
    /* Linux's halt: PROMOP in PI_ERR_STACK_ADDR_A, then PORTRESET|LOCALRESET. */
    wr(&r, r.cpu0, LOCAL(PI_ERR_STACK_ADDR_A), 8, 0x0ead0030);
    wr(&r, r.cpu0, LOCAL(NI_PORT_RESET), 8, 0x81);
    ck_assert_int_eq(r.resets, 1);
    ck_assert_uint_eq(r.promop, 0x0ead0030);
    rig_free(&r);
}
END_TEST

START_TEST(hub_big_windows)
{
    rig r;
    rig_init(&r, 1);
    mmio_probe p = {0};
    ck_assert_int_eq(bus_map_mmio(&r.b, "widget8", IO(0x08000000), 1 << 24, &mmio_probe_ops, &p),
                     0);
    /* IIO_ITTE(2): big window 3 (IO 0x60000000) -> widget 8, XIO offset 0. */
    wr(&r, r.cpu0, LOCAL(IIO_ITTE_BASE + 16), 8, 8 << 8);
    wr(&r, r.cpu0, IO(0x60000000 + 0x600010), 4, 0xabcd);
    ck_assert_uint_eq(p.off, 0x600010);
    ck_assert_uint_eq(p.val, 0xabcd);
    ck_assert_int_eq(p.initiator, r.cpu0);
    ck_assert_uint_eq(rd(&r, r.cpu0, IO(0x60000000 + 0x24), 4), 0x11223344);
    ck_assert_uint_eq(p.off, 0x24);
    /* Beyond the widget's first 16 MB: a bus error, not a silent drop. */
    uint64_t v;
    ck_assert_int_eq(bus_read(&r.b, r.cpu0, IO(0x60000000 + 0x1000000), 4, &v), BUS_ERROR);
    /* An unprogrammed window targets widget 0, where nothing answers here. */
    ck_assert_int_eq(bus_read(&r.b, r.cpu0, IO(0x20000000), 4, &v), BUS_ERROR);
    rig_free(&r);

    /* With an XIO port wired, the whole 512 MB window reaches the widget:
     * IIO_ITTE(6) (big window 7, IO 0xe0000000) -> widget 8, XIO 0x40000000. */
    rig_init_x(&r, 1, true);
    wr(&r, r.cpu0, LOCAL(IIO_ITTE_BASE + 6 * 8), 8, 8 << 8 | 2);
    ck_assert_uint_eq(rd(&r, r.cpu0, IO(0xe0000000 + 0x123458), 4), 0x1234);
    ck_assert_uint_eq(r.xio_widget, 8);
    ck_assert_uint_eq(r.xio_addr, 0x40123458);
    ck_assert_uint_eq(r.xio_size, 4);
    rig_free(&r);
}
END_TEST

/* Two HUBs on one bus, as --cpus 3/4 builds them: node 0 (CPUs 0, 1, XIO
 * link up) and node 1 (CPUs 2, 3, no widget), each with its own outputs. */
typedef struct node_out {
    bool line[2][8];
    int nmi_slice, nmis, resets;
} node_out;

static void n_irq(void *ctx, int slice, int ip, bool level)
{
    ((node_out *)ctx)->line[slice][ip] = level;
}
static void n_nmi(void *ctx, int slice)
{
    node_out *o = ctx;
    o->nmi_slice = slice;
    o->nmis++;
}
static void n_reset(void *ctx, uint64_t promop) { ((node_out *)ctx)->resets++; }

#define N1 (1ull << 32)

START_TEST(hub_second_node)
{
    bus b;
    sched clock;
    event_bus eb;
    bus_init(&b);
    sched_init(&clock, XBOW_CPU_HZ);
    event_bus_init(&eb, &clock.now);
    int cpu[4];
    for (int i = 0; i < 4; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "cpu%d", i);
        cpu[i] = initiator_register(&b, nm, INIT_CPU, i);
    }
    node_out o0 = {0}, o1 = {0};
    hub_wiring w0 = {n_irq, n_nmi, n_reset, NULL, &o0}, w1 = {n_irq, n_nmi, n_reset, NULL, &o1};
    hub_node n0 = {
        .nasid = 0, .ncpus = 2, .first_cpu = 0, .ialias = false, .xio_up = true, .peer = true};
    hub_node n1 = {
        .nasid = 1, .ncpus = 1, .first_cpu = 2, .ialias = false, .xio_up = false, .peer = true};
    hub *h0 = hub_new_node("hub", &b, &clock, &eb, &n0, &w0);
    hub *h1 = hub_new_node("hub1", &b, &clock, &eb, &n1, &w1);
    ck_assert_ptr_nonnull(h0);
    ck_assert_ptr_nonnull(h1);
    ck_assert_uint_eq(hub_nasid(h1), 1);
    uint64_t v = 0;
    /* Windows: REMOTE_HUB_ADDR(0) and (1); node 1's widget-1 lower half;
     * no IALIAS: the board decodes it with several nodes. */
    ck_assert_int_eq(bus_read(&b, cpu[0], IO(HUB_IALIAS_BASE + NI_STATUS_REV_ID), 8, &v),
                     BUS_ERROR);
    uint64_t nsri0 = 0, nsri1 = 0, nsri1b = 0;
    ck_assert_int_eq(bus_read(&b, cpu[2], IO(HUB_REMOTE0_BASE + NI_STATUS_REV_ID), 8, &nsri0),
                     BUS_OK);
    ck_assert_int_eq(bus_read(&b, cpu[0], IO(N1 | HUB_REMOTE0_BASE | NI_STATUS_REV_ID), 8, &nsri1),
                     BUS_OK);
    ck_assert_int_eq(bus_read(&b, cpu[2], IO(N1 | HUB_IALIAS_BASE | NI_STATUS_REV_ID), 8, &nsri1b),
                     BUS_OK);
    ck_assert_uint_eq((nsri0 >> 8) & 0x1ff, 0);
    ck_assert_uint_eq((nsri1 >> 8) & 0x1ff, 1);
    ck_assert_uint_eq(nsri1b, nsri1);
    ck_assert_uint_eq((nsri1 >> 18) & 1, 0); /* M mode with two nodes too */
    ck_assert_uint_eq((nsri1 >> 29) & 1, 1); /* the CrayLink is up */
    /* Node 1 has no widget: IIO_LLP_CSR link down, so Linux skips its XIO. */
    ck_assert_int_eq(bus_read(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | 0x400128), 8, &v), BUS_OK);
    ck_assert_uint_eq(v & 0x2000, 0);
    ck_assert_uint_eq(v, 0x400);
    ck_assert_int_eq(bus_read(&b, cpu[2], IO(HUB_REMOTE0_BASE | 0x400128), 8, &v), BUS_OK);
    ck_assert_uint_eq(v & 0x2000, 0x2000);
    /* PI_CPU_NUM: CPU 2 is node 1's slice A; a remote reader sees its own slice. */
    bus_op op = {.addr = 0, .size = 8, .write = 0, .initiator = (uint16_t)cpu[2]};
    ck_assert_int_eq(hub_window_access(h1, &op, PI_CPU_NUM, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    op.initiator = (uint16_t)cpu[3];
    ck_assert_int_eq(hub_window_access(h1, &op, PI_CPU_NUM, &v), BUS_OK);
    ck_assert_uint_eq(v, 1);
    op.initiator = (uint16_t)cpu[1];
    ck_assert_int_eq(hub_window_access(h1, &op, PI_CPU_NUM, &v), BUS_OK);
    ck_assert_uint_eq(v, 1);
    /* Presence: one CPU on node 1. */
    ck_assert_int_eq(bus_read(&b, cpu[0], IO(N1 | HUB_REMOTE0_BASE | 0x40), 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 1);
    ck_assert_int_eq(bus_read(&b, cpu[0], IO(N1 | HUB_REMOTE0_BASE | 0x48), 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    /* An IPI from CPU 0 to CPU 2: PEND_MOD of node 1 (REMOTE_HUB_SEND_INTR),
     * node 1's slice-A mask: only node 1's slice A sees IP2. */
    op = (bus_op){.size = 8, .write = 1, .initiator = (uint16_t)cpu[2]};
    v = 1ull << 9;
    ck_assert_int_eq(hub_window_access(h1, &op, PI_INT_MASK0_A, &v), BUS_OK);
    ck_assert_int_eq(
        bus_write(&b, cpu[0], IO(N1 | HUB_REMOTE0_BASE | PI_INT_PEND_MOD), 8, 0x100 | 9), BUS_OK);
    ck_assert(o1.line[0][2]);
    ck_assert(!o0.line[0][2] && !o0.line[1][2]);
    ck_assert_int_eq(bus_read(&b, cpu[0], IO(HUB_REMOTE0_BASE | PI_INT_PEND0), 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_IALIAS_BASE | PI_INT_PEND_MOD), 8, 9),
                     BUS_OK);
    ck_assert(!o1.line[0][2]);
    /* RT counters are per node: node 1's restarts at 0 when written. */
    clock.now = 144 * 5000;
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | PI_RT_COUNT), 8, 0), BUS_OK);
    clock.now += 144 * 10;
    ck_assert_uint_eq(hub_rt_count(h0), 5010);
    ck_assert_uint_eq(hub_rt_count(h1), 10);
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | PI_RT_EN_A), 8, 1), BUS_OK);
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | PI_RT_COMPARE_A), 8, 20),
                     BUS_OK);
    clock.now = sched_next(&clock);
    sched_run_due(&clock);
    ck_assert_uint_eq(hub_rt_count(h1), 20);
    ck_assert(o1.line[0][4]);
    ck_assert(!o0.line[0][4] && !o0.line[1][4]);
    /* NMI per node; a port reset alone resets nothing. */
    ck_assert_int_eq(bus_write(&b, cpu[0], IO(N1 | HUB_REMOTE0_BASE | 0x70), 8, 1), BUS_OK);
    ck_assert_int_eq(o1.nmis, 1);
    ck_assert_int_eq(o1.nmi_slice, 0);
    ck_assert_int_eq(o0.nmis, 0);
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | NI_PORT_RESET), 8, 0x80),
                     BUS_OK);
    ck_assert_int_eq(o1.resets, 0);
    ck_assert_int_eq(bus_write(&b, cpu[2], IO(N1 | HUB_REMOTE0_BASE | NI_PORT_RESET), 8, 0x81),
                     BUS_OK);
    ck_assert_int_eq(o1.resets, 1);
    ck_assert_int_eq(o0.resets, 0);
    /* Node 1's big windows: no widget behind it, nothing answers. */
    ck_assert_int_eq(bus_read(&b, cpu[2], IO(N1 | 0x20000000), 4, &v), BUS_ERROR);
    device_free(hub_device(h0));
    device_free(hub_device(h1));
    hub_free(h0);
    hub_free(h1);
    event_bus_free(&eb);
    bus_free(&b);
}
END_TEST


int main(void)
{
    return check_main("hub", "hub", NULL, NULL, 0, hub_cpu_num_and_presence, hub_identity_registers,
                      hub_mlan_slot_time, hub_pend_mod_and_masks, hub_access_widths,
                      hub_read_to_clear, hub_rt_counter_and_compare, hub_nmi_and_reset,
                      hub_big_windows, hub_second_node);
}
