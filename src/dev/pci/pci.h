/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI functions behind a host bridge.
 *
 * A PCI device model embeds a pci_func: its configuration header (IDs,
 * class, BARs with size probing, command/status, interrupt pin), its BAR
 * access handlers, and the device side of the host bridge: DMA and INTx.
 *
 * Byte order.  PCI is little-endian: a BAR access carries `size` bytes whose
 * value is the little-endian interpretation of the PCI byte lanes (the
 * Bridge's PIO swap model turns CPU accesses into such accesses).  DMA
 * buffers are PCI byte streams: byte i of the buffer is the byte at PCI
 * address addr+i; the host bridge applies its own swap and translation.
 *
 * Per-word and bulk DMA are different operations (docs/architecture.md):
 * descriptors, index words and status go through the word calls, payloads
 * through the bulk calls; the host counts them separately per initiator and
 * per window.
 */
#ifndef XBOW_PCI_H
#define XBOW_PCI_H

#include "core/bus.h"
#include "core/dev.h"

enum pci_bar_flags {
    PCI_BAR_MEM = 0,
    PCI_BAR_IO = 1,
    PCI_BAR_64 = 2, /* 64-bit memory BAR (uses the next BAR slot too) */
    PCI_BAR_PREFETCH = 4,
};

typedef struct pci_bar {
    uint64_t size;  /* power of two, 0 = not implemented */
    unsigned flags; /* enum pci_bar_flags */
} pci_bar;

enum pci_dma_kind { PCI_DMA_WORD = 0, PCI_DMA_BULK = 1 };

enum pci_dma_status {
    PCI_DMA_OK = 0,
    PCI_DMA_ABORT = 1,   /* master abort / target abort: nothing at that address */
    PCI_DMA_NOMASTER = 2 /* bus mastering disabled in the command register */
};

/* What a DMA was for, so watchpoints can name the ring and descriptor. */
typedef struct pci_dma_ctx {
    const char *what; /* "tx-desc", "rx-buf", "stats" ... or NULL; a static
                         string (events keep the pointer) */
    int ring;         /* model-defined ring number, -1 if none */
    int index;        /* descriptor index, -1 if none */
} pci_dma_ctx;

typedef struct pci_func pci_func;

/* Implemented by the host bridge. */
typedef struct pci_host_ops {
    int (*dma)(void *host, pci_func *f, uint64_t pci_addr, void *buf, uint64_t len, bool write,
               int kind);
    /* pin: 0 = INTA .. 3 = INTD */
    void (*set_irq)(void *host, pci_func *f, int pin, bool level);
    /* Optional: read what a DMA read would return, for the debugger (ring
     * views, stall checks): same translation, no counters, no events, no
     * watchpoints.  NULL = not available. */
    int (*peek)(void *host, pci_func *f, uint64_t pci_addr, void *buf, uint64_t len);
} pci_host_ops;

/* Implemented by the device model. */
typedef struct pci_func_ops {
    /* A BAR access; `who` is the bus initiator of the access the host bridge
     * turned into this PCI cycle (the CPU doing PIO), for register events. */
    int (*bar_read)(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val);
    int (*bar_write)(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val);
    void (*reset)(pci_func *f);
    /* Optional: configuration registers beyond the standard header (offset
     * >= 0x40) or overriding it; return true if handled. */
    bool (*config_read)(pci_func *f, unsigned off, unsigned size, uint32_t *val);
    bool (*config_write)(pci_func *f, unsigned off, unsigned size, uint32_t val);
    /* Optional: more lines for "info pci" (a NIC's MAC and backend). */
    void (*show)(pci_func *f, strbuf *out);
} pci_func_ops;

struct pci_func {
    char name[24];
    uint16_t vendor_id, device_id, subsys_vendor, subsys_id;
    uint32_t class_code; /* 24 bits: class, subclass, prog-if (0x020000 Ethernet) */
    uint8_t revision;
    uint8_t int_pin; /* 1 = INTA .. 4 = INTD, 0 = none */
    uint8_t header_type;
    pci_bar bars[6];
    const pci_func_ops *ops;
    void *opaque; /* the model */
    device *dev;  /* the model's register declaration, if any */
    /* Standard header state. */
    uint16_t command, status;
    uint32_t bar_value[6];
    uint8_t int_line, latency, cache_line;
    /* Wiring, set when plugged into a host. */
    const pci_host_ops *host_ops;
    void *host;
    int slot;
    int initiator;       /* bus initiator id for its DMA */
    pci_dma_ctx dma_ctx; /* context for the next DMA (see pci_dma_context) */
    bool irq_level[4];
};

#define PCI_CMD_IO 0x1
#define PCI_CMD_MEM 0x2
#define PCI_CMD_MASTER 0x4

/* The state of a pci_func (its configuration header as the guest set it,
 * its INTx levels), for the models that embed one (STATE_PART).  IDs, BAR
 * sizes and the slot are configuration: pci_func_init and the host set
 * them up again. */
extern const state_table pci_func_state;

void pci_func_init(pci_func *f, const char *name, const pci_func_ops *ops, void *opaque);
/* Power-on state of the header; calls ops->reset. */
void pci_func_reset(pci_func *f);

/* Configuration space (type 0), as the host bridge's config cycles see it:
 * `val` is the numeric value of the little-endian register bytes. */
uint32_t pci_config_read(pci_func *f, unsigned off, unsigned size);
void pci_config_write(pci_func *f, unsigned off, unsigned size, uint32_t val);

/* Does a memory (or I/O) cycle at PCI address `addr` hit one of this
 * function's enabled BARs?  Fills bar and the offset inside it. */
bool pci_func_decode(const pci_func *f, bool io, uint64_t addr, unsigned *bar, uint64_t *off);
/* A BAR access (PIO from the host) on behalf of bus initiator `who` (the
 * CPU whose load or store the host bridge forwards): the function's
 * register events name it. */
int pci_bar_access(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                   bool write);
/* An access to the function's register block (f->dev) at offset off, as
 * bus initiator `who` made it: what pci_bar_access does for BAR 0 when the
 * function has no handler, and what a handler does for the part of a BAR
 * its registers cover. */
int pci_func_reg_access(pci_func *f, int who, uint64_t off, unsigned size, uint64_t *val,
                        bool write);

/* ---- device side: DMA and interrupts ---------------------------------- */

/* Say what the following DMAs are for (ring/descriptor) until changed. */
static inline void pci_dma_context(pci_func *f, const char *what, int ring, int index)
{
    f->dma_ctx.what = what;
    f->dma_ctx.ring = ring;
    f->dma_ctx.index = index;
}
int pci_dma_read(pci_func *f, uint64_t addr, void *buf, uint64_t len, int kind);
int pci_dma_write(pci_func *f, uint64_t addr, const void *buf, uint64_t len, int kind);
/* Word DMA of little-endian PCI values (descriptor fields). */
int pci_dma_read16(pci_func *f, uint64_t addr, uint16_t *v);
int pci_dma_read32(pci_func *f, uint64_t addr, uint32_t *v);
int pci_dma_read64(pci_func *f, uint64_t addr, uint64_t *v);
int pci_dma_write16(pci_func *f, uint64_t addr, uint16_t v);
int pci_dma_write32(pci_func *f, uint64_t addr, uint32_t v);
int pci_dma_write64(pci_func *f, uint64_t addr, uint64_t v);
/* Side-effect-free DMA read for debugger views (see pci_host_ops.peek). */
static inline int pci_dma_peek(pci_func *f, uint64_t addr, void *buf, uint64_t len)
{
    if (!f->host_ops || !f->host_ops->peek)
        return PCI_DMA_ABORT;
    return f->host_ops->peek(f->host, f, addr, buf, len);
}
/* INTx: pin 0 = INTA.  Level-sensitive; the host sees changes only. */
void pci_set_irq(pci_func *f, int pin, bool level);
static inline bool pci_bus_master(const pci_func *f) { return f->command & PCI_CMD_MASTER; }

/* "info pci" style one-line-per-BAR description. */
void pci_func_show(const pci_func *f, strbuf *out);

#endif
