/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SGI IOC3: see ioc3.h and docs/hardware.md, "IOC3".
 *
 * BAR0 layout (asm/sn/ioc3.h): registers 0x00-0x153, SuperIO at 0x20000
 * (UART B 0x20170, UART A 0x20178), SSRAM 0x40000-0x7ffff, byte-bus
 * DEV0-DEV3 at 0x80000/0xa0000/0xc0000/0xe0000 (DEV0 = M48T35 on IP27).
 *
 * Interrupts.  SIO_IR holds the sources; its UART bits (SA_INT, SB_INT) are
 * the live 16550 outputs, the other bits are latched and written 1 to
 * clear.  SIO_IES sets and SIO_IEC clears bits of the enable mask (both
 * read back the mask).  INTB is asserted while SIO_IR & mask != 0 [SRC
 * drivers/mfd/ioc3.c].
 *
 * The MicroLAN carries the board's Ethernet-address NIC, a DS1981U (family
 * 0x91) [SRC LOG2 "Found DS1981U NIC"; OpenBSD owmac.c], when the board
 * gives an address.  The 10/100 MAC is a NIC model of its own
 * (src/dev/nic/ioc3/ioc3_eth.c) attached with ioc3_attach_eth.
 *
 * Not modelled (documented): the serial DMA ring engine (SSCR_DMA_EN is
 * stored; the UARTs always work in PIO mode), INT_OUT's pulse generator,
 * keyboard/mouse and parallel ports (storage only). */
#include "dev/sgi/ioc3.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "dev/sgi/onewire.h"

#define SIO_BASE 0x20000
#define SIO_END 0x40000
#define UARTB_BASE 0x20170
#define UARTA_BASE 0x20178
#define DEV0_BASE 0x80000
#define DEV1_BASE 0xa0000

/* clang-format off */
enum {
    I_PCI_ID, I_PCI_SCR, I_PCI_REV, I_PCI_LAT, I_PCI_ADDR, I_PCI_ERR_L, I_PCI_ERR_H,
    I_SIO_IR, I_SIO_IES, I_SIO_IEC, I_SIO_CR, I_INT_OUT, I_MCR, I_GPCR_S, I_GPCR_C, I_GPDR,
    I_GPPR, I_PPBR_H_A, I_PPBR_L_A, I_PPCR_A, I_PPCR, I_PPBR_H_B, I_PPBR_L_B, I_PPCR_B,
    I_KM_CSR, I_K_RD, I_M_RD, I_K_WD, I_M_WD, I_SBBR_H, I_SBBR_L,
    I_SSCR_A, I_STPIR_A, I_STCIR_A, I_SRPIR_A, I_SRCIR_A, I_SRTR_A, I_SHADOW_A,
    I_SSCR_B, I_STPIR_B, I_STCIR_B, I_SRPIR_B, I_SRCIR_B, I_SRTR_B, I_SHADOW_B, I_NREGS
};
/* clang-format on */

enum { EV_SIO_IRQ };

struct ioc3 {
    device *dev;
    pci_func pci;
    uart16550 *uart[2];
    m48t35 *rtc;
    uint32_t cfg40[2]; /* config 0x40-0x47 */
    bool intb;
    ow_bus mlan; /* the MicroLAN */
    ow_mcr mcr;
    ds2505 macnic;   /* the Ethernet-address NIC (DS1981U), if has_macnic */
    bool has_macnic; /* configuration */
    pci_func *eth;   /* the Ethernet function, or NULL */
};

static ioc3 *IO(device *d) { return d->priv; }

/* ---- interrupts ------------------------------------------------------------ */

static uint32_t sio_ir_value(ioc3 *io)
{
    uint32_t v = (uint32_t)DEV_R(io->dev, I_SIO_IR);
    if (uart16550_irq_level(io->uart[0]))
        v |= SIO_IR_SA_INT;
    if (uart16550_irq_level(io->uart[1]))
        v |= SIO_IR_SB_INT;
    return v;
}

