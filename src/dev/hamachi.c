/* Packet Engines Hamachi GNIC-II: the register declaration (nics.md A.2),
 * interrupts, EEPROM, auto-negotiation, address filter, reset and the
 * factory entry.  The DMA engines are in hamachi_dma.c.  Choices marked
 * [INF]/[UNC] are listed in docs/hardware.md "Hamachi GNIC-II". */
#include "dev/hamachi.h"

#include <stdio.h>
#include <stdlib.h>

#define HAM_VENDOR 0x1318
#define HAM_DEVICE 0x0911
#define HAM_REVISION 0x00   /* [UNC] */
#define HAM_CHIP_REV 0x0002 /* [UNC] value of ChipRev; Linux only prints it */
#define HAM_BAR_SIZE 0x400
#define HAM_PCI_CLK 60      /* 2000/60 = 33 MHz: the Bridge's PCI bus [INF] */
#define HAM_CLK_SETTLE_NS 20000 /* PCIClkMeas invalid after a reset [INF] */
#define HAM_AN_NS 1000000       /* auto-negotiation time, 1 ms [INF] */
#define HAM_EE_NS 1000          /* one EEPROM byte read, 1 us [INF] */
#define HAM_EE_SIZE 512         /* [UNC] */
#define HAM_COAL_UNIT_NS 8192   /* TxIntrCtrl/RxIntrCtrl time unit (A.6) */

static hamachi *H(device *d) { return d->priv; }

static const nic_bitname ham_causes[] = {
    {HAM_INTR_RX_DONE, "RxDone"},         {HAM_INTR_RX_PCI_FAULT, "RxPCIFault"},
    {HAM_INTR_RX_PCI_ERR, "RxPCIErr"},    {HAM_INTR_TX_DONE, "TxDone"},
    {HAM_INTR_TX_PCI_FAULT, "TxPCIFault"}, {HAM_INTR_TX_PCI_ERR, "TxPCIErr"},
    {HAM_INTR_LINK_CHANGE, "LinkChange"}, {HAM_INTR_NEG_CHANGE, "NegotiationChange"},
    {HAM_INTR_STATS_MAX, "StatsMax"},     {0, NULL}};

/* ---- register hooks -------------------------------------------------------- */

static void w_dma_ctrl(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)idx;
    (void)old;
    hamachi *h = H(d);
    nic_ring *ring = r == &d->cls->regs[HR_TX_DMA_CTRL] ? &h->tx : &h->rx;
    nic_ring_set_desc_size(ring, (v & 0x40) ? 16 : 8); /* bit 6: 64-bit descriptors [INF] */
}

static void w_cmd(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)idx;
    (void)old;
    hamachi *h = H(d);
    bool tx = r == &d->cls->regs[HR_TX_CMD];
    unsigned id = tx ? HR_TX_CMD : HR_RX_CMD;
    DEV_R(d, id) = 0; /* a command, not a state: reads return 0 [INF] */
    nic_doorbell(&h->n, id, v, tx ? NIC_RING_TX : NIC_RING_RX);
    if (tx)
        hamachi_tx_cmd(h, (unsigned)v);
    else
        hamachi_rx_cmd(h, (unsigned)v);
}

static uint64_t r_ch_status(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)idx;
    (void)peek;
    return hamachi_ch_status(H(d), r == &d->cls->regs[HR_TX_STATUS]);
}

static void w_ring_ptr(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)idx;
    (void)v;
    (void)old;
    hamachi *h = H(d);
    bool tx = r == &d->cls->regs[HR_TX_PTR] || r == &d->cls->regs[HR_TX_PTR_HI];
    unsigned lo = tx ? HR_TX_PTR : HR_RX_PTR;
    uint64_t base = DEV_R(d, lo) | DEV_R(d, lo + 1) << 32;
    nic_ring_set_base(tx ? &h->tx : &h->rx, base);
}

static uint64_t r_cur_ptr(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)idx;
    (void)peek;
    hamachi *h = H(d);
    const reg_decl *regs = d->cls->regs;
    bool tx = r == &regs[HR_TX_CUR] || r == &regs[HR_TX_CUR_HI];
    bool hi = r == &regs[HR_TX_CUR_HI] || r == &regs[HR_RX_CUR_HI];
    uint64_t cur = tx ? h->tx.cur : h->rx.cur;
    return hi ? cur >> 32 : (uint32_t)cur;
}

