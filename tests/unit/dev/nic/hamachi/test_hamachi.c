/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the Hamachi GNIC-II model, driven the way its Linux driver
 * drives it, through a fake PCI host (RAM, DMA counters, interrupt log) and
 * a fake wire. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dev/nic/hamachi/hamachi.h"
#include "../nic_fake.h"
#include "../../../check_run.h"

/* Register offsets (Linux hamachi.c). */
enum {
    TxDMACtrl = 0x00,
    TxCmd = 0x04,
    TxStatus = 0x06,
    TxPtr = 0x08,
    TxCurPtr = 0x10,
    RxDMACtrl = 0x20,
    RxCmd = 0x24,
    RxStatus = 0x26,
    RxPtr = 0x28,
    PCIClkMeas = 0x60,
    MiscStatus = 0x66,
    ChipRev = 0x68,
    ChipReset = 0x6b,
    TxIntrCtrl = 0x78,
    RxIntrCtrl = 0x7c,
    InterruptEnable = 0x80,
    InterruptClear = 0x84,
    IntrStatus = 0x88,
    FlowCtrl = 0xbc,
    MaxFrameSize = 0xce,
    AddrMode = 0xd0,
    StationAddr = 0xd2,
    ANCtrl = 0xe0,
    ANStatus = 0xe2,
    EECmdStatus = 0xf0,
    EEData = 0xf1,
    EEAddr = 0xf2,
    MII_Cmd = 0xa6,
    MII_Addr = 0xa8,
    MII_Rd_Data = 0xac
};
#define OWN HAM_DESC_OWN
#define EOP HAM_DESC_EOP
#define ENDR HAM_DESC_END_RING
#define INTR HAM_DESC_INTR

#define TXRING (FAKE_LO + 0x1000)
#define RXRING (FAKE_LO + 0x3000)
#define TXBUF(i) (FAKE_LO + 0x10000 + (uint64_t)(i)*0x800)
#define RXBUF(i) (FAKE_LO + 0x60000 + (uint64_t)(i)*0x2800)
#define US(x) ((uint64_t)(x)*180)

static const uint8_t MYMAC[6] = {0x02, 0x58, 0x42, 0x11, 0x22, 0x33};

static struct {
    NIC_RIG;
    hamachi *h;
    unsigned dsz; /* descriptor size: 8 or 16 */
    bool hi;      /* buffers in the 64-bit window */
} E;

/* A Hamachi on a fake host; with spec NULL its wire is the fake one,
 * otherwise a real backend opened by the factory. */
static void env_open(const char *spec)
{
    xerr err;
    memset(&E, 0, sizeof E);
    nic_opts o = {.net = spec ? spec : "none", .mac = MYMAC};
    ck_assert_msg(nic_rig_open(&E.rig, "hamachi", "hamachi0", &o, 4u << 20, !spec, &err), "%s",
                  err.msg);
    E.h = (hamachi *)E.n;
    E.dsz = 8;
}

static void setup(void) { env_open(NULL); }

static void teardown(void) { nic_rig_close(&E.rig); }

static void wr(unsigned off, unsigned size, uint64_t v)
{
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, size, &v, true), BUS_OK);
}

static uint64_t rd(unsigned off, unsigned size)
{
    uint64_t v = 0;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, size, &v, false), BUS_OK);
    return v;
}

static uint64_t win(uint64_t lo_addr) { return E.hi ? lo_addr - FAKE_LO + FAKE_HI : lo_addr; }

/* Write descriptor i of a ring the way the driver does: address, then the
 * status word with the ownership bit last. */
static void desc_write(uint64_t ring, unsigned i, uint64_t buf, uint32_t status)
{
    uint64_t a = ring + (uint64_t)i * E.dsz;
    if (E.dsz == 16) {
        fake_w32(&E.host, a + 4, 0);
        fake_w64(&E.host, a + 8, buf);
    } else {
        fake_w32(&E.host, a + 4, (uint32_t)buf);
    }
    fake_w32(&E.host, a, status);
}

static uint32_t desc_status(uint64_t ring, unsigned i)
{
    return fake_r32(&E.host, ring + (uint64_t)i * E.dsz);
}

static void make_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k)
{
    fake_frame(f, len, dst, 0x0800, k);
}

/* Linux's open sequence (hamachi_open), with ntx Tx and nrx Rx descriptors. */
static void open_nic(unsigned ntx, unsigned nrx, uint32_t rx_cap, unsigned rx_skew)
{
    wr(ChipReset, 1, 1);
    run_for(&E.clock, US(100));
    wr(TxPtr, 4, (uint32_t)TXRING);
    wr(RxPtr, 4, (uint32_t)RXRING);
    for (unsigned i = 0; i < 6; i++)
        wr(StationAddr + i, 1, MYMAC[i]);
    wr(MaxFrameSize, 2, 1518);
    wr(TxIntrCtrl, 4, 0);
    wr(RxIntrCtrl, 4, 0);
    wr(AddrMode, 2, 1);
    wr(InterruptEnable, 4, 0x80878787);
    uint16_t dmactrl = E.dsz == 16 ? 0x5d : 0x1d;
    for (unsigned i = 0; i < ntx; i++)
        desc_write(TXRING, i, 0, i == ntx - 1 ? ENDR : 0);
    for (unsigned i = 0; i < nrx; i++)
        desc_write(RXRING, i, win(RXBUF(i)) + rx_skew,
                   OWN | EOP | INTR | rx_cap | (i == nrx - 1 ? ENDR : 0));
    wr(RxDMACtrl, 2, dmactrl);
    wr(TxDMACtrl, 2, dmactrl);
    wr(RxCmd, 2, 1);
}

