/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See dbg_fixture.h. */
#include "dbg_fixture.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

machine *M;
dbg *D;
static strbuf out;

static void capture(void *ctx, const char *text)
{
    (void)ctx;
    sb_puts(&out, text);
}

/* ---- encoders ------------------------------------------------------------ */

static uint32_t I(unsigned op, unsigned rs, unsigned rt, int imm)
{
    return op << 26 | rs << 21 | rt << 16 | ((uint32_t)imm & 0xffff);
}
static uint32_t J(unsigned op, uint64_t target) { return op << 26 | ((target >> 2) & 0x3ffffff); }
static uint32_t JR(unsigned rs) { return rs << 21 | 8; }

enum { ZERO = 0, V0 = 2, T0 = 12, T1 = 13, S0 = 16, SP = 29, RA = 31 };

static void put_words(uint64_t va, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t b[4];
        store_be(b, 4, w[i]);
        ck_assert_int_eq(bus_poke(&M->bus, (va & 0x1fffffff) + 4 * i, b, 4), BUS_OK);
    }
}

static void load_guest(void)
{
    const uint32_t main_code[] = {
        I(0x19, SP, SP, -16),   /* 00 daddiu sp,sp,-16 */
        I(0x3f, SP, RA, 8),     /* 04 sd ra,8(sp) */
        I(0x09, ZERO, S0, 0),   /* 08 addiu s0,zero,0 */
        J(3, G_FUNC),           /* 0c jal func */
        0,                      /* 10 nop */
        I(0x09, S0, S0, 1),     /* 14 addiu s0,s0,1 */
        I(0x0f, 0, T0, 0x8002), /* 18 lui t0,0x8002 */
        I(0x2b, T0, S0, 0),     /* 1c sw s0,0(t0)      counter */
        I(0x0f, 0, T1, 0xa800), /* 20 lui t1,0xa800 */
        I(0x2b, T1, S0, 0),     /* 24 sw s0,0(t1)      fakenic.CTRL */
        J(2, G_MAIN + 0xc),     /* 28 j main+0xc */
        0,                      /* 2c nop */
        I(0x09, ZERO, V0, 42),  /* 30 func: addiu v0,zero,42 */
        JR(RA),                 /* 34 jr ra */
        0,                      /* 38 nop */
    };
    const uint32_t start_code[] = {J(3, G_MAIN), 0, J(2, G_START + 8), 0};
    put_words(G_MAIN, main_code, ARRAY_SIZE(main_code));
    put_words(G_START, start_code, ARRAY_SIZE(start_code));
    const char *s = "hello, xbow";
    ck_assert_int_eq(bus_poke(&M->bus, G_STRING & 0x1fffffff, s, strlen(s) + 1), BUS_OK);
    symtab_add(&M->syms, "main", G_MAIN, 0x30, 'T');
    symtab_add(&M->syms, "func", G_FUNC, 0xc, 'T');
    symtab_add(&M->syms, "start", G_START, 0x10, 'T');
    symtab_add(&M->syms, "counter", G_COUNTER, 4, 'D');
    symtab_add(&M->syms, "greeting", G_STRING, 12, 'D');
    for (unsigned i = 0; i < M->ncpus; i++) {
        cpu_set_pc(M->cpus[i], G_START);
        cpu_set_gpr(M->cpus[i], SP, G_STACK - 0x1000 * i);
    }
}

/* ---- fakenic: registers, an event, DMA, a ring view and ring state ------ */

enum { R_CTRL, R_DOORBELL, R_STATUS, R_PRINT, R_POSTED, R_DONE, R_ACTIVE, R_INTR, NREGS };

typedef struct fakenic {
    device *dev;
    machine *m;
    timer dma, print, intr;
    unsigned next;                   /* next descriptor index */
    uint32_t desc[4];                /* what the ring view shows */
    uint64_t idle_since, done_since; /* ring state: set by POSTED/ACTIVE and DONE writes */
} fakenic;

static const char *const mode_names[] = {"off", "slow", "fast", NULL};
static const reg_field ctrl_fields[] = {{"ENABLE", 0, 1, NULL}, {"MODE", 1, 2, mode_names}};
static const reg_field status_fields[] = {{"DONE", 0, 1, NULL}, {"COUNT", 8, 8, NULL}};

