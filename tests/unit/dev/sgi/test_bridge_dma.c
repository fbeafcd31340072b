/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bridge DMA: every window in both swap modes (byte-exact, unaligned),
 * counters, events, the bus hook's view, errors, and the test device end to
 * end through PIO, DMA and interrupts. */
#include <check.h>
#include <string.h>

#include "bridge_fixture.h"
#include "../../check_run.h"
#include "dev/pci/testdev.h"

TCase *bridge_dma_tcase(void);

#define SWAP_PMU 0x00100000u
#define SWAP_DIR 0x00080000u

static uint8_t *ram(fixture *fx, uint64_t a) { return fx->ram->host + a; }

/* Slot `slot` bus master, RAM filled with 0xee, Linux's DIR_MAP/interrupts. */
static void dma_setup(fixture *fx, fake_func *ff, int slot, uint32_t devbits)
{
    fx_plug_fake(fx, slot, ff, slot ? "dev1" : "dev0", 0x1000, 0);
    pci_config_write(&ff->f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    memset(fx->ram->host, 0xee, FX_RAM_SIZE);
    fx_linux_int_setup(fx);
    fx_setreg(fx, B_DEVICE(slot), devbits);
}

static const uint8_t pat[16] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
                                0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};

START_TEST(dma_direct_byte_stream)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 0, SWAP_DIR);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80001000, pat, 16, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(ram(&fx, 0x1000), pat, 16);
    /* Unaligned start and end: exactly those bytes. */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80002003, pat, 9, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_uint_eq(*ram(&fx, 0x2002), 0xee);
    ck_assert_mem_eq(ram(&fx, 0x2003), pat, 9);
    ck_assert_uint_eq(*ram(&fx, 0x200c), 0xee);
    uint8_t back[9];
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x80002003, back, 9, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(back, pat, 9);
    /* A little-endian descriptor word lands as LE bytes in memory. */
    ck_assert_int_eq(pci_dma_write32(&ff.f, 0x80003000, 0x11223344), PCI_DMA_OK);
    static const uint8_t le[4] = {0x44, 0x33, 0x22, 0x11};
    ck_assert_mem_eq(ram(&fx, 0x3000), le, 4);
    /* DIR_OFF and ADD512 move the window in XIO space. */
    fx_setreg(&fx, B_DIR_MAP, 0xau << 20 | 1u << 17);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80000010, pat, 4, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_RESP_LOWER), 0x20000010);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    fx_setreg(&fx, B_DIR_MAP, 0xau << 20 | 1); /* DIR_OFF 1: XIO 2 GB */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80000010, pat, 4, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_RESP_LOWER), 0x80000010);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    fx_setreg(&fx, B_DIR_MAP, 0xau << 20);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_direct_word_values)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 0, 0);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80001000, pat, 8, PCI_DMA_BULK), PCI_DMA_OK);
    static const uint8_t swapped[8] = {0x13, 0x12, 0x11, 0x10, 0x17, 0x16, 0x15, 0x14};
    ck_assert_mem_eq(ram(&fx, 0x1000), swapped, 8);
    /* A 32-bit word keeps its numeric value: big-endian memory reads it. */
    ck_assert_int_eq(pci_dma_write32(&ff.f, 0x80001010, 0x11223344), PCI_DMA_OK);
    uint64_t v;
    ck_assert_int_eq(bus_read(&fx.bus, fx.cpu, BUS_CAC(0x1010), 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x11223344);
    uint32_t w;
    ck_assert_int_eq(pci_dma_read32(&ff.f, 0x80001010, &w), PCI_DMA_OK);
    ck_assert_uint_eq(w, 0x11223344);
    /* Unaligned: PCI bytes 1..6 go to memory bytes 2,1,0 and 7,6,5. */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80002001, pat, 6, PCI_DMA_BULK), PCI_DMA_OK);
    static const uint8_t want[8] = {0x12, 0x11, 0x10, 0xee, 0xee, 0x15, 0x14, 0x13};
    ck_assert_mem_eq(ram(&fx, 0x2000), want, 8);
    uint8_t back[6];
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x80002001, back, 6, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(back, pat, 6);
    /* Inside one word. */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80002009, pat, 2, PCI_DMA_WORD), PCI_DMA_OK);
    static const uint8_t want2[4] = {0xee, 0x11, 0x10, 0xee};
    ck_assert_mem_eq(ram(&fx, 0x2008), want2, 4);
    /* Long unaligned run: 1 + whole words + 3. */
    uint8_t big[64], rd[64];
    for (unsigned i = 0; i < 64; i++)
        big[i] = (uint8_t)(0x80 + i);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80004003, big, 64, PCI_DMA_BULK), PCI_DMA_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(*ram(&fx, (0x4003 + i) ^ 3), big[i]);
    ck_assert_uint_eq(*ram(&fx, 0x4000 ^ 3), 0xee);
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x80004003, rd, 64, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(rd, big, 64);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_ate_pages)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 2, SWAP_PMU);
    fx_record(&fx, "bridge.dma");
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 2, 8, mkate(0x5000, 0xa, 1)), BUS_OK);
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 3, 8, mkate(0x9000, 0xa, 1)), BUS_OK);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x40002010, pat, 4, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(ram(&fx, 0x5010), pat, 4);
    /* Crossing into the next ATE's page. */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x40002ff8, pat, 16, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(ram(&fx, 0x5ff8), pat, 8);
    ck_assert_mem_eq(ram(&fx, 0x9000), pat + 8, 8);
    ck_assert_uint_eq(fx.nev, 3);
    ck_assert_uint_eq(fx.ev_vals[1][6], BRIDGE_WIN_ATE);
    ck_assert_uint_eq(fx.ev_vals[1][7], 2);
    ck_assert_uint_eq(fx.ev_vals[2][7], 3);
    ck_assert_uint_eq(fx.ev_vals[2][2], 0x40003000);
    ck_assert_uint_eq(fx.ev_vals[2][3], 0x9000);
    ck_assert_uint_eq(fx.ev_vals[2][4], 8);
    /* SWAP_PMU clear: word values through the ATE. */
    fx_setreg(&fx, B_DEVICE(2), 0);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x40002020, pat, 4, PCI_DMA_BULK), PCI_DMA_OK);
    static const uint8_t sw[4] = {0x13, 0x12, 0x11, 0x10};
    ck_assert_mem_eq(ram(&fx, 0x5020), sw, 4);
    /* 16K pages: ATE 1 covers PCI 0x40004000-0x40007fff. */
    fx_setreg(&fx, B_WID_CONTROL, 8 | 1u << 21);
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 1, 8, mkate(0x8000, 0xa, 1)), BUS_OK);
    fx_setreg(&fx, B_DEVICE(2), SWAP_PMU);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x40004000 + 0x3123, pat, 3, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(ram(&fx, 0xb123), pat, 3);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_pci64)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 1, SWAP_DIR);
    /* Linux's phys_to_dma: masterwid << 60 | PCI64_ATTR_BAR | paddr. */
    uint64_t a = 0xa100000000000000ull | 0x3000;
    ck_assert_int_eq(pci_dma_write(&ff.f, a + 1, pat, 5, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(ram(&fx, 0x3001), pat, 5);
    fx_setreg(&fx, B_DEVICE(1), 0);
    ck_assert_int_eq(pci_dma_write(&ff.f, a + 0x10, pat, 4, PCI_DMA_BULK), PCI_DMA_OK);
    static const uint8_t sw[4] = {0x13, 0x12, 0x11, 0x10};
    ck_assert_mem_eq(ram(&fx, 0x3010), sw, 4);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_errors)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 5, SWAP_DIR);
    fx_record(&fx, "bridge.dma.error");
    fx_setreg(&fx, B_INT_HOST_ERR, 7);
    fx_setreg(&fx, B_INT_ENABLE, 0x7ffffe00);
    uint8_t b[8];
    /* Local range: the Bridge does not decode it. */
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x1000, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 15);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_UPPER), 1u << 20 | 5u << 16);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_LOWER), 0x1000);
    ck_assert_uint_eq(pci_config_read(&ff.f, 0x06, 2) & 0x2000, 0x2000);
    ck_assert_uint_eq(fx.nhub, 1); /* error interrupt */
    ck_assert_uint_eq(fx.hub[0].val, 0x100 | 7);
    ck_assert_uint_eq(fx.nev, 1);
    ck_assert_uint_eq(fx.ev_vals[0][4], 0); /* reason local */
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    /* Invalid ATE and ATE index beyond the internal RAM: PMU fault. */
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x40000000, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 30);
    ck_assert_uint_eq(fx.ev_vals[1][4], 2);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x40080000, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 30);
    ck_assert_uint_eq(fx.ev_vals[2][4], 1);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    /* Direct map to a widget that is not the HUB. */
    fx_setreg(&fx, B_DIR_MAP, 3u << 20);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80000100, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 26);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_RESP_LOWER), 0x100);
    ck_assert_uint_eq(fx.ev_vals[3][4], 3);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    /* Memory that does not exist (the fixture has 1 MB). */
    ck_assert_int_eq(pci_dma_read(&ff.f, 0xa100000000100000ull, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 26);
    ck_assert_uint_eq(fx.ev_vals[4][4], 4);
    /* Beyond 40 bits. */
    ck_assert_int_eq(pci_dma_read(&ff.f, 0xa100010000000000ull, b, 8, PCI_DMA_BULK), PCI_DMA_ABORT);
    /* Counted as errors per window; the machine goes on. */
    bridge_dma_counter c;
    int who = ff.f.initiator;
    ck_assert_int_eq(bridge_dma_counters(fx.br, who, BRIDGE_WIN_LOCAL, &c), 0);
    ck_assert_uint_eq(c.errors, 1);
    ck_assert_int_eq(bridge_dma_counters(fx.br, who, BRIDGE_WIN_ATE, &c), 0);
    ck_assert_uint_eq(c.errors, 2);
    ck_assert_int_eq(bridge_dma_counters(fx.br, who, BRIDGE_WIN_PCI64, &c), 0);
    ck_assert_uint_eq(c.errors, 2);
    fx_setreg(&fx, B_DIR_MAP, 0xau << 20);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80000100, pat, 8, PCI_DMA_BULK), PCI_DMA_OK);
    /* Bus mastering off: the request never reaches the Bridge. */
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM);
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80000100, pat, 8, PCI_DMA_BULK), PCI_DMA_NOMASTER);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_counters_and_event_fields)
{
    fixture fx;
    fx_init(&fx);
    fake_func a, b;
    dma_setup(&fx, &a, 0, SWAP_DIR);
    fx_plug_fake(&fx, 1, &b, "dev1", 0x1000, 0);
    pci_config_write(&b.f, 0x04, 2, PCI_CMD_MASTER);
    fx_record(&fx, "bridge.dma");
    uint8_t buf[100] = {0};
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(pci_dma_write32(&a.f, 0x80000000 + 4 * i, i), PCI_DMA_OK);
    pci_dma_context(&a.f, "rx-buf", 1, 7);
    ck_assert_int_eq(pci_dma_write(&a.f, 0x80001000, buf, 100, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_int_eq(pci_dma_read(&b.f, 0xa100000000002000ull, buf, 64, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_int_eq(pci_dma_read(&b.f, 0xa100000000002000ull, buf, 8, PCI_DMA_WORD), PCI_DMA_OK);
    bridge_dma_counter c;
    ck_assert_int_eq(bridge_dma_counters(fx.br, a.f.initiator, BRIDGE_WIN_DIR32, &c), 0);
    ck_assert_uint_eq(c.word_ops, 10);
    ck_assert_uint_eq(c.word_bytes, 40);
    ck_assert_uint_eq(c.bulk_ops, 1);
    ck_assert_uint_eq(c.bulk_bytes, 100);
    ck_assert_int_eq(bridge_dma_counters(fx.br, b.f.initiator, BRIDGE_WIN_PCI64, &c), 0);
    ck_assert_uint_eq(c.word_ops, 1);
    ck_assert_uint_eq(c.word_bytes, 8);
    ck_assert_uint_eq(c.bulk_ops, 1);
    ck_assert_uint_eq(c.bulk_bytes, 64);
    ck_assert_int_eq(bridge_dma_counters(fx.br, b.f.initiator, BRIDGE_WIN_DIR32, &c), 0);
    ck_assert_uint_eq(c.word_ops + c.bulk_ops, 0);
    ck_assert_int_eq(bridge_dma_counters(fx.br, 99, 0, &c), -1);
    /* The device's counters (info device, the TUI's rates) are the totals. */
    device *dev = bridge_device(fx.br);
    static const struct {
        const char *name;
        uint64_t total;
    } totals[] = {{"dma.word-ops", 11},
                  {"dma.word-bytes", 48},
                  {"dma.bulk-ops", 2},
                  {"dma.bulk-bytes", 164},
                  {"dma.errors", 0}};
    for (unsigned i = 0; i < ARRAY_SIZE(totals); i++) {
        const dev_counter *k = dev_counter_find(dev, totals[i].name);
        ck_assert_msg(k != NULL, "no counter %s", totals[i].name);
        ck_assert_uint_eq(k->read(dev), totals[i].total);
    }
    ck_assert_ptr_null(dev_counter_find(dev, "dma.bogus"));
    /* Event of the bulk write: every field. */
    ck_assert_uint_eq(fx.nev, 13);
    const uint64_t *e = fx.ev_vals[10];
    ck_assert_uint_eq(fx.ev_n[10], 12);
    ck_assert_uint_eq(e[0], (uint64_t)a.f.initiator);
    ck_assert_uint_eq(e[1], 1);
    ck_assert_uint_eq(e[2], 0x80001000);
    ck_assert_uint_eq(e[3], BUS_CAC(0x1000));
    ck_assert_uint_eq(e[4], 100);
    ck_assert_uint_eq(e[5], 1); /* bulk */
    ck_assert_uint_eq(e[6], BRIDGE_WIN_DIR32);
    ck_assert_int_eq((int64_t)e[7], -1);
    ck_assert_uint_eq(e[8], 0); /* byte stream: not swapped */
    ck_assert_str_eq((const char *)(uintptr_t)e[9], "rx-buf");
    ck_assert_int_eq((int64_t)e[10], 1);
    ck_assert_int_eq((int64_t)e[11], 7);
    /* The formatted event names the initiator and the window. */
    strbuf sb;
    sb_init(&sb);
    event ev = {.src = event_find(&fx.eb, "bridge.dma"), .nvals = 12, .vals = e};
    event_format(&ev, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "initiator=dev0"));
    ck_assert_ptr_nonnull(strstr(sb.s, "window=dir32"));
    ck_assert_ptr_nonnull(strstr(sb.s, "what=rx-buf"));
    ck_assert_ptr_nonnull(strstr(sb.s, "ring=1"));
    sb_reset(&sb);
    device *d = bridge_device(fx.br);
    dev_view_find(d, "dma")->show(d, "", NULL, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "dev0             dir32            10             40"));
    ck_assert_ptr_nonnull(strstr(sb.s, "dev1             pci64             1              8"));
    /* A narrow viewer (a TUI pane) gets the columns that fit, most telling
     * first, each as wide as its widest cell. */
    sb_reset(&sb);
    view_ctx narrow = {.cols = 30};
    dev_view_find(d, "dma")->show(d, "", &narrow, &sb);
    ck_assert_str_eq(sb.s, "initiator word-ops bulk-bytes\n"
                           "dev0            10        100\n"
                           "dev1             1         64\n");
    sb_reset(&sb);
    narrow.cols = 47;
    dev_view_find(d, "dma")->show(d, "", &narrow, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "initiator window word-ops word-bytes bulk-bytes\n"));
    sb_free(&sb);
    bridge_dma_counters_reset(fx.br);
    ck_assert_int_eq(bridge_dma_counters(fx.br, a.f.initiator, BRIDGE_WIN_DIR32, &c), 0);
    ck_assert_uint_eq(c.word_ops, 0);
    fx_free(&fx);
}
END_TEST

/* The bus hook (DMA watchpoints, last writer) sees each DMA with its path. */
typedef struct hook_log {
    bus_op ops[16];
    dma_path paths[16];
    unsigned n;
} hook_log;

static void hook(void *ctx, const bus_op *op)
{
    hook_log *h = ctx;
    if (h->n < 16) {
        h->ops[h->n] = *op;
        if (op->path)
            h->paths[h->n] = *op->path;
        h->n++;
    }
}

START_TEST(dma_bus_hook_sees_path)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 0, 0);
    hook_log h = {0};
    fx.bus.hook = hook;
    fx.bus.hook_ctx = &h;
    fx.bus.hooks_armed = true;
    /* Word values, unaligned: three pieces, each with its PCI address. */
    ck_assert_int_eq(pci_dma_write(&ff.f, 0x80001002, pat, 8, PCI_DMA_WORD), PCI_DMA_OK);
    ck_assert_uint_eq(h.n, 3);
    ck_assert_uint_eq(h.ops[0].addr, 0x1000);
    ck_assert_uint_eq(h.ops[0].size, 2);
    ck_assert_uint_eq(h.paths[0].pci_addr, 0x80001002);
    ck_assert_uint_eq(h.ops[1].addr, 0x1004);
    ck_assert_uint_eq(h.ops[1].size, 4);
    ck_assert_uint_eq(h.paths[1].pci_addr, 0x80001004);
    ck_assert_uint_eq(h.ops[2].addr, 0x100a);
    ck_assert_uint_eq(h.ops[2].size, 2);
    ck_assert_uint_eq(h.ops[0].initiator, ff.f.initiator);
    ck_assert_uint_eq(h.ops[0].kind, BUS_WORD);
    ck_assert_uint_eq(h.ops[0].write, 1);
    ck_assert_str_eq(h.paths[0].window, "dir32");
    ck_assert_int_eq(h.paths[0].swap, 1);
    ck_assert_int_eq(h.paths[0].ate, -1);
    fx_setreg(&fx, B_DEVICE(0), SWAP_DIR);
    h.n = 0;
    uint8_t b[8];
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x80001002, b, 8, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_uint_eq(h.n, 1);
    ck_assert_uint_eq(h.ops[0].addr, 0x1002);
    ck_assert_uint_eq(h.ops[0].kind, BUS_BULK);
    ck_assert_int_eq(h.paths[0].swap, 0);
    fx_free(&fx);
}
END_TEST

