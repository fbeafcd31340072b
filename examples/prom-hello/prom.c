/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A user PROM does what the synthetic one does for the console: give the
 * IOC3 in Bridge slot 2 its BAR in DEVIO window 2, enable memory decoding,
 * program UART A, print, and reset the machine.  It runs from the PROM
 * window and keeps no writable data there. */
#include "xbow.h"

#define IOC3_PCI 0x08600000u /* widget 8 << 24 | DEVIO(2) */

void prom_main(void);

static void say(const char *s)
{
    for (; *s; s++) {
        while (!(uart_read(UART_LSR) & 0x20))
            ;
        uart_write(UART_THR, (u8)*s);
    }
}

void prom_main(void)
{
    pci_cfg_write(IOC3_SLOT, 0x10, 4, IOC3_PCI);
    bridge_write(BRIDGE_DEVICE(IOC3_SLOT), 0x1000u | (IOC3_PCI >> 20)); /* DEV_IO_MEM */
    pci_cfg_write(IOC3_SLOT, 0x04, 4, 0x2);                             /* MEM on */
    uart_write(UART_LCR, 0x83);
    uart_write(0, 48); /* 9600 baud: 7.33 MHz / 16 / 48 */
    uart_write(1, 0);
    uart_write(UART_LCR, 0x03);
    say("Hello from a user PROM\n");
    hub_write(NI_PORT_RESET, 0x81);
    for (;;)
        ;
}
