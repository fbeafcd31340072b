/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The HUB real-time counter as a periodic interrupt: the RT comparator of
 * this CPU raises IP4; the handler counts and re-arms it every 10 ms. */
#include "xbow.h"

#define PERIOD (RT_HZ / 100) /* 10 ms in 1.25 MHz ticks */
#define TICKS 5

static volatile int ticks;
static volatile u64 when[TICKS];

static void tick(void *arg)
{
    (void)arg;
    if (ticks < TICKS)
        when[ticks] = rt_count();
    ticks++;
    if (ticks < TICKS)
        rt_arm(PERIOD);
}

int main(void)
{
    irq_init();
    rt_irq_connect(tick, NULL);
    u64 start = rt_count();
    rt_arm(PERIOD);
    irq_enable();
    while (ticks < TICKS)
        ;
    irq_disable();
    for (int i = 0; i < TICKS; i++)
        printf("timer: interrupt %d at +%lu RT ticks\n", i + 1, when[i] - start);
    printf("timer: %d interrupts on IP4, %lu ms apart\n", TICKS,
           (when[TICKS - 1] - when[0]) / (TICKS - 1) * 1000 / RT_HZ);
    return 0;
}