START_TEST(dma_peek_has_no_side_effects)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    dma_setup(&fx, &ff, 0, 0);
    fx_record(&fx, "bridge.dma*");
    hook_log h = {0};
    fx.bus.hook = hook;
    fx.bus.hook_ctx = &h;
    fx.bus.hooks_armed = true;
    for (unsigned i = 0; i < 16; i++)
        *ram(&fx, 0x1000 + i) = (uint8_t)(0x30 + i);
    /* Word values: the same bytes a DMA read returns. */
    uint8_t p[7], r[7];
    ck_assert_int_eq(pci_dma_peek(&ff.f, 0x80001003, p, 7), PCI_DMA_OK);
    ck_assert_uint_eq(fx.nev, 0);
    ck_assert_uint_eq(h.n, 0);
    ck_assert_int_eq(pci_dma_read(&ff.f, 0x80001003, r, 7, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_mem_eq(p, r, 7);
    ck_assert_uint_eq(p[0], 0x30); /* PCI byte 3 = memory byte 0 */
    /* Byte stream through PCI64. */
    fx_setreg(&fx, B_DEVICE(0), SWAP_DIR);
    ck_assert_int_eq(pci_dma_peek(&ff.f, 0xa100000000001002ull, p, 4), PCI_DMA_OK);
    ck_assert_mem_eq(p, ram(&fx, 0x1002), 4);
    /* Nothing there: an abort, but no error latched, no event, no counter. */
    unsigned nev = fx.nev;
    ck_assert_int_eq(pci_dma_peek(&ff.f, 0x1000, p, 4), PCI_DMA_ABORT);
    ck_assert_int_eq(pci_dma_peek(&ff.f, 0xa100000000100000ull, p, 4), PCI_DMA_ABORT);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_uint_eq(fx.nev, nev);
    bridge_dma_counter c;
    bridge_dma_counters(fx.br, ff.f.initiator, BRIDGE_WIN_LOCAL, &c);
    ck_assert_uint_eq(c.errors, 0);
    bridge_dma_counters(fx.br, ff.f.initiator, BRIDGE_WIN_DIR32, &c);
    ck_assert_uint_eq(c.bulk_ops, 1);
    fx_free(&fx);
}
END_TEST

/* ---- the test device through the Bridge -------------------------------- */

#define TD_SLOT 4
#define TD_BAR 0x08800000u /* (8 << 24) | DEVIO(4) */

static void td_w(fixture *fx, unsigned reg, uint32_t v)
{
    fx_setreg(fx, B_DEVIO(TD_SLOT) + reg, v);
}
static uint32_t td_r(fixture *fx, unsigned reg) { return fx_reg(fx, B_DEVIO(TD_SLOT) + reg); }

static testdev *td_setup(fixture *fx)
{
    testdev *td = testdev_new("testdev0", &fx->eb, &fx->clock);
    ck_assert_ptr_nonnull(td);
    ck_assert_int_eq(bridge_plug(fx->br, TD_SLOT, testdev_func(td)), 0);
    /* What a PROM does: BAR, command, DEVICE(n); Linux's DIR_MAP and swap. */
    uint64_t cfg = B_CFG(TD_SLOT, 0);
    ck_assert_int_eq(fx_wr(fx, cfg + 0x10, 4, 0xffffffff), BUS_OK);
    ck_assert_uint_eq(fx_reg(fx, cfg + 0x10), 0xffffe000);
    ck_assert_int_eq(fx_wr(fx, cfg + 0x10, 4, TD_BAR), BUS_OK);
    ck_assert_int_eq(fx_wr(fx, cfg + 0x04, 4, PCI_CMD_MEM | PCI_CMD_MASTER), BUS_OK);
    ck_assert_uint_eq(fx_reg(fx, cfg), (uint32_t)TESTDEV_DEVICE << 16 | TESTDEV_VENDOR);
    fx_setreg(fx, B_DEVICE(TD_SLOT), (TD_BAR >> 20) | 0x1000 | SWAP_DIR);
    fx_linux_int_setup(fx);
    fx_setreg(fx, B_INT_ADDR(TD_SLOT), 0x20000 | 45);
    fx_setreg(fx, B_INT_ENABLE, 1u << TD_SLOT);
    fx_setreg(fx, B_INT_MODE, 1u << TD_SLOT);
    memset(fx->ram->host, 0xee, FX_RAM_SIZE);
    return td;
}

/* Run virtual time until the device is idle; returns the ticks it took. */
static uint64_t td_wait(fixture *fx)
{
    uint64_t start = fx->clock.now;
    while (td_r(fx, TD_STATUS) & TD_ST_BUSY) {
        uint64_t next = sched_next(&fx->clock);
        ck_assert_uint_ne(next, UINT64_MAX);
        fx->clock.now = next;
        sched_run_due(&fx->clock);
    }
    return fx->clock.now - start;
}

START_TEST(testdev_pci_to_pci)
{
    fixture fx;
    fx_init(&fx);
    testdev *td = td_setup(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_ID), 0x00015842);
    for (unsigned i = 0; i < 256; i++)
        *ram(&fx, 0x10000 + i) = (uint8_t)i;
    /* dir32 to PCI64, bulk, with an interrupt. */
    td_w(&fx, TD_SRC_LO, 0x80010000);
    td_w(&fx, TD_SRC_HI, 0);
    td_w(&fx, TD_DST_LO, 0x00020003);
    td_w(&fx, TD_DST_HI, 0xa1000000);
    td_w(&fx, TD_LEN, 200);
    ck_assert_uint_eq(td_r(&fx, TD_DST_HI), 0xa1000000);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_PCI_TO_PCI << TD_CMD_DIR_SHIFT | TD_CMD_IRQ);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS), TD_ST_BUSY);
    ck_assert_uint_eq(*ram(&fx, 0x20003), 0xee); /* nothing moved yet */
    uint64_t ticks = td_wait(&fx);
    /* 1 us + 200 * 10 ns at 180 MHz */
    ck_assert_uint_eq(ticks, (1000 + 2000) * 180 / 1000);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS), TD_ST_DONE | TD_ST_IRQ);
    ck_assert_uint_eq(td_r(&fx, TD_DONE_BYTES), 200);
    ck_assert_uint_eq(td_r(&fx, TD_XFERS), 1);
    ck_assert_mem_eq(ram(&fx, 0x20003), ram(&fx, 0x10000), 200);
    ck_assert_uint_eq(*ram(&fx, 0x20003 + 200), 0xee);
    /* INTA -> pin 4 -> set packet; INT_ACK -> clear packet. */
    ck_assert_uint_eq(fx.nhub, 1);
    ck_assert_uint_eq(fx.hub[0].val, 0x100 | 45);
    td_w(&fx, TD_INT_ACK, 1);
    ck_assert_uint_eq(fx.nhub, 2);
    ck_assert_uint_eq(fx.hub[1].val, 45);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS), TD_ST_DONE);
    bridge_dma_counter c;
    bridge_dma_counters(fx.br, testdev_func(td)->initiator, BRIDGE_WIN_DIR32, &c);
    ck_assert_uint_eq(c.bulk_ops, 1);
    ck_assert_uint_eq(c.bulk_bytes, 200);
    bridge_dma_counters(fx.br, testdev_func(td)->initiator, BRIDGE_WIN_PCI64, &c);
    ck_assert_uint_eq(c.bulk_bytes, 200);
    device_free(testdev_device(td));
    testdev_free(td);
    fx_free(&fx);
}
END_TEST

