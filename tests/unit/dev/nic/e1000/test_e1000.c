/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the Intel 82543GC / 82544EI models: identity, registers,
 * EEPROM, PHY access (MDIC and bit-banged MDIO), link, legacy transmit and
 * receive, bus time of per-word against raw DMA, address filtering,
 * overruns, bad input, events and views.
 * Offloads, timers and jumbo frames are in test_e1000_offload.c. */
#include <stdio.h>
#include <stdlib.h>

#include "e1000_env.h"
#include "../nic_checks.h"
#include "../../../check_run.h"

/* ---- identity and registers ------------------------------------------------------- */

/* The tests both parts pass: Check runs each once per part (_i), as loop tests. */
static const char *const both_parts[] = {"e1000-82543", "e1000-82544"};

START_TEST(pci_identity_and_bars)
{
    static const struct {
        const char *model;
        uint16_t dev;
        bool io;
    } m[] = {
        {"e1000-82543", 0x1004, false}, {"e1000-82544", 0x1008, true}, {"e1000", 0x1008, true}};
    for (unsigned i = 0; i < 3; i++) {
        env_open(m[i].model, NULL);
        ck_assert_uint_eq(pci_config_read(E.f, 0, 4), (uint32_t)m[i].dev << 16 | 0x8086);
        ck_assert_uint_eq(pci_config_read(E.f, 9, 2) | pci_config_read(E.f, 11, 1) << 16,
                          0x020000u);
        ck_assert_uint_eq(E.f->bars[0].size, 0x20000);
        ck_assert(E.f->bars[0].flags & PCI_BAR_64);
        ck_assert_uint_eq(E.f->bars[4].size, m[i].io ? 8 : 0);
        ck_assert_uint_eq(E.f->int_pin, 1);
        ck_assert(nic_of_device(E.n->dev) == E.n);
        ck_assert_str_eq(nic_model_find(m[i].model)->ops->prefix, "e1000_");
        ck_assert(event_find(&E.eb, "e1000_0.tdt.write") != NULL);
        ck_assert(event_find(&E.eb, "e1000_0.rdt.write") != NULL);
        /* STATUS: 64-bit bus; PCI-X mode only on the 82544 (for Linux's 64-bit DMA). */
        uint32_t st = rd(STATUS);
        ck_assert(st & E1000_STATUS_BUS64);
        ck_assert_uint_eq((st & E1000_STATUS_PCIX_MODE) != 0, m[i].io);
        env_close();
    }
    ck_assert(strstr(nic_model_list(), "e1000-82543") && strstr(nic_model_list(), "e1000-82544"));
}
END_TEST

static int bad_accesses;
static void count_event(void *ctx, const event *ev)
{
    (void)ev;
    ++*(int *)ctx;
}

/* The initiator a register event names: whoever made the PCI cycle. */
static int last_who = -1;
static void note_who(void *ctx, const event *ev)
{
    (void)ctx;
    last_who = ev->initiator;
}

START_TEST(register_events_name_the_initiator)
{
    env_open("e1000-82544", NULL);
    event_subscribe(event_find(&E.eb, "e1000_0.reg.write"), note_who, NULL);
    uint64_t v = 1;
    ck_assert_int_eq(pci_bar_access(E.f, 7, 0, TIDV, 4, &v, true), BUS_OK);
    ck_assert_int_eq(last_who, 7);
    /* The 82544's I/O window: IOADDR, then IODATA reaches the register. */
    uint64_t a = TIDV;
    ck_assert_int_eq(pci_bar_access(E.f, 9, 4, 0, 4, &a, true), BUS_OK);
    ck_assert_int_eq(pci_bar_access(E.f, 9, 4, 4, 4, &v, true), BUS_OK);
    ck_assert_int_eq(last_who, 9);
    env_close();
}
END_TEST

START_TEST(register_rules)
{
    env_open("e1000-82544", NULL);
    bad_accesses = 0;
    event_subscribe(event_find(&E.eb, "e1000_0.reg.bad-access"), count_event, &bad_accesses);
    /* 32-bit-only registers: a 16-bit write is dropped and reported. */
    uint64_t v = 0x1234;
    pci_bar_access(E.f, 0, 0, TIDV, 2, &v, true);
    ck_assert_uint_eq(rd(TIDV), 0);
    ck_assert_int_eq(bad_accesses, 1);
    pci_bar_access(E.f, 0, 0, TIDV + 2, 2, &v, false);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(bad_accesses, 2);
    /* The 82540+ moderation registers do not exist on the 82544. */
    wr(ITR, 5000);
    wr(RADV, 8);
    wr(TADV, 8);
    ck_assert_uint_eq(rd(ITR) | rd(RADV) | rd(TADV), 0);
    ck_assert_int_eq(bad_accesses, 8);
    /* ICR: read returns and clears; ICS sets; IMS/IMC; INTA = ICR & IMS. */
    wr(ICS, E1000_ICR_TXDW | E1000_ICR_RXO);
    ck_assert(!E.host.level);
    ck_assert_uint_eq(rd(ICS), E1000_ICR_TXDW | E1000_ICR_RXO); /* readable mirror */
    wr(IMS, E1000_ICR_RXO);
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(IMS), E1000_ICR_RXO);
    wr(IMC, E1000_ICR_RXO);
    ck_assert(!E.host.level);
    wr(IMS, E1000_ICR_TXDW);
    ck_assert(E.host.level);
    wr(ICR, E1000_ICR_TXDW); /* write 1 to clear */
    ck_assert(!E.host.level);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_RXO);
    ck_assert_uint_eq(rd(ICR), 0);
    /* CTRL.RST: self-clearing; registers back to reset values; through the
     * I/O window as Linux does it on the 82544. */
    wr(RDTR, 55);
    wr(TCTL, E1000_TCTL_EN);
    io_wr(CTRL, rd(CTRL) | E1000_CTRL_RST);
    ck_assert_uint_eq(rd(CTRL) & E1000_CTRL_RST, 0);
    ck_assert_uint_eq(rd(RDTR) | rd(TCTL), 0);
    ck_assert_uint_eq(io_rd(RAL0), rd(RAL0));
    ck_assert_uint_eq(rd(RAH0), 0x80000000u | MYMAC[5] << 8 | MYMAC[4]);
    ck_assert_uint_eq(rd(RAL0), (uint32_t)load_le(MYMAC, 4));
    /* Statistics: read-to-clear; a 64-bit pair clears on the high half. */
    e1000_stat_add(E.h, ER_MPC, 3);
    e1000_stat_add(E.h, ER_GORCL, 0x100000005ull);
    ck_assert_uint_eq(rd(MPC), 3);
    ck_assert_uint_eq(rd(MPC), 0);
    ck_assert_uint_eq(rd(GORCL), 5);
    ck_assert_uint_eq(rd(GORCL), 5);
    ck_assert_uint_eq(rd(GORCH), 1);
    ck_assert_uint_eq(rd(GORCL) | rd(GORCH), 0);
    e1000_stat_add(E.h, ER_MPC, 0xffffffffull); /* counters stick at the maximum */
    e1000_stat_add(E.h, ER_MPC, 5);
    ck_assert_uint_eq(rd(MPC), 0xffffffffu);
    env_close();
    /* The 82543 has neither MDIC nor the I/O window. */
    env_open("e1000-82543", NULL);
    bad_accesses = 0;
    event_subscribe(event_find(&E.eb, "e1000_0.reg.bad-access"), count_event, &bad_accesses);
    wr(MDIC, 0x08000000 | 1 << 21);
    ck_assert_uint_eq(rd(MDIC), 0);
    ck_assert_int_eq(bad_accesses, 2);
    uint64_t x = 0;
    ck_assert_int_eq(pci_bar_access(E.f, 0, 4, 0, 4, &x, false), BUS_ERROR);
    ck_assert_uint_eq(rd(STATUS) & E1000_STATUS_PCIX_MODE, 0);
    env_close();
}
END_TEST

