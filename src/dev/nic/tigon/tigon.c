/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Alteon Tigon2: the register declaration (acenic.h, if_tireg.h), PIO byte swapping,
 * NIC SRAM with the general communication region, the command ring and the
 * 2 KiB window, CPU A/B control, the I2C EEPROM, reset, views and the
 * factory entries.  The firmware is in tigon_fw.c, the DMA engines in
 * tigon_dma.c.  Choices marked [INF]/[UNC] are listed in docs/hardware.md
 * "Tigon2". */
#include "dev/nic/tigon/tigon.h"

#include <stdio.h>
#include <stdlib.h>

#define TG_SRAM_SIZE (1u << 20)    /* 1 MiB: two 512 KiB banks [INF] */
#define TG_EE_SIZE 4096            /* AT24C32 */
#define TG_EE_MAC 0x8c             /* 00 00 then the MAC (docs/hardware.md) */
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

static bool tg_pio_swap(nic *n) { return DEV_R(n->dev, TR_HOST_CTRL) & TG_HC_BYTE_SWAP; }

/* ---- register hooks ---------------------------------------------------------- */

static uint64_t r_pci_cfg(device *d, const reg_access *a)
{
    return pci_config_read(&TG(d)->n.pci, a->idx * 4, 4);
}

/* [INF] writes through the mirror reach configuration space (FreeBSD clears
 * memory-write-and-invalidate through it). */
static void w_pci_cfg(device *d, const reg_access *a)
{
    pci_config_write(&TG(d)->n.pci, a->idx * 4, 4, (uint32_t)a->val);
}

static uint64_t r_host_ctrl(device *d, const reg_access *a)
{
    tigon *t = TG(d);
    return (DEV_R(d, TR_HOST_CTRL) & 0x70) | (tg_in_int(t) ? TG_HC_IN_INT : 0) |
           (uint64_t)TG_REV_TIGON2 << 28;
}

/* HW_RESET and CLR_INT act; BYTE_SWAP, WORD_SWAP and MASK_INTS are kept
 * (wmask).  Drivers replicate the bits in byte 3: those land in bits the
 * mask refuses. */
static void w_host_ctrl(device *d, const reg_access *a)
{
    tigon *t = TG(d);
    if (a->val & TG_HC_HW_RESET) {
        device_reset(d);
        return;
    }
    if (a->val & TG_HC_CLR_INT)
        nic_irq_deassert(&t->n, ~0u);
    tg_irq_update(t);
}

static uint64_t r_local_ctrl(device *d, const reg_access *a)
{
    return (DEV_R(d, TR_LOCAL_CTRL) & ~(uint64_t)TG_LC_EE_DIN) |
           (nic_i2c_sda(&TG(d)->i2c) ? TG_LC_EE_DIN : 0);
}

static void w_local_ctrl(device *d, const reg_access *a)
{
    /* The host drives SDA only while the output enable is set. */
    bool sda = (a->val & TG_LC_EE_OE) ? (a->val & TG_LC_EE_DOUT) != 0 : true;
    nic_i2c_pins(&TG(d)->i2c, (a->val & TG_LC_EE_CLK) != 0, sda);
}

static uint64_t r_pci_state(device *d, const reg_access *a)
{
    /* The Bridge's bus: 64 bits at 33 MHz, so PCI_66MHZ and PCI_32BIT read 0. */
    return DEV_R(d, TR_PCI_STATE) & ~0x180000ull;
}

/* WinData: the SRAM word at WinBase [INF]. */
static uint64_t r_win_data(device *d, const reg_access *a)
{
    return tg_sram_read(TG(d), (uint32_t)DEV_R(d, TR_WIN_BASE));
}

static void w_win_data(device *d, const reg_access *a)
{
    tg_sram_write(TG(d), (uint32_t)DEV_R(d, TR_WIN_BASE), (uint32_t)a->val, true);
}

/* SramData / SramBData: the word at SramAddr / SramBAddr. */
static uint64_t r_sram_data(device *d, const reg_access *a)
{
    unsigned addr = a->id == TR_SRAM_DATA ? TR_SRAM_ADDR : TR_SRAMB_ADDR;
    return tg_sram_read(TG(d), (uint32_t)DEV_R(d, addr));
}

static void w_sram_data(device *d, const reg_access *a)
{
    unsigned addr = a->id == TR_SRAM_DATA ? TR_SRAM_ADDR : TR_SRAMB_ADDR;
    tg_sram_write(TG(d), (uint32_t)DEV_R(d, addr), (uint32_t)a->val, true);
}

static uint64_t r_cpu_ctrl(device *d, const reg_access *a)
{
    tigon *t = TG(d);
    bool b = a->id == TR_CPUB_CTRL;
    return DEV_R(d, b ? TR_CPUB_CTRL : TR_CPU_CTRL) | (b ? t->cpub_status : t->cpu_status);
}

static void w_cpu_ctrl(device *d, const reg_access *a)
{
    tigon *t = TG(d);
    if (a->id == TR_CPUB_CTRL) {
        /* CPU B: drivers halt it and never run it.  Releasing it is
         * accepted; it runs nothing [INF]. */
        DEV_R(d, TR_CPUB_CTRL) &= ~(uint64_t)TG_CPU_RESET;
        if (!(a->val & TG_CPU_HALT))
            t->cpub_status = 0;
        return;
    }
    tg_fw_cpu_write(t, (uint32_t)a->val, (uint32_t)a->old);
}