static void update_intb(ioc3 *io)
{
    uint32_t pending = sio_ir_value(io) & (uint32_t)DEV_R(io->dev, I_SIO_IES);
    bool level = pending != 0;
    if (level == io->intb)
        return;
    io->intb = level;
    EVENT_EMIT(dev_event(io->dev, EV_SIO_IRQ), -1, level, pending);
    pci_set_irq(&io->pci, 1, level); /* INTB */
}

static void uart_irq(void *ctx, bool level)
{
    ioc3 *io = ctx;
    if (io->dev)
        update_intb(io);
}

/* ---- register hooks -------------------------------------------------------- */

static uint64_t rd_cfg_mirror(device *d, const reg_access *a)
{
    return pci_config_read(&IO(d)->pci, a->offset, 4);
}

static void wr_cfg_mirror(device *d, const reg_access *a)
{
    pci_config_write(&IO(d)->pci, a->offset, 4, (uint32_t)a->val);
}

static uint64_t rd_sio_ir(device *d, const reg_access *a) { return sio_ir_value(IO(d)); }

static uint64_t rd_ies(device *d, const reg_access *a) { return DEV_R(d, I_SIO_IES); }

static void wr_iec(device *d, const reg_access *a)
{
    DEV_R(d, I_SIO_IES) &= ~a->val;
    update_intb(IO(d));
}

static void wr_intr(device *d, const reg_access *a) { update_intb(IO(d)); }

/* 1-wire master (MicroLAN): each slot takes its time (sgi_w1.c); the
 * MAC NIC answers on it. */
static uint64_t rd_mcr(device *d, const reg_access *a) { return ow_mcr_read(&IO(d)->mcr); }

static void wr_mcr(device *d, const reg_access *a) { ow_mcr_write(&IO(d)->mcr, (uint32_t)a->val); }

static uint64_t rd_gpcr(device *d, const reg_access *a) { return DEV_R(d, I_GPCR_S); }

static void wr_gpcr_c(device *d, const reg_access *a) { DEV_R(d, I_GPCR_S) &= ~a->val; }

/* SHADOW mirrors the UART's LSR (7:0), MSR (23:16) and MCR (28:24). */
static uint64_t rd_shadow(device *d, const reg_access *a)
{
    ioc3 *io = IO(d);
    device *u = uart16550_device(io->uart[a->id == I_SHADOW_A ? 0 : 1]);
    uint64_t lsr = dev_peek(u, UART_LSR, 0), msr = dev_peek(u, UART_MSR, 0);
    uint64_t mcr = dev_peek(u, UART_MCR, 0);
    return lsr | msr << 16 | mcr << 24;
}

static const reg_field sio_fields[] = {
    {"SA_TX_MT", 0, 1, NULL},    {"SA_RX_FULL", 1, 1, NULL}, {"SA_RX_HIGH", 2, 1, NULL},
    {"SA_RX_TIMER", 3, 1, NULL}, {"SA_INT", 6, 1, NULL},     {"SB_TX_MT", 9, 1, NULL},
    {"SB_RX_FULL", 10, 1, NULL}, {"SB_INT", 15, 1, NULL},    {"PP_INT", 18, 1, NULL},
    {"KBD_INT", 22, 1, NULL},    {"RT_INT", 27, 1, NULL},    {"GEN_INT1", 28, 1, NULL}};
static const reg_field sscr_fields[] = {{"RX_THRESHOLD", 0, 9, NULL}, {"HFC_EN", 17, 1, NULL},
                                        {"HIGH_SPD", 20, 1, NULL},    {"DMA_EN", 28, 1, NULL},
                                        {"DMA_PAUSE", 29, 1, NULL},   {"RESET", 31, 1, NULL}};

/* clang-format off */
/* The serial port registers of UART p (A or B), base its SSCR: control,
 * the DMA ring indexes and timer (stored), the UART's shadow status. */
