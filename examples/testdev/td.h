/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The xbow PCI DMA test device (src/dev/pci/testdev.h, docs/hardware.md) as a
 * guest sees it, and the Bridge DMA windows that reach node memory. */
#ifndef XBOW_GUEST_TD_H
#define XBOW_GUEST_TD_H

#include "xbow.h"

#define TD_VENDOR 0x5842
#define TD_DEVICE 0x0001
#define TD_SRC_LO 0x08
#define TD_SRC_HI 0x0c
#define TD_DST_LO 0x10
#define TD_DST_HI 0x14
#define TD_LEN 0x18
#define TD_CMD 0x1c
#define TD_STATUS 0x20
#define TD_INT_ACK 0x24
#define TD_XFERS 0x28
#define TD_DONE_BYTES 0x2c
#define TD_ERR_ADDR_LO 0x30
#define TD_BUF 0x1000
#define TD_GO 0x1u
#define TD_PCI_TO_PCI (0u << 1)
#define TD_PCI_TO_BUF (1u << 1)
#define TD_BUF_TO_PCI (2u << 1)
#define TD_WORD 0x8u
#define TD_IRQ 0x10u
#define TD_BUSY 0x1u
#define TD_DONE 0x2u
#define TD_ERROR 0x4u
#define TD_CODE(st) (((st) >> 8) & 0xf)

/* Bridge registers and bits beyond xbow.h (asm/pci/bridge.h). */
#define BRIDGE_WID_CONTROL 0x24
#define BRIDGE_DIR_MAP 0x84
#define BRIDGE_PCI_ERR_UPPER 0xd4
#define BRIDGE_PCI_ERR_LOWER 0xdc
#define BRIDGE_INT_RST_STAT 0x114
#define BRIDGE_INT_HOST_ERR 0x12c
#define BRIDGE_ATE(i) (0x10000 + 8 * (i))
#define BRIDGE_DEV_SWAP_PMU 0x00100000u
#define BRIDGE_DEV_SWAP_DIR 0x00080000u
#define BRIDGE_CTRL_PAGE_SIZE (1u << 21)
#define BRIDGE_ISR_PMU_ESIZE_FAULT (1u << 30)
#define BRIDGE_ISR_RESP_XTLK_ERR (1u << 26)
#define BRIDGE_ISR_PCI_ABORT (1u << 15)
#define BRIDGE_ISR_PCI_MST_TIMEOUT (1u << 11)
#define PCI64_ATTR_BAR 0x0100000000000000ul

/* The device's BAR0: little-endian 32-bit registers, read and written
 * numerically with lw/sw through the word-values PIO window. */
extern u64 td_base;
static inline u32 td_read(u32 reg) { return *(volatile u32 *)(td_base + reg); }
static inline void td_write(u32 reg, u32 v) { *(volatile u32 *)(td_base + reg) = v; }
/* Buffer byte i: CPU byte X is PCI byte X^3 in word-values PIO. */
static inline u8 td_buf_read(u32 i) { return *(volatile u8 *)(td_base + ((TD_BUF + i) ^ 3)); }
static inline void td_buf_write(u32 i, u8 v) { *(volatile u8 *)(td_base + ((TD_BUF + i) ^ 3)) = v; }

/* Node physical address of a cached pointer. */
static inline u64 pa_of(const void *p) { return (u64)p - CAC_BASE; }
static inline u64 ate(u64 xaddr) { return (xaddr & 0x0000fffffffff000ul) | (u64)HUB_WIDGET << 8 | 1; }

/* Start a transfer and wait for it; returns STATUS. */
static inline u32 td_run(u64 src, u64 dst, u32 len, u32 cmd)
{
    td_write(TD_SRC_LO, (u32)src);
    td_write(TD_SRC_HI, (u32)(src >> 32));
    td_write(TD_DST_LO, (u32)dst);
    td_write(TD_DST_HI, (u32)(dst >> 32));
    td_write(TD_LEN, len);
    td_write(TD_CMD, cmd | TD_GO);
    u32 st;
    while ((st = td_read(TD_STATUS)) & TD_BUSY)
        ;
    return st;
}

#endif
