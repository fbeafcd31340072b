/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the IOC3 Ethernet model, driven the way Linux's ioc3-eth
 * drives it, through the fake PCI host (RAM, DMA counters, interrupt log)
 * and a fake wire.
 *
 * The fake host is a byte stream; the IOC3 sits behind a Bridge slot whose
 * DMA is word values (PCI byte i = memory byte i^3).  The helpers below play
 * that Bridge: guest memory byte a is fake RAM byte a^3, so a big-endian
 * word the CPU stores is the little-endian word fake_w32 writes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "dev/nic/ioc3/ioc3_eth.h"
#include "../nic_fake.h"
#include "../../../check_run.h"

#define RXRING (FAKE_HI + 0x1000)
#define TXRING (FAKE_HI + 0x4000)
#define RXBUF(i) (FAKE_HI + 0x20000 + (uint64_t)(i)*0x800)
#define TXBUF (FAKE_HI + 0x80000)
#define US(x) ((uint64_t)(x)*180)
#define RXOFF 5 /* Linux: the frame at +10 */

static const uint8_t MYMAC[6] = {0x08, 0x00, 0x69, 0x11, 0x22, 0x33};
static const uint8_t PEER[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

static struct {
    NIC_RIG;
    ioc3_eth *e;
    unsigned rx_pi, tx_pi;
} E;

static void setup(void)
{
    xerr err;
    memset(&E, 0, sizeof E);
    nic_opts o = {.net = "none", .mac = MYMAC};
    ck_assert_msg(nic_rig_open(&E.rig, "ioc3-eth", "ioc3_eth0", &o, 4u << 20, true, &err), "%s",
                  err.msg);
    E.e = (ioc3_eth *)E.n;
    run_for(&E.clock, US(1100)); /* autonegotiation: 1 ms */
}

static void teardown(void) { nic_rig_close(&E.rig); }

static void wr(unsigned off, uint32_t v)
{
    uint64_t x = v;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, 4, &x, true), BUS_OK);
}

static uint32_t rd(unsigned off)
{
    uint64_t v = 0;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, 4, &v, false), BUS_OK);
    return (uint32_t)v;
}

/* Guest memory through the word-value lanes. */
static void mem_w32(uint64_t a, uint32_t v) { fake_w32(&E.host, a, v); }
static uint32_t mem_r32(uint64_t a) { return fake_r32(&E.host, a); }
static void mem_w64(uint64_t a, uint64_t v)
{
    mem_w32(a, (uint32_t)(v >> 32));
    mem_w32(a + 4, (uint32_t)v);
}
static void mem_put(uint64_t a, const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        *fake_ptr(&E.host, (a + i) ^ 3, 1) = p[i];
}
static void mem_get(uint64_t a, uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = *fake_ptr(&E.host, (a + i) ^ 3, 1);
}

enum {
    EMCR = 0xf0,
    EISR = 0xf4,
    EIER = 0xf8,
    ERCSR = 0xfc,
    ERBR_H = 0x100,
    ERBR_L = 0x104,
    ERCIR = 0x10c,
    ERPIR = 0x110,
    ERTR = 0x114,
    ETCDC = 0x120,
    ETBR_H = 0x128,
    ETBR_L = 0x12c,
    ETCIR = 0x130,
    ETPIR = 0x134,
    EMAR_H = 0x138,
    EMAR_L = 0x13c,
    EHAR_H = 0x140,
    EHAR_L = 0x144,
    MICR = 0x148,
    MIDR_R = 0x14c,
    MIDR_W = 0x150,
    SSRAM = 0x40000
};
#define EIER_LINUX 0x0260003du

