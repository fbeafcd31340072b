/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intel 82543GC / 82544EI (e1000): the register declaration (the SDM's
 * offsets and bits), interrupts, the Microwire EEPROM, statistics, the
 * 82544's I/O window, reset and the factory entries.  The PHY and link are in
 * e1000_phy.c, the engines in e1000_tx.c and e1000_rx.c.  Choices marked
 * [INF]/[UNC] are listed in docs/hardware.md "Intel 82543GC / 82544EI". */
#include "dev/nic/e1000/e1000.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

#define INTEL 0x8086
#define DEV_82543GC_COPPER 0x1004
#define DEV_82544EI_COPPER 0x1008
#define E1000_REVISION 0x02    /* [UNC] */
#define E1000_BAR_SIZE 0x20000 /* 128 KiB register space (SDM 4.1) */
#define E1000_IO_BAR 4         /* [INF] after the 64-bit BAR0/1 and the absent flash BAR2/3 */
#define E1000_IO_SIZE 8        /* IOADDR + IODATA (SDM 4.1) */
#define E1000_MDIC_NS 25600    /* one MDIO frame: 64 bits at 2.5 MHz [INF] */

static const nic_bitname e1000_causes[] = {{E1000_ICR_TXDW, "TXDW"},
                                           {E1000_ICR_TXQE, "TXQE"},
                                           {E1000_ICR_LSC, "LSC"},
                                           {E1000_ICR_RXSEQ, "RXSEQ"},
                                           {E1000_ICR_RXDMT0, "RXDMT0"},
                                           {E1000_ICR_RXO, "RXO"},
                                           {E1000_ICR_RXT0, "RXT0"},
                                           {E1000_ICR_MDAC, "MDAC"},
                                           {E1000_ICR_RXCFG, "RXCFG"},
                                           {0x800, "GPI0"},
                                           {0x1000, "GPI1"},
                                           {0x2000, "GPI2"},
                                           {0x4000, "GPI3"},
                                           {0, NULL}};

/* ---- statistics ------------------------------------------------------------ */

static bool stat_is_pair(unsigned reg)
{
    return reg == ER_GORCL || reg == ER_GOTCL || reg == ER_TORL || reg == ER_TOTL;
}

/* Counters stick at their maximum (SDM 13.7); a 64-bit pair is (L, L+1). */
void e1000_stat_add(e1000 *h, unsigned reg, uint64_t v)
{
    device *d = h->n.dev;
    if (stat_is_pair(reg)) {
        uint64_t cur = DEV_R(d, reg) | DEV_R(d, reg + 1) << 32;
        uint64_t nv = cur + v < cur ? UINT64_MAX : cur + v;
        DEV_R(d, reg) = (uint32_t)nv;
        DEV_R(d, reg + 1) = nv >> 32;
        return;
    }
    uint64_t nv = DEV_R(d, reg) + v;
    DEV_R(d, reg) = nv > UINT32_MAX ? UINT32_MAX : nv;
}

/* Size buckets 64, 65-127, 128-255, 256-511, 512-1023, 1024-1522 (with FCS). */
void e1000_stat_size(e1000 *h, unsigned first, uint32_t len)
{
    static const uint32_t top[] = {64, 127, 255, 511, 1023, 1522};
    for (unsigned i = 0; i < ARRAY_SIZE(top); i++)
        if (len <= top[i]) {
            e1000_stat_add(h, first + i, 1);
            return;
        }
}

/* The high half of a 64-bit counter: reading it clears both halves. */
static uint64_t r_stat_hi(device *d, const reg_access *a)
{
    uint64_t v = DEV_R(d, a->id);
    if (!a->peek)
        DEV_R(d, a->id) = DEV_R(d, a->id - 1) = 0;
    return v;
}

/* ---- interrupts -------------------------------------------------------------- */

static void w_icr(device *d, const reg_access *a)
{
    nic_irq_deassert(&E1000(d)->n, (uint32_t)a->val); /* write 1 to clear */
}

static void w_ics(device *d, const reg_access *a)
{
    nic_irq_assert(&E1000(d)->n, (uint32_t)a->val & E1000_ICR_VALID);
}

static uint64_t r_ims(device *d, const reg_access *a) { return E1000(d)->n.irq.mask; }

static void w_ims(device *d, const reg_access *a)
{
    nic *n = &E1000(d)->n;
    nic_irq_set_mask(n, n->irq.mask | ((uint32_t)a->val & E1000_ICR_VALID));
}

static void w_imc(device *d, const reg_access *a)
{
    nic *n = &E1000(d)->n;
    nic_irq_set_mask(n, n->irq.mask & ~(uint32_t)a->val);
}

/* ---- device control, status ---------------------------------------------------- */

static void w_ctrl(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    if (a->val & E1000_CTRL_RST) {
        /* Global reset, self-clearing: every register but the PCI
         * configuration; the PHY is not reset [INF]. */
        h->keep_phy = true;
        device_reset(d);
        h->keep_phy = false;
        return;
    }
    e1000_ctrl_written(h, (uint32_t)a->val, (uint32_t)a->old);
}

static uint64_t r_ctrl(device *d, const reg_access *a)
{
    return e1000_ctrl_pins(E1000(d), (uint32_t)DEV_R(d, ER_CTRL));
}