/* The writable bits Linux's ethtool register test expects (e1000_reg_test). */
static void pattern(unsigned reg, uint32_t mask, uint32_t write)
{
    static const uint32_t test[] = {0x5a5a5a5a, 0xa5a5a5a5, 0, 0xffffffff};
    for (unsigned i = 0; i < 4; i++) {
        wr(reg, write & test[i]);
        ck_assert_msg(rd(reg) == (write & test[i] & mask), "reg 0x%x: 0x%x", reg, rd(reg));
    }
}

START_TEST(ethtool_register_test)
{
    env_open(both_parts[_i], NULL);
    uint32_t before = rd(STATUS);
    wr(STATUS, 0xfffff833);
    ck_assert_uint_eq(rd(STATUS), before);
    pattern(0x0028, 0xffffffff, 0xffffffff); /* FCAL */
    pattern(0x002c, 0x0000ffff, 0xffffffff); /* FCAH */
    pattern(0x0030, 0x0000ffff, 0xffffffff); /* FCT */
    pattern(VET, 0x0000ffff, 0xffffffff);
    pattern(RDTR, 0x0000ffff, 0xffffffff);
    pattern(RDBAH, 0xffffffff, 0xffffffff);
    pattern(RDLEN, 0x000fff80, 0x000fffff);
    pattern(RDH, 0x0000ffff, 0x0000ffff);
    pattern(RDT, 0x0000ffff, 0x0000ffff);
    pattern(0x2168, 0x0000fff8, 0x0000fff8); /* FCRTH */
    pattern(0x0170, 0x0000ffff, 0x0000ffff); /* FCTTV */
    pattern(TIPG, 0x3fffffff, 0x3fffffff);
    pattern(TDBAH, 0xffffffff, 0xffffffff);
    pattern(TDLEN, 0x000fff80, 0x000fffff);
    wr(RCTL, 0);
    ck_assert_uint_eq(rd(RCTL), 0);
    wr(RCTL, 0x06dfb3fe);
    ck_assert_uint_eq(rd(RCTL) & 0x06dfb3fe, 0x06dfb3fe);
    wr(TCTL, 0);
    ck_assert_uint_eq(rd(TCTL), 0);
    pattern(RDBAL, 0xfffffff0, 0xffffffff);
    pattern(0x0178, 0xc000ffff, 0x0000ffff); /* TXCW */
    pattern(TDBAL, 0xfffffff0, 0xffffffff);
    pattern(TIDV, 0x0000ffff, 0x0000ffff);
    for (unsigned i = 0; i < 16; i++)
        pattern(RAH0 + 8 * i, 0x8003ffff, 0xffffffff);
    for (unsigned i = 0; i < 128; i++)
        pattern(MTA + 4 * i, 0xffffffff, 0xffffffff);
    env_close();
}
END_TEST

/* ---- EEPROM ------------------------------------------------------------------------ */

START_TEST(eeprom_bitbang_and_checksum)
{
    env_open(both_parts[_i], NULL);
    uint16_t w[64], sum = 0;
    for (unsigned i = 0; i < 64; i++) {
        w[i] = ee_read(i);
        sum = (uint16_t)(sum + w[i]);
    }
    ck_assert_uint_eq(sum, 0xbaba);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(w[i] & 0xff, MYMAC[2 * i]);
        ck_assert_uint_eq(w[i] >> 8, MYMAC[2 * i + 1]);
    }
    ck_assert_uint_eq(w[0x0e], 0x8086);
    /* EERD is not there on these parts (Linux bit-bangs EECD). */
    wr(EERD, 1);
    ck_assert_uint_eq(rd(EERD), 0);
    /* CTRL_EXT.EE_RST reloads RAR0 from the EEPROM and self-clears. */
    wr(RAL0, 0);
    wr(RAH0, 0);
    wr(CTRL_EXT, rd(CTRL_EXT) | E1000_CTRL_EXT_EE_RST);
    ck_assert_uint_eq(rd(CTRL_EXT) & E1000_CTRL_EXT_EE_RST, 0);
    ck_assert_uint_eq(rd(RAL0), (uint32_t)load_le(MYMAC, 4));
    ck_assert(rd(RAH0) & E1000_RAH_AV);
    env_close();
}
END_TEST