static void post_tx(unsigned i, unsigned ntx, const uint8_t *frame, uint32_t len, uint32_t flags)
{
    memcpy(fake_ptr(&E.host, TXBUF(i), len), frame, len);
    desc_write(TXRING, i, win(TXBUF(i)), OWN | EOP | flags | len | (i == ntx - 1 ? ENDR : 0));
}

/* The driver's kick: TxCmd = 1 only when TxStatus says idle or stopped. */
static void kick_tx(void)
{
    uint64_t st = rd(TxStatus, 2);
    if (!(st & 1) || (st & 2))
        wr(TxCmd, 2, 1);
}

static const uint8_t BCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* ---- identity, registers ---------------------------------------------------- */

START_TEST(pci_identity_and_bar)
{
    ck_assert_uint_eq(pci_config_read(E.f, 0, 4), 0x09111318u);
    ck_assert_uint_eq(pci_config_read(E.f, 9, 2) | pci_config_read(E.f, 11, 1) << 16, 0x020000u);
    ck_assert_uint_eq(E.f->bars[0].size, 0x400);
    ck_assert(E.f->bars[0].flags & PCI_BAR_64);
    ck_assert_uint_eq(E.f->int_pin, 1);
    ck_assert(nic_of_device(E.n->dev) == E.n);
    xerr err;
    ck_assert(nic_create("nosuch", "x0", NULL, &E.clock, &E.eb, &err) == NULL);
    ck_assert(strstr(err.msg, "hamachi") != NULL);
    /* PCIClkMeas is invalid right after a reset, then valid at 33 MHz. */
    wr(ChipReset, 1, 1);
    ck_assert_uint_eq(rd(PCIClkMeas, 1) & 0x80, 0);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rd(PCIClkMeas, 1), 0x80 | 60);
    ck_assert_uint_eq(rd(MiscStatus, 2) & 1, 1);
}
END_TEST

START_TEST(odd_widths_tolerated)
{
    open_nic(16, 4, 1536, 0);
    ck_assert_uint_eq(rd(RxStatus, 2), HAM_CH_RUNNING);
    /* readl(ChipRev) covers ChipReset too: no reset, byte 3 reads 0. */
    uint64_t rev = rd(ChipRev, 4);
    ck_assert_uint_eq(rev >> 24, 0);
    ck_assert_uint_eq(rev & 0xffff, 2);
    ck_assert_uint_eq(rd(RxStatus, 2), HAM_CH_RUNNING);
    /* writel(2, RxCmd) in close: a 32-bit write over RxCmd + RxStatus. */
    wr(RxCmd, 4, 2);
    ck_assert_uint_eq(rd(RxStatus, 2), HAM_CH_STOPPED);
    /* A byte write to TxCmd's high byte starts nothing. */
    wr(TxCmd + 1, 1, 0);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_STOPPED);
    /* MII: no PHY behind the interface. */
    wr(MII_Addr, 2, (1 << 8) | 1);
    wr(MII_Cmd, 2, 1);
    ck_assert_uint_eq(rd(MII_Rd_Data, 2), 0xffff);
    /* A 16-bit read of InterruptClear still clears the causes. */
    nic_irq_assert(E.n, HAM_INTR_TX_DONE);
    ck_assert_uint_eq(rd(InterruptClear, 2), HAM_INTR_TX_DONE);
    ck_assert_uint_eq(rd(IntrStatus, 4), 0);
    ck_assert(!E.host.level);
}
END_TEST

START_TEST(eeprom_mac_and_autoneg)
{
    uint8_t mac[6];
    for (unsigned i = 0; i < 6; i++) {
        wr(EEAddr, 2, 4 + i);
        wr(EECmdStatus, 1, 0x02);
        ck_assert_uint_eq(rd(EECmdStatus, 1) & 0x40, 0x40); /* busy */
        unsigned polls = 0;
        while (rd(EECmdStatus, 1) & 0x40) {
            run_for(&E.clock, 20);
            ck_assert_uint_lt(++polls, 1000);
        }
        mac[i] = (uint8_t)rd(EEData, 1);
    }
    ck_assert_mem_eq(mac, MYMAC, 6);
    /* Probe-time autonegotiation: link up 0x20 after the AN time. */
    wr(InterruptEnable, 4, 0x80878787);
    rd(InterruptClear, 4);
    wr(ANCtrl, 2, 0x1000);
    ck_assert_uint_eq(rd(ANStatus, 2) & 0x20, 0);
    run_for(&E.clock, US(1100));
    ck_assert_uint_eq(rd(ANStatus, 2) & 0x24, 0x24);
    ck_assert_uint_eq(rd(InterruptClear, 4) & 0x30000, 0x30000);
}
END_TEST

/* ---- transmit ------------------------------------------------------------------ */

START_TEST(tx_descintr_on_off)
{
    uint8_t f[1514];
    open_nic(16, 4, 1536, 0);
    rd(InterruptClear, 4);
    for (unsigned i = 0; i < 3; i++) {
        make_frame(f, 1000 + i, BCAST, i);
        post_tx(i, 16, f, 1000 + i, INTR);
    }
    kick_tx();
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.wire.nframes, 3);
    ck_assert_uint_eq(E.wire.lens[2], 1002);
    ck_assert_uint_eq(E.h->txc.fires[NIC_COAL_IMMEDIATE], 3); /* no coalescing */
    ck_assert_uint_eq(E.n->irq.asserts[8], 1);                /* TxDone became pending once */
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_TX_DONE);
    ck_assert_uint_eq(rd(InterruptClear, 4), 0);
    ck_assert(!E.host.level);
    ck_assert_uint_eq(desc_status(TXRING, 0) & OWN, 0);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_SUSPENDED);
    /* The same frames without DescIntr: sent, but no Tx interrupt at all. */
    for (unsigned i = 3; i < 6; i++) {
        make_frame(f, 800, BCAST, i);
        post_tx(i, 16, f, 800, 0);
    }
    kick_tx();
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.wire.nframes, 6);
    ck_assert_uint_eq(E.h->txc.fires[NIC_COAL_IMMEDIATE], 3);
    ck_assert_uint_eq(E.n->irq.asserts[8], 1);
    ck_assert_uint_eq(E.n->irq.cause, 0);
    ck_assert_mem_eq(E.wire.frames[5], f, 800);
}
END_TEST

