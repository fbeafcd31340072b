/* Alteon Tigon2: the register declaration (nics.md B.2), PIO byte swapping,
 * NIC SRAM with the general communication region, the command ring and the
 * 2 KiB window, CPU A/B control, the I2C EEPROM, reset, views and the
 * factory entries.  The firmware is in tigon_fw.c, the DMA engines in
 * tigon_dma.c.  Choices marked [INF]/[UNC] are listed in docs/hardware.md
 * "Tigon2". */
#include "dev/tigon.h"

#include <stdio.h>
#include <stdlib.h>

#define TG_SRAM_SIZE (1u << 20)   /* 1 MiB: two 512 KiB banks [INF] */
#define TG_EE_SIZE 4096           /* AT24C32 */
#define TG_EE_MAC 0x8c            /* 00 00 then the MAC (B.3 item 4) */
#define TG_FIFO_BYTES (256u << 10) /* Rx buffer space in SRAM [INF] */

/* ---- SRAM ---------------------------------------------------------------- */

uint32_t tg_sram_read(const tigon *t, uint32_t addr)
{
    addr &= ~3u;
    return addr < t->sram_size ? t->sram[addr / 4] : 0;
}

/* A write by the host (window, SramData, GCR) or by the firmware itself.
 * Memory beyond the SRAM ignores writes and reads 0 [INF]. */
void tg_sram_write(tigon *t, uint32_t addr, uint32_t v, bool host)
{
    addr &= ~3u;
    if (addr >= t->sram_size)
        return;
    t->sram[addr / 4] = v;
    if (!host)
        return;
    t->sram_wr[addr / 32] |= (uint8_t)(1u << ((addr / 4) & 7));
    if (addr < 0x200)
        tg_fw_gcr_written(t, addr);
    else
        t->fw_words++; /* beyond the GCR and the command ring: a download */
}

uint32_t tg_mailbox(const tigon *t, unsigned word)
{
    return (uint32_t)*dev_rv(t->n.dev, TR_MB0 + word, 0);
}

static bool tg_pio_swap(nic *n)
{
    return DEV_R(n->dev, TR_HOST_CTRL) & TG_HC_BYTE_SWAP;
}

/* ---- register hooks ---------------------------------------------------------- */

#define HOOK_ARGS device *d, const reg_decl *r, unsigned idx
#define RD(name) static uint64_t name(HOOK_ARGS, bool peek)
#define WR(name) static void name(HOOK_ARGS, uint64_t v, uint64_t old)

RD(r_pci_cfg)
{
    (void)r;
    (void)peek;
    return pci_config_read(&TG(d)->n.pci, idx * 4, 4);
}

/* [INF] writes through the mirror reach configuration space (FreeBSD clears
 * memory-write-and-invalidate through it). */
WR(w_pci_cfg)
{
    (void)r;
    (void)old;
    pci_config_write(&TG(d)->n.pci, idx * 4, 4, (uint32_t)v);
}

RD(r_host_ctrl)
{
    (void)r;
    (void)idx;
    (void)peek;
    tigon *t = TG(d);
    return (DEV_R(d, TR_HOST_CTRL) & 0x70) | (tg_in_int(t) ? TG_HC_IN_INT : 0) |
           (uint64_t)TG_REV_TIGON2 << 28;
}

/* HW_RESET and CLR_INT act; BYTE_SWAP, WORD_SWAP and MASK_INTS are kept
 * (wmask).  Drivers replicate the bits in byte 3: those land in bits the
 * mask refuses. */
WR(w_host_ctrl)
{
    (void)r;
    (void)idx;
    (void)old;
    tigon *t = TG(d);
    if (v & TG_HC_HW_RESET) {
        device_reset(d);
        return;
    }
    if (v & TG_HC_CLR_INT)
        nic_irq_deassert(&t->n, ~0u);
    tg_irq_update(t);
}

RD(r_local_ctrl)
{
    (void)r;
    (void)idx;
    (void)peek;
    return (DEV_R(d, TR_LOCAL_CTRL) & ~(uint64_t)TG_LC_EE_DIN) |
           (nic_i2c_sda(&TG(d)->i2c) ? TG_LC_EE_DIN : 0);
}

