/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mix.c on xbow: the examples/lib runtime.  Its crt0 enters main() from the
 * synthetic PROM in 64-bit kernel mode and resets the machine through the
 * HUB (NI_PORT_RESET) when main returns; the console is IOC3 UART A. */
#include "xbow.h"
#include "mix.h"

void bench_putc(int c) { putchar(c); }
