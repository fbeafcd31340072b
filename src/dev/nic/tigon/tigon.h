/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Alteon Tigon2 (SGI Gigabit Ethernet 0x10A9:0x0009, AceNIC 0x12AE:0x0001/2):
 * the model's state, shared by
 *   tigon.c      register declaration, PIO, SRAM and window, CPU control,
 *                EEPROM, reset, views, factory;
 *   tigon_fw.c   the firmware, modelled in host code: boot,
 *                general information block, command and event rings,
 *                interrupts (Hi mailbox), link, statistics;
 *   tigon_dma.c  descriptor byte/word swapping, the send ring, the
 *                standard/jumbo/mini receive rings and the return ring,
 *                checksum and VLAN assists.
 * See docs/hardware.md "Tigon2". */
#ifndef XBOW_TIGON_H
#define XBOW_TIGON_H

#include "dev/nic/nic.h"
#include "dev/nic/nic_coalesce.h"
#include "dev/nic/nic_eeprom.h"
#include "dev/nic/nic_i2c.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"

/* Register ids: index into the declaration table (tigon.c). */
/* clang-format off */
enum tigon_reg {
    TR_PCI_CFG, TR_HOST_CTRL, TR_LOCAL_CTRL, TR_SEM_AB, TR_MISC_CFG, TR_PCI_STATE,
    TR_MAIN_EVT_A, TR_MBOX_EVT_A, TR_WIN_BASE, TR_WIN_DATA, TR_MAIN_EVT_B, TR_MBOX_EVT_B,
    TR_TIMER_REF_B, TR_SERIAL, TR_DMA_WR_STATE, TR_DMA_RD_STATE, TR_ASSIST, TR_CPU_CTRL, TR_PC,
    TR_SRAM_ADDR, TR_SRAM_DATA, TR_CPU_REGS, TR_MAC_TX_STATE, TR_MAC_RX_STATE, TR_CPUB_CTRL,
    TR_PCB, TR_SRAMB_ADDR, TR_SRAMB_DATA, TR_CPUB_REGS, TR_MAC_STATS,
    TR_MB0, /* 64 mailbox words 0x500..0x5FC follow (TR_MB0 + i = word i) */
    TR_MB_LAST = TR_MB0 + 63,
    /* General communication region (NIC SRAM 0x000..0x0FF). */
    TR_MAC_HI, TR_MAC_LO, TR_INFO_HI, TR_INFO_LO, TR_MC_HI, TR_MC_LO, TR_MODE_STAT,
    TR_DMA_RD_CFG, TR_DMA_WR_CFG, TR_TX_BUF_RAT, TR_EVT_CSM, TR_CMD_CSM, TR_RX_COAL, TR_TX_COAL,
    TR_STAT_TICKS, TR_TX_MAX_BD, TR_RX_MAX_BD, TR_TRACE, TR_TUNE_LINK, TR_TUNE_FAST_LINK,
    TR_TRACE_PTR, TR_TRACE_START, TR_TRACE_LEN, TR_IF_IDX, TR_IF_MTU, TR_MASK_INT,
    TR_GIG_LNK_STATE, TR_FAST_LNK_STATE, TR_RX_RET_CSM,
    TR_NREGS
};
/* clang-format on */

/* Mailbox words used by the host interface (word index from 0x500). */
#define TG_MB_HI 1        /* 0x504 Mb0Lo: host interrupt ("Hi") */
#define TG_MB_CMD_PRD 3   /* 0x50C */
#define TG_MB_TX_PRD 5    /* 0x514 */
#define TG_MB_STD_PRD 7   /* 0x51C */
#define TG_MB_JUMBO_PRD 9 /* 0x524 */
#define TG_MB_MINI_PRD 11 /* 0x52C */

/* Offsets. */
#define TG_BAR_SIZE 0x4000
#define TG_GCR 0x600      /* NIC SRAM address 0 */
#define TG_CMD_RING 0x700 /* NIC SRAM address 0x100 */
#define TG_WINDOW 0x800
#define TG_WINDOW_SIZE 0x800