/* ---- PHY ----------------------------------------------------------------------------- */

static int mdio_events;

START_TEST(mdic_phy_access_82544)
{
    env_open("e1000-82544", NULL);
    mdio_events = 0;
    event_subscribe(event_find(&E.eb, "e1000_0.mdio"), count_event, &mdio_events);
    /* Not ready at once: the MDIO frame takes its time. */
    wr(MDIC, 2u << 16 | 1u << 21 | E1000_MDIC_OP_READ);
    ck_assert_uint_eq(rd(MDIC) & E1000_MDIC_READY, 0);
    run_for(&E.clock, US(30));
    uint32_t v = rd(MDIC);
    ck_assert(v & E1000_MDIC_READY);
    ck_assert_uint_eq(v & 0xffff, 0x0141);
    ck_assert_uint_eq(mdic_rd(1, 3) & 0xffff, 0x0c30); /* M88E1000 (I), rev 0 */
    /* No PHY at address 2: ERROR. */
    ck_assert(mdic_rd(2, 2) & E1000_MDIC_ERROR);
    /* Writes land; read-only registers ignore them. */
    ck_assert_uint_eq(mdic_wr(1, 4, 0x0de1) & E1000_MDIC_ERROR, 0);
    ck_assert_uint_eq(mdic_rd(1, 4) & 0xffff, 0x0de1);
    mdic_wr(1, 2, 0x1234);
    ck_assert_uint_eq(mdic_rd(1, 2) & 0xffff, 0x0141);
    /* INT_EN: MDAC when the access completes. */
    wr(IMS, E1000_ICR_MDAC);
    wr(MDIC, 1u << 16 | 1u << 21 | E1000_MDIC_OP_READ | E1000_MDIC_INT_EN);
    ck_assert(!E.host.level);
    run_for(&E.clock, US(30));
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_MDAC);
    /* BMCR software reset self-clears and keeps the configuration. */
    mdic_wr(1, 0, 0x8000 | 0x0100 | 0x2000); /* reset, forced 100 full */
    ck_assert_uint_eq(mdic_rd(1, 0) & 0xffff, 0x2100);
    ck_assert_uint_eq(mdic_rd(1, 4) & 0xffff, 0x0de1);
    ck_assert_int_eq(mdio_events, 11);
    env_close();
}
END_TEST

START_TEST(bitbang_mdio_82543)
{
    env_open("e1000-82543", NULL);
    ck_assert_uint_eq(bb_rd(1, 2), 0x0141);
    ck_assert_uint_eq(bb_rd(1, 3), 0x0c50); /* M88E1000 (E): what Linux wants on an 82543 */
    bb_wr(1, 4, 0x0581);
    ck_assert_uint_eq(bb_rd(1, 4), 0x0581);
    ck_assert_uint_eq(bb_rd(3, 2), 0xffff); /* nobody at address 3: the line stays high */
    bb_wr(3, 4, 0);                         /* and a write there goes nowhere */
    ck_assert_uint_eq(bb_rd(1, 4), 0x0581);
    ck_assert_uint_eq(E.h->mdio.frames, 7); /* every frame, answered or not */
    /* The PHY held in reset by SDP4 does not answer; leaving reset restores defaults. */
    wr(CTRL_EXT, E1000_CTRL_EXT_SDP4_DIR);
    ck_assert_uint_eq(bb_rd(1, 2), 0xffff);
    wr(CTRL_EXT, E1000_CTRL_EXT_SDP4_DIR | E1000_CTRL_EXT_SDP4_DATA);
    ck_assert_uint_eq(bb_rd(1, 4), 0x01e1);
    env_close();
}
END_TEST

START_TEST(link_autoneg_lsc)
{
    env_open(both_parts[_i], NULL);
    /* The cable was attached at creation: negotiation completes 2 ms later. */
    ck_assert_uint_eq(rd(STATUS) & E1000_STATUS_LU, 0);
    wr(IMS, E1000_ICR_LSC);
    run_for(&E.clock, US(1900));
    ck_assert_uint_eq(rd(STATUS) & E1000_STATUS_LU, 0);
    ck_assert(!E.host.level);
    run_for(&E.clock, US(200));
    ck_assert(rd(STATUS) & E1000_STATUS_LU);
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_LSC);
    /* BMSR link status is latched low: read twice, as Linux does. */
    phy_rd(1);
    ck_assert(phy_rd(1) & 0x0024);
    /* Restarting negotiation drops the link (LSC) and brings it back (LSC). */
    phy_wr(0, 0x1340);
    ck_assert_uint_eq(rd(STATUS) & E1000_STATUS_LU, 0);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_LSC);
    run_for(&E.clock, US(2100));
    ck_assert(rd(STATUS) & E1000_STATUS_LU);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_LSC);
    ck_assert_uint_eq(phy_rd(17) & 0xec00, 0xac00); /* 1000 full, resolved, link */
    /* Without CTRL.SLU the MAC does not see the link. */
    wr(CTRL, rd(CTRL) & ~E1000_CTRL_SLU);
    ck_assert_uint_eq(rd(STATUS) & E1000_STATUS_LU, 0);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_LSC);
    env_close();
}
END_TEST

