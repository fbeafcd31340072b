/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bridge PIO: the widget space beyond the register block (ATE RAM, config
 * space, IACK, DEVIO windows), the big-window PCI aliases, and the byte-lane
 * model (docs/hardware.md, "Byte lanes"):
 *   word values (swap bit clear): CPU byte X is PCI byte X^3 of the same
 *     dword, so a 32-bit load carries the numeric value of a little-endian
 *     PCI dword and a 64-bit load at A is dword(A)<<32 | dword(A+4);
 *   byte stream (swap bit set): CPU byte X is PCI byte X.
 * Config space always uses word values (Linux's accessors rely on it).
 *
 * Errors: a read nobody claims (master abort) or a device refuses (target
 * abort) returns BUS_ERROR, which the CPU takes as a data bus error; a write
 * is posted, so the CPU carries on.  Both latch PCI_ERR_UPPER/LOWER and set
 * INT_STATUS (PCI_MST_TIMEOUT for the master abort, "device select
 * timeout"; PCI_ABORT for the target abort) [INF].  Holes in the widget
 * space set INVLD_ADDR and latch WID_ERR_UPPER/LOWER. */
#include "dev/sgi/bridge_priv.h"

#include "core/log.h"

/* One PCI cycle: `val` is the little-endian numeric value of `size` bytes at
 * `pci_addr`. */
typedef int (*cycle_fn)(bridge *br, void *ctx, uint64_t pci_addr, unsigned size, uint64_t *val,
                        bool write);

/* Carry a CPU access (big-endian value of `size` bytes at `addr`) to PCI
 * cycles of at most `maxw` bytes through the lane model. */
static int lanes(bridge *br, uint64_t addr, unsigned size, uint64_t *val, bool write, bool stream,
                 unsigned maxw, cycle_fn fn, void *ctx)
{
    uint8_t cb[8] = {0};
    uint64_t p[8], pmin = UINT64_MAX, pmax = 0;
    if (write)
        store_be(cb, size, *val);
    for (unsigned i = 0; i < size; i++) {
        p[i] = stream ? addr + i : (addr + i) ^ 3;
        pmin = p[i] < pmin ? p[i] : pmin;
        pmax = p[i] > pmax ? p[i] : pmax;
    }
    bool one = pmax - pmin == size - 1 && (pmin & (size - 1)) == 0 && size <= maxw;
    if (one) {
        uint64_t pv = 0;
        if (write)
            for (unsigned i = 0; i < size; i++)
                pv |= (uint64_t)cb[i] << (8 * (p[i] - pmin));
        int rc = fn(br, ctx, pmin, size, &pv, write);
        if (!write) {
            for (unsigned i = 0; i < size; i++)
                cb[i] = (uint8_t)(pv >> (8 * (p[i] - pmin)));
            *val = load_be(cb, size);
        }
        return rc;
    }
    /* Split: in halves when the halves are aligned, otherwise byte by byte. */
    unsigned step = (size > 1 && !(addr & (size / 2 - 1))) ? size / 2 : 1;
    int rc = BUS_OK;
    uint64_t result = 0;
    for (unsigned i = 0; i < size; i += step) {
        uint64_t v = write ? load_be(cb + i, step) : 0;
        if (lanes(br, addr + i, step, &v, write, stream, maxw, fn, ctx) != BUS_OK)
            rc = BUS_ERROR;
        result = (result << (8 * step)) | v;
    }
    if (!write)
        *val = result;
    return rc;
}

/* ---- PCI memory / I/O cycles -------------------------------------------- */

typedef struct pio_ctx {
    bool io;
    int window; /* DEVIO window (for PCI_ERR_UPPER's device number), 0 for aliases */
    int who;    /* initiator of the bus access (the CPU): the cycle is on its behalf */
} pio_ctx;

static int pci_cycle(bridge *br, void *vctx, uint64_t pci_addr, unsigned size, uint64_t *val,
                     bool write)
{
    const pio_ctx *c = vctx;
    for (int s = 0; s < BRIDGE_SLOTS; s++) {
        pci_func *f = br->slot[s];
        unsigned bar;
        uint64_t off;
        if (!f || !pci_func_decode(f, c->io, pci_addr, &bar, &off))
            continue;
        int rc = pci_bar_access(f, c->who, bar, off, size, val, write);
        if (rc == BUS_OK) {
            EVENT_EMIT(dev_event(br->dev, BEV_PIO), c->who, write, c->io, pci_addr, size, *val,
                       (uint64_t)s, bar);
            return BUS_OK;
        }
        if (!write)
            *val = MASK(size * 8);
        bridge_error(br, BRIDGE_ISR_PCI_ABORT, LATCH_PCI, pci_addr, s, false, write);
        EVENT_EMIT(dev_event(br->dev, BEV_PIO_ERROR), c->who, write, c->io, pci_addr, size,
                   PIO_TARGET_ABORT, BRIDGE_ISR_PCI_ABORT);
        return BUS_ERROR;
    }
    if (!write)
        *val = MASK(size * 8);
    bridge_error(br, BRIDGE_ISR_PCI_MST_TIMEOUT, LATCH_PCI, pci_addr, c->window, false, write);
    EVENT_EMIT(dev_event(br->dev, BEV_PIO_ERROR), c->who, write, c->io, pci_addr, size,
               PIO_MASTER_ABORT, BRIDGE_ISR_PCI_MST_TIMEOUT);
    xlog(LOG_DEBUG, br->dev->name, "PIO %s of %u bytes at PCI %s 0x%llx: master abort",
         write ? "write" : "read", size, c->io ? "io" : "mem", (unsigned long long)pci_addr);
    return BUS_ERROR;
}

uint64_t bridge_devio_base(int n)
{
    return n <= 1 ? 0x200000u + (uint64_t)n * 0x200000u : 0x600000u + (uint64_t)(n - 2) * 0x100000u;
}
uint64_t bridge_devio_size(int n) { return n <= 1 ? 0x200000u : 0x100000u; }

/* DEV_OFF gives PCI address bits 31:20; in the 2 MB windows bit 20 comes
 * from the CPU address [INF]. */
uint32_t bridge_devio_pci_base(const bridge *br, int n)
{
    uint32_t dev = br_reg(br, BR_DEVICE, (unsigned)n);
    return (uint32_t)((dev & BRIDGE_DEV_OFF_MASK) << 20) & ~(uint32_t)(bridge_devio_size(n) - 1);
}

static int devio_access(bridge *br, int who, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    int n = off < 0x600000 ? (int)((off - 0x200000) >> 21) : 2 + (int)((off - 0x600000) >> 20);
    uint32_t dev = br_reg(br, BR_DEVICE, (unsigned)n);
    pio_ctx c = {.io = !(dev & BRIDGE_DEV_DEV_IO_MEM), .window = n, .who = who};
    uint64_t pci = bridge_devio_pci_base(br, n) + (off - bridge_devio_base(n));
    int rc = lanes(br, pci, size, val, write, dev & BRIDGE_DEV_DEV_SWAP,
                   (dev & BRIDGE_DEV_DEV_SIZE) ? 8 : 4, pci_cycle, &c);
    return write ? BUS_OK : rc; /* writes are posted */
}

/* ---- configuration cycles ----------------------------------------------- */

typedef struct cfg_ctx {
    pci_func *f; /* NULL: nothing answers (empty slot, function > 0, type 1) */
} cfg_ctx;

static int cfg_cycle(bridge *br, void *vctx, uint64_t addr, unsigned size, uint64_t *val,
                     bool write)
{
    const cfg_ctx *c = vctx;
    unsigned reg = (unsigned)(addr & 0xff);
    if (c->f) {
        if (size == 8) { /* a 64-bit PCI config cycle is two dword cycles */
            if (write) {
                pci_config_write(c->f, reg, 4, (uint32_t)*val);
                pci_config_write(c->f, reg + 4, 4, (uint32_t)(*val >> 32));
            } else {
                *val = pci_config_read(c->f, reg, 4) | (uint64_t)pci_config_read(c->f, reg + 4, 4)
                                                           << 32;
            }
        } else if (write) {
            pci_config_write(c->f, reg, size, (uint32_t)*val);
        } else {
            *val = pci_config_read(c->f, reg, size);
        }
        return BUS_OK;
    }
    /* Master abort on a config cycle: all-ones, no error latched (Linux's
     * scan then sees vendor 0xffff); optionally a bus error like the real
     * part's DBE [INF]. */
    if (!write)
        *val = MASK(size * 8);
    if (!br->cfg_abort_error)
        return BUS_OK;
    EVENT_EMIT(dev_event(br->dev, BEV_PIO_ERROR), br->initiator, write, BSPACE_CFG, addr, size,
               PIO_MASTER_ABORT, 0);
    return BUS_ERROR;
}

static int config_access(bridge *br, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    cfg_ctx c = {NULL};
    if (off < 0x28000) {
        /* Type 0: slot bits 14:12, function 10:8 (0x800-0xfff alias the
         * first eight functions [INF]); only function 0 exists. */
        int slot = (int)((off >> 12) & 7), fn = (int)((off >> 8) & 7);
        pci_func *f = br->slot[slot];
        if (f && fn == 0)
            c.f = f;
    }
    /* Type 1 (0x28000): there is no bus behind the Bridge: master abort. */
    int rc = lanes(br, off & 0xff, size, val, write, false, 8, cfg_cycle, &c);
    return write ? BUS_OK : rc;
}

/* ---- ATE RAM -------------------------------------------------------------- */

/* 0x10000 + 8i: ATE i (64-bit write; a read returns bits 63:32 in the odd
 * word); 0x11000 + 8i + 4: bits 31:0, read-only [SRC bridge.h layout]. */
static int ate_access(bridge *br, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    bool lo = off >= 0x11000;
    uint64_t base = lo ? 0x11000 : 0x10000;
    for (unsigned k = 0; k < size; k++) {
        uint64_t o = off + k - base;
        unsigned i = (unsigned)(o >> 3), b = (unsigned)(o & 7);
        uint8_t img[8] = {0};
        if (write) {
            if (lo)
                continue; /* read-only copy */
            store_be(img, 8, br->ate[i]);
            img[b] = (uint8_t)(*val >> (8 * (size - 1 - k)));
            br->ate[i] = load_be(img, 8);
        } else {
            store_be(img + 4, 4, lo ? (uint32_t)br->ate[i] : (uint32_t)(br->ate[i] >> 32));
            *val = (k ? *val << 8 : 0) | img[b];
        }
    }
    return BUS_OK;
}

/* ---- the widget space ----------------------------------------------------- */

static int invalid(bridge *br, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    bridge_error(br, BRIDGE_ISR_INVLD_ADDR, LATCH_WID, off, 0, false, write);
    EVENT_EMIT(dev_event(br->dev, BEV_PIO_ERROR), br->initiator, write, BSPACE_WIDGET, off, size,
               PIO_INVALID, BRIDGE_ISR_INVLD_ADDR);
    if (write)
        return BUS_OK;
    *val = MASK(size * 8);
    return BUS_ERROR;
}

static bool reg_word(const device *d, uint64_t off)
{
    for (unsigned i = 0; i < d->n_ext; i++)
        if (d->ext[i].start == off)
            return true;
    return false;
}

/* An access in the register block whose first byte is a pad word: split it
 * into words; register words go through the declaration, pads read 0. */
static int reg_block(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val,
                     bool write)
{
    uint64_t result = 0;
    for (uint64_t a = off; a < off + size;) {
        uint64_t end = (a | 3) + 1 < off + size ? (a | 3) + 1 : off + size;
        unsigned n = (unsigned)(end - a);
        uint64_t v = write ? (*val >> (8 * (off + size - end))) & MASK(8 * n) : 0;
        if (reg_word(d, a & ~3ull)) {
            if (write)
                dev_write(d, op, a, n, v);
            else
                dev_read(d, op, a, n, &v);
        }
        result = (result << (8 * n)) | v;
        a = end;
    }
    if (!write)
        *val = result;
    return BUS_OK;
}

static int space_access(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val,
                        bool write)
{
    bridge *br = d->priv;
    if (off < BRIDGE_REG_END)
        return reg_block(d, op, off, size, val, write);
    if ((off >= 0x10000 && off + size <= 0x10400) || (off >= 0x11000 && off + size <= 0x11400))
        return ate_access(br, off, size, val, write);
    if (off >= 0x20000 && off + size <= 0x29000)
        return config_access(br, off, size, val, write);
    if (off >= 0x30000 && off + size <= 0x30008) {
        /* PCI interrupt acknowledge: no interrupt controller on the bus
         * answers, so like a config master abort it reads all-ones. */
        if (!write)
            *val = MASK(size * 8);
        return BUS_OK;
    }
    if (off >= 0x200000 && off + size <= 0xc00000)
        return devio_access(br, op ? op->initiator : br->initiator, off, size, val, write);
    /* Holes, the external ATE SSRAM and flash (not fitted). */
    return invalid(br, off, size, val, write);
}

int bridge_space_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    return space_access(d, op, off, size, val, false);
}

int bridge_space_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    return space_access(d, op, off, size, &val, true);
}

