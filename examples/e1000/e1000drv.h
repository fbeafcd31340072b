/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A small bare-metal driver for the Intel 82543GC / 82544EI behind the IP27
 * Bridge, shared by the e1000 examples (tx, rx, echo).  It does what Linux's
 * e1000 does, in fewer lines: reset, the station address from the Microwire
 * EEPROM, the PHY through MDIC (82544) or bit-banged MDIO (82543), the MAC
 * forced to the PHY's speed on the 82543, head/tail rings of legacy and
 * context/data descriptors (little-endian on PCI: the Bridge moves DMA as a
 * byte stream, DEVICE(slot).SWAP_DIR), 64-bit (PCI64) DMA addresses.
 * See docs/hardware.md "Intel 82543GC / 82544EI". */
#ifndef E1000DRV_H
#define E1000DRV_H

#include "net.h"

/* Registers (82543+ offsets). */
enum {
    CTRL = 0x0000, STATUS = 0x0008, EECD = 0x0010, CTRL_EXT = 0x0018, MDIC = 0x0020,
    ICR = 0x00c0, IMS = 0x00d0, IMC = 0x00d8, RCTL = 0x0100, TCTL = 0x0400, TIPG = 0x0410,
    RDBAL = 0x2800, RDBAH = 0x2804, RDLEN = 0x2808, RDH = 0x2810, RDT = 0x2818, RDTR = 0x2820,
    TDBAL = 0x3800, TDBAH = 0x3804, TDLEN = 0x3808, TDH = 0x3810, TDT = 0x3818, TIDV = 0x3820,
    RXCSUM = 0x5000, MTA = 0x5200, RAL0 = 0x5400, RAH0 = 0x5404,
    GPRC = 0x4074, GPTC = 0x4080, MPC = 0x4010, RNBC = 0x40a0
};

/* A descriptor as the device sees it: four little-endian 32-bit words. */
typedef struct e1000_desc {
    volatile u32 w[4];
} e1000_desc;

#define E1000_NTX 64
#define E1000_NRX 32
#define E1000_BUF 16384 /* buffer size: holds a 9000-byte jumbo frame */

typedef struct e1000 {
    int slot;
    int is_82544;
    u64 regs;          /* CPU address of BAR0 */
    u8 mac[6];
    unsigned speed;    /* 10, 100, 1000 */
    e1000_desc *tx, *rx;
    unsigned tx_tail, tx_clean;
    unsigned rx_next;
    unsigned rxbuf;    /* bytes per receive buffer */
    u8 (*txb)[E1000_BUF];
    u8 (*rxb)[E1000_BUF];
} e1000;

/* Byte swap (MIPS IV has no instruction for it; no libgcc here). */
static inline u32 le32(u32 v)
{
    return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}
/* Register access: the PROM leaves DEVIO windows in word-value mode, so a
 * 32-bit access carries the register's numeric value. */
static inline u32 er32(const e1000 *d, u32 off) { return *(volatile u32 *)(d->regs + off); }
static inline void ew32(const e1000 *d, u32 off, u32 v) { *(volatile u32 *)(d->regs + off) = v; }
/* The PCI64 address of a buffer in node memory: the HUB's widget in bits
 * 63:60, the physical address below (docs/hardware.md, "Bridge DMA"). */
static inline u64 dma_addr(const void *p) { return (u64)HUB_WIDGET << 60 | ((u64)p & 0xfffffffffful); }

/* Find, reset and bring up the NIC: link up, rings ready, receiver on
 * with `rxbuf`-byte buffers (2048, or 16384 with long packets).  Prints what
 * it does with `tag`.  Returns the NIC (there is one), or NULL with a
 * message. */
e1000 *e1000_open(const char *tag, unsigned rxbuf);
/* Transmit: put frame buffer `i` (txb[i], len bytes) on the ring with
 * optional POPTS (checksum insertion through the context loaded by
 * e1000_tx_context); waits for room.  Returns the descriptor index. */
unsigned e1000_send(e1000 *d, unsigned i, unsigned len, u32 popts);
/* A context descriptor: IP checksum over ipcss..ipcss+19 into ipcss+10,
 * TCP/UDP checksum from tucss to the end into tucso. */
void e1000_tx_context(e1000 *d, unsigned ipcss, unsigned tucss, unsigned tucso);
/* Wait until every queued descriptor is done (DD). */
void e1000_tx_wait(e1000 *d);
/* Next received frame: its buffer and length without the FCS, or NULL if
 * none is ready.  e1000_rx_done gives the buffer back. */
u8 *e1000_recv(e1000 *d, unsigned *len, u32 *status);
void e1000_rx_done(e1000 *d);

/* The payload, checksums and "name=value" arguments: lib/net.h. */

#endif
