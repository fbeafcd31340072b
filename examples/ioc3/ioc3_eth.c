/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A bare-metal driver for the IOC3's 10/100 Ethernet, the Origin 200's own
 * NIC, organised like Linux's drivers/net/ethernet/sgi/ioc3-eth.c: the MAC
 * address from the 1-wire NIC (DS1981U) on the IOC3's MicroLAN, the PHY
 * found by scanning the MII addresses, reset and init, the Rx ring of 64
 * posted 1664-byte buffers (w0 cleared, valid bit written last by the
 * chip), the 128-entry Tx ring of 128-byte descriptors (short frames
 * inline, others by buffer pointer, split at a 16 KB boundary), ERPIR with
 * ARM after each Rx pass, and the interrupt through INTA (Bridge pin 2).
 *
 * PROM arguments (xbow --append '...'):
 *   tx COUNT [size=N] [csum=hw|sw]
 *       send COUNT UDP datagrams (frames of N bytes, pattern payload) to
 *       10.0.2.2; the UDP checksum by the chip (hw, the default: Linux's
 *       pseudo-header trick) or by the driver (sw).  Replies (the echo
 *       peer sends each datagram back) are counted and checked.
 *   rx COUNT
 *       receive COUNT frames (from gen), check the pattern, report the
 *       throughput in virtual time.
 *   echo COUNT
 *       send every frame received back to its sender (addresses swapped),
 *       COUNT times.
 * Each run ends with one line:
 *   ioc3: tx sent=N done=D txdone_irqs=I replies=R good=G bad=B
 *   ioc3: rx frames=N good=G bad=B bytes=Y time_us=T rate_Mbps=M
 *   ioc3: echo frames=N sent=S
 */
#include "net.h"

#define LEVEL 23 /* a HUB interrupt level for Bridge pin 2 (the IOC3's INTA) */
#define ETH_PIN 2

/* struct ioc3_ethregs (asm/sn/ioc3.h): BAR0 offsets. */
enum {
    EMCR = 0xf0, EISR = 0xf4, EIER = 0xf8, ERCSR = 0xfc, ERBR_H = 0x100, ERBR_L = 0x104,
    ERBAR = 0x108, ERCIR = 0x10c, ERPIR = 0x110, ERTR = 0x114, ETCSR = 0x118, ERSR = 0x11c,
    ETCDC = 0x120, ETBR_H = 0x128, ETBR_L = 0x12c, ETCIR = 0x130, ETPIR = 0x134,
    EMAR_H = 0x138, EMAR_L = 0x13c, EHAR_H = 0x140, EHAR_L = 0x144, MICR = 0x148,
    MIDR_R = 0x14c, MIDR_W = 0x150, MCR = 0x30, GPCR_S = 0x34, SSRAM = 0x40000
};
#define EMCR_DUPLEX 0x1u
#define EMCR_PADEN 0x4u
#define EMCR_RXOFF_SHIFT 3
#define EMCR_RAMPAR 0x200u
#define EMCR_BUFSIZ 0x1000u
#define EMCR_TXDMAEN 0x2000u
#define EMCR_TXEN 0x4000u
#define EMCR_RXDMAEN 0x8000u
#define EMCR_RXEN 0x10000u
#define EMCR_RST 0x80000000u
#define EISR_RXTIMERINT 0x1u
#define EISR_RXOFLO 0x4u
#define EISR_RXBUFOFLO 0x8u
#define EISR_RXMEMERR 0x10u
#define EISR_RXPARERR 0x20u
#define EISR_TXBUFUFLO 0x200000u
#define EISR_TXEXPLICIT 0x400000u
#define EISR_TXMEMERR 0x2000000u
#define ERPIR_ARM 0x80000000u
#define MICR_READTRIG 0x400u
#define MICR_BUSY 0x800u
#define ETXD_INTWHENDONE 0x1000u
#define ETXD_D0V 0x10000u
#define ETXD_B1V 0x20000u
#define ETXD_B2V 0x40000u
#define ETXD_DOCHECKSUM 0x80000u
#define ETXD_CHKOFF_SHIFT 20
#define ERXBUF_V 0x80000000u
#define ERXBUF_GOODPKT 0x40000000u
#define GPCR_MLAN_EN 0x00200000u