START_TEST(testdev_buffer_word_mode)
{
    fixture fx;
    fx_init(&fx);
    testdev *td = td_setup(&fx);
    for (unsigned i = 0; i < 64; i++)
        *ram(&fx, 0x30000 + i) = (uint8_t)(0x40 + i);
    /* PCI -> buffer, per-word, word-values swap: each 32-bit word arrives
     * lane-reversed. */
    fx_setreg(&fx, B_DEVICE(TD_SLOT), (TD_BAR >> 20) | 0x1000);
    td_w(&fx, TD_SRC_LO, 0x80030001);
    td_w(&fx, TD_DST_LO, 0x10);
    td_w(&fx, TD_LEN, 10);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_PCI_TO_BUF << TD_CMD_DIR_SHIFT | TD_CMD_WORD);
    td_wait(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS), TD_ST_DONE);
    /* Buffer byte i = PCI byte 0x80030001+i = memory byte (0x30001+i)^3,
     * read back through word-values PIO: CPU byte X = BAR byte X^3. */
    for (unsigned i = 0; i < 10; i++) {
        uint64_t v;
        ck_assert_int_eq(fx_rd(&fx, B_DEVIO(TD_SLOT) + ((TESTDEV_BUF_OFF + 0x10 + i) ^ 3), 1, &v),
                         BUS_OK);
        ck_assert_uint_eq(v, *ram(&fx, (0x30001 + i) ^ 3));
    }
    /* Word DMAs: 3 + 4 + 3 bytes, aligned on the PCI address. */
    bridge_dma_counter c;
    bridge_dma_counters(fx.br, testdev_func(td)->initiator, BRIDGE_WIN_DIR32, &c);
    ck_assert_uint_eq(c.word_ops, 3);
    ck_assert_uint_eq(c.word_bytes, 10);
    ck_assert_uint_eq(c.bulk_ops, 0);
    /* Buffer -> PCI through the ATE in byte-stream mode, bytes exact. */
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 9, 8, mkate(0x40000, 0xa, 1)), BUS_OK);
    fx_setreg(&fx, B_DEVICE(TD_SLOT), (TD_BAR >> 20) | 0x1000 | SWAP_PMU);
    for (unsigned i = 0; i < 8; i++)
        ck_assert_int_eq(
            fx_wr(&fx, B_DEVIO(TD_SLOT) + ((TESTDEV_BUF_OFF + 0x100 + i) ^ 3), 1, 0xa0 + i),
            BUS_OK);
    td_w(&fx, TD_SRC_LO, 0x100);
    td_w(&fx, TD_DST_LO, 0x40009000 + 0x7fe);
    td_w(&fx, TD_LEN, 8);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_BUF_TO_PCI << TD_CMD_DIR_SHIFT);
    td_wait(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS), TD_ST_DONE);
    for (unsigned i = 0; i < 8; i++)
        ck_assert_uint_eq(*ram(&fx, 0x407fe + i), 0xa0 + i);
    device_free(testdev_device(td));
    testdev_free(td);
    fx_free(&fx);
}
END_TEST

