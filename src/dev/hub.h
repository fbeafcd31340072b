/* The SGI HUB ASIC of an IP27 node (nasid 0): processor interface (PI),
 * memory/directory (MD), I/O interface (II) and network interface (NI)
 * registers, as ../shared/hw/ip27.md section 2 and docs/hardware.md
 * describe them.
 *
 * The register window answers at IALIAS (IO space 0x01000000, "the local
 * HUB") and at REMOTE_HUB_ADDR(0) (0x01800000).  Registers are 64-bit and
 * big-endian; narrower accesses take their byte lanes.  The HUB also
 * decodes the seven big windows of IO space through IIO_ITTE (see hub.c)
 * and hands them to the target widget (hub_wiring.xio).
 *
 * Outputs go through callbacks so the HUB can be tested without CPUs: the
 * machine wires them to cpu_set_irq(), cpu_nmi() and its reset policy. */
#ifndef XBOW_HUB_H
#define XBOW_HUB_H

#include "core/dev.h"

#define HUB_IALIAS_BASE 0x01000000ull  /* IO-space offset of the local window */
#define HUB_REMOTE0_BASE 0x01800000ull /* REMOTE_HUB_ADDR(0, 0) */
#define HUB_WINDOW_SIZE 0x800000ull

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

/* Create the HUB of nasid 0 with `ncpus` (1 or 2) CPU slices and map its
 * windows (IALIAS, REMOTE 0, big windows) on the bus. */
hub *hub_new(const char *name, bus *b, sched *clock, event_bus *eb, unsigned ncpus,
             const hub_wiring *w);
/* Frees the model; the device belongs to the machine's device list (or is
 * freed with device_free by whoever did not list it). */
void hub_free(hub *h);
device *hub_device(hub *h);
/* The RT counter now (52 bits). */
uint64_t hub_rt_count(hub *h);
/* Current state of a CPU interrupt output. */
bool hub_irq_line(const hub *h, int slice, int ip);

#endif
