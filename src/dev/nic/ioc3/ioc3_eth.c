/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SGI IOC3 Ethernet: the register declaration (asm/sn/ioc3.h's struct
 * ioc3_ethregs), interrupts, the MII management interface and its PHY, the
 * address filter, the SSRAM, reset and the factory entry.  The DMA engines
 * are in ioc3_eth_dma.c.  Choices marked [INF]/[UNC] are listed in
 * docs/hardware.md, "IOC3 Ethernet". */
#include "dev/nic/ioc3/ioc3_eth.h"

#include <stdio.h>
#include <stdlib.h>

#define ETH_BAR_SIZE 0x80000 /* the IOC3 forwards registers and SSRAM at their BAR0 offsets */
#define SSRAM_BASE 0x40000
#define MII_FRAME_NS 25600 /* 64 MDC clocks at 2.5 MHz [INF] */
#define AN_NS 1000000      /* autonegotiation, 1 ms [INF] */

static ioc3_eth *E(device *d) { return d->priv; }

static const nic_bitname eth_causes[] = {
    {EISR_RXTIMERINT, "RxTimer"},      {EISR_RXTHRESHINT, "RxThresh"},
    {EISR_RXOFLO, "RxOverflow"},       {EISR_RXBUFOFLO, "RxBufOverflow"},
    {EISR_RXMEMERR, "RxMemErr"},       {EISR_RXPARERR, "RxParErr"},
    {EISR_TXEMPTY, "TxEmpty"},         {EISR_TXRTRY, "TxRetry"},
    {EISR_TXEXDEF, "TxExDefer"},       {EISR_TXLCOL, "TxLateColl"},
    {EISR_TXGIANT, "TxGiant"},         {EISR_TXBUFUFLO, "TxBufUnderflow"},
    {EISR_TXEXPLICIT, "TxDone"},       {EISR_TXCOLLWRAP, "TxCollWrap"},
    {EISR_TXDEFERWRAP, "TxDeferWrap"}, {EISR_TXMEMERR, "TxMemErr"},
    {EISR_TXPARERR, "TxParErr"},       {0, NULL}};

/* ---- link and PHY ------------------------------------------------------------ */

/* 100 Mb/s unless the PHY was set to 10 (BMCR speed bit clear without
 * negotiation, or only 10 Mb/s advertised). */
static void set_speed(ioc3_eth *e)
{
    uint16_t bmcr = e->phy.regs[MII_BMCR], anar = e->phy.regs[MII_ANAR];
    bool fast = (bmcr & BMCR_ANENABLE) ? (anar & 0x0180) != 0 : (bmcr & 0x2000) != 0;
    e->n.bit_ps = fast ? 10000 : 100000;
}

static void link_changed(nic *n)
{
    ioc3_eth *e = (ioc3_eth *)n;
    nic_mii_update(&e->phy);
    set_speed(e);
}

static void phy_power_on(ioc3_eth *e)
{
    nic_mii_reset(&e->phy);
    /* The PHY negotiated long before the guest looks: up if cabled. */
    nic_link_reset(&e->link);
    e->link.an_enable = true;
    e->link.an_done = e->link.up;
    nic_mii_update(&e->phy);
    set_speed(e);
}

/* ---- register hooks -------------------------------------------------------- */

/* The MAC's own state back to power-on: the registers except the MII ones
 * (the PHY is a chip of its own), the engines, the interrupt causes. */
static void mac_reset(ioc3_eth *e)
{
    device *d = e->n.dev;
    for (unsigned id = 0; id < ER_NREGS; id++)
        if (id != ER_MICR && id != ER_MIDR_R && id != ER_MIDR_W)
            DEV_R(d, id) = d->cls->regs[id].reset;
    ioc3_eth_dma_reset(e);
    nic_mac_filter_reset(&e->filt);
    e->filt.unicast = e->filt.broadcast = e->filt.hash = true;
    e->filt.station_valid[0] = true;
    e->n.tx_pad = false;
}

static void w_emcr(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    uint32_t v = (uint32_t)a->val;
    if (v & EMCR_RST) { /* held in reset while RST is set [INF] */
        mac_reset(e);
        DEV_R(d, ER_EMCR) = v;
        return;
    }
    e->filt.promisc = (v & EMCR_PROMISC) != 0;
    e->n.tx_pad = (v & EMCR_PADEN) != 0;
    ioc3_eth_kick(e);
}

static void w_eisr(device *d, const reg_access *a) { nic_irq_deassert(&E(d)->n, (uint32_t)a->val); }

