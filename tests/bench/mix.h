/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark guest (mix.c) and its platform shims.  A shim gives it a
 * character on the console; main() returning ends the run the platform's
 * way (the shim's start-up code). */
#ifndef XBOW_BENCH_MIX_H
#define XBOW_BENCH_MIX_H

void bench_putc(int c);
/* Run `rounds` rounds of the workload and print the result and "done". */
void mix_run(unsigned long rounds);

#endif
