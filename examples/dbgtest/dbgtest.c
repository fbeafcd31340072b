/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A guest for the debugger's batch tests and for trying the debugger: calls
 * three deep (main -> outer -> middle -> leaf) for next, finish and bt, a
 * recursion (depth) for until and frames, a
 * global counter and a table to watch, a string to print, an RT timer
 * interrupt for device and CPU events, and console lines to expect.
 * Every number it prints follows from the code, so tests can check them.
 *
 * With the PROM argument "forever" (--append forever) it keeps counting
 * rounds instead of resetting the machine: for Ctrl-C and instruction
 * budgets. */
#include "xbow.h"

volatile u32 counter;           /* rounds done: watch it */
volatile u64 table[16];         /* middle() stores its results here */
volatile u32 ticks;             /* RT timer interrupts taken */
volatile u64 deep;              /* depth(3) */
char message[32] = "hello, debugger";

__attribute__((noinline)) u64 leaf(u64 x) { return x * 3 + 1; }

__attribute__((noinline)) u64 middle(u64 x)
{
    u64 r = leaf(x) + leaf(x + 1);
    table[x & 15] = r;
    return r;
}

/* n + 1 nested invocations; returns n.  The volatile local keeps each
 * invocation's frame (the compiler cannot turn the recursion into a loop). */
__attribute__((noinline)) u64 depth(u64 n)
{
    volatile u64 here = n;
    if (n == 0)
        return 0;
    return depth(n - 1) + 1 + (here - n);
}

/* sum of middle(0..n-1) = 6n(n-1)/2 + 5n: 56 for n = 4 */
__attribute__((noinline)) u64 outer(u64 n)
{
    u64 s = 0;
    for (u64 i = 0; i < n; i++)
        s += middle(i);
    return s;
}

static void tick(void *arg)
{
    (void)arg;
    ticks++;
}

static int has_arg(int argc, char **argv, const char *want)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *b = want;
        while (*a && *a == *b)
            a++, b++;
        if (!*a && !*b)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int forever = has_arg(argc, argv, "forever");
    printf("dbgtest: %s\n", message);
    deep = depth(3);
    irq_init();
    rt_irq_connect(tick, NULL);
    rt_arm(RT_HZ / 1000); /* one interrupt, 1 ms of virtual time from now */
    irq_enable();
    for (int round = 0; forever || round < 3; round++) {
        u64 s = outer(4);
        counter++;
        if (round < 3)
            printf("dbgtest: round %d sum %lu\n", round, s);
    }
    while (!ticks)
        ;
    irq_disable();
    printf("dbgtest: %u timer interrupt, done\n", ticks);
    return 0;
}