/* HostCtrl. */
#define TG_HC_IN_INT 0x01
#define TG_HC_CLR_INT 0x02
#define TG_HC_HW_RESET 0x08
#define TG_HC_BYTE_SWAP 0x10
#define TG_HC_WORD_SWAP 0x20
#define TG_HC_MASK_INTS 0x40
#define TG_REV_TIGON2 6u
/* LocalCtrl. */
#define TG_LC_EE_CLK 0x100000u
#define TG_LC_EE_OE 0x200000u
#define TG_LC_EE_DOUT 0x400000u
#define TG_LC_EE_DIN 0x800000u
/* CpuCtrl. */
#define TG_CPU_RESET 0x01u
#define TG_CPU_STEP 0x02u
#define TG_CPU_ROM_FAIL 0x10u
#define TG_CPU_HALT 0x10000u
#define TG_CPU_HALTED_INSN 0x40000u
/* ModeStat (OPMODE). */
#define TG_OM_BYTESWAP_BD 0x02u
#define TG_OM_WORDSWAP_BD 0x04u
#define TG_OM_BYTESWAP_DATA 0x10u
#define TG_OM_DONT_FRAG_JUMBO 0x200u
#define TG_OM_INCLUDE_CRC 0x400u
#define TG_OM_NO_EVENT_INTRS 0x1000u
#define TG_OM_NO_TX_INTRS 0x2000u
#define TG_OM_NO_RX_INTRS 0x4000u
/* Link words (TuneLink, TuneFastLink, GigLnkState, FastLnkState). */
#define TG_LNK_10MB 0x00010000u
#define TG_LNK_100MB 0x00020000u
#define TG_LNK_1000MB 0x00040000u
#define TG_LNK_FULL_DUPLEX 0x00080000u
#define TG_LNK_HALF_DUPLEX 0x00100000u
#define TG_LNK_TX_FLOW 0x00200000u
#define TG_LNK_RX_FLOW 0x00800000u
#define TG_LNK_NEGOTIATE 0x20000000u
#define TG_LNK_ENABLE 0x40000000u
#define TG_LNK_UP 0x80000000u
/* RCB flags. */
#define TG_RCB_TCP_UDP_SUM 0x01u
#define TG_RCB_IP_SUM 0x02u
#define TG_RCB_NO_PSEUDO_HDR 0x08u
#define TG_RCB_VLAN_ASSIST 0x10u
#define TG_RCB_COAL_UPDATE_ONLY 0x20u
#define TG_RCB_HOST_RING 0x40u
#define TG_RCB_EXT_RX_BD 0x100u
#define TG_RCB_DISABLED 0x200u
/* BD flags. */
#define TG_BD_TCP_UDP_SUM 0x0001u
#define TG_BD_IP_SUM 0x0002u
#define TG_BD_END 0x0004u
#define TG_BD_MORE 0x0008u
#define TG_BD_JUMBO 0x0010u
#define TG_BD_UCAST 0x0020u
#define TG_BD_MCAST 0x0040u
#define TG_BD_BCAST 0x0060u
#define TG_BD_VLAN_TAG 0x0200u
#define TG_BD_FRAME_ERROR 0x0400u
#define TG_BD_COAL_NOW 0x0800u
#define TG_BD_MINI 0x1000u
/* Receive error flags (upper half of BD word 5). */
#define TG_RXERR_MAC_ABORT 0x0020u
#define TG_RXERR_TRUNC 0x0080u
/* Commands and events: word = code << 24 | sub << 12 | idx. */
/* clang-format off */
enum {
    TG_C_HOST_STATE = 0x01, TG_C_FDR_FILTERING = 0x02, TG_C_SET_RX_PRD_IDX = 0x03,
    TG_C_UPDATE_GENCOM = 0x04, TG_C_RESET_JUMBO_RNG = 0x05, TG_C_SET_PARTIAL_RX_CNT = 0x06,
    TG_C_ADD_MC_ADDR = 0x08, TG_C_DEL_MC_ADDR = 0x09, TG_C_SET_PROMISC_MODE = 0x0a,
    TG_C_LINK_NEGOTIATION = 0x0b, TG_C_SET_MAC_ADDR = 0x0c, TG_C_CLEAR_PROFILE = 0x0d,
    TG_C_SET_MULTICAST_MODE = 0x0e, TG_C_CLEAR_STATS = 0x0f, TG_C_SET_RX_JUMBO_PRD_IDX = 0x10,
    TG_C_REFRESH_STATS = 0x11, TG_C_EXT_ADD_MC_ADDR = 0x12, TG_C_EXT_DEL_MC_ADDR = 0x13,
    TG_NCMDS
};
/* clang-format on */
/* clang-format off */
enum {
    TG_E_FW_RUNNING = 0x01, TG_E_STATS_UPDATED = 0x04, TG_E_LINK_STATE = 0x06,
    TG_E_ERROR = 0x07, TG_E_MCAST_LIST = 0x08, TG_E_RESET_JUMBO_RNG = 0x09, TG_NEVENT_CODES
};
/* clang-format on */
#define TG_E_LINK_UP 1
#define TG_E_LINK_DOWN 2
#define TG_E_LINK_10_100 3
#define TG_E_ERR_INVAL_CMD 1
#define TG_E_ERR_UNIMP_CMD 2
#define TG_E_ERR_BAD_CFG 3