START_TEST(forced_speed_82543)
{
    uint8_t f[100];
    env_open("e1000-82543", NULL);
    link_up();
    ck_assert_uint_eq((rd(STATUS) >> 6) & 3, 2); /* 1000 Mb/s, as configured from PSSR */
    open_rings(8, 8, 0);
    /* e1000_phy_force_speed_duplex: 100 full on both sides. */
    wr(CTRL,
       (rd(CTRL) & ~(3u << 8)) | E1000_CTRL_FRCSPD | E1000_CTRL_FRCDPX | E1000_CTRL_FD | 1u << 8);
    phy_wr(0, 0x8000 | 0x2000 | 0x0100); /* reset, AN off, 100, full */
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(phy_rd(17) & 0xe000, 0x6000);
    ck_assert_uint_eq(rd(STATUS) & 0xc3, 0x40 | E1000_STATUS_LU | E1000_STATUS_FD);
    make_frame(f, 100, PEER, 1);
    tx_legacy(0, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    wr(TDT, 1);
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.wire.nframes, 1);
    /* 100 Mb/s pacing: two more frames take about 2 x 10 us on the wire. */
    tx_legacy(1, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS);
    tx_legacy(2, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS);
    wr(TDT, 3);
    run_for(&E.clock, US(5));
    ck_assert_uint_eq(E.wire.nframes, 2);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.wire.nframes, 3);
    /* The MAC left at 1000 while the PHY runs 100: nothing passes. */
    wr(CTRL, rd(CTRL) | 2u << 8);
    tx_legacy(3, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS);
    wr(TDT, 4);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 3);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_NO_LINK], 1);
    ck_assert(!fake_wire_deliver(&E.wire, f, 100));
    ck_assert_uint_eq(E.h->speed_mismatch, 2);
    strbuf b;
    sb_init(&b);
    e1000_view_phy(E.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "SPEED MISMATCH") != NULL);
    sb_free(&b);
    env_close();
}
END_TEST

/* ---- legacy transmit and receive --------------------------------------------------- */

START_TEST(legacy_tx_rs_dd_txdw)
{
    uint8_t f[1514];
    env_up("e1000-82544", NULL, 8, 8);
    make_frame(f, 1000, PEER, 1);
    tx_legacy(0, 8, f, 600, E1000_TXD_IFCS); /* fragment, no RS */
    memcpy(fake_ptr(&E.host, TXBUF(1), 400), f + 600, 400);
    tx_desc(1, TXBUF(1), 400 | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS, 0);
    make_frame(f + 1000, 42, PEER, 2); /* short: padded (PSP) */
    tx_legacy(2, 8, f + 1000, 42, E1000_TXD_EOP | E1000_TXD_IFCS);
    wr(TDT, 3);
    ck_assert_uint_eq(E.wire.nframes, 0); /* engines run on the clock, not in the write */
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 2);
    ck_assert_uint_eq(E.wire.lens[0], 1000);
    ck_assert_mem_eq(E.wire.frames[0], f, 1000);
    ck_assert_uint_eq(E.wire.lens[1], 60);
    ck_assert_uint_eq(tx_status(0) & 1, 0); /* DD only where RS asked for it */
    ck_assert_uint_eq(tx_status(1) & 1, 1);
    ck_assert_uint_eq(tx_status(2) & 1, 0);
    ck_assert_uint_eq(rd(TDH), 3);
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(ICR), E1000_ICR_TXDW | E1000_ICR_TXQE);
    ck_assert_uint_eq(rd(GPTC), 2);
    ck_assert_uint_eq(rd(TPT), 2);
    ck_assert_uint_eq(rd(GOTCL), 1004 + 64);
    ck_assert_uint_eq(rd(PTC64), 1);
    /* Without PSP a short frame stays short. */
    wr(TCTL, E1000_TCTL_EN);
    tx_legacy(3, 8, f + 1000, 42, E1000_TXD_EOP | E1000_TXD_IFCS);
    wr(TDT, 4);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.wire.lens[2], 42);
    /* IFCS clear: the software's FCS is taken off (the wire carries none). */
    uint32_t crc = nic_crc32(f, 200);
    memcpy(f + 200, &crc, 4);
    store_le(f + 200, 4, crc);
    tx_legacy(4, 8, f, 204, E1000_TXD_EOP);
    wr(TDT, 5);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.wire.lens[3], 200);
    ck_assert_uint_eq(E.h->tx_bad_fcs, 0);
    env_close();
}
END_TEST

START_TEST(legacy_rx_length_fcs)
{
    uint8_t f[1514];
    env_up("e1000-82543", NULL, 8, 8);
    make_frame(f, 1000, MYMAC, 7);
    ck_assert(fake_wire_deliver(&E.wire, f, 1000));
    ck_assert_uint_eq(rx_w3(0), 0); /* DMA happens on the clock */
    run_for(&E.clock, US(10));
    /* Length counts the FCS, which is stored after the data. */
    ck_assert_uint_eq(rx_w2(0) & 0xffff, 1004);
    ck_assert_uint_eq(rx_w3(0) & 0xff, E1000_RXD_DD | E1000_RXD_EOP | E1000_RXD_IXSM);
    ck_assert_mem_eq(rx_buf(0), f, 1000);
    ck_assert_uint_eq(load_le(rx_buf(0) + 1000, 4), nic_crc32(f, 1000));
    ck_assert_uint_eq(rd(RDH), 1);
    ck_assert(E.host.level);
    /* RXT0; not RXDMT0: 6 of 8 descriptors are still free (threshold 1/2). */
    ck_assert_uint_eq(rd(ICR) & (E1000_ICR_RXT0 | E1000_ICR_RXDMT0), E1000_ICR_RXT0);
    ck_assert_uint_eq(rd(GPRC), 1);
    ck_assert_uint_eq(rd(GORCL), 1004);
    ck_assert_uint_eq(rd(TPR), 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    /* The status word is written last: the write log ends with word 3. */
    ck_assert_uint_eq(E.host.wlog[E.host.nwlog - 1], RXRING + 12);
    /* Short frames arrive padded to 60 (+4). */
    make_frame(f, 30, BCAST, 8);
    fake_wire_deliver(&E.wire, f, 30);
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(rx_w2(1) & 0xffff, 64);
    ck_assert_uint_eq(rd(BPRC), 1);
    ck_assert_uint_eq(rd(PRC64), 1);
    /* 5 free descriptors: no RXDMT0; down to 4 (RDLEN/2): RXDMT0. */
    ck_assert_uint_eq(rd(ICR) & E1000_ICR_RXDMT0, 0);
    fake_wire_deliver(&E.wire, f, 30);
    run_for(&E.clock, US(10));
    ck_assert_uint_eq(rd(ICR) & E1000_ICR_RXDMT0, E1000_ICR_RXDMT0);
    env_close();
}
END_TEST

/* ---- bus time: per-word against raw payload DMA ------------------------------------ */

/* N full-size frames sent (tx) or received (rx) with one payload DMA mode;
 * returns the virtual time until the last one is on the wire / delivered. */
static uint64_t timed_run(bool per_word, bool tx, uint8_t out[NIC_TIMED_FRAMES][1514],
                          uint64_t *busy)
{
    uint8_t f[1514];
    env_open("e1000-82544", NULL);
    nic_set_dma_per_word(E.n, per_word);
    link_up();
    open_rings(16, 16, 0);
    uint64_t t0 = E.clock.now, b0 = E.n->dma_busy_ticks;
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        make_frame(f, 1514, MYMAC, 50 + i);
        if (tx)
            tx_legacy(i, 16, f, 1514, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
        else
            ck_assert(fake_wire_deliver(&E.wire, f, 1514));
    }
    if (tx)
        wr(TDT, NIC_TIMED_FRAMES);
    unsigned k = 0;
    while ((tx ? E.wire.nframes : E.n->cnt.rx_frames) < NIC_TIMED_FRAMES && k++ < 2000)
        run_for(&E.clock, US(1));
    ck_assert_uint_eq(tx ? E.wire.nframes : E.n->cnt.rx_frames, NIC_TIMED_FRAMES);
    uint64_t took = E.clock.now - t0;
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        if (tx) {
            ck_assert_uint_eq(E.wire.lens[i], 1514);
            ck_assert_uint_eq(tx_status(i) & 1, 1);
        } else {
            ck_assert_uint_eq(rx_w2(i) & 0xffff, 1518);
        }
        memcpy(out[i], tx ? E.wire.frames[i] : rx_buf(i), 1514);
    }
    ck_assert_uint_eq(rd(tx ? GPTC : GPRC), NIC_TIMED_FRAMES); /* each frame counted once */
    ck_assert_uint_eq(rd(tx ? TDH : RDH), NIC_TIMED_FRAMES);
    *busy = E.n->dma_busy_ticks - b0;
    env_close();
    return took;
}

