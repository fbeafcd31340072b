/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI HUB ASIC of an IP27 node: processor interface (PI),
 * memory/directory (MD), I/O interface (II) and network interface (NI)
 * registers, as Linux's asm/sn/sn0/hub*.h and docs/hardware.md, "HUB",
 * describe them.
 *
 * The register window of the HUB of node `nasid` answers at
 * REMOTE_HUB_ADDR(nasid) (IO space nasid<<32 | 0x01800000) and, for a
 * nasid other than 0, at nasid<<32 | 0x01000000 too.  IALIAS (IO space
 * 0x01000000 of nasid 0, "the local HUB") reaches the HUB of the accessing
 * CPU: on a one-node machine the HUB maps it itself (hub_node.ialias); with
 * several nodes the board maps it and picks the HUB per access
 * (hub_window_access).  Registers are 64-bit and big-endian; narrower
 * accesses take their byte lanes.  The HUB also decodes the seven big
 * windows of its node's IO space through IIO_ITTE (see hub.c) and hands
 * them to the target widget (hub_wiring.xio).
 *
 * Outputs go through callbacks so the HUB can be tested without CPUs: the
 * machine wires them to cpu_set_irq(), cpu_nmi() and its reset policy. */
#ifndef XBOW_HUB_H
#define XBOW_HUB_H

#include "core/dev.h"

#define HUB_IALIAS_BASE 0x01000000ull  /* IO-space offset of the local window */
#define HUB_REMOTE0_BASE 0x01800000ull /* REMOTE_HUB_ADDR(0, 0) */
#define HUB_WINDOW_SIZE 0x800000ull
#define HUB_NASID_SHIFT 32 /* M mode: node n's space at n << 32 */

/* Register offsets the rest of xbow uses (hubpi.h, hubio.h, hubni.h). */
#define PI_CPU_NUM 0x000020
#define PI_INT_PEND_MOD 0x000090
#define PI_INT_PEND0 0x000098
#define PI_INT_PEND1 0x0000a0
#define PI_INT_MASK0_A 0x0000a8
#define PI_RT_COUNT 0x030100
#define PI_RT_COMPARE_A 0x000108
#define PI_RT_PEND_A 0x000120
#define PI_RT_EN_A 0x000140
#define PI_ERR_STACK_ADDR_A 0x000418
#define IIO_ITTE_BASE 0x400160
#define NI_STATUS_REV_ID 0x600000
#define NI_PORT_RESET 0x600008

/* 1.25 MHz: Linux assumes 800 ns per RT tick [SRC ip27-timer.c]. */
#define HUB_RT_HZ 1250000u

typedef struct hub hub;

typedef struct hub_wiring {
    /* Interrupt line `ip` (2..6) of the CPU in `slice` (0 = A, 1 = B). */
    void (*set_irq)(void *ctx, int slice, int ip, bool level);
    /* PI_NMI_A/B written with bit 0 set. */
    void (*nmi)(void *ctx, int slice);
    /* NI_PORT_RESET with LOCALRESET: `promop` is PI_ERR_STACK_ADDR_A, where
     * Linux leaves its PROMOP request (gda.h). */
    void (*reset)(void *ctx, uint64_t promop);
    /* A big-window PIO at XIO address `xio` of `widget` (op carries size,
     * direction, initiator; *val is big-endian as for MMIO).  NULL: the HUB
     * forwards accesses below 16 MB to the widget's small window. */
    int (*xio)(void *ctx, unsigned widget, const bus_op *op, uint64_t xio, uint64_t *val);
    void *ctx;
} hub_wiring;

/* Which node a HUB belongs to and what hangs off it. */
typedef struct hub_node {
    unsigned nasid; /* node id (NI_STATUS_REV_ID); its windows at IO nasid<<32 */
    unsigned ncpus; /* CPU slices present: 1 or 2 */
    int first_cpu;  /* CPU index (initiator.cpu) of slice A; slice B is +1 */
    bool ialias;    /* also map IALIAS (IO 0x01000000): one-node machines */
    bool xio_up;    /* a widget behind the II: IIO_ILCSR says the link works */
    bool peer;      /* a CrayLink peer node (NI link to another HUB) */
} hub_node;

/* Create the HUB of node `n` and map its windows (REMOTE, IALIAS as
 * hub_node says, big windows) on the bus. */
hub *hub_new_node(const char *name, bus *b, sched *clock, event_bus *eb, const hub_node *n,
                  const hub_wiring *w);
/* The HUB of a one-node machine: nasid 0 with `ncpus` (1 or 2) CPU slices,
 * CPU 0 in slice A, IALIAS mapped, the XIO link up, no peer. */
hub *hub_new(const char *name, bus *b, sched *clock, event_bus *eb, unsigned ncpus,
             const hub_wiring *w);
/* One access at offset `off` of the HUB's 8 MB register window (op says
 * size, direction and initiator), for a board that decodes IALIAS itself. */
int hub_window_access(hub *h, const bus_op *op, uint64_t off, uint64_t *val);
unsigned hub_nasid(const hub *h);
/* Frees the model; the device belongs to the machine's device list (or is
 * freed with device_free by whoever did not list it). */
void hub_free(hub *h);
device *hub_device(hub *h);
/* The RT counter now (52 bits). */
uint64_t hub_rt_count(hub *h);
/* Current state of a CPU interrupt output. */
bool hub_irq_line(const hub *h, int slice, int ip);

#endif
