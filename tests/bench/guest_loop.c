/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A freestanding integer workload for the CPU benchmark (cpu_bench.c),
 * repeated forever.  Built with $(GUEST_CC) -march=mips4 -mabi=64 and linked
 * at 0xa800000000020000 (XKPHYS, cached) by guest.ld; the harness sets sp.
 * After round k (seed k) the guest has bench.result = work_round(k) and
 * bench.rounds = k. */
#include "guest_work.h"

/* What the harness reads: found through the symbol `bench` (kernel build)
 * or at 0x10008000 (user build, see guest_user.ld). */
volatile struct {
    unsigned long result, rounds;
} bench __attribute__((section(".bench")));

void __start(void) __attribute__((noreturn, section(".text.start")));
void __start(void)
{
    unsigned long seed = 1;
    for (;;) {
        unsigned long r = work_round(seed);
        bench.result = r;
        bench.rounds = seed++;
    }
}