/* Linux's ioc3_init + ioc3_alloc_rx_bufs (nrx buffers) + ioc3_start. */
static void open_nic(unsigned nrx)
{
    wr(EMCR, EMCR_RST);
    wr(EMCR, 0);
    wr(ERCSR, 15);
    wr(ERTR, 0);
    wr(EMAR_H, (uint32_t)MYMAC[5] << 8 | MYMAC[4]);
    wr(EMAR_L,
       (uint32_t)MYMAC[3] << 24 | (uint32_t)MYMAC[2] << 16 | (uint32_t)MYMAC[1] << 8 | MYMAC[0]);
    wr(EHAR_H, 0);
    wr(EHAR_L, 0);
    for (unsigned i = 0; i < nrx; i++) {
        mem_w32(RXBUF(i), 0);
        mem_w64(RXRING + 8 * i, RXBUF(i));
    }
    E.rx_pi = nrx;
    E.tx_pi = 0;
    wr(ERBR_H, (uint32_t)(RXRING >> 32));
    wr(ERBR_L, (uint32_t)RXRING);
    wr(ERCIR, 0);
    wr(ERPIR, E.rx_pi << 3 | ERPIR_ARM);
    wr(ETBR_H, (uint32_t)(TXRING >> 32));
    wr(ETBR_L, (uint32_t)TXRING);
    wr(ETPIR, 0);
    wr(ETCIR, 0);
    wr(EMCR, EMCR_DUPLEX | EMCR_RAMPAR | EMCR_BUFSIZ | RXOFF << EMCR_RXOFF_SHIFT | EMCR_TXDMAEN |
                 EMCR_TXEN | EMCR_RXDMAEN | EMCR_RXEN | EMCR_PADEN);
    wr(EIER, EIER_LINUX);
}

static void make_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k)
{
    memcpy(f, dst, 6);
    memcpy(f + 6, PEER, 6);
    f[12] = 0x08;
    f[13] = 0x00;
    for (uint32_t i = 14; i < len; i++)
        f[i] = net_payload_byte(k, i);
}

static uint16_t mdio(unsigned phy, unsigned reg)
{
    while (rd(MICR) & MICR_BUSY)
        run_for(&E.clock, 100);
    wr(MICR, phy << 5 | reg | MICR_READTRIG);
    ck_assert(rd(MICR) & MICR_BUSY);
    while (rd(MICR) & MICR_BUSY)
        run_for(&E.clock, 100);
    return (uint16_t)rd(MIDR_R);
}

/* ---- identity, PHY, SSRAM, reset ---------------------------------------------- */

START_TEST(identity)
{
    ck_assert(nic_of_device(E.n->dev) == E.n);
    ck_assert_str_eq(E.n->dev->name, "ioc3_eth0");
    ck_assert(nic_model_find("ioc3-eth") == NULL); /* not a card for --nic */
    ck_assert(strstr(nic_model_list(), "ioc3") == NULL);
    ck_assert(nic_find_ring(E.n, "tx") && nic_find_ring(E.n, "rx"));
}
END_TEST

START_TEST(mii_phy)
{
    /* Linux's scan: the first address whose PHYSID1 is not 0 or 0xffff. */
    for (unsigned a = 0; a < 31; a++)
        ck_assert_uint_eq(mdio(a, 2), 0xffff);
    ck_assert_uint_eq(mdio(31, 2), 0x2000);
    ck_assert_uint_eq(mdio(31, 3), 0x5c01);
    ck_assert_uint_eq(mdio(31, 0), 0x3100);
    /* BMSR: 10/100 abilities, link up and negotiation complete (cabled). */
    (void)mdio(31, 1);
    ck_assert_uint_eq(mdio(31, 1), 0x786d);
    ck_assert_uint_eq(mdio(31, 5) & 0x01e0, 0x01e0); /* the partner's abilities */
    ck_assert_uint_eq(mdio(31, 9), 0);               /* no 1000BASE-T */
    /* A write: MIDR_W then MICR without READTRIG (ANAR: 10 Mb/s only). */
    wr(MIDR_W, 0x0061);
    wr(MICR, 31u << 5 | 4);
    ck_assert(rd(MICR) & MICR_BUSY);
    uint64_t t0 = E.clock.now;
    while (rd(MICR) & MICR_BUSY)
        run_for(&E.clock, 100);
    ck_assert_uint_ge(E.clock.now - t0, US(25));
    ck_assert_uint_eq(mdio(31, 4), 0x0061);
    ck_assert_uint_eq(E.n->bit_ps, 100000); /* 10 Mb/s */
}
END_TEST