START_TEST(tx_status_idle_and_rekick)
{
    uint8_t f[100];
    open_nic(8, 4, 1536, 0);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_STOPPED);
    make_frame(f, 100, BCAST, 0);
    post_tx(0, 8, f, 100, INTR);
    kick_tx();
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_RUNNING);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_SUSPENDED); /* truthful: idle after the drain */
    /* A descriptor posted without a kick is not seen: the stall query says so. */
    post_tx(1, 8, f, 100, INTR);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 1);
    ring_state s;
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert(s.posted && s.idle && ring_stalled(&s));
    ck_assert_uint_ge(s.idle_ticks, US(50));
    kick_tx();
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 2);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_SUSPENDED);
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert(!s.posted && !ring_stalled(&s));
    ck_assert_uint_eq((uint32_t)rd(TxCurPtr, 4), (uint32_t)(TXRING + 2 * 8));
    /* TxCmd = 2 stops the channel. */
    wr(TxCmd, 2, 2);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_STOPPED);
}
END_TEST

START_TEST(endring_wrap_vs_walk_on)
{
    uint8_t f[200];
    make_frame(f, 200, BCAST, 1);
    open_nic(4, 4, 1536, 0);
    for (unsigned k = 0; k < 6; k++) {
        post_tx(k % 4, 4, f, 200, INTR);
        kick_tx();
        run_for(&E.clock, US(20));
    }
    ck_assert_uint_eq(E.wire.nframes, 6);
    ck_assert_uint_eq(E.h->tx.index, 2);
    ck_assert_uint_eq(E.h->tx.wraps, 1);
    /* Without DescEndRing the engine walks on into the following memory. */
    open_nic(4, 4, 1536, 0);
    fake_w32(&E.host, TXRING + 3 * 8, 0); /* clear the EndRing the open set */
    for (unsigned i = 0; i < 6; i++) {
        memcpy(fake_ptr(&E.host, TXBUF(i), 200), f, 200);
        desc_write(TXRING, i, TXBUF(i), OWN | EOP | 200);
    }
    kick_tx();
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 12);
    ck_assert_uint_eq(E.h->tx.index, 6);
    ck_assert_uint_eq(E.h->tx.cur, TXRING + 6 * 8);
    strbuf b;
    sb_init(&b);
    nic_view_ring(E.n->dev, "tx 4", NULL, &b);
    ck_assert(strstr(b.s, "hamachi0 ring tx") != NULL);
    sb_reset(&b);
    nic_view_ring(E.n->dev, "tx", NULL, &b);
    ck_assert(strstr(b.s, "no end-of-ring") != NULL);
    sb_free(&b);
}
END_TEST

START_TEST(desc_64bit_mode)
{
    uint8_t f[600];
    E.dsz = 16;
    E.hi = true;
    open_nic(8, 4, 1536, 0);
    make_frame(f, 600, BCAST, 3);
    post_tx(0, 8, f, 600, INTR);
    kick_tx();
    run_for(&E.clock, US(30));
    ck_assert_uint_eq(E.wire.nframes, 1);
    ck_assert_mem_eq(E.wire.frames[0], f, 600);
    ck_assert_uint_eq(E.h->tx.cur, TXRING + 16);
    /* Rx into a buffer above 4 GB. */
    make_frame(f, 600, MYMAC, 4);
    ck_assert(fake_wire_deliver(&E.wire, f, 600));
    run_for(&E.clock, US(30));
    ck_assert_mem_eq(fake_ptr(&E.host, RXBUF(0), 600), f, 600);
    ck_assert_uint_eq(desc_status(RXRING, 0) & (OWN | EOP), EOP);
}
END_TEST

/* ---- receive -------------------------------------------------------------------- */

START_TEST(rx_trailer_and_length)
{
    uint8_t f[1514];
    /* Linux: buffers 2 bytes into an aligned block, length rx_buf_sz - 2. */
    open_nic(8, 4, 1534, 2);
    rd(InterruptClear, 4);
    make_frame(f, 1514, MYMAC, 9);
    ck_assert(fake_wire_deliver(&E.wire, f, 1514));
    run_for(&E.clock, US(20));
    uint32_t st = desc_status(RXRING, 0);
    ck_assert_uint_eq(st & OWN, 0);
    ck_assert_uint_eq(st & (EOP | INTR), EOP | INTR);
    uint32_t size = st & 0xffff;
    ck_assert_uint_eq(size, 1534); /* 1514 + FCS, trailer at an 8-byte address, 16 bytes */
    uint8_t *buf = fake_ptr(&E.host, RXBUF(0) + 2, size);
    ck_assert_mem_eq(buf, f, 1514);
    uint32_t fs = (uint32_t)load_le(buf + size - 12, 4);
    ck_assert_uint_eq(fs & 0x7ff, 1518);
    ck_assert_uint_eq(fs & 0x00380000, 0);
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_RX_DONE);
    /* A minimal frame: padding up to the 8-byte boundary before the trailer. */
    make_frame(f, 60, BCAST, 10);
    ck_assert(fake_wire_deliver(&E.wire, f, 60));
    run_for(&E.clock, US(20));
    st = desc_status(RXRING, 1);
    ck_assert_uint_eq(st & 0xffff, 86); /* 60 + 4, pad 6, + 16 */
    buf = fake_ptr(&E.host, RXBUF(1) + 2, 86);
    ck_assert_uint_eq(load_le(buf + 86 - 12, 4) & 0x7ff, 64);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 2);
    ck_assert_uint_eq(E.n->cnt.rx_bcast, 1);
    ck_assert_uint_eq(rd(0x330, 4), 1518 + 64); /* StatRxBytes */
}
END_TEST

