/* Two CPUs: slice A starts slice B through the PROM's LAUNCH_SLAVE; each
 * prints which slice it is. */
#include "xbow.h"

#define PI_CPU_PRESENT_B 0x48

static u64 stack_b[2048] __attribute__((aligned(16)));
static volatile int b_done;

static void slave(u64 parm)
{
    printf("smp: hello from CPU slice %c (parm %lu)\n", 'A' + cpu_slice(), parm);
    b_done = 1;
}

int main(void)
{
    printf("smp: hello from CPU slice %c\n", 'A' + cpu_slice());
    if (!(hub_read(PI_CPU_PRESENT_B) & 1)) {
        printf("smp: no CPU in slice B\n");
        return 0;
    }
    launch_slave(1, slave, 42, &stack_b[2048]);
    while (!b_done)
        ;
    printf("smp: both slices ran\n");
    return 0;
}