static uint64_t r_status(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    uint32_t v = (h->lu ? E1000_STATUS_LU : 0) | (e1000_full_duplex(h) ? E1000_STATUS_FD : 0) |
                 e1000_speed(h) << E1000_STATUS_SPEED_SHIFT;
    /* The Bridge is a 64-bit, 33 MHz PCI bus; the 82544 can report PCI-X
     * (66 MHz class) so that Linux's e1000 uses 64-bit DMA [INF]. */
    v |= E1000_STATUS_BUS64;
    if (e1000_is_82544(h) && h->pcix)
        v |= E1000_STATUS_PCIX_MODE;
    if (DEV_R(d, ER_CTRL_EXT) & E1000_CTRL_EXT_ASDCHK)
        v |= e1000_phy_speed(h) << E1000_STATUS_ASDV_SHIFT;
    return v;
}

static void w_ctrl_ext(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    if (a->val & E1000_CTRL_EXT_EE_RST) {
        /* EEPROM reload (self-clearing): the station address returns to RAR0. */
        DEV_R(d, ER_CTRL_EXT) &= ~(uint64_t)E1000_CTRL_EXT_EE_RST;
        for (unsigned i = 0; i < 3; i++)
            store_le(h->n.mac + 2 * i, 2, nic_eeprom_word(&h->ee, i));
        *dev_rv(d, ER_RAL, 0) = load_le(h->n.mac, 4);
        *dev_rv(d, ER_RAH, 0) = load_le(h->n.mac + 4, 2) | E1000_RAH_AV;
        e1000_filter_update(h);
    }
    e1000_ctrl_ext_written(h, (uint32_t)a->val, (uint32_t)a->old);
}

/* ---- EEPROM (Microwire, bit-banged through EECD) ------------------------------- */

static void w_eecd(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    nic_uwire_pins(&h->uw, a->val & E1000_EECD_CS, a->val & E1000_EECD_SK, a->val & E1000_EECD_DI);
}

static uint64_t r_eecd(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    /* DO is the EEPROM's output; PRES: an EEPROM is fitted [INF]. */
    return DEV_R(d, ER_EECD) | (nic_uwire_dout(&h->uw) ? E1000_EECD_DO : 0) | E1000_EECD_PRES;
}

/* ---- MDIC (82544) -------------------------------------------------------------- */

static void w_mdic(device *d, const reg_access *a)
{
    e1000_mdic_written(E1000(d), (uint32_t)a->val);
}

/* ---- receive / transmit configuration -------------------------------------------- */

static void w_rctl(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    e1000_filter_update(h);
    e1000_rx_kick(h);
}

static void w_tctl(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    h->n.tx_pad = (a->val & E1000_TCTL_PSP) != 0;
    e1000_tx_kick(h);
}

static void w_pba(device *d, const reg_access *a)
{
    /* The receive share of the packet buffer, in KiB, bounds the Rx FIFO. */
    uint32_t kb = (uint32_t)a->val & 0x7f;
    E1000(d)->n.fifo.cap = (kb ? kb : 1) * 1024u;
}

/* The registers of a descriptor ring: base low and high, length in bytes,
 * head (the device's) and tail (the host's doorbell). */
static const struct ring_regs {
    unsigned bal, bah, len, head, tail;
} ring_regs[] = {
    [NIC_RING_TX] = {ER_TDBAL, ER_TDBAH, ER_TDLEN, ER_TDH, ER_TDT},
    [NIC_RING_RX] = {ER_RDBAL, ER_RDBAH, ER_RDLEN, ER_RDH, ER_RDT},
};

/* A write to one of the registers of ring `which` (register id, value as
 * written); the Tx and Rx rings behave alike. */
static void ring_write(e1000 *h, int which, unsigned reg, uint32_t v)
{
    device *d = h->n.dev;
    const struct ring_regs *rr = &ring_regs[which];
    bool tx = which == NIC_RING_TX;
    nic_ring *r = tx ? &h->tx : &h->rx;
    if (reg == rr->bal || reg == rr->bah || reg == rr->len) {
        /* A new base or length does not move the head (out of range: the
         * ring is unusable until fixed). */
        uint32_t head = r->index;
        if (reg == rr->len)
            nic_ring_set_size(r, (uint32_t)DEV_R(d, rr->len) / 16);
        else
            nic_ring_set_base(r, DEV_R(d, rr->bal) | DEV_R(d, rr->bah) << 32);
        r->index = head;
        r->cur = nic_ring_addr(r, head);
    } else if (reg == rr->head) {
        r->index = v & 0xffff;
        r->cur = nic_ring_addr(r, r->index);
    } else if (reg == rr->tail) {
        r->host = v & 0xffff;
        if (tx)
            h->tx_stopped = false;
        else
            h->rx_stopped = false;
        nic_doorbell(&h->n, reg, v, which);
        EVENT_EMIT(nic_ev(&h->n, tx ? E1000_EV_TDT : E1000_EV_RDT), nic_initiator(&h->n), r->host,
                   r->index, e1000_ring_ok(r) ? nic_ring_pending(r) : 0);
        if (!e1000_ring_ok(r))
            xlog(LOG_DEBUG, d->name, "%s %u with %s %u and %u descriptors: ring unusable",
                 d->cls->regs[rr->tail].name, r->host, d->cls->regs[rr->head].name, r->index,
                 r->size);
    }
    if (tx)
        e1000_tx_kick(h);
    else
        e1000_rx_kick(h);
}

static void w_rx_ring(device *d, const reg_access *a)
{
    ring_write(E1000(d), NIC_RING_RX, a->id, (uint32_t)a->val);
}

static void w_tx_ring(device *d, const reg_access *a)
{
    ring_write(E1000(d), NIC_RING_TX, a->id, (uint32_t)a->val);
}

static uint64_t r_head(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    return a->id == ER_TDH ? h->tx.index : h->rx.index;
}