START_TEST(rx_jumbo_chaining_and_maxframe)
{
    static uint8_t f[9000];
    open_nic(8, 8, 2048, 0);
    make_frame(f, 9000, MYMAC, 5);
    ck_assert(!fake_wire_deliver(&E.wire, f, 9000)); /* MaxFrameSize 1518 */
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_TOO_LONG], 1);
    ck_assert_uint_eq(rd(0x368, 4), 1); /* StatRxLength */
    wr(MaxFrameSize, 2, 9018);
    ck_assert(fake_wire_deliver(&E.wire, f, 9000));
    run_for(&E.clock, US(50));
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(desc_status(RXRING, i) & (OWN | EOP | 0xffff), 2048);
    uint32_t last = desc_status(RXRING, 4);
    ck_assert_uint_eq(last & (OWN | EOP), EOP);
    ck_assert_uint_eq(last & 0xffff, 808 + 4 + 4 + 16);
    for (unsigned i = 0; i < 5; i++) {
        uint32_t k = i < 4 ? 2048 : 808;
        ck_assert_mem_eq(fake_ptr(&E.host, RXBUF(i), k), f + 2048 * i, k);
    }
    uint8_t *b4 = fake_ptr(&E.host, RXBUF(4), 832);
    ck_assert_uint_eq(load_le(b4 + 832 - 12, 4), 9004);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
}
END_TEST

START_TEST(rx_no_buffer_and_refill)
{
    uint8_t f[400];
    open_nic(8, 2, 1536, 0);
    make_frame(f, 400, MYMAC, 1);
    for (unsigned k = 0; k < 3; k++)
        ck_assert(fake_wire_deliver(&E.wire, f, 400));
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 2);
    ck_assert_uint_eq(rd(RxStatus, 2), HAM_CH_SUSPENDED); /* the driver's "Rx stopped" */
    /* The FIFO holds the third frame; flooding it drops with "no-buffer". */
    unsigned refused = 0;
    for (unsigned k = 0; k < 400; k++)
        refused += !fake_wire_deliver(&E.wire, f, 400);
    ck_assert_uint_gt(refused, 0);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_NO_BUFFER], refused);
    ck_assert_uint_eq(rd(0x36c, 4), refused); /* StatRxDropped */
    uint64_t queued = E.n->fifo.count;
    ck_assert_uint_eq(queued + 2 + refused, 403);
    /* Refill and restart as hamachi_rx does. */
    desc_write(RXRING, 0, RXBUF(0), OWN | EOP | INTR | 1536);
    desc_write(RXRING, 1, RXBUF(1), OWN | EOP | INTR | ENDR | 1536);
    if (rd(RxStatus, 2) & 2)
        wr(RxCmd, 2, 1);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 4);
    ck_assert_uint_eq(E.n->fifo.count, queued - 2);
}
END_TEST

START_TEST(mac_filter_modes)
{
    uint8_t f[64];
    static const uint8_t other[6] = {0x02, 0x99, 0x99, 0x99, 0x99, 0x99};
    static const uint8_t mc1[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
    static const uint8_t mc2[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x02};
    open_nic(8, 64, 1536, 0);
    wr(AddrMode, 2, 0);
    make_frame(f, 64, MYMAC, 0);
    ck_assert(!fake_wire_deliver(&E.wire, f, 64));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FILTERED], 1);
    wr(AddrMode, 2, 1);
    ck_assert(fake_wire_deliver(&E.wire, f, 64));
    make_frame(f, 64, BCAST, 0);
    ck_assert(fake_wire_deliver(&E.wire, f, 64));
    make_frame(f, 64, other, 0);
    ck_assert(!fake_wire_deliver(&E.wire, f, 64));
    make_frame(f, 64, mc1, 0);
    ck_assert(!fake_wire_deliver(&E.wire, f, 64));
    /* CAM entry 0 = mc1, as set_rx_mode writes it (LE words, valid bit). */
    wr(0x100, 4, load_le(mc1, 4));
    wr(0x104, 4, 0x20000 | load_le(mc1 + 4, 2));
    wr(AddrMode, 2, 3);
    ck_assert(fake_wire_deliver(&E.wire, f, 64));
    make_frame(f, 64, mc2, 0);
    ck_assert(!fake_wire_deliver(&E.wire, f, 64));
    wr(AddrMode, 2, 0x0b);
    ck_assert(fake_wire_deliver(&E.wire, f, 64));
    make_frame(f, 64, other, 0);
    ck_assert(!fake_wire_deliver(&E.wire, f, 64));
    wr(AddrMode, 2, 0x0f);
    ck_assert(fake_wire_deliver(&E.wire, f, 64));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FILTERED], 5);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 5);
    ck_assert_uint_eq(rd(0x320, 4), 2); /* StatRxMulticast */
}
END_TEST

/* ---- payload DMA modes ------------------------------------------------------------ */

static void one_round(bool per_word, uint8_t *rxcopy, uint64_t *word_ops, uint64_t *bulk_ops)
{
    uint8_t f[1514];
    nic_set_dma_per_word(E.n, per_word);
    open_nic(8, 4, 1536, 2);
    uint64_t w0 = E.host.word_ops, b0 = E.host.bulk_ops;
    make_frame(f, 1514, BCAST, 77);
    post_tx(0, 8, f, 1514, INTR);
    kick_tx();
    make_frame(f, 1514, MYMAC, 78);
    ck_assert(fake_wire_deliver(&E.wire, f, 1514));
    run_for(&E.clock, US(500));
    memcpy(rxcopy, fake_ptr(&E.host, RXBUF(0), 1536), 1536);
    *word_ops = E.host.word_ops - w0;
    *bulk_ops = E.host.bulk_ops - b0;
}