WR(w_local_ctrl)
{
    (void)r;
    (void)idx;
    (void)old;
    /* The host drives SDA only while the output enable is set. */
    bool sda = (v & TG_LC_EE_OE) ? (v & TG_LC_EE_DOUT) != 0 : true;
    nic_i2c_pins(&TG(d)->i2c, (v & TG_LC_EE_CLK) != 0, sda);
}

RD(r_pci_state)
{
    (void)r;
    (void)idx;
    (void)peek;
    /* The Bridge's bus: 64 bits at 33 MHz, so PCI_66MHZ and PCI_32BIT read 0. */
    return DEV_R(d, TR_PCI_STATE) & ~0x180000ull;
}

/* WinData: the SRAM word at WinBase [INF]. */
RD(r_win_data)
{
    (void)r;
    (void)idx;
    (void)peek;
    return tg_sram_read(TG(d), (uint32_t)DEV_R(d, TR_WIN_BASE));
}

WR(w_win_data)
{
    (void)r;
    (void)idx;
    (void)old;
    tg_sram_write(TG(d), (uint32_t)DEV_R(d, TR_WIN_BASE), (uint32_t)v, true);
}

/* SramData / SramBData: the word at SramAddr / SramBAddr. */
RD(r_sram_data)
{
    (void)idx;
    (void)peek;
    unsigned a = r == &d->cls->regs[TR_SRAM_DATA] ? TR_SRAM_ADDR : TR_SRAMB_ADDR;
    return tg_sram_read(TG(d), (uint32_t)DEV_R(d, a));
}

WR(w_sram_data)
{
    (void)idx;
    (void)old;
    unsigned a = r == &d->cls->regs[TR_SRAM_DATA] ? TR_SRAM_ADDR : TR_SRAMB_ADDR;
    tg_sram_write(TG(d), (uint32_t)DEV_R(d, a), (uint32_t)v, true);
}

RD(r_cpu_ctrl)
{
    (void)idx;
    (void)peek;
    tigon *t = TG(d);
    bool b = r == &d->cls->regs[TR_CPUB_CTRL];
    return DEV_R(d, b ? TR_CPUB_CTRL : TR_CPU_CTRL) | (b ? t->cpub_status : t->cpu_status);
}

WR(w_cpu_ctrl)
{
    (void)idx;
    tigon *t = TG(d);
    if (r == &d->cls->regs[TR_CPUB_CTRL]) {
        /* CPU B: drivers halt it and never run it.  Releasing it is
         * accepted; it runs nothing [INF]. */
        DEV_R(d, TR_CPUB_CTRL) &= ~(uint64_t)TG_CPU_RESET;
        if (!(v & TG_CPU_HALT))
            t->cpub_status = 0;
        return;
    }
    tg_fw_cpu_write(t, (uint32_t)v, (uint32_t)old);
}

RD(r_mac_stats)
{
    (void)r;
    (void)peek;
    return tg_mac_stat(TG(d), idx);
}

WR(w_mailbox)
{
    tigon *t = TG(d);
    unsigned word = (unsigned)(r - &d->cls->regs[TR_MB0]) + idx;
    tg_fw_mailbox(t, word, (uint32_t)v, (uint32_t)old);
}

/* GCR registers live in SRAM (NIC address = offset - 0x600). */
RD(r_gcr)
{
    (void)peek;
    return tg_sram_read(TG(d), r->offset - TG_GCR + idx * 4);
}

WR(w_gcr)
{
    (void)old;
    tg_sram_write(TG(d), r->offset - TG_GCR + idx * 4, (uint32_t)v, true);
}

/* ---- SRAM behind the command ring, the window and the GCR gaps ---------- */

static bool sram_offset(device *d, uint64_t off, uint32_t *addr)
{
    if (off >= TG_WINDOW && off < TG_WINDOW + TG_WINDOW_SIZE) {
        uint32_t base = (uint32_t)DEV_R(d, TR_WIN_BASE) & ~(TG_WINDOW_SIZE - 1u);
        *addr = base + (uint32_t)(off - TG_WINDOW); /* the low 11 bits of WinBase are ignored */
        return true;
    }
    if (off >= TG_GCR && off < TG_WINDOW) { /* GCR gaps and the command ring */
        *addr = (uint32_t)(off - TG_GCR);
        return true;
    }
    return false;
}