static void w_rdtr(device *d, const reg_access *a)
{
    e1000_rdtr_written(E1000(d), (uint32_t)a->val);
}

static void w_tidv(device *d, const reg_access *a) { e1000_tidv_config(E1000(d)); }

/* ---- address filter tables ------------------------------------------------------ */

static void w_filter(device *d, const reg_access *a)
{
    e1000 *h = E1000(d);
    /* 82544 erratum [SRC LX-E1000 e1000_set_rx_mode, e1000_write_vfta]: a
     * write to an odd MTA/VFTA word also lands in the even word below it. */
    if (h->mta_erratum && (a->id == ER_MTA || a->id == ER_VFTA) && (a->idx & 1))
        *dev_rv(d, a->id, a->idx - 1) = (uint32_t)a->val;
    e1000_filter_update(h);
}

/* ---- the declaration ------------------------------------------------------------ */

static const char *const speed_names[] = {"10", "100", "1000", "1000", NULL};
static const reg_field f_ctrl[] = {
    {"FD", 0, 1, NULL},          {"LRST", 3, 1, NULL},        {"ASDE", 5, 1, NULL},
    {"SLU", 6, 1, NULL},         {"ILOS", 7, 1, NULL},        {"SPEED", 8, 2, speed_names},
    {"FRCSPD", 11, 1, NULL},     {"FRCDPX", 12, 1, NULL},     {"SDP0", 18, 1, NULL},
    {"SDP1", 19, 1, NULL},       {"SDP2", 20, 1, NULL},       {"SDP3", 21, 1, NULL},
    {"SDP0_IODIR", 22, 1, NULL}, {"SDP1_IODIR", 23, 1, NULL}, {"SDP2_IODIR", 24, 1, NULL},
    {"SDP3_IODIR", 25, 1, NULL}, {"RST", 26, 1, NULL},        {"RFCE", 27, 1, NULL},
    {"TFCE", 28, 1, NULL},       {"VME", 30, 1, NULL},        {"PHY_RST", 31, 1, NULL}};
static const reg_field f_status[] = {
    {"FD", 0, 1, NULL},          {"LU", 1, 1, NULL},      {"FUNC", 2, 2, NULL},
    {"TXOFF", 4, 1, NULL},       {"TBIMODE", 5, 1, NULL}, {"SPEED", 6, 2, speed_names},
    {"ASDV", 8, 2, speed_names}, {"PCI66", 11, 1, NULL},  {"BUS64", 12, 1, NULL},
    {"PCIX_MODE", 13, 1, NULL},  {"PCIXSPD", 14, 2, NULL}};
static const reg_field f_eecd[] = {{"SK", 0, 1, NULL}, {"CS", 1, 1, NULL},  {"DI", 2, 1, NULL},
                                   {"DO", 3, 1, NULL}, {"FWE", 4, 2, NULL}, {"PRES", 8, 1, NULL}};
static const reg_field f_ctrl_ext[] = {
    {"SDP4", 4, 1, NULL},      {"SDP5", 5, 1, NULL},      {"SDP6", 6, 1, NULL},
    {"SDP7", 7, 1, NULL},      {"SDP4_DIR", 8, 1, NULL},  {"SDP5_DIR", 9, 1, NULL},
    {"SDP6_DIR", 10, 1, NULL}, {"SDP7_DIR", 11, 1, NULL}, {"ASDCHK", 12, 1, NULL},
    {"EE_RST", 13, 1, NULL},   {"SPD_BYPS", 15, 1, NULL}};
static const reg_field f_icr[] = {
    {"TXDW", 0, 1, NULL},   {"TXQE", 1, 1, NULL}, {"LSC", 2, 1, NULL},  {"RXSEQ", 3, 1, NULL},
    {"RXDMT0", 4, 1, NULL}, {"RXO", 6, 1, NULL},  {"RXT0", 7, 1, NULL}, {"MDAC", 9, 1, NULL},
    {"RXCFG", 10, 1, NULL}, {"GPI", 11, 4, NULL}};
static const char *const rdmts_names[] = {"1/2", "1/4", "1/8", "rsvd", NULL};
static const reg_field f_rctl[] = {
    {"EN", 1, 1, NULL},           {"SBP", 2, 1, NULL},  {"UPE", 3, 1, NULL},
    {"MPE", 4, 1, NULL},          {"LPE", 5, 1, NULL},  {"LBM", 6, 2, NULL},
    {"RDMTS", 8, 2, rdmts_names}, {"MO", 12, 2, NULL},  {"BAM", 15, 1, NULL},
    {"BSIZE", 16, 2, NULL},       {"VFE", 18, 1, NULL}, {"CFIEN", 19, 1, NULL},
    {"CFI", 20, 1, NULL},         {"DPF", 22, 1, NULL}, {"PMCF", 23, 1, NULL},
    {"BSEX", 25, 1, NULL}};
static const reg_field f_tctl[] = {{"EN", 1, 1, NULL},      {"PSP", 3, 1, NULL},
                                   {"CT", 4, 8, NULL},      {"COLD", 12, 10, NULL},
                                   {"SWXOFF", 22, 1, NULL}, {"RTLC", 24, 1, NULL}};
static const reg_field f_rdtr[] = {{"DELAY", 0, 16, NULL}, {"FPD", 31, 1, NULL}};
static const reg_field f_mdic[] = {
    {"DATA", 0, 16, NULL}, {"REG", 16, 5, NULL}, {"PHY", 21, 5, NULL}, {"OP", 26, 2, NULL},
    {"R", 28, 1, NULL},    {"I", 29, 1, NULL},   {"E", 30, 1, NULL}};