START_TEST(per_word_dma_takes_virtual_time)
{
    /* The DMA engine cannot start a descriptor before the bus has finished
     * the last one: with per-word payload DMA (379 word transfers of 5 PCI
     * clocks for a 1514-byte frame, 57 us, against one 5.8 us burst) the
     * same frames take several times the virtual time. */
    check_per_word_dma_costs(timed_run, MYMAC, 0x0806, 50);
}
END_TEST

START_TEST(tx_and_rx_take_turns_on_the_bus)
{
    /* Both engines busy at once, per-word: they alternate descriptors on
     * the one bus, so neither starves and both finish together. */
    uint8_t f[1514];
    env_open("e1000-82544", NULL);
    nic_set_dma_per_word(E.n, true);
    link_up();
    open_rings(16, 16, 0);
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        make_frame(f, 1514, MYMAC, 70 + i);
        ck_assert(fake_wire_deliver(&E.wire, f, 1514));
        tx_legacy(i, 16, f, 1514, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    }
    wr(TDT, NIC_TIMED_FRAMES);
    uint64_t t0 = E.clock.now, tx_done = 0, rx_done = 0;
    for (unsigned k = 0; k < 3000 && !(tx_done && rx_done); k++) {
        run_for(&E.clock, US(1));
        if (!tx_done && E.wire.nframes == NIC_TIMED_FRAMES)
            tx_done = E.clock.now - t0;
        if (!rx_done && E.n->cnt.rx_frames == NIC_TIMED_FRAMES)
            rx_done = E.clock.now - t0;
        if (E.wire.nframes == NIC_TIMED_FRAMES / 2 || E.n->cnt.rx_frames == NIC_TIMED_FRAMES / 2) {
            ck_assert_uint_ge(E.wire.nframes, NIC_TIMED_FRAMES / 2 - 1);
            ck_assert_uint_ge(E.n->cnt.rx_frames, NIC_TIMED_FRAMES / 2 - 1);
        }
    }
    ck_assert(tx_done && rx_done);
    /* 16 descriptors of ~58 us each, one at a time: ~0.9 ms for both, the
     * first to finish a descriptor or two ahead of the other. */
    uint64_t first = tx_done < rx_done ? tx_done : rx_done;
    uint64_t d = tx_done > rx_done ? tx_done - rx_done : rx_done - tx_done;
    ck_assert_uint_le(d, US(130));
    ck_assert_uint_ge(first, US(13 * 55));
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        make_frame(f, 1514, MYMAC, 70 + i);
        ck_assert_mem_eq(E.wire.frames[i], f, 1514);
        ck_assert_mem_eq(rx_buf(i), f, 1514);
    }
    env_close();
}
END_TEST

/* ---- address filtering ---------------------------------------------------------------- */

static unsigned deliver_count(const uint8_t *dst)
{
    uint8_t f[100];
    make_frame(f, 100, dst, 3);
    uint64_t before = E.n->cnt.rx_frames;
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(10));
    return (unsigned)(E.n->cnt.rx_frames - before);
}