static uint64_t r_mac_stats(device *d, const reg_access *a) { return tg_mac_stat(TG(d), a->idx); }

static void w_mailbox(device *d, const reg_access *a)
{
    tigon *t = TG(d);
    unsigned word = a->id - TR_MB0;
    tg_fw_mailbox(t, word, (uint32_t)a->val, (uint32_t)a->old);
}

/* GCR registers live in SRAM (NIC address = offset - 0x600). */
static uint64_t r_gcr(device *d, const reg_access *a)
{
    return tg_sram_read(TG(d), a->offset - TG_GCR);
}

static void w_gcr(device *d, const reg_access *a)
{
    tg_sram_write(TG(d), a->offset - TG_GCR, (uint32_t)a->val, true);
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
    return other_access(d, off, size, val, false);
}

static int tg_other_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    return other_access(d, off, size, &val, true);
}

/* ---- the declaration --------------------------------------------------------- */

static const reg_field f_host_ctrl[] = {{"IN_INT", 0, 1, NULL},    {"CLR_INT", 1, 1, NULL},
                                        {"HW_RESET", 3, 1, NULL},  {"BYTE_SWAP", 4, 1, NULL},
                                        {"WORD_SWAP", 5, 1, NULL}, {"MASK_INTS", 6, 1, NULL},
                                        {"REV", 28, 4, NULL}};
static const reg_field f_local_ctrl[] = {{"SRAM_BANK", 8, 2, NULL},
                                         {"EE_CLK", 20, 1, NULL},
                                         {"EE_OE", 21, 1, NULL},
                                         {"EE_DOUT", 22, 1, NULL},
                                         {"EE_DIN", 23, 1, NULL}};
static const reg_field f_pci_state[] = {{"READ_MAX", 2, 3, NULL},   {"WRITE_MAX", 5, 3, NULL},
                                        {"MIN_DMA", 8, 8, NULL},    {"MEM_RD_MULT", 17, 1, NULL},
                                        {"PCI_66MHZ", 19, 1, NULL}, {"PCI_32BIT", 20, 1, NULL},
                                        {"READ_CMD", 24, 4, NULL},  {"WRITE_CMD", 28, 4, NULL}};
static const reg_field f_cpu[] = {{"RESET", 0, 1, NULL},
                                  {"STEP", 1, 1, NULL},
                                  {"ROM_FAIL", 4, 1, NULL},
                                  {"HALT", 16, 1, NULL},
                                  {"HALTED", 18, 1, NULL}};
static const reg_field f_mode[] = {
    {"BYTESWAP_BD", 1, 1, NULL},   {"WORDSWAP_BD", 2, 1, NULL},   {"WARN", 3, 1, NULL},
    {"BYTESWAP_DATA", 4, 1, NULL}, {"ONE_DMA", 6, 1, NULL},       {"DONT_FRAG_JUMBO", 9, 1, NULL},
    {"INCLUDE_CRC", 10, 1, NULL},  {"RX_BADFRAMES", 11, 1, NULL}, {"NO_EVENT_INTRS", 12, 1, NULL},
    {"NO_TX_INTRS", 13, 1, NULL},  {"NO_RX_INTRS", 14, 1, NULL},  {"FATAL", 30, 1, NULL}};
static const reg_field f_link[] = {
    {"PREF", 15, 1, NULL},      {"10MB", 16, 1, NULL},    {"100MB", 17, 1, NULL},
    {"1000MB", 18, 1, NULL},    {"FULL", 19, 1, NULL},    {"HALF", 20, 1, NULL},
    {"TX_FLOW", 21, 1, NULL},   {"RX_FLOW", 23, 1, NULL}, {"NEG_FCTL", 28, 1, NULL},
    {"NEGOTIATE", 29, 1, NULL}, {"ENABLE", 30, 1, NULL},  {"UP", 31, 1, NULL}};