#define RX_BUFFS 64
#define RX_ENTRIES 512
#define TX_ENTRIES 128
#define RX_OFFSET 10 /* the 8-byte header and 2 bytes to align the IP header */
#define RX_BUF_SIZE (13 * 128)

struct etxd { /* big-endian, like the CPU */
    u32 cmd, bufcnt;
    u64 p1, p2;
    u8 data[104];
};

static u64 rx_ring[RX_ENTRIES] __attribute__((aligned(4096)));
static struct etxd tx_ring[TX_ENTRIES] __attribute__((aligned(16384)));
static u8 rx_buf[RX_BUFFS][RX_BUF_SIZE] __attribute__((aligned(128)));
/* Tx buffers 1536 bytes apart: now and then one crosses a 16 KB boundary,
 * which the chip cannot, so the frame goes in two pieces (B1 + B2). */
static u8 tx_buf[TX_ENTRIES][1536] __attribute__((aligned(16384)));
static u8 *rx_of_entry[RX_ENTRIES];

static u8 mac[6];
static const u8 peer_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02}; /* echo, sink */
static volatile unsigned tx_pi, tx_ci, rx_ci, rx_pi, txdone_irqs, split_frames;
static volatile unsigned rx_frames, rx_good, rx_bad, echo_sent;
static volatile u64 rx_bytes, rx_first_rt, rx_last_rt;
static int mode_echo, hw_csum = 1;

static u32 rl(u32 o) { return ioc3_read(o); }
static void wl(u32 o, u32 v) { ioc3_write(o, v); }
static void wmb(void) { __asm__ volatile("sync" ::: "memory"); }

/* ioc3_map: Linux's IP27 DMA address with the attribute the IOC3 wants. */
#define ATTR_BAR 0x0100000000000000ul  /* Rx buffers */
#define ATTR_PREC 0x0400000000000000ul /* rings */
#define ATTR_PREF 0x0800000000000000ul /* Tx buffers */
static u64 dma_addr(const void *p, u64 attr) { return 0xa000000000000000ul | attr | ((u64)p - CAC_BASE); }

/* ---- the 1-wire NIC (sgi_w1.c's protocol on the IOC3's MCR) ------------------ */

static unsigned mlan_slot(u32 pulse, u32 sample)
{
    wl(MCR, pulse << 10 | sample << 2);
    u32 v;
    while (!((v = rl(MCR)) & 2))
        ;
    return v & 1;
}
static int mlan_reset(void) { return mlan_slot(520, 65) == 0; } /* presence pulse */
static void mlan_write(u8 b)
{
    for (int i = 0; i < 8; i++, b >>= 1)
        (b & 1) ? mlan_slot(6, 13) : mlan_slot(80, 30);
}
static u8 mlan_read(void)
{
    u8 b = 0;
    for (int i = 0; i < 8; i++)
        b |= (u8)(mlan_slot(6, 13) << i);
    return b;
}
/* A CRC computed LSB first with the reflected polynomial poly, from 0: the
 * 1-wire CRC8 (0x8c) and CRC16 (0xa001). */
static u16 crc_lsb(const u8 *p, int n, u16 poly)
{
    u16 c = 0;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (u16)((c >> 1) ^ poly) : (u16)(c >> 1);
    }
    return c;
}
static u8 crc8(const u8 *p, int n) { return (u8)crc_lsb(p, n, 0x8c); }
static u16 crc16(const u8 *p, int n) { return crc_lsb(p, n, 0xa001); }

/* Page 0 of the NIC with READ DATA (0xC3), as w1_ds250x.c reads a 0x91;
 * the address is in bytes 10..5 (ioc3eth_get_mac_addr). */