static int other_access(device *d, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    uint32_t a;
    if (size != 4 || (off & 3) || !sram_offset(d, off, &a)) {
        EVENT_EMIT(d->ev[DEV_EV_BAD_ACCESS], d->initiator, off, size, write, write ? *val : 0);
        if (!write)
            *val = 0;
        return BUS_OK;
    }
    if (write)
        tg_sram_write(TG(d), a, (uint32_t)*val, true);
    else
        *val = tg_sram_read(TG(d), a);
    return BUS_OK;
}

static int tg_other_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    (void)op;
    return other_access(d, off, size, val, false);
}

static int tg_other_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    (void)op;
    return other_access(d, off, size, &val, true);
}

/* ---- the declaration --------------------------------------------------------- */

static const reg_field f_host_ctrl[] = {
    {"IN_INT", 0, 1, NULL},    {"CLR_INT", 1, 1, NULL},   {"HW_RESET", 3, 1, NULL},
    {"BYTE_SWAP", 4, 1, NULL}, {"WORD_SWAP", 5, 1, NULL}, {"MASK_INTS", 6, 1, NULL},
    {"REV", 28, 4, NULL},      {NULL, 0, 0, NULL}};
static const reg_field f_local_ctrl[] = {{"SRAM_BANK", 8, 2, NULL}, {"EE_CLK", 20, 1, NULL},
                                         {"EE_OE", 21, 1, NULL},    {"EE_DOUT", 22, 1, NULL},
                                         {"EE_DIN", 23, 1, NULL},   {NULL, 0, 0, NULL}};
static const reg_field f_pci_state[] = {{"READ_MAX", 2, 3, NULL}, {"WRITE_MAX", 5, 3, NULL},
                                        {"MIN_DMA", 8, 8, NULL},  {"MEM_RD_MULT", 17, 1, NULL},
                                        {"PCI_66MHZ", 19, 1, NULL}, {"PCI_32BIT", 20, 1, NULL},
                                        {"READ_CMD", 24, 4, NULL}, {"WRITE_CMD", 28, 4, NULL},
                                        {NULL, 0, 0, NULL}};
static const reg_field f_cpu[] = {{"RESET", 0, 1, NULL},    {"STEP", 1, 1, NULL},
                                  {"ROM_FAIL", 4, 1, NULL}, {"HALT", 16, 1, NULL},
                                  {"HALTED", 18, 1, NULL},  {NULL, 0, 0, NULL}};