static void w_eier(device *d, const reg_access *a) { nic_irq_set_mask(&E(d)->n, (uint32_t)a->val); }

static void w_rx_ring(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    if (a->id == ER_ERPIR)
        nic_doorbell(&e->n, a->id, a->val, NIC_RING_RX);
    ioc3_eth_ring_write(e, a->id, (uint32_t)a->val);
    if (a->id == ER_ERPIR && (a->val & ERPIR_ARM))
        ioc3_eth_arm(e);
    ioc3_eth_kick(e);
}

static void w_tx_ring(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    if (a->id == ER_ETPIR)
        nic_doorbell(&e->n, a->id, a->val, NIC_RING_TX);
    ioc3_eth_ring_write(e, a->id, (uint32_t)a->val);
    ioc3_eth_kick(e);
}

static uint64_t r_etcir(device *d, const reg_access *a) { return ioc3_eth_etcir(E(d)); }

static uint64_t r_ercir(device *d, const reg_access *a) { return E(d)->rx.index << 3; }

static uint64_t r_erpir(device *d, const reg_access *a)
{
    return (uint64_t)E(d)->rx.host << 3 | (DEV_R(d, ER_ERPIR) & ERPIR_ARM);
}

/* EMAR: L = octets 3..0 (octet 0 in the low byte), H = octets 5, 4. */
static void w_emar(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    uint32_t lo = (uint32_t)DEV_R(d, ER_EMAR_L), hi = (uint32_t)DEV_R(d, ER_EMAR_H);
    uint8_t *m = e->filt.station[0];
    store_le(m, 4, lo);
    store_le(m + 4, 2, hi & 0xffff);
    if (e->n.port) /* peers such as gen address the station */
        net_port_set_mac(e->n.port, m);
}

static void w_ehar(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    e->filt.hash_table[0] = (uint32_t)DEV_R(d, ER_EHAR_L);
    e->filt.hash_table[1] = (uint32_t)DEV_R(d, ER_EHAR_H);
}

/* The 64-bit multicast hash: the low 6 bits of the little-endian CRC
 * (Linux's ether_crc_le), bit-reversed (ioc3-eth.c ioc3_hash). */
static unsigned eth_hash(const uint8_t *mac, const void *ctx)
{
    uint32_t crc = ~nic_crc32(mac, 6) & 0x3f;
    unsigned r = 0;
    for (int i = 0; i < 6; i++)
        r = r << 1 | ((crc >> i) & 1);
    return r;
}

/* MII management: a write to MICR starts one management frame on the PHY
 * bus (READTRIG: a read into MIDR_R; else a write of MIDR_W), which keeps
 * BUSY set for its duration.  An address without a PHY reads 0xffff (the
 * pulled-up MDIO line).  A write while BUSY is ignored [INF]. */
static uint64_t r_micr(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    uint64_t v = DEV_R(d, ER_MICR) & ~(uint64_t)MICR_BUSY;
    return d->clock->now < e->mii_done ? v | MICR_BUSY : v;
}

static void w_micr(device *d, const reg_access *a)
{
    ioc3_eth *e = E(d);
    if (d->clock->now < e->mii_done) {
        DEV_R(d, ER_MICR) = a->old;
        return;
    }
    uint32_t v = (uint32_t)a->val & 0x7ff;
    DEV_R(d, ER_MICR) = v;
    unsigned phy = (v >> 5) & 31, reg = v & 31;
    if (v & MICR_READTRIG)
        DEV_R(d, ER_MIDR_R) = phy == e->phy.addr ? nic_mii_read(&e->phy, reg, false) : 0xffff;
    else if (phy == e->phy.addr)
        nic_mii_write(&e->phy, reg, (uint16_t)DEV_R(d, ER_MIDR_W));
    set_speed(e);
    e->mii_done = d->clock->now + sched_ns_to_ticks(d->clock, MII_FRAME_NS);
}

/* ---- the declaration ------------------------------------------------------- */

static const reg_field f_emcr[] = {
    {"DUPLEX", 0, 1, NULL},   {"PROMISC", 1, 1, NULL},  {"PADEN", 2, 1, NULL},
    {"RXOFF", 3, 6, NULL},    {"RAMPAR", 9, 1, NULL},   {"BADPAR", 11, 1, NULL},
    {"BUFSIZ", 12, 1, NULL},  {"TXDMAEN", 13, 1, NULL}, {"TXEN", 14, 1, NULL},
    {"RXDMAEN", 15, 1, NULL}, {"RXEN", 16, 1, NULL},    {"LOOPBACK", 17, 1, NULL},
    {"RST", 31, 1, NULL}};