START_TEST(per_word_vs_raw_identical_bytes)
{
    static uint8_t rx_raw[1536], rx_word[1536];
    uint64_t w_raw, b_raw, w_word, b_word;
    one_round(false, rx_raw, &w_raw, &b_raw);
    memset(fake_ptr(&E.host, RXBUF(0), 1536), 0, 1536);
    one_round(true, rx_word, &w_word, &b_word);
    ck_assert_uint_eq(E.wire.nframes, 2);
    ck_assert_uint_eq(E.wire.lens[0], 1514);
    ck_assert_mem_eq(E.wire.frames[0], E.wire.frames[1], 1514);
    ck_assert_mem_eq(rx_raw, rx_word, 1536);
    ck_assert_uint_eq(b_raw, 2); /* one bulk copy each way */
    ck_assert_uint_eq(b_word, 0);
    ck_assert_uint_lt(w_raw, 20); /* descriptors and the trailer only */
    ck_assert_uint_ge(w_word, w_raw + 2 * (1514 / 4));
}
END_TEST

/* ---- bad input -------------------------------------------------------------------- */

static uint64_t dma_err_what = 99, dma_err_ring = 99, dma_err_index = 99;
static void on_dma_error(void *ctx, const event *ev)
{
    (void)ctx;
    dma_err_what = ev->vals[0];
    dma_err_ring = ev->vals[1];
    dma_err_index = ev->vals[2];
}

START_TEST(bad_descriptors_and_dma_aborts)
{
    uint8_t f[300];
    open_nic(8, 4, 1536, 0);
    rd(InterruptClear, 4);
    event_subscribe(event_find(&E.eb, "hamachi0.dma.error"), on_dma_error, NULL);
    /* Tx buffer outside RAM: abort, fault, the descriptor stays owned. */
    desc_write(TXRING, 0, 0x7000000, OWN | EOP | INTR | 300);
    kick_tx();
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_TX_PCI_FAULT);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_DMA], 1);
    ck_assert_uint_eq(desc_status(TXRING, 0) & OWN, OWN);
    ck_assert_uint_eq(dma_err_what, NIC_DMA_TX_BUF);
    ck_assert_uint_eq(dma_err_ring, NIC_RING_TX);
    ck_assert_uint_eq(dma_err_index, 0);
    /* Zero-length frame: completed, counted as too short, nothing sent. */
    desc_write(TXRING, 0, TXBUF(0), OWN | EOP | 0);
    kick_tx();
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(desc_status(TXRING, 0) & OWN, 0);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_TOO_SHORT], 1);
    ck_assert_uint_eq(E.wire.nframes, 0);
    /* Rx buffer outside RAM. */
    desc_write(RXRING, 0, 0x7000000, OWN | EOP | INTR | 1536);
    make_frame(f, 300, MYMAC, 2);
    ck_assert(fake_wire_deliver(&E.wire, f, 300));
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_RX_PCI_FAULT);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_DMA], 1);
    ck_assert_uint_eq(dma_err_what, NIC_DMA_RX_BUF);
    /* Descriptor ring itself unreadable. */
    wr(TxPtr, 4, 0x7000000);
    desc_write(TXRING, 1, TXBUF(1), OWN | EOP | 300);
    kick_tx();
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(dma_err_what, NIC_DMA_TX_DESC);
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_TX_PCI_FAULT);
    /* Bus mastering off: the same as an abort, reported as such. */
    wr(TxPtr, 4, (uint32_t)TXRING);
    pci_config_write(E.f, 4, 2, PCI_CMD_MEM);
    kick_tx();
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rd(InterruptClear, 4), HAM_INTR_TX_PCI_FAULT);
    ck_assert_uint_eq(E.n->cnt.dma_errors, 4);
}
END_TEST

START_TEST(endless_ring_is_bounded)
{
    /* Every descriptor owned, zero length, no EndPacket, no EndRing, all
     * the way to the end of RAM: the engine works in bounded steps.  (DMA
     * time off, to see the step budget alone.) */
    open_nic(8, 4, 1536, 0);
    E.n->pci_clock_ps = 0;
    for (uint64_t a = TXRING; a + 8 <= FAKE_LO + E.host.size; a += 8) {
        fake_w32(&E.host, a + 4, (uint32_t)TXBUF(0));
        fake_w32(&E.host, a, OWN);
    }
    kick_tx();
    run_for(&E.clock, US(100));
    ck_assert_uint_le(E.h->tx.fetches, 64 * 101);
    ck_assert_uint_gt(E.h->tx.fetches, 64 * 50);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_RUNNING);
    run_for(&E.clock, US(20000));
    /* It ran off the end of RAM: an abort, the partial frame dropped. */
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_SUSPENDED);
    ck_assert_uint_eq(rd(IntrStatus, 4) & HAM_INTR_TX_PCI_FAULT, HAM_INTR_TX_PCI_FAULT);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_DMA], 1);
    /* With DMA time each descriptor costs its bus time (3 words = 450 ns). */
    open_nic(8, 4, 1536, 0);
    E.n->pci_clock_ps = NIC_PCI_CLOCK_PS;
    for (uint64_t a = TXRING; a < TXRING + 1000 * 8; a += 8) {
        fake_w32(&E.host, a + 4, (uint32_t)TXBUF(0));
        fake_w32(&E.host, a, OWN);
    }
    uint64_t f0 = E.h->tx.fetches;
    kick_tx();
    run_for(&E.clock, US(90));
    ck_assert_uint_ge(E.h->tx.fetches - f0, 190);
    ck_assert_uint_le(E.h->tx.fetches - f0, 210);
}
END_TEST

