/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test environment for the e1000 models.  See e1000_env.h. */
#include "e1000_env.h"

#include <stdio.h>

e1000_env E;
const uint8_t MYMAC[6] = {0x02, 0x58, 0x42, 0x11, 0x22, 0x33};
const uint8_t PEER[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
const uint8_t BCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

void env_open(const char *model, const char *spec)
{
    xerr err;
    memset(&E, 0, sizeof E);
    nic_opts o = {.net = spec ? spec : "none", .mac = MYMAC};
    ck_assert_msg(nic_rig_open(&E.rig, model, "e1000_0", &o, 4u << 20, !spec, &err), "%s", err.msg);
    E.h = (e1000 *)E.n;
}

void env_close(void) { nic_rig_close(&E.rig); }

void wr(unsigned off, uint32_t v)
{
    uint64_t x = v;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, 4, &x, true), BUS_OK);
}

uint32_t rd(unsigned off)
{
    uint64_t x = 0;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 0, off, 4, &x, false), BUS_OK);
    return (uint32_t)x;
}

uint64_t win(uint64_t lo_addr) { return E.hi ? lo_addr - FAKE_LO + FAKE_HI : lo_addr; }

void io_wr(unsigned off, uint32_t v)
{
    uint64_t a = off, x = v;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 4, 0, 4, &a, true), BUS_OK);
    ck_assert_int_eq(pci_bar_access(E.f, 0, 4, 4, 4, &x, true), BUS_OK);
}

uint32_t io_rd(unsigned off)
{
    uint64_t a = off, x = 0;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 4, 0, 4, &a, true), BUS_OK);
    ck_assert_int_eq(pci_bar_access(E.f, 0, 4, 4, 4, &x, false), BUS_OK);
    return (uint32_t)x;
}

/* ---- EEPROM: e1000_acquire_eeprom / shift_out / shift_in / standby ---------------- */

static void ee_clock(uint32_t eecd)
{
    wr(EECD, eecd | E1000_EECD_SK);
    wr(EECD, eecd & ~E1000_EECD_SK);
}

static void ee_out(uint32_t *eecd, unsigned data, unsigned count)
{
    *eecd &= ~E1000_EECD_DO;
    for (unsigned mask = 1u << (count - 1); mask; mask >>= 1) {
        *eecd &= ~E1000_EECD_DI;
        if (data & mask)
            *eecd |= E1000_EECD_DI;
        wr(EECD, *eecd);
        ee_clock(*eecd);
    }
    *eecd &= ~E1000_EECD_DI;
    wr(EECD, *eecd);
}

uint16_t ee_read(unsigned word)
{
    uint32_t eecd = rd(EECD) & ~(E1000_EECD_DI | E1000_EECD_SK | E1000_EECD_DO | 0x100);
    wr(EECD, eecd);
    eecd |= E1000_EECD_CS;
    wr(EECD, eecd);
    ee_out(&eecd, 6, 3); /* READ opcode 110 */
    ee_out(&eecd, word, 6);
    uint16_t data = 0;
    eecd &= ~(E1000_EECD_DO | E1000_EECD_DI);
    for (unsigned i = 0; i < 16; i++) {
        data = (uint16_t)(data << 1);
        wr(EECD, eecd | E1000_EECD_SK);
        uint32_t v = rd(EECD);
        if (v & E1000_EECD_DO)
            data |= 1;
        wr(EECD, eecd & ~E1000_EECD_SK);
    }
    wr(EECD, eecd & ~(E1000_EECD_CS | E1000_EECD_SK)); /* release */
    return data;
}

/* ---- MDIC ---------------------------------------------------------------------------- */

static uint32_t mdic_wait(void)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 64; i++) {
        run_for(&E.clock, US(5));
        v = rd(MDIC);
        if (v & E1000_MDIC_READY)
            break;
    }
    ck_assert(v & E1000_MDIC_READY);
    return v;
}

uint32_t mdic_rd(unsigned phy, unsigned reg)
{
    wr(MDIC, reg << 16 | phy << 21 | E1000_MDIC_OP_READ);
    return mdic_wait();
}

uint32_t mdic_wr(unsigned phy, unsigned reg, uint16_t v)
{
    wr(MDIC, v | reg << 16 | phy << 21 | E1000_MDIC_OP_WRITE);
    return mdic_wait();
}

/* ---- bit-banged MDIO: e1000_shift_out_mdi_bits / e1000_shift_in_mdi_bits ------------ */

#define MDIO E1000_CTRL_SWDPIN2
#define MDC E1000_CTRL_SWDPIN3
#define MDIO_DIR E1000_CTRL_SWDPIO2
#define MDC_DIR E1000_CTRL_SWDPIO3