static const reg_field f_rah[] = {{"ADDR", 0, 16, NULL}, {"AS", 16, 2, NULL}, {"AV", 31, 1, NULL}};
static const reg_field f_rxcsum[] = {
    {"PCSS", 0, 8, NULL}, {"IPOFL", 8, 1, NULL}, {"TUOFL", 9, 1, NULL}};


/* clang-format off */
/* A 64-bit statistics counter: its low half at off, its high half above it
 * (ids id##L and id##H, the high half's the low's plus one: r_stat_hi). */
#define STAT64(id, nm, off)                                                                      \
    [id##L] = {.name = nm "L", .offset = (off), .width = 4, .rules = R_RO | R_FULL,              \
               .desc = "low half (read the high half to clear)"},                                \
    [id##H] = {.name = nm "H", .offset = (off) + 4, .width = 4, .rules = R_RO | R_FULL,          \
               .read = r_stat_hi, .desc = "high half: a read clears both"}

static const reg_decl e1000_regs[] = {
    [ER_CTRL] = {.name = "CTRL", .offset = 0x0000, .width = 4, .rules = R_FULL,
                 .reset = E1000_CTRL_FD | E1000_CTRL_SLU, REG_FIELDS(f_ctrl), .read = r_ctrl,
                 .write = w_ctrl, .desc = "device control"},
    [ER_STATUS] = {.name = "STATUS", .offset = 0x0008, .width = 4,
                   .rules = R_RO | R_NOSTORE | R_FULL, REG_FIELDS(f_status), .read = r_status,
                   .desc = "device status"},
    [ER_EECD] = {.name = "EECD", .offset = 0x0010, .width = 4, .rules = R_FULL, .wmask = 0x37,
                 REG_FIELDS(f_eecd), .read = r_eecd, .write = w_eecd,
                 .desc = "EEPROM control (Microwire bit-bang)"},
    [ER_CTRL_EXT] = {.name = "CTRL_EXT", .offset = 0x0018, .width = 4, .rules = R_FULL,
                     REG_FIELDS(f_ctrl_ext), .write = w_ctrl_ext,
                     .desc = "extended device control"},
    [ER_FCAL] = {.name = "FCAL", .offset = 0x0028, .width = 4, .rules = R_FULL,
                 .desc = "flow control address low"},
    [ER_FCAH] = {.name = "FCAH", .offset = 0x002c, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                 .desc = "flow control address high"},
    [ER_FCT] = {.name = "FCT", .offset = 0x0030, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                .desc = "flow control type"},
    [ER_VET] = {.name = "VET", .offset = 0x0038, .width = 4, .rules = R_FULL, .reset = 0x8100,
                .wmask = 0xffff, .desc = "VLAN Ethernet type"},
    [ER_ICR] = {.name = "ICR", .offset = 0x00c0, .width = 4, .rules = R_NOSTORE | R_FULL,
                REG_FIELDS(f_icr), .read = nic_read_clear_causes, .write = w_icr,
                .desc = "interrupt causes: a read returns and clears them"},
    /* ICS reads as an ICR mirror without the clear [SRC Q-E1000]. */
    [ER_ICS] = {.name = "ICS", .offset = 0x00c8, .width = 4, .rules = R_NOSTORE | R_FULL,
                REG_FIELDS(f_icr), .read = nic_read_causes, .write = w_ics,
                .desc = "interrupt cause set"},
    [ER_IMS] = {.name = "IMS", .offset = 0x00d0, .width = 4, .rules = R_NOSTORE | R_FULL,
                REG_FIELDS(f_icr), .read = r_ims, .write = w_ims,
                .desc = "interrupt mask set / read"},
    [ER_IMC] = {.name = "IMC", .offset = 0x00d8, .width = 4, .rules = R_WO | R_NOSTORE | R_FULL,
                REG_FIELDS(f_icr), .write = w_imc, .desc = "interrupt mask clear"},
    [ER_RCTL] = {.name = "RCTL", .offset = 0x0100, .width = 4, .rules = R_FULL, .wmask = 0x06fffffe,
                 REG_FIELDS(f_rctl), .write = w_rctl, .desc = "receive control"},
    [ER_FCTTV] = {.name = "FCTTV", .offset = 0x0170, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                  .desc = "flow control transmit timer"},
    [ER_TXCW] = {.name = "TXCW", .offset = 0x0178, .width = 4, .rules = R_FULL, .wmask = 0xc000ffff,
                 .desc = "transmit configuration word (TBI)"},
    [ER_RXCW] = {.name = "RXCW", .offset = 0x0180, .width = 4, .rules = R_RO | R_FULL,
                 .desc = "receive configuration word (TBI; copper: 0)"},
    [ER_TCTL] = {.name = "TCTL", .offset = 0x0400, .width = 4, .rules = R_FULL, REG_FIELDS(f_tctl),
                 .write = w_tctl, .desc = "transmit control"},
    [ER_TIPG] = {.name = "TIPG", .offset = 0x0410, .width = 4, .rules = R_FULL, .wmask = 0x3fffffff,
                 .desc = "transmit inter-packet gap"},
    [ER_AIT] = {.name = "AIT", .offset = 0x0458, .width = 4, .rules = R_FULL,
                .desc = "adaptive IFS throttle"},
    [ER_LEDCTL] = {.name = "LEDCTL", .offset = 0x0e00, .width = 4, .rules = R_FULL,
                   .desc = "LED control"},
    [ER_PBA] = {.name = "PBA", .offset = 0x1000, .width = 4, .rules = R_FULL, .reset = 0x30,
                .wmask = 0x7f, .write = w_pba, .desc = "packet buffer allocation (Rx KiB)"},
    [ER_FCRTL] = {.name = "FCRTL", .offset = 0x2160, .width = 4, .rules = R_FULL,
                  .wmask = 0x8000fff8, .desc = "flow control receive threshold low"},
    [ER_FCRTH] = {.name = "FCRTH", .offset = 0x2168, .width = 4, .rules = R_FULL, .wmask = 0xfff8,
                  .desc = "flow control receive threshold high"},
    [ER_RDBAL] = {.name = "RDBAL", .offset = 0x2800, .width = 4, .rules = R_FULL,
                  .wmask = 0xfffffff0, .write = w_rx_ring, .desc = "Rx ring base low"},
    [ER_RDBAH] = {.name = "RDBAH", .offset = 0x2804, .width = 4, .rules = R_FULL,
                  .write = w_rx_ring, .desc = "Rx ring base high"},
    [ER_RDLEN] = {.name = "RDLEN", .offset = 0x2808, .width = 4, .rules = R_FULL,
                  .wmask = 0x000fff80, .write = w_rx_ring, .desc = "Rx ring length (bytes)"},
    [ER_RDH] = {.name = "RDH", .offset = 0x2810, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                .read = r_head, .write = w_rx_ring,
                .desc = "Rx head (next descriptor the device fills)"},
    [ER_RDT] = {.name = "RDT", .offset = 0x2818, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                .write = w_rx_ring, .desc = "Rx tail (doorbell)"},
    [ER_RDTR] = {.name = "RDTR", .offset = 0x2820, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                 REG_FIELDS(f_rdtr), .write = w_rdtr,
                 .desc = "Rx delay timer (1.024 us), FPD flush"},
    [ER_TXDMAC] = {.name = "TXDMAC", .offset = 0x3000, .width = 4, .rules = R_FULL,
                   .desc = "transmit DMA control"},
    [ER_TDBAL] = {.name = "TDBAL", .offset = 0x3800, .width = 4, .rules = R_FULL,
                  .wmask = 0xfffffff0, .write = w_tx_ring, .desc = "Tx ring base low"},
    [ER_TDBAH] = {.name = "TDBAH", .offset = 0x3804, .width = 4, .rules = R_FULL,
                  .write = w_tx_ring, .desc = "Tx ring base high"},
    [ER_TDLEN] = {.name = "TDLEN", .offset = 0x3808, .width = 4, .rules = R_FULL,
                  .wmask = 0x000fff80, .write = w_tx_ring, .desc = "Tx ring length (bytes)"},
    [ER_TDH] = {.name = "TDH", .offset = 0x3810, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                .read = r_head, .write = w_tx_ring,
                .desc = "Tx head (next descriptor the device reads)"},
    [ER_TDT] = {.name = "TDT", .offset = 0x3818, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                .write = w_tx_ring, .desc = "Tx tail (doorbell)"},
    [ER_TIDV] = {.name = "TIDV", .offset = 0x3820, .width = 4, .rules = R_FULL, .wmask = 0xffff,
                 .write = w_tidv, .desc = "Tx interrupt delay (1.024 us)"},
    [ER_RXCSUM] = {.name = "RXCSUM", .offset = 0x5000, .width = 4, .rules = R_FULL, .wmask = 0x3ff,
                   REG_FIELDS(f_rxcsum), .desc = "receive checksum control"},
    [ER_MTA] = {.name = "MTA", .offset = 0x5200, .width = 4, .count = 128, .stride = 4,
                .rules = R_FULL, .write = w_filter, .desc = "multicast hash table"},
    [ER_RAL] = {.name = "RAL", .offset = 0x5400, .width = 4, .count = 16, .stride = 8,
                .rules = R_FULL, .write = w_filter, .desc = "receive address low"},
    [ER_RAH] = {.name = "RAH", .offset = 0x5404, .width = 4, .count = 16, .stride = 8,
                .rules = R_FULL, .wmask = 0x8003ffff, REG_FIELDS(f_rah), .write = w_filter,
                .desc = "receive address high, AV"},
    [ER_VFTA] = {.name = "VFTA", .offset = 0x5600, .width = 4, .count = 128, .stride = 4,
                 .rules = R_FULL, .write = w_filter, .desc = "VLAN filter table"},
    [ER_WUC] = {.name = "WUC", .offset = 0x5800, .width = 4, .rules = R_FULL,
                .desc = "wake-up control"},
    [ER_WUFC] = {.name = "WUFC", .offset = 0x5808, .width = 4, .rules = R_FULL,
                 .desc = "wake-up filter control"},
    [ER_WUS] = {.name = "WUS", .offset = 0x5810, .width = 4, .rules = R_FULL,
                .desc = "wake-up status"},
    [ER_CRCERRS] = {.name = "CRCERRS", .offset = 0x4000, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_ALGNERRC] = {.name = "ALGNERRC", .offset = 0x4004, .width = 4,
                     .rules = R_RO | R_RC | R_FULL},
    [ER_SYMERRS] = {.name = "SYMERRS", .offset = 0x4008, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_RXERRC] = {.name = "RXERRC", .offset = 0x400c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_MPC] = {.name = "MPC", .offset = 0x4010, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_SCC] = {.name = "SCC", .offset = 0x4014, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_ECOL] = {.name = "ECOL", .offset = 0x4018, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_MCC] = {.name = "MCC", .offset = 0x401c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_LATECOL] = {.name = "LATECOL", .offset = 0x4020, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_COLC] = {.name = "COLC", .offset = 0x4028, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_DC] = {.name = "DC", .offset = 0x4030, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_TNCRS] = {.name = "TNCRS", .offset = 0x4034, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_SEC] = {.name = "SEC", .offset = 0x4038, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_CEXTERR] = {.name = "CEXTERR", .offset = 0x403c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_RLEC] = {.name = "RLEC", .offset = 0x4040, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_XONRXC] = {.name = "XONRXC", .offset = 0x4048, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_XONTXC] = {.name = "XONTXC", .offset = 0x404c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_XOFFRXC] = {.name = "XOFFRXC", .offset = 0x4050, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_XOFFTXC] = {.name = "XOFFTXC", .offset = 0x4054, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_FCRUC] = {.name = "FCRUC", .offset = 0x4058, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC64] = {.name = "PRC64", .offset = 0x405c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC127] = {.name = "PRC127", .offset = 0x4060, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC255] = {.name = "PRC255", .offset = 0x4064, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC511] = {.name = "PRC511", .offset = 0x4068, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC1023] = {.name = "PRC1023", .offset = 0x406c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PRC1522] = {.name = "PRC1522", .offset = 0x4070, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_GPRC] = {.name = "GPRC", .offset = 0x4074, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_BPRC] = {.name = "BPRC", .offset = 0x4078, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_MPRC] = {.name = "MPRC", .offset = 0x407c, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_GPTC] = {.name = "GPTC", .offset = 0x4080, .width = 4, .rules = R_RO | R_RC | R_FULL},
    STAT64(ER_GORC, "GORC", 0x4088),
    STAT64(ER_GOTC, "GOTC", 0x4090),
    [ER_RNBC] = {.name = "RNBC", .offset = 0x40a0, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_RUC] = {.name = "RUC", .offset = 0x40a4, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_RFC] = {.name = "RFC", .offset = 0x40a8, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_ROC] = {.name = "ROC", .offset = 0x40ac, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_RJC] = {.name = "RJC", .offset = 0x40b0, .width = 4, .rules = R_RO | R_RC | R_FULL},
    STAT64(ER_TOR, "TOR", 0x40c0),
    STAT64(ER_TOT, "TOT", 0x40c8),
    [ER_TPR] = {.name = "TPR", .offset = 0x40d0, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_TPT] = {.name = "TPT", .offset = 0x40d4, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC64] = {.name = "PTC64", .offset = 0x40d8, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC127] = {.name = "PTC127", .offset = 0x40dc, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC255] = {.name = "PTC255", .offset = 0x40e0, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC511] = {.name = "PTC511", .offset = 0x40e4, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC1023] = {.name = "PTC1023", .offset = 0x40e8, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_PTC1522] = {.name = "PTC1522", .offset = 0x40ec, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_MPTC] = {.name = "MPTC", .offset = 0x40f0, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_BPTC] = {.name = "BPTC", .offset = 0x40f4, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_TSCTC] = {.name = "TSCTC", .offset = 0x40f8, .width = 4, .rules = R_RO | R_RC | R_FULL},
    [ER_TSCTFC] = {.name = "TSCTFC", .offset = 0x40fc, .width = 4, .rules = R_RO | R_RC | R_FULL},
    /* 82544 only */
    [ER_MDIC] = {.name = "MDIC", .offset = 0x0020, .width = 4, .rules = R_FULL,
                 .reset = E1000_MDIC_READY, .wmask = 0x2fffffff, REG_FIELDS(f_mdic),
                 .write = w_mdic, .desc = "MDI control: PHY register access"},
    [ER_RXDCTL] = {.name = "RXDCTL", .offset = 0x2828, .width = 4, .rules = R_FULL,
                   .desc = "Rx descriptor control (thresholds)"},
    [ER_TXDCTL] = {.name = "TXDCTL", .offset = 0x3828, .width = 4, .rules = R_FULL,
                   .desc = "Tx descriptor control (thresholds)"},
    [ER_TSPMT] = {.name = "TSPMT", .offset = 0x3830, .width = 4, .rules = R_FULL,
                  .reset = 0x01000400, .desc = "TCP segmentation pad and threshold"},
};
/* clang-format on */
DEV_REGS_CHECK(e1000_regs, ER_NREGS);