static const reg_field f_mode[] = {
    {"BYTESWAP_BD", 1, 1, NULL},    {"WORDSWAP_BD", 2, 1, NULL},   {"WARN", 3, 1, NULL},
    {"BYTESWAP_DATA", 4, 1, NULL},  {"ONE_DMA", 6, 1, NULL},       {"DONT_FRAG_JUMBO", 9, 1, NULL},
    {"INCLUDE_CRC", 10, 1, NULL},   {"RX_BADFRAMES", 11, 1, NULL}, {"NO_EVENT_INTRS", 12, 1, NULL},
    {"NO_TX_INTRS", 13, 1, NULL},   {"NO_RX_INTRS", 14, 1, NULL},  {"FATAL", 30, 1, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_link[] = {
    {"PREF", 15, 1, NULL},        {"10MB", 16, 1, NULL},     {"100MB", 17, 1, NULL},
    {"1000MB", 18, 1, NULL},      {"FULL", 19, 1, NULL},     {"HALF", 20, 1, NULL},
    {"TX_FLOW", 21, 1, NULL},     {"RX_FLOW", 23, 1, NULL},  {"NEG_FCTL", 28, 1, NULL},
    {"NEGOTIATE", 29, 1, NULL},   {"ENABLE", 30, 1, NULL},   {"UP", 31, 1, NULL},
    {NULL, 0, 0, NULL}};

#define F32 R_FULL
#define REG(id, nm, off, fl, rst, wm, fld, ds, rd, wr) \
    [id] = {nm, off, 4, 1, 0, (fl) | F32, rst, wm, fld, ds, rd, wr}
#define ARR(id, nm, off, cnt, fl, ds, rd, wr) \
    [id] = {nm, off, 4, cnt, 4, (fl) | F32, 0, 0, NULL, ds, rd, wr}
#define PLAIN(id, nm, off, ds) REG(id, nm, off, 0, 0, 0, NULL, ds, NULL, NULL)
#define MB(w, nm, ds) [TR_MB0 + (w)] = {nm, 0x500 + 4 * (w), 4, 1, 0, F32, 0, 0, NULL, ds, NULL, w_mailbox}
#define MBX(k, hi, lo) MB(2 * (k), hi, NULL), MB(2 * (k) + 1, lo, NULL)
#define GCR(id, nm, off, fld, ds) \
    [id] = {nm, off, 4, 1, 0, R_NOSTORE | F32, 0, 0, fld, ds, r_gcr, w_gcr}
#define NS R_NOSTORE

static const reg_decl tg_regs[TR_NREGS] = {
    ARR(TR_PCI_CFG, "PciCfg", 0x000, 16, NS, "PCI configuration space mirror", r_pci_cfg,
        w_pci_cfg),
    REG(TR_HOST_CTRL, "HostCtrl", 0x040, 0, 0, 0x70, f_host_ctrl,
        "misc host control: interrupt state, reset, PIO swap, INTA mask, revision",
        r_host_ctrl, w_host_ctrl),
    REG(TR_LOCAL_CTRL, "LocalCtrl", 0x044, 0, 0, ~(uint64_t)TG_LC_EE_DIN, f_local_ctrl,
        "misc local control: SRAM bank size, EEPROM (I2C) pins", r_local_ctrl, w_local_ctrl),
    PLAIN(TR_SEM_AB, "SemAB", 0x048, "CPU A/B semaphore (stored)"),
    PLAIN(TR_MISC_CFG, "MiscCfg", 0x050, "misc configuration (SYNC_SRAM_TIMING 0x100000)"),
    REG(TR_PCI_STATE, "PciState", 0x05c, 0, 0, 0, f_pci_state, "PCI DMA state", r_pci_state,
        NULL),
    PLAIN(TR_MAIN_EVT_A, "MainEventA", 0x060, "firmware-internal (stored)"),
    PLAIN(TR_MBOX_EVT_A, "MailboxEventA", 0x064, "firmware-internal (stored)"),
    PLAIN(TR_WIN_BASE, "WinBase", 0x068, "SRAM window base (low 11 bits ignored)"),
    REG(TR_WIN_DATA, "WinData", 0x06c, NS, 0, 0, NULL, "SRAM word at WinBase", r_win_data,
        w_win_data),
    PLAIN(TR_MAIN_EVT_B, "MainEventB", 0x070, "firmware-internal (stored)"),
    PLAIN(TR_MBOX_EVT_B, "MailboxEventB", 0x074, "firmware-internal (stored)"),
    PLAIN(TR_TIMER_REF_B, "TimerRefB", 0x078, "firmware-internal (stored)"),
    PLAIN(TR_SERIAL, "Serial", 0x07c, "firmware-internal (stored)"),
    PLAIN(TR_DMA_WR_STATE, "DmaWriteState", 0x0a0, "DMA write state (stored)"),
    PLAIN(TR_DMA_RD_STATE, "DmaReadState", 0x0b0, "DMA read state (stored)"),
    PLAIN(TR_ASSIST, "AssistState", 0x11c, "DMA assist (1 = enable; stored)"),
    REG(TR_CPU_CTRL, "CpuCtrl", 0x140, 0, 0, 0x10003, f_cpu,
        "CPU A: clear HALT to start the firmware at Pc", r_cpu_ctrl, w_cpu_ctrl),
    PLAIN(TR_PC, "Pc", 0x144, "CPU A program counter (firmware start address)"),
    PLAIN(TR_SRAM_ADDR, "SramAddr", 0x154, "CPU A indirect SRAM address"),
    REG(TR_SRAM_DATA, "SramData", 0x158, NS, 0, 0, NULL, "SRAM word at SramAddr", r_sram_data,
        w_sram_data),
    ARR(TR_CPU_REGS, "CpuReg", 0x180, 32, 0, "CPU A general registers (stored)", NULL, NULL),
    PLAIN(TR_MAC_TX_STATE, "MacTxState", 0x200, "firmware-internal (stored)"),
    PLAIN(TR_MAC_RX_STATE, "MacRxState", 0x220, "firmware-internal (stored)"),
    REG(TR_CPUB_CTRL, "CpuBCtrl", 0x240, 0, 0, 0x10003, f_cpu, "CPU B state (never runs)",
        r_cpu_ctrl, w_cpu_ctrl),
    PLAIN(TR_PCB, "PcB", 0x244, "CPU B program counter"),
    PLAIN(TR_SRAMB_ADDR, "SramBAddr", 0x254, "CPU B indirect SRAM address"),
    REG(TR_SRAMB_DATA, "SramBData", 0x258, NS, 0, 0, NULL, "SRAM word at SramBAddr",
        r_sram_data, w_sram_data),
    ARR(TR_CPUB_REGS, "CpuBReg", 0x280, 32, 0, "CPU B general registers (stored)", NULL, NULL),
    ARR(TR_MAC_STATS, "MacStats", 0x480, 32, R_RO | NS, "MAC statistics (struct ace_mac_stats)",
        r_mac_stats, NULL),
    MB(0, "Mb0Hi", NULL),
    MB(1, "Mb0Lo", "host interrupt mailbox (Hi): any write clears INTA, non-zero holds it off"),
    MB(2, "Mb1Hi", NULL),
    MB(3, "CmdPrd", "command ring producer"),
    MB(4, "Mb2Hi", NULL),
    MB(5, "TxPrd", "send ring producer"),
    MB(6, "Mb3Hi", NULL),
    MB(7, "RxStdPrd", "standard receive ring producer"),
    MB(8, "Mb4Hi", NULL),
    MB(9, "RxJumboPrd", "jumbo receive ring producer"),
    MB(10, "Mb5Hi", NULL),
    MB(11, "RxMiniPrd", "mini receive ring producer"),
    MBX(6, "Mb6Hi", "Mb6Lo"), MBX(7, "Mb7Hi", "Mb7Lo"), MBX(8, "Mb8Hi", "Mb8Lo"),
    MBX(9, "Mb9Hi", "Mb9Lo"), MBX(10, "MbAHi", "MbALo"), MBX(11, "MbBHi", "MbBLo"),
    MBX(12, "MbCHi", "MbCLo"), MBX(13, "MbDHi", "MbDLo"), MBX(14, "MbEHi", "MbELo"),
    MBX(15, "MbFHi", "MbFLo"), MBX(16, "Mb10Hi", "Mb10Lo"), MBX(17, "Mb11Hi", "Mb11Lo"),
    MBX(18, "Mb12Hi", "Mb12Lo"), MBX(19, "Mb13Hi", "Mb13Lo"), MBX(20, "Mb14Hi", "Mb14Lo"),
    MBX(21, "Mb15Hi", "Mb15Lo"), MBX(22, "Mb16Hi", "Mb16Lo"), MBX(23, "Mb17Hi", "Mb17Lo"),
    MBX(24, "Mb18Hi", "Mb18Lo"), MBX(25, "Mb19Hi", "Mb19Lo"), MBX(26, "Mb1AHi", "Mb1ALo"),
    MBX(27, "Mb1BHi", "Mb1BLo"), MBX(28, "Mb1CHi", "Mb1CLo"), MBX(29, "Mb1DHi", "Mb1DLo"),
    MBX(30, "Mb1EHi", "Mb1ELo"), MBX(31, "Mb1FHi", "Mb1FLo"),
    GCR(TR_MAC_HI, "MacAddrHi", 0x600, NULL, "station address bytes 0-1"),
    GCR(TR_MAC_LO, "MacAddrLo", 0x604, NULL, "station address bytes 2-5"),
    GCR(TR_INFO_HI, "InfoPtrHi", 0x608, NULL, "general information block, high 32 bits"),
    GCR(TR_INFO_LO, "InfoPtrLo", 0x60c, NULL, "general information block, low 32 bits"),
    GCR(TR_MC_HI, "MultiCastHi", 0x610, NULL, "multicast address for ADD/DEL_MC_ADDR"),
    GCR(TR_MC_LO, "MultiCastLo", 0x614, NULL, "multicast address, bytes 2-5"),
    GCR(TR_MODE_STAT, "ModeStat", 0x618, f_mode, "operating mode: descriptor and data swap"),
    GCR(TR_DMA_RD_CFG, "DmaReadCfg", 0x61c, NULL, "DMA read threshold (stored)"),
    GCR(TR_DMA_WR_CFG, "DmaWriteCfg", 0x620, NULL, "DMA write threshold (stored)"),
    GCR(TR_TX_BUF_RAT, "TxBufRat", 0x624, NULL, "Tx share of SRAM in 64ths (stored)"),
    GCR(TR_EVT_CSM, "EvtCsm", 0x628, NULL, "event ring consumer (host)"),
    GCR(TR_CMD_CSM, "CmdCsm", 0x62c, NULL, "command ring consumer (firmware)"),
    GCR(TR_RX_COAL, "TuneRxCoalTicks", 0x630, NULL, "Rx coalescing wait, us (0 = none)"),
    GCR(TR_TX_COAL, "TuneTxCoalTicks", 0x634, NULL, "Tx coalescing wait, us (0 = none)"),
    GCR(TR_STAT_TICKS, "TuneStatTicks", 0x638, NULL, "statistics DMA period, us (0 = off)"),
    GCR(TR_TX_MAX_BD, "TuneMaxTxDesc", 0x63c, NULL, "Tx BDs that force an interrupt"),
    GCR(TR_RX_MAX_BD, "TuneMaxRxDesc", 0x640, NULL, "Rx BDs that force an interrupt"),
    GCR(TR_TRACE, "TuneTrace", 0x644, NULL, "firmware trace level (stored)"),
    GCR(TR_TUNE_LINK, "TuneLink", 0x648, f_link, "gigabit link negotiation"),
    GCR(TR_TUNE_FAST_LINK, "TuneFastLink", 0x64c, f_link, "10/100 link negotiation"),
    GCR(TR_TRACE_PTR, "TracePtr", 0x650, NULL, "firmware trace (stored)"),
    GCR(TR_TRACE_START, "TraceStrt", 0x654, NULL, "firmware trace (stored)"),
    GCR(TR_TRACE_LEN, "TraceLen", 0x658, NULL, "firmware trace (stored)"),
    GCR(TR_IF_IDX, "IfIdx", 0x65c, NULL, "interface index"),
    GCR(TR_IF_MTU, "IfMtu", 0x660, NULL, "largest frame accepted (mtu + 18)"),
    GCR(TR_MASK_INT, "MaskInt", 0x664, NULL, "non-zero: the firmware does not interrupt"),
    GCR(TR_GIG_LNK_STATE, "GigLnkState", 0x668, f_link, "gigabit link state (firmware)"),
    GCR(TR_FAST_LNK_STATE, "FastLnkState", 0x66c, f_link, "10/100 link state (firmware)"),
    GCR(TR_RX_RET_CSM, "RxRetCsm", 0x680, NULL, "return ring consumer (Tigon I; ignored)"),
};

/* ---- reset, views ------------------------------------------------------------ */

static void tg_reset(device *d)
{
    tigon *t = TG(d);
    nic_reset_common(&t->n);
    nic_i2c_reset(&t->i2c);
    nic_eeprom_reset(&t->ee);
    nic_mac_filter_reset(&t->filt);
    tg_fw_reset(t); /* first: the engines then stop without reporting */
    tg_dma_reset(t);
}

static void view_fw(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    (void)args;
    tg_fw_show(TG(d), out);
}

static const dev_view tg_views[] = {
    NIC_VIEWS,
    {"fw", "modelled firmware: state, GIB, rings, swap modes, link, interrupts, filter",
     view_fw},
};

static const char *const mb_names[] = {
    "Mb0Hi",  "Mb0Lo",  "Mb1Hi",  "CmdPrd", "Mb2Hi",  "TxPrd",  "Mb3Hi",  "RxStdPrd",
    "Mb4Hi",  "RxJumboPrd", "Mb5Hi", "RxMiniPrd", "Mb6Hi", "Mb6Lo", "Mb7Hi", "Mb7Lo",
    "Mb8Hi",  "Mb8Lo",  "Mb9Hi",  "Mb9Lo",  "MbAHi",  "MbALo",  "MbBHi",  "MbBLo",
    "MbCHi",  "MbCLo",  "MbDHi",  "MbDLo",  "MbEHi",  "MbELo",  "MbFHi",  "MbFLo",
    "Mb10Hi", "Mb10Lo", "Mb11Hi", "Mb11Lo", "Mb12Hi", "Mb12Lo", "Mb13Hi", "Mb13Lo",
    "Mb14Hi", "Mb14Lo", "Mb15Hi", "Mb15Lo", "Mb16Hi", "Mb16Lo", "Mb17Hi", "Mb17Lo",
    "Mb18Hi", "Mb18Lo", "Mb19Hi", "Mb19Lo", "Mb1AHi", "Mb1ALo", "Mb1BHi", "Mb1BLo",
    "Mb1CHi", "Mb1CLo", "Mb1DHi", "Mb1DLo", "Mb1EHi", "Mb1ELo", "Mb1FHi", "Mb1FLo", NULL};
static const char *const cmd_names[] = {
    "0x00", "HOST_STATE", "FDR_FILTERING", "SET_RX_PRD_IDX", "UPDATE_GENCOM",
    "RESET_JUMBO_RNG", "SET_PARTIAL_RX_CNT", "0x07", "ADD_MC_ADDR", "DEL_MC_ADDR",
    "SET_PROMISC_MODE", "LINK_NEGOTIATION", "SET_MAC_ADDR", "CLEAR_PROFILE",
    "SET_MULTICAST_MODE", "CLEAR_STATS", "SET_RX_JUMBO_PRD_IDX", "REFRESH_STATS",
    "EXT_ADD_MC_ADDR", "EXT_DEL_MC_ADDR", NULL};
static const char *const evt_names[] = {"0x00", "FW_RUNNING", "0x02", "0x03", "STATS_UPDATED",
                                        "0x05", "LINK_STATE", "ERROR", "MCAST_LIST",
                                        "RESET_JUMBO_RNG", NULL};
static const char *const fw_state_names[] = {"halted", "rom", "booting", "running", "no-code",
                                             "fault", NULL};

static void fmt_code(const event *ev, uint64_t v, strbuf *out)
{
    const char *const *names = ev->src->decl->fields[1].names;
    unsigned n = 0;
    while (names[n])
        n++;
    if (v < n)
        sb_puts(out, names[v]);
    else
        sb_printf(out, "0x%02llx", (unsigned long long)v);
}

const char *tg_fw_state_name(int fw) { return fw_state_names[fw]; }

static const event_field f_mbox[] = {{"mailbox", EVF_ENUM, mb_names, NULL},
                                     {"value", EVF_HEX, NULL, NULL}};
static const event_field f_cmd[] = {{"index", EVF_DEC, NULL, NULL},
                                    {"code", EVF_HEX, cmd_names, fmt_code},
                                    {"sub", EVF_HEX, NULL, NULL},
                                    {"idx", EVF_HEX, NULL, NULL},
                                    {"word", EVF_HEX, NULL, NULL}};
static const event_field f_evt[] = {{"index", EVF_DEC, NULL, NULL},
                                    {"code", EVF_HEX, evt_names, fmt_code},
                                    {"sub", EVF_HEX, NULL, NULL},
                                    {"idx", EVF_HEX, NULL, NULL},
                                    {"word", EVF_HEX, NULL, NULL}};
static const event_field f_fw[] = {{"state", EVF_ENUM, fw_state_names, NULL},
                                   {"pc", EVF_HEX, NULL, NULL},
                                   {"loaded", EVF_DEC, NULL, NULL}};
static const event_field f_stats[] = {{"addr", EVF_HEX, NULL, NULL},
                                      {"ok", EVF_BOOL, NULL, NULL}};

static event_decl tg_events[TG_NEVENTS];
static const event_decl tg_own_events[TG_NEVENTS - NIC_NEVENTS] = {
    {"mailbox.write", "the host wrote a mailbox (doorbell)", f_mbox, ARRAY_SIZE(f_mbox)},
    {"cmd", "the firmware took a command from the command ring", f_cmd, ARRAY_SIZE(f_cmd)},
    {"event", "the firmware wrote an event into the host's event ring", f_evt,
     ARRAY_SIZE(f_evt)},
    {"fw", "the NIC CPU started, halted or faulted (loaded = words downloaded)", f_fw,
     ARRAY_SIZE(f_fw)},
    {"stats", "the firmware DMAed its statistics block", f_stats, ARRAY_SIZE(f_stats)},
};

static const nic_bitname tg_causes[] = {{TG_CAUSE_EVENT, "event"},
                                        {TG_CAUSE_TX, "tx"},
                                        {TG_CAUSE_RX, "rx"},
                                        {0, NULL}};

static device_class tigon_class = {
    .name = "tigon2",
    .desc = "Alteon Tigon2 gigabit Ethernet with modelled firmware (SGI 10a9:0009, AceNIC)",
    .regs = tg_regs,
    .nregs = TR_NREGS,
    .reg_space = TG_BAR_SIZE,
    .little_endian = true,
    .events = tg_events,
    .nevents = TG_NEVENTS,
    .views = tg_views,
    .nviews = ARRAY_SIZE(tg_views),
    .reset = tg_reset,
    .other_read = tg_other_read,
    .other_write = tg_other_write,
    .ring_state = nic_ring_state,
};

/* ---- life cycle ----------------------------------------------------------------- */

static void tg_destroy(nic *n)
{
    tigon *t = (tigon *)n;
    if (!t)
        return;
    tg_fw_fini(t);
    tg_dma_stop(t);
    nic_coal_fini(&t->txc);
    nic_coal_fini(&t->rxc);
    nic_link_fini(&t->link);
    nic_eeprom_fini(&t->ee);
    nic_fini(n);
    free(t->sram);
    free(t->sram_wr);
    free(t->rxbuf);
    free(t);
}

static nic *tg_create(const nic_model *m, const char *name, const nic_opts *o, sched *clock,
                      event_bus *eb, char *err, size_t errlen)
{
    if (!tg_events[0].name) { /* the common events, then the Tigon's own */
        memcpy(tg_events, nic_event_decls, sizeof nic_event_decls);
        memcpy(tg_events + NIC_NEVENTS, tg_own_events, sizeof tg_own_events);
    }
    tigon *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    nic *n = &t->n;
    t->sram_size = TG_SRAM_SIZE;
    t->sram = calloc(TG_SRAM_SIZE / 4, sizeof *t->sram);
    t->sram_wr = calloc(TG_SRAM_SIZE / 32, 1);
    t->rxbuf = malloc(NET_MAX_FRAME + 8);
    bool ok = t->sram && t->sram_wr && t->rxbuf;
    if (!ok)
        snprintf(err, errlen, "%s: out of memory", name);
    if (!ok || nic_init(n, m, name, 0, TG_BAR_SIZE, o, clock, eb, err, errlen)) {
        free(t->sram);
        free(t->sram_wr);
        free(t->rxbuf);
        free(t);
        return NULL;
    }
    n->fifo.cap = TG_FIFO_BYTES;
    nic_coal_init(&t->txc, n, NIC_RING_TX, tg_coal_fire);
    nic_coal_init(&t->rxc, n, NIC_RING_RX, tg_coal_fire);
    nic_link_init(&t->link, n, 0, tg_fw_link_changed);
    if (nic_eeprom_init(&t->ee, n, TG_EE_SIZE, 0xff, 0)) {
        snprintf(err, errlen, "%s: out of memory", name);
        tg_destroy(n);
        return NULL;
    }
    nic_eeprom_put(&t->ee, TG_EE_MAC, 0);
    nic_eeprom_put(&t->ee, TG_EE_MAC + 1, 0);
    nic_eeprom_put_mac(&t->ee, TG_EE_MAC + 2, n->mac);
    nic_i2c_init(&t->i2c, &t->ee, 0xa0, TG_EE_SIZE - 1);
    t->require_code = true;
    tg_dma_init(t);
    tg_fw_init(t);
    device_reset(n->dev);
    return n;
}

const nic_model tigon2_model = {
    .name = "tigon2",
    .prefix = "tigon",
    .desc = "SGI Gigabit Ethernet, Alteon Tigon2 (10a9:0009)",
    .cls = &tigon_class,
    .vendor = 0x10a9,
    .device = 0x0009,
    .create = tg_create,
    .destroy = tg_destroy,
    .rx = tg_rx_frame,
    .causes = tg_causes,
    .pio_swap = tg_pio_swap,
};

const nic_model acenic_model = {
    .name = "acenic",
    .prefix = "tigon",
    .desc = "Alteon AceNIC fibre, Tigon2 (12ae:0001)",
    .cls = &tigon_class,
    .vendor = 0x12ae,
    .device = 0x0001,
    .create = tg_create,
    .destroy = tg_destroy,
    .rx = tg_rx_frame,
    .causes = tg_causes,
    .pio_swap = tg_pio_swap,
};

const nic_model acenic_copper_model = {
    .name = "acenic-copper",
    .prefix = "tigon",
    .desc = "Alteon AceNIC copper, Tigon2 (12ae:0002)",
    .cls = &tigon_class,
    .vendor = 0x12ae,
    .device = 0x0002,
    .create = tg_create,
    .destroy = tg_destroy,
    .rx = tg_rx_frame,
    .causes = tg_causes,
    .pio_swap = tg_pio_swap,
};