START_TEST(rar_mta_filtering)
{
    env_up("e1000-82544", NULL, 8, 64);
    static const uint8_t other[6] = {0x02, 0x11, 0x11, 0x11, 0x11, 0x11};
    static const uint8_t mc1[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
    static const uint8_t mc2[6] = {0x01, 0x00, 0x5e, 0x12, 0x34, 0x56};
    ck_assert_uint_eq(deliver_count(MYMAC), 1);
    ck_assert_uint_eq(deliver_count(other), 0);
    ck_assert_uint_eq(deliver_count(BCAST), 1);
    ck_assert_uint_eq(deliver_count(mc1), 0);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FILTERED], 2);
    /* A second unicast address and a multicast address in RAR1/RAR2. */
    wr(RAL0 + 8, (uint32_t)load_le(other, 4));
    wr(RAH0 + 8, (uint32_t)load_le(other + 4, 2) | E1000_RAH_AV);
    wr(RAL0 + 16, (uint32_t)load_le(mc1, 4));
    wr(RAH0 + 16, (uint32_t)load_le(mc1 + 4, 2));
    ck_assert_uint_eq(deliver_count(other), 1);
    ck_assert_uint_eq(deliver_count(mc1), 0); /* AV clear */
    wr(RAH0 + 16, (uint32_t)load_le(mc1 + 4, 2) | E1000_RAH_AV);
    ck_assert_uint_eq(deliver_count(mc1), 1);
    /* The MTA hash: bits 47:36 with MO = 0 (e1000_hash_mc_addr). */
    unsigned h0 = ((unsigned)mc2[4] >> 4 | (unsigned)mc2[5] << 4) & 0xfff;
    ck_assert_uint_eq(deliver_count(mc2), 0);
    wr(MTA + 4 * (h0 >> 5), 1u << (h0 & 31));
    ck_assert_uint_eq(deliver_count(mc2), 1);
    ck_assert_uint_eq(rx_w3((unsigned)(E.h->rx.index + 63) % 64) & 0x80, 0x80); /* PIF */
    /* MO = 3 selects bits 43:32: the same table bit no longer matches. */
    wr(RCTL, rd(RCTL) | 3u << 12);
    ck_assert_uint_eq(deliver_count(mc2), 0);
    unsigned h3 = ((unsigned)mc2[4] | (unsigned)mc2[5] << 8) & 0xfff;
    wr(MTA + 4 * (h3 >> 5), rd(MTA + 4 * (h3 >> 5)) | 1u << (h3 & 31));
    ck_assert_uint_eq(deliver_count(mc2), 1);
    /* UPE: all unicast; MPE: all multicast; BAM off: no broadcast. */
    static const uint8_t stranger[6] = {0x02, 0x99, 0x99, 0x99, 0x99, 0x99};
    static const uint8_t mc3[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
    wr(RCTL, (rd(RCTL) | E1000_RCTL_UPE) & ~E1000_RCTL_BAM);
    ck_assert_uint_eq(deliver_count(stranger), 1);
    ck_assert_uint_eq(deliver_count(mc3), 0);
    ck_assert_uint_eq(deliver_count(BCAST), 0);
    wr(RCTL, rd(RCTL) | E1000_RCTL_MPE);
    ck_assert_uint_eq(deliver_count(mc3), 1);
    /* 82544 erratum: a write to an odd MTA word also lands in the even one. */
    wr(MTA + 4 * 10, 0xaaaa);
    wr(MTA + 4 * 11, 0x5555);
    ck_assert_uint_eq(rd(MTA + 4 * 10), 0x5555);
    ck_assert_uint_eq(rd(MTA + 4 * 11), 0x5555);
    env_close();
}
END_TEST

START_TEST(vlan_insert_strip_filter)
{
    uint8_t f[200], t[204];
    env_up("e1000-82544", NULL, 8, 8);
    wr(VET, 0x8100);
    wr(CTRL, rd(CTRL) | E1000_CTRL_VME);
    /* Tx: VLE inserts VET and the descriptor's VLAN field after the addresses. */
    make_frame(f, 200, PEER, 4);
    memcpy(fake_ptr(&E.host, TXBUF(0), 200), f, 200);
    tx_desc(0, TXBUF(0), 200 | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_VLE, 0x0123u << 16);
    wr(TDT, 1);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.wire.lens[0], 204);
    ck_assert_uint_eq(load_be(E.wire.frames[0] + 12, 4), 0x81000123u);
    ck_assert_mem_eq(E.wire.frames[0] + 16, f + 12, 188);
    /* Rx: the tag is stripped into the descriptor (VP, special). */
    memcpy(t, E.wire.frames[0], 204);
    memcpy(t, MYMAC, 6);
    fake_wire_deliver(&E.wire, t, 204);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(rx_w2(0) & 0xffff, 204);
    ck_assert_uint_eq(rx_w3(0) & E1000_RXD_VP, E1000_RXD_VP);
    ck_assert_uint_eq(rx_w3(0) >> 16, 0x0123);
    ck_assert_mem_eq(rx_buf(0) + 12, f + 12, 188);
    ck_assert_uint_eq(load_le(rx_buf(0) + 200, 4), nic_crc32(t, 204)); /* the wire's FCS */
    /* VFE: only VLAN IDs set in VFTA pass. */
    wr(RCTL, rd(RCTL) | E1000_RCTL_VFE);
    fake_wire_deliver(&E.wire, t, 204);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    wr(VFTA + 4 * (0x123 >> 5), 1u << (0x123 & 31));
    fake_wire_deliver(&E.wire, t, 204);
    run_for(&E.clock, US(20));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 2);
    env_close();
}
END_TEST

/* ---- running out of buffers --------------------------------------------------------- */

START_TEST(rxo_rnbc_out_of_buffers)
{
    uint8_t f[1000];
    env_up("e1000-82544", NULL, 8, 8); /* 7 descriptors posted */
    wr(IMS, E1000_ICR_RXO);
    unsigned offered = 100;
    for (unsigned i = 0; i < offered; i++) {
        make_frame(f, 1000, MYMAC, i);
        fake_wire_deliver(&E.wire, f, 1000);
    }
    run_for(&E.clock, US(200));
    uint64_t delivered = E.n->cnt.rx_frames, queued = E.n->fifo.count;
    uint64_t fifo_drops = E.n->cnt.rx_drops[NIC_DROP_FIFO];
    ck_assert_uint_eq(delivered, 7);
    /* The burst arrives at once: PBA's 48 KiB of FIFO took 48 frames, 7 of
     * them went on to the 7 buffers. */
    ck_assert_uint_eq(queued, 48 * 1024 / 1004 - 7);
    ck_assert_uint_eq(delivered + queued + fifo_drops, offered);
    ck_assert_uint_eq(rd(MPC), fifo_drops);
    ck_assert_uint_eq(rd(RNBC), offered - 7); /* every frame without a buffer */
    ck_assert(rd(ICR) & E1000_ICR_RXO);
    /* Giving buffers back drains the FIFO, in order. */
    for (unsigned round = 0; round < 10 && E.n->fifo.count; round++) {
        for (unsigned i = 0; i < 8; i++)
            rx_desc(i, win(RXBUF(i)));
        wr(RDT, (rd(RDH) + 7) % 8);
        run_for(&E.clock, US(100));
    }
    ck_assert_uint_eq(E.n->fifo.count, 0);
    ck_assert_uint_eq(E.n->cnt.rx_frames, delivered + queued);
    make_frame(f, 1000, MYMAC, (unsigned)(delivered + queued - 1));
    unsigned last = (rd(RDH) + 7) % 8;
    ck_assert_mem_eq(rx_buf(last), f, 1000);
    env_close();
}
END_TEST