/* clang-format off */
static const reg_decl tg_regs[] = {
    [TR_PCI_CFG] = {.name = "PciCfg", .offset = 0x000, .width = 4, .count = 16, .stride = 4,
                    .rules = R_NOSTORE | R_FULL, .read = r_pci_cfg, .write = w_pci_cfg,
                    .desc = "PCI configuration space mirror"},
    [TR_HOST_CTRL] = {.name = "HostCtrl", .offset = 0x040, .width = 4, .rules = R_FULL,
                      .wmask = 0x70, REG_FIELDS(f_host_ctrl), .read = r_host_ctrl,
                      .write = w_host_ctrl,
                      .desc = "misc host control: interrupt state, reset, PIO swap, INTA mask, "
                              "revision"},
    [TR_LOCAL_CTRL] = {.name = "LocalCtrl", .offset = 0x044, .width = 4, .rules = R_FULL,
                       .wmask = ~(uint64_t)TG_LC_EE_DIN, REG_FIELDS(f_local_ctrl),
                       .read = r_local_ctrl, .write = w_local_ctrl,
                       .desc = "misc local control: SRAM bank size, EEPROM (I2C) pins"},
    [TR_SEM_AB] = {.name = "SemAB", .offset = 0x048, .width = 4, .rules = R_FULL,
                   .desc = "CPU A/B semaphore (stored)"},
    [TR_MISC_CFG] = {.name = "MiscCfg", .offset = 0x050, .width = 4, .rules = R_FULL,
                     .desc = "misc configuration (SYNC_SRAM_TIMING 0x100000)"},
    [TR_PCI_STATE] = {.name = "PciState", .offset = 0x05c, .width = 4, .rules = R_FULL,
                      REG_FIELDS(f_pci_state), .read = r_pci_state, .desc = "PCI DMA state"},
    [TR_MAIN_EVT_A] = {.name = "MainEventA", .offset = 0x060, .width = 4, .rules = R_FULL,
                       .desc = "firmware-internal (stored)"},
    [TR_MBOX_EVT_A] = {.name = "MailboxEventA", .offset = 0x064, .width = 4, .rules = R_FULL,
                       .desc = "firmware-internal (stored)"},
    [TR_WIN_BASE] = {.name = "WinBase", .offset = 0x068, .width = 4, .rules = R_FULL,
                     .desc = "SRAM window base (low 11 bits ignored)"},
    [TR_WIN_DATA] = {.name = "WinData", .offset = 0x06c, .width = 4, .rules = R_NOSTORE | R_FULL,
                     .read = r_win_data, .write = w_win_data, .desc = "SRAM word at WinBase"},
    [TR_MAIN_EVT_B] = {.name = "MainEventB", .offset = 0x070, .width = 4, .rules = R_FULL,
                       .desc = "firmware-internal (stored)"},
    [TR_MBOX_EVT_B] = {.name = "MailboxEventB", .offset = 0x074, .width = 4, .rules = R_FULL,
                       .desc = "firmware-internal (stored)"},
    [TR_TIMER_REF_B] = {.name = "TimerRefB", .offset = 0x078, .width = 4, .rules = R_FULL,
                        .desc = "firmware-internal (stored)"},
    [TR_SERIAL] = {.name = "Serial", .offset = 0x07c, .width = 4, .rules = R_FULL,
                   .desc = "firmware-internal (stored)"},
    [TR_DMA_WR_STATE] = {.name = "DmaWriteState", .offset = 0x0a0, .width = 4, .rules = R_FULL,
                         .desc = "DMA write state (stored)"},
    [TR_DMA_RD_STATE] = {.name = "DmaReadState", .offset = 0x0b0, .width = 4, .rules = R_FULL,
                         .desc = "DMA read state (stored)"},
    [TR_ASSIST] = {.name = "AssistState", .offset = 0x11c, .width = 4, .rules = R_FULL,
                   .desc = "DMA assist (1 = enable; stored)"},
    [TR_CPU_CTRL] = {.name = "CpuCtrl", .offset = 0x140, .width = 4, .rules = R_FULL,
                     .wmask = 0x10003, REG_FIELDS(f_cpu), .read = r_cpu_ctrl, .write = w_cpu_ctrl,
                     .desc = "CPU A: clear HALT to start the firmware at Pc"},
    [TR_PC] = {.name = "Pc", .offset = 0x144, .width = 4, .rules = R_FULL,
               .desc = "CPU A program counter (firmware start address)"},
    [TR_SRAM_ADDR] = {.name = "SramAddr", .offset = 0x154, .width = 4, .rules = R_FULL,
                      .desc = "CPU A indirect SRAM address"},
    [TR_SRAM_DATA] = {.name = "SramData", .offset = 0x158, .width = 4, .rules = R_NOSTORE | R_FULL,
                      .read = r_sram_data, .write = w_sram_data, .desc = "SRAM word at SramAddr"},
    [TR_CPU_REGS] = {.name = "CpuReg", .offset = 0x180, .width = 4, .count = 32, .stride = 4,
                     .rules = R_FULL, .desc = "CPU A general registers (stored)"},
    [TR_MAC_TX_STATE] = {.name = "MacTxState", .offset = 0x200, .width = 4, .rules = R_FULL,
                         .desc = "firmware-internal (stored)"},
    [TR_MAC_RX_STATE] = {.name = "MacRxState", .offset = 0x220, .width = 4, .rules = R_FULL,
                         .desc = "firmware-internal (stored)"},
    [TR_CPUB_CTRL] = {.name = "CpuBCtrl", .offset = 0x240, .width = 4, .rules = R_FULL,
                      .wmask = 0x10003, REG_FIELDS(f_cpu), .read = r_cpu_ctrl, .write = w_cpu_ctrl,
                      .desc = "CPU B state (never runs)"},
    [TR_PCB] = {.name = "PcB", .offset = 0x244, .width = 4, .rules = R_FULL,
                .desc = "CPU B program counter"},
    [TR_SRAMB_ADDR] = {.name = "SramBAddr", .offset = 0x254, .width = 4, .rules = R_FULL,
                       .desc = "CPU B indirect SRAM address"},
    [TR_SRAMB_DATA] = {.name = "SramBData", .offset = 0x258, .width = 4,
                       .rules = R_NOSTORE | R_FULL, .read = r_sram_data, .write = w_sram_data,
                       .desc = "SRAM word at SramBAddr"},
    [TR_CPUB_REGS] = {.name = "CpuBReg", .offset = 0x280, .width = 4, .count = 32, .stride = 4,
                      .rules = R_FULL, .desc = "CPU B general registers (stored)"},
    [TR_MAC_STATS] = {.name = "MacStats", .offset = 0x480, .width = 4, .count = 32, .stride = 4,
                      .rules = R_RO | R_NOSTORE | R_FULL, .read = r_mac_stats,
                      .desc = "MAC statistics (struct ace_mac_stats)"},
    [TR_MB0 + 0] = {.name = "Mb0Hi", .offset = 0x500, .width = 4, .rules = R_FULL,
                    .write = w_mailbox},
    [TR_MB0 + 1] = {.name = "Mb0Lo", .offset = 0x504, .width = 4, .rules = R_FULL,
                    .write = w_mailbox,
                    .desc = "host interrupt mailbox (Hi): any write clears INTA, non-zero holds "
                            "it off"},
    [TR_MB0 + 2] = {.name = "Mb1Hi", .offset = 0x508, .width = 4, .rules = R_FULL,
                    .write = w_mailbox},
    [TR_MB0 + 3] = {.name = "CmdPrd", .offset = 0x50c, .width = 4, .rules = R_FULL,
                    .write = w_mailbox, .desc = "command ring producer"},
    [TR_MB0 + 4] = {.name = "Mb2Hi", .offset = 0x510, .width = 4, .rules = R_FULL,
                    .write = w_mailbox},
    [TR_MB0 + 5] = {.name = "TxPrd", .offset = 0x514, .width = 4, .rules = R_FULL,
                    .write = w_mailbox, .desc = "send ring producer"},
    [TR_MB0 + 6] = {.name = "Mb3Hi", .offset = 0x518, .width = 4, .rules = R_FULL,
                    .write = w_mailbox},
    [TR_MB0 + 7] = {.name = "RxStdPrd", .offset = 0x51c, .width = 4, .rules = R_FULL,
                    .write = w_mailbox, .desc = "standard receive ring producer"},
    [TR_MB0 + 8] = {.name = "Mb4Hi", .offset = 0x520, .width = 4, .rules = R_FULL,
                    .write = w_mailbox},
    [TR_MB0 + 9] = {.name = "RxJumboPrd", .offset = 0x524, .width = 4, .rules = R_FULL,
                    .write = w_mailbox, .desc = "jumbo receive ring producer"},
    [TR_MB0 + 10] = {.name = "Mb5Hi", .offset = 0x528, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 11] = {.name = "RxMiniPrd", .offset = 0x52c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox, .desc = "mini receive ring producer"},
    [TR_MB0 + 12] = {.name = "Mb6Hi", .offset = 0x530, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 13] = {.name = "Mb6Lo", .offset = 0x534, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 14] = {.name = "Mb7Hi", .offset = 0x538, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 15] = {.name = "Mb7Lo", .offset = 0x53c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 16] = {.name = "Mb8Hi", .offset = 0x540, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 17] = {.name = "Mb8Lo", .offset = 0x544, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 18] = {.name = "Mb9Hi", .offset = 0x548, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 19] = {.name = "Mb9Lo", .offset = 0x54c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 20] = {.name = "MbAHi", .offset = 0x550, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 21] = {.name = "MbALo", .offset = 0x554, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 22] = {.name = "MbBHi", .offset = 0x558, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 23] = {.name = "MbBLo", .offset = 0x55c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 24] = {.name = "MbCHi", .offset = 0x560, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 25] = {.name = "MbCLo", .offset = 0x564, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 26] = {.name = "MbDHi", .offset = 0x568, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 27] = {.name = "MbDLo", .offset = 0x56c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 28] = {.name = "MbEHi", .offset = 0x570, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 29] = {.name = "MbELo", .offset = 0x574, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 30] = {.name = "MbFHi", .offset = 0x578, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 31] = {.name = "MbFLo", .offset = 0x57c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 32] = {.name = "Mb10Hi", .offset = 0x580, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 33] = {.name = "Mb10Lo", .offset = 0x584, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 34] = {.name = "Mb11Hi", .offset = 0x588, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 35] = {.name = "Mb11Lo", .offset = 0x58c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 36] = {.name = "Mb12Hi", .offset = 0x590, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 37] = {.name = "Mb12Lo", .offset = 0x594, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 38] = {.name = "Mb13Hi", .offset = 0x598, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 39] = {.name = "Mb13Lo", .offset = 0x59c, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 40] = {.name = "Mb14Hi", .offset = 0x5a0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 41] = {.name = "Mb14Lo", .offset = 0x5a4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 42] = {.name = "Mb15Hi", .offset = 0x5a8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 43] = {.name = "Mb15Lo", .offset = 0x5ac, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 44] = {.name = "Mb16Hi", .offset = 0x5b0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 45] = {.name = "Mb16Lo", .offset = 0x5b4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 46] = {.name = "Mb17Hi", .offset = 0x5b8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 47] = {.name = "Mb17Lo", .offset = 0x5bc, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 48] = {.name = "Mb18Hi", .offset = 0x5c0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 49] = {.name = "Mb18Lo", .offset = 0x5c4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 50] = {.name = "Mb19Hi", .offset = 0x5c8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 51] = {.name = "Mb19Lo", .offset = 0x5cc, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 52] = {.name = "Mb1AHi", .offset = 0x5d0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 53] = {.name = "Mb1ALo", .offset = 0x5d4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 54] = {.name = "Mb1BHi", .offset = 0x5d8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 55] = {.name = "Mb1BLo", .offset = 0x5dc, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 56] = {.name = "Mb1CHi", .offset = 0x5e0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 57] = {.name = "Mb1CLo", .offset = 0x5e4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 58] = {.name = "Mb1DHi", .offset = 0x5e8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 59] = {.name = "Mb1DLo", .offset = 0x5ec, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 60] = {.name = "Mb1EHi", .offset = 0x5f0, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 61] = {.name = "Mb1ELo", .offset = 0x5f4, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 62] = {.name = "Mb1FHi", .offset = 0x5f8, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MB0 + 63] = {.name = "Mb1FLo", .offset = 0x5fc, .width = 4, .rules = R_FULL,
                     .write = w_mailbox},
    [TR_MAC_HI] = {.name = "MacAddrHi", .offset = 0x600, .width = 4, .rules = R_NOSTORE | R_FULL,
                   .read = r_gcr, .write = w_gcr, .desc = "station address bytes 0-1"},
    [TR_MAC_LO] = {.name = "MacAddrLo", .offset = 0x604, .width = 4, .rules = R_NOSTORE | R_FULL,
                   .read = r_gcr, .write = w_gcr, .desc = "station address bytes 2-5"},
    [TR_INFO_HI] = {.name = "InfoPtrHi", .offset = 0x608, .width = 4, .rules = R_NOSTORE | R_FULL,
                    .read = r_gcr, .write = w_gcr,
                    .desc = "general information block, high 32 bits"},
    [TR_INFO_LO] = {.name = "InfoPtrLo", .offset = 0x60c, .width = 4, .rules = R_NOSTORE | R_FULL,
                    .read = r_gcr, .write = w_gcr,
                    .desc = "general information block, low 32 bits"},
    [TR_MC_HI] = {.name = "MultiCastHi", .offset = 0x610, .width = 4, .rules = R_NOSTORE | R_FULL,
                  .read = r_gcr, .write = w_gcr, .desc = "multicast address for ADD/DEL_MC_ADDR"},
    [TR_MC_LO] = {.name = "MultiCastLo", .offset = 0x614, .width = 4, .rules = R_NOSTORE | R_FULL,
                  .read = r_gcr, .write = w_gcr, .desc = "multicast address, bytes 2-5"},
    [TR_MODE_STAT] = {.name = "ModeStat", .offset = 0x618, .width = 4, .rules = R_NOSTORE | R_FULL,
                      REG_FIELDS(f_mode), .read = r_gcr, .write = w_gcr,
                      .desc = "operating mode: descriptor and data swap"},
    [TR_DMA_RD_CFG] = {.name = "DmaReadCfg", .offset = 0x61c, .width = 4,
                       .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                       .desc = "DMA read threshold (stored)"},
    [TR_DMA_WR_CFG] = {.name = "DmaWriteCfg", .offset = 0x620, .width = 4,
                       .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                       .desc = "DMA write threshold (stored)"},
    [TR_TX_BUF_RAT] = {.name = "TxBufRat", .offset = 0x624, .width = 4, .rules = R_NOSTORE | R_FULL,
                       .read = r_gcr, .write = w_gcr, .desc = "Tx share of SRAM in 64ths (stored)"},
    [TR_EVT_CSM] = {.name = "EvtCsm", .offset = 0x628, .width = 4, .rules = R_NOSTORE | R_FULL,
                    .read = r_gcr, .write = w_gcr, .desc = "event ring consumer (host)"},
    [TR_CMD_CSM] = {.name = "CmdCsm", .offset = 0x62c, .width = 4, .rules = R_NOSTORE | R_FULL,
                    .read = r_gcr, .write = w_gcr, .desc = "command ring consumer (firmware)"},
    [TR_RX_COAL] = {.name = "TuneRxCoalTicks", .offset = 0x630, .width = 4,
                    .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                    .desc = "Rx coalescing wait, us (0 = none)"},
    [TR_TX_COAL] = {.name = "TuneTxCoalTicks", .offset = 0x634, .width = 4,
                    .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                    .desc = "Tx coalescing wait, us (0 = none)"},
    [TR_STAT_TICKS] = {.name = "TuneStatTicks", .offset = 0x638, .width = 4,
                       .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                       .desc = "statistics DMA period, us (0 = off)"},
    [TR_TX_MAX_BD] = {.name = "TuneMaxTxDesc", .offset = 0x63c, .width = 4,
                      .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                      .desc = "Tx BDs that force an interrupt"},
    [TR_RX_MAX_BD] = {.name = "TuneMaxRxDesc", .offset = 0x640, .width = 4,
                      .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                      .desc = "Rx BDs that force an interrupt"},
    [TR_TRACE] = {.name = "TuneTrace", .offset = 0x644, .width = 4, .rules = R_NOSTORE | R_FULL,
                  .read = r_gcr, .write = w_gcr, .desc = "firmware trace level (stored)"},
    [TR_TUNE_LINK] = {.name = "TuneLink", .offset = 0x648, .width = 4, .rules = R_NOSTORE | R_FULL,
                      REG_FIELDS(f_link), .read = r_gcr, .write = w_gcr,
                      .desc = "gigabit link negotiation"},
    [TR_TUNE_FAST_LINK] = {.name = "TuneFastLink", .offset = 0x64c, .width = 4,
                           .rules = R_NOSTORE | R_FULL, REG_FIELDS(f_link), .read = r_gcr,
                           .write = w_gcr, .desc = "10/100 link negotiation"},
    [TR_TRACE_PTR] = {.name = "TracePtr", .offset = 0x650, .width = 4, .rules = R_NOSTORE | R_FULL,
                      .read = r_gcr, .write = w_gcr, .desc = "firmware trace (stored)"},
    [TR_TRACE_START] = {.name = "TraceStrt", .offset = 0x654, .width = 4,
                        .rules = R_NOSTORE | R_FULL, .read = r_gcr, .write = w_gcr,
                        .desc = "firmware trace (stored)"},
    [TR_TRACE_LEN] = {.name = "TraceLen", .offset = 0x658, .width = 4, .rules = R_NOSTORE | R_FULL,
                      .read = r_gcr, .write = w_gcr, .desc = "firmware trace (stored)"},
    [TR_IF_IDX] = {.name = "IfIdx", .offset = 0x65c, .width = 4, .rules = R_NOSTORE | R_FULL,
                   .read = r_gcr, .write = w_gcr, .desc = "interface index"},
    [TR_IF_MTU] = {.name = "IfMtu", .offset = 0x660, .width = 4, .rules = R_NOSTORE | R_FULL,
                   .read = r_gcr, .write = w_gcr, .desc = "largest frame accepted (mtu + 18)"},
    [TR_MASK_INT] = {.name = "MaskInt", .offset = 0x664, .width = 4, .rules = R_NOSTORE | R_FULL,
                     .read = r_gcr, .write = w_gcr,
                     .desc = "non-zero: the firmware does not interrupt"},
    [TR_GIG_LNK_STATE] = {.name = "GigLnkState", .offset = 0x668, .width = 4,
                          .rules = R_NOSTORE | R_FULL, REG_FIELDS(f_link), .read = r_gcr,
                          .write = w_gcr, .desc = "gigabit link state (firmware)"},
    [TR_FAST_LNK_STATE] = {.name = "FastLnkState", .offset = 0x66c, .width = 4,
                           .rules = R_NOSTORE | R_FULL, REG_FIELDS(f_link), .read = r_gcr,
                           .write = w_gcr, .desc = "10/100 link state (firmware)"},
    [TR_RX_RET_CSM] = {.name = "RxRetCsm", .offset = 0x680, .width = 4, .rules = R_NOSTORE | R_FULL,
                       .read = r_gcr, .write = w_gcr,
                       .desc = "return ring consumer (Tigon I; ignored)"},
};
/* clang-format on */
DEV_REGS_CHECK(tg_regs, TR_NREGS);

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
    tg_fw_show(TG(d), out);
}

