/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A driver-side harness for the Tigon2 model, used by its unit tests and
 * its fuzz target: a fake PCI host and wire (nic_fake.h) plus a small
 * driver that does what Linux acenic does (ace_init, ace_open, the ISR,
 * ring refills, ace_start_xmit), with the byte order of a big-endian or a
 * little-endian host. */
#ifndef XBOW_TEST_TIGON_HOST_H
#define XBOW_TEST_TIGON_HOST_H

#include "dev/nic/tigon/tigon.h"
#include "../nic_fake.h"

/* The BAR registers the harness and the tests use (acenic.h's names). */
enum {
    HostCtrl = 0x40,
    LocalCtrl = 0x44,
    MiscCfg = 0x50,
    PciState = 0x5c,
    WinBase = 0x68,
    WinData = 0x6c,
    AssistState = 0x11c,
    CpuCtrl = 0x140,
    Pc = 0x144,
    SramAddr = 0x154,
    SramData = 0x158,
    CpuBCtrl = 0x240,
    MacStats = 0x480,
    Mb0Lo = 0x504,
    CmdPrd = 0x50c,
    TxPrd = 0x514,
    RxStdPrd = 0x51c,
    RxJumboPrd = 0x524,
    RxMiniPrd = 0x52c,
    MacAddrHi = 0x600,
    MacAddrLo = 0x604,
    InfoPtrHi = 0x608,
    InfoPtrLo = 0x60c,
    MultiCastHi = 0x610,
    MultiCastLo = 0x614,
    ModeStat = 0x618,
    DmaReadCfg = 0x61c,
    DmaWriteCfg = 0x620,
    TxBufRat = 0x624,
    EvtCsm = 0x628,
    CmdCsm = 0x62c,
    RxCoal = 0x630,
    TxCoal = 0x634,
    StatTicks = 0x638,
    TxMaxBD = 0x63c,
    RxMaxBD = 0x640,
    TuneLink = 0x648,
    TuneFastLink = 0x64c,
    IfIdx = 0x65c,
    IfMtu = 0x660,
    MaskInt = 0x664,
    GigLnkState = 0x668,
    RxRetCsm = 0x680,
    CmdRng = 0x700,
    Window = 0x800
};

/* The host's MAC address (the model's --mac). */
extern const uint8_t TGH_MAC[6];

/* Host memory layout (bus addresses). */
#define H_GIB (FAKE_LO + 0x1000)
#define H_EVT (FAKE_LO + 0x2000)
#define H_EVT_PRD (FAKE_LO + 0x2800)
#define H_RET_PRD (FAKE_LO + 0x2808)
#define H_TX_CSM (FAKE_LO + 0x2810)
#define H_TX (FAKE_LO + 0x3000)
#define H_STD (FAKE_LO + 0x5000)
#define H_JUMBO (FAKE_LO + 0x9000)
#define H_MINI (FAKE_LO + 0xb000)
#define H_RET (FAKE_LO + 0x13000)
#define H_STATS2 (FAKE_LO + 0x23000)
/* Buffers are reused by slot (the harness keeps fewer in flight). */
#define H_TXBUF(i) (FAKE_LO + 0x24000 + (uint64_t)((i) % 16) * 0x2400)
#define H_STDBUF(i) (FAKE_LO + 0x48000 + (uint64_t)((i) % 64) * 0x800)
#define H_JUMBOBUF(i) (FAKE_LO + 0x68000 + (uint64_t)((i) % 8) * 0x2400)
#define H_MINIBUF(i) (FAKE_LO + 0x7a000 + (uint64_t)((i) % 256) * 0x80)
#define H_RAM (1u << 20)
#define US(x) ((uint64_t)(x)*180)

/* Linux's OPMODE values. */
#define OM_BE (0x10 | 0x08 | 0x40000000 | 0x02 | 0x04 | 0x200)
#define OM_LE (0x10 | 0x08 | 0x40000000 | 0x04 | 0x200)

