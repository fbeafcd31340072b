/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PCI function core: the standard type-0 configuration header (IDs,
 * command/status, BARs with size probing, interrupt pin/line), BAR decode,
 * and the device side of DMA and INTx.  See pci.h. */
#include "dev/pci/pci.h"

#include <stdio.h>

#include "core/hostprof.h"
#include "core/log.h"

/* Command bits a type-0 function implements (PCI 2.3): I/O, memory, bus
 * master, memory-write-and-invalidate, parity response, SERR#, INTx disable. */
#define PCI_CMD_WMASK 0x0557u
#define PCI_CMD_INTX_DISABLE 0x0400u
/* Status: bit 3 interrupt status (read-only, live), bits 15:11 and 8 are
 * write-1-to-clear error bits. */
#define PCI_STATUS_INTX 0x0008u
#define PCI_STATUS_W1C 0xf900u
#define PCI_STATUS_RX_MASTER_ABORT 0x2000u

static const state_decl pci_func_decls[] = {
    STATE_WIRING(pci_func, ops, "the model's handlers: pci_func_init"),
    STATE_WIRING(pci_func, opaque, "the model: pci_func_init"),
    STATE_WIRING(pci_func, dev, "the model's register block: set by the model"),
    STATE_WIRING(pci_func, host_ops, "the host bridge: set when plugged in"),
    STATE_WIRING(pci_func, host, "the host bridge: set when plugged in"),
    STATE_WIRING(pci_func, dma_ctx, "set by the model before each DMA (pci_dma_context)"),
    STATE_INT(pci_func, command, "command register"),
    STATE_INT(pci_func, status, "status register"),
    STATE_INTS(pci_func, bar_value, "BAR values as the guest wrote them"),
    STATE_INT(pci_func, int_line, "interrupt line register"),
    STATE_INT(pci_func, latency, "latency timer"),
    STATE_INT(pci_func, cache_line, "cache line size"),
    STATE_LINES(pci_func, irq_level, "INTA..INTD as the function drives them"),
};
const state_table pci_func_state = STATE_TABLE(pci_func_decls, pci_func);

void pci_func_init(pci_func *f, const char *name, const pci_func_ops *ops, void *opaque)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->ops = ops;
    f->opaque = opaque;
    f->slot = -1;
    f->initiator = -1;
    f->dma_ctx.ring = -1;
    f->dma_ctx.index = -1;
}

/* The low (flag) bits a BAR reads back with. */
static uint32_t bar_flag_bits(const pci_bar *b)
{
    if (b->flags & PCI_BAR_IO)
        return 1;
    return ((b->flags & PCI_BAR_64) ? 4u : 0u) | ((b->flags & PCI_BAR_PREFETCH) ? 8u : 0u);
}

/* Is BAR slot i the upper half of the 64-bit BAR below it? */
static bool bar_is_upper(const pci_func *f, unsigned i)
{
    return i > 0 && f->bars[i - 1].size && (f->bars[i - 1].flags & PCI_BAR_64) &&
           !(f->bars[i - 1].flags & PCI_BAR_IO);
}

static bool irq_effective(const pci_func *f, int pin)
{
    return f->irq_level[pin] && !(f->command & PCI_CMD_INTX_DISABLE);
}

void pci_func_reset(pci_func *f)
{
    bool before[4];
    for (int p = 0; p < 4; p++)
        before[p] = irq_effective(f, p);
    f->command = 0;
    f->status = 0;
    f->int_line = 0;
    f->latency = 0;
    f->cache_line = 0;
    for (unsigned i = 0; i < 6; i++)
        f->bar_value[i] = bar_is_upper(f, i) || !f->bars[i].size ? 0 : bar_flag_bits(&f->bars[i]);
    for (int p = 0; p < 4; p++)
        f->irq_level[p] = false;
    if (f->ops && f->ops->reset)
        f->ops->reset(f);
    /* A reset drops the interrupt lines the host saw asserted. */
    for (int p = 0; p < 4; p++)
        if (before[p] && !irq_effective(f, p) && f->host_ops && f->host_ops->set_irq)
            f->host_ops->set_irq(f->host, f, p, false);
}

