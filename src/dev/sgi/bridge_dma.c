/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bridge DMA port (docs/hardware.md, "Bridge DMA"): a PCI address is
 * translated through one of the windows into an XIO address on the HUB,
 * i.e. node memory, and the data go through the swap mode of the
 * requesting slot:
 *   0x0000_0000-0x3fff_ffff  not decoded (master abort)
 *   0x4000_0000-0x7fff_ffff  ATE: 4K or 16K pages (WID_CONTROL.PAGE_SIZE),
 *                            128 internal entries; swap = DEVICE.SWAP_PMU
 *   0x8000_0000-0xffff_ffff  direct: DIR_OFF*2G + (addr & 0x7fffffff)
 *                            (+512M with ADD512) on DIR_MAP's widget;
 *                            swap = DEVICE.SWAP_DIR
 *   >= 4G (DAC)              PCI64: widget = bits 63:60, XIO = bits 47:0;
 *                            swap = DEVICE.SWAP_DIR
 * Swap bit set: byte stream (memory byte A = PCI byte A).  Swap bit clear:
 * word values, the byte lanes of each 32-bit word are reversed (memory byte
 * A = PCI byte A^3) [UNC: the 32-bit granularity].  Every transfer is a
 * bus_read_block/bus_write_block carrying the device's initiator, the kind
 * and the dma_path, so DMA watchpoints and "last writer" see it; the
 * counters and the bridge.dma event are per translated chunk. */
#include "dev/sgi/bridge_priv.h"

#include <stdlib.h>

#include "core/log.h"

typedef struct xlate {
    enum bridge_window window;
    int ate;
    uint64_t xio;
    unsigned widget;
    uint64_t max;                  /* bytes until the translation changes */
    bool stream;                   /* byte stream (the slot's swap bit is set) */
    enum bridge_dma_reason reason; /* when the translation fails */
} xlate;

static bool translate(const bridge *br, int slot, uint64_t pa, xlate *x)
{
    uint32_t dev = br_reg(br, BR_DEVICE, (unsigned)slot);
    x->ate = -1;
    if (pa >> 32) {
        x->window = BRIDGE_WIN_PCI64;
        x->widget = (unsigned)(pa >> 60);
        x->xio = pa & ((1ull << 48) - 1);
        x->max = (1ull << 48) - x->xio;
        x->stream = dev & BRIDGE_DEV_SWAP_DIR;
        return true;
    }
    if (pa >= 0x80000000u) {
        uint32_t dm = br_reg(br, BR_DIR_MAP, 0);
        x->window = BRIDGE_WIN_DIR32;
        x->widget = (dm >> BRIDGE_DIRMAP_W_ID_SHFT) & 0xf;
        /* ADD512 adds 512 MB, for systems whose memory starts there [INF]. */
        x->xio = ((uint64_t)(dm & BRIDGE_DIRMAP_OFF) << 31) + (pa & 0x7fffffff) +
                 ((dm & BRIDGE_DIRMAP_ADD512) ? 0x20000000u : 0);
        x->max = 0x100000000ull - pa;
        x->stream = dev & BRIDGE_DEV_SWAP_DIR;
        return true;
    }
    if (pa >= 0x40000000u) {
        uint64_t pg = (br_reg(br, BR_WID_CONTROL, 0) & BRIDGE_CTRL_PAGE_SIZE) ? 0x4000 : 0x1000;
        uint64_t idx = (pa - 0x40000000u) / pg;
        x->window = BRIDGE_WIN_ATE;
        x->ate = (int)idx;
        /* No external ATE SSRAM is fitted: entries beyond the 128 internal
         * ones are a PMU access fault. */
        if (idx >= BRIDGE_INTERNAL_ATES) {
            x->reason = DMA_ERR_ATE_RANGE;
            return false;
        }
        uint64_t ate = br->ate[idx];
        if (!(ate & BRIDGE_ATE_V)) {
            x->reason = DMA_ERR_ATE_INVALID;
            return false;
        }
        x->widget = (unsigned)(ate >> 8) & 0xf;
        x->xio = (ate & BRIDGE_ATE_ADDR & ~(pg - 1)) | (pa & (pg - 1));
        x->max = pg - (pa & (pg - 1));
        x->stream = dev & BRIDGE_DEV_SWAP_PMU;
        return true;
    }
    x->window = BRIDGE_WIN_LOCAL;
    x->reason = DMA_ERR_LOCAL;
    return false;
}

static bridge_dma_counter *counter(bridge *br, int who, int window)
{
    if (who < 0 || who >= BUS_MAX_INITIATORS)
        return NULL;
    return &br->counters[who][window];
}