typedef struct tgh_cfg {
    uint32_t opmode;
    uint32_t host_ctrl; /* HostCtrl after the reset (swap bits, CLR_INT) */
    uint16_t tx_entries, tx_flags;
    uint64_t tx_addr; /* send ring: 0 = H_TX (host); else a NIC SRAM address */
    uint16_t std_max, mini_max, ret_entries;
    bool jumbo_disabled, mini_disabled;
    uint32_t rx_coal, rx_max, tx_coal, tx_max, stat_ticks;
    uint32_t link;    /* TuneLink (and TuneFastLink) */
    uint32_t mtu;     /* IfMtu = mtu + 18 */
    bool full_clear;  /* clear SRAM 0x2000..0x80000 as Linux does */
    bool no_firmware; /* skip the download */
} tgh_cfg;

typedef struct tgh_rx {
    uint32_t w[8]; /* the return BD as host words */
} tgh_rx;

typedef struct tg_host {
    NIC_RIG;
    tigon *t;
    bool be; /* the host is big-endian (descriptor words in memory) */
    tgh_cfg cfg;
    /* driver state */
    bool fw_running;
    uint32_t cmd_prd, tx_prd, tx_csm, ret_csm, std_prd, jumbo_prd, mini_prd;
    unsigned nevents;
    uint32_t events[512];
    unsigned nrx;
    tgh_rx rx[1024];
    unsigned isr_calls, isr_handled;
    bool isr_on;  /* tgh_run calls the ISR while INTA is high */
    bool refill;  /* the ISR reposts each buffer it takes back */
    bool pio_raw; /* PIO values reach the NIC byte-reversed (a host
                                without a swapping writel; HostCtrl BYTE_SWAP) */
} tg_host;

tgh_cfg tgh_linux_cfg(bool be);
void tgh_setup(tg_host *h, const char *model, bool be);
void tgh_teardown(tg_host *h);

void tgh_wr(tg_host *h, unsigned off, uint32_t v);
uint32_t tgh_rd(tg_host *h, unsigned off);
/* Host-order 32-bit words in host memory. */
void tgh_mw(tg_host *h, uint64_t addr, uint32_t v);
uint32_t tgh_mr(tg_host *h, uint64_t addr);

/* Download n words of "firmware" at SRAM address `at` through the window. */
void tgh_download(tg_host *h, uint32_t at, const uint32_t *w, unsigned n);
/* ace_init up to the start of the CPU; returns after `us` of virtual time
 * with the ISR running. */
void tgh_init(tg_host *h, const tgh_cfg *c);
/* tgh_init, then ace_open (IfMtu, CLEAR_STATS, HOST_STATE up) and the
 * standard and mini rings loaded; the link is up afterwards. */
void tgh_up(tg_host *h, const tgh_cfg *c, unsigned nstd, unsigned nmini);
void tgh_cmd(tg_host *h, unsigned code, unsigned sub, unsigned idx);
/* Post n buffers of `size` bytes on a receive ring (0 std, 1 jumbo, 2 mini)
 * with opaque cookie 0xc0de0000 | slot, and write its producer. */
void tgh_post(tg_host *h, int ring, unsigned n, uint16_t size);
/* Queue a frame in `nfrags` fragments with BD flags (END is added to the
 * last); returns the producer written. */
uint32_t tgh_send(tg_host *h, const uint8_t *frame, uint32_t len, unsigned nfrags, uint32_t flags,
                  uint16_t vlan);
/* Linux's interrupt handler: returns true if the interrupt was the NIC's. */
bool tgh_isr(tg_host *h);
/* Run the virtual clock, taking interrupts while isr_on. */
void tgh_run(tg_host *h, uint64_t ticks);
bool tgh_saw_event(const tg_host *h, unsigned code, unsigned sub);
/* A test frame: dst, src 02:00:00:00:00:01, IPv4/UDP type, payload bytes. */
void tgh_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k);
/* A valid IPv4/UDP frame with checksums (len >= 42). */
void tgh_udp_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k);
/* Read back the bytes of a received frame (the return BD's buffer). */
const uint8_t *tgh_rx_data(tg_host *h, const tgh_rx *r, uint32_t *len);

#endif