static const reg_field f_eisr[] = {
    {"RXTIMERINT", 0, 1, NULL},  {"RXTHRESHINT", 1, 1, NULL}, {"RXOFLO", 2, 1, NULL},
    {"RXBUFOFLO", 3, 1, NULL},   {"RXMEMERR", 4, 1, NULL},    {"RXPARERR", 5, 1, NULL},
    {"TXEMPTY", 16, 1, NULL},    {"TXRTRY", 17, 1, NULL},     {"TXEXDEF", 18, 1, NULL},
    {"TXLCOL", 19, 1, NULL},     {"TXGIANT", 20, 1, NULL},    {"TXBUFUFLO", 21, 1, NULL},
    {"TXEXPLICIT", 22, 1, NULL}, {"TXCOLLWRAP", 23, 1, NULL}, {"TXDEFERWRAP", 24, 1, NULL},
    {"TXMEMERR", 25, 1, NULL},   {"TXPARERR", 26, 1, NULL}};
static const reg_field f_erpir[] = {{"PI", 3, 9, NULL}, {"ARM", 31, 1, NULL}};
static const reg_field f_ercir[] = {{"CI", 3, 9, NULL}};
static const reg_field f_etcir[] = {{"CI", 7, 9, NULL}, {"IDLE", 31, 1, NULL}};
static const reg_field f_etpir[] = {{"PI", 7, 9, NULL}};
static const reg_field f_etcsr[] = {
    {"IPGT", 0, 7, NULL}, {"IPGR1", 8, 7, NULL}, {"IPGR2", 16, 7, NULL}, {"NOTXCLK", 31, 1, NULL}};
static const reg_field f_etcdc[] = {{"COLLCNT", 0, 16, NULL}, {"DEFERCNT", 16, 16, NULL}};
static const reg_field f_micr[] = {{"REGADDR", 0, 5, NULL},
                                   {"PHYADDR", 5, 5, NULL},
                                   {"READTRIG", 10, 1, NULL},
                                   {"BUSY", 11, 1, NULL}};