static const dev_view tg_views[] = {
    NIC_VIEWS,
    {"fw", "modelled firmware: state, GIB, rings, swap modes, link, interrupts, filter", view_fw},
};

static const char *const mb_names[] = {
    "Mb0Hi",  "Mb0Lo",      "Mb1Hi",  "CmdPrd",    "Mb2Hi",  "TxPrd",  "Mb3Hi",  "RxStdPrd",
    "Mb4Hi",  "RxJumboPrd", "Mb5Hi",  "RxMiniPrd", "Mb6Hi",  "Mb6Lo",  "Mb7Hi",  "Mb7Lo",
    "Mb8Hi",  "Mb8Lo",      "Mb9Hi",  "Mb9Lo",     "MbAHi",  "MbALo",  "MbBHi",  "MbBLo",
    "MbCHi",  "MbCLo",      "MbDHi",  "MbDLo",     "MbEHi",  "MbELo",  "MbFHi",  "MbFLo",
    "Mb10Hi", "Mb10Lo",     "Mb11Hi", "Mb11Lo",    "Mb12Hi", "Mb12Lo", "Mb13Hi", "Mb13Lo",
    "Mb14Hi", "Mb14Lo",     "Mb15Hi", "Mb15Lo",    "Mb16Hi", "Mb16Lo", "Mb17Hi", "Mb17Lo",
    "Mb18Hi", "Mb18Lo",     "Mb19Hi", "Mb19Lo",    "Mb1AHi", "Mb1ALo", "Mb1BHi", "Mb1BLo",
    "Mb1CHi", "Mb1CLo",     "Mb1DHi", "Mb1DLo",    "Mb1EHi", "Mb1ELo", "Mb1FHi", "Mb1FLo",
    NULL};
