/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Small pieces of the guest runtime: memory helpers, the spin lock, the
 * machine reset and LAUNCH_SLAVE. */
#include "xbow.h"

void *memset(void *d, int c, size_t n)
{
    u8 *p = d;
    while (n--)
        *p++ = (u8)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    u8 *p = d;
    const u8 *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

void spin_lock(spinlock_t *l)
{
    u32 tmp;
    __asm__ volatile("1:	ll	%0, %1\n"
                     "	bnez	%0, 1b\n"
                     "	li	%0, 1\n"
                     "	sc	%0, %1\n"
                     "	beqz	%0, 1b\n"
                     "	nop\n"
                     "	sync\n"
                     : "=&r"(tmp), "+m"(l->v)
                     :
                     : "memory");
}

void spin_unlock(spinlock_t *l)
{
    __asm__ volatile("sync" ::: "memory");
    l->v = 0;
}

void machine_reset(void)
{
    /* NPR_PORTRESET | NPR_LOCALRESET, as Linux's ip27_machine_restart. */
    hub_write(NI_PORT_RESET, 0x81);
    for (;;)
        ;
}

/* The PROM's LAUNCH_SLAVE(nasid, cpu, call_addr, call_parm, stack, gp). */
typedef void (*launch_fn)(int nasid, int cpu, void (*call)(u64), u64 parm, void *sp,
                          void *gp);
#define IP27PROM_LAUNCHSLAVE 0xffffffffbfc00038ul

void launch_cpu(int nasid, int slice, void (*fn)(u64 parm), u64 parm, void *stack_top)
{
    void *gp;
    __asm__("move %0, $28" : "=r"(gp));
    ((launch_fn)IP27PROM_LAUNCHSLAVE)(nasid, slice, fn, parm, stack_top, gp);
}

void launch_slave(int slice, void (*fn)(u64 parm), u64 parm, void *stack_top)
{
    launch_cpu(0, slice, fn, parm, stack_top);
}

/* KLDIR at node offset 0x2000, 64-byte entries; entry 3 (GDA) holds the
 * GDA's address in `pointer` (+16); g_nasidtable (s16) at +128, ended by
 * -1 (asm/sn/kldir.h, gda.h). */
int gda_nasids(int *nasids, int max)
{
    u64 gda = *(volatile u64 *)(UNCAC_BASE + 0x2000 + 3 * 64 + 16);
    volatile short *tab = (volatile short *)(gda + 128);
    int n = 0;
    while (n < max && n < 64 && tab[n] >= 0) {
        nasids[n] = tab[n];
        n++;
    }
    return n;
}