static uint64_t r_pci_clk(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    return H(d)->clk_valid ? 0x80 | HAM_PCI_CLK : 0;
}

static uint64_t r_misc_status(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    /* Bit 0: 64-bit bus (the Bridge is 64-bit) unless forced to 32 by the
     * virtual jumpers (bit 0 = force 32, bit 2 = force 64). */
    uint64_t vj = DEV_R(d, HR_VJUMPERS);
    return (vj & 1) && !(vj & 4) ? 0 : 1;
}

static void w_chip_reset(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    DEV_R(d, HR_CHIP_RESET) = 0;
    if (v & 1)
        device_reset(d); /* registers to power-on values, engines stopped */
}

static void w_intr_ctrl(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)idx;
    (void)old;
    hamachi *h = H(d);
    nic_coal *c = r == &d->cls->regs[HR_TX_INTR_CTRL] ? &h->txc : &h->rxc;
    uint64_t unit = sched_ns_to_ticks(d->clock, HAM_COAL_UNIT_NS);
    nic_coal_config(c, (uint32_t)EXTRACT(v, 16, 8), EXTRACT(v, 8, 8) * unit,
                    EXTRACT(v, 0, 8) * unit, 0);
}

static void w_intr_enable(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    nic_irq_set_mask(&H(d)->n, (uint32_t)v);
}

/* InterruptClear: reading returns the pending causes and clears them. */
static uint64_t r_intr_clear(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    hamachi *h = H(d);
    uint32_t v = h->n.irq.cause;
    if (!peek && v)
        nic_irq_deassert(&h->n, v);
    return v;
}

static uint64_t r_intr_status(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    return H(d)->n.irq.cause;
}

static void w_mac_cnfg(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)v;
    (void)old;
    DEV_R(d, HR_MAC_CNFG) &= ~0x8000ull; /* soft MAC reset self-clears [INF] */
}

/* MII management: the fiber GNIC-II has no external PHY [INF], so every
 * read returns 0xffff, and writes (started by the data write, [INF]) go
 * nowhere.  The interface is never busy. */
static void w_mii_cmd(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    DEV_R(d, HR_MII_CMD) = 0;
    if (v & 1)
        DEV_R(d, HR_MII_RD) = 0xffff;
}

static void w_addr_mode(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    nic_mac_filter *f = &H(d)->filt;
    /* [INF] per-bit meaning from the driver's values 0x01/0x03/0x0B/0x0F. */
    f->unicast = f->broadcast = v & 1;
    f->cam = (v & 2) != 0;
    f->promisc = (v & 4) != 0;
    f->all_multi = (v & 8) != 0;
}

static void w_station(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)old;
    hamachi *h = H(d);
    nic_mac_filter *f = &h->filt;
    f->station[0][idx] = (uint8_t)v;
    f->station_valid[0] = true;
    if (h->n.port) /* peers such as gen address the station */
        net_port_set_mac(h->n.port, f->station[0]);
}

static void w_cam(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)v;
    (void)old;
    nic_mac_filter *f = &H(d)->filt;
    uint32_t lo = (uint32_t)*dev_rv(d, HR_CAM_LO, idx), hi = (uint32_t)*dev_rv(d, HR_CAM_HI, idx);
    store_le(f->cam_addr[idx], 4, lo);
    store_le(f->cam_addr[idx] + 4, 2, hi & 0xffff);
    f->cam_valid[idx] = (hi & 0x20000) != 0; /* [INF] valid bit */
}

static void w_an_ctrl(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    DEV_R(d, HR_AN_CTRL) &= ~0x0200ull; /* restart self-clears */
    /* [INF] MII-BMCR-like: 0x1000 enable, 0x0200 restart. */
    nic_link_autoneg(&H(d)->link, (v & 0x1000) != 0, (v & 0x0200) != 0);
}

static uint64_t r_an_status(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    const nic_link *l = &H(d)->link;
    /* [INF] BMSR-like: 0x20 = negotiation complete / link up (what the
     * driver tests), 0x04 = link, 0x08 = able to negotiate. */
    return 0x0008 | (l->up ? 0x0004 : 0) | (l->up && l->an_done ? 0x0020 : 0);
}

static uint64_t r_an_lpa(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    /* [INF] the partner advertises what we do, with the acknowledge bit. */
    return H(d)->link.an_done ? (DEV_R(d, HR_AN_ADV) | 0x4000) & 0xffff : 0;
}