/* The header dword at `reg` (a multiple of 4 below 0x40). */
static uint32_t header_dword(const pci_func *f, unsigned reg)
{
    switch (reg) {
    case 0x00: return f->vendor_id | (uint32_t)f->device_id << 16;
    case 0x04: {
        uint16_t st = f->status & ~PCI_STATUS_INTX;
        for (int p = 0; p < 4; p++)
            if (f->irq_level[p])
                st |= PCI_STATUS_INTX;
        return f->command | (uint32_t)st << 16;
    }
    case 0x08: return f->revision | (f->class_code & 0xffffff) << 8;
    case 0x0c: return f->cache_line | (uint32_t)f->latency << 8 | (uint32_t)f->header_type << 16;
    case 0x10:
    case 0x14:
    case 0x18:
    case 0x1c:
    case 0x20:
    case 0x24: return f->bar_value[(reg - 0x10) / 4];
    case 0x2c: return f->subsys_vendor | (uint32_t)f->subsys_id << 16;
    case 0x3c: return f->int_line | (uint32_t)f->int_pin << 8;
    default: return 0; /* CardBus CIS, expansion ROM (none), capabilities (none) */
    }
}

uint32_t pci_config_read(pci_func *f, unsigned off, unsigned size)
{
    uint32_t v;
    if (f->ops && f->ops->config_read && f->ops->config_read(f, off, size, &v))
        return v;
    if (size != 1 && size != 2 && size != 4)
        return 0xffffffffu;
    uint32_t dw = off < 0x40 ? header_dword(f, off & ~3u) : 0;
    unsigned sh = (off & 3) * 8;
    return (uint32_t)((dw >> sh) & MASK(size * 8));
}

static void bar_write(pci_func *f, unsigned i, uint32_t v)
{
    if (bar_is_upper(f, i)) {
        uint64_t size = f->bars[i - 1].size;
        uint32_t mask = (uint32_t)(~(size - 1) >> 32);
        f->bar_value[i] = v & mask;
        return;
    }
    const pci_bar *b = &f->bars[i];
    if (!b->size)
        return; /* a BAR the function does not have is hardwired to 0 */
    uint64_t size = b->size;
    if (b->flags & PCI_BAR_IO)
        size = size < 4 ? 4 : size;
    else
        size = size < 16 ? 16 : size;
    uint32_t mask = (uint32_t) ~(size - 1) & ((b->flags & PCI_BAR_IO) ? ~3u : ~15u);
    f->bar_value[i] = (v & mask) | bar_flag_bits(b);
}

static void command_write(pci_func *f, uint16_t v)
{
    bool before[4];
    for (int p = 0; p < 4; p++)
        before[p] = irq_effective(f, p);
    f->command = (uint16_t)((f->command & ~PCI_CMD_WMASK) | (v & PCI_CMD_WMASK));
    for (int p = 0; p < 4; p++)
        if (before[p] != irq_effective(f, p) && f->host_ops && f->host_ops->set_irq)
            f->host_ops->set_irq(f->host, f, p, irq_effective(f, p));
}

void pci_config_write(pci_func *f, unsigned off, unsigned size, uint32_t val)
{
    if (f->ops && f->ops->config_write && f->ops->config_write(f, off, size, val))
        return;
    if ((size != 1 && size != 2 && size != 4) || off >= 0x40)
        return;
    unsigned reg = off & ~3u, sh = (off & 3) * 8;
    uint32_t lanes = (uint32_t)(MASK(size * 8) << sh);
    uint32_t v = (uint32_t)(val << sh) & lanes;
    uint32_t merged = (header_dword(f, reg) & ~lanes) | v;
    switch (reg) {
    case 0x04:
        if (lanes & 0xffff)
            command_write(f, (uint16_t)merged);
        if (lanes & 0xffff0000u)
            f->status &= (uint16_t) ~((v >> 16) & PCI_STATUS_W1C);
        break;
    case 0x0c:
        f->cache_line = (uint8_t)merged;
        f->latency = (uint8_t)(merged >> 8);
        break;
    case 0x10:
    case 0x14:
    case 0x18:
    case 0x1c:
    case 0x20:
    case 0x24: bar_write(f, (reg - 0x10) / 4, merged); break;
    case 0x3c: f->int_line = (uint8_t)merged; break;
    default: break; /* IDs, class, subsystem IDs, header type: read-only; no ROM BAR */
    }
}

