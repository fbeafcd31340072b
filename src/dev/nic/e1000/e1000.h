/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intel 82543GC and 82544EI gigabit Ethernet (e1000): the model's state,
 * shared by e1000.c (register declaration, reset, interrupts, EEPROM,
 * factory), e1000_phy.c (the M88E1000-style PHY behind MDIC or the
 * bit-banged MDIO pins, link), e1000_tx.c (transmit: legacy, context and
 * data descriptors, checksum offload, TSO) and e1000_rx.c (receive: filter,
 * FIFO, descriptors, checksum status, statistics).  See
 * docs/hardware.md "Intel 82543GC / 82544EI".
 */
#ifndef XBOW_E1000_H
#define XBOW_E1000_H

#include "dev/nic/nic.h"
#include "dev/nic/nic_coalesce.h"
#include "dev/nic/nic_eeprom.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"

enum e1000_variant { E1000_82543, E1000_82544 };
/* The model's own events, after the common ones (e1000.c). */
enum { E1000_EV_TDT = NIC_NEVENTS, E1000_EV_RDT, E1000_EV_MDIO, E1000_NEVENTS };

/* Register ids: index into the declaration table (e1000.c).  The 82544's
 * registers the 82543 lacks come last: the 82543's class declares only the
 * first ER_N82543 of them. */
/* clang-format off */
enum e1000_reg {
    ER_CTRL, ER_STATUS, ER_EECD, ER_CTRL_EXT, ER_FCAL, ER_FCAH, ER_FCT, ER_VET,
    ER_ICR, ER_ICS, ER_IMS, ER_IMC, ER_RCTL, ER_FCTTV, ER_TXCW, ER_RXCW,
    ER_TCTL, ER_TIPG, ER_AIT, ER_LEDCTL, ER_PBA, ER_FCRTL, ER_FCRTH,
    ER_RDBAL, ER_RDBAH, ER_RDLEN, ER_RDH, ER_RDT, ER_RDTR,
    ER_TXDMAC, ER_TDBAL, ER_TDBAH, ER_TDLEN, ER_TDH, ER_TDT, ER_TIDV,
    ER_RXCSUM, ER_MTA, ER_RAL, ER_RAH, ER_VFTA, ER_WUC, ER_WUFC, ER_WUS,
    /* statistics (read-to-clear) */
    ER_CRCERRS, ER_ALGNERRC, ER_SYMERRS, ER_RXERRC, ER_MPC, ER_SCC, ER_ECOL, ER_MCC,
    ER_LATECOL, ER_COLC, ER_DC, ER_TNCRS, ER_SEC, ER_CEXTERR, ER_RLEC, ER_XONRXC,
    ER_XONTXC, ER_XOFFRXC, ER_XOFFTXC, ER_FCRUC, ER_PRC64, ER_PRC127, ER_PRC255,
    ER_PRC511, ER_PRC1023, ER_PRC1522, ER_GPRC, ER_BPRC, ER_MPRC, ER_GPTC, ER_GORCL,
    ER_GORCH, ER_GOTCL, ER_GOTCH, ER_RNBC, ER_RUC, ER_RFC, ER_ROC, ER_RJC, ER_TORL,
    ER_TORH, ER_TOTL, ER_TOTH, ER_TPR, ER_TPT, ER_PTC64, ER_PTC127, ER_PTC255,
    ER_PTC511, ER_PTC1023, ER_PTC1522, ER_MPTC, ER_BPTC, ER_TSCTC, ER_TSCTFC,
    ER_N82543,
    /* 82544 only */
    ER_MDIC = ER_N82543, ER_RXDCTL, ER_TXDCTL, ER_TSPMT,
    ER_NREGS
};
/* clang-format on */

