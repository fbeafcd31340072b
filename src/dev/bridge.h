/* The SGI Bridge ASIC: XIO widget to 64-bit PCI.  See ../shared/hw/ip27.md
 * section 3 and docs/hardware.md.
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
#include "dev/pci.h"

#define BRIDGE_SLOTS 8

typedef struct bridge bridge;

/* Create the Bridge and map its widget space at every bus address in
 * `windows` (e.g. BUS_UNC(1, 0x00000000) and BUS_UNC(1, 0x08000000)). */
bridge *bridge_new(const char *name, bus *b, sched *clock, event_bus *eb,
                   const uint64_t *windows, unsigned nwindows);
void bridge_free(bridge *br);
device *bridge_device(bridge *br);
/* Put a PCI function into slot 0..7 (wires its DMA and INTx). */
int bridge_plug(bridge *br, int slot, pci_func *f);
pci_func *bridge_slot(bridge *br, int slot);
/* The BaseIO part number the DS2505 on the Bridge's 1-wire bus reports
 * (Linux needs a "030-1124-..."-style number to probe PCI at all). */
void bridge_set_partnum(bridge *br, const char *partnum);

#endif
