/* SPDX-License-Identifier: GPL-2.0-or-later */ /* PCI configuration through the Bridge's type-0 window, with the lane
 * rules Linux's pci-xtalk-bridge.c uses: a 32-bit access carries the
 * numeric value of the little-endian register; 16- and 8-bit accesses go
 * to where^2 and where^3. */
#include "xbow.h"

static u64 cfg_addr(int slot, int where)
{
    return BRIDGE_BASE + 0x20000 + (u64)slot * 0x1000 + (u64)where;
}

u32 pci_cfg_read(int slot, int where, int size)
{
    if (size == 4)
        return *(volatile u32 *)cfg_addr(slot, where & ~3);
    if (size == 2)
        return *(volatile u16 *)cfg_addr(slot, (where & ~1) ^ 2);
    return *(volatile u8 *)cfg_addr(slot, where ^ 3);
}

void pci_cfg_write(int slot, int where, int size, u32 v)
{
    if (size == 4)
        *(volatile u32 *)cfg_addr(slot, where & ~3) = v;
    else if (size == 2)
        *(volatile u16 *)cfg_addr(slot, (where & ~1) ^ 2) = (u16)v;
    else
        *(volatile u8 *)cfg_addr(slot, where ^ 3) = (u8)v;
}

int pci_find(u16 vendor, u16 device)
{
    for (int s = 0; s < 8; s++) {
        u32 id = pci_cfg_read(s, 0, 4);
        if ((id & 0xffff) == vendor && (id >> 16) == device)
            return s;
    }
    return -1;
}

u64 pci_bar0(int slot)
{
    u32 bar = pci_cfg_read(slot, 0x10, 4);
    if (bar == 0 || (bar & 1))
        return 0;
    return IO_BASE + (bar & ~0xfu);
}

/* The Bridge sends interrupt packets to the HUB's PI_INT_PEND_MOD:
 * XIO address BIT(47) + REMOTE_HUB_ADDR(0, PI_INT_PEND_MOD) on the HUB's
 * widget (pci-xtalk-bridge.c, ip27-xtalk.c). */
void bridge_irq_route(int pin, int level)
{
    u64 intr_addr = (1ul << 47) + 0x01800000ul + PI_INT_PEND_MOD;
    bridge_write(BRIDGE_WID_INT_UPPER, (u32)((intr_addr >> 32) & 0xffff) | HUB_WIDGET << 16);
    bridge_write(BRIDGE_WID_INT_LOWER, (u32)intr_addr);
    bridge_write(BRIDGE_INT_ADDR(pin), (u32)((intr_addr >> 30) & 0x30000) | (u32)level);
    bridge_write(BRIDGE_INT_MODE, bridge_read(BRIDGE_INT_MODE) | 1u << pin);
    bridge_write(BRIDGE_INT_ENABLE, bridge_read(BRIDGE_INT_ENABLE) | 1u << pin);
    (void)bridge_read(BRIDGE_TFLUSH);
}
