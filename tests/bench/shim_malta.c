/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mix.c on QEMU's `-M malta`: the console is the board's CBUS 16550 UART
 * (FPGA, physical 0x1f000900, registers 8 bytes apart), the exit the
 * FPGA's software reset register (0x1f000500, write 0x42), which with
 * QEMU's -no-reboot ends QEMU.  Everything through KSEG1 (uncached). */
#include "mix.h"

#define KSEG1(pa) (0xffffffffa0000000ul + (pa))
#define UART(reg) (*(volatile unsigned char *)(KSEG1(0x1f000900ul) + 8 * (reg)))
#define SOFTRES (*(volatile unsigned int *)KSEG1(0x1f000500ul))
#define UART_THR 0
#define UART_LSR 5
#define LSR_THRE 0x20

void bench_putc(int c)
{
    while (!(UART(UART_LSR) & LSR_THRE))
        ;
    UART(UART_THR) = (unsigned char)c;
}

void __attribute__((noreturn)) bench_exit(void);
void bench_exit(void)
{
    SOFTRES = 0x42;
    for (;;)
        ;
}