/* 802.3x: with CTRL.TFCE the Rx FIFO reaching FCRTH sends XOFF (a link
 * partner that honours it, a host backend, stops: nic_fc_ready), and
 * draining to FCRTL sends XON; both counted.  So a partner that waits loses
 * nothing where one that does not overflows the FIFO (rxo_rnbc_out_of_buffers). */
START_TEST(flow_control_xoff_xon)
{
    uint8_t f[1000];
    env_up("e1000-82544", NULL, 8, 8); /* 7 descriptors posted */
    wr(CTRL, rd(CTRL) | E1000_CTRL_TFCE);
    wr(0x2168, 20 * 1024);               /* FCRTH */
    wr(0x2160, 0x80000000u | 10 * 1024); /* FCRTL with XONE */
    ck_assert(nic_fc_ready(E.n));
    unsigned sent = 0;
    while (sent < 100 && nic_fc_ready(E.n)) {
        make_frame(f, 1000, MYMAC, sent++);
        fake_wire_deliver(&E.wire, f, 1000);
        run_for(&E.clock, US(20));
    }
    ck_assert(!nic_fc_ready(E.n));
    ck_assert(E.n->fc_xoff);
    ck_assert_uint_eq(E.n->cnt.fc_xoffs, 1);
    ck_assert_uint_ge(E.n->fifo.bytes, 20 * 1024);
    ck_assert_uint_lt(E.n->fifo.bytes, 20 * 1024 + 1004);
    ck_assert_uint_eq(E.n->cnt.rx_frames + E.n->fifo.count, sent);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FIFO], 0);
    ck_assert_uint_eq(rd(0x4054), 1); /* XOFFTXC */
    ck_assert_uint_eq(rd(0x404c), 0); /* XONTXC */
    /* Buffers given back drain the FIFO: XON at FCRTL. */
    for (unsigned round = 0; round < 10 && !nic_fc_ready(E.n); round++) {
        for (unsigned i = 0; i < 8; i++)
            rx_desc(i, win(RXBUF(i)));
        wr(RDT, (rd(RDH) + 7) % 8);
        run_for(&E.clock, US(100));
    }
    ck_assert(nic_fc_ready(E.n));
    ck_assert_uint_le(E.n->fifo.bytes, 10 * 1024);
    ck_assert_uint_eq(rd(0x404c), 1);
    /* Without TFCE the partner is never paused. */
    wr(CTRL, rd(CTRL) & ~E1000_CTRL_TFCE);
    for (unsigned i = 0; i < 40; i++) {
        make_frame(f, 1000, MYMAC, sent++);
        fake_wire_deliver(&E.wire, f, 1000);
    }
    run_for(&E.clock, US(20));
    ck_assert(nic_fc_ready(E.n));
    ck_assert_uint_eq(rd(0x4054), 0);
    env_close();
}
END_TEST

/* ---- bad input --------------------------------------------------------------------- */

static int dma_errors;

START_TEST(bad_descriptors_and_rings)
{
    uint8_t f[300];
    env_open("e1000-82544", NULL);
    dma_errors = 0;
    event_subscribe(event_find(&E.eb, "e1000_0.dma.error"), count_event, &dma_errors);
    link_up();
    open_rings(8, 8, 0);
    make_frame(f, 300, PEER, 9);
    /* Zero length and null address: no data, DD when RS. */
    tx_desc(0, 0, 0 | E1000_TXD_IFCS | E1000_TXD_RS, 0);
    tx_desc(1, TXBUF(1), 0 | E1000_TXD_RS, 0);
    /* A buffer outside RAM: DMA error, the frame is dropped and counted, the ring goes on. */
    tx_desc(2, 0x7f000000ull, 300 | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS, 0);
    tx_legacy(3, 8, f, 300, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    wr(TDT, 4);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(tx_status(0) & 1, 1);
    ck_assert_uint_eq(tx_status(1) & 1, 1);
    ck_assert_uint_eq(tx_status(2) & 1, 1);
    ck_assert_uint_eq(E.wire.nframes, 1);
    ck_assert_mem_eq(E.wire.frames[0], f, 300);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_DMA], 1);
    ck_assert_int_eq(dma_errors, 1);
    /* Rx into a buffer outside RAM: RXE on the descriptor, frame dropped and counted. */
    rx_desc(0, 0x7f000000ull);
    make_frame(f, 300, MYMAC, 1);
    fake_wire_deliver(&E.wire, f, 300);
    fake_wire_deliver(&E.wire, f, 300);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq((rx_w3(0) >> 8) & E1000_RXE_RXE, E1000_RXE_RXE);
    ck_assert_uint_eq(rx_w3(0) & 0xff, E1000_RXD_DD | E1000_RXD_EOP);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_DMA], 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    ck_assert_int_eq(dma_errors, 2);
    /* A ring base outside RAM: the engine stops until the next doorbell. */
    wr(TDBAL, 0x7f000000);
    wr(TDT, 5);
    run_for(&E.clock, US(50));
    ck_assert(E.h->tx_stopped);
    ck_assert_int_eq(dma_errors, 3);
    /* Garbage lengths: TDLEN 0, TDT beyond the ring: nothing runs, nothing hangs. */
    wr(TDBAL, (uint32_t)TXRING);
    wr(TDLEN, 0);
    wr(TDT, 7);
    run_for(&E.clock, US(50));
    wr(TDLEN, 8 * 16);
    wr(TDT, 200);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.wire.nframes, 1);
    /* A full ring of descriptors without EOP, re-posted forever: bounded
     * work per step, the frame overflows and is dropped as too long. */
    wr(TDH, 0);
    for (unsigned i = 0; i < 8; i++)
        tx_desc(i, TXBUF(0), 4000 | E1000_TXD_IFCS, 0);
    for (unsigned k = 0; k < 6; k++) {
        wr(TDT, 7);
        run_for(&E.clock, US(10));
        wr(TDT, 0);
        run_for(&E.clock, US(10));
        wr(TDT, 4); /* wrap around: the ring is posted again */
        run_for(&E.clock, US(10));
    }
    tx_desc(rd(TDH), TXBUF(0), 100 | E1000_TXD_EOP | E1000_TXD_IFCS, 0);
    wr(TDT, (rd(TDH) + 1) % 8);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_TOO_LONG], 1);
    ck_assert_uint_eq(E.wire.nframes, 1);
    env_close();
}
END_TEST