START_TEST(ssram_probe)
{
    /* ioc3_ssram_disc: 128 KB with BUFSIZ; 16 data bits, parity reads 0. */
    wr(EMCR, EMCR_BUFSIZ | EMCR_RAMPAR);
    wr(SSRAM, 0x5555);
    wr(SSRAM + 0x10000, 0xffffaaaa);
    ck_assert_uint_eq(rd(SSRAM), 0x5555);
    ck_assert_uint_eq(rd(SSRAM + 0x10000), 0xaaaa);
    /* Without BUFSIZ the upper half aliases the lower. */
    wr(EMCR, 0);
    ck_assert_uint_eq(rd(SSRAM + 0x20000), 0x5555);
}
END_TEST

START_TEST(reset_clears)
{
    open_nic(8);
    wr(EISR, ~0u);
    ck_assert_uint_ne(rd(ERPIR), 0);
    wr(EMCR, EMCR_RST);
    ck_assert_uint_eq(rd(EMCR), EMCR_RST);
    wr(EMCR, 0);
    ck_assert_uint_eq(rd(ERPIR), 0);
    ck_assert_uint_eq(rd(ERCIR), 0);
    ck_assert_uint_eq(rd(EIER), 0);
    ck_assert_uint_eq(rd(ETCIR), ETCIR_IDLE);
    ck_assert_uint_eq(rd(ETCDC), 0);
    ck_assert(!E.n->irq.line);
}
END_TEST

/* ---- transmit ------------------------------------------------------------------- */

/* Post descriptor tx_pi (with d0's bytes inline) and write ETPIR. */
static void post_tx(uint32_t cmd, uint32_t bufcnt, uint64_t p1, uint64_t p2, const uint8_t *d0,
                    uint32_t n0)
{
    uint64_t d = TXRING + 128ull * E.tx_pi;
    mem_w32(d, cmd);
    mem_w32(d + 4, bufcnt);
    mem_w64(d + 8, p1);
    mem_w64(d + 16, p2);
    if (d0)
        mem_put(d + 24, d0, n0);
    E.tx_pi = (E.tx_pi + 1) % 128;
    wr(ETPIR, E.tx_pi << 7);
}

START_TEST(tx_inline_and_buffers)
{
    open_nic(8);
    uint8_t f[1514];
    make_frame(f, 50, PEER, 1); /* a runt: padded to 60 (PADEN) */
    post_tx(50 | ETXD_INTWHENDONE | ETXD_D0V, 50, 0, 0, f, 50);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 1);
    ck_assert_uint_eq(E.wire.lens[0], 60);
    ck_assert_mem_eq(E.wire.frames[0], f, 50);
    ck_assert_uint_eq(rd(ETCIR), 1u << 7 | ETCIR_IDLE);
    ck_assert_uint_eq(rd(EISR), EISR_TXEXPLICIT | EISR_TXEMPTY);
    ck_assert(E.n->irq.line); /* TXEXPLICIT is enabled, TXEMPTY not */
    wr(EISR, rd(EISR));
    ck_assert(!E.n->irq.line);
    /* One buffer at an odd address. */
    make_frame(f, 1000, PEER, 2);
    mem_put(TXBUF + 3, f, 1000);
    post_tx(1000 | ETXD_INTWHENDONE | ETXD_B1V, 1000 << 8, TXBUF + 3, 0, NULL, 0);
    /* Two buffers (the first ends at a 16 KB boundary), no interrupt asked. */
    make_frame(f, 1514, PEER, 3);
    mem_put(TXBUF + 0x4000 - 700, f, 700);
    mem_put(TXBUF + 0x8000, f + 700, 814);
    post_tx(1514 | ETXD_B1V | ETXD_B2V, 700u << 8 | 814u << 20, TXBUF + 0x4000 - 700,
            TXBUF + 0x8000, NULL, 0);
    run_for(&E.clock, US(300));
    ck_assert_uint_eq(E.wire.nframes, 3);
    ck_assert_uint_eq(E.wire.lens[1], 1000);
    make_frame(f, 1000, PEER, 2);
    ck_assert_mem_eq(E.wire.frames[1], f, 1000);
    make_frame(f, 1514, PEER, 3);
    ck_assert_uint_eq(E.wire.lens[2], 1514);
    ck_assert_mem_eq(E.wire.frames[2], f, 1514);
    ck_assert_uint_eq(rd(ETCIR) >> 7 & 127, 3);
    ck_assert_uint_eq(rd(EISR) & EISR_TXEXPLICIT, EISR_TXEXPLICIT);
    /* 100 Mb/s: 1514 + 4 + 8 + 12 bytes take 123 us on the wire. */
    ck_assert_uint_eq(E.n->bit_ps, 10000);
}
END_TEST