static const char *const cmd_names[] = {"0x00",
                                        "HOST_STATE",
                                        "FDR_FILTERING",
                                        "SET_RX_PRD_IDX",
                                        "UPDATE_GENCOM",
                                        "RESET_JUMBO_RNG",
                                        "SET_PARTIAL_RX_CNT",
                                        "0x07",
                                        "ADD_MC_ADDR",
                                        "DEL_MC_ADDR",
                                        "SET_PROMISC_MODE",
                                        "LINK_NEGOTIATION",
                                        "SET_MAC_ADDR",
                                        "CLEAR_PROFILE",
                                        "SET_MULTICAST_MODE",
                                        "CLEAR_STATS",
                                        "SET_RX_JUMBO_PRD_IDX",
                                        "REFRESH_STATS",
                                        "EXT_ADD_MC_ADDR",
                                        "EXT_DEL_MC_ADDR",
                                        NULL};
static const char *const evt_names[] = {
    "0x00",       "FW_RUNNING",      "0x02", "0x03", "STATS_UPDATED", "0x05", "LINK_STATE", "ERROR",
    "MCAST_LIST", "RESET_JUMBO_RNG", NULL};
static const char *const fw_state_names[] = {"halted",  "rom",   "booting", "running",
                                             "no-code", "fault", NULL};

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

