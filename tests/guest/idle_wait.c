/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A guest that waits in every way idle skip handles (tests/batch/idle_skip.sh):
 *  - delays on the HUB's RT counter (rt_delay_us): how far past its end
 *    each one saw the counter (must be 0 RT ticks: a wait may not end late);
 *  - an interrupt awaited with interrupts on (`while (!ticks)`): the RT
 *    count in the handler against the compare value armed;
 *  - with two CPUs, slice B polls a word with interrupts off until slice A,
 *    after some work, stores the RT count into it: when B saw it, in RT
 *    ticks from then (within 10: each CPU runs turns of 1000 instructions,
 *    7 RT ticks, so their clocks differ by up to that);
 *  - with "debugger" on the command line, a poll on `flag` with interrupts
 *    off that only the debugger can end (set var flag = 1), at the global
 *    label poll_loop for breakpoints.
 * Every line it prints is the same with and without idle skip. */
#include "xbow.h"

volatile u64 flag;
volatile u64 go, seen;
volatile u32 ticks;
volatile u64 tick_count, armed_at;
static u64 stack_b[512];

/* while (!flag); as a loop with a label the debugger can break on */
static void wait_flag(void)
{
    u64 v;
    __asm__ volatile(".set push\n.set noreorder\n"
                     ".globl poll_loop\n"
                     "poll_loop:\n"
                     "  ld %0, 0(%1)\n"
                     "  beqz %0, poll_loop\n"
                     "  nop\n"
                     ".set pop\n"
                     : "=&r"(v)
                     : "r"(&flag)
                     : "memory");
}

static void tick(void *arg)
{
    (void)arg;
    tick_count = rt_count();
    ticks++;
}

static void slave(u64 parm)
{
    (void)parm;
    while (!go) /* interrupts off: only the store ends it */
        ;
    seen = rt_count();
    for (;;)
        ;
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
    static const u64 us[] = {1, 10, 100, 1000, 5000};
    for (unsigned i = 0; i < sizeof us / sizeof us[0]; i++) {
        u64 end = rt_count() + us[i] * (RT_HZ / 1000) / 1000;
        while (rt_count() < end)
            ;
        printf("idle_wait: delay %lu us: %lu RT ticks late\n", us[i], rt_count() - end);
    }

    irq_init();
    rt_irq_connect(tick, NULL);
    armed_at = rt_count() + RT_HZ / 1000;
    hub_write(PI_RT_COMPARE_A + 8 * cpu_slice(), armed_at);
    irq_enable();
    while (!ticks)
        ;
    irq_disable();
    printf("idle_wait: interrupt %lu RT ticks after the compare value\n", tick_count - armed_at);

    if (hub_read(PI_CPU_PRESENT_B)) {
        launch_slave(1, slave, 0, stack_b + 512);
        volatile u64 sum = 0;
        for (u64 i = 0; i < 200000; i++) /* some work with stores first */
            sum += i;
        go = rt_count();
        while (!seen)
            ;
        s64 late = (s64)(seen - go); /* the CPUs' clocks differ by up to a turn */
        printf("idle_wait: slice B saw the store within %s RT ticks\n",
               late > -10 && late < 10 ? "10" : "more than 10");
    }

    if (has_arg(argc, argv, "debugger")) {
        printf("idle_wait: waiting for the debugger to set flag\n");
        wait_flag();
        printf("idle_wait: flag is %lu\n", flag);
    }
    printf("idle_wait: done\n");
    return 0;
}