/* CTRL */
#define E1000_CTRL_FD 0x00000001u
#define E1000_CTRL_ASDE 0x00000020u
#define E1000_CTRL_SLU 0x00000040u
#define E1000_CTRL_SPD_SHIFT 8
#define E1000_CTRL_FRCSPD 0x00000800u
#define E1000_CTRL_FRCDPX 0x00001000u
#define E1000_CTRL_SWDPIN2 0x00100000u /* 82543: MDIO */
#define E1000_CTRL_SWDPIN3 0x00200000u /* 82543: MDC */
#define E1000_CTRL_SWDPIO2 0x01000000u
#define E1000_CTRL_SWDPIO3 0x02000000u
#define E1000_CTRL_RST 0x04000000u
#define E1000_CTRL_TFCE 0x10000000u
#define E1000_CTRL_VME 0x40000000u
#define E1000_CTRL_PHY_RST 0x80000000u /* 82544 */
/* CTRL_EXT */
#define E1000_CTRL_EXT_SDP4_DATA 0x00000010u /* 82543: PHY reset, active low */
#define E1000_CTRL_EXT_SDP4_DIR 0x00000100u
#define E1000_CTRL_EXT_ASDCHK 0x00001000u
#define E1000_CTRL_EXT_EE_RST 0x00002000u
/* STATUS */
#define E1000_STATUS_FD 0x00000001u
#define E1000_STATUS_LU 0x00000002u
#define E1000_STATUS_SPEED_SHIFT 6
#define E1000_STATUS_ASDV_SHIFT 8
#define E1000_STATUS_PCI66 0x00000800u
#define E1000_STATUS_BUS64 0x00001000u
#define E1000_STATUS_PCIX_MODE 0x00002000u
#define E1000_STATUS_PCIXSPD_SHIFT 14
/* EECD */
#define E1000_EECD_SK 0x01u
#define E1000_EECD_CS 0x02u
#define E1000_EECD_DI 0x04u
#define E1000_EECD_DO 0x08u
#define E1000_EECD_PRES 0x100u
/* MDIC (82544) */
#define E1000_MDIC_OP_WRITE 0x04000000u
#define E1000_MDIC_OP_READ 0x08000000u
#define E1000_MDIC_READY 0x10000000u
#define E1000_MDIC_INT_EN 0x20000000u
#define E1000_MDIC_ERROR 0x40000000u
/* Interrupt causes (ICR/ICS/IMS/IMC) */
#define E1000_ICR_TXDW 0x00000001u
#define E1000_ICR_TXQE 0x00000002u
#define E1000_ICR_LSC 0x00000004u
#define E1000_ICR_RXSEQ 0x00000008u
#define E1000_ICR_RXDMT0 0x00000010u
#define E1000_ICR_RXO 0x00000040u
#define E1000_ICR_RXT0 0x00000080u
#define E1000_ICR_MDAC 0x00000200u
#define E1000_ICR_RXCFG 0x00000400u
#define E1000_ICR_VALID 0x0001fedfu /* bits 16:0 less the reserved 5 and 8 */
/* RCTL */
#define E1000_RCTL_EN 0x00000002u
#define E1000_RCTL_SBP 0x00000004u
#define E1000_RCTL_UPE 0x00000008u
#define E1000_RCTL_MPE 0x00000010u
#define E1000_RCTL_LPE 0x00000020u
#define E1000_RCTL_RDMTS_SHIFT 8
#define E1000_RCTL_MO_SHIFT 12
#define E1000_RCTL_BAM 0x00008000u
#define E1000_RCTL_BSIZE_SHIFT 16
#define E1000_RCTL_VFE 0x00040000u
#define E1000_RCTL_BSEX 0x02000000u
/* TCTL */
#define E1000_TCTL_EN 0x00000002u
#define E1000_TCTL_PSP 0x00000008u
/* RXCSUM */
#define E1000_RXCSUM_IPOFL 0x00000100u
#define E1000_RXCSUM_TUOFL 0x00000200u
/* RAH */
#define E1000_RAH_AV 0x80000000u

/* Transmit descriptor word 2 (command byte in bits 31:24) and word 3. */
#define E1000_TXD_EOP 0x01000000u
#define E1000_TXD_IFCS 0x02000000u
#define E1000_TXD_IC 0x04000000u  /* legacy: insert checksum */
#define E1000_TXD_TSE 0x04000000u /* data/context: TCP segmentation */
#define E1000_TXD_RS 0x08000000u
#define E1000_TXD_RPS 0x10000000u
#define E1000_TXD_DEXT 0x20000000u
#define E1000_TXD_VLE 0x40000000u
#define E1000_TXD_IDE 0x80000000u
#define E1000_TXD_DTYP_D 0x00100000u /* DTYP 0001: data descriptor */
#define E1000_TXD_DTYP_MASK 0x00f00000u
#define E1000_TXD_CTX_TCP 0x01000000u /* context TUCMD */
#define E1000_TXD_CTX_IP 0x02000000u
#define E1000_TXD_STA_DD 0x1u
#define E1000_TXD_POPTS_IXSM 0x01u
#define E1000_TXD_POPTS_TXSM 0x02u
/* Receive descriptor status and errors. */
#define E1000_RXD_DD 0x01u
#define E1000_RXD_EOP 0x02u
#define E1000_RXD_IXSM 0x04u
#define E1000_RXD_VP 0x08u
#define E1000_RXD_TCPCS 0x20u
#define E1000_RXD_IPCS 0x40u
#define E1000_RXE_TCPE 0x20u
#define E1000_RXE_IPE 0x40u
#define E1000_RXE_RXE 0x80u

#define E1000_EE_WORDS 64 /* 93C46: 64 words, 6 address bits (both parts) */
#define E1000_EE_SUM 0xbaba

/* A transmit context (SDM 3.3.6): the normal one and the segmentation one. */
typedef struct e1000_txctx {
    uint8_t ipcss, ipcso, tucss, tucso, hdr_len;
    uint16_t ipcse, tucse, mss;
    uint32_t paylen;
    bool tcp, ip;
} e1000_txctx;