START_TEST(chip_reset_mid_transfer)
{
    uint8_t f[500];
    open_nic(8, 1, 1536, 0);
    make_frame(f, 500, BCAST, 1);
    memcpy(fake_ptr(&E.host, TXBUF(0), 500), f, 500);
    desc_write(TXRING, 0, TXBUF(0), OWN | 250); /* first half, no EndPacket */
    kick_tx();
    run_for(&E.clock, US(10));
    ck_assert(nic_tx_in_frame(E.n));
    /* Rx: one buffer, three frames: one delivered, two waiting in the FIFO. */
    make_frame(f, 500, MYMAC, 2);
    for (int k = 0; k < 3; k++)
        ck_assert(fake_wire_deliver(&E.wire, f, 500));
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(E.n->fifo.count, 2);
    ck_assert(E.host.level);
    wr(ChipReset, 1, 1);
    ck_assert(!nic_tx_in_frame(E.n));
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_RESET], 1);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_RESET], 2);
    ck_assert_uint_eq(E.n->fifo.count, 0);
    ck_assert(!E.host.level);
    ck_assert_uint_eq(rd(TxStatus, 2), HAM_CH_STOPPED);
    ck_assert_uint_eq(rd(RxStatus, 2), HAM_CH_STOPPED);
    ck_assert_uint_eq(rd(TxPtr, 4), 0);
    ck_assert_uint_eq(rd(InterruptEnable, 4), 0);
    ck_assert_uint_eq(rd(MaxFrameSize, 2), 1518);
    /* Stopped receiver: frames are refused and counted. */
    ck_assert(!fake_wire_deliver(&E.wire, f, 500));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_RX_OFF], 1);
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.wire.nframes, 0);
}
END_TEST

/* ---- coalescing and the DescIntr story ---------------------------------------------- */

static uint64_t coal_reasons[5];
static void on_coal(void *ctx, const event *ev)
{
    (void)ctx;
    coal_reasons[ev->vals[1]]++;
}

START_TEST(tx_coalescing_registers)
{
    uint8_t f[100];
    memset(coal_reasons, 0, sizeof coal_reasons);
    open_nic(32, 4, 1536, 0);
    event_subscribe(event_find(&E.eb, "hamachi0.coal.fire"), on_coal, NULL);
    rd(InterruptClear, 4);
    make_frame(f, 100, BCAST, 0);
    /* min_pkt 4, no timers: the fourth DescIntr frame interrupts. */
    wr(TxIntrCtrl, 4, 4 << 16);
    unsigned slot = 0;
    for (int k = 0; k < 3; k++)
        post_tx(slot++, 32, f, 100, INTR);
    post_tx(slot++, 32, f, 100, 0); /* does not count */
    kick_tx();
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->irq.asserts[8], 0);
    post_tx(slot++, 32, f, 100, INTR);
    kick_tx();
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->irq.asserts[8], 1);
    ck_assert_uint_eq(coal_reasons[NIC_COAL_COUNT], 1);
    rd(InterruptClear, 4);
    /* Gap timer: 2 units (16.384 us) after the last completion. */
    wr(TxIntrCtrl, 4, 16 << 16 | 2 << 8);
    post_tx(slot++, 32, f, 100, INTR);
    kick_tx();
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(E.n->irq.asserts[8], 1);
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(E.n->irq.asserts[8], 2);
    ck_assert_uint_eq(coal_reasons[NIC_COAL_GAP], 1);
    rd(InterruptClear, 4);
    /* Latency timer: 3 units (24.576 us) after the first, although frames
     * keep completing every 10 us (which keeps re-arming the gap). */
    wr(TxIntrCtrl, 4, 16 << 16 | 2 << 8 | 3);
    for (int k = 0; k < 3; k++) {
        post_tx(slot++, 32, f, 100, INTR);
        kick_tx();
        run_for(&E.clock, US(10));
    }
    ck_assert_uint_eq(E.n->irq.asserts[8], 3);
    ck_assert_uint_eq(coal_reasons[NIC_COAL_LATENCY], 1);
}
END_TEST

START_TEST(descintr_less_driver_stalls)
{
    /* Seed story 2: a driver that never sets DescIntr and reclaims only in
     * its Tx interrupt.  The ring fills with finished descriptors, no Tx
     * interrupt ever comes, and the stall query shows it. */
    uint8_t f[200];
    unsigned raises = 0;
    open_nic(16, 4, 1536, 0);
    wr(TxIntrCtrl, 4, 0);
    rd(InterruptClear, 4);
    make_frame(f, 200, BCAST, 0);
    for (unsigned i = 0; i < 16; i++) {
        post_tx(i, 16, f, 200, 0);
        kick_tx();
        run_for(&E.clock, US(5));
        raises += (rd(IntrStatus, 4) & HAM_INTR_TX_DONE) != 0;
    }
    run_for(&E.clock, US(1000));
    ck_assert_uint_eq(raises, 0);
    ck_assert_uint_eq(E.n->irq.asserts[8], 0);
    ck_assert_uint_eq(E.wire.nframes, 16);
    ring_state s;
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert(!s.posted);
    ck_assert_uint_eq(s.unreclaimed, 16);
    ck_assert_int_eq(s.oldest_index, 0);
    ck_assert_uint_ge(s.unreclaimed_ticks, US(1000));
    strbuf b;
    sb_init(&b);
    view_memo memo = {0};
    view_ctx ctx = {.memo = &memo};
    nic_view_ring(E.n->dev, "tx", &ctx, &b);
    ck_assert(strstr(b.s, "done ") != NULL);
    ck_assert(strstr(b.s, "\n*") == NULL);
    sb_reset(&b);
    nic_view_stall(E.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "16 completed descriptors not reclaimed") != NULL);
    /* The host reclaims one slot (status_n_length = 0): one fewer. */
    fake_w32(&E.host, TXRING, 0);
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert_uint_eq(s.unreclaimed, 15);
    ck_assert_int_eq(s.oldest_index, 1);
    /* The view marks entries changed since the state the viewer kept. */
    sb_reset(&b);
    nic_view_ring(E.n->dev, "tx", &ctx, &b);
    ck_assert(strstr(b.s, "\n*") != NULL);
    view_memo_free(&memo);
    sb_free(&b);
}
END_TEST

