/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoded views of the Bridge: "windows" (info bridge), "dma" (the per-word
 * DMA counter) and "pci" (info pci); its counters: the DMA totals. */
#include "dev/sgi/bridge_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static const char *mode_name(bool stream) { return stream ? "byte-stream" : "word-values"; }

static void show_devio(bridge *br, strbuf *out)
{
    sb_puts(out, "PIO windows (DEVICE(n)):\n");
    for (int n = 0; n < BRIDGE_SLOTS; n++) {
        uint32_t dev = br_reg(br, BR_DEVICE, (unsigned)n);
        uint64_t base = bridge_devio_base(n), size = bridge_devio_size(n);
        uint32_t pci = bridge_devio_pci_base(br, n);
        bool io = !(dev & BRIDGE_DEV_DEV_IO_MEM);
        sb_printf(out, "  DEVIO%d 0x%06llx-0x%06llx -> PCI %s 0x%08x-0x%08llx %s%s%s", n,
                  (unsigned long long)base, (unsigned long long)(base + size - 1),
                  io ? "io " : "mem", pci, (unsigned long long)(pci + size - 1),
                  mode_name(dev & BRIDGE_DEV_DEV_SWAP),
                  (dev & BRIDGE_DEV_DEV_SIZE) ? " 64-bit" : "",
                  (dev & BRIDGE_DEV_PREF) ? " prefetch" : "");
        /* Who answers at the window's base (the decode follows the register
         * index, not the slot). */
        bool found = false;
        for (int s = 0; s < BRIDGE_SLOTS && !found; s++) {
            unsigned bar;
            uint64_t off;
            pci_func *f = br->slot[s];
            if (f && pci_func_decode(f, io, pci, &bar, &off)) {
                sb_printf(out, "  [slot %d %s BAR%u+0x%llx]", s, f->name, bar,
                          (unsigned long long)off);
                found = true;
            }
        }
        sb_printf(out, "\n         DMA dir/pci64 %s, ate %s\n",
                  mode_name(dev & BRIDGE_DEV_SWAP_DIR), mode_name(dev & BRIDGE_DEV_SWAP_PMU));
    }
}

static void show_dma_windows(bridge *br, strbuf *out)
{
    uint32_t dm = br_reg(br, BR_DIR_MAP, 0), ctl = br_reg(br, BR_WID_CONTROL, 0);
    uint64_t xio = ((uint64_t)(dm & BRIDGE_DIRMAP_OFF) << 31) +
                   ((dm & BRIDGE_DIRMAP_ADD512) ? 0x20000000u : 0);
    sb_printf(out, "Big-window PIO: mem %s, io %s\n", mode_name(ctl & BRIDGE_CTRL_MEM_SWAP),
              mode_name(ctl & BRIDGE_CTRL_IO_SWAP));
    sb_printf(out, "DMA direct 0x80000000-0xffffffff -> widget 0x%x XIO 0x%llx-0x%llx%s%s\n",
              (dm >> BRIDGE_DIRMAP_W_ID_SHFT) & 0xf, (unsigned long long)xio,
              (unsigned long long)(xio + 0x7fffffff),
              (dm & BRIDGE_DIRMAP_ADD512) ? " (ADD512)" : "",
              ((dm >> BRIDGE_DIRMAP_W_ID_SHFT) & 0xf) == br->hub_widget ? "" : " (not the HUB)");
    uint64_t pg = (ctl & BRIDGE_CTRL_PAGE_SIZE) ? 0x4000 : 0x1000;
    sb_printf(out, "DMA ATE 0x40000000-0x7fffffff, %lluK pages; valid entries:\n",
              (unsigned long long)(pg >> 10));
    unsigned nvalid = 0;
    for (unsigned i = 0; i < BRIDGE_INTERNAL_ATES; i++) {
        uint64_t a = br->ate[i];
        if (!(a & BRIDGE_ATE_V))
            continue;
        nvalid++;
        sb_printf(out, "  ATE%-3u PCI 0x%08llx -> widget 0x%x XIO 0x%012llx%s%s%s%s\n", i,
                  (unsigned long long)(0x40000000u + i * pg), (unsigned)(a >> 8) & 0xf,
                  (unsigned long long)(a & BRIDGE_ATE_ADDR & ~(pg - 1)), (a & 2) ? " coh" : "",
                  (a & 4) ? " prec" : "", (a & 8) ? " pref" : "", (a & 16) ? " bar" : "");
    }
    if (!nvalid)
        sb_puts(out, "  (none)\n");
    sb_printf(out, "DMA PCI64: widget = bits 63:60 (HUB is 0x%x), XIO = bits 47:0\n",
              br->hub_widget);
}

