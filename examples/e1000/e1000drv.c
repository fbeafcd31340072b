/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The examples' bare-metal e1000 driver.  See e1000drv.h. */
#include "e1000drv.h"

#define CTRL_FD 0x1u
#define CTRL_SLU 0x40u
#define CTRL_FRCSPD 0x800u
#define CTRL_FRCDPX 0x1000u
#define CTRL_MDIO 0x00100000u /* SWDPIN2 (82543) */
#define CTRL_MDC 0x00200000u  /* SWDPIN3 */
#define CTRL_MDIO_DIR 0x01000000u
#define CTRL_MDC_DIR 0x02000000u
#define CTRL_RST 0x04000000u
#define EXT_SDP4_DATA 0x10u
#define EXT_SDP4_DIR 0x100u
#define EECD_SK 1u
#define EECD_CS 2u
#define EECD_DI 4u
#define EECD_DO 8u
#define MDIC_READ 0x08000000u
#define MDIC_WRITE 0x04000000u
#define MDIC_READY 0x10000000u
#define MDIC_ERROR 0x40000000u
#define BRIDGE_DEV_SWAP_DIR 0x80000u
#define TXD_EOP 0x01000000u
#define TXD_IFCS 0x02000000u
#define TXD_RS 0x08000000u
#define TXD_DEXT 0x20000000u
#define TXD_DTYP_D 0x00100000u

static e1000_desc txring[E1000_NTX] __attribute__((aligned(128)));
static e1000_desc rxring[E1000_NRX] __attribute__((aligned(128)));
static u8 txbufs[16][E1000_BUF] __attribute__((aligned(64)));
static u8 rxbufs[E1000_NRX][E1000_BUF] __attribute__((aligned(64)));

/* ---- EEPROM: Microwire read, as e1000_do_read_eeprom ------------------------------- */

static void ee_out(const e1000 *d, u32 *eecd, unsigned data, int bits)
{
    for (int b = bits - 1; b >= 0; b--) {
        *eecd = (*eecd & ~EECD_DI) | ((data >> b) & 1 ? EECD_DI : 0);
        ew32(d, EECD, *eecd);
        ew32(d, EECD, *eecd | EECD_SK);
        ew32(d, EECD, *eecd);
    }
}

static u16 ee_read(const e1000 *d, unsigned word)
{
    u32 eecd = EECD_CS;
    ew32(d, EECD, eecd);
    ee_out(d, &eecd, 6, 3); /* READ: start bit 1, opcode 10 */
    ee_out(d, &eecd, word, 6);
    eecd &= ~EECD_DI;
    u16 v = 0;
    for (int i = 0; i < 16; i++) {
        ew32(d, EECD, eecd | EECD_SK);
        v = (u16)(v << 1 | ((er32(d, EECD) & EECD_DO) ? 1 : 0));
        ew32(d, EECD, eecd);
    }
    ew32(d, EECD, 0);
    return v;
}

/* ---- PHY: MDIC (82544) or bit-banged MDIO (82543) --------------------------------- */

static void mdi_out(const e1000 *d, u32 data, int bits)
{
    u32 ctrl = er32(d, CTRL) | CTRL_MDIO_DIR | CTRL_MDC_DIR;
    for (int b = bits - 1; b >= 0; b--) {
        ctrl = (data >> b) & 1 ? ctrl | CTRL_MDIO : ctrl & ~CTRL_MDIO;
        ew32(d, CTRL, ctrl);
        ew32(d, CTRL, ctrl | CTRL_MDC);
        ew32(d, CTRL, ctrl);
    }
}

static u16 phy_read(const e1000 *d, unsigned reg)
{
    if (d->is_82544) {
        ew32(d, MDIC, reg << 16 | 1u << 21 | MDIC_READ);
        for (int i = 0; i < 100; i++) {
            u32 v = er32(d, MDIC);
            if (v & MDIC_READY)
                return (v & MDIC_ERROR) ? 0xffff : (u16)v;
            rt_delay_us(10);
        }
        return 0xffff;
    }
    mdi_out(d, 0xffffffffu, 32);
    mdi_out(d, reg | 1u << 5 | 2u << 10 | 1u << 12, 14);
    u32 ctrl = er32(d, CTRL) & ~(CTRL_MDIO_DIR | CTRL_MDIO);
    ew32(d, CTRL, ctrl);
    ew32(d, CTRL, ctrl | CTRL_MDC); /* turnaround */
    ew32(d, CTRL, ctrl);
    u16 v = 0;
    for (int i = 0; i < 16; i++) {
        ew32(d, CTRL, ctrl | CTRL_MDC);
        v = (u16)(v << 1 | ((er32(d, CTRL) & CTRL_MDIO) ? 1 : 0));
        ew32(d, CTRL, ctrl);
    }
    ew32(d, CTRL, ctrl | CTRL_MDC);
    ew32(d, CTRL, ctrl);
    return v;
}