static int read_mac(void)
{
    u8 cmd[3] = {0xc3, 0, 0}, page[32];
    wl(GPCR_S, GPCR_MLAN_EN);
    if (!mlan_reset())
        return -1;
    mlan_write(0xcc); /* SKIP ROM: one device on the bus */
    for (int i = 0; i < 3; i++)
        mlan_write(cmd[i]);
    if (mlan_read() != crc8(cmd, 3))
        return -2;
    for (int i = 0; i < 32; i++)
        page[i] = mlan_read();
    if (mlan_read() != crc8(page, 32))
        return -3;
    if (page[0] != 0x0a || crc16(page, 13) != 0xb001)
        return -4;
    for (int i = 0; i < 6; i++)
        mac[i] = page[10 - i];
    return 0;
}

/* ---- MII ---------------------------------------------------------------------- */

static u16 mdio_read(int phy, int reg)
{
    while (rl(MICR) & MICR_BUSY)
        ;
    wl(MICR, (u32)phy << 5 | (u32)reg | MICR_READTRIG);
    while (rl(MICR) & MICR_BUSY)
        ;
    return (u16)rl(MIDR_R);
}

static int find_phy(void)
{
    for (int i = 0; i < 32; i++) {
        u16 w = mdio_read(i, 2);
        if (w != 0xffff && w != 0)
            return i;
    }
    return -1;
}

/* ---- transmit -------------------------------------------------------------------- */

/* An IPv4/UDP frame of len bytes from us (10.0.2.15:5001) to 10.0.2.2:9. */
static void build_udp(u8 *f, unsigned len, u32 k, int csum)
{
    u8 *udp = udp_frame(f, len, peer_mac, mac, 0, 0x4000, 5001, 9, k), *ip = f + 14;
    unsigned udplen = len - 34;
    u16 c;
    /* Pseudo header: addresses, protocol, UDP length. */
    u32 ps = csum_add(0, ip + 12, 8) + 17 + udplen;
    if (csum == 1) { /* the chip sums the whole frame: cancel the MAC header */
        u32 eh = csum_fold(csum_add(0, f, 14));
        c = csum_fold(ps + (0xffff ^ eh));
    } else {
        c = (u16)~csum_fold(csum_add(ps, udp, udplen));
        if (!c)
            c = 0xffff;
    }
    udp[6] = (u8)(c >> 8);
    udp[7] = (u8)c;
}

/* ioc3_start_xmit: inline up to 104 bytes, one buffer, or two when the
 * buffer crosses 16 KB; the producer index written last. */
static void start_xmit(const u8 *f, unsigned len, int csum)
{
    unsigned entry = tx_pi % TX_ENTRIES;
    struct etxd *d = &tx_ring[entry];
    u32 w0 = csum ? ETXD_DOCHECKSUM | (14 + 20 + 6) << ETXD_CHKOFF_SHIFT : 0;
    u64 data = (u64)f;
    if (len <= 104) {
        memcpy(d->data, f, len);
        if (len < 60) {
            memset(d->data + len, 0, 60 - len);
            len = 60;
        }
        d->cmd = len | ETXD_INTWHENDONE | ETXD_D0V | w0;
        d->bufcnt = len;
    } else if ((data ^ (data + len - 1)) & 0x4000) {
        u64 b2 = (data | 0x3fff) + 1, s1 = b2 - data, s2 = data + len - b2;
        d->cmd = len | ETXD_INTWHENDONE | ETXD_B1V | ETXD_B2V | w0;
        d->bufcnt = (u32)(s1 << 8 | s2 << 20);
        d->p1 = dma_addr(f, ATTR_PREF);
        d->p2 = dma_addr((const void *)b2, ATTR_PREF);
        split_frames++;
    } else {
        d->cmd = len | ETXD_INTWHENDONE | ETXD_B1V | w0;
        d->bufcnt = len << 8;
        d->p1 = dma_addr(f, ATTR_PREF);
    }
    wmb();
    tx_pi++;
    wl(ETPIR, (tx_pi % TX_ENTRIES) << 7);
}

static void ioc3_tx_reclaim(void)
{
    unsigned done = (rl(ETCIR) >> 7) & (TX_ENTRIES - 1);
    while (tx_ci % TX_ENTRIES != done)
        tx_ci++;
}