const char *tg_fw_state_name(enum tg_fw_state fw) { return fw_state_names[fw]; }

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
static const event_field f_stats[] = {{"addr", EVF_HEX, NULL, NULL}, {"ok", EVF_BOOL, NULL, NULL}};

static const event_decl tg_events[TG_NEVENTS] = {
#include "dev/nic/nic_events.h"
    {"mailbox.write", "the host wrote a mailbox (doorbell)", f_mbox, ARRAY_SIZE(f_mbox)},
    {"cmd", "the firmware took a command from the command ring", f_cmd, ARRAY_SIZE(f_cmd)},
    {"event", "the firmware wrote an event into the host's event ring", f_evt, ARRAY_SIZE(f_evt)},
    {"fw", "the NIC CPU started, halted or faulted (loaded = words downloaded)", f_fw,
     ARRAY_SIZE(f_fw)},
    {"stats", "the firmware DMAed its statistics block", f_stats, ARRAY_SIZE(f_stats)},
};

static const nic_bitname tg_causes[] = {
    {TG_CAUSE_EVENT, "event"}, {TG_CAUSE_TX, "tx"}, {TG_CAUSE_RX, "rx"}, {0, NULL}};

static const state_decl tg_rcb_decls[] = {
    STATE_INT(tg_rcb, addr, "host address of the ring"),
    STATE_INT(tg_rcb, max_len, "ring size or buffer length"),
    STATE_INT(tg_rcb, flags, "ring control flags"),
};
static const state_table tg_rcb_state = STATE_TABLE(tg_rcb_decls, tg_rcb);