static void doorbell(device *d, const reg_access *a)
{
    fakenic *n = d->priv;
    timer_mod(d->clock, &n->dma, d->clock->now + 5);
}

static void print_later(device *d, const reg_access *a)
{
    fakenic *n = d->priv;
    timer_mod(d->clock, &n->print, d->clock->now + 20);
}

static void intr_later(device *d, const reg_access *a)
{
    fakenic *n = d->priv;
    timer_mod(d->clock, &n->intr, d->clock->now + a->val);
}

static void ring_knob(device *d, const reg_access *a)
{
    fakenic *n = d->priv;
    if (a->id == R_DONE)
        n->done_since = d->clock->now;
    else
        n->idle_since = d->clock->now;
}

/* clang-format off */
static const reg_decl fakenic_regs[] = {
    [R_CTRL] = {.name = "CTRL", .offset = 0x0, .width = 4, REG_FIELDS(ctrl_fields),
                .desc = "control"},
    [R_DOORBELL] = {.name = "DOORBELL", .offset = 0x4, .width = 4, .write = doorbell,
                    .desc = "start a DMA"},
    [R_STATUS] = {.name = "STATUS", .offset = 0x8, .width = 4, .rules = R_RO,
                  REG_FIELDS(status_fields), .desc = "status"},
    [R_PRINT] = {.name = "PRINT", .offset = 0xc, .width = 4, .write = print_later,
                 .desc = "print to the console"},
    [R_POSTED] = {.name = "POSTED", .offset = 0x10, .width = 4, .write = ring_knob,
                  .desc = "ring state: posted"},
    [R_DONE] = {.name = "DONE", .offset = 0x14, .width = 4, .write = ring_knob,
                .desc = "ring state: unreclaimed"},
    [R_ACTIVE] = {.name = "ACTIVE", .offset = 0x18, .width = 4, .write = ring_knob,
                  .desc = "ring state: active"},
    [R_INTR] = {.name = "INTR", .offset = 0x1c, .width = 4, .write = intr_later,
                .desc = "Ctrl-C after N ticks"},
};
/* clang-format on */
DEV_REGS_CHECK(fakenic_regs, NREGS);

static const char *const ring_names[] = {"tx", "rx", NULL};
static const event_field done_fields[] = {{"ring", EVF_ENUM, ring_names, NULL},
                                          {"index", EVF_DEC, NULL, NULL},
                                          {"len", EVF_DEC, NULL, NULL}};
static const event_decl fakenic_events[] = {
    {"tx.desc-done", "a descriptor was completed", done_fields, 3},
};

/* Like the NIC models' ring view: entries that changed since the state the
 * viewer's memo keeps are marked with '*'; a first view, or one that asks
 * to (the guest resumes), keeps the state it saw. */
typedef struct fakering {
    unsigned next;
    uint32_t desc[4];
} fakering;

static void ring_view(device *d, const char *args, view_ctx *ctx, strbuf *o)
{
    fakenic *n = d->priv;
    fakering now = {n->next, {0}};
    memcpy(now.desc, n->desc, sizeof now.desc);
    size_t len;
    const fakering *old = ctx ? view_memo_get(ctx->memo, d, args, &len) : NULL;
    sb_printf(o, "%cring %s: next %u\n", old && old->next != now.next ? '*' : ' ', args, now.next);
    for (unsigned i = 0; i < 4; i++)
        sb_printf(o, "%c %u: %s len=%u\n", old && old->desc[i] != now.desc[i] ? '*' : ' ', i,
                  now.desc[i] ? "host" : "nic", now.desc[i]);
    if (ctx && ctx->memo && (!old || ctx->update))
        view_memo_put(ctx->memo, d, dev_view_find(d, "ring"), args, &now, sizeof now);
}

static int ring_state_fn(device *d, const char *ring, ring_state *st)
{
    fakenic *n = d->priv;
    if (strcmp(ring, "tx"))
        return -1;
    uint64_t now = d->clock->now;
    st->posted = DEV_R(d, R_POSTED) != 0;
    st->idle = DEV_R(d, R_ACTIVE) == 0;
    st->idle_ticks = st->idle ? now - n->idle_since : 0;
    st->unreclaimed = (unsigned)DEV_R(d, R_DONE);
    st->unreclaimed_ticks = st->unreclaimed ? now - n->done_since : 0;
    st->oldest_index = st->unreclaimed ? 0 : -1;
    return 0;
}