/* ---- receive --------------------------------------------------------------------- */

static void post(unsigned entry, u8 *buf)
{
    *(volatile u32 *)buf = 0; /* clear the valid flag */
    rx_of_entry[entry] = buf;
    rx_ring[entry] = dma_addr(buf, ATTR_BAR);
}

static int check_frame(const u8 *b, unsigned len)
{
    if (len < 46 || b[12] != 0x08 || b[13] != 0x00 || b[23] != 17)
        return 0;
    const u8 *p = b + 42;
    unsigned n = len - 42;
    return payload_ok(p, 4, n, get32(p));
}

/* Send a received frame back: addresses (MAC, IP, UDP ports) swapped. */
static void echo_back(u8 *b, unsigned len)
{
    static u8 out[1536];
    if (len > sizeof out)
        return;
    memcpy(out, b, len);
    memcpy(out, b + 6, 6);
    memcpy(out + 6, mac, 6);
    if (len >= 42 && b[12] == 0x08 && b[13] == 0x00 && b[23] == 17) {
        memcpy(out + 26, b + 30, 4);
        memcpy(out + 30, b + 26, 4);
        memcpy(out + 34, b + 36, 2);
        memcpy(out + 36, b + 34, 2);
    }
    while (tx_pi - tx_ci >= TX_ENTRIES - 1)
        ioc3_tx_reclaim();
    unsigned entry = tx_pi % TX_ENTRIES;
    memcpy(tx_buf[entry], out, len);
    start_xmit(tx_buf[entry], len, 0);
    echo_sent++;
}

/* ioc3_rx: walk from rx_ci while the valid bit is set, repost each buffer
 * at rx_pi, then ERPIR with ARM. */
static void ioc3_rx(void)
{
    for (;;) {
        u8 *b = rx_of_entry[rx_ci];
        u32 w0 = *(volatile u32 *)b;
        if (!(w0 & ERXBUF_V))
            break;
        u32 err = *(volatile u32 *)(b + 4);
        unsigned len = ((w0 >> 16) & 0x7ff) - 4;
        const u8 *f = b + RX_OFFSET;
        if (!(err & ERXBUF_GOODPKT))
            rx_bad++;
        else if (check_frame(f, len))
            rx_good++;
        else
            rx_bad++;
        if (!rx_frames)
            rx_first_rt = rt_count();
        rx_last_rt = rt_count();
        rx_frames++;
        rx_bytes += len;
        if (mode_echo)
            echo_back(b + RX_OFFSET, len);
        post(rx_pi, b);
        rx_pi = (rx_pi + 1) % RX_ENTRIES;
        rx_ci = (rx_ci + 1) % RX_ENTRIES;
    }
    wmb();
    wl(ERPIR, rx_pi << 3 | ERPIR_ARM);
}

static void ioc3_interrupt(int level, void *arg)
{
    (void)level;
    (void)arg;
    u32 eisr = rl(EISR);
    wl(EISR, eisr);
    (void)rl(EISR);
    if (eisr & (EISR_RXOFLO | EISR_RXBUFOFLO | EISR_RXMEMERR | EISR_RXPARERR | EISR_TXBUFUFLO |
                EISR_TXMEMERR)) {
        printf("ioc3: fatal error, EISR 0x%x\n", eisr);
        machine_reset();
    }
    if (eisr & EISR_RXTIMERINT)
        ioc3_rx();
    if (eisr & EISR_TXEXPLICIT) {
        txdone_irqs++;
        ioc3_tx_reclaim();
    }
}

/* ---- open ------------------------------------------------------------------------- */

