/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Interrupts for the bare-metal examples: the general exception vector,
 * and a dispatcher from the R10000's interrupt lines to handlers.
 *   IP2: HUB PI_INT_PEND0 & this CPU's MASK0 -> per-level handlers
 *   IP3: HUB PI_INT_PEND1 & MASK1 -> per-level handlers (levels 64..127)
 *   IP4: the HUB RT comparator of this CPU
 * (asm/sn/intr.h; docs/hardware.md, "HUB"). */
#include "xbow.h"

#define ST_IE 0x1ull
#define ST_EXL 0x2ull
#define ST_BEV (1ull << 22)
#define ST_IM(n) (1ull << (8 + (n)))
#define CAUSE_IP(n) (1ull << (8 + (n)))

extern char exc_vector[], exc_vector_end[];
void exc_dispatch(u64 *frame);

static struct {
    irq_fn fn;
    void *arg;
} handlers[128];
static u64 mask[MAX_CPUS][2]; /* per CPU (cpu_id()): MASK0, MASK1 */
static void (*rt_fn[MAX_CPUS])(void *);
static void *rt_arg[MAX_CPUS];

static inline u64 read_status(void)
{
    u64 v;
    __asm__ volatile("mfc0 %0, $12" : "=r"(v));
    return v;
}
static inline void write_status(u64 v) { __asm__ volatile("mtc0 %0, $12" ::"r"(v)); }
static inline u64 read_cause(void)
{
    u64 v;
    __asm__ volatile("mfc0 %0, $13" : "=r"(v));
    return v;
}
static inline u64 read_epc(void)
{
    u64 v;
    __asm__ volatile("dmfc0 %0, $14" : "=r"(v));
    return v;
}
static inline u64 read_badvaddr(void)
{
    u64 v;
    __asm__ volatile("dmfc0 %0, $8" : "=r"(v));
    return v;
}

void irq_init(void)
{
    /* KSEG0 0x80000180: the general exception vector with BEV clear. */
    memcpy((void *)0xffffffff80000180ul, exc_vector, (size_t)(exc_vector_end - exc_vector));
    int s = cpu_slice();
    hub_write(s ? PI_INT_MASK0_B : PI_INT_MASK0_A, 0);
    hub_write(s ? PI_INT_MASK1_B : PI_INT_MASK1_A, 0);
    u64 st = read_status();
    st &= ~(ST_BEV | ST_EXL | ST_IE);
    st |= ST_IM(2) | ST_IM(3) | ST_IM(4);
    write_status(st);
}

void irq_enable(void) { write_status(read_status() | ST_IE); }
void irq_disable(void) { write_status(read_status() & ~ST_IE); }

void irq_connect(int level, irq_fn fn, void *arg)
{
    int s = cpu_slice(), c = cpu_id(), w = level >> 6;
    handlers[level].fn = fn;
    handlers[level].arg = arg;
    hub_write(PI_INT_PEND_MOD, (u64)level); /* not pending when connected */
    mask[c][w] |= 1ul << (level & 63);
    hub_write(s ? (w ? PI_INT_MASK1_B : PI_INT_MASK0_B) : (w ? PI_INT_MASK1_A : PI_INT_MASK0_A),
              mask[c][w]);
}

void rt_irq_connect(void (*fn)(void *arg), void *arg)
{
    int s = cpu_slice(), c = cpu_id();
    rt_fn[c] = fn;
    rt_arg[c] = arg;
    hub_write(PI_RT_PEND_A + 8 * s, 0);
    hub_write(PI_RT_EN_A + 8 * s, 1);
}

void rt_arm(u64 ticks)
{
    int s = cpu_slice();
    hub_write(PI_RT_COMPARE_A + 8 * s, rt_count() + ticks);
}

void rt_delay_us(u64 us)
{
    u64 end = rt_count() + us * (RT_HZ / 1000) / 1000;
    while (rt_count() < end)
        ;
}

static void dispatch_pend(int c, int w)
{
    u64 pend = hub_read(w ? PI_INT_PEND1 : PI_INT_PEND0) & mask[c][w];
    while (pend) {
        int bit = 0;
        while (!(pend >> bit & 1))
            bit++;
        int level = w * 64 + bit;
        pend &= pend - 1;
        if (handlers[level].fn)
            handlers[level].fn(level, handlers[level].arg);
    }
}

void exc_dispatch(u64 *frame)
{
    (void)frame;
    u64 cause = read_cause();
    unsigned code = (unsigned)(cause >> 2) & 31;
    if (code != 0) {
        printf("\nunexpected exception %u at EPC 0x%lx (BadVAddr 0x%lx)\n", code, read_epc(),
               read_badvaddr());
        machine_reset();
    }
    int s = cpu_slice(), c = cpu_id();
    u64 ip = cause & read_status();
    if (ip & CAUSE_IP(4)) {
        hub_write(PI_RT_PEND_A + 8 * s, 0); /* ack */
        if (rt_fn[c])
            rt_fn[c](rt_arg[c]);
    }
    if (ip & CAUSE_IP(2))
        dispatch_pend(c, 0);
    if (ip & CAUSE_IP(3))
        dispatch_pend(c, 1);
}