static void show_interrupts(bridge *br, strbuf *out)
{
    uint32_t en = br_reg(br, BR_INT_ENABLE, 0), mode = br_reg(br, BR_INT_MODE, 0);
    uint32_t upper = br_reg(br, BR_WID_INT_UPPER, 0);
    uint64_t wxio = (uint64_t)(upper & 0xffff) << 32 | br_reg(br, BR_WID_INT_LOWER, 0);
    sb_printf(out, "Interrupts: packets to widget 0x%x, XIO 0x%012llx\n", (upper >> 16) & 0xf,
              (unsigned long long)wxio);
    for (int p = 0; p < 8; p++) {
        uint32_t ia = br_reg(br, BR_INT_ADDR, (unsigned)p);
        uint64_t xio = (uint64_t)((ia >> 8) & 0x3ff) << 38 | (wxio & ((1ull << 38) - 1));
        uint64_t ba = 0;
        bool ok = bridge_xio_to_bus(br, (upper >> 16) & 0xf, xio, true, &ba);
        char bs[40];
        sb_printf(out, "  pin %d %s %s%s level %u -> %s", p, (br->pins >> p) & 1 ? "HIGH" : "low ",
                  (en >> p) & 1 ? "enabled " : "disabled", (mode >> p) & 1 ? " clr-pkt" : "",
                  ia & 0xff, ok ? bus_addr_str(ba, bs, sizeof bs) : "nowhere");
        sb_puts(out, "  from");
        bool any = false;
        for (int s = 0; s < BRIDGE_SLOTS; s++)
            for (int i = 0; i < 4; i++)
                if (br->slot[s] && br->intx_pin[s][i] == p) {
                    sb_printf(out, " %s.INT%c%s", br->slot[s]->name, 'A' + i,
                              (br->intx_level[s] >> i) & 1 ? "*" : "");
                    any = true;
                }
        sb_puts(out, any ? "\n" : " -\n");
    }
    uint32_t errs = br->int_err;
    sb_printf(out, "  errors 0x%08x enabled 0x%08x -> level %u%s\n", errs, en & ~0xffu,
              br_reg(br, BR_INT_HOST_ERR, 0) & 0xff, br->err_sent ? " (sent)" : "");
}

static void view_windows(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    bridge *br = d->priv;
    show_devio(br, out);
    show_dma_windows(br, out);
    show_interrupts(br, out);
}

/* The DMA counter table.  A viewer narrower than the whole table (a TUI
 * pane) gets the columns that fit, each as wide as its widest cell, most
 * telling first: who, per-word operations against bulk bytes (the cost of
 * moving data word by word), the window, then the rest. */
enum { DC_WHO, DC_WIN, DC_WOPS, DC_WBYTES, DC_BOPS, DC_BBYTES, DC_ERR, DC_N };

