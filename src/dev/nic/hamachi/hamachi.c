/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Packet Engines Hamachi GNIC-II: the register declaration (Linux hamachi.c's),
 * interrupts, EEPROM, auto-negotiation, address filter, reset and the
 * factory entry.  The DMA engines are in hamachi_dma.c.  Choices marked
 * [INF]/[UNC] are listed in docs/hardware.md "Hamachi GNIC-II". */
#include "dev/nic/hamachi/hamachi.h"

#include <stdio.h>
#include <stdlib.h>

#define HAM_VENDOR 0x1318
#define HAM_DEVICE 0x0911
#define HAM_REVISION 0x00   /* [UNC] */
#define HAM_CHIP_REV 0x0002 /* [UNC] value of ChipRev; Linux only prints it */
#define HAM_BAR_SIZE 0x400
#define HAM_PCI_CLK 60          /* 2000/60 = 33 MHz: the Bridge's PCI bus [INF] */
#define HAM_CLK_SETTLE_NS 20000 /* PCIClkMeas invalid after a reset [INF] */
#define HAM_AN_NS 1000000       /* auto-negotiation time, 1 ms [INF] */
#define HAM_EE_NS 1000          /* one EEPROM byte read, 1 us [INF] */
#define HAM_EE_SIZE 512         /* [UNC] */
#define HAM_COAL_UNIT_NS 8192   /* TxIntrCtrl/RxIntrCtrl time unit (Linux hamachi.c) */

static hamachi *H(device *d) { return d->priv; }

static const nic_bitname ham_causes[] = {
    {HAM_INTR_RX_DONE, "RxDone"},          {HAM_INTR_RX_PCI_FAULT, "RxPCIFault"},
    {HAM_INTR_RX_PCI_ERR, "RxPCIErr"},     {HAM_INTR_TX_DONE, "TxDone"},
    {HAM_INTR_TX_PCI_FAULT, "TxPCIFault"}, {HAM_INTR_TX_PCI_ERR, "TxPCIErr"},
    {HAM_INTR_LINK_CHANGE, "LinkChange"},  {HAM_INTR_NEG_CHANGE, "NegotiationChange"},
    {HAM_INTR_STATS_MAX, "StatsMax"},      {0, NULL}};

/* ---- register hooks -------------------------------------------------------- */

static void w_dma_ctrl(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    nic_ring *ring = a->id == HR_TX_DMA_CTRL ? &h->tx : &h->rx;
    nic_ring_set_desc_size(ring, (a->val & 0x40) ? 16 : 8); /* bit 6: 64-bit descriptors [INF] */
}

static void w_cmd(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    bool tx = a->id == HR_TX_CMD;
    DEV_R(d, a->id) = 0; /* a command, not a state: reads return 0 [INF] */
    nic_doorbell(&h->n, a->id, a->val, tx ? NIC_RING_TX : NIC_RING_RX);
    if (tx)
        hamachi_tx_cmd(h, (unsigned)a->val);
    else
        hamachi_rx_cmd(h, (unsigned)a->val);
}

static uint64_t r_ch_status(device *d, const reg_access *a)
{
    return hamachi_ch_status(H(d), a->id == HR_TX_STATUS);
}

static void w_ring_ptr(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    bool tx = a->id == HR_TX_PTR || a->id == HR_TX_PTR_HI;
    unsigned lo = tx ? HR_TX_PTR : HR_RX_PTR;
    uint64_t base = DEV_R(d, lo) | DEV_R(d, lo + 1) << 32;
    nic_ring_set_base(tx ? &h->tx : &h->rx, base);
}

static uint64_t r_cur_ptr(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    bool tx = a->id == HR_TX_CUR || a->id == HR_TX_CUR_HI;
    bool hi = a->id == HR_TX_CUR_HI || a->id == HR_RX_CUR_HI;
    uint64_t cur = tx ? h->tx.cur : h->rx.cur;
    return hi ? cur >> 32 : (uint32_t)cur;
}

static uint64_t r_pci_clk(device *d, const reg_access *a)
{
    return H(d)->clk_valid ? 0x80 | HAM_PCI_CLK : 0;
}

static uint64_t r_misc_status(device *d, const reg_access *a)
{
    /* Bit 0: 64-bit bus (the Bridge is 64-bit) unless forced to 32 by the
     * virtual jumpers (bit 0 = force 32, bit 2 = force 64). */
    uint64_t vj = DEV_R(d, HR_VJUMPERS);
    return (vj & 1) && !(vj & 4) ? 0 : 1;
}

static void w_chip_reset(device *d, const reg_access *a)
{
    DEV_R(d, HR_CHIP_RESET) = 0;
    if (a->val & 1)
        device_reset(d); /* registers to power-on values, engines stopped */
}

static void w_intr_ctrl(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    nic_coal *c = a->id == HR_TX_INTR_CTRL ? &h->txc : &h->rxc;
    uint64_t unit = sched_ns_to_ticks(d->clock, HAM_COAL_UNIT_NS);
    nic_coal_config(c, (uint32_t)EXTRACT(a->val, 16, 8), EXTRACT(a->val, 8, 8) * unit,
                    EXTRACT(a->val, 0, 8) * unit, 0);
}

static void w_intr_enable(device *d, const reg_access *a)
{
    nic_irq_set_mask(&H(d)->n, (uint32_t)a->val);
}

static void w_mac_cnfg(device *d, const reg_access *a)
{
    DEV_R(d, HR_MAC_CNFG) &= ~0x8000ull; /* soft MAC reset self-clears [INF] */
}

/* MII management: the fiber GNIC-II has no external PHY [INF], so every
 * read returns 0xffff, and writes (started by the data write, [INF]) go
 * nowhere.  The interface is never busy. */
static void w_mii_cmd(device *d, const reg_access *a)
{
    DEV_R(d, HR_MII_CMD) = 0;
    if (a->val & 1)
        DEV_R(d, HR_MII_RD) = 0xffff;
}

static void w_addr_mode(device *d, const reg_access *a)
{
    nic_mac_filter *f = &H(d)->filt;
    /* [INF] per-bit meaning from the driver's values 0x01/0x03/0x0B/0x0F. */
    f->unicast = f->broadcast = a->val & 1;
    f->cam = (a->val & 2) != 0;
    f->promisc = (a->val & 4) != 0;
    f->all_multi = (a->val & 8) != 0;
}

static void w_station(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    nic_mac_filter *f = &h->filt;
    f->station[0][a->idx] = (uint8_t)a->val;
    f->station_valid[0] = true;
    if (h->n.port) /* peers such as gen address the station */
        net_port_set_mac(h->n.port, f->station[0]);
}

static void w_cam(device *d, const reg_access *a)
{
    nic_mac_filter *f = &H(d)->filt;
    uint32_t lo = (uint32_t)*dev_rv(d, HR_CAM_LO, a->idx);
    uint32_t hi = (uint32_t)*dev_rv(d, HR_CAM_HI, a->idx);
    store_le(f->cam_addr[a->idx], 4, lo);
    store_le(f->cam_addr[a->idx] + 4, 2, hi & 0xffff);
    f->cam_valid[a->idx] = (hi & 0x20000) != 0; /* [INF] valid bit */
}

static void w_an_ctrl(device *d, const reg_access *a)
{
    DEV_R(d, HR_AN_CTRL) &= ~0x0200ull; /* restart self-clears */
    /* [INF] MII-BMCR-like: 0x1000 enable, 0x0200 restart. */
    nic_link_autoneg(&H(d)->link, (a->val & 0x1000) != 0, (a->val & 0x0200) != 0);
}

static uint64_t r_an_status(device *d, const reg_access *a)
{
    const nic_link *l = &H(d)->link;
    /* [INF] BMSR-like: 0x20 = negotiation complete / link up (what the
     * driver tests), 0x04 = link, 0x08 = able to negotiate. */
    return 0x0008 | (l->up ? 0x0004 : 0) | (l->up && l->an_done ? 0x0020 : 0);
}

static uint64_t r_an_lpa(device *d, const reg_access *a)
{
    /* [INF] the partner advertises what we do, with the acknowledge bit. */
    return H(d)->link.an_done ? (DEV_R(d, HR_AN_ADV) | 0x4000) & 0xffff : 0;
}

static void w_ee_cmd(device *d, const reg_access *a)
{
    hamachi *h = H(d);
    DEV_R(d, HR_EE_CMD) = 0;
    if ((a->val & 0x02) && !h->ee.busy)
        nic_eeprom_start_read(&h->ee, (uint32_t)DEV_R(d, HR_EE_ADDR));
}

static uint64_t r_ee_cmd(device *d, const reg_access *a) { return H(d)->ee.busy ? 0x40 : 0; }

static uint64_t r_ee_data(device *d, const reg_access *a) { return H(d)->ee.result; }

/* ---- the declaration ----------------------------------------------------- */

static const char *const ch_state_names[] = {"stopped", "running", "suspended", NULL};
static const reg_field f_dma_ctrl[] = {
    {"Burst", 0, 3, NULL}, {"PerfCmds", 3, 1, NULL}, {"Bit4", 4, 1, NULL}, {"Addr64", 6, 1, NULL}};
static const reg_field f_cmd[] = {{"Start", 0, 1, NULL}, {"Stop", 1, 1, NULL}};
static const reg_field f_ch_status[] = {{"State", 0, 2, ch_state_names}};
static const reg_field f_intr_ctrl[] = {
    {"MaxLatency", 0, 8, NULL}, {"MaxGap", 8, 8, NULL}, {"MinPkt", 16, 8, NULL}};
static const reg_field f_intr[] = {{"RxDone", 0, 1, NULL},      {"RxPCIFault", 1, 1, NULL},
                                   {"RxPCIErr", 2, 1, NULL},    {"TxDone", 8, 1, NULL},
                                   {"TxPCIFault", 9, 1, NULL},  {"TxPCIErr", 10, 1, NULL},
                                   {"LinkChange", 16, 1, NULL}, {"NegChange", 17, 1, NULL},
                                   {"StatsMax", 18, 1, NULL},   {"Bit31", 31, 1, NULL}};
static const reg_field f_addr_mode[] = {{"UniBroad", 0, 1, NULL},
                                        {"MultiCAM", 1, 1, NULL},
                                        {"Promisc", 2, 1, NULL},
                                        {"AllMulti", 3, 1, NULL}};
static const reg_field f_an_status[] = {
    {"Link", 2, 1, NULL}, {"ANAble", 3, 1, NULL}, {"ANDone", 5, 1, NULL}};
static const reg_field f_cam_hi[] = {{"Addr45", 0, 16, NULL}, {"Valid", 17, 1, NULL}};


/* clang-format off */
/* A DMA channel's registers (ch TX or RX, dir "Tx" or "Rx"), base its
 * DMACtrl: control, command, state, the ring base and the current
 * descriptor (each with its high half). */
#define DMA_CHANNEL(ch, dir, base)                                                               \
    [HR_##ch##_DMA_CTRL] = {.name = dir "DMACtrl", .offset = (base), .width = 2,                 \
                            REG_FIELDS(f_dma_ctrl), .write = w_dma_ctrl,                         \
                            .desc = dir " DMA control"},                                         \
    [HR_##ch##_CMD] = {.name = dir "Cmd", .offset = (base) + 0x04, .width = 2, REG_FIELDS(f_cmd), \
                       .write = w_cmd, .desc = dir " command: 1 start, 2 stop"},                 \
    [HR_##ch##_STATUS] = {.name = dir "Status", .offset = (base) + 0x06, .width = 2,             \
                          .rules = R_RO | R_NOSTORE, REG_FIELDS(f_ch_status),                    \
                          .read = r_ch_status, .desc = dir " channel state"},                    \
    [HR_##ch##_PTR] = {.name = dir "Ptr", .offset = (base) + 0x08, .width = 4,                   \
                       .write = w_ring_ptr, .desc = dir " ring base"},                           \
    [HR_##ch##_PTR_HI] = {.name = dir "PtrHi", .offset = (base) + 0x0c, .width = 4,              \
                          .write = w_ring_ptr, .desc = dir " ring base, high 32 bits"},          \
    [HR_##ch##_CUR] = {.name = dir "CurPtr", .offset = (base) + 0x10, .width = 4,                \
                       .rules = R_RO | R_NOSTORE, .read = r_cur_ptr,                             \
                       .desc = "current " dir " descriptor"},                                    \
    [HR_##ch##_CUR_HI] = {.name = dir "CurPtrHi", .offset = (base) + 0x14, .width = 4,           \
                          .rules = R_RO | R_NOSTORE, .read = r_cur_ptr,                          \
                          .desc = "current " dir " descriptor, high"}

static const reg_decl ham_regs[] = {
    DMA_CHANNEL(TX, "Tx", 0x00),
    DMA_CHANNEL(RX, "Rx", 0x20),
    [HR_PCI_CLK] = {.name = "PCIClkMeas", .offset = 0x60, .width = 1, .rules = R_RO | R_NOSTORE,
                    .read = r_pci_clk, .desc = "bit 7 valid; MHz = 2000/(v&0x7f)"},
    [HR_MISC_STATUS] = {.name = "MiscStatus", .offset = 0x66, .width = 2, .rules = R_RO | R_NOSTORE,
                        .read = r_misc_status, .desc = "bit 0: 64-bit bus"},
    [HR_CHIP_REV] = {.name = "ChipRev", .offset = 0x68, .width = 2, .rules = R_RO,
                     .reset = HAM_CHIP_REV, .desc = "chip revision"},
    [HR_CHIP_REV_HI] = {.name = "ChipRevHi", .offset = 0x6a, .width = 1, .rules = R_RO,
                        .desc = "chip revision, byte 2"},
    [HR_CHIP_RESET] = {.name = "ChipReset", .offset = 0x6b, .width = 1, .write = w_chip_reset,
                       .desc = "write 1: chip reset"},
    [HR_LED] = {.name = "LEDCtrl", .offset = 0x6c, .width = 1,
                .desc = "3 blinking red, 1 link, 0 off"},
    [HR_VJUMPERS] = {.name = "VirtualJumpers", .offset = 0x6d, .width = 1,
                     .desc = "1 force 32-bit, 2 no parity, 4 force 64"},
    [HR_GPIO] = {.name = "GPIO", .offset = 0x6e, .width = 2,
                 .desc = "bits 7:6 external FIFO (0 = none)"},
    [HR_TX_CSUM] = {.name = "TxChecksum", .offset = 0x74, .width = 2,
                    .desc = "1 = Tx checksum tag"},
    [HR_RX_CSUM] = {.name = "RxChecksum", .offset = 0x76, .width = 2,
                    .desc = "1 = Rx checksum word"},
    [HR_TX_INTR_CTRL] = {.name = "TxIntrCtrl", .offset = 0x78, .width = 4, REG_FIELDS(f_intr_ctrl),
                         .write = w_intr_ctrl, .desc = "Tx interrupt coalescing"},
    [HR_RX_INTR_CTRL] = {.name = "RxIntrCtrl", .offset = 0x7c, .width = 4, REG_FIELDS(f_intr_ctrl),
                         .write = w_intr_ctrl, .desc = "Rx interrupt coalescing"},
    [HR_INTR_ENABLE] = {.name = "InterruptEnable", .offset = 0x80, .width = 4, REG_FIELDS(f_intr),
                        .write = w_intr_enable, .desc = "interrupt mask"},
    [HR_INTR_CLEAR] = {.name = "InterruptClear", .offset = 0x84, .width = 4,
                       .rules = R_RO | R_NOSTORE, REG_FIELDS(f_intr), .read = nic_read_clear_causes,
                       .desc = "read: pending causes, cleared by the read"},
    [HR_INTR_STATUS] = {.name = "IntrStatus", .offset = 0x88, .width = 4, .rules = R_RO | R_NOSTORE,
                        REG_FIELDS(f_intr), .read = nic_read_causes,
                        .desc = "pending causes (no clear)"},
    [HR_EVENT_STATUS] = {.name = "EventStatus", .offset = 0x8c, .width = 2,
                         .desc = "non-interrupting events"},
    [HR_MAC_CNFG] = {.name = "MACCnfg", .offset = 0xa0, .width = 2, .write = w_mac_cnfg,
                     .desc = "MAC configuration (0x8000 soft reset)"},
    [HR_FRAME_GAP0] = {.name = "FrameGap0", .offset = 0xa2, .width = 2},
    [HR_FRAME_GAP1] = {.name = "FrameGap1", .offset = 0xa4, .width = 2},
    [HR_MII_CMD] = {.name = "MII_Cmd", .offset = 0xa6, .width = 2, .write = w_mii_cmd,
                    .desc = "1 = read"},
    [HR_MII_ADDR] = {.name = "MII_Addr", .offset = 0xa8, .width = 2, .desc = "(phy << 8) + reg"},
    [HR_MII_WR] = {.name = "MII_Wr_Data", .offset = 0xaa, .width = 2},
    [HR_MII_RD] = {.name = "MII_Rd_Data", .offset = 0xac, .width = 2, .rules = R_RO},
    [HR_MII_STATUS] = {.name = "MII_Status", .offset = 0xae, .width = 2, .rules = R_RO,
                       .desc = "bit 0 busy"},
    [HR_MAC_CNFG2] = {.name = "MACCnfg2", .offset = 0xb0, .width = 2},
    [HR_RX_DEPTH] = {.name = "RxDepth", .offset = 0xb8, .width = 2, .desc = "unused by drivers"},
    [HR_FLOW_CTRL] = {.name = "FlowCtrl", .offset = 0xbc, .width = 4},
    [HR_MAX_FRAME] = {.name = "MaxFrameSize", .offset = 0xce, .width = 2, .reset = 1518,
                      .desc = "longest frame received, with FCS"},
    [HR_ADDR_MODE] = {.name = "AddrMode", .offset = 0xd0, .width = 2, REG_FIELDS(f_addr_mode),
                      .write = w_addr_mode, .desc = "receive address filter"},
    [HR_STATION] = {.name = "StationAddr", .offset = 0xd2, .width = 1, .count = 6, .stride = 1,
                    .write = w_station, .desc = "station address byte"},
    [HR_AN_CTRL] = {.name = "ANCtrl", .offset = 0xe0, .width = 2, .write = w_an_ctrl,
                    .desc = "0x1000 enable, 0x0200 restart"},
    [HR_AN_STATUS] = {.name = "ANStatus", .offset = 0xe2, .width = 2, .rules = R_RO | R_NOSTORE,
                      REG_FIELDS(f_an_status), .read = r_an_status, .desc = "0x20 = link up"},
    [HR_AN_XCHG] = {.name = "ANXchngCtrl", .offset = 0xe4, .width = 2},
    [HR_AN_E6] = {.name = "AN_E6", .offset = 0xe6, .width = 2, .desc = "undocumented"},
    [HR_AN_ADV] = {.name = "ANAdvertise", .offset = 0xe8, .width = 2},
    [HR_AN_LPA] = {.name = "ANLinkPartnerAbility", .offset = 0xea, .width = 2,
                   .rules = R_RO | R_NOSTORE, .read = r_an_lpa},
    [HR_EE_CMD] = {.name = "EECmdStatus", .offset = 0xf0, .width = 1, .rules = R_NOSTORE,
                   .read = r_ee_cmd, .write = w_ee_cmd, .desc = "write 2: read; bit 6 busy"},
    [HR_EE_DATA] = {.name = "EEData", .offset = 0xf1, .width = 1, .rules = R_RO | R_NOSTORE,
                    .read = r_ee_data, .desc = "byte read"},
    [HR_EE_ADDR] = {.name = "EEAddr", .offset = 0xf2, .width = 2},
    [HR_FIFO_CFG] = {.name = "FIFOcfg", .offset = 0xf8, .width = 2},
    [HR_CAM_LO] = {.name = "CamLo", .offset = 0x100, .width = 4, .count = 64, .stride = 8,
                   .write = w_cam, .desc = "multicast CAM: address bytes 0-3"},
    [HR_CAM_HI] = {.name = "CamHi", .offset = 0x104, .width = 4, .count = 64, .stride = 8,
                   REG_FIELDS(f_cam_hi), .write = w_cam, .desc = "multicast CAM: bytes 4-5, valid"},
    [HR_STAT_RX_MCAST] = {.name = "StatRxMulticast", .offset = 0x320, .width = 4, .rules = R_RO,
                          .desc = "multicast frames received"},
    [HR_STAT_RX_BYTES] = {.name = "StatRxBytes", .offset = 0x330, .width = 4, .rules = R_RO,
                          .desc = "bytes received (with FCS)"},
    [HR_STAT_RX_JABBER] = {.name = "StatRxJabber", .offset = 0x35c, .width = 4, .rules = R_RO,
                           .desc = "jabber"},
    [HR_STAT_RX_CRC] = {.name = "StatRxCRC", .offset = 0x360, .width = 4, .rules = R_RO,
                        .desc = "CRC errors"},
    [HR_STAT_RX_SYMBOL] = {.name = "StatRxSymbol", .offset = 0x364, .width = 4, .rules = R_RO,
                           .desc = "symbol errors"},
    [HR_STAT_RX_LENGTH] = {.name = "StatRxLength", .offset = 0x368, .width = 4, .rules = R_RO,
                           .desc = "oversize and undersize frames"},
    [HR_STAT_RX_DROPPED] = {.name = "StatRxDropped", .offset = 0x36c, .width = 4, .rules = R_RO,
                            .desc = "frames dropped (no buffer, FIFO)"},
    [HR_STAT_RX_OVF] = {.name = "StatRxOverflow", .offset = 0x370, .width = 4, .rules = R_RO | R_RC,
                        .desc = "Rx counters past half range (read clears)"},
    [HR_STAT_TX_BYTES] = {.name = "StatTxBytes", .offset = 0x3b0, .width = 4, .rules = R_RO,
                          .desc = "bytes sent (with FCS)"},
    [HR_STAT_TX_OVF] = {.name = "StatTxOverflow", .offset = 0x3f0, .width = 4, .rules = R_RO | R_RC,
                        .desc = "Tx counters past half range (read clears)"},
};
/* clang-format on */
DEV_REGS_CHECK(ham_regs, HR_NREGS);

/* ---- reset, link, views ------------------------------------------------------ */

static void clk_settled(void *opaque) { ((hamachi *)opaque)->clk_valid = true; }

static void ham_reset(device *d)
{
    hamachi *h = H(d);
    nic *n = &h->n;
    nic_engine_stop(&h->n.tx_eng);
    nic_engine_stop(&h->n.rx_eng);
    nic_reset_common(n);
    nic_rx_end(n);
    h->rx_nobuf = false;
    h->tx_intr = false;
    h->tx_state = h->rx_state = HAM_CH_STOPPED;
    nic_ring_reset(&h->tx);
    nic_ring_reset(&h->rx);
    nic_ring_set_desc_size(&h->tx, 8);
    nic_ring_set_desc_size(&h->rx, 8);
    nic_coal_reset(&h->txc);
    nic_coal_reset(&h->rxc);
    nic_coal_config(&h->txc, 0, 0, 0, 0);
    nic_coal_config(&h->rxc, 0, 0, 0, 0);
    nic_link_reset(&h->link);
    nic_eeprom_reset(&h->ee);
    nic_mac_filter_reset(&h->filt);
    nic_irq_set_mask(n, 0);
    n->wire_free = d->clock->now;
    h->clk_valid = false;
    timer_mod(d->clock, &h->clk_timer,
              d->clock->now + sched_ns_to_ticks(d->clock, HAM_CLK_SETTLE_NS));
}

static void ham_link_changed(nic *n)
{
    hamachi *h = (hamachi *)n;
    nic_irq_assert(n, HAM_INTR_LINK_CHANGE | (h->link.an_done ? HAM_INTR_NEG_CHANGE : 0));
}

static void view_filter(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    hamachi *h = H(d);
    nic_mac_show(&h->filt, out);
    sb_printf(out, "  link %s, autonegotiation %s%s\n", h->link.up ? "up" : "down",
              h->link.an_enable ? "on" : "off",
              h->link.an_busy   ? " (negotiating)"
              : h->link.an_done ? " (complete)"
                                : "");
}

static const dev_view ham_views[] = {
    NIC_VIEWS,
    {"filter", "address filter (AddrMode, station, CAM) and link", view_filter},
};

/* The model's state: the shared shell `n` (nic_state.c), then its own. */
static const state_decl ham_state[] = {
    STATE_PART(hamachi, n, nic_state, "the NIC shell"),
    STATE_PART(hamachi, tx, nic_ring_state_decl, "the Tx ring"),
    STATE_PART(hamachi, rx, nic_ring_state_decl, "the Rx ring"),
    STATE_PART(hamachi, txc, nic_coal_state, "Tx interrupt coalescing"),
    STATE_PART(hamachi, rxc, nic_coal_state, "Rx interrupt coalescing"),
    STATE_PART(hamachi, link, nic_link_state, "the link"),
    STATE_PART(hamachi, ee, nic_eeprom_state, "the EEPROM"),
    STATE_PART(hamachi, filt, nic_mac_filter_state, "the address filter"),
    STATE_TIMER(hamachi, clk_timer, "PCIClkMeas settles"),
    STATE_INT(hamachi, tx_state, "Tx channel state (enum ham_ch_state)"),
    STATE_INT(hamachi, rx_state, "Rx channel state (enum ham_ch_state)"),
    STATE_BOOL(hamachi, clk_valid, "PCIClkMeas bit 7"),
    STATE_BOOL(hamachi, tx_intr, "a descriptor of the frame being sent had DescIntr"),
    STATE_INT(hamachi, rx_phase, "Rx frame in progress: phase (enum ham_rx_phase)"),
    STATE_INT(hamachi, rx_gap, "Rx frame in progress: FCS gap bytes written"),
    STATE_INT(hamachi, rx_toff, "Rx frame in progress: trailer offset"),
    STATE_INT(hamachi, rx_pad, "Rx frame in progress: pad, -1 = not yet known"),
    STATE_BOOL(hamachi, rx_intr, "Rx frame in progress: DescIntr seen"),
    STATE_BOOL(hamachi, rx_nobuf, "the last Rx fetch found no descriptor it owns"),
};

static const device_class hamachi_class = {
    .name = "hamachi",
    .desc = "Packet Engines Hamachi GNIC-II gigabit Ethernet (PCI 1318:0911)",
    DEV_REGS(ham_regs),
    .reg_space = HAM_BAR_SIZE,
    .little_endian = true,
    DEV_EVENTS(nic_event_decls),
    DEV_VIEWS(ham_views),
    DEV_STATE(ham_state, hamachi),
    .reset = ham_reset,
    .ring_state = nic_ring_state,
};

/* ---- life cycle ---------------------------------------------------------------- */

static void ham_init(nic *n)
{
    hamachi *h = (hamachi *)n;
    sched *clock = n->clock;
    nic_coal_init(&h->txc, n, NIC_RING_TX, hamachi_coal_fire);
    nic_coal_init(&h->rxc, n, NIC_RING_RX, hamachi_coal_fire);
    nic_link_init(&h->link, n, sched_ns_to_ticks(clock, HAM_AN_NS), ham_link_changed);
    nic_eeprom_init(&h->ee, n, HAM_EE_SIZE, 0xff, sched_ns_to_ticks(clock, HAM_EE_NS));
    nic_eeprom_put_mac(&h->ee, 4, n->mac); /* the MAC is at EEPROM bytes 4..9 (hamachi.c) */
    timer_init(&h->clk_timer, "hamachi-pciclk", clk_settled, h);
    hamachi_dma_init(h);
}

/* 802.3x: Linux's hamachi.c writes FlowCtrl = 0x0030FFFF at open, "automatic
 * generation of flow control frames, period 0xffff" [SRC LX-HAM]; which of
 * bits 21:20 enables the generation is not documented [UNC]: either does
 * here.  The FIFO levels at which the chip sends XOFF and XON are not
 * documented either [INF: nic_fc_default_levels, the frame MaxFrameSize]. */
static void ham_fc_levels(const nic *n, uint32_t *high, uint32_t *low)
{
    *high = *low = 0;
    if (DEV_R(n->dev, HR_FLOW_CTRL) & 0x00300000u)
        nic_fc_default_levels(n, (uint32_t)DEV_R(n->dev, HR_MAX_FRAME), high, low);
}

static const nic_ops ham_ops = {
    .prefix = "hamachi",
    .size = sizeof(hamachi),
    .revision = HAM_REVISION,
    .init = ham_init,
    .rx = hamachi_rx_frame,
    .fc_levels = ham_fc_levels,
    .causes = ham_causes,
};

const nic_model hamachi_models[] = {
    {"hamachi", "Packet Engines Hamachi GNIC-II (1318:0911)", &hamachi_class, HAM_VENDOR,
     HAM_DEVICE, &ham_ops, false},
    {0},
};