#define SERIAL_PORT(p, base)                                                                     \
    [I_SSCR_##p] = {.name = "SSCR_" #p, .offset = (base), .width = 4, REG_FIELDS(sscr_fields),    \
                    .desc = "port " #p " control (DMA mode not modelled)"},                      \
    [I_STPIR_##p] = {.name = "STPIR_" #p, .offset = (base) + 0x04, .width = 4,                   \
                     .desc = "port " #p " TX produce"},                                          \
    [I_STCIR_##p] = {.name = "STCIR_" #p, .offset = (base) + 0x08, .width = 4,                   \
                     .desc = "port " #p " TX consume"},                                          \
    [I_SRPIR_##p] = {.name = "SRPIR_" #p, .offset = (base) + 0x0c, .width = 4,                   \
                     .desc = "port " #p " RX produce"},                                          \
    [I_SRCIR_##p] = {.name = "SRCIR_" #p, .offset = (base) + 0x10, .width = 4,                   \
                     .desc = "port " #p " RX consume"},                                          \
    [I_SRTR_##p] = {.name = "SRTR_" #p, .offset = (base) + 0x14, .width = 4,                     \
                    .desc = "port " #p " RX timer"},                                             \
    [I_SHADOW_##p] = {.name = "SHADOW_" #p, .offset = (base) + 0x18, .width = 4,                 \
                      .rules = R_RO | R_NOSTORE, .read = rd_shadow,                              \
                      .desc = "UART " #p " LSR | MSR<<16 | MCR<<24"}

static const reg_decl ioc3_regs[] = {
    [I_PCI_ID] = {.name = "PCI_ID", .offset = 0x00, .width = 4, .rules = R_NOSTORE,
                  .read = rd_cfg_mirror, .write = wr_cfg_mirror,
                  .desc = "mirror of PCI config 0x00"},
    [I_PCI_SCR] = {.name = "PCI_SCR", .offset = 0x04, .width = 4, .rules = R_NOSTORE,
                   .read = rd_cfg_mirror, .write = wr_cfg_mirror,
                   .desc = "mirror of PCI config 0x04"},
    [I_PCI_REV] = {.name = "PCI_REV", .offset = 0x08, .width = 4, .rules = R_RO | R_NOSTORE,
                   .read = rd_cfg_mirror, .desc = "mirror of PCI config 0x08"},
    [I_PCI_LAT] = {.name = "PCI_LAT", .offset = 0x0c, .width = 4, .rules = R_NOSTORE,
                   .read = rd_cfg_mirror, .write = wr_cfg_mirror,
                   .desc = "mirror of PCI config 0x0c"},
    [I_PCI_ADDR] = {.name = "PCI_ADDR", .offset = 0x10, .width = 4, .rules = R_NOSTORE,
                    .read = rd_cfg_mirror, .write = wr_cfg_mirror,
                    .desc = "mirror of PCI config 0x10"},
    [I_PCI_ERR_L] = {.name = "PCI_ERR_ADDR_L", .offset = 0x14, .width = 4,
                     .desc = "PCI error address (never set)"},
    [I_PCI_ERR_H] = {.name = "PCI_ERR_ADDR_H", .offset = 0x18, .width = 4,
                     .desc = "PCI error address high"},
    [I_SIO_IR] = {.name = "SIO_IR", .offset = 0x1c, .width = 4, .rules = R_W1C,
                  REG_FIELDS(sio_fields), .read = rd_sio_ir, .write = wr_intr,
                  .desc = "SIO interrupt sources (UART bits live, others write 1 to clear)"},
    [I_SIO_IES] = {.name = "SIO_IES", .offset = 0x20, .width = 4, .rules = R_W1S,
                   REG_FIELDS(sio_fields), .write = wr_intr,
                   .desc = "write 1 to enable a source; reads the enable mask"},
    [I_SIO_IEC] = {.name = "SIO_IEC", .offset = 0x24, .width = 4, .rules = R_NOSTORE,
                   REG_FIELDS(sio_fields), .read = rd_ies, .write = wr_iec,
                   .desc = "write 1 to disable a source; reads the enable mask"},
    [I_SIO_CR] = {.name = "SIO_CR", .offset = 0x28, .width = 4, .reset = 0x00400000,
                  .wmask = 0x0007ffff, .desc = "SIO control (ARB_DIAG idle)"},
    [I_INT_OUT] = {.name = "INT_OUT", .offset = 0x2c, .width = 4,
                   .desc = "interrupt output pulse generator (stored)"},
    [I_MCR] = {.name = "MCR", .offset = 0x30, .width = 4, .rules = R_NOSTORE, .read = rd_mcr,
               .write = wr_mcr, .desc = "MicroLAN 1-wire master (the MAC address NIC)"},
    [I_GPCR_S] = {.name = "GPCR_S", .offset = 0x34, .width = 4, .rules = R_W1S,
                  .desc = "GPIO control: write 1 to set; reads GPCR"},
    [I_GPCR_C] = {.name = "GPCR_C", .offset = 0x38, .width = 4, .rules = R_NOSTORE, .read = rd_gpcr,
                  .write = wr_gpcr_c, .desc = "GPIO control: write 1 to clear; reads GPCR"},
    [I_GPDR] = {.name = "GPDR", .offset = 0x3c, .width = 4, .desc = "GPIO data"},
    [I_GPPR] = {.name = "GPPR", .offset = 0x40, .width = 4, .count = 16, .stride = 4,
                .desc = "GPIO pins (6/7: UART A/B mode select)"},
    [I_PPBR_H_A] = {.name = "PPBR_H_A", .offset = 0x80, .width = 4,
                    .desc = "parallel port (stored)"},
    [I_PPBR_L_A] = {.name = "PPBR_L_A", .offset = 0x84, .width = 4,
                    .desc = "parallel port (stored)"},
    [I_PPCR_A] = {.name = "PPCR_A", .offset = 0x88, .width = 4, .desc = "parallel port (stored)"},
    [I_PPCR] = {.name = "PPCR", .offset = 0x8c, .width = 4, .desc = "parallel port (stored)"},
    [I_PPBR_H_B] = {.name = "PPBR_H_B", .offset = 0x90, .width = 4,
                    .desc = "parallel port (stored)"},
    [I_PPBR_L_B] = {.name = "PPBR_L_B", .offset = 0x94, .width = 4,
                    .desc = "parallel port (stored)"},
    [I_PPCR_B] = {.name = "PPCR_B", .offset = 0x98, .width = 4, .desc = "parallel port (stored)"},
    [I_KM_CSR] = {.name = "KM_CSR", .offset = 0x9c, .width = 4, .desc = "keyboard/mouse (stored)"},
    [I_K_RD] = {.name = "K_RD", .offset = 0xa0, .width = 4, .desc = "keyboard read (stored)"},
    [I_M_RD] = {.name = "M_RD", .offset = 0xa4, .width = 4, .desc = "mouse read (stored)"},
    [I_K_WD] = {.name = "K_WD", .offset = 0xa8, .width = 4, .desc = "keyboard write (stored)"},
    [I_M_WD] = {.name = "M_WD", .offset = 0xac, .width = 4, .desc = "mouse write (stored)"},
    [I_SBBR_H] = {.name = "SBBR_H", .offset = 0xb0, .width = 4, .desc = "serial ring base high"},
    [I_SBBR_L] = {.name = "SBBR_L", .offset = 0xb4, .width = 4, .desc = "serial ring base low"},
    SERIAL_PORT(A, 0xb8),
    SERIAL_PORT(B, 0xd4),
};
/* clang-format on */
DEV_REGS_CHECK(ioc3_regs, I_NREGS);

/* ---- byte-wide devices behind the register block --------------------------- */

/* The device byte behind PCI byte address p, through the ^3 lane wiring. */
static int byte_dev(ioc3 *io, uint64_t p, bool write, uint8_t *val)
{
    uint64_t a = p ^ 3;
    if (a - UARTA_BASE < 8 || a - UARTB_BASE < 8) {
        uart16550 *u = io->uart[a >= UARTA_BASE ? 0 : 1];
        unsigned reg = (unsigned)(a & 7);
        if (write)
            uart16550_write(u, reg, *val);
        else
            *val = uart16550_read(u, reg);
        return 1;
    }
    if (a >= DEV0_BASE && a < DEV1_BASE) {
        /* The chip decodes 15 address bits: DEV0 repeats it every 32 KB. */
        unsigned ca = (unsigned)((a - DEV0_BASE) & (M48T35_SIZE - 1));
        if (write)
            m48t35_write(io->rtc, ca, *val);
        else
            *val = m48t35_read(io->rtc, ca);
        return 1;
    }
    return 0;
}

static int other_access(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val,
                        bool write)
{
    ioc3 *io = IO(d);
    uint64_t out = 0;
    bool any = false;
    for (unsigned k = 0; k < size; k++) {
        uint8_t b = write ? (uint8_t)(*val >> (8 * k)) : 0; /* little-endian lanes */
        if (byte_dev(io, off + k, write, &b))
            any = true;
        out |= (uint64_t)b << (8 * k);
    }
    if (!any) /* SSRAM, DEV1-3, unmodelled SuperIO: reads 0, writes dropped */
        EVENT_EMIT(d->ev[DEV_EV_BAD_ACCESS], op ? op->initiator : -1, off, size, write,
                   write ? *val : 0);
    if (!write)
        *val = out;
    return BUS_OK;
}

static int other_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    return other_access(d, op, off, size, val, false);
}

static int other_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    return other_access(d, op, off, size, &val, true);
}

static const event_field sio_irq_fields[] = {{"level", EVF_BOOL, NULL, NULL},
                                             {"pending", EVF_HEX, NULL, NULL}};
static const event_decl ioc3_events[] = {
    [EV_SIO_IRQ] = {"sio.irq", "INTB (SIO_IR & mask) changed", sio_irq_fields, 2},
};

static void ioc3_reset(device *d)
{
    ioc3 *io = IO(d);
    io->cfg40[0] = io->cfg40[1] = 0;
    pci_func_reset(&io->pci);
    io->intb = false;
    ow_mcr_reset(&io->mcr);
    pci_set_irq(&io->pci, 1, false);
    update_intb(io);
}

static const state_decl ioc3_state[] = {
    STATE_WIRING(ioc3, dev, "the register block: ioc3_new"),
    STATE_PART(ioc3, pci, pci_func_state, "its PCI configuration header and INTx"),
    STATE_WIRING(ioc3, uart, "UART A and B: devices of their own (ioc3.uart-a, -b)"),
    STATE_WIRING(ioc3, rtc, "the M48T35: a device of its own"),
    STATE_INTS(ioc3, cfg40, "config 0x40-0x47"),
    STATE_LINE(ioc3, intb, "the SIO interrupt (INTB) as driven"),
    STATE_PART(ioc3, mlan, ow_bus_state, "the MicroLAN"),
    STATE_PART(ioc3, mcr, ow_mcr_state, "MCR: its 1-wire master"),
    STATE_PART(ioc3, macnic, ds2505_state, "the Ethernet-address NIC (DS1981U)"),
    STATE_WIRING(ioc3, eth, "the Ethernet function: a device of its own (ioc3_attach_eth)"),
};

static const device_class ioc3_class = {
    .name = "ioc3",
    .desc = "SGI IOC3 (SuperIO UARTs, M48T35, GPIO, 1-wire; its Ethernet is ioc3_eth0)",
    DEV_REGS(ioc3_regs),
    .reg_space = IOC3_BAR0_SIZE,
    .little_endian = true,
    DEV_EVENTS(ioc3_events),
    DEV_STATE(ioc3_state, ioc3),
    .reset = ioc3_reset,
    .other_read = other_read,
    .other_write = other_write,
};

/* ---- PCI function ---------------------------------------------------------- */

static bool eth_offset(uint64_t off)
{
    return (off >= IOC3_ETH_REGS && off < IOC3_ETH_REGS_END) ||
           (off >= IOC3_SSRAM && off < IOC3_SSRAM_END);
}

/* One piece of a BAR access that stays on one side of the Ethernet
 * function's boundaries. */
static int bar_piece(ioc3 *io, int who, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    if (io->eth && eth_offset(off))
        return pci_bar_access(io->eth, who, 0, off, size, val, write);
    bus_op op = {.addr = off, .size = size, .write = write, .initiator = (uint16_t)who};
    return write ? dev_write(io->dev, &op, off, size, *val)
                 : dev_read(io->dev, &op, off, size, val);
}

/* An access crossing one of the boundaries (a doubleword at 0xec) is split
 * there, little-endian lanes as on PCI. */
static int bar_access(ioc3 *io, int who, uint64_t off, unsigned size, uint64_t *val, bool write)
{
    static const uint64_t edges[] = {IOC3_ETH_REGS, IOC3_ETH_REGS_END, IOC3_SSRAM, IOC3_SSRAM_END};
    for (unsigned i = 0; i < ARRAY_SIZE(edges); i++) {
        uint64_t e = edges[i];
        if (off < e && off + size > e) {
            unsigned n1 = (unsigned)(e - off), n2 = size - n1;
            uint64_t lo = *val & MASK(8 * n1), hi = *val >> (8 * n1);
            int st = bar_piece(io, who, off, n1, &lo, write);
            if (st == BUS_OK)
                st = bar_access(io, who, e, n2, &hi, write);
            if (!write)
                *val = (lo & MASK(8 * n1)) | hi << (8 * n1);
            return st;
        }
    }
    return bar_piece(io, who, off, size, val, write);
}

static int bar_read(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val)
{
    ioc3 *io = f->opaque;
    if (bar != 0 || off + size > IOC3_BAR0_SIZE)
        return BUS_ERROR;
    *val = 0;
    return bar_access(io, who, off, size, val, false);
}

static int bar_write(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val)
{
    ioc3 *io = f->opaque;
    if (bar != 0 || off + size > IOC3_BAR0_SIZE)
        return BUS_ERROR;
    return bar_access(io, who, off, size, &val, true);
}

/* The IOC3 decodes config cycles only for 0x00-0x13 and 0x40-0x47 [SRC
 * pci-xtalk-bridge.c ioc3_cfg_rd/wr]; xbow reads the rest as 0. */
static bool cfg_read(pci_func *f, unsigned off, unsigned size, uint32_t *val)
{
    ioc3 *io = f->opaque;
    if (off >= 0x14 && off < 0x40) {
        *val = 0;
        return true;
    }
    if (off >= 0x40 && off < 0x48) {
        uint64_t both = io->cfg40[0] | (uint64_t)io->cfg40[1] << 32;
        *val = (uint32_t)((both >> (8 * (off - 0x40))) & MASK(8 * size));
        return true;
    }
    return false;
}

static bool cfg_write(pci_func *f, unsigned off, unsigned size, uint32_t val)
{
    ioc3 *io = f->opaque;
    if (off >= 0x14 && off < 0x18) {
        /* Writing BAR1 writes BAR0 [SRC OpenBSD xbridge.c]. */
        pci_config_write(f, off - 4, size, val);
        return true;
    }
    if (off >= 0x18 && off < 0x40)
        return true; /* not decoded */
    if (off >= 0x40 && off < 0x48) {
        for (unsigned k = 0; k < size; k++) {
            unsigned o = off - 0x40 + k;
            uint32_t *w = &io->cfg40[o / 4];
            unsigned sh = 8 * (o % 4);
            *w = (*w & ~(0xffu << sh)) | ((val >> (8 * k)) & 0xff) << sh;
        }
        return true;
    }
    return false;
}

/* info pci: the Ethernet function's line (its MAC and cable). */
static void show(pci_func *f, strbuf *out)
{
    ioc3 *io = f->opaque;
    if (io->eth && io->eth->ops && io->eth->ops->show) {
        sb_printf(out, "    Ethernet %s:\n", io->eth->name);
        io->eth->ops->show(io->eth, out);
    }
}

static const pci_func_ops ioc3_pci_ops = {
    .show = show,
    .bar_read = bar_read,
    .bar_write = bar_write,
    .config_read = cfg_read,
    .config_write = cfg_write,
};

ioc3 *ioc3_new(const char *name, event_bus *eb, sched *clock, const ioc3_config *cfg)
{
    ioc3 *io = xcalloc(1, sizeof *io);
    pci_func_init(&io->pci, name, &ioc3_pci_ops, io);
    io->pci.vendor_id = IOC3_VENDOR;
    io->pci.device_id = IOC3_DEVICE;
    io->pci.class_code = 0xff0000; /* "unassigned class" [UNC] */
    io->pci.revision = 1;
    io->pci.int_pin = 2; /* INTB carries the SIO interrupts on BaseIO */
    io->pci.bars[0].size = IOC3_BAR0_SIZE;
    io->pci.bars[0].flags = PCI_BAR_MEM;
    char n[24];
    snprintf(n, sizeof n, "%s.uart-a", name);
    uart16550_config uc = {n, IOC3_UART_CLOCK, cfg->uart_a, uart_irq, io};
    io->uart[0] = uart16550_new(&uc, eb, clock);
    snprintf(n, sizeof n, "%s.uart-b", name);
    uc.ch = cfg->uart_b;
    io->uart[1] = uart16550_new(&uc, eb, clock);
    snprintf(n, sizeof n, "%s.rtc", name);
    io->rtc = m48t35_new(n, eb, clock, cfg->rtc_epoch, 1970);
    io->dev = device_new(&ioc3_class, name, io, eb, clock);
    io->pci.dev = io->dev;
    ow_bus_init(&io->mlan);
    ow_mcr_init(&io->mcr, &io->mlan, clock);
    if (cfg->mac) {
        /* Serial: SGI's 0x5e7 in the top 12 bits [SRC OpenBSD owmac.c], the
         * address's last three octets below. */
        const uint8_t *m = cfg->mac;
        uint64_t serial = 0x5e7ull << 36 | (uint64_t)m[3] << 16 | (uint64_t)m[4] << 8 | m[5];
        ds2502_init(&io->macnic, SGI_MAC_NIC_FAMILY, serial, SGI_MAC_NIC_SIZE);
        sgi_mac_nic_format(io->macnic.mem, m);
        ow_bus_attach(&io->mlan, &io->macnic.slave);
        io->has_macnic = true;
    }
    device_reset(io->dev);
    return io;
}

/* ---- the Ethernet function's host: the IOC3's own ------------------------------ */

static int eth_dma(void *host, pci_func *f, uint64_t addr, void *buf, uint64_t len, bool write,
                   int kind)
{
    ioc3 *io = host;
    if (!pci_bus_master(&io->pci))
        return PCI_DMA_NOMASTER;
    if (!io->pci.host_ops || !io->pci.host_ops->dma)
        return PCI_DMA_ABORT;
    f->slot = io->pci.slot;
    return io->pci.host_ops->dma(io->pci.host, f, addr, buf, len, write, kind);
}

static void eth_set_irq(void *host, pci_func *f, int pin, bool level)
{
    ioc3 *io = host;
    if (pin == 0)
        pci_set_irq(&io->pci, 0, level); /* INTA */
}

static int eth_peek(void *host, pci_func *f, uint64_t addr, void *buf, uint64_t len)
{
    ioc3 *io = host;
    if (!io->pci.host_ops || !io->pci.host_ops->peek)
        return PCI_DMA_ABORT;
    f->slot = io->pci.slot;
    return io->pci.host_ops->peek(io->pci.host, f, addr, buf, len);
}

static const pci_host_ops eth_host_ops = {eth_dma, eth_set_irq, eth_peek};

void ioc3_attach_eth(ioc3 *io, pci_func *eth)
{
    io->eth = eth;
    if (!eth)
        return;
    eth->host_ops = &eth_host_ops;
    eth->host = io;
    eth->slot = io->pci.slot;
    /* The function has no configuration header of its own: the IOC3's
     * command register decides (eth_dma). */
    eth->command = PCI_CMD_MEM | PCI_CMD_MASTER;
}

void ioc3_free(ioc3 *io)
{
    if (!io)
        return;
    uart16550_free(io->uart[0]);
    uart16550_free(io->uart[1]);
    m48t35_free(io->rtc);
    free(io);
}

pci_func *ioc3_pci(ioc3 *io) { return &io->pci; }

unsigned ioc3_devices(ioc3 *io, device **out, unsigned max)
{
    device *all[4] = {io->dev, io->uart[0] ? uart16550_device(io->uart[0]) : NULL,
                      io->uart[1] ? uart16550_device(io->uart[1]) : NULL,
                      io->rtc ? m48t35_device(io->rtc) : NULL};
    unsigned n = 0;
    for (unsigned i = 0; i < 4 && n < max; i++)
        if (all[i])
            out[n++] = all[i];
    return n;
}

uart16550 *ioc3_uart(ioc3 *io, int port) { return port == 0 || port == 1 ? io->uart[port] : NULL; }

m48t35 *ioc3_rtc(ioc3 *io) { return io->rtc; }