static const state_decl tg_fwstats_decls[] = {
    STATE_INTS(tg_fwstats, cmds, "commands by code, the last unknown ones"),
    STATE_INTS(tg_fwstats, events, "events posted by code"),
    STATE_INT(tg_fwstats, interrupts, "interrupts requested"),
    STATE_INT(tg_fwstats, event_ring_full, "events held back: the ring was full"),
    STATE_INT(tg_fwstats, no_rx_bds, "frames with no receive BD"),
    STATE_INT(tg_fwstats, dma_rd_aborts, "failed DMA reads"),
    STATE_INT(tg_fwstats, dma_wr_aborts, "failed DMA writes"),
    STATE_INT(tg_fwstats, in_octets, "MAC statistics"),
    STATE_INT(tg_fwstats, in_ucast, ""),
    STATE_INT(tg_fwstats, in_mcast, ""),
    STATE_INT(tg_fwstats, in_bcast, ""),
    STATE_INT(tg_fwstats, out_octets, ""),
    STATE_INT(tg_fwstats, out_ucast, ""),
    STATE_INT(tg_fwstats, out_mcast, ""),
    STATE_INT(tg_fwstats, out_bcast, ""),
    STATE_INT(tg_fwstats, in_discards, ""),
    STATE_INT(tg_fwstats, in_errors, ""),
    STATE_INT(tg_fwstats, out_discards, ""),
    STATE_INT(tg_fwstats, out_errors, ""),
    STATE_INT(tg_fwstats, too_long, "frames longer than their buffer"),
};
static const state_table tg_fwstats_state = STATE_TABLE(tg_fwstats_decls, tg_fwstats);

static const state_decl tg_state[] = {
    STATE_PART(tigon, n, nic_state, "the NIC shell"),
    STATE_PART(tigon, tx, nic_ring_state_decl, "the send ring"),
    STATE_PART(tigon, std, nic_ring_state_decl, "the standard receive ring"),
    STATE_PART(tigon, jumbo, nic_ring_state_decl, "the jumbo receive ring"),
    STATE_PART(tigon, mini, nic_ring_state_decl, "the mini receive ring"),
    STATE_PART(tigon, ret, nic_ring_state_decl, "the receive return ring"),
    STATE_PART(tigon, evt, nic_ring_state_decl, "the event ring"),
    STATE_PART(tigon, cmd, nic_ring_state_decl, "the command ring"),
    STATE_PART(tigon, txc, nic_coal_state, "send interrupt coalescing"),
    STATE_PART(tigon, rxc, nic_coal_state, "receive interrupt coalescing"),
    STATE_PART(tigon, link, nic_link_state, "the link"),
    STATE_PART(tigon, ee, nic_eeprom_state, "the EEPROM"),
    STATE_PART(tigon, i2c, nic_i2c_state_decl, "the EEPROM's two-wire interface"),
    STATE_PART(tigon, filt, nic_mac_filter_state, "the address filter"),
    STATE_BUFFER(tigon, sram, sram_size, "the NIC SRAM"),
    STATE_BUFFER(tigon, sram_wr, sram_wr_size, "SRAM words the host wrote (a bit each)"),
    STATE_INT(tigon, fw_words, "words the host wrote above 0x200"),
    STATE_INT(tigon, fw, "firmware state (enum tg_fw_state)"),
    STATE_INT(tigon, cpu_status, "CPU A state as read back"),
    STATE_INT(tigon, cpub_status, "CPU B state"),
    STATE_INT(tigon, fw_pc, "where the firmware was started"),
    STATE_TIMER(tigon, rom_t, "the boot ROM finishes"),
    STATE_TIMER(tigon, boot_t, "the firmware is up"),
    STATE_TIMER(tigon, cmd_t, "the next command is taken"),
    STATE_TIMER(tigon, stats_t, "the statistics block is written"),
    STATE_BOOL(tigon, stack_up, "HOST_STATE up"),
    STATE_BOOL(tigon, link_fast, "the link came up on the 10/100 side"),
    STATE_INT(tigon, link_word, "the Tune word the link started with"),
    STATE_PARTS(tigon, rcb, tg_rcb_state, "the ring control blocks"),
    STATE_INT(tigon, gib, "host address of the general information block"),
    STATE_INT(tigon, evt_prd_addr, "host address of the event producer"),
    STATE_INT(tigon, ret_prd_addr, "host address of the return producer"),
    STATE_INT(tigon, tx_csm_addr, "host address of the send consumer"),
    STATE_INT(tigon, stats2_addr, "host address of the statistics block"),
    STATE_INTS(tigon, evq, "events held back while the event ring is full"),
    STATE_INT(tigon, evq_n, "how many"),
    STATE_INTS(tigon, evt_time, "when each event ring entry was posted"),
    STATE_INT(tigon, events_lost, "events lost: the hold-back queue was full"),
    STATE_INT(tigon, tx_reported, "send consumer index last written to the host"),
    STATE_INT(tigon, tx_unreported, "when the oldest unreported BD was consumed"),
    STATE_INT(tigon, tx_frame_flags, "flags of the frame being gathered"),
    STATE_INT(tigon, tx_vlan, "its VLAN tag"),
    STATE_BOOL(tigon, tx_skip, "a fragment of it failed"),
    STATE_BOOL(tigon, tx_fault, "a send ring DMA failed"),
    STATE_BOOL(tigon, rx_fault, "a receive ring DMA failed"),
    STATE_BOOL(tigon, rx_nobuf, "the last receive found no BD"),
    STATE_WIRING(tigon, rxbuf, "scratch: filled and used within one delivery"),
    STATE_INT(tigon, hi, "the Hi mailbox (interrupt state)"),
    STATE_PART(tigon, st, tg_fwstats_state, "the firmware's statistics"),
    STATE_INTS(tigon, cfg_coal, "coalescing words the coalescers were set up with"),
    STATE_INT(tigon, rom_ticks, "model parameter: boot ROM time"),
    STATE_INT(tigon, boot_ticks, "model parameter: firmware start time"),
    STATE_INT(tigon, cmd_ticks, "model parameter: command time"),
    STATE_BOOL(tigon, require_code, "start only if the host wrote the word at Pc"),
};

