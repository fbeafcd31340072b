/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI Bridge ASIC: XIO widget to 64-bit PCI.  See docs/hardware.md,
 * "Bridge".
 *
 * On the Origin 200 the HUB's XIO port reaches the Bridge directly (no
 * Crossbow): the Bridge answers at several small windows of IO space.  PIO
 * through its DEVIO windows becomes PCI cycles with the byte-lane model;
 * PCI DMA is translated through the direct-mapped, ATE-mapped or PCI64 paths
 * into cached node memory; interrupt pins become XIO writes to the HUB's
 * PI_INT_PEND_MOD (as real bus writes from initiator "bridge"). */
#ifndef XBOW_BRIDGE_H
#define XBOW_BRIDGE_H

#include "core/bus.h"
#include "core/dev.h"
#include "dev/pci/pci.h"

#define BRIDGE_SLOTS 8

typedef struct bridge bridge;

/* Create the Bridge and map its widget space at every bus address in
 * `windows` (e.g. BUS_UNC(1, 0x00000000) and BUS_UNC(1, 0x08000000)). */
bridge *bridge_new(const char *name, bus *b, sched *clock, event_bus *eb, const uint64_t *windows,
                   unsigned nwindows);
/* Frees the Bridge's own state.  Its device (bridge_device) is owned by
 * whoever keeps it: the machine frees it with its device list; a standalone
 * user calls device_free() on it first. */
void bridge_free(bridge *br);
device *bridge_device(bridge *br);
/* Put a PCI function into slot 0..7 (wires its DMA and INTx). */
int bridge_plug(bridge *br, int slot, pci_func *f);
pci_func *bridge_slot(bridge *br, int slot);
/* The BaseIO part number the DS2505 on the Bridge's 1-wire bus reports
 * (Linux needs a "030-1124-..."-style number to probe PCI at all). */
void bridge_set_partnum(bridge *br, const char *partnum);

/* Board wiring: the Bridge pin (0..7) that INTx (0 = INTA .. 3 = INTD) of
 * `slot` drives.  Default: INTA/INTC to pin slot, INTB/INTD to pin slot^4
 * (the IP27 BaseIO IOC3 in slot 2 overrides INTB to pin 4). */
void bridge_set_intx_pin(bridge *br, int slot, int intx, int pin);
/* XIO widget id of the HUB, the target of DMA and interrupt packets
 * (default 0xa, the value Linux's ip27-xtalk.c passes as master widget). */
void bridge_set_hub_widget(bridge *br, unsigned widget);
/* Config read of an empty slot/function: all-ones (default) or a bus error
 * (the CPU takes a DBE).  See docs/hardware.md. */
void bridge_set_cfg_abort_error(bridge *br, bool bus_error);

/* A PIO at XIO address `xio` of the Bridge, for HUB big windows: widget
 * space (0..0xffffff) and the PCI aliases (MEM32 0x4000_0000, MEM64
 * 0x8000_0000, I/O 0x1_0000_0000).  op->size/op->write/op->initiator are
 * used; *val is a big-endian value as for MMIO.  Returns BUS_OK/BUS_ERROR. */
int bridge_xio_access(bridge *br, const bus_op *op, uint64_t xio, uint64_t *val);

/* The live per-word DMA counter: per initiator and per DMA window. */
enum bridge_window {
    BRIDGE_WIN_DIR32, /* 0x8000_0000-0xffff_ffff through DIR_MAP */
    BRIDGE_WIN_ATE,   /* 0x4000_0000-0x7fff_ffff through the ATEs */
    BRIDGE_WIN_PCI64, /* 64-bit (DAC) addresses with the attribute byte */
    BRIDGE_WIN_LOCAL, /* 0-0x3fff_ffff: not decoded (only errors count here) */
    BRIDGE_NWINDOWS
};
typedef struct bridge_dma_counter {
    uint64_t word_ops, word_bytes; /* PCI_DMA_WORD transfers (descriptors, status words) */
    uint64_t bulk_ops, bulk_bytes; /* PCI_DMA_BULK transfers (payloads) */
    uint64_t errors;               /* DMAs that ended in an abort in this window */
} bridge_dma_counter;
const char *bridge_window_name(int window);
/* Counters of bus initiator `who` in `window`; -1 if out of range. */
int bridge_dma_counters(const bridge *br, int who, int window, bridge_dma_counter *out);
void bridge_dma_counters_reset(bridge *br);

#endif