START_TEST(testdev_errors)
{
    fixture fx;
    fx_init(&fx);
    testdev *td = td_setup(&fx);
    /* Length 0 is refused at once, with the interrupt if asked. */
    td_w(&fx, TD_LEN, 0);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_CMD_IRQ);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS),
                      TD_ST_DONE | TD_ST_ERROR | TD_ST_IRQ | TD_ERR_LEN << TD_ST_CODE_SHIFT);
    td_w(&fx, TD_INT_ACK, 1);
    /* Outside the buffer. */
    td_w(&fx, TD_LEN, 16);
    td_w(&fx, TD_DST_LO, 0xff8);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_PCI_TO_BUF << TD_CMD_DIR_SHIFT);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS) >> TD_ST_CODE_SHIFT, TD_ERR_LEN);
    td_w(&fx, TD_CMD, TD_CMD_GO | 3u << TD_CMD_DIR_SHIFT);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS) >> TD_ST_CODE_SHIFT, TD_ERR_DIR);
    /* DMA from nowhere: read abort, the Bridge reports it, xbow goes on. */
    td_w(&fx, TD_SRC_LO, 0x00001000);
    td_w(&fx, TD_SRC_HI, 0);
    td_w(&fx, TD_DST_LO, 0);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_PCI_TO_BUF << TD_CMD_DIR_SHIFT);
    td_wait(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS),
                      TD_ST_DONE | TD_ST_ERROR | TD_ERR_READ << TD_ST_CODE_SHIFT);
    ck_assert_uint_eq(td_r(&fx, TD_ERR_ADDR_LO), 0x1000);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS) & (1u << 15), 1u << 15);
    /* DMA to memory that does not exist: write abort after the part that fit. */
    td_w(&fx, TD_SRC_LO, 0);
    td_w(&fx, TD_DST_LO, 0x800ffff8);
    td_w(&fx, TD_LEN, 16);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_BUF_TO_PCI << TD_CMD_DIR_SHIFT | TD_CMD_WORD);
    td_wait(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS) >> TD_ST_CODE_SHIFT, TD_ERR_WRITE);
    ck_assert_uint_eq(td_r(&fx, TD_DONE_BYTES), 8);
    ck_assert_uint_eq(td_r(&fx, TD_ERR_ADDR_LO), 0x80100000);
    /* Bus mastering off. */
    ck_assert_int_eq(fx_wr(&fx, B_CFG(TD_SLOT, 0) + 4, 4, PCI_CMD_MEM), BUS_OK);
    td_w(&fx, TD_DST_LO, 0x80001000);
    td_w(&fx, TD_CMD, TD_CMD_GO | TD_DIR_BUF_TO_PCI << TD_CMD_DIR_SHIFT);
    td_wait(&fx);
    ck_assert_uint_eq(td_r(&fx, TD_STATUS) >> TD_ST_CODE_SHIFT, TD_ERR_NOMASTER);
    ck_assert_uint_eq(td_r(&fx, TD_XFERS), 3);
    device_free(testdev_device(td));
    testdev_free(td);
    fx_free(&fx);
}
END_TEST

TCase *bridge_dma_tcase(void)
{
    TCase *tc = tcase_create("dma");
    tcase_set_timeout(tc, CHECK_HANG_SECONDS);
    check_add_tests(tc, dma_direct_byte_stream, dma_direct_word_values, dma_ate_pages, dma_pci64,
                    dma_errors, dma_counters_and_event_fields, dma_bus_hook_sees_path,
                    dma_peek_has_no_side_effects, testdev_pci_to_pci, testdev_buffer_word_mode,
                    testdev_errors);
    return tc;
}