START_TEST(tx_checksum)
{
    open_nic(8);
    /* A UDP datagram with Linux's pseudo-header trick in the check field. */
    uint8_t f[200];
    make_frame(f, 200, PEER, 9);
    uint8_t *ip = f + 14;
    memset(ip, 0, 28);
    ip[0] = 0x45;
    ip[2] = 0;
    ip[3] = 186;
    ip[8] = 64;
    ip[9] = 17;
    memcpy(ip + 12, "\x0a\x00\x02\x0f\x0a\x00\x02\x02", 8);
    uint16_t ipc = (uint16_t)~fake_csum(ip, 20, 0);
    ip[10] = (uint8_t)(ipc >> 8);
    ip[11] = (uint8_t)ipc;
    uint8_t *udp = ip + 20;
    udp[1] = 7;
    udp[3] = 9;
    udp[5] = 166;
    uint32_t pseudo = fake_csum(ip + 12, 8, 17 + 166);
    uint16_t eh = fake_csum(f, 14, 0);
    uint16_t part = fake_csum(NULL, 0, pseudo + (0xffffu ^ eh));
    udp[6] = (uint8_t)(part >> 8);
    udp[7] = (uint8_t)part;
    mem_put(TXBUF, f, 200);
    uint32_t chkoff = 14 + 20 + 6;
    post_tx(200 | ETXD_B1V | ETXD_DOCHECKSUM | chkoff << ETXD_CHKOFF_SHIFT, 200 << 8, TXBUF, 0,
            NULL, 0);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 1);
    const uint8_t *out = E.wire.frames[0];
    /* The UDP checksum the receiver verifies: pseudo header + datagram. */
    ck_assert_uint_eq(fake_csum(out + 34, 166, pseudo), 0xffff);
}
END_TEST

START_TEST(tx_dma_error)
{
    open_nic(8);
    post_tx(100 | ETXD_INTWHENDONE | ETXD_B1V, 100 << 8, 0x10, 0, NULL, 0); /* not RAM */
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 0);
    ck_assert_uint_eq(rd(EISR) & EISR_TXMEMERR, EISR_TXMEMERR);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_DMA], 1);
}
END_TEST

/* ---- receive -------------------------------------------------------------------- */