typedef struct e1000 {
    nic n; /* first: the shared NIC shell */
    enum e1000_variant variant;
    nic_ring tx, rx;
    nic_coal txc, rxc; /* TIDV / RDTR relative timers */
    nic_link link;
    nic_mii mii;
    nic_mdio mdio; /* 82543: MDIO bit-banged on CTRL SWDPIN2/3 */
    nic_eeprom ee;
    nic_uwire uw;
    nic_mac_filter filt;
    timer mdic_timer;
    /* MAC side of the link */
    bool lu;           /* STATUS.LU as last published */
    bool phy_in_reset; /* CTRL.PHY_RST (82544) or SDP4 low (82543) */
    bool keep_phy;     /* device_reset from CTRL.RST: the PHY is not reset */
    bool pcix;         /* STATUS reports PCI-X mode (82544; parameter) */
    bool mta_erratum;  /* 82544: a write to an odd MTA/VFTA word also writes the even one */
    uint32_t ioaddr;   /* 82544 I/O window: IOADDR */
    /* Transmit */
    e1000_txctx ctx, tso;
    bool pkt;     /* inside a packet */
    bool pkt_bad; /* the packet failed: skip to its EOP */
    bool pkt_tse; /* a segmentation packet */
    uint8_t pkt_popts;
    bool pkt_vle;
    uint16_t pkt_vlan;
    bool tx_stopped;                 /* a descriptor fetch failed: idle until TDT is written */
    bool tx_ide;                     /* a descriptor of the current packet had IDE */
    uint8_t hdr[256];                /* TSO: the header replayed in front of every segment */
    uint32_t seg_count, seg_payload; /* TSO: segments sent, payload bytes sent */
    /* Receive (the frame in progress is in nic) */
    bool rx_stopped; /* a descriptor fetch failed: idle until RDT is written */
    /* Parameters */
    uint64_t mdic_ticks;
    /* Counters (views) */
    uint64_t tso_frames, tx_bad_fcs, speed_mismatch, mdic_ops;
} e1000;

static inline e1000 *E1000(device *d) { return d->priv; }
static inline bool e1000_is_82544(const e1000 *h) { return h->variant == E1000_82544; }

/* e1000.c */
void e1000_stat_add(e1000 *h, unsigned reg, uint64_t v);
void e1000_stat_size(e1000 *h, unsigned first, uint32_t len);
/* e1000_phy.c */
void e1000_phy_init(e1000 *h);
void e1000_phy_reset(e1000 *h);
void e1000_link_update(e1000 *h);
unsigned e1000_speed(const e1000 *h); /* MAC speed field: 0 10, 1 100, 2 1000 */
bool e1000_full_duplex(const e1000 *h);
unsigned e1000_phy_speed(const e1000 *h); /* PHY resolved speed, same encoding */
bool e1000_speed_ok(const e1000 *h);      /* MAC and PHY agree (82543 forces the MAC) */
void e1000_ctrl_written(e1000 *h, uint32_t v, uint32_t old);
uint32_t e1000_ctrl_pins(const e1000 *h, uint32_t v);
void e1000_ctrl_ext_written(e1000 *h, uint32_t v, uint32_t old);
void e1000_mdic_written(e1000 *h, uint32_t v);
void e1000_view_phy(device *d, const char *args, view_ctx *ctx, strbuf *out);
/* A ring the device can use: a size, and head and tail inside it. */
static inline bool e1000_ring_ok(const nic_ring *r)
{
    return r->size && r->index < r->size && r->host < r->size;
}
/* The device owns the entries from head up to (not including) tail. */
static inline bool e1000_dev_owns(const nic_ring *r, uint32_t index)
{
    return e1000_ring_ok(r) &&
           (index + r->size - r->index) % r->size < (r->host + r->size - r->index) % r->size;
}
/* e1000_tx.c (checksums: net_csum_add and its folds, net/backend.h) */
void e1000_tx_init(e1000 *h);
void e1000_tx_reset(e1000 *h);
void e1000_tx_kick(e1000 *h);
void e1000_tidv_config(e1000 *h);
void e1000_view_offload(device *d, const char *args, view_ctx *ctx, strbuf *out);
/* e1000_rx.c */
void e1000_rx_init(e1000 *h);
void e1000_rx_reset(e1000 *h);
void e1000_rx_kick(e1000 *h);
void e1000_rdtr_written(e1000 *h, uint32_t v);
void e1000_filter_update(e1000 *h);
bool e1000_rx_frame(nic *n, const uint8_t *frame, size_t len);
void e1000_fc_levels(const nic *n, uint32_t *high, uint32_t *low);
void e1000_fc_sent(nic *n, bool xoff);
void e1000_view_filter(device *d, const char *args, view_ctx *ctx, strbuf *out);

#endif