/* clang-format off */
static const reg_decl eth_regs[] = {
    [ER_EMCR] = {.name = "EMCR", .offset = 0xf0, .width = 4, REG_FIELDS(f_emcr), .write = w_emcr,
                 .desc = "MAC control"},
    [ER_EISR] = {.name = "EISR", .offset = 0xf4, .width = 4, .rules = R_NOSTORE,
                 REG_FIELDS(f_eisr), .read = nic_read_causes, .write = w_eisr,
                 .desc = "interrupt status (write 1 to clear)"},
    [ER_EIER] = {.name = "EIER", .offset = 0xf8, .width = 4, REG_FIELDS(f_eisr), .write = w_eier,
                 .desc = "interrupt enable"},
    [ER_ERCSR] = {.name = "ERCSR", .offset = 0xfc, .width = 4, .wmask = 0x1ff,
                  .desc = "Rx threshold: RXTHRESHINT when this few buffers are left"},
    [ER_ERBR_H] = {.name = "ERBR_H", .offset = 0x100, .width = 4, .write = w_rx_ring,
                   .desc = "Rx ring base, high"},
    [ER_ERBR_L] = {.name = "ERBR_L", .offset = 0x104, .width = 4, .wmask = 0xfffff000,
                   .write = w_rx_ring, .desc = "Rx ring base, low (4 KB aligned)"},
    [ER_ERBAR] = {.name = "ERBAR", .offset = 0x108, .width = 4,
                  .desc = "Rx barrier attribute (stored)"},
    [ER_ERCIR] = {.name = "ERCIR", .offset = 0x10c, .width = 4, .rules = R_NOSTORE,
                  REG_FIELDS(f_ercir), .read = r_ercir, .write = w_rx_ring,
                  .desc = "Rx consumer: the next buffer the MAC fills (byte offset)"},
    [ER_ERPIR] = {.name = "ERPIR", .offset = 0x110, .width = 4, .wmask = 0x80000ff8,
                  REG_FIELDS(f_erpir), .read = r_erpir, .write = w_rx_ring,
                  .desc = "Rx producer (byte offset); ARM: interrupt on the next frame"},
    [ER_ERTR] = {.name = "ERTR", .offset = 0x114, .width = 4, .wmask = 0x7ff,
                 .desc = "Rx timer: RXTIMERINT this long after a frame (0 = at once)"},
    [ER_ETCSR] = {.name = "ETCSR", .offset = 0x118, .width = 4, REG_FIELDS(f_etcsr),
                  .desc = "Tx inter-packet gaps (stored)"},
    [ER_ERSR] = {.name = "ERSR", .offset = 0x11c, .width = 4, .desc = "backoff seed (stored)"},
    [ER_ETCDC] = {.name = "ETCDC", .offset = 0x120, .width = 4, .rules = R_RO | R_RC,
                  REG_FIELDS(f_etcdc), .desc = "collisions and defers (a read clears; none "
                  "happen on the emulated wire)"},
    [ER_EBIR] = {.name = "EBIR", .offset = 0x124, .width = 4,
                 .desc = "internal buffer indices (stored)"},
    [ER_ETBR_H] = {.name = "ETBR_H", .offset = 0x128, .width = 4, .write = w_tx_ring,
                   .desc = "Tx ring base, high"},
    [ER_ETBR_L] = {.name = "ETBR_L", .offset = 0x12c, .width = 4, .wmask = 0xffffc001,
                   .write = w_tx_ring,
                   .desc = "Tx ring base, low (16 KB aligned); bit 0: 512 entries [INF]"},
    [ER_ETCIR] = {.name = "ETCIR", .offset = 0x130, .width = 4, .rules = R_NOSTORE,
                  REG_FIELDS(f_etcir), .read = r_etcir, .write = w_tx_ring,
                  .desc = "Tx consumer (byte offset), IDLE"},
    [ER_ETPIR] = {.name = "ETPIR", .offset = 0x134, .width = 4, .wmask = 0xff80,
                  REG_FIELDS(f_etpir), .write = w_tx_ring,
                  .desc = "Tx producer (byte offset): a write starts the transmitter"},
    [ER_EMAR_H] = {.name = "EMAR_H", .offset = 0x138, .width = 4, .wmask = 0xffff,
                   .write = w_emar, .desc = "station address octets 5, 4"},
    [ER_EMAR_L] = {.name = "EMAR_L", .offset = 0x13c, .width = 4, .write = w_emar,
                   .desc = "station address octets 3..0"},
    [ER_EHAR_H] = {.name = "EHAR_H", .offset = 0x140, .width = 4, .write = w_ehar,
                   .desc = "multicast hash bits 63:32"},
    [ER_EHAR_L] = {.name = "EHAR_L", .offset = 0x144, .width = 4, .write = w_ehar,
                   .desc = "multicast hash bits 31:0"},
    [ER_MICR] = {.name = "MICR", .offset = 0x148, .width = 4, REG_FIELDS(f_micr),
                 .read = r_micr, .write = w_micr, .desc = "MII management: start a frame"},
    [ER_MIDR_R] = {.name = "MIDR_R", .offset = 0x14c, .width = 4, .rules = R_RO,
                   .desc = "MII data read"},
    [ER_MIDR_W] = {.name = "MIDR_W", .offset = 0x150, .width = 4, .wmask = 0xffff,
                   .desc = "MII data to write"},
};
/* clang-format on */
DEV_REGS_CHECK(eth_regs, ER_NREGS);

/* SSRAM: each 32-bit word holds 16 data bits and a parity bit (16); 128 KB
 * of data is fitted, parity reads 0 [INF].  With BUFSIZ clear the chip
 * addresses 64 KB and the upper half aliases the lower [INF]: Linux's
 * probe (ioc3_ssram_disc) then finds the 128 KB it asks for. */
static unsigned ssram_index(ioc3_eth *e, uint64_t off)
{
    unsigned i = (unsigned)((off - SSRAM_BASE) / 4);
    if (!(DEV_R(e->n.dev, ER_EMCR) & EMCR_BUFSIZ))
        i &= IOC3_SSRAM_WORDS / 2 - 1;
    return i & (IOC3_SSRAM_WORDS - 1);
}

static int other_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    ioc3_eth *e = E(d);
    *val = 0;
    if (off >= SSRAM_BASE && off + size <= ETH_BAR_SIZE && size == 4 && !(off & 3)) {
        *val = e->ssram[ssram_index(e, off)];
        return BUS_OK;
    }
    EVENT_EMIT(d->ev[DEV_EV_BAD_ACCESS], op ? op->initiator : -1, off, size, false, 0);
    return BUS_OK;
}

static int other_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    ioc3_eth *e = E(d);
    if (off >= SSRAM_BASE && off + size <= ETH_BAR_SIZE && size == 4 && !(off & 3)) {
        e->ssram[ssram_index(e, off)] = (uint16_t)val;
        return BUS_OK;
    }
    EVENT_EMIT(d->ev[DEV_EV_BAD_ACCESS], op ? op->initiator : -1, off, size, true, val);
    return BUS_OK;
}

