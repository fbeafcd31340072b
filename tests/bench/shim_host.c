/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mix.c on the host: the reference result the emulated runs must print.
 * Usage: mix_host ROUNDS */
#include <stdio.h>
#include <stdlib.h>

#include "mix.h"

void bench_putc(int c) { putchar(c); }

int main(int argc, char **argv)
{
    unsigned long n = argc == 2 ? strtoul(argv[1], NULL, 0) : 0;
    if (!n) {
        fprintf(stderr, "usage: mix_host ROUNDS\n");
        return 2;
    }
    mix_run(n);
    return 0;
}
