/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Packet Engines Hamachi GNIC-II (0x1318:0x0911): the model's state, shared
 * by hamachi.c (register declaration, reset, factory) and hamachi_dma.c (the
 * Tx and Rx DMA engines).  See docs/hardware.md "Hamachi GNIC-II". */
#ifndef XBOW_HAMACHI_H
#define XBOW_HAMACHI_H

#include "dev/nic/nic.h"
#include "dev/nic/nic_coalesce.h"
#include "dev/nic/nic_eeprom.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"

/* Register ids: index into the declaration table (hamachi.c). */
/* clang-format off */
enum hamachi_reg {
    HR_TX_DMA_CTRL, HR_TX_CMD, HR_TX_STATUS, HR_TX_PTR, HR_TX_PTR_HI, HR_TX_CUR, HR_TX_CUR_HI,
    HR_RX_DMA_CTRL, HR_RX_CMD, HR_RX_STATUS, HR_RX_PTR, HR_RX_PTR_HI, HR_RX_CUR, HR_RX_CUR_HI,
    HR_PCI_CLK, HR_MISC_STATUS, HR_CHIP_REV, HR_CHIP_REV_HI, HR_CHIP_RESET, HR_LED,
    HR_VJUMPERS, HR_GPIO, HR_TX_CSUM, HR_RX_CSUM, HR_TX_INTR_CTRL, HR_RX_INTR_CTRL,
    HR_INTR_ENABLE, HR_INTR_CLEAR, HR_INTR_STATUS, HR_EVENT_STATUS,
    HR_MAC_CNFG, HR_FRAME_GAP0, HR_FRAME_GAP1, HR_MII_CMD, HR_MII_ADDR, HR_MII_WR,
    HR_MII_RD, HR_MII_STATUS, HR_MAC_CNFG2, HR_RX_DEPTH, HR_FLOW_CTRL, HR_MAX_FRAME,
    HR_ADDR_MODE, HR_STATION, HR_AN_CTRL, HR_AN_STATUS, HR_AN_XCHG, HR_AN_E6, HR_AN_ADV,
    HR_AN_LPA, HR_EE_CMD, HR_EE_DATA, HR_EE_ADDR, HR_FIFO_CFG, HR_CAM_LO, HR_CAM_HI,
    HR_STAT_RX_MCAST, HR_STAT_RX_BYTES, HR_STAT_RX_JABBER, HR_STAT_RX_CRC, HR_STAT_RX_SYMBOL,
    HR_STAT_RX_LENGTH, HR_STAT_RX_DROPPED, HR_STAT_RX_OVF, HR_STAT_TX_BYTES, HR_STAT_TX_OVF,
    HR_NREGS
};
/* clang-format on */

/* Interrupt causes (Linux hamachi.c). */
#define HAM_INTR_RX_DONE 0x00001u
#define HAM_INTR_RX_PCI_FAULT 0x00002u
#define HAM_INTR_RX_PCI_ERR 0x00004u
#define HAM_INTR_TX_DONE 0x00100u
#define HAM_INTR_TX_PCI_FAULT 0x00200u
#define HAM_INTR_TX_PCI_ERR 0x00400u
#define HAM_INTR_LINK_CHANGE 0x10000u
#define HAM_INTR_NEG_CHANGE 0x20000u
#define HAM_INTR_STATS_MAX 0x40000u

/* Descriptor status_n_length bits (Linux hamachi.c). */
#define HAM_DESC_OWN 0x80000000u
#define HAM_DESC_EOP 0x40000000u
#define HAM_DESC_END_RING 0x20000000u
#define HAM_DESC_INTR 0x10000000u

/* Channel states, as TxStatus/RxStatus report them [INF]: bit 0 =
 * running, bit 1 = stopped at a descriptor it does not own (or a fault). */
enum ham_ch_state { HAM_CH_STOPPED = 0, HAM_CH_RUNNING = 1, HAM_CH_SUSPENDED = 2 };

/* Where the Rx engine is in the stream it writes for one frame:
 * data, FCS gap (4 bytes, not stored), pad to an 8-byte bus address, the
 * 16-byte status trailer. */
enum ham_rx_phase { HAM_RX_DATA, HAM_RX_FCS, HAM_RX_PAD, HAM_RX_TRAILER, HAM_RX_DONE };

typedef struct hamachi {
    nic n; /* first: the shared NIC shell */
    nic_ring tx, rx;
    nic_coal txc, rxc;
    nic_link link;
    nic_eeprom ee;
    nic_mac_filter filt;
    timer clk_timer;
    enum ham_ch_state tx_state, rx_state;
    bool clk_valid; /* PCIClkMeas bit 7 */
    bool tx_intr;   /* a descriptor of the frame being sent had DescIntr */
    /* The Rx frame in progress (the FIFO head; the rest is in nic). */
    enum ham_rx_phase rx_phase;
    uint32_t rx_gap, rx_toff;
    int rx_pad; /* -1 = not yet known */
    bool rx_intr;
    bool rx_nobuf; /* the last Rx fetch found no descriptor it owns */
} hamachi;

/* hamachi_dma.c */
void hamachi_dma_init(hamachi *h);
void hamachi_coal_fire(nic *n, int ring);
void hamachi_tx_cmd(hamachi *h, unsigned cmd);
void hamachi_rx_cmd(hamachi *h, unsigned cmd);
bool hamachi_rx_frame(nic *n, const uint8_t *frame, size_t len);
void hamachi_stat_add(hamachi *h, unsigned reg, uint32_t v);
uint16_t hamachi_ch_status(const hamachi *h, bool tx);

#endif