START_TEST(reset_mid_transfer)
{
    uint8_t f[1514];
    env_up("e1000-82544", NULL, 8, 8);
    make_frame(f, 1500, PEER, 1);
    tx_legacy(0, 8, f, 1000, E1000_TXD_IFCS); /* first half of a frame */
    wr(TDT, 1);
    make_frame(f, 1500, MYMAC, 2);
    wr(RDT, 0); /* no buffers: frames wait in the FIFO */
    fake_wire_deliver(&E.wire, f, 1500);
    fake_wire_deliver(&E.wire, f, 1500);
    run_for(&E.clock, US(20));
    ck_assert(nic_tx_in_frame(E.n));
    ck_assert_uint_eq(E.n->fifo.count, 2);
    wr(CTRL, rd(CTRL) | E1000_CTRL_RST);
    ck_assert(!nic_tx_in_frame(E.n));
    ck_assert_uint_eq(E.n->fifo.count, 0);
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_RESET], 1);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_RESET], 2);
    ck_assert_uint_eq(rd(TDH) | rd(TDT) | rd(RDH) | rd(RDT) | rd(RCTL) | rd(TCTL), 0);
    ck_assert(!E.host.level);
    /* The PHY kept its link; the MAC sees it again (SLU is set at reset). */
    ck_assert(rd(STATUS) & E1000_STATUS_LU);
    env_close();
}
END_TEST

/* ---- events, views, stall ----------------------------------------------------------- */

static strbuf evlog;
static void log_event(void *ctx, const event *ev)
{
    (void)ctx;
    event_format(ev, &evlog);
    sb_putc(&evlog, '\n');
}

START_TEST(events_views_stall)
{
    uint8_t f[100];
    env_up("e1000-82544", NULL, 8, 8);
    sb_init(&evlog);
    event_subscribe_glob(&E.eb, "e1000_0.*", log_event, NULL);
    make_frame(f, 100, PEER, 1);
    tx_legacy(0, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    wr(TDT, 1);
    run_for(&E.clock, US(20));
    ck_assert(strstr(evlog.s, "e1000_0.tdt.write value=1 head=0 pending=1") != NULL);
    ck_assert(strstr(evlog.s, "e1000_0.tx.desc-fetch ring=tx index=0") != NULL);
    ck_assert(strstr(evlog.s, "flags=EOP|IFCS|RS") != NULL);
    ck_assert(strstr(evlog.s, "e1000_0.tx.frame ring=tx index=0 len=100") != NULL);
    ck_assert(strstr(evlog.s, "e1000_0.irq.raise cause=0x3(TXDW|TXQE)") != NULL ||
              strstr(evlog.s, "e1000_0.irq.raise cause=0x1(TXDW)") != NULL);
    wr(RDT, 7);
    ck_assert(strstr(evlog.s, "e1000_0.rdt.write value=7 head=0 pending=7") != NULL);
    /* A descriptor posted without the doorbell: the stall query says so. */
    tx_legacy(1, 8, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    ring_state s;
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert(!s.posted && s.unreclaimed == 1);
    E.h->tx.host = 2; /* as if TDT had moved without a kick: posted while idle */
    ck_assert_int_eq(nic_ring_state(E.n->dev, "tx", &s), 0);
    ck_assert(s.posted && ring_stalled(&s));
    E.h->tx.host = 1;
    strbuf b;
    sb_init(&b);
    nic_view_ring(E.n->dev, "tx 4", NULL, &b);
    ck_assert(strstr(b.s, ">T   1") != NULL);
    ck_assert(strstr(b.s, "DD|EOP|IFCS|RS") != NULL);
    sb_reset(&b);
    e1000_view_filter(E.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "station 0 02:58:42:11:22:33") != NULL);
    sb_reset(&b);
    e1000_view_offload(E.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "no packet in progress") != NULL);
    sb_reset(&b);
    dev_show(E.n->dev, &b);
    ck_assert(strstr(b.s, "TSCTFC") != NULL && strstr(b.s, "MDIC") != NULL);
    sb_free(&b);
    sb_free(&evlog);
    env_close();
}
END_TEST


int main(void)
{
    Suite *s = suite_create("e1000");
    TCase *tc = check_case(s, "core", NULL, NULL, 0);
    check_add_tests(tc, pci_identity_and_bars, register_rules, register_events_name_the_initiator,
                    mdic_phy_access_82544, bitbang_mdio_82543, forced_speed_82543,
                    legacy_tx_rs_dd_txdw, legacy_rx_length_fcs, per_word_dma_takes_virtual_time,
                    tx_and_rx_take_turns_on_the_bus, rar_mta_filtering, vlan_insert_strip_filter,
                    rxo_rnbc_out_of_buffers, flow_control_xoff_xon, bad_descriptors_and_rings,
                    reset_mid_transfer, events_views_stall);
    tcase_add_loop_test(tc, ethtool_register_test, 0, ARRAY_SIZE(both_parts));
    tcase_add_loop_test(tc, eeprom_bitbang_and_checksum, 0, ARRAY_SIZE(both_parts));
    tcase_add_loop_test(tc, link_autoneg_lsc, 0, ARRAY_SIZE(both_parts));
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