static uint32_t crc32_le(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

START_TEST(rx_buffer_layout)
{
    open_nic(8);
    uint8_t f[1514], got[1600];
    make_frame(f, 333, MYMAC, 5);
    ck_assert(fake_wire_deliver(&E.wire, f, 333));
    run_for(&E.clock, US(50));
    uint32_t w0 = mem_r32(RXBUF(0)), err = mem_r32(RXBUF(0) + 4);
    ck_assert_uint_eq(w0 >> 16, 0x8000 | (333 + 4)); /* V, count with the FCS */
    ck_assert_uint_eq(err, ERXBUF_GOODPKT);
    mem_get(RXBUF(0) + 2 * RXOFF, got, 337);
    ck_assert_mem_eq(got, f, 333);
    uint32_t fcs = crc32_le(f, 333);
    ck_assert_uint_eq(got[333] | got[334] << 8 | got[335] << 16 | (uint32_t)got[336] << 24, fcs);
    /* The checksum: the plain sum of the frame and its FCS as BE words. */
    ck_assert_uint_eq(w0 & 0xffff, fake_csum(got, 337, 0));
    ck_assert_uint_eq(rd(ERCIR), 8);
    ck_assert_uint_eq(rd(EISR), EISR_RXTIMERINT);
    ck_assert_uint_eq(rd(ERPIR) & ERPIR_ARM, 0); /* disarmed */
    ck_assert_uint_eq(mem_r32(RXBUF(1)), 0);
    /* Broadcast: flagged; a runt is padded to 60 + FCS. */
    make_frame(f, 42, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", 6);
    ck_assert(fake_wire_deliver(&E.wire, f, 42));
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(mem_r32(RXBUF(1)) >> 16, 0x8000 | 64);
    ck_assert_uint_eq(mem_r32(RXBUF(1) + 4), ERXBUF_GOODPKT | ERXBUF_BCAST);
}
END_TEST

START_TEST(rx_arm_and_filter)
{
    open_nic(8);
    uint8_t f[200];
    make_frame(f, 100, MYMAC, 1);
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rd(EISR), EISR_RXTIMERINT);
    wr(EISR, EISR_RXTIMERINT);
    /* Not armed: the next frame raises nothing... */
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rd(EISR), 0);
    ck_assert_uint_eq(rd(ERCIR), 16);
    /* ...until ERPIR is written with ARM: then at once. */
    wr(ERPIR, E.rx_pi << 3 | ERPIR_ARM);
    ck_assert_uint_eq(rd(EISR), EISR_RXTIMERINT);
    wr(EISR, EISR_RXTIMERINT);
    wr(ERPIR, E.rx_pi << 3 | ERPIR_ARM);
    ck_assert_uint_eq(rd(EISR), 0);
    /* Another station's frame is filtered; PROMISC takes it. */
    uint8_t other[6] = {0x02, 0, 0, 0, 0, 9};
    make_frame(f, 100, other, 2);
    ck_assert(!fake_wire_deliver(&E.wire, f, 100));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FILTERED], 1);
    wr(EMCR, rd(EMCR) | EMCR_PROMISC);
    ck_assert(fake_wire_deliver(&E.wire, f, 100));
    /* Multicast by the 64-bit hash (ioc3_hash's bit for this address). */
    uint8_t mc[6] = {0x01, 0x00, 0x5e, 0x01, 0x02, 0x03};
    wr(EMCR, rd(EMCR) & ~EMCR_PROMISC);
    make_frame(f, 100, mc, 3);
    ck_assert(!fake_wire_deliver(&E.wire, f, 100));
    uint32_t crc = ~crc32_le(mc, 6) & 0x3f, bit = 0;
    for (int i = 0; i < 6; i++)
        bit = bit << 1 | ((crc >> i) & 1);
    wr(bit >= 32 ? EHAR_H : EHAR_L, 1u << (bit % 32));
    ck_assert(fake_wire_deliver(&E.wire, f, 100));
    /* Too long for the MAC. */
    uint8_t big[1600];
    make_frame(big, 1515, MYMAC, 4);
    ck_assert(!fake_wire_deliver(&E.wire, big, 1515));
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_TOO_LONG], 1);
}
END_TEST

START_TEST(rx_waits_for_buffers)
{
    open_nic(2);
    uint8_t f[200];
    for (uint32_t k = 0; k < 5; k++) {
        make_frame(f, 100, MYMAC, k);
        ck_assert(fake_wire_deliver(&E.wire, f, 100));
    }
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rd(ERCIR), 16); /* two buffers filled */
    ck_assert_uint_eq(E.n->fifo.count, 3);
    ring_state st;
    ck_assert_int_eq(nic_ring_state(E.n->dev, "rx", &st), 0);
    ck_assert_uint_eq(st.unreclaimed, 2); /* w0 valid, not yet cleared by the host */
    /* The host takes both, reposts them at 2 and 3. */
    for (unsigned i = 0; i < 2; i++) {
        mem_w32(RXBUF(i), 0);
        mem_w64(RXRING + 8 * (2 + i), RXBUF(i));
    }
    E.rx_pi = 4;
    wr(ERPIR, E.rx_pi << 3 | ERPIR_ARM);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rd(ERCIR), 32);
    ck_assert_uint_eq(E.n->fifo.count, 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 4);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_NO_BUFFER] + E.n->cnt.rx_drops[NIC_DROP_FIFO], 0);
}
END_TEST

START_TEST(rx_timer)
{
    open_nic(8);
    wr(ERTR, 100); /* 100 us [UNC unit] */
    uint8_t f[100];
    make_frame(f, 100, MYMAC, 1);
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rd(EISR), 0);
    run_for(&E.clock, US(60));
    ck_assert_uint_eq(rd(EISR), EISR_RXTIMERINT);
}
END_TEST


int main(void)
{
    return check_main("ioc3-eth", "model", setup, teardown, 0, identity, mii_phy, ssram_probe,
                      reset_clears, tx_inline_and_buffers, tx_checksum, tx_dma_error,
                      rx_buffer_layout, rx_arm_and_filter, rx_waits_for_buffers, rx_timer);
}