/* ---- big-window XIO accesses ----------------------------------------------- */

int bridge_xio_access(bridge *br, const bus_op *op, uint64_t xio, uint64_t *val)
{
    bool write = op->write;
    unsigned size = op->size;
    if (xio + size <= 0x1000000)
        return write ? dev_write(br->dev, op, xio, size, *val)
                     : dev_read(br->dev, op, xio, size, val);
    uint32_t ctl = br_reg(br, BR_WID_CONTROL, 0);
    pio_ctx c = {.io = false, .window = 0, .who = op->initiator};
    uint64_t pci;
    bool stream;
    if (xio >= 0x40000000 && xio + size <= 0xc0000000) {
        /* MEM32 and MEM64 aliases: only 30 PCI address bits [SRC OB]. */
        pci = xio & 0x3fffffff;
        stream = ctl & BRIDGE_CTRL_MEM_SWAP;
    } else if (xio >= 0x100000000ull && xio + size <= 0x200000000ull) {
        c.io = true;
        pci = xio & 0xffffffff;
        stream = ctl & BRIDGE_CTRL_IO_SWAP;
    } else {
        return invalid(br, xio, size, val, write);
    }
    int rc = lanes(br, pci, size, val, write, stream, 4, pci_cycle, &c);
    return write ? BUS_OK : rc;
}