static void phy_write(const e1000 *d, unsigned reg, u16 v)
{
    if (d->is_82544) {
        ew32(d, MDIC, v | reg << 16 | 1u << 21 | MDIC_WRITE);
        for (int i = 0; i < 100 && !(er32(d, MDIC) & MDIC_READY); i++)
            rt_delay_us(10);
        return;
    }
    mdi_out(d, 0xffffffffu, 32);
    mdi_out(d, (2u | reg << 2 | 1u << 7 | 1u << 12 | 1u << 14) << 16 | v, 32);
}

/* ---- bring-up ----------------------------------------------------------------------- */

static int link_up(e1000 *d, const char *tag)
{
    u32 ctrl = er32(d, CTRL);
    if (d->is_82544) {
        ew32(d, CTRL, (ctrl | CTRL_SLU) & ~(CTRL_FRCSPD | CTRL_FRCDPX));
    } else {
        ew32(d, CTRL, ctrl | CTRL_SLU | CTRL_FRCSPD | CTRL_FRCDPX);
        u32 ext = er32(d, CTRL_EXT) | EXT_SDP4_DIR; /* PHY hardware reset: SDP4 low */
        ew32(d, CTRL_EXT, ext & ~EXT_SDP4_DATA);
        rt_delay_us(10);
        ew32(d, CTRL_EXT, ext | EXT_SDP4_DATA);
    }
    u16 id1 = phy_read(d, 2), id2 = phy_read(d, 3);
    printf("%s: PHY %04x:%04x via %s\n", tag, id1, id2, d->is_82544 ? "MDIC" : "bit-banged MDIO");
    phy_write(d, 0, (u16)(phy_read(d, 0) | 0x1200)); /* autonegotiation on, restart */
    int ms;
    for (ms = 0; ms < 5000; ms++) {
        phy_read(d, 1); /* link status is latched low: read twice */
        if (phy_read(d, 1) & 0x0004)
            break;
        rt_delay_us(1000);
    }
    if (ms == 5000) {
        printf("%s: no link\n", tag);
        return -1;
    }
    u16 pssr = phy_read(d, 17);
    static const unsigned speeds[] = {10, 100, 1000, 1000};
    d->speed = speeds[pssr >> 14];
    if (!d->is_82544) { /* e1000_config_mac_to_phy: the 82543 cannot detect the speed */
        ctrl = er32(d, CTRL) & ~(3u << 8 | CTRL_FD);
        ew32(d, CTRL, ctrl | (u32)(pssr >> 14) << 8 | ((pssr & 0x2000) ? CTRL_FD : 0));
    }
    for (int i = 0; i < 1000 && !(er32(d, STATUS) & 2); i++)
        rt_delay_us(10);
    if (!(er32(d, STATUS) & 2)) {
        printf("%s: the MAC does not see the link (STATUS 0x%x)\n", tag, er32(d, STATUS));
        return -1;
    }
    printf("%s: link up at %u Mb/s %s duplex after about %d ms\n", tag, d->speed,
           (er32(d, STATUS) & 1) ? "full" : "half", ms);
    return 0;
}

