/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inter-processor interrupts to a CPU parked at an idle point
 * (tests/batch/idle_ipi.sh; docs/cpu.md "Waiting", "Solo turns").  Two
 * CPUs on node 0 take turns: one waits in arch_cpu_idle (an idle point, as
 * Linux's: entered with interrupts off) until the other, after some work,
 * writes a message and raises the first one's HUB interrupt level through
 * PI_INT_PEND_MOD.  The sender reads Count right before and right after
 * its store; the idle routine reads Count as its first instruction, which
 * a CPU waiting there executes first when its wait ends.  With idle skip
 * the wait ends exactly at the tick after the store: the woken CPU's Count
 * there equals the sender's right after the store, in both directions
 * ("idle_ipi-timing:" lines, 0 each).  A last round parks cpu0 while cpu1
 * works for about 10 M instructions without a device access (one long
 * solo turn after another: `info engine` counts them) before waking it.
 * Every "idle_ipi:" line is the same with and without idle skip. */
#include "xbow.h"

#define LEVEL_A 40 /* cpu0's IPI level (PI_INT_PEND0) */
#define LEVEL_B 41 /* cpu1's */

volatile u64 msg;            /* written by the sender before its IPI */
volatile u64 seen[2];        /* the message each CPU's handler saw */
volatile u64 woken[2];       /* set by each CPU's handler */
volatile u64 resumed[2];     /* Count at the idle routine's first instruction */
volatile u64 sent_before[2]; /* the sender's Count right before its store ... */
volatile u64 sent_after[2];  /* ... and right after it (index: the woken CPU) */
volatile u64 ready[2];       /* the CPU is about to wait */
volatile u64 noted[2];       /* the sender noted its Counts */
volatile u64 round_b;        /* cpu0 tells cpu1 which round to play */
volatile u64 sum;
static u64 stack_b[512];

/* The idle point: the CPU calls it with interrupts off; it notes Count,
 * enables interrupts (the IPI is taken here), and disables them again. */
void arch_cpu_idle(volatile u64 *count);
__asm__(".text\n"
        ".globl arch_cpu_idle\n"
        ".set push\n.set noreorder\n"
        ".balign 4096\n" /* a page of its own: the idle point's page is interpreted */
        "arch_cpu_idle:\n"
        "  mfc0  $12, $9\n"
        "  sd    $12, 0($4)\n"
        "  mfc0  $12, $12\n"
        "  ori   $12, $12, 1\n"
        "  mtc0  $12, $12\n"
        "  nop\n"
        "  nop\n"
        "  xori  $12, $12, 1\n"
        "  mtc0  $12, $12\n"
        "  jr    $31\n"
        "  nop\n"
        ".balign 4096\n"
        ".set pop\n");

static void on_ipi(int level, void *arg)
{
    (void)arg;
    int me = level == LEVEL_B;
    hub_write(PI_INT_PEND_MOD, (u64)level); /* clear it */
    seen[me] = msg;
    woken[me] = 1;
}

/* Wait at the idle point until the handler ran (Linux's idle loop). */
static void park(int me)
{
    irq_disable();
    ready[me] = 1;
    while (!woken[me]) {
        arch_cpu_idle(&resumed[me]);
        irq_disable();
    }
}

/* Work with stores, then the message and the IPI to CPU `to`. */
static void wake(int to, u64 work, u64 m)
{
    while (!ready[to]) /* (a poll: the other CPU's store ends it) */
        ;
    for (u64 i = 0; i < work; i++)
        sum += i;
    msg = m;
    u64 c1, c2;
    __asm__ volatile(".set push\n.set noreorder\n"
                     "  mfc0 %0, $9\n"
                     "  sd   %3, 0(%2)\n"
                     "  mfc0 %1, $9\n"
                     ".set pop\n"
                     : "=&r"(c1), "=&r"(c2)
                     : "r"(HUB_BASE + PI_INT_PEND_MOD), "r"((u64)(0x100 | (to ? LEVEL_B : LEVEL_A)))
                     : "memory");
    sent_before[to] = c1;
    sent_after[to] = c2;
    noted[to] = 1;
    while (!woken[to])
        ;
}

static void slave(u64 parm)
{
    (void)parm;
    irq_init();
    irq_connect(LEVEL_B, on_ipi, 0);
    /* Round 1: cpu1 wakes cpu0. */
    wake(0, 20000, 1);
    /* Round 2: cpu0 wakes cpu1. */
    while (round_b != 2)
        ;
    park(1);
    /* Round 3: a long solo turn, then cpu1 wakes cpu0. */
    while (round_b != 3)
        ;
    wake(0, 2500000, 3);
    for (;;)
        ;
}

static void report(const char *who, int to, u64 m)
{
    while (!noted[to])
        ;
    noted[to] = 0;
    s64 after = (s64)(resumed[to] - sent_after[to]), before = (s64)(resumed[to] - sent_before[to]);
    printf("idle_ipi: %s woke cpu%d, which saw message %lu (sent %lu)\n", who, to, seen[to], m);
    printf("idle_ipi-timing: cpu%d resumed at the sender's Count after the store %s%ld, before "
           "it %s%ld\n",
           to, after < 0 ? "" : "+", after, before < 0 ? "" : "+", before);
}

int main(void)
{
    if (!hub_read(PI_CPU_PRESENT_B)) {
        printf("idle_ipi: needs --cpus 2\n");
        return 1;
    }
    irq_init();
    irq_connect(LEVEL_A, on_ipi, 0);
    launch_slave(1, slave, 0, stack_b + 512);

    park(0); /* round 1 */
    report("cpu1", 0, 1);

    round_b = 2; /* round 2 */
    wake(1, 20000, 2);
    report("cpu0", 1, 2);

    woken[0] = 0; /* round 3 */
    ready[0] = 0;
    round_b = 3;
    park(0);
    report("cpu1 after long work", 0, 3);
    printf("idle_ipi: sum %lu\n", sum);
    printf("idle_ipi: done\n");
    return 0;
}
