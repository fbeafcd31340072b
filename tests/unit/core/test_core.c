/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/core: bus, device declarations, events, clock, ELF,
 * symbols. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/dev.h"
#include "core/elf.h"
#include "core/event.h"
#include "core/ratemeter.h"
#include "core/sched.h"
#include "core/symtab.h"
#include "../check_run.h"
#include "../mmio_probe.h"

/* ---- bus ---------------------------------------------------------------- */

START_TEST(bus_ram_and_aliases)
{
    bus b;
    bus_init(&b);
    ram_block *rb = ram_block_new(&b, "ram", 1 << 20);
    ck_assert_ptr_nonnull(rb);
    ck_assert_int_eq(bus_map_ram(&b, "cac", BUS_CAC(0), 1 << 20, rb, 0, false), 0);
    ck_assert_int_eq(bus_map_ram(&b, "uncac", BUS_UNC(3, 0), 1 << 20, rb, 0, false), 0);
    int cpu0 = initiator_register(&b, "cpu0", INIT_CPU, 0);
    ck_assert_int_eq(bus_write(&b, cpu0, BUS_CAC(0x100), 4, 0xdeadbeef), BUS_OK);
    uint64_t v = 0;
    /* Big-endian memory: the byte at the lowest address is the MSB. */
    ck_assert_int_eq(bus_read(&b, cpu0, BUS_UNC(3, 0x100), 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xde);
    ck_assert_int_eq(bus_read(&b, cpu0, BUS_UNC(3, 0x102), 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xbeef);
    /* Unaligned 8-byte access straddling nothing special is fine for RAM. */
    ck_assert_int_eq(bus_write(&b, cpu0, BUS_CAC(0x203), 8, 0x0102030405060708ull), BUS_OK);
    ck_assert_int_eq(bus_read(&b, cpu0, BUS_CAC(0x203), 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0102030405060708ull);
    bus_free(&b);
}
END_TEST

START_TEST(bus_nothing_there_is_an_error)
{
    bus b;
    bus_init(&b);
    ram_block *rb = ram_block_new(&b, "ram", 4096);
    bus_map_ram(&b, "cac", 0, 4096, rb, 0, false);
    uint64_t v = 42;
    ck_assert_int_eq(bus_read(&b, 0, 0x100000, 4, &v), BUS_ERROR);
    ck_assert_int_eq(bus_write(&b, 0, BUS_UNC(1, 0), 4, 1), BUS_ERROR);
    /* An access running off the end of a region is an error too. */
    ck_assert_int_eq(bus_read(&b, 0, 4094, 4, &v), BUS_ERROR);
    /* A block copy stops at the hole and says how far it got. */
    uint8_t buf[64];
    bus_op op = {.addr = 4096 - 16, .size = 64};
    uint64_t done = 0;
    ck_assert_int_eq(bus_read_block(&b, &op, buf, &done), BUS_ERROR);
    ck_assert_uint_eq(done, 16);
    bus_free(&b);
}
END_TEST

START_TEST(bus_overlap_rejected)
{
    bus b;
    bus_init(&b);
    mmio_probe p = {0};
    ck_assert_int_eq(bus_map_mmio(&b, "a", 0x1000, 0x1000, &mmio_probe_ops, &p), 0);
    ck_assert_int_ne(bus_map_mmio(&b, "b", 0x1800, 0x1000, &mmio_probe_ops, &p), 0);
    ck_assert_int_ne(bus_map_mmio(&b, "c", 0x0800, 0x1000, &mmio_probe_ops, &p), 0);
    ck_assert_int_eq(bus_map_mmio(&b, "d", 0x2000, 0x1000, &mmio_probe_ops, &p), 0);
    bus_free(&b);
}
END_TEST

START_TEST(bus_mmio_initiator_and_offset)
{
    bus b;
    bus_init(&b);
    mmio_probe p = {0};
    bus_map_mmio(&b, "dev", BUS_UNC(1, 0x01000000), 0x1000, &mmio_probe_ops, &p);
    int cpu1 = initiator_register(&b, "cpu1", INIT_CPU, 1);
    int nic = initiator_register(&b, "hamachi0", INIT_DEVICE, -1);
    ck_assert_int_ne(cpu1, nic);
    ck_assert_int_eq(initiator_find(&b, "hamachi0"), nic);
    ck_assert_int_eq(bus_write(&b, cpu1, BUS_UNC(1, 0x01000020), 8, 7), BUS_OK);
    ck_assert_uint_eq(p.off, 0x20);
    ck_assert_int_eq(p.initiator, cpu1);
    uint64_t v;
    ck_assert_int_eq(bus_read(&b, nic, BUS_UNC(1, 0x01000010), 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x11223344);
    ck_assert_int_eq(p.initiator, nic);
    /* A block write to MMIO is split into naturally aligned words. */
    uint8_t data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    bus_op op = {.addr = BUS_UNC(1, 0x01000100), .size = 12, .initiator = (uint16_t)nic};
    p.writes = 0;
    ck_assert_int_eq(bus_write_block(&b, &op, data, NULL), BUS_OK);
    ck_assert_uint_eq(p.writes, 2);
    ck_assert_uint_eq(p.size, 4);
    ck_assert_uint_eq(p.val, 0x090a0b0c);
    bus_free(&b);
}
END_TEST

typedef struct hook_log {
    unsigned n;
    bus_op last;
} hook_log;

static void hook(void *ctx, const bus_op *op)
{
    hook_log *h = ctx;
    h->n++;
    h->last = *op;
}

static unsigned code_hits;
static void code_written(void *ctx, ram_block *rb, uint64_t page)
{
    (void)ctx;
    (void)rb;
    (void)page;
    code_hits++;
}

/* A bus with 64 KiB of RAM at 0 and two initiators, the CPU cpu0 and the
 * device dev_name; returns the RAM. */
static ram_block *ram_bus(bus *b, const char *dev_name, int *cpu0, int *dev)
{
    bus_init(b);
    ram_block *rb = ram_block_new(b, "ram", 1 << 16);
    bus_map_ram(b, "ram", 0, 1 << 16, rb, 0, false);
    *cpu0 = initiator_register(b, "cpu0", INIT_CPU, 0);
    *dev = initiator_register(b, dev_name, INIT_DEVICE, -1);
    return rb;
}

START_TEST(bus_page_flags_and_hooks)
{
    bus b;
    int cpu0, dev;
    ram_block *rb = ram_bus(&b, "tigon0", &cpu0, &dev);
    hook_log h = {0};
    b.hook = hook;
    b.hook_ctx = &h;
    b.code_written = code_written;
    /* No flags, not armed: no hook. */
    bus_write(&b, dev, 0x100, 4, 1);
    ck_assert_uint_eq(h.n, 0);
    /* Armed for device accesses: device writes are reported, CPU ones not. */
    b.hooks_armed = true;
    bus_write(&b, dev, 0x100, 4, 1);
    bus_write(&b, cpu0, 0x100, 4, 1);
    ck_assert_uint_eq(h.n, 1);
    ck_assert_int_eq(h.last.initiator, dev);
    b.hooks_armed = false;
    /* A watched page reports CPU writes too, but only to that page. */
    ram_page_flags_set(&b, rb, 0x2000, 0x10, PF_WATCH_W);
    bus_write(&b, cpu0, 0x2008, 8, 5);
    bus_write(&b, cpu0, 0x3008, 8, 5);
    ck_assert_uint_eq(h.n, 2);
    ck_assert_uint_eq(h.last.addr, 0x2008);
    uint64_t v;
    bus_read(&b, cpu0, 0x2008, 8, &v); /* reads are not watched */
    ck_assert_uint_eq(h.n, 2);
    ram_page_flags_clear(&b, rb, 0x2000, 0x10, PF_WATCH_W);
    bus_write(&b, cpu0, 0x2008, 8, 5);
    ck_assert_uint_eq(h.n, 2);
    /* Writes to a decoded-code page, by anyone, invalidate it. */
    ram_page_flags_set(&b, rb, 0x4000, 4, PF_CODE);
    bus_op op = {.addr = 0x3ff0, .size = 0x20, .initiator = (uint16_t)dev};
    uint8_t buf[0x20] = {0};
    bus_write_block(&b, &op, buf, NULL);
    ck_assert_uint_eq(code_hits, 1);
    bus_poke(&b, 0x4004, buf, 4);
    ck_assert_uint_eq(code_hits, 2);
    bus_free(&b);
}
END_TEST

/* The bus hook subscriber list. */
static unsigned hook_calls[3];
static void hook0(void *ctx, const bus_op *op)
{
    (void)op;
    hook_calls[*(int *)ctx]++;
}

START_TEST(bus_hook_subscribers)
{
    bus b;
    int cpu0, nic;
    ram_block *rb = ram_bus(&b, "nic", &cpu0, &nic);
    static int ids[3] = {0, 1, 2};
    memset(hook_calls, 0, sizeof hook_calls);
    ck_assert_ptr_null(b.hook);
    int h0 = bus_hook_add(&b, hook0, &ids[0], false);
    int h1 = bus_hook_add(&b, hook0, &ids[1], false);
    ck_assert_int_ge(h0, 0);
    ck_assert_int_ne(h0, h1);
    ck_assert(!b.hooks_armed);
    /* Unflagged pages: nobody is called. */
    bus_write(&b, cpu0, 0x100, 4, 1);
    bus_write(&b, nic, 0x100, 4, 1);
    ck_assert_uint_eq(hook_calls[0] + hook_calls[1], 0);
    /* A flagged page: every subscriber sees the access. */
    ram_page_flags_set(&b, rb, 0x1000, 1, PF_WATCH_W);
    bus_write(&b, cpu0, 0x1004, 4, 1);
    ck_assert_uint_eq(hook_calls[0], 1);
    ck_assert_uint_eq(hook_calls[1], 1);
    uint64_t v;
    bus_read(&b, cpu0, 0x1004, 4, &v); /* reads are not watched there */
    ck_assert_uint_eq(hook_calls[0], 1);
    /* One wants every device access. */
    bus_hook_set_devices(&b, h1, true);
    ck_assert(b.hooks_armed);
    bus_read(&b, nic, 0x200, 4, &v);
    ck_assert_uint_eq(hook_calls[1], 2);
    ck_assert_uint_eq(hook_calls[0], 2); /* subscribers see what others asked for, and filter */
    bus_read(&b, cpu0, 0x200, 4, &v);    /* CPU accesses are not device accesses */
    ck_assert_uint_eq(hook_calls[1], 2);
    bus_hook_remove(&b, h1);
    ck_assert(!b.hooks_armed);
    bus_write(&b, cpu0, 0x1004, 4, 2);
    ck_assert_uint_eq(hook_calls[0], 3);
    ck_assert_uint_eq(hook_calls[1], 2);
    bus_hook_remove(&b, h0);
    ck_assert_ptr_null(b.hook);
    for (unsigned i = 0; i < BUS_MAX_HOOKS; i++)
        ck_assert_int_ge(bus_hook_add(&b, hook0, &ids[2], false), 0);
    ck_assert_int_eq(bus_hook_add(&b, hook0, &ids[2], false), -1);
    bus_free(&b);
}
END_TEST

/* ---- device declarations -------------------------------------------------- */

enum { R_CTRL, R_STATUS, R_ISR, R_CAUSE, R_BYTE, R_ARR, R_FULLREG, R_COUNTER };

typedef struct toy {
    unsigned ctrl_writes;
    uint64_t last_ctrl;
    unsigned counter_reads;
} toy;

static void ctrl_write(device *d, const reg_access *a)
{
    toy *t = d->priv;
    t->ctrl_writes++;
    t->last_ctrl = a->val;
    DEV_R(d, R_STATUS) |= 1; /* the command "starts" the engine */
}

static uint64_t counter_read(device *d, const reg_access *a)
{
    toy *t = d->priv;
    if (!a->peek)
        t->counter_reads++;
    return 0x1000 + t->counter_reads;
}

static const reg_field ctrl_fields[] = {
    {"EN", 0, 1, NULL}, {"MODE", 4, 2, (const char *const[]){"off", "slow", "fast", NULL}}};

/* clang-format off */
static const reg_decl toy_regs[] = {
    [R_CTRL] = {.name = "Ctrl", .offset = 0x00, .width = 2, REG_FIELDS(ctrl_fields),
                .write = ctrl_write},
    [R_STATUS] = {.name = "Status", .offset = 0x02, .width = 2, .rules = R_RO},
    [R_ISR] = {.name = "ISR", .offset = 0x04, .width = 4, .rules = R_RC},
    [R_CAUSE] = {.name = "Cause", .offset = 0x08, .width = 4, .rules = R_W1C},
    [R_BYTE] = {.name = "Byte", .offset = 0x0c, .width = 1, .reset = 0x5a},
    [R_ARR] = {.name = "Slot", .offset = 0x10, .width = 4, .count = 4, .stride = 4,
               .wmask = 0xffff},
    [R_FULLREG] = {.name = "Doorbell", .offset = 0x20, .width = 4, .rules = R_FULL},
    [R_COUNTER] = {.name = "Counter", .offset = 0x24, .width = 4, .rules = R_NOSTORE,
                   .read = counter_read},
};
/* clang-format on */

static const event_decl toy_events[] = {{"kick", "kicked", NULL, 0}};

static const device_class toy_class = {.name = "toy",
                                       .desc = "a test device",
                                       DEV_REGS(toy_regs),
                                       .reg_space = 0x40,
                                       .little_endian = true,
                                       DEV_EVENTS(toy_events)};

typedef struct ev_log {
    unsigned n;
    uint64_t vals[8];
} ev_log;

static void ev_logger(void *ctx, const event *ev)
{
    ev_log *l = ctx;
    l->n++;
    for (unsigned i = 0; i < ev->nvals && i < 8; i++)
        l->vals[i] = ev->vals[i];
}

START_TEST(dev_dispatch_le)
{
    sched s;
    sched_init(&s, 0);
    event_bus eb;
    event_bus_init(&eb, &s.now);
    toy t = {0};
    device *d = device_new(&toy_class, "toy0", &t, &eb, &s);
    device_reset(d);
    bus_op op = {0};
    uint64_t v;
    /* Reset value and a byte register. */
    dev_read(d, &op, 0x0c, 1, &v);
    ck_assert_uint_eq(v, 0x5a);
    /* Write hook sees the value; RO register ignores writes. */
    dev_write(d, &op, 0x00, 2, 0x21);
    ck_assert_uint_eq(t.ctrl_writes, 1);
    ck_assert_uint_eq(t.last_ctrl, 0x21);
    dev_write(d, &op, 0x02, 2, 0xffff);
    dev_read(d, &op, 0x02, 2, &v);
    ck_assert_uint_eq(v, 1);
    /* A 32-bit access over Ctrl+Status is split, little-endian lanes:
     * Ctrl in bits 15:0, Status in 31:16. */
    dev_read(d, &op, 0x00, 4, &v);
    ck_assert_uint_eq(v, 0x00010021);
    dev_write(d, &op, 0x00, 4, 0xabcd0002); /* Status part ignored (RO) */
    ck_assert_uint_eq(t.last_ctrl, 0x0002);
    ck_assert_uint_eq(DEV_R(d, R_STATUS), 1);
    /* Byte write into the high byte of Ctrl merges. */
    dev_write(d, &op, 0x01, 1, 0x80);
    ck_assert_uint_eq(DEV_R(d, R_CTRL), 0x8002);
    /* Read-to-clear: peek leaves it, a read clears it. */
    DEV_R(d, R_ISR) = 0x101;
    ck_assert_uint_eq(dev_peek(d, R_ISR, 0), 0x101);
    dev_read(d, &op, 0x04, 4, &v);
    ck_assert_uint_eq(v, 0x101);
    dev_read(d, &op, 0x04, 4, &v);
    ck_assert_uint_eq(v, 0);
    /* Write-1-to-clear. */
    DEV_R(d, R_CAUSE) = 0xf0;
    dev_write(d, &op, 0x08, 4, 0x30);
    ck_assert_uint_eq(DEV_R(d, R_CAUSE), 0xc0);
    /* Arrays with a writable mask. */
    dev_write(d, &op, 0x18, 4, 0x12345678);
    ck_assert_uint_eq(*dev_rv(d, R_ARR, 2), 0x5678);
    /* Full-width-only register: a 2-byte write is dropped and reported. */
    ev_log bad = {0};
    event_subscribe(d->ev[DEV_EV_BAD_ACCESS], ev_logger, &bad);
    dev_write(d, &op, 0x20, 2, 0xffff);
    ck_assert_uint_eq(DEV_R(d, R_FULLREG), 0);
    ck_assert_uint_eq(bad.n, 1);
    dev_write(d, &op, 0x20, 4, 0x1234);
    ck_assert_uint_eq(DEV_R(d, R_FULLREG), 0x1234);
    /* Nothing decodes at 0x30: reads 0, reported. */
    dev_read(d, &op, 0x30, 4, &v);
    ck_assert_uint_eq(v, 0);
    ck_assert_uint_eq(bad.n, 2);
    /* Computed register: peek has no side effects. */
    ck_assert_uint_eq(dev_peek(d, R_COUNTER, 0), 0x1000);
    ck_assert_uint_eq(dev_peek(d, R_COUNTER, 0), 0x1000);
    dev_read(d, &op, 0x24, 4, &v);
    ck_assert_uint_eq(v, 0x1001);
    device_free(d);
    event_bus_free(&eb);
}
END_TEST

/* What a hook is told about an access: the register, the element, its
 * offset, who made the access, peek, the value written and the old one. */
enum { A_CMD, A_SLOT, A_NREGS };
static reg_access seen[4];
static unsigned nseen;

static uint64_t note_read(device *d, const reg_access *a)
{
    seen[nseen++ % 4] = *a;
    return 0x40 + a->idx;
}

static void note_write(device *d, const reg_access *a) { seen[nseen++ % 4] = *a; }

/* clang-format off */
static const reg_decl access_regs[] = {
    [A_CMD] = {.name = "Cmd", .offset = 0x0, .width = 4, .reset = 0x11, .wmask = 0xff,
               .write = note_write},
    [A_SLOT] = {.name = "Slot", .offset = 0x10, .width = 4, .count = 4, .stride = 8,
                .rules = R_NOSTORE, .read = note_read, .write = note_write},
};
/* clang-format on */
DEV_REGS_CHECK(access_regs, A_NREGS);
static const device_class access_class = {
    .name = "acc", DEV_REGS(access_regs), .reg_space = 0x40, .little_endian = true};

/* The i-th access a hook saw. */
static void check_seen(unsigned i, unsigned id, unsigned idx, uint32_t offset, int who, bool peek)
{
    ck_assert_uint_eq(seen[i].id, id);
    ck_assert_uint_eq(seen[i].idx, idx);
    ck_assert_uint_eq(seen[i].offset, offset);
    ck_assert_int_eq(seen[i].who, who);
    ck_assert(seen[i].peek == peek);
}

START_TEST(dev_hooks_see_the_access)
{
    device *d = device_new(&access_class, "acc0", NULL, NULL, NULL);
    device_reset(d);
    bus_op op = {.initiator = 7};
    uint64_t v;
    nseen = 0;
    /* A byte write into Cmd: the hook gets the whole register, the bytes
     * not written keeping their old value, and the old value. */
    dev_write(d, &op, 0x1, 1, 0xab);
    ck_assert_uint_eq(nseen, 1);
    check_seen(0, A_CMD, 0, 0x0, 7, false);
    ck_assert_uint_eq(seen[0].val, 0xab11);
    ck_assert_uint_eq(seen[0].old, 0x11);
    ck_assert_uint_eq(DEV_R(d, A_CMD), 0x11); /* wmask 0xff: the stored value */
    /* Element 2 of the array, read by initiator 7. */
    dev_read(d, &op, 0x20, 4, &v);
    ck_assert_uint_eq(v, 0x42);
    check_seen(1, A_SLOT, 2, 0x20, 7, false);
    /* The debugger's look: peek, nobody's access. */
    ck_assert_uint_eq(dev_peek(d, A_SLOT, 3), 0x43);
    check_seen(2, A_SLOT, 3, 0x28, -1, true);
    /* The model's own access (no bus op): the device's initiator.  The old
     * value of an R_NOSTORE register is the read hook's (a peek). */
    d->initiator = 5;
    nseen = 0;
    dev_write(d, NULL, 0x18, 4, 0x99);
    ck_assert_uint_eq(nseen, 2);
    check_seen(0, A_SLOT, 1, 0x18, -1, true);
    check_seen(1, A_SLOT, 1, 0x18, 5, false);
    ck_assert_uint_eq(seen[1].val, 0x99);
    ck_assert_uint_eq(seen[1].old, 0x41);
    device_free(d);
}
END_TEST

/* A register table with a hole (a register id left out) is a bug in the
 * model: building the device stops the program. */
/* clang-format off */
static const reg_decl holed_regs[] = {
    [0] = {.name = "A", .offset = 0x0, .width = 4},
    [2] = {.name = "C", .offset = 0x8, .width = 4},
};
/* clang-format on */
static const device_class holed_class = {.name = "holed", DEV_REGS(holed_regs)};

START_TEST(dev_table_with_a_hole) { device_new(&holed_class, "holed0", NULL, NULL, NULL); }
END_TEST

/* clang-format off */
static const reg_decl be_regs[] = {
    {.name = "WID", .offset = 0x00, .width = 8, .reset = 0x0102030405060708ull},
    {.name = "CTL", .offset = 0x08, .width = 8},
};
/* clang-format on */
static const device_class be_class = {.name = "be", DEV_REGS(be_regs), .little_endian = false};

START_TEST(dev_dispatch_be)
{
    device *d = device_new(&be_class, "be0", NULL, NULL, NULL);
    device_reset(d);
    bus_op op = {0};
    uint64_t v;
    /* Big-endian lanes: the word at offset 4 is the low half. */
    dev_read(d, &op, 0x04, 4, &v);
    ck_assert_uint_eq(v, 0x05060708);
    dev_read(d, &op, 0x00, 1, &v);
    ck_assert_uint_eq(v, 0x01);
    dev_write(d, &op, 0x0c, 4, 0xcafef00d);
    ck_assert_uint_eq(DEV_R(d, 1), 0xcafef00dull);
    dev_write(d, &op, 0x08, 2, 0x1234);
    ck_assert_uint_eq(DEV_R(d, 1), 0x12340000cafef00dull);
    device_free(d);
}
END_TEST

START_TEST(dev_names_and_views)
{
    device *d = device_new(&toy_class, "toy0", &(toy){0}, NULL, NULL);
    device_reset(d);
    unsigned id, idx;
    ck_assert_int_eq(dev_reg_lookup(d, "Slot2", &id, &idx), 0);
    ck_assert_uint_eq(id, R_ARR);
    ck_assert_uint_eq(idx, 2);
    ck_assert_int_eq(dev_reg_lookup(d, "Slot(3)", &id, &idx), 0);
    ck_assert_uint_eq(idx, 3);
    ck_assert_int_ne(dev_reg_lookup(d, "Slot4", &id, &idx), 0);
    ck_assert_int_ne(dev_reg_lookup(d, "Slot", &id, &idx), 0);
    ck_assert_int_eq(dev_reg_lookup(d, "ctrl", &id, &idx), 0); /* case-insensitive fallback */
    ck_assert_uint_eq(id, R_CTRL);
    ck_assert_ptr_nonnull(dev_field_lookup(&toy_regs[R_CTRL], "mode"));
    DEV_R(d, R_CTRL) = 0x21;
    strbuf b;
    sb_init(&b);
    dev_format_fields(&toy_regs[R_CTRL], 0x21, &b);
    ck_assert_str_eq(b.s, "EN=1 MODE=fast");
    sb_reset(&b);
    dev_show(d, &b);
    ck_assert_ptr_nonnull(strstr(b.s, "Ctrl"));
    ck_assert_ptr_nonnull(strstr(b.s, "MODE=fast"));
    ck_assert_ptr_nonnull(strstr(b.s, "Slot3"));
    sb_free(&b);
    device_free(d);
}
END_TEST

START_TEST(dev_register_events)
{
    sched s;
    sched_init(&s, 0);
    s.now = 77;
    event_bus eb;
    event_bus_init(&eb, &s.now);
    toy t = {0};
    device *d = device_new(&toy_class, "toy0", &t, &eb, &s);
    device_reset(d);
    ck_assert_ptr_nonnull(event_find(&eb, "toy0.reg.write"));
    ck_assert_ptr_nonnull(event_find(&eb, "toy0.kick"));
    ev_log w = {0};
    event_subscribe(event_find(&eb, "toy0.reg.write"), ev_logger, &w);
    bus_op op = {0};
    dev_write(d, &op, 0x10, 4, 0xff);
    ck_assert_uint_eq(w.n, 1);
    ck_assert_uint_eq(w.vals[0], R_ARR);
    ck_assert_uint_eq(w.vals[1], 0);
    ck_assert_uint_eq(w.vals[3], 0xff);
    device_free(d);
    event_bus_free(&eb);
}
END_TEST

/* ---- events ----------------------------------------------------------------- */

static const event_field f2[] = {
    {"len", EVF_DEC, NULL, NULL},
    {"cause", EVF_FLAGS, (const char *const[]){"rx", "tx", NULL}, NULL}};
static const event_decl d2 = {"tx.done", "a frame went out", f2, 2};

static int unsub_id;
static event_bus *unsub_bus;
static void self_unsub(void *ctx, const event *ev)
{
    (void)ev;
    (*(unsigned *)ctx)++;
    event_unsubscribe(unsub_bus, unsub_id);
}

START_TEST(events_subscribe_format_glob)
{
    uint64_t now = 5;
    event_bus eb;
    event_bus_init(&eb, &now);
    event_src *a = event_src_add(&eb, "nic0", &d2, NULL);
    event_src *b = event_src_add(&eb, "nic1", &d2, NULL);
    ck_assert_str_eq(a->name, "nic0.tx.done");
    ck_assert(!event_armed(a));
    /* Nobody listens: EVENT_EMIT does nothing. */
    EVENT_EMIT(a, -1, 1, 2);
    ev_log l = {0};
    int id = event_subscribe_glob(&eb, "nic*.tx.*", ev_logger, &l);
    ck_assert_int_gt(id, 0);
    ck_assert(event_armed(a) && event_armed(b));
    EVENT_EMIT(b, 3, 1514, 2);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_uint_eq(l.vals[0], 1514);
    strbuf s;
    sb_init(&s);
    event ev = {.src = b, .time = 5, .initiator = 3, .nvals = 2, .vals = (uint64_t[]){1514, 3}};
    event_format(&ev, &s);
    ck_assert_str_eq(s.s, "nic1.tx.done len=1514 cause=0x3<rx,tx>");
    sb_free(&s);
    event_unsubscribe(&eb, id);
    ck_assert(!event_armed(a) && !event_armed(b));
    ck_assert_int_eq(event_subscribe_glob(&eb, "nomatch.*", ev_logger, &l), 0);
    ck_assert_int_eq(event_field_index(a, "cause"), 1);
    ck_assert_int_eq(event_field_index(a, "nope"), -1);
    /* A subscriber may remove itself while the event is being dispatched. */
    unsigned calls = 0;
    unsub_bus = &eb;
    unsub_id = event_subscribe(a, self_unsub, &calls);
    EVENT_EMIT(a, -1, 1, 1);
    EVENT_EMIT(a, -1, 1, 1);
    ck_assert_uint_eq(calls, 1);
    ck_assert(!event_armed(a));
    event_bus_free(&eb);
}
END_TEST

START_TEST(glob_patterns)
{
    ck_assert(glob_match("*", "anything"));
    ck_assert(glob_match("a*c", "abbbc"));
    ck_assert(!glob_match("a*c", "abbbd"));
    ck_assert(glob_match("cpu?.exception", "cpu1.exception"));
    ck_assert(!glob_match("cpu?.exception", "cpu10.exception"));
}
END_TEST

/* ---- scheduler ------------------------------------------------------------ */

static char order[16];
static unsigned norder;
static void mark(void *o) { order[norder++] = *(const char *)o; }

START_TEST(sched_order_is_deterministic)
{
    sched s;
    sched_init(&s, 1000);
    timer ta, tb, tc, td;
    timer_init(&ta, "a", mark, "a");
    timer_init(&tb, "b", mark, "b");
    timer_init(&tc, "c", mark, "c");
    timer_init(&td, "d", mark, "d");
    norder = 0;
    timer_mod(&s, &tb, 20);
    timer_mod(&s, &ta, 10);
    timer_mod(&s, &tc, 20); /* same time as b: fires after b */
    timer_mod(&s, &td, 30);
    ck_assert_uint_eq(sched_next(&s), 10);
    timer_del(&s, &td);
    ck_assert(!timer_pending(&td));
    s.now = 15;
    sched_run_due(&s);
    ck_assert_uint_eq(norder, 1);
    s.now = 25;
    sched_run_due(&s);
    order[norder] = 0;
    ck_assert_str_eq(order, "abc");
    ck_assert_uint_eq(sched_next(&s), UINT64_MAX);
    /* Re-arming in the past fires at now. */
    timer_mod(&s, &ta, 3);
    ck_assert_uint_eq(ta.when, 25);
    ck_assert_uint_eq(sched_ns_to_ticks(&s, 1000000000ull), 1000);
    ck_assert_uint_eq(sched_ticks_to_ns(&s, 1), 1000000);
}
END_TEST

/* sched_run_until fires each timer at its own time, in order, and those a
 * handler arms inside the window too; now ends at the target. */
static sched *chain_s;
static timer chain_t;
static uint64_t fired_now[4];
static void chain(void *o)
{
    (void)o;
    fired_now[norder] = chain_s->now;
    order[norder++] = 'x';
    if (norder < 3)
        timer_mod(chain_s, &chain_t, chain_s->now + 40);
}

START_TEST(sched_run_until_fires_each_at_its_time)
{
    sched s;
    sched_init(&s, 1000);
    chain_s = &s;
    timer_init(&chain_t, "x", chain, NULL);
    norder = 0;
    timer_mod(&s, &chain_t, 30);
    sched_run_until(&s, 100); /* 30, 70; the third (110) is past the window */
    ck_assert_uint_eq(norder, 2);
    ck_assert_uint_eq(fired_now[0], 30);
    ck_assert_uint_eq(fired_now[1], 70);
    ck_assert_uint_eq(s.now, 100);
    ck_assert_uint_eq(sched_next(&s), 110);
    sched_run_until(&s, 50); /* the past: nothing fires, time stays */
    ck_assert_uint_eq(s.now, 100);
    sched_run_until(&s, 110);
    ck_assert_uint_eq(norder, 3);
    ck_assert_uint_eq(fired_now[2], 110);
    ck_assert_uint_eq(sched_next(&s), UINT64_MAX);
}
END_TEST

static int earlier_calls;
static uint64_t earlier_when;
static void count_earlier(void *ctx, uint64_t when)
{
    ++*(int *)ctx;
    earlier_when = when;
}

START_TEST(sched_tells_about_earlier_timers)
{
    sched s;
    sched_init(&s, 1000);
    timer ta;
    timer_init(&ta, "a", mark, "a");
    earlier_calls = 0;
    s.earlier = count_earlier;
    s.earlier_ctx = &earlier_calls;
    timer_mod(&s, &ta, 50); /* nobody runs ahead (horizon 0) */
    ck_assert_int_eq(earlier_calls, 0);
    s.horizon = 100; /* a CPU runs up to 100 */
    timer_mod(&s, &ta, 150);
    ck_assert_int_eq(earlier_calls, 0);
    timer_mod(&s, &ta, 60);
    ck_assert_int_eq(earlier_calls, 1);
    ck_assert_uint_eq(earlier_when, 60); /* (where the timer is due) */
}
END_TEST

/* ---- ELF ------------------------------------------------------------------ */

/* Build a small ELF64 BE MIPS executable: one PT_LOAD at vaddr with `code`,
 * plus a symbol table with one function. */
static size_t make_elf64(uint8_t *buf, uint64_t vaddr, const uint8_t *code, size_t n)
{
    memset(buf, 0, 0x400);
    memcpy(buf, "\177ELF", 4);
    buf[4] = 2; /* 64-bit */
    buf[5] = 2; /* big-endian */
    buf[6] = 1;
    store_be(buf + 16, 2, 2); /* ET_EXEC */
    store_be(buf + 18, 2, 8); /* EM_MIPS */
    store_be(buf + 20, 4, 1);
    store_be(buf + 24, 8, vaddr); /* entry */
    store_be(buf + 32, 8, 64);    /* phoff */
    store_be(buf + 40, 8, 0x200); /* shoff */
    store_be(buf + 52, 2, 64);
    store_be(buf + 54, 2, 56); /* phentsize */
    store_be(buf + 56, 2, 1);  /* phnum */
    store_be(buf + 58, 2, 64); /* shentsize */
    store_be(buf + 60, 2, 3);  /* shnum */
    uint8_t *ph = buf + 64;
    store_be(ph, 4, 1); /* PT_LOAD */
    store_be(ph + 4, 4, 5);
    store_be(ph + 8, 8, 0x100); /* offset */
    store_be(ph + 16, 8, vaddr);
    store_be(ph + 24, 8, vaddr);
    store_be(ph + 32, 8, n);      /* filesz */
    store_be(ph + 40, 8, n + 16); /* memsz: 16 bytes of bss */
    memcpy(buf + 0x100, code, n);
    /* .symtab at 0x180 (2 entries), .strtab at 0x1e0 */
    uint8_t *sym = buf + 0x180 + 24;
    store_be(sym, 4, 1); /* name "main" at strtab+1 */
    sym[4] = 0x12;       /* GLOBAL FUNC */
    store_be(sym + 6, 2, 1);
    store_be(sym + 8, 8, vaddr);
    store_be(sym + 16, 8, n);
    memcpy(buf + 0x1e0, "\0main\0", 6);
    uint8_t *sh = buf + 0x200 + 64; /* section 1: symtab */
    store_be(sh + 4, 4, 2);
    store_be(sh + 24, 8, 0x180);
    store_be(sh + 32, 8, 48);
    store_be(sh + 40, 4, 2); /* link: strtab */
    store_be(sh + 56, 8, 24);
    sh += 64; /* section 2: strtab */
    store_be(sh + 4, 4, 3);
    store_be(sh + 24, 8, 0x1e0);
    store_be(sh + 32, 8, 6);
    return 0x200 + 3 * 64;
}

START_TEST(elf_load_and_symbols)
{
    uint8_t file[0x400];
    const uint8_t code[8] = {0x24, 0x02, 0x00, 0x2a, 0x03, 0xe0, 0x00, 0x08};
    size_t n = make_elf64(file, 0xa80000000001c000ull, code, sizeof code);
    elf_image img;
    xerr err;
    ck_assert_msg(elf_parse(file, n, &img, &err) == 0, "%s", err.msg);
    ck_assert(img.is64);
    ck_assert_uint_eq(img.entry, 0xa80000000001c000ull);
    ck_assert_uint_eq(img.nsegs, 1);
    ck_assert_uint_eq(img.segs[0].bus_addr, 0x1c000);
    bus b;
    bus_init(&b);
    ram_block *rb = ram_block_new(&b, "ram", 1 << 20);
    bus_map_ram(&b, "cac", 0, 1 << 20, rb, 0, false);
    memset(rb->host + 0x1c008, 0xee, 16);
    ck_assert_int_eq(elf_load(&img, &b, &err), 0);
    ck_assert_mem_eq(rb->host + 0x1c000, code, 8);
    ck_assert_uint_eq(rb->host[0x1c008], 0); /* bss cleared */
    ck_assert_uint_eq(rb->host[0x1c017], 0);
    symtab st;
    symtab_init(&st);
    ck_assert_int_eq(elf_symbols(&img, &st, &err), 1);
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&st, 0xa80000000001c004ull, &off);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->name, "main");
    ck_assert_uint_eq(off, 4);
    ck_assert_ptr_null(symtab_lookup_addr(&st, 0xa80000000001c008ull, &off));
    char buf[64];
    ck_assert_str_eq(symtab_format(&st, 0xa80000000001c004ull, buf, sizeof buf), "main+0x4");
    symtab_free(&st);
    elf_free(&img);
    bus_free(&b);
}
END_TEST

static void expect_reject(const uint8_t *data, size_t n, const char *needle)
{
    elf_image img;
    xerr err = {0};
    ck_assert_int_eq(elf_parse(data, n, &img, &err), -1);
    ck_assert_msg(strstr(err.msg, needle) != NULL, "error \"%s\" lacks \"%s\"", err.msg, needle);
}

START_TEST(elf_rejects_bad_files)
{
    uint8_t good[0x400], bad[0x400];
    const uint8_t code[4] = {0, 0, 0, 0};
    size_t n = make_elf64(good, 0xffffffff80020000ull, code, 4);
    /* Every truncation is rejected with a message, never a crash. */
    for (size_t cut = 0; cut < 0x104; cut++) {
        elf_image img;
        xerr err;
        ck_assert_int_eq(elf_parse(good, cut, &img, &err), -1);
        ck_assert(err.msg[0] != 0);
    }
    memcpy(bad, good, n);
    bad[0] = 'X';
    expect_reject(bad, n, "magic");
    memcpy(bad, good, n);
    bad[5] = 1;
    expect_reject(bad, n, "little-endian");
    memcpy(bad, good, n);
    store_be(bad + 18, 2, 62);
    expect_reject(bad, n, "architecture");
    memcpy(bad, good, n);
    store_be(bad + 54, 2, 32);
    expect_reject(bad, n, "program header size");
    memcpy(bad, good, n);
    store_be(bad + 64 + 32, 8, 0x10000); /* filesz beyond file and memsz */
    expect_reject(bad, n, "segment 0");
    memcpy(bad, good, n);
    store_be(bad + 64 + 16, 8, 0x400000ull); /* useg: mapped */
    expect_reject(bad, n, "mapped");
    /* Corrupt symbol table: elf_symbols reports it. */
    memcpy(bad, good, n);
    store_be(bad + 0x200 + 64 + 24, 8, 0x100000);
    elf_image img;
    xerr err;
    ck_assert_int_eq(elf_parse(bad, n, &img, &err), 0);
    symtab st;
    symtab_init(&st);
    ck_assert_int_eq(elf_symbols(&img, &st, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "symbol table"));
    symtab_free(&st);
    elf_free(&img);
    /* Random corruption of header bytes never crashes. */
    srand(1);
    for (int i = 0; i < 2000; i++) {
        memcpy(bad, good, n);
        for (int k = 0; k < 4; k++)
            bad[rand() % 0x280] = (uint8_t)rand();
        if (elf_parse(bad, n, &img, &err) == 0) {
            symtab_init(&st);
            elf_symbols(&img, &st, &err);
            symtab_free(&st);
            elf_free(&img);
        }
    }
}
END_TEST

START_TEST(elf_vaddr_segments)
{
    uint64_t a;
    ck_assert(elf_vaddr_to_bus(0xffffffff80001000ull, &a) && a == 0x1000);
    ck_assert(elf_vaddr_to_bus(0xffffffffbfc00000ull, &a) && a == BUS_UNC(0, 0x1fc00000));
    ck_assert(elf_vaddr_to_bus(0x9600000000004000ull, &a) && a == BUS_UNC(3, 0x4000));
    ck_assert(elf_vaddr_to_bus(0x9200000001600000ull, &a) && a == BUS_UNC(1, 0x01600000));
    ck_assert(elf_vaddr_to_bus(0xa800000000020000ull, &a) && a == 0x20000);
    ck_assert(!elf_vaddr_to_bus(0x0000000000400000ull, &a));
    ck_assert(!elf_vaddr_to_bus(0xc000000000000000ull, &a));
    ck_assert(!elf_vaddr_to_bus(0xa800100000000000ull, &a));
    /* CCA 7 (uncached accelerated) is uncached, as for the CPU. */
    ck_assert(elf_vaddr_to_bus(0xba00000000020000ull, &a) && a == BUS_UNC(1, 0x20000));
    ck_assert(elf_vaddr_to_bus(0xb800000000020000ull, &a) && a == BUS_UNC(0, 0x20000));
    /* Segment names for the debugger's messages. */
    ck_assert_str_eq(mips_segment_name(0x400000), "KUSEG");
    ck_assert_str_eq(mips_segment_name(0xfff00000000ull), "XKUSEG");
    ck_assert_ptr_null(mips_segment_name(1ull << 44));
    ck_assert_str_eq(mips_segment_name(0x4000000000001000ull), "XKSSEG");
    ck_assert_ptr_null(mips_segment_name(0x4000100000000000ull));
    ck_assert_str_eq(mips_segment_name(0xa800000000020000ull), "XKPHYS");
    ck_assert_str_eq(mips_segment_name(0xc000000000001000ull), "XKSEG");
    ck_assert_str_eq(mips_segment_name(0xc00000ff7fffffffull), "XKSEG");
    ck_assert_ptr_null(mips_segment_name(0xc00000ff80000000ull));
    ck_assert_str_eq(mips_segment_name(0xffffffff80000000ull), "KSEG0");
    ck_assert_str_eq(mips_segment_name(0xffffffffa0000000ull), "KSEG1");
    ck_assert_str_eq(mips_segment_name(0xffffffffc0000000ull), "KSSEG");
    ck_assert_str_eq(mips_segment_name(0xffffffffe0000000ull), "KSEG3");
}
END_TEST

START_TEST(symtab_map_file)
{
    char path[] = "/tmp/xbow-test-mapXXXXXX";
    check_temp_file(
        path, "a80000000001c000 T _text\na80000000001c100 t helper\na800000000300000 D jiffies\n");
    symtab st;
    symtab_init(&st);
    xerr err;
    ck_assert_int_eq(symtab_load_map(&st, path, &err), 3);
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&st, 0xa80000000001c110ull, &off);
    ck_assert_str_eq(s->name, "helper");
    ck_assert_uint_eq(off, 0x10);
    ck_assert_uint_eq(symtab_lookup_name(&st, "jiffies")->addr, 0xa800000000300000ull);
    FILE *f = fopen(path, "w");
    fprintf(f, "this is not a map\n");
    fclose(f);
    ck_assert_int_eq(symtab_load_map(&st, path, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, ":1:"));
    unlink(path);
    symtab_free(&st);
}
END_TEST


/* The rate meter: rates over the window in virtual time exactly; host time
 * only while running (a pause does not count); counters that go back
 * (reset, snapshot) start it over. */
START_TEST(ratemeter_window_and_pause)
{
    rate_meter r;
    rate_result res;
    uint64_t v[RATE_NVALS] = {0};
    const uint64_t hz = 1000000; /* 1 tick = 1 us; window 0.5 s */
    rate_init(&r, 500000);
    rate_read(&r, 0, hz, v, &res);
    ck_assert(!res.valid);
    /* 1000 frames of 1500 bytes a second for 2 s, one tick per frame */
    for (uint64_t t = 0; t <= 2000000; t += 1000) {
        v[0] = t / 1000;
        v[1] = v[0] * 1500;
        rate_tick(&r, t, v);
    }
    ck_assert_uint_le(r.count, RATE_SLOTS + 1);
    rate_read(&r, 2000000, hz, v, &res);
    ck_assert(res.valid);
    ck_assert(res.vt_span >= 0.49 && res.vt_span <= 0.5);
    ck_assert(res.per_vt[0] > 999.9 && res.per_vt[0] < 1000.1);
    ck_assert(res.per_vt[1] > 1499999 && res.per_vt[1] < 1500001);
    ck_assert(res.per_vt[2] == 0);
    ck_assert(res.per_host[0] > 0); /* a host rate exists (its value: the host's) */
    /* The traffic stops: the rate decays with virtual time. */
    rate_read(&r, 4000000, hz, v, &res);
    ck_assert(res.valid);
    ck_assert(res.per_vt[0] < 1000.0 * 0.5 / 2.0 + 0.1);
    /* Paused: host time stands still, and the stop does not count later. */
    uint64_t now = rate_host_ns();
    rate_pause(&r, now);
    rate_read(&r, 2000000, hz, v, &res);
    double h1 = res.host_span;
    struct timespec ts = {0, 200000000}; /* stopped for 0.2 s */
    nanosleep(&ts, NULL);
    rate_read(&r, 2000000, hz, v, &res);
    ck_assert(res.host_span == h1);
    rate_resume(&r, rate_host_ns());
    rate_read(&r, 2000000, hz, v, &res);
    ck_assert(res.host_span >= h1 && res.host_span < h1 + 0.1);
    /* Counters back to 0: the next sample starts over. */
    uint64_t z[RATE_NVALS] = {5, 7500, 0, 0};
    rate_tick(&r, 2100000, z);
    ck_assert_uint_eq(r.count, 1);
    rate_read(&r, 2100000, hz, z, &res);
    ck_assert(res.valid && res.per_vt[0] == 0);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    check_add_tests(check_case(s, "bus", NULL, NULL, 0), bus_ram_and_aliases,
                    bus_nothing_there_is_an_error, bus_overlap_rejected,
                    bus_mmio_initiator_and_offset, bus_page_flags_and_hooks, bus_hook_subscribers);
    TCase *t = check_case(s, "dev", NULL, NULL, 0);
    check_add_tests(t, dev_dispatch_le, dev_dispatch_be, dev_names_and_views, dev_register_events,
                    dev_hooks_see_the_access);
    tcase_add_test_raise_signal(t, dev_table_with_a_hole, SIGABRT);
    check_add_tests(check_case(s, "event", NULL, NULL, 0), events_subscribe_format_glob,
                    glob_patterns);
    check_add_tests(check_case(s, "sched", NULL, NULL, 0), sched_order_is_deterministic,
                    sched_run_until_fires_each_at_its_time, sched_tells_about_earlier_timers);
    check_add_tests(check_case(s, "ratemeter", NULL, NULL, 0), ratemeter_window_and_pause);
    check_add_tests(check_case(s, "elf", NULL, NULL, 0), elf_load_and_symbols,
                    elf_rejects_bad_files, elf_vaddr_segments, symtab_map_file);
    return s;
}

int main(void) { return check_run(core_suite()) ? EXIT_FAILURE : EXIT_SUCCESS; }