static void w_ee_cmd(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    (void)r;
    (void)idx;
    (void)old;
    hamachi *h = H(d);
    DEV_R(d, HR_EE_CMD) = 0;
    if ((v & 0x02) && !h->ee.busy)
        nic_eeprom_start_read(&h->ee, (uint32_t)DEV_R(d, HR_EE_ADDR));
}

static uint64_t r_ee_cmd(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    return H(d)->ee.busy ? 0x40 : 0;
}

static uint64_t r_ee_data(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    (void)r;
    (void)idx;
    (void)peek;
    return H(d)->ee.result;
}

/* ---- the declaration ----------------------------------------------------- */

static const char *const ch_state_names[] = {"stopped", "running", "suspended", NULL};
static const reg_field f_dma_ctrl[] = {{"Burst", 0, 3, NULL},  {"PerfCmds", 3, 1, NULL},
                                       {"Bit4", 4, 1, NULL},   {"Addr64", 6, 1, NULL},
                                       {NULL, 0, 0, NULL}};
static const reg_field f_cmd[] = {{"Start", 0, 1, NULL}, {"Stop", 1, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_ch_status[] = {{"State", 0, 2, ch_state_names}, {NULL, 0, 0, NULL}};
static const reg_field f_intr_ctrl[] = {{"MaxLatency", 0, 8, NULL},
                                        {"MaxGap", 8, 8, NULL},
                                        {"MinPkt", 16, 8, NULL},
                                        {NULL, 0, 0, NULL}};
static const reg_field f_intr[] = {
    {"RxDone", 0, 1, NULL},       {"RxPCIFault", 1, 1, NULL},  {"RxPCIErr", 2, 1, NULL},
    {"TxDone", 8, 1, NULL},       {"TxPCIFault", 9, 1, NULL},  {"TxPCIErr", 10, 1, NULL},
    {"LinkChange", 16, 1, NULL},  {"NegChange", 17, 1, NULL},  {"StatsMax", 18, 1, NULL},
    {"Bit31", 31, 1, NULL},       {NULL, 0, 0, NULL}};
static const reg_field f_addr_mode[] = {{"UniBroad", 0, 1, NULL}, {"MultiCAM", 1, 1, NULL},
                                        {"Promisc", 2, 1, NULL},  {"AllMulti", 3, 1, NULL},
                                        {NULL, 0, 0, NULL}};
static const reg_field f_an_status[] = {{"Link", 2, 1, NULL}, {"ANAble", 3, 1, NULL},
                                        {"ANDone", 5, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_cam_hi[] = {{"Addr45", 0, 16, NULL}, {"Valid", 17, 1, NULL},
                                     {NULL, 0, 0, NULL}};

#define REG(id, nm, off, w, fl, rst, fld, ds, rd, wr) \
    [id] = {nm, off, w, 1, 0, fl, rst, 0, fld, ds, rd, wr}
#define ARR(id, nm, off, w, cnt, str, fl, fld, ds, wr) \
    [id] = {nm, off, w, cnt, str, fl, 0, 0, fld, ds, NULL, wr}
#define RO (R_RO | R_NOSTORE)
#define STAT(id, nm, off, ds) REG(id, nm, off, 4, R_RO, 0, NULL, ds, NULL, NULL)

static const reg_decl ham_regs[HR_NREGS] = {
    REG(HR_TX_DMA_CTRL, "TxDMACtrl", 0x00, 2, 0, 0, f_dma_ctrl, "Tx DMA control", NULL, w_dma_ctrl),
    REG(HR_TX_CMD, "TxCmd", 0x04, 2, 0, 0, f_cmd, "Tx command: 1 start, 2 stop", NULL, w_cmd),
    REG(HR_TX_STATUS, "TxStatus", 0x06, 2, RO, 0, f_ch_status, "Tx channel state", r_ch_status,
        NULL),
    REG(HR_TX_PTR, "TxPtr", 0x08, 4, 0, 0, NULL, "Tx ring base", NULL, w_ring_ptr),
    REG(HR_TX_PTR_HI, "TxPtrHi", 0x0c, 4, 0, 0, NULL, "Tx ring base, high 32 bits", NULL,
        w_ring_ptr),
    REG(HR_TX_CUR, "TxCurPtr", 0x10, 4, RO, 0, NULL, "current Tx descriptor", r_cur_ptr, NULL),
    REG(HR_TX_CUR_HI, "TxCurPtrHi", 0x14, 4, RO, 0, NULL, "current Tx descriptor, high", r_cur_ptr,
        NULL),
    REG(HR_RX_DMA_CTRL, "RxDMACtrl", 0x20, 2, 0, 0, f_dma_ctrl, "Rx DMA control", NULL, w_dma_ctrl),
    REG(HR_RX_CMD, "RxCmd", 0x24, 2, 0, 0, f_cmd, "Rx command: 1 start, 2 stop", NULL, w_cmd),
    REG(HR_RX_STATUS, "RxStatus", 0x26, 2, RO, 0, f_ch_status, "Rx channel state", r_ch_status,
        NULL),
    REG(HR_RX_PTR, "RxPtr", 0x28, 4, 0, 0, NULL, "Rx ring base", NULL, w_ring_ptr),
    REG(HR_RX_PTR_HI, "RxPtrHi", 0x2c, 4, 0, 0, NULL, "Rx ring base, high 32 bits", NULL,
        w_ring_ptr),
    REG(HR_RX_CUR, "RxCurPtr", 0x30, 4, RO, 0, NULL, "current Rx descriptor", r_cur_ptr, NULL),
    REG(HR_RX_CUR_HI, "RxCurPtrHi", 0x34, 4, RO, 0, NULL, "current Rx descriptor, high", r_cur_ptr,
        NULL),
    REG(HR_PCI_CLK, "PCIClkMeas", 0x60, 1, RO, 0, NULL, "bit 7 valid; MHz = 2000/(v&0x7f)",
        r_pci_clk, NULL),
    REG(HR_MISC_STATUS, "MiscStatus", 0x66, 2, RO, 0, NULL, "bit 0: 64-bit bus", r_misc_status,
        NULL),
    REG(HR_CHIP_REV, "ChipRev", 0x68, 2, R_RO, HAM_CHIP_REV, NULL, "chip revision", NULL, NULL),
    REG(HR_CHIP_REV_HI, "ChipRevHi", 0x6a, 1, R_RO, 0, NULL, "chip revision, byte 2", NULL, NULL),
    REG(HR_CHIP_RESET, "ChipReset", 0x6b, 1, 0, 0, NULL, "write 1: chip reset", NULL,
        w_chip_reset),
    REG(HR_LED, "LEDCtrl", 0x6c, 1, 0, 0, NULL, "3 blinking red, 1 link, 0 off", NULL, NULL),
    REG(HR_VJUMPERS, "VirtualJumpers", 0x6d, 1, 0, 0, NULL, "1 force 32-bit, 2 no parity, 4 force 64",
        NULL, NULL),
    REG(HR_GPIO, "GPIO", 0x6e, 2, 0, 0, NULL, "bits 7:6 external FIFO (0 = none)", NULL, NULL),
    REG(HR_TX_CSUM, "TxChecksum", 0x74, 2, 0, 0, NULL, "1 = Tx checksum tag", NULL, NULL),
    REG(HR_RX_CSUM, "RxChecksum", 0x76, 2, 0, 0, NULL, "1 = Rx checksum word", NULL, NULL),
    REG(HR_TX_INTR_CTRL, "TxIntrCtrl", 0x78, 4, 0, 0, f_intr_ctrl, "Tx interrupt coalescing",
        NULL, w_intr_ctrl),
    REG(HR_RX_INTR_CTRL, "RxIntrCtrl", 0x7c, 4, 0, 0, f_intr_ctrl, "Rx interrupt coalescing",
        NULL, w_intr_ctrl),
    REG(HR_INTR_ENABLE, "InterruptEnable", 0x80, 4, 0, 0, f_intr, "interrupt mask", NULL,
        w_intr_enable),
    REG(HR_INTR_CLEAR, "InterruptClear", 0x84, 4, RO, 0, f_intr,
        "read: pending causes, cleared by the read", r_intr_clear, NULL),
    REG(HR_INTR_STATUS, "IntrStatus", 0x88, 4, RO, 0, f_intr, "pending causes (no clear)",
        r_intr_status, NULL),
    REG(HR_EVENT_STATUS, "EventStatus", 0x8c, 2, 0, 0, NULL, "non-interrupting events", NULL,
        NULL),
    REG(HR_MAC_CNFG, "MACCnfg", 0xa0, 2, 0, 0, NULL, "MAC configuration (0x8000 soft reset)",
        NULL, w_mac_cnfg),
    REG(HR_FRAME_GAP0, "FrameGap0", 0xa2, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_FRAME_GAP1, "FrameGap1", 0xa4, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_MII_CMD, "MII_Cmd", 0xa6, 2, 0, 0, NULL, "1 = read", NULL, w_mii_cmd),
    REG(HR_MII_ADDR, "MII_Addr", 0xa8, 2, 0, 0, NULL, "(phy << 8) + reg", NULL, NULL),
    REG(HR_MII_WR, "MII_Wr_Data", 0xaa, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_MII_RD, "MII_Rd_Data", 0xac, 2, R_RO, 0, NULL, NULL, NULL, NULL),
    REG(HR_MII_STATUS, "MII_Status", 0xae, 2, R_RO, 0, NULL, "bit 0 busy", NULL, NULL),
    REG(HR_MAC_CNFG2, "MACCnfg2", 0xb0, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_RX_DEPTH, "RxDepth", 0xb8, 2, 0, 0, NULL, "unused by drivers", NULL, NULL),
    REG(HR_FLOW_CTRL, "FlowCtrl", 0xbc, 4, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_MAX_FRAME, "MaxFrameSize", 0xce, 2, 0, 1518, NULL, "longest frame received, with FCS",
        NULL, NULL),
    REG(HR_ADDR_MODE, "AddrMode", 0xd0, 2, 0, 0, f_addr_mode, "receive address filter", NULL,
        w_addr_mode),
    ARR(HR_STATION, "StationAddr", 0xd2, 1, 6, 1, 0, NULL, "station address byte", w_station),
    REG(HR_AN_CTRL, "ANCtrl", 0xe0, 2, 0, 0, NULL, "0x1000 enable, 0x0200 restart", NULL,
        w_an_ctrl),
    REG(HR_AN_STATUS, "ANStatus", 0xe2, 2, RO, 0, f_an_status, "0x20 = link up", r_an_status,
        NULL),
    REG(HR_AN_XCHG, "ANXchngCtrl", 0xe4, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_AN_E6, "AN_E6", 0xe6, 2, 0, 0, NULL, "undocumented", NULL, NULL),
    REG(HR_AN_ADV, "ANAdvertise", 0xe8, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_AN_LPA, "ANLinkPartnerAbility", 0xea, 2, RO, 0, NULL, NULL, r_an_lpa, NULL),
    REG(HR_EE_CMD, "EECmdStatus", 0xf0, 1, R_NOSTORE, 0, NULL, "write 2: read; bit 6 busy",
        r_ee_cmd, w_ee_cmd),
    REG(HR_EE_DATA, "EEData", 0xf1, 1, RO, 0, NULL, "byte read", r_ee_data, NULL),
    REG(HR_EE_ADDR, "EEAddr", 0xf2, 2, 0, 0, NULL, NULL, NULL, NULL),
    REG(HR_FIFO_CFG, "FIFOcfg", 0xf8, 2, 0, 0, NULL, NULL, NULL, NULL),
    ARR(HR_CAM_LO, "CamLo", 0x100, 4, 64, 8, 0, NULL, "multicast CAM: address bytes 0-3", w_cam),
    ARR(HR_CAM_HI, "CamHi", 0x104, 4, 64, 8, 0, f_cam_hi, "multicast CAM: bytes 4-5, valid", w_cam),
    STAT(HR_STAT_RX_MCAST, "StatRxMulticast", 0x320, "multicast frames received"),
    STAT(HR_STAT_RX_BYTES, "StatRxBytes", 0x330, "bytes received (with FCS)"),
    STAT(HR_STAT_RX_JABBER, "StatRxJabber", 0x35c, "jabber"),
    STAT(HR_STAT_RX_CRC, "StatRxCRC", 0x360, "CRC errors"),
    STAT(HR_STAT_RX_SYMBOL, "StatRxSymbol", 0x364, "symbol errors"),
    STAT(HR_STAT_RX_LENGTH, "StatRxLength", 0x368, "oversize and undersize frames"),
    STAT(HR_STAT_RX_DROPPED, "StatRxDropped", 0x36c, "frames dropped (no buffer, FIFO)"),
    REG(HR_STAT_RX_OVF, "StatRxOverflow", 0x370, 4, R_RO | R_RC, 0, NULL,
        "Rx counters past half range (read clears)", NULL, NULL),
    STAT(HR_STAT_TX_BYTES, "StatTxBytes", 0x3b0, "bytes sent (with FCS)"),
    REG(HR_STAT_TX_OVF, "StatTxOverflow", 0x3f0, 4, R_RO | R_RC, 0, NULL,
        "Tx counters past half range (read clears)", NULL, NULL),
};

/* ---- reset, link, views ------------------------------------------------------ */

static void clk_settled(void *opaque)
{
    ((hamachi *)opaque)->clk_valid = true;
}

static void ham_reset(device *d)
{
    hamachi *h = H(d);
    nic *n = &h->n;
    timer_del(d->clock, &h->tx_timer);
    timer_del(d->clock, &h->rx_timer);
    nic_reset_common(n);
    h->rx_active = false;
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
    h->wire_free = d->clock->now;
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
    (void)args;
    hamachi *h = H(d);
    nic_mac_show(&h->filt, out);
    sb_printf(out, "  link %s, autonegotiation %s%s\n", h->link.up ? "up" : "down",
              h->link.an_enable ? "on" : "off",
              h->link.an_busy ? " (negotiating)" : h->link.an_done ? " (complete)" : "");
}

static const dev_view ham_views[] = {
    NIC_VIEWS,
    {"filter", "address filter (AddrMode, station, CAM) and link", view_filter},
};

static const device_class hamachi_class = {
    .name = "hamachi",
    .desc = "Packet Engines Hamachi GNIC-II gigabit Ethernet (PCI 1318:0911)",
    .regs = ham_regs,
    .nregs = HR_NREGS,
    .reg_space = HAM_BAR_SIZE,
    .little_endian = true,
    .events = nic_event_decls,
    .nevents = NIC_NEVENTS,
    .views = ham_views,
    .nviews = ARRAY_SIZE(ham_views),
    .reset = ham_reset,
    .ring_state = nic_ring_state,
};

/* ---- life cycle ---------------------------------------------------------------- */

static void ham_destroy(nic *n)
{
    hamachi *h = (hamachi *)n;
    if (!h)
        return;
    timer_del(n->clock, &h->tx_timer);
    timer_del(n->clock, &h->rx_timer);
    timer_del(n->clock, &h->clk_timer);
    nic_coal_fini(&h->txc);
    nic_coal_fini(&h->rxc);
    nic_link_fini(&h->link);
    nic_eeprom_fini(&h->ee);
    nic_fini(n);
    free(h);
}

static nic *ham_create(const nic_model *m, const char *name, const nic_opts *o, sched *clock,
                       event_bus *eb, char *err, size_t errlen)
{
    hamachi *h =
        nic_new(sizeof *h, m, name, HAM_REVISION, HAM_BAR_SIZE, o, clock, eb, err, errlen);
    if (!h)
        return NULL;
    nic *n = &h->n;
    nic_coal_init(&h->txc, n, NIC_RING_TX, hamachi_coal_fire);
    nic_coal_init(&h->rxc, n, NIC_RING_RX, hamachi_coal_fire);
    nic_link_init(&h->link, n, sched_ns_to_ticks(clock, HAM_AN_NS), ham_link_changed);
    if (nic_eeprom_init(&h->ee, n, HAM_EE_SIZE, 0xff, sched_ns_to_ticks(clock, HAM_EE_NS))) {
        snprintf(err, errlen, "%s: out of memory", name);
        ham_destroy(n);
        return NULL;
    }
    nic_eeprom_put_mac(&h->ee, 4, n->mac); /* the MAC is at EEPROM bytes 4..9 (A.2) */
    timer_init(&h->clk_timer, "hamachi-pciclk", clk_settled, h);
    hamachi_dma_init(h);
    device_reset(n->dev);
    return n;
}

const nic_model hamachi_model = {
    .name = "hamachi",
    .prefix = "hamachi",
    .desc = "Packet Engines Hamachi GNIC-II (1318:0911)",
    .cls = &hamachi_class,
    .vendor = HAM_VENDOR,
    .device = HAM_DEVICE,
    .create = ham_create,
    .destroy = ham_destroy,
    .rx = hamachi_rx_frame,
    .causes = ham_causes,
};
