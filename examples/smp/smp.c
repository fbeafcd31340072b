/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Every CPU of the machine, on one node or two.  The boot CPU (nasid 0,
 * slice A) finds the nodes in the GDA's nasid table and the CPUs each
 * node's HUB reports present (PI_CPU_PRESENT_A/B through REMOTE_HUB_ADDR),
 * and starts each of them through the PROM's LAUNCH_SLAVE(nasid, slice).
 * Every CPU prints the nasid and slice its own HUB reports (LOCAL_HUB_ADDR:
 * NI_STATUS_REV_ID, PI_CPU_NUM).  Then the boot CPU interrupts each one
 * through its node's PI_INT_PEND_MOD, at the level Linux uses for its
 * CPU_CALL IPIs (9 + slice), and each reports the interrupt. */
#include "xbow.h"

#define CPU_CALL_A_IRQ 9

static u64 stacks[MAX_CPUS][2048] __attribute__((aligned(16)));
static spinlock_t print_lock;
static volatile int ready, done;
static volatile int got_ipi[MAX_CPUS];

static void on_ipi(int level, void *arg)
{
    (void)arg;
    hub_write(PI_INT_PEND_MOD, (u64)level); /* LOCAL_HUB_CLR_INTR */
    got_ipi[cpu_id()] = 1;
}

static void slave(u64 parm)
{
    int nasid = cpu_nasid(), slice = cpu_slice();
    irq_init();
    irq_connect(CPU_CALL_A_IRQ + slice, on_ipi, NULL);
    irq_enable();
    spin_lock(&print_lock);
    printf("smp: nasid %d slice %c: hello (parm %lu)\n", nasid, 'A' + slice, parm);
    ready++;
    spin_unlock(&print_lock);
    while (!got_ipi[cpu_id()])
        ;
    spin_lock(&print_lock);
    printf("smp: nasid %d slice %c: interrupt %d from nasid 0 slice A\n", nasid, 'A' + slice,
           CPU_CALL_A_IRQ + slice);
    done++;
    spin_unlock(&print_lock);
    irq_disable();
}

int main(void)
{
    int nasids[MAX_CPUS / 2 + 1];
    int nnodes = gda_nasids(nasids, MAX_CPUS / 2 + 1);
    int ncpus = 1;
    spin_lock(&print_lock);
    printf("smp: nasid %d slice %c: the boot CPU, %d node%s in the GDA\n", cpu_nasid(),
           'A' + cpu_slice(), nnodes, nnodes == 1 ? "" : "s");
    spin_unlock(&print_lock);
    struct {
        int nasid, slice;
    } cpus[MAX_CPUS];
    int n = 0;
    for (int i = 0; i < nnodes; i++)
        for (int s = 0; s < 2; s++) {
            if (nasids[i] == 0 && s == 0)
                continue; /* this CPU */
            if (!(remote_hub_read(nasids[i], s ? PI_CPU_PRESENT_B : PI_CPU_PRESENT_A) & 1))
                continue;
            if (n == MAX_CPUS - 1)
                break;
            cpus[n].nasid = nasids[i];
            cpus[n].slice = s;
            launch_cpu(nasids[i], s, slave, (u64)(n + 1), &stacks[n][2048]);
            n++;
        }
    ncpus += n;
    while (ready != n)
        ;
    /* REMOTE_HUB_SEND_INTR(nasid, CPU_CALL_A_IRQ + slice), as Linux's IPIs. */
    for (int i = 0; i < n; i++)
        remote_hub_write(cpus[i].nasid, PI_INT_PEND_MOD,
                         0x100 | (u64)(CPU_CALL_A_IRQ + cpus[i].slice));
    while (done != n)
        ;
    printf("smp: %d CPU%s on %d node%s ran\n", ncpus, ncpus == 1 ? "" : "s", nnodes,
           nnodes == 1 ? "" : "s");
    return 0;
}
