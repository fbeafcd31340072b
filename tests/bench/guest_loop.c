/* A freestanding integer workload for the CPU benchmark (cpu_bench.c),
 * repeated forever.  Built with $(GUEST_CC) -march=mips4 -mabi=64 and linked
 * at 0xa800000000020000 (XKPHYS, cached) by guest.ld; the harness sets sp.
 * After round k (seed k) the guest has result = work_round(k), rounds = k. */
#include "guest_work.h"

volatile unsigned long result;
volatile unsigned long rounds;

void __start(void) __attribute__((noreturn, section(".text.start")));
void __start(void)
{
    unsigned long seed = 1;
    for (;;) {
        unsigned long r = work_round(seed);
        result = r;
        rounds = seed++;
    }
}
