/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI IOC3 I/O controller as a PCI function (vendor 0x10a9, device
 * 0x0003), as the IP27 BaseIO carries it in Bridge slot 2.  See
 * docs/hardware.md, "IOC3".
 *
 * Modelled: the BAR0 register block (SIO interrupt registers, GPIO, serial
 * port control, the 1-wire master with the board's Ethernet-address NIC on
 * its bus), the SuperIO 16550 UARTs A (console) and B, the M48T35 RTC/NVRAM
 * on byte-bus DEV0, the config-space subset the chip implements, and the
 * SIO interrupt on INTB.  The Ethernet function (registers 0xf0-0x153, its
 * SSRAM at 0x40000) is a NIC model of its own (src/dev/nic/ioc3/), which
 * the board attaches (ioc3_attach_eth): the IOC3 forwards those offsets to
 * it, and carries its DMA and its interrupt (INTA) as its own.
 *
 * Byte order.  BAR accesses arrive as little-endian PCI values (pci.h).
 * The IOC3 registers are 32-bit LE, so under the Bridge's word-value lane
 * model a CPU lw/sw sees them numerically.  The byte-wide devices (UARTs,
 * RTC) sit at PCI byte address `(base + i) ^ 3` for their register i, so
 * the CPU finds register i at byte address base + i (docs/hardware.md,
 * "Byte lanes"). */
#ifndef XBOW_IOC3_H
#define XBOW_IOC3_H

#include "core/chardev.h"
#include "dev/chip/m48t35.h"
#include "dev/pci/pci.h"
#include "dev/chip/uart16550.h"

#define IOC3_VENDOR 0x10a9
#define IOC3_DEVICE 0x0003
#define IOC3_BAR0_SIZE 0x100000
#define IOC3_UART_CLOCK 7333333 /* 22 MHz / 3 [SRC 8250_ioc3.c] */
/* SIO_IR bits of the 16550 pass-through interrupts. */
#define SIO_IR_SA_INT 0x00000040
#define SIO_IR_SB_INT 0x00008000

typedef struct ioc3 ioc3;

typedef struct ioc3_config {
    chardev *uart_a;   /* console line (may be NULL) */
    chardev *uart_b;   /* second port (may be NULL) */
    int64_t rtc_epoch; /* Unix time the RTC shows at virtual time 0 */
    /* The Ethernet address in the DS1981U on the MicroLAN (NULL: no such
     * NIC on the bus, as before the Ethernet function was modelled). */
    const uint8_t *mac;
} ioc3_config;

/* Offsets of the Ethernet function inside BAR0. */
#define IOC3_ETH_REGS 0xf0
#define IOC3_ETH_REGS_END 0x154
#define IOC3_SSRAM 0x40000
#define IOC3_SSRAM_END 0x80000

ioc3 *ioc3_new(const char *name, event_bus *eb, sched *clock, const ioc3_config *cfg);
/* Frees the model; the devices (ioc3_devices) belong to the machine's list. */
void ioc3_free(ioc3 *io);
pci_func *ioc3_pci(ioc3 *io);
/* The IOC3's own register block, then UART A, UART B and the RTC. */
unsigned ioc3_devices(ioc3 *io, device **out, unsigned max);
uart16550 *ioc3_uart(ioc3 *io, int port);
m48t35 *ioc3_rtc(ioc3 *io);
/* Attach the Ethernet function `eth` (a PCI function of the NIC engine that
 * is not plugged into the Bridge itself): BAR0 accesses to the Ethernet
 * registers and the SSRAM go to its BAR0 at the same offsets; its DMA goes
 * through the IOC3's own host bridge, slot and bus-master bit (under its
 * own initiator, which the board registers); its INTA is the IOC3's INTA. */
void ioc3_attach_eth(ioc3 *io, pci_func *eth);

#endif
