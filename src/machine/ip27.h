/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI IP27 (Origin 200) board: address map, devices and the synthetic
 * PROM's hand-off to a kernel.  Called by machine.c.  See
 * docs/hardware.md. */
#ifndef XBOW_IP27_H
#define XBOW_IP27_H

#include "dev/pci/pci.h"
#include "machine/machine.h"

/* Bus addresses of the board (nasid 0). */
#define IP27_BRIDGE_WIDGET 8
#define IP27_BRIDGE_BASE BUS_UNC(1, (uint64_t)IP27_BRIDGE_WIDGET << 24)
#define IP27_IOC3_SLOT 2
/* The CPU address of the IOC3 registers the PROM leaves for the console
 * (KLCONFIG console_t.memory_base). */
#define IP27_IOC3_CPU_BASE 0x9200000008600000ull
/* Start epoch of the RTC with --rtc-fixed: 2024-01-01 00:00:00 UTC. */
#define IP27_RTC_FIXED_EPOCH 1704067200

int ip27_build(machine *m, xerr *err);
void ip27_free(machine *m);
/* After a machine reset: rebuild the PROM's data in memory, program the
 * Bridge and the IOC3 as the PROM leaves them, reload and re-enter the
 * kernel if one was loaded (or load the user's PROM image). */
void ip27_reset(machine *m);
/* Enter a loaded kernel as the PROM would (pc, argv, Status.KX); `path`
 * becomes argv[0].  The image is kept for restarts. */
int ip27_boot(machine *m, const char *path, const elf_image *img, xerr *err);
/* Put a PCI function into Bridge slot 0..7 (slot 2 holds the IOC3) and
 * program its BAR0 and DEVIO window as the PROM does for present cards (and
 * again after every reset).  f->dev, if set, joins the machine's device list
 * (the machine frees it). */
int ip27_plug_pci(machine *m, int slot, pci_func *f, xerr *err);

#endif