static void mdi_out(uint32_t data, unsigned count)
{
    uint32_t ctrl = rd(CTRL) | MDIO_DIR | MDC_DIR;
    for (uint32_t mask = 1u << (count - 1); mask; mask >>= 1) {
        if (data & mask)
            ctrl |= MDIO;
        else
            ctrl &= ~MDIO;
        wr(CTRL, ctrl);
        wr(CTRL, ctrl | MDC);
        wr(CTRL, ctrl & ~MDC);
    }
}

static uint16_t mdi_in(void)
{
    uint32_t ctrl = rd(CTRL) & ~(MDIO_DIR | MDIO);
    wr(CTRL, ctrl);
    wr(CTRL, ctrl | MDC); /* turnaround */
    wr(CTRL, ctrl & ~MDC);
    uint16_t data = 0;
    for (unsigned i = 0; i < 16; i++) {
        data = (uint16_t)(data << 1);
        wr(CTRL, ctrl | MDC);
        ctrl = rd(CTRL);
        if (ctrl & MDIO)
            data |= 1;
        wr(CTRL, ctrl & ~MDC);
    }
    wr(CTRL, ctrl | MDC);
    wr(CTRL, ctrl & ~MDC);
    return data;
}

uint16_t bb_rd(unsigned phy, unsigned reg)
{
    mdi_out(0xffffffffu, 32);
    mdi_out(reg | phy << 5 | 2u << 10 | 1u << 12, 14);
    return mdi_in();
}

void bb_wr(unsigned phy, unsigned reg, uint16_t v)
{
    mdi_out(0xffffffffu, 32);
    uint32_t w = 2u | reg << 2 | phy << 7 | 1u << 12 | 1u << 14;
    mdi_out(w << 16 | v, 32);
}

uint16_t phy_rd(unsigned reg)
{
    if (e1000_is_82544(E.h))
        return (uint16_t)mdic_rd(1, reg);
    return bb_rd(1, reg);
}

void phy_wr(unsigned reg, uint16_t v)
{
    if (e1000_is_82544(E.h))
        mdic_wr(1, reg, v);
    else
        bb_wr(1, reg, v);
}

/* ---- link, rings --------------------------------------------------------------------- */

void link_up(void)
{
    uint32_t ctrl = rd(CTRL);
    if (e1000_is_82544(E.h)) {
        wr(CTRL, (ctrl | E1000_CTRL_SLU) & ~(E1000_CTRL_FRCSPD | E1000_CTRL_FRCDPX));
    } else {
        wr(CTRL, ctrl | E1000_CTRL_FRCSPD | E1000_CTRL_FRCDPX | E1000_CTRL_SLU);
        uint32_t ext = rd(CTRL_EXT) | E1000_CTRL_EXT_SDP4_DIR;
        wr(CTRL_EXT, ext & ~E1000_CTRL_EXT_SDP4_DATA); /* PHY hardware reset */
        run_for(&E.clock, US(10));
        wr(CTRL_EXT, ext | E1000_CTRL_EXT_SDP4_DATA);
    }
    phy_wr(0, (uint16_t)(phy_rd(0) | 0x1200)); /* autonegotiation on + restart */
    run_for(&E.clock, US(3000));
    uint16_t bmsr = phy_rd(1);
    bmsr = phy_rd(1);
    ck_assert(bmsr & 0x0004);
    if (!e1000_is_82544(E.h)) { /* e1000_config_mac_to_phy */
        uint16_t pssr = phy_rd(17);
        ctrl = rd(CTRL) & ~(3u << 8);
        ctrl |= (pssr & 0x2000) ? E1000_CTRL_FD : 0;
        ctrl |= (uint32_t)((pssr >> 14) & 3) << 8;
        wr(CTRL, ctrl);
    }
    ck_assert(rd(STATUS) & E1000_STATUS_LU);
}

void tx_desc(unsigned i, uint64_t buf, uint32_t w2, uint32_t w3)
{
    uint64_t a = TXRING + (uint64_t)i * 16;
    fake_w64(&E.host, a, buf);
    fake_w32(&E.host, a + 8, w2);
    fake_w32(&E.host, a + 12, w3);
}

void tx_legacy(unsigned i, unsigned ntx, const uint8_t *f, uint32_t len, uint32_t cmd)
{
    (void)ntx;
    memcpy(fake_ptr(&E.host, TXBUF(i), len), f, len);
    tx_desc(i, win(TXBUF(i)), len | cmd, 0);
}

uint32_t tx_status(unsigned i) { return fake_r32(&E.host, TXRING + (uint64_t)i * 16 + 12); }