static void dma_error(bridge *br, pci_func *f, const xlate *x, uint64_t pa, uint64_t len,
                      bool write)
{
    uint32_t bit;
    unsigned latch;
    uint64_t addr = pa;
    switch (x->reason) {
    case DMA_ERR_LOCAL:
        bit = BRIDGE_ISR_PCI_ABORT;
        latch = LATCH_PCI;
        break;
    case DMA_ERR_ATE_RANGE:
    case DMA_ERR_ATE_INVALID:
        bit = BRIDGE_ISR_PMU_ESIZE_FAULT;
        latch = LATCH_PCI;
        break;
    default:
        bit = BRIDGE_ISR_RESP_XTLK_ERR;
        latch = LATCH_RESP;
        addr = x->xio;
        break;
    }
    bridge_dma_counter *c = counter(br, f->initiator, x->window);
    if (c)
        c->errors++;
    xlog(LOG_DEBUG, br->dev->name, "DMA %s by %s at PCI 0x%llx (%llu bytes) aborted",
         write ? "write" : "read", f->name, (unsigned long long)pa, (unsigned long long)len);
    EVENT_EMIT(dev_event(br->dev, BEV_DMA_ERROR), f->initiator, (uint64_t)f->initiator, write, pa,
               len, (uint64_t)x->reason, x->xio, bit);
    bridge_error(br, bit, latch, addr, f->slot, true, write);
}

static uint8_t *scratch(bridge *br, uint64_t n)
{
    if (n > br->scratch_len) {
        uint8_t *p = realloc(br->scratch, n); /* the guest's DMA length: NULL aborts it */
        if (!p)
            return NULL;
        br->scratch = p;
        br->scratch_len = n;
    }
    return br->scratch;
}

/* Byte stream: one block transfer. */
static int move_stream(bridge *br, bus_op *op, uint8_t *buf)
{
    return op->write ? bus_write_block(br->bus, op, buf, NULL)
                     : bus_read_block(br->bus, op, buf, NULL);
}

/* Word values: PCI byte i of the chunk is memory byte (ba+i)^3.  The chunk is
 * cut at 32-bit boundaries of memory; each piece maps onto a contiguous
 * memory range (a partial word, or whole words), moved as one block so no
 * byte the device did not touch is read or written. */
static int move_words(bridge *br, bus_op *tmpl, dma_path *path, uint64_t pa, uint8_t *buf,
                      uint64_t n)
{
    uint64_t ba = tmpl->addr;
    uint64_t i0 = 0;
    while (i0 < n) {
        uint64_t i1;
        if ((ba + i0) & 3)
            i1 = i0 + (4 - ((ba + i0) & 3)); /* head of a word */
        else if (n - i0 >= 4)
            i1 = i0 + ((n - i0) & ~3ull); /* whole words */
        else
            i1 = n; /* tail of a word */
        if (i1 > n)
            i1 = n;
        uint64_t lo = UINT64_MAX, hi = 0;
        if (((ba + i0) & 3) == 0 && ((ba + i1) & 3) == 0) {
            lo = ba + i0;
            hi = ba + i1;
        } else {
            for (uint64_t i = i0; i < i1; i++) {
                uint64_t m = (ba + i) ^ 3;
                lo = m < lo ? m : lo;
                hi = m + 1 > hi ? m + 1 : hi;
            }
        }
        uint8_t *t = scratch(br, hi - lo);
        if (!t)
            return BUS_ERROR;
        bus_op op = *tmpl;
        op.addr = lo;
        op.size = (uint32_t)(hi - lo);
        path->pci_addr = pa + i0;
        int rc;
        if (op.write) {
            for (uint64_t i = i0; i < i1; i++)
                t[((ba + i) ^ 3) - lo] = buf[i];
            rc = bus_write_block(br->bus, &op, t, NULL);
        } else {
            rc = bus_read_block(br->bus, &op, t, NULL);
            for (uint64_t i = i0; i < i1; i++)
                buf[i] = t[((ba + i) ^ 3) - lo];
        }
        if (rc != BUS_OK)
            return rc;
        i0 = i1;
    }
    return BUS_OK;
}