static const dev_view fakenic_views[] = {{"ring", "descriptor rings", ring_view}};

static const device_class fakenic_class = {
    .name = "fakenic",
    .desc = "a test NIC",
    DEV_REGS(fakenic_regs),
    .reg_space = 0x1000,
    DEV_EVENTS(fakenic_events),
    DEV_VIEWS(fakenic_views),
    .ring_state = ring_state_fn,
};

/* A descriptor write-back (word) and a payload (bulk), as a NIC does
 * through the Bridge; then the completion event. */
static void do_dma(void *opaque)
{
    fakenic *n = opaque;
    unsigned i = n->next++ % 4;
    dma_path p = {"dir64", -1, 1, 0x80000000ull + DESC_PA + 16 * i, "tx-desc", 0, (int)i};
    uint8_t desc[8];
    uint32_t len = 60 + 1000 * i;
    store_be(desc, 4, 0x80000000u | len);
    store_be(desc + 4, 4, (uint32_t)(BUF_PA + 0x100 * i));
    bus_op op = {.addr = BUS_CAC(DESC_PA + 16 * i),
                 .size = 8,
                 .kind = BUS_WORD,
                 .initiator = (uint16_t)n->dev->initiator,
                 .path = &p};
    bus_write_block(&n->m->bus, &op, desc, NULL);
    uint8_t payload[64];
    for (unsigned k = 0; k < sizeof payload; k++)
        payload[k] = (uint8_t)(k + i);
    dma_path pb = {"dir64", -1, 0, 0x80000000ull + BUF_PA + 0x100 * i, "tx-buf", 0, (int)i};
    bus_op ob = {.addr = BUS_CAC(BUF_PA + 0x100 * i),
                 .size = sizeof payload,
                 .kind = BUS_BULK,
                 .initiator = (uint16_t)n->dev->initiator,
                 .path = &pb};
    bus_write_block(&n->m->bus, &ob, payload, NULL);
    n->desc[i] = len;
    EVENT_EMIT(dev_event(n->dev, 0), n->dev->initiator, 0, i, len);
}

static void do_print(void *opaque)
{
    fakenic *n = opaque;
    const char *s = "hello from the guest\n";
    chardev_write(n->m->console, (const uint8_t *)s, strlen(s));
}

/* What ui/run.c's SIGINT handler does. */
static void do_intr(void *opaque)
{
    fakenic *n = opaque;
    n->m->stop_reason = STOP_USER;
    for (unsigned i = 0; i < n->m->ncpus; i++)
        cpu_request_exit(n->m->cpus[i]);
}

static fakenic NIC;

static void add_fakenic(void)
{
    memset(&NIC, 0, sizeof NIC);
    NIC.m = M;
    NIC.dev = device_new(&fakenic_class, "fakenic", &NIC, &M->events, &M->clock);
    ck_assert_ptr_nonnull(NIC.dev);
    NIC.dev->initiator = initiator_register(&M->bus, "fakenic", INIT_DEVICE, -1);
    timer_init(&NIC.dma, "fakenic dma", do_dma, &NIC);
    timer_init(&NIC.print, "fakenic print", do_print, &NIC);
    timer_init(&NIC.intr, "fakenic intr", do_intr, &NIC);
    device_reset(NIC.dev);
    machine_add_device(M, NIC.dev);
    ck_assert_int_eq(
        bus_map_mmio(&M->bus, "fakenic", BUS_UNC(0, FAKENIC_PA), 0x1000, &dev_mmio_be, NIC.dev), 0);
}

/* ---- a HUB and a Bridge with interrupt registers -------------------------- */