static void ioc3_init(void)
{
    wl(EMCR, EMCR_RST);
    (void)rl(EMCR);
    rt_delay_us(4);
    wl(EMCR, 0);
    (void)rl(EMCR);
    wl(ERBAR, 0x01000000); /* PCI64_ATTR_BAR >> 32, as Linux on a Bridge */
    (void)rl(ETCDC);
    wl(ERCSR, 15);
    wl(ERTR, 0);
    wl(EMAR_H, (u32)mac[5] << 8 | mac[4]);
    wl(EMAR_L, (u32)mac[3] << 24 | (u32)mac[2] << 16 | (u32)mac[1] << 8 | mac[0]);
    wl(EHAR_H, 0);
    wl(EHAR_L, 0);
    wl(ERSR, 42);
}

/* The SSRAM probe (ioc3_ssram_disc): 128 KB if the second 64 KB keeps its own word. */
static int ssram_kb(void)
{
    wl(EMCR, rl(EMCR) | EMCR_BUFSIZ | EMCR_RAMPAR);
    wl(SSRAM, 0x5555);
    wl(SSRAM + 0x10000, 0xaaaa);
    return (rl(SSRAM) & 0xffff) == 0x5555 && (rl(SSRAM + 0x10000) & 0xffff) == 0xaaaa ? 128 : 64;
}

static int ioc3_open(void)
{
    /* The IOC3 DMAs word values (SWAP_DIR clear), as Linux's
     * bridge_disable_swapping leaves it; memory and bus master on. */
    bridge_write(BRIDGE_DEVICE(IOC3_SLOT), bridge_read(BRIDGE_DEVICE(IOC3_SLOT)) & ~0x80000u);
    pci_cfg_write(IOC3_SLOT, 4, 2, pci_cfg_read(IOC3_SLOT, 4, 2) | 0x6);
    int rc = read_mac();
    if (rc) {
        printf("ioc3: no MAC address from the 1-wire NIC (%d)\n", rc);
        return -1;
    }
    wl(EMCR, 0);
    wl(EIER, 0);
    ioc3_init();
    int phy = find_phy();
    if (phy < 0) {
        printf("ioc3: no PHY\n");
        return -1;
    }
    u16 id1 = mdio_read(phy, 2), id2 = mdio_read(phy, 3);
    int kb = ssram_kb();
    for (unsigned i = 0; i < RX_BUFFS; i++)
        post(i, rx_buf[i]);
    rx_ci = 0;
    rx_pi = RX_BUFFS;
    u64 ring = dma_addr(rx_ring, ATTR_PREC);
    wl(ERBR_H, (u32)(ring >> 32));
    wl(ERBR_L, (u32)ring);
    wl(ERCIR, 0);
    wl(ERPIR, rx_pi << 3 | ERPIR_ARM);
    ring = dma_addr(tx_ring, ATTR_PREC);
    wl(ETBR_H, (u32)(ring >> 32));
    wl(ETBR_L, (u32)ring);
    wl(ETPIR, 0);
    wl(ETCIR, 0);
    (void)rl(ETCIR);
    bridge_irq_route(ETH_PIN, LEVEL);
    irq_connect(LEVEL, ioc3_interrupt, NULL);
    /* Link: BMSR twice (the link bit latches low), then the duplex. */
    u16 bmsr = 0;
    for (int i = 0; i < 1000 && !(bmsr & 4); i++) {
        (void)mdio_read(phy, 1);
        bmsr = mdio_read(phy, 1);
        if (!(bmsr & 4))
            rt_delay_us(100);
    }
    u16 lpa = mdio_read(phy, 4) & mdio_read(phy, 5);
    int fd = (lpa & 0x0140) != 0;
    wl(ETCSR, fd ? 0x00151515 : 0x00110b15);
    u32 emcr = (fd ? EMCR_DUPLEX : 0) | EMCR_RAMPAR | (kb == 128 ? EMCR_BUFSIZ : 0) |
               (RX_OFFSET / 2) << EMCR_RXOFF_SHIFT | EMCR_TXDMAEN | EMCR_TXEN | EMCR_RXDMAEN |
               EMCR_RXEN | EMCR_PADEN;
    wl(EMCR, emcr);
    wl(EIER, EISR_RXTIMERINT | EISR_RXOFLO | EISR_RXBUFOFLO | EISR_RXMEMERR | EISR_RXPARERR |
                 EISR_TXBUFUFLO | EISR_TXEXPLICIT | EISR_TXMEMERR);
    (void)rl(EIER);
    printf("ioc3: MAC %02x:%02x:%02x:%02x:%02x:%02x, PHY %d id %04x:%04x, link %s%s, SSRAM %d KB\n",
           mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], phy, id1, id2,
           bmsr & 4 ? "up" : "down", bmsr & 4 ? (fd ? " full duplex" : " half duplex") : "", kb);
    return 0;
}