static uint64_t bar_base(const pci_func *f, unsigned i)
{
    const pci_bar *b = &f->bars[i];
    if (b->flags & PCI_BAR_IO)
        return f->bar_value[i] & ~3u;
    uint64_t base = f->bar_value[i] & ~15u;
    if ((b->flags & PCI_BAR_64) && i < 5)
        base |= (uint64_t)f->bar_value[i + 1] << 32;
    return base;
}

bool pci_func_decode(const pci_func *f, bool io, uint64_t addr, unsigned *bar, uint64_t *off)
{
    if (!(f->command & (io ? PCI_CMD_IO : PCI_CMD_MEM)))
        return false;
    for (unsigned i = 0; i < 6; i++) {
        const pci_bar *b = &f->bars[i];
        if (!b->size || bar_is_upper(f, i) || !(b->flags & PCI_BAR_IO) != !io)
            continue;
        uint64_t base = bar_base(f, i);
        if (addr - base < b->size) {
            *bar = i;
            *off = addr - base;
            return true;
        }
    }
    return false;
}

int pci_func_reg_access(pci_func *f, int who, uint64_t off, unsigned size, uint64_t *val,
                        bool write)
{
    bus_op op = {.addr = off, .size = size, .write = write, .initiator = (uint16_t)who};
    return write ? dev_write(f->dev, &op, off, size, *val) : dev_read(f->dev, &op, off, size, val);
}

int pci_bar_access(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                   bool write)
{
    if (f->ops && (write ? f->ops->bar_write != NULL : f->ops->bar_read != NULL))
        return write ? f->ops->bar_write(f, who, bar, off, size, *val)
                     : f->ops->bar_read(f, who, bar, off, size, val);
    /* No handler: BAR 0 goes to the model's register declaration. */
    if (bar == 0 && f->dev)
        return pci_func_reg_access(f, who, off, size, val, write);
    return BUS_ERROR;
}

/* ---- device side ------------------------------------------------------ */

static int dma(pci_func *f, uint64_t addr, void *buf, uint64_t len, bool write, int kind)
{
    if (!f->host_ops || !f->host_ops->dma)
        return PCI_DMA_ABORT;
    if (!pci_bus_master(f)) {
        xlog(LOG_DEBUG, f->name, "DMA %s 0x%llx with bus mastering disabled",
             write ? "write" : "read", (unsigned long long)addr);
        return PCI_DMA_NOMASTER;
    }
    if (len == 0)
        return PCI_DMA_OK;
    HOSTPROF_BEGIN(f, kind == PCI_DMA_BULK ? HP_DMA_BULK : HP_DMA_WORD, f->name);
    int rc = f->host_ops->dma(f->host, f, addr, buf, len, write, kind);
    HOSTPROF_END();
    /* pci.h folds master and target abort into one code: record it as a
     * received master abort, the common case (nothing decoded the address). */
    if (rc != PCI_DMA_OK)
        f->status |= PCI_STATUS_RX_MASTER_ABORT;
    return rc;
}

int pci_dma_read(pci_func *f, uint64_t addr, void *buf, uint64_t len, int kind)
{
    return dma(f, addr, buf, len, false, kind);
}

int pci_dma_write(pci_func *f, uint64_t addr, const void *buf, uint64_t len, int kind)
{
    /* The host only reads the buffer of a write. */
    return dma(f, addr, (void *)(uintptr_t)buf, len, true, kind);
}