static int bridge_dma(void *host, pci_func *f, uint64_t pa, void *vbuf, uint64_t len, bool write,
                      int kind)
{
    bridge *br = host;
    uint8_t *buf = vbuf;
    static const char *const names[] = {"dir32", "ate", "pci64", "local"};
    while (len) {
        xlate x = {0};
        if (!translate(br, f->slot, pa, &x)) {
            dma_error(br, f, &x, pa, len, write);
            return PCI_DMA_ABORT;
        }
        uint64_t n = len < x.max ? len : x.max;
        if (n > (1u << 30))
            n = 1u << 30;
        uint64_t ba;
        if (x.widget != br->hub_widget || !bridge_xio_to_bus(br, x.widget, x.xio, false, &ba) ||
            (x.xio + n - 1) >> 40) {
            x.reason = x.widget != br->hub_widget ? DMA_ERR_TARGET : DMA_ERR_NOWHERE;
            dma_error(br, f, &x, pa, len, write);
            return PCI_DMA_ABORT;
        }
        dma_path path = {.window = names[x.window],
                         .ate = x.ate,
                         .swap = !x.stream,
                         .pci_addr = pa,
                         .what = f->dma_ctx.what,
                         .ring = f->dma_ctx.ring,
                         .index = f->dma_ctx.index};
        bus_op op = {.addr = ba,
                     .size = (uint32_t)n,
                     .write = write,
                     .kind = kind == PCI_DMA_BULK ? BUS_BULK : BUS_WORD,
                     .initiator = (uint16_t)(f->initiator < 0 ? 0 : f->initiator),
                     .path = &path};
        int rc = x.stream ? move_stream(br, &op, buf) : move_words(br, &op, &path, pa, buf, n);
        if (rc != BUS_OK) {
            x.reason = DMA_ERR_NOWHERE;
            dma_error(br, f, &x, pa, len, write);
            return PCI_DMA_ABORT;
        }
        bridge_dma_counter *c = counter(br, f->initiator, x.window);
        if (c) {
            if (kind == PCI_DMA_BULK)
                c->bulk_ops++, c->bulk_bytes += n;
            else
                c->word_ops++, c->word_bytes += n;
        }
        EVENT_EMIT(dev_event(br->dev, BEV_DMA), f->initiator, (uint64_t)f->initiator, write, pa, ba,
                   n, (uint64_t)(kind == PCI_DMA_BULK), (uint64_t)x.window,
                   (uint64_t)(int64_t)x.ate, !x.stream, (uint64_t)(uintptr_t)f->dma_ctx.what,
                   (uint64_t)(int64_t)f->dma_ctx.ring, (uint64_t)(int64_t)f->dma_ctx.index);
        pa += n;
        buf += n;
        len -= n;
    }
    return PCI_DMA_OK;
}

/* What a DMA read would return, for debugger views: the same translation and
 * swap, but no counters, no events, no errors latched and no bus hook (RAM
 * is read with bus_peek). */
static int bridge_peek(void *host, pci_func *f, uint64_t pa, void *vbuf, uint64_t len)
{
    bridge *br = host;
    uint8_t *buf = vbuf;
    while (len) {
        xlate x = {0};
        uint64_t ba;
        if (!translate(br, f->slot, pa, &x) || x.widget != br->hub_widget ||
            !bridge_xio_to_bus(br, x.widget, x.xio, false, &ba))
            return PCI_DMA_ABORT;
        uint64_t n = len < x.max ? len : x.max;
        if (n > (1u << 30))
            n = 1u << 30;
        if (x.stream) {
            if (bus_peek(br->bus, ba, buf, n) != BUS_OK)
                return PCI_DMA_ABORT;
        } else {
            /* The whole words around the chunk (reading more than asked has
             * no effect here), then the lane permutation. */
            uint64_t lo = ba & ~3ull, hi = (ba + n + 3) & ~3ull;
            uint8_t *t = scratch(br, hi - lo);
            if (!t || bus_peek(br->bus, lo, t, hi - lo) != BUS_OK)
                return PCI_DMA_ABORT;
            for (uint64_t i = 0; i < n; i++)
                buf[i] = t[((ba + i) ^ 3) - lo];
        }
        pa += n;
        buf += n;
        len -= n;
    }
    return PCI_DMA_OK;
}

const pci_host_ops bridge_host_ops = {bridge_dma, bridge_host_set_irq, bridge_peek};

const char *bridge_window_name(int window)
{
    static const char *const names[BRIDGE_NWINDOWS] = {"dir32", "ate", "pci64", "local"};
    return window >= 0 && window < BRIDGE_NWINDOWS ? names[window] : "?";
}

int bridge_dma_counters(const bridge *br, int who, int window, bridge_dma_counter *out)
{
    if (who < 0 || who >= BUS_MAX_INITIATORS || window < 0 || window >= BRIDGE_NWINDOWS)
        return -1;
    *out = br->counters[who][window];
    return 0;
}

void bridge_dma_counters_reset(bridge *br) { memset(br->counters, 0, sizeof br->counters); }