/* Ring geometry (docs/hardware.md, "Rings and descriptors"). */
#define TG_EVT_ENTRIES 256
#define TG_CMD_ENTRIES 64
#define TG_STD_ENTRIES 512
#define TG_JUMBO_ENTRIES 256
#define TG_MINI_ENTRIES 1024
#define TG_RET_ENTRIES 2048
#define TG_TX_MAX_ENTRIES 512
#define TG_GIB_RCBS 0x400 /* after u32 stats[256] */
#define TG_GIB_PTRS 0x470 /* event producer, return producer, Tx consumer, refresh stats */

/* The RCBs in GIB order. */
enum {
    TG_RCB_EVENT,
    TG_RCB_CMD,
    TG_RCB_SEND,
    TG_RCB_STD,
    TG_RCB_JUMBO,
    TG_RCB_MINI,
    TG_RCB_RETURN,
    TG_NRCB
};

/* Interrupt requests of the firmware (nic_irq cause bits). */
#define TG_CAUSE_EVENT 0x1u
#define TG_CAUSE_TX 0x2u
#define TG_CAUSE_RX 0x4u

/* The modelled firmware's state. */
/* clang-format off */
enum tg_fw_state {
    TG_FW_HALTED, TG_FW_ROM, TG_FW_BOOTING, TG_FW_RUNNING, TG_FW_NO_CODE, TG_FW_FAULT
};
/* clang-format on */

/* Declared events after the common NIC ones. */
enum { TG_EV_MAILBOX = NIC_NEVENTS, TG_EV_CMD, TG_EV_EVENT, TG_EV_FW, TG_EV_STATS, TG_NEVENTS };

typedef struct tg_rcb {
    uint64_t addr;
    uint16_t max_len, flags;
} tg_rcb;

/* Counters of the firmware's statistics block (cleared by CLEAR_STATS). */
typedef struct tg_fwstats {
    uint32_t cmds[TG_NCMDS + 1]; /* last = unknown */
    uint32_t events[TG_NEVENT_CODES];
    uint32_t interrupts, event_ring_full, no_rx_bds, dma_rd_aborts, dma_wr_aborts;
    uint64_t in_octets, in_ucast, in_mcast, in_bcast, out_octets, out_ucast, out_mcast, out_bcast;
    uint32_t in_discards, in_errors, out_discards, out_errors, too_long;
} tg_fwstats;

#define TG_EVQ 64 /* events held back while the host's event ring is full */