/* ---- the 82544's I/O window: IOADDR at 0, IODATA at 4 (SDM 13.2) ---------------- */

static int e1000_io(nic *n, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                    bool write)
{
    e1000 *h = (e1000 *)n;
    if (bar != E1000_IO_BAR || !e1000_is_82544(h) || off + size > E1000_IO_SIZE) {
        if (!write)
            *val = 0;
        return BUS_ERROR;
    }
    if (off == 0 && size == 4) {
        if (write)
            h->ioaddr = (uint32_t)*val & 0x1fffc;
        else
            *val = h->ioaddr;
        return BUS_OK;
    }
    if (off == 4 && size == 4) {
        bus_op op = {.addr = h->ioaddr,
                     .size = 4,
                     .write = write,
                     .kind = BUS_WORD,
                     .initiator = (uint16_t)who};
        return write ? dev_write(n->dev, &op, h->ioaddr, 4, *val)
                     : dev_read(n->dev, &op, h->ioaddr, 4, val);
    }
    /* Narrower accesses: IOADDR ignores them; IODATA would reach a register
     * with the wrong width (dropped by the register file as reg.bad-access). */
    if (!write)
        *val = off < 4 ? h->ioaddr >> (8 * off) : 0;
    if (off >= 4) {
        bus_op op = {.addr = h->ioaddr + (off - 4),
                     .size = size,
                     .write = write,
                     .initiator = (uint16_t)who};
        return write ? dev_write(n->dev, &op, h->ioaddr + (off - 4), size, *val)
                     : dev_read(n->dev, &op, h->ioaddr + (off - 4), size, val);
    }
    return BUS_OK;
}