static void view_dma(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    bridge *br = d->priv;
    static const char *const head[DC_N] = {"initiator", "window",     "word-ops", "word-bytes",
                                           "bulk-ops",  "bulk-bytes", "errors"};
    static const int full[DC_N] = {-16, -6, 12, 14, 12, 16, 8};
    static const int priority[DC_N] = {DC_WHO,    DC_WOPS, DC_BBYTES, DC_WIN,
                                       DC_WBYTES, DC_BOPS, DC_ERR};
    int width[DC_N];
    for (int c = 0; c < DC_N; c++)
        width[c] = full[c];
    unsigned cols = ctx ? ctx->cols : 0;
    bool fit = cols > 0;
    if (fit) {
        for (int c = 0; c < DC_N; c++)
            width[c] = (int)strlen(head[c]);
    }
    /* The rows, as text, to size the columns. */
    typedef struct {
        char cell[DC_N][24];
    } row;
    row *rows = NULL;
    unsigned n = 0;
    for (int i = 0; i < BUS_MAX_INITIATORS; i++) {
        for (int w = 0; w < BRIDGE_NWINDOWS; w++) {
            const bridge_dma_counter *c = &br->counters[i][w];
            if (!c->word_ops && !c->bulk_ops && !c->errors)
                continue;
            rows = xrealloc(rows, (n + 1) * sizeof *rows);
            const initiator *in = initiator_get(br->bus, i);
            row *r = &rows[n++];
            snprintf(r->cell[DC_WHO], 24, "%s", in ? in->name : "?");
            snprintf(r->cell[DC_WIN], 24, "%s", bridge_window_name(w));
            const uint64_t v[DC_N] = {
                0, 0, c->word_ops, c->word_bytes, c->bulk_ops, c->bulk_bytes, c->errors};
            for (int k = DC_WOPS; k < DC_N; k++)
                snprintf(r->cell[k], 24, "%llu", (unsigned long long)v[k]);
            for (int k = 0; fit && k < DC_N; k++)
                if ((int)strlen(r->cell[k]) > width[k])
                    width[k] = (int)strlen(r->cell[k]);
        }
    }
    bool shown[DC_N];
    unsigned used = 0;
    for (int k = 0; k < DC_N; k++) {
        int c = priority[k];
        unsigned need = (unsigned)abs(width[c]) + (used ? 1 : 0);
        shown[c] = !fit || k == 0 || used + need <= cols;
        if (shown[c])
            used += need;
    }
    for (unsigned r = 0; r <= n; r++) {
        bool first = true;
        for (int c = 0; c < DC_N; c++) {
            if (!shown[c])
                continue;
            /* Names left-aligned, numbers right-aligned. */
            int wd = c <= DC_WIN ? -abs(width[c]) : abs(width[c]);
            sb_printf(out, "%s%*s", first ? "" : " ", wd, r ? rows[r - 1].cell[c] : head[c]);
            first = false;
        }
        sb_putc(out, '\n');
    }
    if (!n)
        sb_puts(out, "(no DMA yet)\n");
    free(rows);
}

static void view_pci(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    bridge *br = d->priv;
    for (int s = 0; s < BRIDGE_SLOTS; s++) {
        sb_printf(out, "slot %d: ", s);
        if (br->slot[s])
            pci_func_show(br->slot[s], out);
        else
            sb_puts(out, "empty\n");
    }
}

const dev_view bridge_views[BRIDGE_NVIEWS] = {
    {"windows", "PIO windows, DMA windows, ATEs and interrupt routing", view_windows},
    {"dma", "DMA counters per initiator and window (word vs bulk)", view_dma},
    {"pci", "the PCI functions in each slot", view_pci},
};

/* The DMA totals over every initiator and window: one field of
 * bridge_dma_counter, summed. */
static uint64_t dma_total(const device *d, size_t field)
{
    const bridge *br = d->priv;
    uint64_t sum = 0;
    for (int who = 0; who < BUS_MAX_INITIATORS; who++)
        for (int win = 0; win < BRIDGE_NWINDOWS; win++)
            sum += *(const uint64_t *)((const char *)&br->counters[who][win] + field);
    return sum;
}

#define DMA_TOTAL(fn, field)                                      \
    static uint64_t fn(const device *d)                           \
    {                                                             \
        return dma_total(d, offsetof(bridge_dma_counter, field)); \
    }
DMA_TOTAL(total_word_ops, word_ops)
DMA_TOTAL(total_word_bytes, word_bytes)
DMA_TOTAL(total_bulk_ops, bulk_ops)
DMA_TOTAL(total_bulk_bytes, bulk_bytes)
DMA_TOTAL(total_errors, errors)

const dev_counter bridge_counters[BRIDGE_NCOUNTERS] = {
    {"dma.word-ops", "per-word DMA transfers, every initiator and window", total_word_ops},
    {"dma.word-bytes", "bytes moved by per-word DMA", total_word_bytes},
    {"dma.bulk-ops", "bulk DMA transfers (payloads)", total_bulk_ops},
    {"dma.bulk-bytes", "bytes moved by bulk DMA", total_bulk_bytes},
    {"dma.errors", "DMAs that ended in an abort", total_errors},
};