static int read_word(pci_func *f, uint64_t addr, unsigned n, uint64_t *v)
{
    uint8_t b[8];
    int rc = dma(f, addr, b, n, false, PCI_DMA_WORD);
    *v = rc == PCI_DMA_OK ? load_le(b, n) : MASK(n * 8);
    return rc;
}

static int write_word(pci_func *f, uint64_t addr, unsigned n, uint64_t v)
{
    uint8_t b[8];
    store_le(b, n, v);
    return dma(f, addr, b, n, true, PCI_DMA_WORD);
}

int pci_dma_read16(pci_func *f, uint64_t addr, uint16_t *v)
{
    uint64_t x;
    int rc = read_word(f, addr, 2, &x);
    *v = (uint16_t)x;
    return rc;
}

int pci_dma_read32(pci_func *f, uint64_t addr, uint32_t *v)
{
    uint64_t x;
    int rc = read_word(f, addr, 4, &x);
    *v = (uint32_t)x;
    return rc;
}

int pci_dma_read64(pci_func *f, uint64_t addr, uint64_t *v) { return read_word(f, addr, 8, v); }

int pci_dma_write16(pci_func *f, uint64_t addr, uint16_t v) { return write_word(f, addr, 2, v); }
int pci_dma_write32(pci_func *f, uint64_t addr, uint32_t v) { return write_word(f, addr, 4, v); }
int pci_dma_write64(pci_func *f, uint64_t addr, uint64_t v) { return write_word(f, addr, 8, v); }

void pci_set_irq(pci_func *f, int pin, bool level)
{
    if (pin < 0 || pin > 3 || f->irq_level[pin] == level)
        return;
    bool before = irq_effective(f, pin);
    f->irq_level[pin] = level;
    if (before != irq_effective(f, pin) && f->host_ops && f->host_ops->set_irq)
        f->host_ops->set_irq(f->host, f, pin, irq_effective(f, pin));
}

static void size_str(uint64_t size, char *buf, size_t len)
{
    if (size >= (1ull << 30) && !(size & ((1ull << 30) - 1)))
        snprintf(buf, len, "%lluG", (unsigned long long)(size >> 30));
    else if (size >= (1u << 20) && !(size & ((1u << 20) - 1)))
        snprintf(buf, len, "%lluM", (unsigned long long)(size >> 20));
    else if (size >= 1024 && !(size & 1023))
        snprintf(buf, len, "%lluK", (unsigned long long)(size >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)size);
}

void pci_func_show(const pci_func *f, strbuf *out)
{
    sb_printf(out, "%s %04x:%04x rev %02x class %06x subsys %04x:%04x cmd %04x%s%s%s status %04x",
              f->name, f->vendor_id, f->device_id, f->revision, f->class_code & 0xffffff,
              f->subsys_vendor, f->subsys_id, f->command, (f->command & PCI_CMD_MEM) ? " MEM" : "",
              (f->command & PCI_CMD_IO) ? " IO" : "",
              (f->command & PCI_CMD_MASTER) ? " MASTER" : "", f->status);
    if (f->int_pin)
        sb_printf(out, " INT%c line %u%s", 'A' + f->int_pin - 1, f->int_line,
                  f->irq_level[f->int_pin - 1] ? " asserted" : "");
    sb_putc(out, '\n');
    for (unsigned i = 0; i < 6; i++) {
        const pci_bar *b = &f->bars[i];
        if (!b->size || bar_is_upper(f, i))
            continue;
        char sz[24];
        size_str(b->size, sz, sizeof sz);
        sb_printf(
            out, "    BAR%u %s%s%s 0x%08llx size %s%s\n", i,
            (b->flags & PCI_BAR_IO) ? "io " : "mem", (b->flags & PCI_BAR_64) ? " 64" : "",
            (b->flags & PCI_BAR_PREFETCH) ? " pref" : "", (unsigned long long)bar_base(f, i), sz,
            (f->command & ((b->flags & PCI_BAR_IO) ? PCI_CMD_IO : PCI_CMD_MEM)) ? ""
                                                                                : " (decode off)");
    }
    if (f->ops && f->ops->show)
        f->ops->show((pci_func *)f, out);
}
