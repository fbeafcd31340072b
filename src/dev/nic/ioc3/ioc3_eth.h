/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI IOC3's 10/100 Ethernet function (the Origin 200's own NIC, "ef0"
 * under IRIX, ioc3-eth under Linux): the model's state, shared by
 * ioc3_eth.c (register declaration, MII, reset, factory) and ioc3_eth_dma.c
 * (the Tx and Rx DMA engines).  See docs/hardware.md, "IOC3 Ethernet".
 *
 * It is a member of the NIC engine like the gigabit cards, but not a PCI
 * card: the board creates it (model "ioc3-eth", instance ioc3_eth0) and
 * attaches it to the IOC3 (ioc3_attach_eth), which forwards the Ethernet
 * registers (BAR0 0xf0-0x153) and the SSRAM (BAR0 0x40000-0x7ffff) to this
 * model at the same offsets and carries its DMA and its interrupt.
 *
 * Byte order.  The IOC3 is a big-endian chip behind a Bridge slot whose
 * SWAP_DIR is clear (Linux's bridge_disable_swapping): its DMA crosses the
 * Bridge as word values, PCI byte i = memory byte i^3.  A 32-bit word DMA
 * therefore carries the numeric value of a big-endian word in memory, which
 * is what the descriptors are; the frame bytes, which must lie in memory in
 * wire order, are moved with their byte lanes pre-reversed by the model
 * (ioc3_eth_dma.c: eth_read_bytes, eth_write_bytes), so the Bridge's
 * reversal puts them back. */
#ifndef XBOW_IOC3_ETH_H
#define XBOW_IOC3_ETH_H

#include "dev/nic/nic.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"

/* Register ids: index into the declaration table (ioc3_eth.c). */
/* clang-format off */
enum ioc3_eth_reg {
    ER_EMCR, ER_EISR, ER_EIER, ER_ERCSR, ER_ERBR_H, ER_ERBR_L, ER_ERBAR, ER_ERCIR,
    ER_ERPIR, ER_ERTR, ER_ETCSR, ER_ERSR, ER_ETCDC, ER_EBIR, ER_ETBR_H, ER_ETBR_L,
    ER_ETCIR, ER_ETPIR, ER_EMAR_H, ER_EMAR_L, ER_EHAR_H, ER_EHAR_L, ER_MICR, ER_MIDR_R,
    ER_MIDR_W, ER_NREGS
};
/* clang-format on */

/* EMCR (asm/sn/ioc3.h). */
#define EMCR_DUPLEX 0x00000001u
#define EMCR_PROMISC 0x00000002u
#define EMCR_PADEN 0x00000004u
#define EMCR_RXOFF_SHIFT 3
#define EMCR_RXOFF_MASK 0x000001f8u
#define EMCR_RAMPAR 0x00000200u
#define EMCR_BADPAR 0x00000800u
#define EMCR_BUFSIZ 0x00001000u
#define EMCR_TXDMAEN 0x00002000u
#define EMCR_TXEN 0x00004000u
#define EMCR_RXDMAEN 0x00008000u
#define EMCR_RXEN 0x00010000u
#define EMCR_LOOPBACK 0x00020000u
#define EMCR_ARB_DIAG 0x001c0000u
#define EMCR_ARB_DIAG_IDLE 0x00200000u
#define EMCR_RST 0x80000000u

/* EISR / EIER causes. */
#define EISR_RXTIMERINT 0x00000001u
#define EISR_RXTHRESHINT 0x00000002u
#define EISR_RXOFLO 0x00000004u
#define EISR_RXBUFOFLO 0x00000008u
#define EISR_RXMEMERR 0x00000010u
#define EISR_RXPARERR 0x00000020u
#define EISR_TXEMPTY 0x00010000u
#define EISR_TXRTRY 0x00020000u
#define EISR_TXEXDEF 0x00040000u
#define EISR_TXLCOL 0x00080000u
#define EISR_TXGIANT 0x00100000u
#define EISR_TXBUFUFLO 0x00200000u
#define EISR_TXEXPLICIT 0x00400000u
#define EISR_TXCOLLWRAP 0x00800000u
#define EISR_TXDEFERWRAP 0x01000000u
#define EISR_TXMEMERR 0x02000000u
#define EISR_TXPARERR 0x04000000u

#define ERPIR_ARM 0x80000000u
#define ETCIR_IDLE 0x80000000u
#define MICR_READTRIG 0x00000400u
#define MICR_BUSY 0x00000800u

/* Tx descriptor (128 bytes, big-endian words): cmd, bufcnt, p1, p2, then
 * 104 bytes of inline data. */
#define ETXD_BYTECNT_MASK 0x000007ffu
#define ETXD_INTWHENDONE 0x00001000u
#define ETXD_D0V 0x00010000u
#define ETXD_B1V 0x00020000u
#define ETXD_B2V 0x00040000u
#define ETXD_DOCHECKSUM 0x00080000u
#define ETXD_CHKOFF_SHIFT 20
#define ETXD_CHKOFF_MASK 0x07f00000u
#define ETXD_SIZE 128
#define ETXD_HEADER 24 /* cmd, bufcnt, p1, p2: what the engine fetches as words */
#define ETXD_DATA_MAX 104

/* Rx buffer header (big-endian words at the buffer's start). */
#define ERXBUF_V 0x80000000u
#define ERXBUF_BYTECNT_SHIFT 16
#define ERXBUF_GOODPKT 0x40000000u
#define ERXBUF_BCAST 0x08000000u
#define ERXBUF_MCAST 0x04000000u

#define IOC3_ETH_RX_ENTRIES 512  /* the Rx ring's size is fixed */
#define IOC3_SSRAM_WORDS 0x10000 /* 128 KB of 16-bit words */

/* The PHY: a National DP83840 (IDs 0x2000/0x5c01) at MII address 31, as
 * IP27 boot logs on linux-mips show it ("Using PHY 31") [SRC]. */
#define IOC3_PHY_ADDR 31
#define IOC3_PHY_ID 0x20005c01u

typedef struct ioc3_eth {
    nic n; /* first: the shared NIC shell */
    nic_ring tx, rx;
    nic_link link;
    nic_mii phy;
    nic_mac_filter filt;
    uint16_t ssram[IOC3_SSRAM_WORDS]; /* the on-chip buffer memory's data bits */
    uint64_t mii_done;                /* MICR BUSY until this virtual time */
    bool rx_unsignalled;              /* frames delivered while ERPIR.ARM was clear */
    timer rx_timer;                   /* ERTR: RXTIMERINT after the timeout */
} ioc3_eth;

/* ioc3_eth_dma.c */
void ioc3_eth_dma_init(ioc3_eth *e);
void ioc3_eth_dma_reset(ioc3_eth *e);
/* A write of `val` to ring register `id` (ERBR_H/L, ERCIR, ERPIR, ETBR_H/L,
 * ETCIR, ETPIR): the ring's base, size, device or host index. */
void ioc3_eth_ring_write(ioc3_eth *e, unsigned id, uint32_t val);
void ioc3_eth_arm(ioc3_eth *e);  /* ERPIR written with ARM */
void ioc3_eth_kick(ioc3_eth *e); /* after EMCR, ETPIR, ERPIR writes */
bool ioc3_eth_rx_frame(nic *n, const uint8_t *frame, size_t len);
uint32_t ioc3_eth_etcir(const ioc3_eth *e);
/* The Tx checksum the chip inserts: the ones-complement sum of the
 * big-endian 16-bit words of f[0..len), complemented (docs/hardware.md). */
uint16_t ioc3_eth_tx_csum(const uint8_t *f, uint32_t len);
/* The Rx checksum in w0: the plain ones-complement sum (not complemented)
 * of the big-endian words of f[0..len) (frame and FCS), an odd byte padded
 * with zero. */
uint16_t ioc3_eth_rx_csum(const uint8_t *f, uint32_t len);

#endif