/* ---- reset, views, state ------------------------------------------------------ */

static void eth_reset(device *d)
{
    ioc3_eth *e = E(d);
    mac_reset(e);
    memset(e->ssram, 0, sizeof e->ssram);
    e->mii_done = 0;
    phy_power_on(e);
}

static void view_filter(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    ioc3_eth *e = E(d);
    nic_mac_show(&e->filt, out);
    sb_printf(out, "  PHY %u (DP83840): link %s, %s Mb/s, BMCR 0x%04x BMSR 0x%04x\n", e->phy.addr,
              e->link.up ? "up" : "down", e->n.bit_ps == 10000 ? "100" : "10",
              e->phy.regs[MII_BMCR], nic_mii_read(&e->phy, MII_BMSR, true));
}

static const dev_view eth_views[] = {
    NIC_VIEWS,
    {"filter", "address filter (EMAR, EHAR, PROMISC), PHY and link", view_filter},
};

/* The model's state: the shared shell `n` (nic_state.c), then its own. */
static const state_decl eth_state[] = {
    STATE_PART(ioc3_eth, n, nic_state, "the NIC shell"),
    STATE_PART(ioc3_eth, tx, nic_ring_state_decl, "the Tx ring"),
    STATE_PART(ioc3_eth, rx, nic_ring_state_decl, "the Rx buffer ring"),
    STATE_PART(ioc3_eth, link, nic_link_state, "the link"),
    STATE_PART(ioc3_eth, phy, nic_mii_state, "the DP83840 PHY"),
    STATE_PART(ioc3_eth, filt, nic_mac_filter_state, "the address filter"),
    STATE_BYTES(ioc3_eth, ssram, "SSRAM data bits"),
    STATE_INT(ioc3_eth, mii_done, "MICR BUSY until"),
    STATE_BOOL(ioc3_eth, rx_unsignalled, "frames delivered while ERPIR.ARM was clear"),
    STATE_TIMER(ioc3_eth, rx_timer, "ERTR: RXTIMERINT after the timeout"),
};

static const device_class ioc3_eth_class = {
    .name = "ioc3-eth",
    .desc = "SGI IOC3 10/100 Ethernet (the BaseIO's own NIC) with a DP83840 PHY",
    DEV_REGS(eth_regs),
    .reg_space = ETH_BAR_SIZE,
    .little_endian = true,
    DEV_EVENTS(nic_event_decls),
    DEV_VIEWS(eth_views),
    DEV_STATE(eth_state, ioc3_eth),
    .reset = eth_reset,
    .other_read = other_read,
    .other_write = other_write,
    .ring_state = nic_ring_state,
};

/* ---- life cycle ---------------------------------------------------------------- */

static void eth_init(nic *n)
{
    ioc3_eth *e = (ioc3_eth *)n;
    n->bit_ps = 10000; /* 100 Mb/s */
    n->pci.class_code = 0x020000;
    nic_link_init(&e->link, n, sched_ns_to_ticks(n->clock, AN_NS), link_changed);
    nic_mii_init(&e->phy, &e->link, IOC3_PHY_ADDR, IOC3_PHY_ID);
    /* A 10/100 PHY: no 1000BASE-T registers, no extended status. */
    e->phy.rst[MII_BMCR] = BMCR_ANENABLE | 0x2000 | 0x0100; /* AN, 100 Mb/s, full duplex */
    e->phy.rst[MII_BMSR] = 0x7849; /* 100/10 full/half, preamble suppression, AN, ext caps */
    e->phy.rst[MII_CTRL1000] = 0;
    e->phy.rst[MII_ESTATUS] = 0;
    e->phy.wmask[MII_CTRL1000] = 0;
    e->filt.hash_bits = 64;
    e->filt.hash_fn = eth_hash;
    ioc3_eth_dma_init(e);
}

static const nic_ops eth_ops = {
    .prefix = "ioc3_eth",
    .size = sizeof(ioc3_eth),
    .init = eth_init,
    .rx = ioc3_eth_rx_frame,
    .causes = eth_causes,
};

const nic_model ioc3_eth_models[] = {
    {"ioc3-eth", "SGI IOC3 10/100 Ethernet (the BaseIO's own, behind the IOC3 10a9:0003)",
     &ioc3_eth_class, 0x10a9, 0x0003, &eth_ops, true},
    {0},
};