static const device_class tigon_class = {
    .name = "tigon2",
    .desc = "Alteon Tigon2 gigabit Ethernet with modelled firmware (SGI 10a9:0009, AceNIC)",
    DEV_REGS(tg_regs),
    DEV_STATE(tg_state, tigon),
    .reg_space = TG_BAR_SIZE,
    .little_endian = true,
    DEV_EVENTS(tg_events),
    DEV_VIEWS(tg_views),
    .reset = tg_reset,
    .other_read = tg_other_read,
    .other_write = tg_other_write,
    .ring_state = nic_ring_state,
};

/* ---- life cycle ----------------------------------------------------------------- */

/* The firmware's timers are declared: nic_free stops them after this. */
static void tg_fini(nic *n)
{
    tigon *t = (tigon *)n;
    tg_dma_stop(t);
    free(t->sram);
    free(t->sram_wr);
    free(t->rxbuf);
}

static void tg_init(nic *n)
{
    tigon *t = (tigon *)n;
    t->sram_size = TG_SRAM_SIZE;
    t->sram = xcalloc(TG_SRAM_SIZE / 4, sizeof *t->sram);
    t->sram_wr_size = TG_SRAM_SIZE / 32;
    t->sram_wr = xcalloc(t->sram_wr_size, 1);
    t->rxbuf = xmalloc(NET_MAX_FRAME + 8);
    n->fifo.cap = TG_FIFO_BYTES;
    nic_coal_init(&t->txc, n, NIC_RING_TX, tg_coal_fire);
    nic_coal_init(&t->rxc, n, NIC_RING_RX, tg_coal_fire);
    nic_link_init(&t->link, n, 0, tg_fw_link_changed);
    nic_eeprom_init(&t->ee, n, TG_EE_SIZE, 0xff, 0);
    nic_eeprom_put(&t->ee, TG_EE_MAC, 0);
    nic_eeprom_put(&t->ee, TG_EE_MAC + 1, 0);
    nic_eeprom_put_mac(&t->ee, TG_EE_MAC + 2, n->mac);
    nic_i2c_init(&t->i2c, &t->ee, 0xa0, TG_EE_SIZE - 1);
    t->require_code = true;
    tg_dma_init(t);
    tg_fw_init(t);
}

/* 802.3x: the link word's TX_FLOW has the Tigon2 send PAUSE frames
 * (acenic.c sets it on a Tigon2, with RX_FLOW and NEG_FCTL, "Tigon II NICs
 * only") [SRC LX-ACE]; the firmware decides when, at levels of its SRAM's
 * receive buffer that are not documented [INF: nic_fc_default_levels, room
 * for a jumbo frame]. */
static void tg_fc_levels(const nic *n, uint32_t *high, uint32_t *low)
{
    const tigon *t = (const tigon *)n;
    *high = *low = 0;
    if (t->link.up && (t->link_word & TG_LNK_TX_FLOW))
        nic_fc_default_levels(n, 9018 + 4, high, low);
}

static const nic_ops tg_ops = {
    .prefix = "tigon",
    .size = sizeof(tigon),
    .init = tg_init,
    .fini = tg_fini,
    .rx = tg_rx_frame,
    .fc_levels = tg_fc_levels,
    .causes = tg_causes,
    .pio_swap = tg_pio_swap,
};

const nic_model tigon_models[] = {
    {"tigon2", "SGI Gigabit Ethernet, Alteon Tigon2 (10a9:0009)", &tigon_class, 0x10a9, 0x0009,
     &tg_ops, false},
    {"acenic", "Alteon AceNIC fibre, Tigon2 (12ae:0001)", &tigon_class, 0x12ae, 0x0001, &tg_ops,
     false},
    {"acenic-copper", "Alteon AceNIC copper, Tigon2 (12ae:0002)", &tigon_class, 0x12ae, 0x0002,
     &tg_ops, false},
    {0},
};