void rx_desc(unsigned i, uint64_t buf)
{
    uint64_t a = RXRING + (uint64_t)i * 16;
    fake_w64(&E.host, a, buf);
    fake_w32(&E.host, a + 8, 0);
    fake_w32(&E.host, a + 12, 0);
}

uint32_t rx_w2(unsigned i) { return fake_r32(&E.host, RXRING + (uint64_t)i * 16 + 8); }
uint32_t rx_w3(unsigned i) { return fake_r32(&E.host, RXRING + (uint64_t)i * 16 + 12); }
uint8_t *rx_buf(unsigned i) { return fake_ptr(&E.host, RXBUF(i), RXBUF_SIZE); }

void open_rings(unsigned ntx, unsigned nrx, uint32_t rctl_extra)
{
    uint64_t t = win(TXRING), r = win(RXRING);
    wr(TDLEN, ntx * 16);
    wr(TDBAH, (uint32_t)(t >> 32));
    wr(TDBAL, (uint32_t)t);
    wr(TDT, 0);
    wr(TDH, 0);
    wr(TIPG, 8 | 8 << 10 | 6 << 20);
    wr(TIDV, 0);
    wr(TCTL, E1000_TCTL_EN | E1000_TCTL_PSP | 15 << 4 | 63 << 12);
    for (unsigned i = 0; i < nrx; i++)
        rx_desc(i, win(RXBUF(i)));
    wr(RCTL, 0);
    wr(RDTR, 0);
    wr(RDLEN, nrx * 16);
    wr(RDBAH, (uint32_t)(r >> 32));
    wr(RDBAL, (uint32_t)r);
    wr(RDT, 0);
    wr(RDH, 0);
    wr(RCTL, E1000_RCTL_EN | E1000_RCTL_BAM | rctl_extra);
    wr(RDT, nrx - 1);
    wr(IMS, E1000_ICR_RXT0 | E1000_ICR_TXDW | E1000_ICR_RXDMT0 | E1000_ICR_RXSEQ | E1000_ICR_LSC);
    rd(ICR);
}

void env_up(const char *model, const char *spec, unsigned ntx, unsigned nrx)
{
    env_open(model, spec);
    link_up();
    open_rings(ntx, nrx, 0);
}

/* ---- frames ---------------------------------------------------------------------------- */

void make_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k)
{
    fake_frame(f, len, dst, 0x0806, k); /* not IP: no checksum offload applies */
}

static uint32_t pseudo(const uint8_t *ip, uint32_t l4len)
{
    return fake_csum(ip + 12, 8, 0) + ip[9] + l4len;
}

uint32_t make_ip(uint8_t *f, bool tcp, uint32_t plen, uint16_t ip_id, uint32_t seq)
{
    uint32_t l4h = tcp ? 20 : 8, len = 14 + 20 + l4h + plen;
    memcpy(f, PEER, 6);
    memcpy(f + 6, MYMAC, 6);
    f[12] = 0x08;
    f[13] = 0x00;
    uint8_t *ip = f + 14, *l4 = ip + 20;
    memset(ip, 0, 20 + l4h);
    ip[0] = 0x45;
    store_be(ip + 2, 2, 20 + l4h + plen);
    store_be(ip + 4, 2, ip_id);
    ip[6] = 0x40; /* DF */
    ip[8] = 64;
    ip[9] = tcp ? 6 : 17;
    memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
    store_be(ip + 10, 2, (uint16_t)~fake_csum(ip, 20, 0));
    store_be(l4, 2, 1000);
    store_be(l4 + 2, 2, 2000);
    for (uint32_t i = 0; i < plen; i++)
        l4[l4h + i] = net_payload_byte(seq, i);
    if (tcp) {
        store_be(l4 + 4, 4, seq);
        store_be(l4 + 8, 4, 77);
        l4[12] = 5 << 4;
        l4[13] = 0x19; /* FIN PSH ACK */
        store_be(l4 + 14, 2, 65535);
        store_be(l4 + 16, 2, (uint16_t)~fake_csum(l4, l4h + plen, pseudo(ip, l4h + plen)));
    } else {
        store_be(l4 + 4, 2, l4h + plen);
        uint16_t c = (uint16_t)~fake_csum(l4, l4h + plen, pseudo(ip, l4h + plen));
        store_be(l4 + 6, 2, c ? c : 0xffff);
    }
    return len;
}

bool ip_csum_ok(const uint8_t *f) { return fake_csum(f + 14, 20, 0) == 0xffff; }

bool l4_csum_ok(const uint8_t *f, uint32_t len)
{
    const uint8_t *ip = f + 14;
    uint32_t l4len = (uint32_t)load_be(ip + 2, 2) - 20;
    if (14 + 20 + l4len > len)
        return false;
    return fake_csum(ip + 20, l4len, pseudo(ip, l4len)) == 0xffff;
}
