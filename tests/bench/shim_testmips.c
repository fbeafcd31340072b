/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mix.c on GXemul's testmips machine: the "cons" device at physical
 * 0x10000000 (putchar at offset 0x00, halt at offset 0x10), reached through
 * KSEG1 (GXemul's doc/experiments.html, "Experimental devices"). */
#include "mix.h"

#define KSEG1(pa) (0xffffffffa0000000ul + (pa))
#define CONS_PUTCHAR (*(volatile unsigned char *)KSEG1(0x10000000ul))
#define CONS_HALT (*(volatile unsigned char *)KSEG1(0x10000010ul))

void bench_putc(int c) { CONS_PUTCHAR = (unsigned char)c; }

void __attribute__((noreturn)) bench_exit(void);
void bench_exit(void)
{
    CONS_HALT = 0;
    for (;;)
        ;
}
