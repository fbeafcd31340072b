/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LL/SC across CPUs: every CPU of the machine adds 1 to shared counters
 * ROUNDS times, at once: a 32-bit one with LL/SC, a 64-bit one with
 * LLD/SCD, and a plain one under a spinlock (itself LL/SC).  The boot CPU
 * then prints the three totals and whether each is exact (ncpus * ROUNDS):
 * a lost update shows a store that an SC should have refused.  With
 * --threads the CPUs run on host threads of their own, truly at once. */
#include "xbow.h"

#define ROUNDS 100000

static u64 stacks[MAX_CPUS][2048] __attribute__((aligned(16)));
static volatile int started, finished, go;
static volatile u32 count32;
static volatile u64 count64 __attribute__((aligned(8)));
static volatile u64 plain;
static spinlock_t lock;
static volatile u64 sc_fail[MAX_CPUS];

static void add32(volatile u32 *p)
{
    u32 tmp;
    u64 fails = 0;
    __asm__ volatile("1:	ll	%0, %1\n"
                     "	addiu	%0, %0, 1\n"
                     "	sc	%0, %1\n"
                     "	bnez	%0, 2f\n"
                     "	nop\n"
                     "	daddiu	%2, %2, 1\n"
                     "	b	1b\n"
                     "	nop\n"
                     "2:\n"
                     : "=&r"(tmp), "+m"(*p), "+r"(fails)
                     :
                     : "memory");
    sc_fail[cpu_id()] += fails;
}

static void add64(volatile u64 *p)
{
    u64 tmp;
    __asm__ volatile("1:	lld	%0, %1\n"
                     "	daddiu	%0, %0, 1\n"
                     "	scd	%0, %1\n"
                     "	beqz	%0, 1b\n"
                     "	nop\n"
                     : "=&r"(tmp), "+m"(*p)
                     :
                     : "memory");
}

static void work(void)
{
    __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
    while (!go)
        ;
    for (int i = 0; i < ROUNDS; i++) {
        add32(&count32);
        add64(&count64);
        spin_lock(&lock);
        plain = plain + 1;
        spin_unlock(&lock);
    }
    __atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST);
}

static void slave(u64 parm)
{
    (void)parm;
    work();
}

int main(void)
{
    int nasids[MAX_CPUS / 2 + 1];
    int nnodes = gda_nasids(nasids, MAX_CPUS / 2 + 1);
    int n = 0;
    for (int i = 0; i < nnodes; i++)
        for (int s = 0; s < 2; s++) {
            if ((nasids[i] == 0 && s == 0) || n == MAX_CPUS - 1)
                continue; /* this CPU */
            if (!(remote_hub_read(nasids[i], s ? PI_CPU_PRESENT_B : PI_CPU_PRESENT_A) & 1))
                continue;
            launch_cpu(nasids[i], s, slave, (u64)(n + 1), &stacks[n][2048]);
            n++;
        }
    int ncpus = n + 1;
    while (started != n)
        ;
    go = 1;
    work();
    while (finished != ncpus)
        ;
    u64 want = (u64)ncpus * ROUNDS, fails = 0;
    for (int i = 0; i < MAX_CPUS; i++)
        fails += sc_fail[i];
    printf("llsc: %d CPUs x %d rounds\n", ncpus, ROUNDS);
    printf("llsc: ll/sc %lu, lld/scd %lu, spinlock %lu, expected %lu\n", (u64)count32, count64,
           plain, want);
    printf("llsc: %s\n",
           count32 == (u32)want && count64 == want && plain == want ? "exact" : "LOST UPDATES");
    printf("llsc: sc failures %s\n", fails ? "seen (the CPUs contended)" : "none");
    return 0;
}