/* ---- reset ------------------------------------------------------------------------ */

static void e1000_reset(device *d)
{
    e1000 *h = E1000(d);
    nic *n = &h->n;
    /* The receive share of the packet buffer (PBA reset value). */
    n->fifo.cap = (uint32_t)(DEV_R(d, ER_PBA) & 0x7f) * 1024u;
    e1000_tx_reset(h);
    e1000_rx_reset(h);
    nic_reset_common(n);
    if (e1000_is_82544(h))
        DEV_R(d, ER_CTRL) |= E1000_CTRL_ASDE;
    /* The station address comes from the EEPROM into RAR0 at reset. */
    *dev_rv(d, ER_RAL, 0) = load_le(n->mac, 4);
    *dev_rv(d, ER_RAH, 0) = load_le(n->mac + 4, 2) | E1000_RAH_AV;
    nic_mac_filter_reset(&h->filt);
    e1000_filter_update(h);
    nic_uwire_pins(&h->uw, false, false, false);
    nic_eeprom_reset(&h->ee);
    h->ioaddr = 0;
    n->tx_pad = false;
    /* The reset values release the PHY reset lines (CTRL.PHY_RST, SDP4). */
    if (!h->keep_phy || h->phy_in_reset)
        e1000_phy_reset(h);
    e1000_link_update(h);
}