e1000 *e1000_open(const char *tag, unsigned rxbuf)
{
    static e1000 nic;
    e1000 *d = &nic;
    memset(d, 0, sizeof *d);
    d->slot = pci_find(0x8086, 0x1008);
    d->is_82544 = d->slot >= 0;
    if (d->slot < 0)
        d->slot = pci_find(0x8086, 0x1004);
    if (d->slot < 0) {
        printf("%s: no 82543GC or 82544EI on the Bridge\n", tag);
        return NULL;
    }
    d->regs = pci_bar0(d->slot);
    if (!d->regs) {
        printf("%s: BAR0 of slot %d is not assigned\n", tag, d->slot);
        return NULL;
    }
    pci_cfg_write(d->slot, 4, 2, pci_cfg_read(d->slot, 4, 2) | 0x6); /* memory, bus master */
    bridge_write(BRIDGE_DEVICE(d->slot), bridge_read(BRIDGE_DEVICE(d->slot)) | BRIDGE_DEV_SWAP_DIR);
    printf("%s: Intel %s in slot %d, registers at 0x%lx\n", tag,
           d->is_82544 ? "82544EI" : "82543GC", d->slot, d->regs);
    ew32(d, IMC, 0xffffffffu);
    ew32(d, RCTL, 0);
    ew32(d, TCTL, 0x8);
    ew32(d, CTRL, er32(d, CTRL) | CTRL_RST);
    for (int i = 0; i < 1000 && (er32(d, CTRL) & CTRL_RST); i++)
        rt_delay_us(1);
    u16 sum = 0;
    for (unsigned w = 0; w < 64; w++) {
        u16 v = ee_read(d, w);
        sum = (u16)(sum + v);
        if (w < 3) {
            d->mac[2 * w] = (u8)v;
            d->mac[2 * w + 1] = (u8)(v >> 8);
        }
    }
    printf("%s: EEPROM checksum 0x%04x (%s), MAC %02x:%02x:%02x:%02x:%02x:%02x\n", tag, sum,
           sum == 0xbaba ? "good" : "BAD", d->mac[0], d->mac[1], d->mac[2], d->mac[3], d->mac[4],
           d->mac[5]);
    if (link_up(d, tag) != 0)
        return NULL;
    ew32(d, RAL0, (u32)d->mac[0] | (u32)d->mac[1] << 8 | (u32)d->mac[2] << 16 |
                      (u32)d->mac[3] << 24);
    ew32(d, RAH0, (u32)d->mac[4] | (u32)d->mac[5] << 8 | 0x80000000u);
    for (int i = 127; i >= 0; i--) /* top down: the 82544's odd-word erratum */
        ew32(d, MTA + 4 * (u32)i, 0);
    d->tx = txring;
    d->rx = rxring;
    d->txb = txbufs;
    d->rxb = rxbufs;
    d->rxbuf = rxbuf;
    memset(txring, 0, sizeof txring);
    u64 t = dma_addr(txring), r = dma_addr(rxring);
    ew32(d, TDLEN, sizeof txring);
    ew32(d, TDBAH, (u32)(t >> 32));
    ew32(d, TDBAL, (u32)t);
    ew32(d, TDH, 0);
    ew32(d, TDT, 0);
    ew32(d, TIPG, 8 | 8 << 10 | 6 << 20);
    ew32(d, TIDV, 0);
    ew32(d, TCTL, 0x2 | 0x8 | 15 << 4 | 63 << 12); /* EN, PSP, CT, COLD */
    for (unsigned i = 0; i < E1000_NRX; i++) {
        u64 a = dma_addr(rxbufs[i]);
        rxring[i].w[0] = le32((u32)a);
        rxring[i].w[1] = le32((u32)(a >> 32));
        rxring[i].w[2] = rxring[i].w[3] = 0;
    }
    ew32(d, RDLEN, sizeof rxring);
    ew32(d, RDBAH, (u32)(r >> 32));
    ew32(d, RDBAL, (u32)r);
    ew32(d, RDH, 0);
    ew32(d, RDT, 0);
    ew32(d, RDTR, 0);
    ew32(d, RXCSUM, 0x300); /* IP and TCP/UDP checksum status */
    u32 rctl = 0x2 | 0x8000;  /* EN, BAM, 2048-byte buffers */
    if (rxbuf > 2048)
        rctl |= 0x20 | 0x02000000u | 1u << 16; /* LPE, BSEX + 01: 16384 */
    ew32(d, RCTL, rctl);
    ew32(d, RDT, E1000_NRX - 1);
    (void)er32(d, ICR);
    return d;
}

/* ---- transmit ----------------------------------------------------------------------- */

static void tx_reclaim(e1000 *d)
{
    while (d->tx_clean != d->tx_tail && (le32(d->tx[d->tx_clean].w[3]) & 1))
        d->tx_clean = (d->tx_clean + 1) % E1000_NTX;
}

/* Queue one descriptor (words as the device reads them) and ring the doorbell. */
static unsigned tx_put(e1000 *d, u32 w0, u32 w1, u32 w2, u32 w3)
{
    while ((d->tx_tail + 1) % E1000_NTX == d->tx_clean)
        tx_reclaim(d);
    unsigned i = d->tx_tail;
    e1000_desc *x = &d->tx[i];
    x->w[0] = le32(w0);
    x->w[1] = le32(w1);
    x->w[3] = le32(w3); /* DD clear */
    x->w[2] = le32(w2);
    d->tx_tail = (i + 1) % E1000_NTX;
    __asm__ volatile("sync" ::: "memory");
    ew32(d, TDT, d->tx_tail);
    return i;
}

void e1000_tx_context(e1000 *d, unsigned ipcss, unsigned tucss, unsigned tucso)
{
    tx_put(d, ipcss | (ipcss + 10) << 8 | (ipcss + 19) << 16, tucss | tucso << 8,
           TXD_DEXT | TXD_RS, 0);
}

unsigned e1000_send(e1000 *d, unsigned i, unsigned len, u32 popts)
{
    u32 w2 = len | TXD_EOP | TXD_IFCS | TXD_RS;
    if (popts)
        w2 |= TXD_DEXT | TXD_DTYP_D;
    u64 a = dma_addr(d->txb[i]);
    return tx_put(d, (u32)a, (u32)(a >> 32), w2, popts << 8);
}

void e1000_tx_wait(e1000 *d)
{
    while (d->tx_clean != d->tx_tail)
        tx_reclaim(d);
}

/* ---- receive ------------------------------------------------------------------------ */

u8 *e1000_recv(e1000 *d, unsigned *len, u32 *status)
{
    e1000_desc *x = &d->rx[d->rx_next];
    u32 w3 = le32(x->w[3]);
    if (!(w3 & 1))
        return NULL;
    __asm__ volatile("sync" ::: "memory");
    *len = (le32(x->w[2]) & 0xffff) - 4; /* the length counts the FCS */
    *status = w3;
    return d->rxb[d->rx_next];
}

void e1000_rx_done(e1000 *d)
{
    e1000_desc *x = &d->rx[d->rx_next];
    x->w[2] = x->w[3] = 0;
    __asm__ volatile("sync" ::: "memory");
    ew32(d, RDT, d->rx_next); /* give the buffer back: the tail follows */
    d->rx_next = (d->rx_next + 1) % E1000_NRX;
}