/* clang-format off */
static const reg_decl hub_regs[] = {
    {.name = "PI_INT_PEND0", .offset = 0x98, .width = 8},
    {.name = "PI_INT_PEND1", .offset = 0xa0, .width = 8},
    {.name = "PI_INT_MASK0_A", .offset = 0xa8, .width = 8},
    {.name = "PI_INT_MASK1_A", .offset = 0xb0, .width = 8},
    {.name = "PI_INT_MASK0_B", .offset = 0xb8, .width = 8},
    {.name = "PI_INT_MASK1_B", .offset = 0xc0, .width = 8},
    {.name = "PI_RT_PEND_A", .offset = 0x120, .width = 8},
};
/* clang-format on */
static const device_class hub_class = {
    .name = "hub", .desc = "test HUB", DEV_REGS(hub_regs), .reg_space = 0x200};

static const reg_field device_fields[] = {{"DEV_OFF", 0, 12, NULL}, {"SWAP_DIR", 19, 1, NULL}};
/* clang-format off */
static const reg_decl bridge_regs[] = {
    {.name = "INT_STATUS", .offset = 0x104, .width = 4},
    {.name = "INT_ENABLE", .offset = 0x10c, .width = 4},
    {.name = "INT_MODE", .offset = 0x11c, .width = 4},
    {.name = "INT_DEVICE", .offset = 0x124, .width = 4},
    {.name = "INT_ADDR", .offset = 0x134, .width = 4, .count = 8, .stride = 8},
    {.name = "DEVICE", .offset = 0x204, .width = 4, .count = 8, .stride = 8,
     REG_FIELDS(device_fields), .desc = "PCI window"},
};
/* clang-format on */

static void windows_view(device *d, const char *args, view_ctx *ctx, strbuf *o)
{
    (void)args;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t v = dev_peek(d, 5, i);
        sb_printf(o, "  DEVICE(%u): PCI base 0x%08llx swap %s\n", i,
                  (unsigned long long)((v & 0xfff) << 20), (v >> 19) & 1 ? "on" : "off");
    }
}

static void pci_view(device *d, const char *args, view_ctx *ctx, strbuf *o)
{
    (void)d, (void)args;
    sb_puts(o, "  slot 0: fakenic 0x1318:0x0911 class 020000\n");
}

static const dev_view bridge_views[] = {{"windows", "PCI windows", windows_view},
                                        {"pci", "PCI functions", pci_view}};
static const device_class bridge_class = {.name = "bridge",
                                          .desc = "test Bridge",
                                          DEV_REGS(bridge_regs),
                                          .reg_space = 0x300,
                                          DEV_VIEWS(bridge_views)};

static void add_irq_devices(void)
{
    device *h = device_new(&hub_class, "testhub", NULL, &M->events, &M->clock);
    device *b = device_new(&bridge_class, "testbridge", NULL, &M->events, &M->clock);
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(b);
    device_reset(h);
    device_reset(b);
    machine_add_device(M, h);
    machine_add_device(M, b);
}

/* ---- fixture -------------------------------------------------------------- */

void fixture_setup(unsigned ncpus)
{
    machine_config cfg;
    machine_config_default(&cfg);
    cfg.ncpus = ncpus;
    cfg.mem_mb = 64;
    cfg.serial = "null";
    xerr err;
    M = machine_new(&cfg, &err);
    ck_assert_msg(M != NULL, "machine_new: %s", err.msg);
    load_guest();
    add_fakenic();
    add_irq_devices();
    D = dbg_new(M);
    ck_assert_ptr_nonnull(D);
    D->batch = true;
    sb_init(&out);
    dbg_set_output(D, capture, NULL);
}

void fixture_teardown(void)
{
    dbg_free(D);
    machine_free(M);
    sb_free(&out);
    D = NULL;
    M = NULL;
}

const char *run(const char *cmd)
{
    sb_reset(&out);
    dbg_execute(D, cmd);
    if (getenv("DBG_TEST_ECHO")) /* debugging a test: show the session */
        fprintf(stderr, "(xbow) %s\n%s", cmd, out.s ? out.s : "");
    return out.s ? out.s : "";
}

const char *ok(const char *cmd)
{
    int f = D->failures;
    const char *o = run(cmd);
    ck_assert_msg(D->failures == f, "\"%s\" failed: %s", cmd, o);
    return o;
}

const char *bad(const char *cmd)
{
    int f = D->failures;
    const char *o = run(cmd);
    ck_assert_msg(D->failures > f, "\"%s\" should fail, printed: %s", cmd, o);
    return o;
}

int failures(void) { return D->failures; }
