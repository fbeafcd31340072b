/* TEMPORARY stand-in for src/dev/pci.c (branch bridge), linked only into
 * the NIC unit tests and the fuzz target until that branch is merged; then
 * this file is deleted and the tests link the real one.  It implements the
 * documented behaviour of pci.h that the NIC models rely on, nothing more. */
#include <stdio.h>
#include <stdlib.h>

#include "dev/pci.h"

/* ---- pci.h -------------------------------------------------------------- */

void pci_func_init(pci_func *f, const char *name, const pci_func_ops *ops, void *opaque)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->ops = ops;
    f->opaque = opaque;
    f->initiator = -1;
    f->slot = -1;
}

void pci_func_reset(pci_func *f)
{
    f->command = 0;
    f->status = 0;
    memset(f->bar_value, 0, sizeof f->bar_value);
    if (f->ops && f->ops->reset)
        f->ops->reset(f);
}

uint32_t pci_config_read(pci_func *f, unsigned off, unsigned size)
{
    uint8_t cfg[64] = {0};
    store_le(cfg + 0, 2, f->vendor_id);
    store_le(cfg + 2, 2, f->device_id);
    store_le(cfg + 4, 2, f->command);
    store_le(cfg + 6, 2, f->status);
    cfg[8] = f->revision;
    store_le(cfg + 9, 3, f->class_code);
    cfg[14] = f->header_type;
    for (unsigned i = 0; i < 6; i++) {
        uint32_t v = f->bar_value[i];
        if (f->bars[i].size)
            v = (uint32_t)(v & ~(f->bars[i].size - 1)) | (f->bars[i].flags & PCI_BAR_64 ? 4 : 0);
        store_le(cfg + 16 + 4 * i, 4, v);
    }
    store_le(cfg + 44, 2, f->subsys_vendor);
    store_le(cfg + 46, 2, f->subsys_id);
    cfg[60] = f->int_line;
    cfg[61] = f->int_pin;
    if (off + size > sizeof cfg)
        return 0;
    return (uint32_t)load_le(cfg + off, size);
}

void pci_config_write(pci_func *f, unsigned off, unsigned size, uint32_t val)
{
    if (off == 4 && size >= 2)
        f->command = (uint16_t)val;
    else if (off >= 16 && off < 40 && size == 4)
        f->bar_value[(off - 16) / 4] = val;
    else if (off == 60)
        f->int_line = (uint8_t)val;
}

bool pci_func_decode(const pci_func *f, bool io, uint64_t addr, unsigned *bar, uint64_t *off)
{
    (void)io;
    if (!f->bars[0].size || addr < f->bar_value[0] || addr >= f->bar_value[0] + f->bars[0].size)
        return false;
    *bar = 0;
    *off = addr - f->bar_value[0];
    return true;
}

int pci_bar_access(pci_func *f, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                   bool write)
{
    return write ? f->ops->bar_write(f, bar, off, size, *val)
                 : f->ops->bar_read(f, bar, off, size, val);
}

int pci_dma_read(pci_func *f, uint64_t addr, void *buf, uint64_t len, int kind)
{
    if (!pci_bus_master(f))
        return PCI_DMA_NOMASTER;
    if (!f->host_ops)
        return PCI_DMA_ABORT;
    return f->host_ops->dma(f->host, f, addr, buf, len, false, kind);
}

int pci_dma_write(pci_func *f, uint64_t addr, const void *buf, uint64_t len, int kind)
{
    if (!pci_bus_master(f))
        return PCI_DMA_NOMASTER;
    if (!f->host_ops)
        return PCI_DMA_ABORT;
    return f->host_ops->dma(f->host, f, addr, (void *)(uintptr_t)buf, len, true, kind);
}

#define WORD_RD(bits, type)                                              \
    int pci_dma_read##bits(pci_func *f, uint64_t addr, type *v)          \
    {                                                                    \
        uint8_t b[bits / 8];                                             \
        int st = pci_dma_read(f, addr, b, sizeof b, PCI_DMA_WORD);       \
        *v = st ? 0 : (type)load_le(b, sizeof b);                        \
        return st;                                                       \
    }                                                                    \
    int pci_dma_write##bits(pci_func *f, uint64_t addr, type v)          \
    {                                                                    \
        uint8_t b[bits / 8];                                             \
        store_le(b, sizeof b, v);                                        \
        return pci_dma_write(f, addr, b, sizeof b, PCI_DMA_WORD);        \
    }
WORD_RD(16, uint16_t)
WORD_RD(32, uint32_t)
WORD_RD(64, uint64_t)

void pci_set_irq(pci_func *f, int pin, bool level)
{
    if (pin < 0 || pin > 3 || f->irq_level[pin] == level)
        return;
    f->irq_level[pin] = level;
    if (f->host_ops && f->host_ops->set_irq)
        f->host_ops->set_irq(f->host, f, pin, level);
}

void pci_func_show(const pci_func *f, strbuf *out)
{
    sb_printf(out, "%s %04x:%04x\n", f->name, f->vendor_id, f->device_id);
}