static char irq_text[256];
static void on_irq(void *ctx, const event *ev)
{
    (void)ctx;
    strbuf b;
    sb_init(&b);
    event_format(ev, &b);
    snprintf(irq_text, sizeof irq_text, "%s", b.s);
    sb_free(&b);
}

START_TEST(events_carry_decoded_fields)
{
    uint8_t f[100];
    open_nic(8, 4, 1536, 0);
    event_subscribe(event_find(&E.eb, "hamachi0.irq.raise"), on_irq, NULL);
    make_frame(f, 100, BCAST, 0);
    post_tx(0, 8, f, 100, INTR);
    kick_tx();
    run_for(&E.clock, US(20));
    ck_assert_msg(strstr(irq_text, "TxDone") != NULL, "%s", irq_text);
    ck_assert(event_find(&E.eb, "hamachi0.tx.desc-fetch") != NULL);
    ck_assert(event_find(&E.eb, "hamachi0.rx.drop") != NULL);
    ck_assert(event_find(&E.eb, "hamachi0.doorbell") != NULL);
    strbuf b;
    sb_init(&b);
    nic_view_stats(E.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "tx frames 1 bytes 100") != NULL);
    sb_reset(&b);
    dev_show(E.n->dev, &b);
    ck_assert(strstr(b.s, "InterruptEnable") != NULL);
    sb_free(&b);
}
END_TEST

/* ---- with the real backends ------------------------------------------------------ */

/* Receive up to `count` frames from gen into a 16-entry ring for at most
 * `ms` of virtual time, refilling as a driver would; returns the number
 * received and (in *sum) the byte sum of what landed in memory. */
static unsigned receive_frames(unsigned count, unsigned ms, uint32_t *sum_out)
{
    open_nic(8, 16, 1536, 2);
    unsigned got = 0, entry = 0;
    uint32_t sum = 0;
    for (unsigned spin = 0; spin < ms * 100 && got < count; spin++) {
        run_for(&E.clock, US(10));
        uint32_t st;
        while (!((st = desc_status(RXRING, entry)) & OWN)) {
            uint32_t size = st & 0xffff;
            uint8_t *b = fake_ptr(&E.host, RXBUF(entry) + 2, size);
            uint32_t len = (uint32_t)(load_le(b + size - 12, 4) & 0x7ff) - 4;
            ck_assert_mem_eq(b, MYMAC, 6); /* gen addresses the station */
            for (uint32_t i = 0; i < len; i++)
                sum += b[i];
            got++;
            desc_write(RXRING, entry, RXBUF(entry) + 2,
                       OWN | EOP | INTR | 1536 | (entry == 15 ? ENDR : 0));
            entry = (entry + 1) % 16;
        }
        if (rd(RxStatus, 2) & 2)
            wr(RxCmd, 2, 1);
    }
    *sum_out = sum;
    return got;
}

static uint32_t receive_gen(unsigned count, uint64_t *word_ops)
{
    uint64_t w0 = E.host.word_ops;
    uint32_t sum;
    unsigned got = receive_frames(count, 20, &sum);
    ck_assert_msg(got == count, "got %u frames: port dropped %llu", got,
                  (unsigned long long)E.n->port->stats.rx_dropped);
    *word_ops = E.host.word_ops - w0;
    return sum;
}

START_TEST(gen_backend_raw_vs_per_word)
{
    /* Seed story 1 in miniature: the same frames from gen, received with
     * raw and with per-word payload DMA: same bytes, very different
     * numbers of word DMAs. */
    uint64_t w_raw, w_word;
    teardown();
    env_open("gen:size=1514,rate=50000,count=40,start=1ms");
    uint32_t raw = receive_gen(40, &w_raw);
    ck_assert_uint_eq(E.n->port->stats.rx_frames, 40);
    teardown();
    env_open("gen:size=1514,rate=50000,count=40,start=1ms");
    nic_set_dma_per_word(E.n, true);
    uint32_t word = receive_gen(40, &w_word);
    ck_assert_uint_eq(raw, word);
    ck_assert_uint_ge(w_word, w_raw + 40 * (1514 / 4));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_NO_BUFFER], 0);
}
END_TEST

START_TEST(per_word_dma_costs_virtual_time)
{
    /* Line-rate 1514-byte frames: the raw path keeps up; moving every word
     * separately takes longer than the frames' spacing, the FIFO fills and
     * frames are lost (the receive throughput of seed story 1). */
    uint32_t sum;
    teardown();
    env_open("gen:size=1514,rate=60000,count=120,start=1ms");
    ck_assert_uint_eq(receive_frames(120, 10, &sum), 120);
    uint64_t busy_raw = E.n->dma_busy_ticks;
    ck_assert_uint_eq(E.n->port->stats.rx_dropped, 0);
    teardown();
    env_open("gen:size=1514,rate=60000,count=120,start=1ms");
    nic_set_dma_per_word(E.n, true);
    unsigned got = receive_frames(120, 10, &sum);
    ck_assert_uint_lt(got, 120);
    ck_assert_uint_eq(got + E.n->port->stats.rx_dropped, 120);
    ck_assert_uint_gt(E.n->cnt.rx_drops[NIC_DROP_FIFO], 0);
    /* per frame, the bus time is several times the raw path's */
    ck_assert_uint_gt(E.n->dma_busy_ticks / got, 5 * (busy_raw / 120));
}
END_TEST