typedef struct tigon {
    nic n; /* first: the shared NIC shell */
    nic_ring tx, std, jumbo, mini, ret, evt, cmd;
    nic_coal txc, rxc;
    nic_link link;
    nic_eeprom ee;
    nic_i2c i2c;
    nic_mac_filter filt;
    /* NIC SRAM: the GCR at 0, the command ring at 0x100, the firmware. */
    uint32_t *sram;
    uint8_t *sram_wr;      /* one bit per word: written by the host since power-on */
    uint32_t sram_size;    /* bytes */
    uint32_t sram_wr_size; /* bytes of sram_wr: sram_size / 32 */
    uint64_t fw_words;     /* words the host wrote above 0x200 since power-on */
    /* CPU A and the modelled firmware. */
    enum tg_fw_state fw;
    uint32_t cpu_status; /* TG_CPU_HALTED_INSN / ROM_FAIL as read back */
    uint32_t cpub_status;
    uint32_t fw_pc; /* where it was started */
    timer rom_t, boot_t, cmd_t, stats_t;
    bool stack_up;      /* HOST_STATE up */
    bool link_fast;     /* the link came up on the 10/100 side (TuneFastLink) */
    uint32_t link_word; /* the Tune word the link was started with */
    tg_rcb rcb[TG_NRCB];
    uint64_t gib, evt_prd_addr, ret_prd_addr, tx_csm_addr, stats2_addr;
    /* Event ring (NIC -> host). */
    uint32_t evq[TG_EVQ];
    unsigned evq_n;
    uint64_t evt_time[TG_EVT_ENTRIES];
    uint64_t events_lost;
    /* Send ring. */
    uint32_t tx_reported;    /* consumer index last written to host memory */
    uint64_t tx_unreported;  /* when the oldest unreported BD was consumed */
    uint32_t tx_frame_flags; /* flags ORed over the BDs of the frame being gathered */
    uint16_t tx_vlan;
    bool tx_skip;            /* a fragment of this frame failed: drop it at END */
    bool tx_fault, rx_fault; /* a ring DMA failed: engine stopped until the next doorbell */
    /* Receive. */
    bool rx_nobuf;
    uint8_t *rxbuf; /* the frame as placed in host memory */
    /* Interrupt state (Hi mailbox and MASK_INTS gate nic_irq). */
    uint32_t hi;
    tg_fwstats st;
    uint32_t cfg_coal[4]; /* coalescing words the coalescers were set up with */
    /* Model parameters. */
    uint64_t rom_ticks, boot_ticks, cmd_ticks;
    bool require_code; /* start only if the host wrote the word at Pc */
} tigon;

static inline tigon *TG(device *d) { return d->priv; }

/* tigon.c */
uint32_t tg_sram_read(const tigon *t, uint32_t addr);
void tg_sram_write(tigon *t, uint32_t addr, uint32_t v, bool host);
static inline uint32_t tg_gcr(const tigon *t, unsigned off)
{
    return tg_sram_read(t, off - TG_GCR);
}
static inline uint32_t tg_opmode(const tigon *t) { return tg_gcr(t, 0x618); }
uint32_t tg_mailbox(const tigon *t, unsigned word);

/* tigon_fw.c */
void tg_fw_init(tigon *t);
void tg_fw_fini(tigon *t);
void tg_fw_reset(tigon *t);
void tg_fw_cpu_write(tigon *t, uint32_t v, uint32_t old);
void tg_fw_mailbox(tigon *t, unsigned word, uint32_t v, uint32_t old);
void tg_fw_gcr_written(tigon *t, uint32_t nic_addr);
void tg_fw_post_event(tigon *t, unsigned code, unsigned sub, unsigned idx);
void tg_irq_request(tigon *t, uint32_t cause);
void tg_irq_update(tigon *t);
bool tg_in_int(const tigon *t);
bool tg_fw_running(const tigon *t);
void tg_fw_link_changed(nic *n);
void tg_fw_show(tigon *t, strbuf *out);
const char *tg_fw_state_name(enum tg_fw_state fw);
uint32_t tg_mac_stat(const tigon *t, unsigned idx);

/* tigon_dma.c */
void tg_dma_init(tigon *t);
void tg_dma_mailbox(tigon *t, unsigned word, uint32_t v);
void tg_dma_reset(tigon *t);
void tg_dma_start(tigon *t); /* firmware up: rings from the RCBs */
void tg_dma_stop(tigon *t);  /* firmware halted: engines stop */
void tg_coal_refresh(tigon *t);
void tg_coal_fire(nic *n, int ring);
void tg_tx_kick(tigon *t);
void tg_rx_kick(tigon *t);
void tg_rx_ring_reset(tigon *t, nic_ring *r);
bool tg_rx_frame(nic *n, const uint8_t *frame, size_t len);
/* Descriptor words: logical word k of raw (little-endian) words, and back. */
uint32_t tg_bd_in(const tigon *t, const uint32_t *raw, unsigned k);
void tg_bd_out(const tigon *t, uint32_t *raw, unsigned k, uint32_t v);
uint32_t tg_idx_out(const tigon *t, uint32_t v);
int tg_write_index(tigon *t, uint64_t addr, uint32_t v, int ring);

#endif