/* ---- views ---------------------------------------------------------------------- */

static const state_decl e1000_txctx_decls[] = {
    STATE_INT(e1000_txctx, ipcss, "IP checksum start"),
    STATE_INT(e1000_txctx, ipcso, "IP checksum offset"),
    STATE_INT(e1000_txctx, tucss, "TCP/UDP checksum start"),
    STATE_INT(e1000_txctx, tucso, "TCP/UDP checksum offset"),
    STATE_INT(e1000_txctx, hdr_len, "header length"),
    STATE_INT(e1000_txctx, ipcse, "IP checksum end"),
    STATE_INT(e1000_txctx, tucse, "TCP/UDP checksum end"),
    STATE_INT(e1000_txctx, mss, "segment size"),
    STATE_INT(e1000_txctx, paylen, "payload length"),
    STATE_BOOL(e1000_txctx, tcp, "TCP"),
    STATE_BOOL(e1000_txctx, ip, "IPv4"),
};
static const state_table e1000_txctx_state = STATE_TABLE(e1000_txctx_decls, e1000_txctx);

/* The model's state: the shared shell `n` (nic_state.c), then its own. */
static const state_decl e1000_state[] = {
    STATE_PART(e1000, n, nic_state, "the NIC shell"),
    STATE_PART(e1000, tx, nic_ring_state_decl, "the Tx ring"),
    STATE_PART(e1000, rx, nic_ring_state_decl, "the Rx ring"),
    STATE_PART(e1000, txc, nic_coal_state, "TIDV"),
    STATE_PART(e1000, rxc, nic_coal_state, "RDTR"),
    STATE_PART(e1000, link, nic_link_state, "the link"),
    STATE_PART(e1000, mii, nic_mii_state, "the PHY's registers"),
    STATE_PART(e1000, mdio, nic_mdio_state, "82543: bit-banged MDIO"),
    STATE_PART(e1000, ee, nic_eeprom_state, "the EEPROM"),
    STATE_PART(e1000, uw, nic_uwire_state, "its Microwire port"),
    STATE_PART(e1000, filt, nic_mac_filter_state, "the address filter"),
    STATE_TIMER(e1000, mdic_timer, "an MDIC operation completes"),
    STATE_BOOL(e1000, lu, "STATUS.LU as last published"),
    STATE_BOOL(e1000, phy_in_reset, "the PHY is held in reset"),
    STATE_BOOL(e1000, keep_phy, "device_reset from CTRL.RST keeps the PHY"),
    STATE_INT(e1000, ioaddr, "82544 I/O window: IOADDR"),
    STATE_PART(e1000, ctx, e1000_txctx_state, "checksum context"),
    STATE_PART(e1000, tso, e1000_txctx_state, "segmentation context"),
    STATE_BOOL(e1000, pkt, "inside a packet"),
    STATE_BOOL(e1000, pkt_bad, "the packet failed: skip to its EOP"),
    STATE_BOOL(e1000, pkt_tse, "a segmentation packet"),
    STATE_INT(e1000, pkt_popts, "packet options"),
    STATE_BOOL(e1000, pkt_vle, "VLAN tag insertion"),
    STATE_INT(e1000, pkt_vlan, "the tag"),
    STATE_BOOL(e1000, tx_stopped, "a descriptor fetch failed: idle until TDT is written"),
    STATE_BOOL(e1000, tx_ide, "a descriptor of the current packet had IDE"),
    STATE_BYTES(e1000, hdr, "TSO: the header replayed in front of every segment"),
    STATE_INT(e1000, seg_count, "TSO: segments sent"),
    STATE_INT(e1000, seg_payload, "TSO: payload bytes sent"),
    STATE_BOOL(e1000, rx_stopped, "a descriptor fetch failed: idle until RDT is written"),
    STATE_INT(e1000, tso_frames, "TSO frames"),
    STATE_INT(e1000, tx_bad_fcs, "frames sent with a bad FCS"),
    STATE_INT(e1000, speed_mismatch, "speed mismatches"),
    STATE_INT(e1000, mdic_ops, "MDIC operations"),
};

