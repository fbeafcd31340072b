/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Hello, IP27: print over the IOC3 console, then reset the machine (the C
 * runtime does that when main returns). */
#include "xbow.h"

int main(int argc, char **argv)
{
    printf("Hello from the SGI Origin 200 (IP27), CPU slice %c.\n", 'A' + cpu_slice());
    printf("%d PROM argument%s:", argc, argc == 1 ? "" : "s");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    int slot = pci_find(0x10a9, 0x0003);
    printf("IOC3 in Bridge slot %d, registers at 0x%lx\n", slot, slot >= 0 ? pci_bar0(slot) : 0);
    return 0;
}