START_TEST(echo_backend_answers_arp)
{
    teardown();
    env_open("echo");
    open_nic(8, 4, 1536, 2);
    uint8_t arp[FAKE_ARP_LEN];
    fake_arp_request(arp, MYMAC);
    post_tx(0, 8, arp, sizeof arp, INTR);
    kick_tx();
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.n->cnt.tx_frames, 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    uint8_t *b = fake_ptr(&E.host, RXBUF(0) + 2, 64);
    ck_assert_mem_eq(b, MYMAC, 6);
    ck_assert_uint_eq(b[21], 2); /* ARP reply */
    static const uint8_t peer_ip[4] = {10, 0, 2, 2};
    ck_assert_mem_eq(b + 28, peer_ip, 4);
}
END_TEST

/* 802.3x toward a host sender.  A host peer (a UDP socket through
 * --net socket:udp) sends 120 frames at once; the driver gives the chip 4
 * buffers every 200 us, far slower than the wire brings frames.  With
 * Linux's FlowCtrl (0x0030FFFF, hamachi_open) the chip sends XOFF before its
 * Rx FIFO overflows and the port leaves the rest in the host's socket
 * until XON: every frame arrives, in order.  With FlowCtrl 0 the FIFO
 * overflows and the NIC drops (the control run). */
static int udp_bound(struct sockaddr_in *a)
{
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    *a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ck_assert_int_eq(bind(s, (struct sockaddr *)a, sizeof *a), 0);
    socklen_t l = sizeof *a;
    getsockname(s, (struct sockaddr *)a, &l);
    return s;
}

static void host_sender(uint32_t flowctrl, unsigned *got, unsigned *in_order)
{
    teardown();
    struct sockaddr_in nic_a, peer_a;
    int hold = udp_bound(&nic_a), peer = udp_bound(&peer_a);
    close(hold); /* the port binds it */
    char spec[64];
    snprintf(spec, sizeof spec, "socket:udp:%d:127.0.0.1:%d", ntohs(nic_a.sin_port),
             ntohs(peer_a.sin_port));
    env_open(spec);
    ck_assert_int_eq(connect(peer, (struct sockaddr *)&nic_a, sizeof nic_a), 0);
    open_nic(8, 4, 1536, 0);
    wr(FlowCtrl, 4, flowctrl);
    uint8_t f[1000];
    for (unsigned k = 0; k < 120; k++) {
        make_frame(f, sizeof f, MYMAC, k);
        ck_assert_int_eq(send(peer, f, sizeof f, 0), (ssize_t)sizeof f);
    }
    usleep(20000);
    *got = *in_order = 0;
    for (unsigned round = 0; round < 400 && *got < 120; round++) {
        run_for(&E.clock, US(200));
        for (unsigned i = 0; i < 4; i++) { /* what the ring holds, then the refill */
            uint32_t st = desc_status(RXRING, i);
            if (!(st & OWN) && (st & 0xffff)) {
                make_frame(f, sizeof f, MYMAC, *got);
                *in_order += !memcmp(fake_ptr(&E.host, RXBUF(i), sizeof f), f, sizeof f);
                ++*got;
            }
            desc_write(RXRING, i, RXBUF(i), OWN | EOP | INTR | 1536 | (i == 3 ? ENDR : 0));
        }
        if (rd(RxStatus, 2) & 2)
            wr(RxCmd, 2, 1);
        usleep(200);
    }
    close(peer);
}

START_TEST(flow_control_pauses_a_host_sender)
{
    unsigned got, in_order;
    host_sender(0x0030FFFF, &got, &in_order);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FIFO] + E.n->cnt.rx_drops[NIC_DROP_NO_BUFFER], 0);
    ck_assert_uint_ge(E.n->cnt.fc_xoffs, 1);
    ck_assert_uint_ge(E.n->cnt.fc_xons, 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 120);
    ck_assert_uint_eq(E.n->port->stats.rx_frames, 120);
    ck_assert_uint_eq(E.n->port->stats.rx_dropped, 0);
    ck_assert_uint_eq(got, 120);
    ck_assert_uint_eq(in_order, 120);
    /* Without flow control the same sender overflows the FIFO. */
    host_sender(0, &got, &in_order);
    ck_assert_uint_eq(E.n->cnt.fc_xoffs, 0);
    ck_assert_uint_gt(E.n->cnt.rx_drops[NIC_DROP_FIFO] + E.n->cnt.rx_drops[NIC_DROP_NO_BUFFER], 0);
    ck_assert_uint_lt(E.n->cnt.rx_frames, 120);
}
END_TEST

int main(void)
{
    return check_main(
        "hamachi", "hamachi", setup, teardown, 0, pci_identity_and_bar, odd_widths_tolerated,
        eeprom_mac_and_autoneg, tx_descintr_on_off, tx_status_idle_and_rekick,
        endring_wrap_vs_walk_on, desc_64bit_mode, rx_trailer_and_length,
        rx_jumbo_chaining_and_maxframe, rx_no_buffer_and_refill, mac_filter_modes,
        per_word_vs_raw_identical_bytes, bad_descriptors_and_dma_aborts, endless_ring_is_bounded,
        chip_reset_mid_transfer, tx_coalescing_registers, descintr_less_driver_stalls,
        events_carry_decoded_fields, gen_backend_raw_vs_per_word, per_word_dma_costs_virtual_time,
        echo_backend_answers_arp, flow_control_pauses_a_host_sender);
}