static const dev_view e1000_views[] = {
    NIC_VIEWS,
    {"filter", "address filter: RAR entries, MTA bits, RCTL modes, VLAN", e1000_view_filter},
    {"phy", "PHY registers, link, speed and duplex (MAC and PHY), MDIO", e1000_view_phy},
    {"offload", "transmit contexts (checksum, TSO) and the packet in progress", e1000_view_offload},
};

/* ---- model events ------------------------------------------------------------------ */

static const event_field f_tail[] = {{"value", EVF_DEC, NULL, NULL},
                                     {"head", EVF_DEC, NULL, NULL},
                                     {"pending", EVF_DEC, NULL, NULL}};
static const char *const mdio_via[] = {"mdic", "bitbang", NULL};
static const event_field f_mdio[] = {
    {"via", EVF_ENUM, mdio_via, NULL}, {"write", EVF_BOOL, NULL, NULL},
    {"phy", EVF_DEC, NULL, NULL},      {"reg", EVF_DEC, NULL, NULL},
    {"value", EVF_HEX, NULL, NULL},    {"error", EVF_BOOL, NULL, NULL}};
static const event_decl e1000_events[E1000_NEVENTS] = {
#include "dev/nic/nic_events.h"
    {"tdt.write", "the host wrote TDT (Tx doorbell)", f_tail, ARRAY_SIZE(f_tail)},
    {"rdt.write", "the host wrote RDT (Rx buffers returned)", f_tail, ARRAY_SIZE(f_tail)},
    {"mdio", "a PHY register access (MDIC or bit-banged MDIO)", f_mdio, ARRAY_SIZE(f_mdio)},
};

/* The two variants differ in their name and in how much of e1000_regs they
 * have (the 82543 lacks the 82544's own registers at the end). */
#define E1000_CLASS(nm, description, n)                                                   \
    {                                                                                     \
        DEV_STATE(e1000_state, e1000),                                                    \
            .name = nm, .desc = description, .regs = e1000_regs, .nregs = (n),            \
            .reg_space = E1000_BAR_SIZE, .little_endian = true, DEV_EVENTS(e1000_events), \
            DEV_VIEWS(e1000_views), .reset = e1000_reset, .ring_state = nic_ring_state,   \
    }

static const device_class e1000_82543_class =
    E1000_CLASS("e1000-82543", "Intel 82543GC gigabit Ethernet, copper (PCI 8086:1004)", ER_N82543);
static const device_class e1000_82544_class =
    E1000_CLASS("e1000-82544", "Intel 82544EI gigabit Ethernet, copper (PCI 8086:1008)",
                ARRAY_SIZE(e1000_regs));

/* ---- life cycle -------------------------------------------------------------------- */

/* EEPROM image (64 words): MAC in words 0-2, PCI IDs in 0x0B-0x0E [INF],
 * initialization control 2 (0x0F: full flow control advertised; on the
 * 82543 SDP4 configured as an output [INF]), checksum word 0x3F so that the
 * words sum to 0xBABA. */
static void eeprom_image(e1000 *h, uint16_t device_id)
{
    nic_eeprom *e = &h->ee;
    nic_eeprom_put_mac(e, 0, h->n.mac);
    nic_eeprom_set_word(e, 0x0b, device_id); /* subsystem ID */
    nic_eeprom_set_word(e, 0x0c, INTEL);     /* subsystem vendor */
    nic_eeprom_set_word(e, 0x0d, device_id);
    nic_eeprom_set_word(e, 0x0e, INTEL);
    nic_eeprom_set_word(e, 0x0f, e1000_is_82544(h) ? 0x3000 : 0x3010);
    nic_eeprom_fix_checksum(e, E1000_EE_WORDS - 1, E1000_EE_SUM);
}

static void e1000_init(nic *n)
{
    e1000 *h = (e1000 *)n;
    uint16_t dev_id = n->model->device;
    enum e1000_variant variant = dev_id == DEV_82543GC_COPPER ? E1000_82543 : E1000_82544;
    h->variant = variant;
    n->pci.subsys_vendor = INTEL;
    n->pci.subsys_id = dev_id;
    if (variant == E1000_82544) {
        n->pci.bars[E1000_IO_BAR].size = E1000_IO_SIZE;
        n->pci.bars[E1000_IO_BAR].flags = PCI_BAR_IO;
        h->pcix = true;
        h->mta_erratum = true;
    }
    nic_eeprom_init(&h->ee, n, 2 * E1000_EE_WORDS, 0x00, 0);
    eeprom_image(h, dev_id);
    nic_uwire_init(&h->uw, &h->ee, 6);
    h->mdic_ticks = sched_ns_to_ticks(n->clock, E1000_MDIC_NS);
    e1000_phy_init(h);
    e1000_tx_init(h);
    e1000_rx_init(h);
}

static const nic_ops e1000_ops = {
    .prefix = "e1000_",
    .size = sizeof(e1000),
    .revision = E1000_REVISION,
    .init = e1000_init,
    .rx = e1000_rx_frame,
    .fc_levels = e1000_fc_levels,
    .fc_sent = e1000_fc_sent,
    .causes = e1000_causes,
    .bar_access = e1000_io, /* the 82544's I/O window (e1000_io refuses it on the 82543) */
};

const nic_model e1000_models[] = {
    {"e1000-82543", "Intel 82543GC copper (8086:1004), bit-banged MDIO, no TSO", &e1000_82543_class,
     INTEL, DEV_82543GC_COPPER, &e1000_ops, false},
    {"e1000-82544", "Intel 82544EI copper (8086:1008), MDIC, TSO, PCI-X", &e1000_82544_class, INTEL,
     DEV_82544EI_COPPER, &e1000_ops, false},
    {0},
};
