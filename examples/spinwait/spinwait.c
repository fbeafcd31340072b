/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A CPU that spins on memory while another CPU computes: how many
 * instructions the spinning CPU executes before xbow sees that it only
 * waits (idle skip, docs/cpu.md "Waiting").
 *
 * The boot CPU starts a second CPU (the first other one present).  Each of
 * ROUNDS rounds, the second CPU computes (a loop without stores whose
 * registers change, which xbow's probes watch, find no wait in and back
 * off from), says so, and spins on `flag` until the boot CPU, which
 * computes BUSY iterations meanwhile, sets it.  The second CPU counts the
 * instructions it executed in each spin with the R10000's performance
 * counter 0 (event 15, graduated instructions; a CPU that waits graduates
 * none).  The boot CPU prints the total and the longest spin.  With one
 * host thread a spin costs what the probes' period allows (up to 2^20
 * ticks); with --threads the period backs off to 4096 ticks at most, so
 * each spin costs a few thousand instructions (tests/batch/spin_threads.sh). */
#include "xbow.h"

#define ROUNDS 8
#define WORK1 1000000 /* the spinning CPU's work before each spin (iterations) */
#define BUSY 2000000  /* the boot CPU's work while the other spins */

static u64 stack1[4096] __attribute__((aligned(16)));
static volatile u64 flag, ready, done;
static volatile u64 spin_total, spin_max;

/* Work the probes find no wait in: no stores, registers that change. */
static u64 compute(u64 n, u64 x)
{
    for (u64 i = 0; i < n; i++)
        __asm__ volatile("dsll %0, %0, 1\n\tdaddu %0, %0, %1" : "+r"(x) : "r"(i));
    return x;
}

/* Performance counter 0: control (select 0) and count (select 1), as raw
 * words (the assembler's MIPS IV has no select field): v0 holds the value. */
static void perf_start(void)
{
    register u64 v __asm__("$2") = (15u << 5) | 0xf; /* graduated, EXL/K/S/U */
    __asm__ volatile(".word 0x4082c800\n\t" /* mtc0 $2, $25, 0 */
                     ".word 0x4080c801"     /* mtc0 $0, $25, 1 */
                     : : "r"(v) : "memory");
}

static u64 perf_count(void)
{
    register u64 v __asm__("$2");
    __asm__ volatile(".word 0x4002c801" : "=r"(v) : : "memory"); /* mfc0 $2, $25, 1 */
    return v & 0xffffffffu;
}

static volatile u64 sink;

static void spinner(u64 parm)
{
    (void)parm;
    perf_start();
    for (u64 r = 1; r <= ROUNDS; r++) {
        sink = compute(WORK1, r);
        ready = r;
        u64 c0 = perf_count();
        while (flag != r)
            ;
        u64 n = perf_count() - c0;
        spin_total += n;
        if (n > spin_max)
            spin_max = n;
    }
    done = 1;
    for (;;)
        ;
}

int main(void)
{
    int nasids[MAX_CPUS / 2 + 1];
    int nnodes = gda_nasids(nasids, MAX_CPUS / 2 + 1);
    int found = 0;
    for (int i = 0; i < nnodes && !found; i++)
        for (int s = 0; s < 2 && !found; s++) {
            if (nasids[i] == 0 && s == 0)
                continue; /* this CPU */
            if (!(remote_hub_read(nasids[i], s ? PI_CPU_PRESENT_B : PI_CPU_PRESENT_A) & 1))
                continue;
            launch_cpu(nasids[i], s, spinner, 0, &stack1[4096]);
            found = 1;
        }
    if (!found) {
        printf("spinwait: needs a second CPU (--cpus 2)\n");
        return 1;
    }
    for (u64 r = 1; r <= ROUNDS; r++) {
        while (ready != r)
            ;
        sink = compute(BUSY, r);
        flag = r;
    }
    while (!done)
        ;
    printf("spinwait: %d spins, %lu instructions executed spinning, at most %lu in one\n", ROUNDS,
           spin_total, spin_max);
    return 0;
}