/* ---- main -------------------------------------------------------------------------- */

/* Wait until cond's counter stops moving for wait_ms. */
static void settle(volatile unsigned *counter, unsigned want, unsigned wait_ms)
{
    u64 limit = (u64)wait_ms * (RT_HZ / 1000), since = rt_count();
    unsigned seen = *counter;
    while (*counter < want) {
        if (*counter != seen) {
            seen = *counter;
            since = rt_count();
        } else if (rt_count() - since > limit) {
            break;
        }
    }
}

static int run_tx(unsigned count, unsigned size)
{
    for (u32 k = 0; k < count; k++) {
        while (tx_pi - tx_ci >= TX_ENTRIES - 1)
            ;
        unsigned entry = tx_pi % TX_ENTRIES;
        build_udp(tx_buf[entry], size, k, hw_csum ? 1 : 2);
        start_xmit(tx_buf[entry], size, hw_csum);
    }
    settle(&tx_ci, count, 50);
    settle(&rx_frames, count, 50);
    printf("ioc3: tx sent=%u done=%u split=%u txdone_irqs=%u replies=%u good=%u bad=%u\n", tx_pi,
           tx_ci, split_frames, txdone_irqs, rx_frames, rx_good, rx_bad);
    return tx_ci == count ? 0 : 1;
}

static int run_rx(unsigned count)
{
    u8 hello[60];
    build_udp(hello, 60, 0, 2); /* "ready": a gen started with start=tx begins now */
    memcpy(tx_buf[0], hello, 60);
    start_xmit(tx_buf[0], 60, 0);
    settle(&rx_frames, count, 50);
    u64 us = (rx_last_rt - rx_first_rt) * 1000000ul / RT_HZ;
    u64 mbps_x1000 = us ? rx_bytes * 8 * 1000 / us : 0;
    printf("ioc3: rx frames=%u good=%u bad=%u bytes=%lu time_us=%lu rate_Mbps=%lu.%03lu\n",
           rx_frames, rx_good, rx_bad, rx_bytes, us, mbps_x1000 / 1000, mbps_x1000 % 1000);
    return rx_frames == count && rx_bad == 0 ? 0 : 1;
}

static int run_echo(unsigned count)
{
    u8 hello[60];
    build_udp(hello, 60, 0, 2);
    memcpy(tx_buf[0], hello, 60);
    start_xmit(tx_buf[0], 60, 0);
    settle(&echo_sent, count, 50);
    settle(&tx_ci, tx_pi, 50);
    printf("ioc3: echo frames=%u sent=%u good=%u bad=%u\n", rx_frames, echo_sent, rx_good, rx_bad);
    return echo_sent == count ? 0 : 1;
}

/* The word of this driver's own: csum=sw. */
static void ioc3_word(const char *a)
{
    if (streq(a, "csum=sw"))
        hw_csum = 0;
}

int main(int argc, char **argv)
{
    unsigned count = 10, size = 1024;
    int mode = 't';
    arg_mode_count_size(argc, argv, (const char *const[]){"tx", "rx", "echo", NULL}, &mode, &count,
                        &size, ioc3_word);
    if (pci_find(0x10a9, 0x0003) != IOC3_SLOT) {
        printf("ioc3: no IOC3 in slot 2\n");
        return 1;
    }
    irq_init();
    if (ioc3_open() != 0)
        return 1;
    mode_echo = mode == 'e';
    irq_enable();
    int rc = mode == 't' ? run_tx(count, size) : mode == 'r' ? run_rx(count) : run_echo(count);
    irq_disable();
    return rc;
}
