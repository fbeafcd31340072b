/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI Bridge ASIC: register declaration, construction, interrupts and
 * error reporting.  PIO is in bridge_pio.c, DMA in bridge_dma.c, the decoded
 * views in bridge_view.c.  Registers as Linux's asm/pci/bridge.h defines them;
 * see docs/hardware.md, "Bridge", for every [INF]/[UNC] choice. */
#include "dev/sgi/bridge_priv.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

/* ---- register fields ---------------------------------------------------- */

static const reg_field f_wid_id[] = {
    {"REV", 28, 4, NULL}, {"PART", 12, 16, NULL}, {"MFG", 1, 11, NULL}};
static const reg_field f_wid_stat[] = {{"LLP_REC_CNT", 24, 8, NULL},
                                       {"LLP_TX_CNT", 16, 8, NULL},
                                       {"FLASH_SELECT", 6, 1, NULL},
                                       {"PCI_GIO_N", 5, 1, NULL},
                                       {"PENDING", 0, 5, NULL}};
static const char *const page_sizes[] = {"4K", "16K", NULL};
static const char *const ssram_sizes[] = {"1K", "64K", "128K", "512K", NULL};
static const reg_field f_wid_control[] = {{"FLASH_WR_EN", 31, 1, NULL},
                                          {"EN_CLK50", 30, 1, NULL},
                                          {"EN_CLK40", 29, 1, NULL},
                                          {"EN_CLK33", 28, 1, NULL},
                                          {"RST", 24, 4, NULL},
                                          {"IO_SWAP", 23, 1, NULL},
                                          {"MEM_SWAP", 22, 1, NULL},
                                          {"PAGE_SIZE", 21, 1, page_sizes},
                                          {"SS_PAR_BAD", 20, 1, NULL},
                                          {"SS_PAR_EN", 19, 1, NULL},
                                          {"SSRAM_SIZE", 17, 2, ssram_sizes},
                                          {"F_BAD_PKT", 16, 1, NULL},
                                          {"LLP_XBAR_CRD", 12, 4, NULL},
                                          {"CLR_RLLP_CNT", 11, 1, NULL},
                                          {"CLR_TLLP_CNT", 10, 1, NULL},
                                          {"SYS_END", 9, 1, NULL},
                                          {"MAX_TRANS", 4, 5, NULL},
                                          {"WIDGET_ID", 0, 4, NULL}};
static const reg_field f_addr_hi[] = {{"ADDR", 0, 16, NULL}};
static const reg_field f_int_upper[] = {
    {"VECTOR", 24, 8, NULL}, {"TARGET", 16, 4, NULL}, {"ADDR", 0, 16, NULL}};
static const char *const pactyp_names[] = {"RdReq",  "RdResp",      "WrReqWithResp",
                                           "WrResp", "WrReqNoResp", NULL};
static const reg_field f_cmdword[] = {
    {"DIDN", 28, 4, NULL}, {"SIDN", 24, 4, NULL}, {"PACTYP", 20, 4, pactyp_names},
    {"TNUM", 15, 5, NULL}, {"COH", 14, 1, NULL},  {"DS", 12, 2, NULL},
    {"GBR", 11, 1, NULL},  {"VBPM", 10, 1, NULL}, {"ERROR", 9, 1, NULL},
    {"BARR", 8, 1, NULL}};
static const reg_field f_resp_upper[] = {
    {"DEVNUM", 20, 2, NULL}, {"BUFNUM", 16, 4, NULL}, {"ADDR", 0, 16, NULL}};
static const reg_field f_dir_map[] = {{"W_ID", 20, 4, NULL},
                                      {"RMF_64", 18, 1, NULL},
                                      {"ADD512", 17, 1, NULL},
                                      {"DIR_OFF", 0, 17, NULL}};
static const reg_field f_nic[] = {
    {"PULSE", 10, 10, NULL}, {"SAMPLE", 2, 8, NULL}, {"DONE", 1, 1, NULL}, {"RD_DATA", 0, 1, NULL}};
static const reg_field f_bus_timeout[] = {
    {"PCI_RETRY_HLD", 16, 5, NULL}, {"GIO_TIMEOUT", 12, 1, NULL}, {"PCI_RETRY_CNT", 0, 10, NULL}};
static const reg_field f_pci_cfg[] = {{"BUS", 16, 8, NULL}, {"DEV", 11, 5, NULL}};
static const reg_field f_pci_err_upper[] = {{"DEVMASTER", 20, 1, NULL},
                                            {"PCIVDEV", 19, 1, NULL},
                                            {"DEVNUM", 16, 3, NULL},
                                            {"ADDR", 0, 16, NULL}};
static const reg_field f_int_status[] = {{"MULTI_ERR", 31, 1, NULL},
                                         {"PMU_ESIZE_FAULT", 30, 1, NULL},
                                         {"UNEXP_RESP", 29, 1, NULL},
                                         {"BAD_XRESP_PKT", 28, 1, NULL},
                                         {"BAD_XREQ_PKT", 27, 1, NULL},
                                         {"RESP_XTLK_ERR", 26, 1, NULL},
                                         {"REQ_XTLK_ERR", 25, 1, NULL},
                                         {"INVLD_ADDR", 24, 1, NULL},
                                         {"UNSUPPORTED_XOP", 23, 1, NULL},
                                         {"XREQ_FIFO_OFLOW", 22, 1, NULL},
                                         {"LLP_REC_SNERR", 21, 1, NULL},
                                         {"LLP_REC_CBERR", 20, 1, NULL},
                                         {"LLP_RCTY", 19, 1, NULL},
                                         {"LLP_TX_RETRY", 18, 1, NULL},
                                         {"LLP_TCTY", 17, 1, NULL},
                                         {"SSRAM_PERR", 16, 1, NULL},
                                         {"PCI_ABORT", 15, 1, NULL},
                                         {"PCI_PARITY", 14, 1, NULL},
                                         {"PCI_SERR", 13, 1, NULL},
                                         {"PCI_PERR", 12, 1, NULL},
                                         {"PCI_MST_TIMEOUT", 11, 1, NULL},
                                         {"PCI_RETRY_CNT", 10, 1, NULL},
                                         {"XREAD_REQ_TIMEOUT", 9, 1, NULL},
                                         {"GIO_B_ENBL_ERR", 8, 1, NULL},
                                         {"INT", 0, 8, NULL}};
static const reg_field f_int_rst[] = {
    {"MULTI_CLR", 6, 1, NULL},       {"CRP_GRP_CLR", 5, 1, NULL}, {"RESP_BUF_GRP_CLR", 4, 1, NULL},
    {"REQ_DSP_GRP_CLR", 3, 1, NULL}, {"LLP_GRP_CLR", 2, 1, NULL}, {"SSRAM_GRP_CLR", 1, 1, NULL},
    {"PCI_GRP_CLR", 0, 1, NULL}};
static const reg_field f_int_mode[] = {{"CLR_PKT_EN", 0, 8, NULL}};
static const reg_field f_int_device[] = {
    {"PIN0", 0, 3, NULL},  {"PIN1", 3, 3, NULL},  {"PIN2", 6, 3, NULL},  {"PIN3", 9, 3, NULL},
    {"PIN4", 12, 3, NULL}, {"PIN5", 15, 3, NULL}, {"PIN6", 18, 3, NULL}, {"PIN7", 21, 3, NULL}};
static const reg_field f_fld[] = {{"FLD", 0, 8, NULL}};
static const reg_field f_int_addr[] = {
    {"DEST_IO", 17, 1, NULL}, {"HOST", 8, 10, NULL}, {"FLD", 0, 8, NULL}};
static const char *const io_mem_names[] = {"io", "mem", NULL};
static const reg_field f_device[] = {{"ERR_LOCK_EN", 28, 1, NULL},
                                     {"PAGE_CHK_DIS", 27, 1, NULL},
                                     {"FORCE_PCI_PAR", 26, 1, NULL},
                                     {"VIRTUAL_EN", 25, 1, NULL},
                                     {"PMU_WRGA_EN", 24, 1, NULL},
                                     {"DIR_WRGA_EN", 23, 1, NULL},
                                     {"DEV_SIZE", 22, 1, NULL},
                                     {"RT", 21, 1, NULL},
                                     {"SWAP_PMU", 20, 1, NULL},
                                     {"SWAP_DIR", 19, 1, NULL},
                                     {"PREF", 18, 1, NULL},
                                     {"PRECISE", 17, 1, NULL},
                                     {"COH", 16, 1, NULL},
                                     {"BARRIER", 15, 1, NULL},
                                     {"GBR", 14, 1, NULL},
                                     {"DEV_SWAP", 13, 1, NULL},
                                     {"DEV_IO_MEM", 12, 1, io_mem_names},
                                     {"DEV_OFF", 0, 12, NULL}};
static const reg_field f_resp_status[] = {{"VALID", 16, 16, NULL}, {"INUSE", 0, 16, NULL}};

/* ---- register hooks ----------------------------------------------------- */

static bridge *br_of(device *d) { return d->priv; }

static uint64_t read_zero(device *d, const reg_access *a) { return 0; }

static uint64_t read_int_status(device *d, const reg_access *a)
{
    bridge *br = br_of(d);
    return br->int_err | br->pins;
}

static void write_int_enable(device *d, const reg_access *a) { bridge_update_irqs(br_of(d)); }

/* INT_RST_STAT groups (Linux BRIDGE_IRR_*_GRP). */
static const uint32_t rst_groups[7] = {
    /* PCI */ (1u << 15) | (1u << 14) | (1u << 13) | (1u << 12) | (1u << 11) | (1u << 10),
    /* SSRAM */ (1u << 16) | (1u << 30),
    /* LLP */ (1u << 21) | (1u << 20) | (1u << 19) | (1u << 18) | (1u << 17),
    /* REQ_DSP */ (1u << 23) | (1u << 27) | (1u << 25) | (1u << 24),
    /* RESP_BUF */ (1u << 28) | (1u << 26) | (1u << 9),
    /* CRP */ (1u << 29) | (1u << 22),
    /* MULTI */ BRIDGE_ISR_MULTI_ERR,
};
/* Error bits whose address is latched in each LATCH_* register pair. */
#define LATCHED_BY_PCI (rst_groups[0] | BRIDGE_ISR_PMU_ESIZE_FAULT)
#define LATCHED_BY_WID (rst_groups[3])
#define LATCHED_BY_RESP (rst_groups[4])

static void write_int_rst(device *d, const reg_access *a)
{
    bridge *br = br_of(d);
    for (unsigned g = 0; g < 7; g++)
        if (a->val & (1u << g))
            br->int_err &= ~rst_groups[g];
    if (!(br->int_err & LATCHED_BY_PCI))
        br->latched &= (uint8_t)~LATCH_PCI;
    if (!(br->int_err & LATCHED_BY_WID))
        br->latched &= (uint8_t)~LATCH_WID;
    if (!(br->int_err & LATCHED_BY_RESP))
        br->latched &= (uint8_t)~LATCH_RESP;
    bridge_update_irqs(br);
}

static uint64_t read_nic(device *d, const reg_access *a) { return ow_mcr_read(&br_of(d)->nic_mcr); }

static void write_nic(device *d, const reg_access *a)
{
    ow_mcr_write(&br_of(d)->nic_mcr, (uint32_t)(a->val & d->cls->regs[a->id].wmask));
}


/* Bridge part 0xc002, manufacturer 0x036 [SRC bridge.h]; revision D (4): the
 * revision whose PCI I/O alias works [SRC OB]; bit 0 is the XIO id's
 * always-one bit [INF]. */
#define BRIDGE_WID_ID_RESET (4u << 28 | 0xc002u << 12 | 0x036u << 1 | 1u)

/* clang-format off */
static const reg_decl bridge_regs[] = {
    [BR_WID_ID] = {.name = "WID_ID", .offset = 0x04, .width = 4, .rules = R_RO,
                   .reset = BRIDGE_WID_ID_RESET, REG_FIELDS(f_wid_id), .desc = "widget id"},
    [BR_WID_STAT] = {.name = "WID_STAT", .offset = 0x0c, .width = 4, .rules = R_RO,
                     .reset = 1u << 5, REG_FIELDS(f_wid_stat),
                     .desc = "widget status (PCI, not GIO)"},
    [BR_WID_ERR_UPPER] = {.name = "WID_ERR_UPPER", .offset = 0x14, .width = 4, .rules = R_RO,
                          REG_FIELDS(f_addr_hi), .desc = "XIO error address 47:32"},
    [BR_WID_ERR_LOWER] = {.name = "WID_ERR_LOWER", .offset = 0x1c, .width = 4, .rules = R_RO,
                          .desc = "XIO error address 31:0"},
    [BR_WID_CONTROL] = {.name = "WID_CONTROL", .offset = 0x24, .width = 4,
                        REG_FIELDS(f_wid_control), .desc = "widget control"},
    [BR_WID_REQ_TIMEOUT] = {.name = "WID_REQ_TIMEOUT", .offset = 0x2c, .width = 4,
                            .desc = "request timeout"},
    [BR_WID_INT_UPPER] = {.name = "WID_INT_UPPER", .offset = 0x34, .width = 4,
                          REG_FIELDS(f_int_upper),
                          .desc = "interrupt target widget, address 47:32"},
    [BR_WID_INT_LOWER] = {.name = "WID_INT_LOWER", .offset = 0x3c, .width = 4,
                          .desc = "interrupt address 31:0"},
    [BR_WID_ERR_CMDWORD] = {.name = "WID_ERR_CMDWORD", .offset = 0x44, .width = 4, .rules = R_RO,
                            REG_FIELDS(f_cmdword),
                            .desc = "command word of the failed XIO request"},
    [BR_WID_LLP] = {.name = "WID_LLP", .offset = 0x4c, .width = 4, .desc = "LLP configuration"},
    [BR_WID_TFLUSH] = {.name = "WID_TFLUSH", .offset = 0x54, .width = 4, .rules = R_RO | R_NOSTORE,
                       .read = read_zero, .desc = "read to flush PIO writes"},
    [BR_WID_AUX_ERR] = {.name = "WID_AUX_ERR", .offset = 0x5c, .width = 4, .rules = R_RO,
                        REG_FIELDS(f_cmdword), .desc = "auxiliary error command word"},
    [BR_WID_RESP_UPPER] = {.name = "WID_RESP_UPPER", .offset = 0x64, .width = 4, .rules = R_RO,
                           REG_FIELDS(f_resp_upper), .desc = "response error address 47:32"},
    [BR_WID_RESP_LOWER] = {.name = "WID_RESP_LOWER", .offset = 0x6c, .width = 4, .rules = R_RO,
                           .desc = "response error address 31:0"},
    [BR_WID_TST_PIN_CTRL] = {.name = "WID_TST_PIN_CTRL", .offset = 0x74, .width = 4,
                             .desc = "test pin control"},
    [BR_DIR_MAP] = {.name = "DIR_MAP", .offset = 0x84, .width = 4, .wmask = 0x00f7ffff,
                    REG_FIELDS(f_dir_map), .desc = "direct-map DMA window"},
    [BR_RAM_PERR] = {.name = "RAM_PERR", .offset = 0x94, .width = 4, .rules = R_RO,
                     .desc = "SSRAM parity error"},
    [BR_ARB] = {.name = "ARB", .offset = 0xa4, .width = 4, .desc = "arbitration priority"},
    [BR_NIC] = {.name = "NIC", .offset = 0xb4, .width = 4, .rules = R_NOSTORE, .wmask = 0x000ffffc,
                REG_FIELDS(f_nic), .read = read_nic, .write = write_nic,
                .desc = "1-wire (MicroLAN) master"},
    [BR_BUS_TIMEOUT] = {.name = "BUS_TIMEOUT", .offset = 0xc4, .width = 4, .wmask = 0x001f13ff,
                        REG_FIELDS(f_bus_timeout), .desc = "PCI retry/timeout"},
    [BR_PCI_CFG] = {.name = "PCI_CFG", .offset = 0xcc, .width = 4, .wmask = 0x00fff800,
                    REG_FIELDS(f_pci_cfg), .desc = "type-1 config bus/device"},
    [BR_PCI_ERR_UPPER] = {.name = "PCI_ERR_UPPER", .offset = 0xd4, .width = 4, .rules = R_RO,
                          REG_FIELDS(f_pci_err_upper), .desc = "PCI error address 47:32"},
    [BR_PCI_ERR_LOWER] = {.name = "PCI_ERR_LOWER", .offset = 0xdc, .width = 4, .rules = R_RO,
                          .desc = "PCI error address 31:0"},
    [BR_INT_STATUS] = {.name = "INT_STATUS", .offset = 0x104, .width = 4, .rules = R_RO | R_NOSTORE,
                       REG_FIELDS(f_int_status), .read = read_int_status,
                       .desc = "live pin levels and latched errors"},
    [BR_INT_ENABLE] = {.name = "INT_ENABLE", .offset = 0x10c, .width = 4, REG_FIELDS(f_int_status),
                       .write = write_int_enable, .desc = "interrupt enables"},
    [BR_INT_RST_STAT] = {.name = "INT_RST_STAT", .offset = 0x114, .width = 4, .rules = R_WO,
                         .wmask = 0x7f, REG_FIELDS(f_int_rst), .write = write_int_rst,
                         .desc = "clear error groups"},
    [BR_INT_MODE] = {.name = "INT_MODE", .offset = 0x11c, .width = 4, .wmask = 0xff,
                     REG_FIELDS(f_int_mode), .desc = "send clear packets on pin deassertion"},
    [BR_INT_DEVICE] = {.name = "INT_DEVICE", .offset = 0x124, .width = 4, .wmask = 0x00ffffff,
                       REG_FIELDS(f_int_device), .desc = "device owning each pin"},
    [BR_INT_HOST_ERR] = {.name = "INT_HOST_ERR", .offset = 0x12c, .width = 4, .wmask = 0xff,
                         REG_FIELDS(f_fld), .desc = "vector of the error interrupt"},
    [BR_INT_ADDR] = {.name = "INT_ADDR", .offset = 0x134, .width = 4, .count = 8, .stride = 8,
                     .wmask = 0x3ffff, REG_FIELDS(f_int_addr),
                     .desc = "pin interrupt vector and host"},
    [BR_DEVICE] = {.name = "DEVICE", .offset = 0x204, .width = 4, .count = 8, .stride = 8,
                   .wmask = 0x1fffffff, REG_FIELDS(f_device),
                   .desc = "per-slot PIO window and DMA modes"},
    [BR_WR_REQ_BUF] = {.name = "WR_REQ_BUF", .offset = 0x244, .width = 4, .count = 8, .stride = 8,
                       .rules = R_RO | R_NOSTORE, .read = read_zero,
                       .desc = "posted writes pending"},
    [BR_EVEN_RESP] = {.name = "EVEN_RESP", .offset = 0x284, .width = 4,
                      .desc = "read response buffers, even slots"},
    [BR_ODD_RESP] = {.name = "ODD_RESP", .offset = 0x28c, .width = 4,
                     .desc = "read response buffers, odd slots"},
    [BR_RESP_STATUS] = {.name = "RESP_STATUS", .offset = 0x294, .width = 4, .rules = R_RO,
                        REG_FIELDS(f_resp_status), .desc = "read response buffer status"},
    [BR_RESP_CLEAR] = {.name = "RESP_CLEAR", .offset = 0x29c, .width = 4, .rules = R_WO,
                       .wmask = 0xffff, .desc = "read response buffer clear"},
};
/* clang-format on */
DEV_REGS_CHECK(bridge_regs, BR_NREGS);

/* ---- events ------------------------------------------------------------- */

static const char *const kind_names[] = {"word", "bulk", NULL};
static const char *const window_names[] = {"dir32", "ate", "pci64", "local", NULL};
static const char *const space_names[] = {"mem", "io", "cfg", "widget", NULL};
static const char *const pio_reasons[] = {"master-abort", "target-abort", "invalid", NULL};
static const char *const dma_reasons[] = {"local",  "ate-range", "ate-invalid",
                                          "target", "nowhere",   NULL};

static void fmt_initiator(const event *ev, uint64_t v, strbuf *out)
{
    const device *d = ev->src->owner;
    const bridge *br = d->priv;
    const initiator *in = initiator_get(br->bus, (int)v);
    sb_puts(out, in ? in->name : "?");
}

static void fmt_signed(const event *ev, uint64_t v, strbuf *out)
{
    sb_printf(out, "%lld", (long long)(int64_t)v);
}

static void fmt_what(const event *ev, uint64_t v, strbuf *out)
{
    const char *s = (const char *)(uintptr_t)v;
    sb_puts(out, s ? s : "-");
}

static const event_field ev_dma_fields[] = {
    {"initiator", EVF_DEC, NULL, fmt_initiator},
    {"write", EVF_BOOL, NULL, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL},
    {"bus_addr", EVF_HEX, NULL, NULL},
    {"len", EVF_DEC, NULL, NULL},
    {"kind", EVF_ENUM, kind_names, NULL},
    {"window", EVF_ENUM, window_names, NULL},
    {"ate", EVF_DEC, NULL, fmt_signed},
    {"swap", EVF_BOOL, NULL, NULL},
    {"what", EVF_HEX, NULL, fmt_what},
    {"ring", EVF_DEC, NULL, fmt_signed},
    {"index", EVF_DEC, NULL, fmt_signed},
};
static const event_field ev_dma_error_fields[] = {
    {"initiator", EVF_DEC, NULL, fmt_initiator},
    {"write", EVF_BOOL, NULL, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL},
    {"len", EVF_DEC, NULL, NULL},
    {"reason", EVF_ENUM, dma_reasons, NULL},
    {"xio", EVF_HEX, NULL, NULL},
    {"int_bit", EVF_HEX, NULL, NULL},
};
static const event_field ev_pio_fields[] = {
    {"write", EVF_BOOL, NULL, NULL},   {"space", EVF_ENUM, space_names, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL}, {"size", EVF_DEC, NULL, NULL},
    {"value", EVF_HEX, NULL, NULL},    {"slot", EVF_DEC, NULL, NULL},
    {"bar", EVF_DEC, NULL, NULL},
};
static const event_field ev_pio_error_fields[] = {
    {"write", EVF_BOOL, NULL, NULL},         {"space", EVF_ENUM, space_names, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL},       {"size", EVF_DEC, NULL, NULL},
    {"reason", EVF_ENUM, pio_reasons, NULL}, {"int_bit", EVF_HEX, NULL, NULL},
};
static const event_field ev_int_fields[] = {
    {"pin", EVF_DEC, NULL, NULL},        {"vector", EVF_DEC, NULL, NULL},
    {"xio", EVF_HEX, NULL, NULL},        {"bus_addr", EVF_HEX, NULL, NULL},
    {"delivered", EVF_BOOL, NULL, NULL},
};
static const event_field ev_pin_fields[] = {
    {"pin", EVF_DEC, NULL, NULL},
    {"level", EVF_BOOL, NULL, NULL},
};

static const event_decl bridge_events[BEV_COUNT] = {
    {"dma", "a PCI DMA went through a window (one event per translated chunk)", ev_dma_fields,
     ARRAY_SIZE(ev_dma_fields)},
    {"dma.error", "a PCI DMA was aborted (undecoded address, bad ATE, no target)",
     ev_dma_error_fields, ARRAY_SIZE(ev_dma_error_fields)},
    {"pio", "a CPU access became a PCI cycle", ev_pio_fields, ARRAY_SIZE(ev_pio_fields)},
    {"pio.error", "a PIO found nothing (master abort), was refused, or hit a hole",
     ev_pio_error_fields, ARRAY_SIZE(ev_pio_error_fields)},
    {"int.set", "interrupt set packet sent to the HUB (pin 8 = error interrupt)", ev_int_fields,
     ARRAY_SIZE(ev_int_fields)},
    {"int.clear", "interrupt clear packet sent to the HUB", ev_int_fields,
     ARRAY_SIZE(ev_int_fields)},
    {"int.pin", "an interrupt pin changed level", ev_pin_fields, ARRAY_SIZE(ev_pin_fields)},
};

/* ---- interrupts --------------------------------------------------------- */

bool bridge_xio_to_bus(const bridge *br, unsigned widget, uint64_t xio, bool io_ok,
                       uint64_t *bus_addr)
{
    if (widget != br->hub_widget)
        return false;
    if (xio & (1ull << 47)) {
        /* HUB IO space [INF]: nasid in XIO bits 45:38 (Linux puts nasid<<8
         * into INT_ADDR's HOST field, bits 47:38), offset in bits 31:0. */
        if (!io_ok)
            return false;
        uint64_t nasid = (xio >> 38) & 0xff;
        *bus_addr = BUS_UNC(1, nasid << 32 | (xio & 0xffffffffu));
        return true;
    }
    if (xio >> 40)
        return false;
    *bus_addr = BUS_CAC(xio); /* node memory: nasid in bits 39:32 */
    return true;
}

/* Send an interrupt packet: an 8-byte XIO write whose data the HUB treats as
 * a PI_INT_PEND_MOD value: 0x100|level sets, level clears [INF]. */
static void send_packet(bridge *br, int pin, bool set)
{
    uint32_t upper = br_reg(br, BR_WID_INT_UPPER, 0);
    unsigned widget = (upper >> 16) & 0xf;
    uint64_t xio = (uint64_t)(upper & 0xffff) << 32 | br_reg(br, BR_WID_INT_LOWER, 0);
    unsigned fld;
    if (pin < 8) {
        uint32_t ia = br_reg(br, BR_INT_ADDR, (unsigned)pin);
        fld = ia & 0xff;
        /* The pin's HOST field replaces XIO bits 47:38 [SRC OB]. */
        xio = (uint64_t)((ia >> 8) & 0x3ff) << 38 | (xio & ((1ull << 38) - 1));
    } else {
        fld = br_reg(br, BR_INT_HOST_ERR, 0) & 0xff;
    }
    uint64_t ba = 0;
    bool ok = bridge_xio_to_bus(br, widget, xio, true, &ba);
    if (ok)
        ok = bus_write(br->bus, br->initiator, ba, 8, set ? 0x100u | fld : fld) == BUS_OK;
    if (!ok)
        xlog(LOG_WARN, br->dev->name,
             "interrupt %s packet for pin %d to widget %u XIO 0x%llx reached nothing",
             set ? "set" : "clear", pin, widget, (unsigned long long)xio);
    EVENT_EMIT(dev_event(br->dev, set ? BEV_INT_SET : BEV_INT_CLEAR), br->initiator, (uint64_t)pin,
               fld, xio, ba, ok);
}

static uint8_t compute_pins(const bridge *br)
{
    uint8_t pins = 0;
    for (int s = 0; s < BRIDGE_SLOTS; s++)
        for (int i = 0; i < 4; i++)
            if (br->intx_level[s] & (1u << i))
                pins |= (uint8_t)(1u << br->intx_pin[s][i]);
    return pins;
}

/* Re-evaluate pins and errors: set packets on (level & enable) going up,
 * clear packets (INT_MODE) when an announced pin drops, the error interrupt
 * when (errors & enable) becomes non-zero. */
void bridge_update_irqs(bridge *br)
{
    uint8_t pins = compute_pins(br);
    uint8_t changed = pins ^ br->pins;
    br->pins = pins;
    for (int p = 0; p < 8; p++)
        if (changed & (1u << p))
            EVENT_EMIT(dev_event(br->dev, BEV_INT_PIN), -1, (uint64_t)p, (pins >> p) & 1);
    uint32_t en = br_reg(br, BR_INT_ENABLE, 0), mode = br_reg(br, BR_INT_MODE, 0);
    for (int p = 0; p < 8; p++) {
        uint8_t bit = (uint8_t)(1u << p);
        if ((pins & bit) && (en & bit) && !(br->sent & bit)) {
            br->sent |= bit;
            send_packet(br, p, true);
        } else if ((br->sent & bit) && !(pins & bit)) {
            br->sent &= (uint8_t)~bit;
            if (mode & bit)
                send_packet(br, p, false);
        } else if ((br->sent & bit) && !(en & bit)) {
            br->sent &= (uint8_t)~bit; /* disabled while high: forget it, no packet */
        }
    }
    bool err = (br->int_err & en & ~BRIDGE_ISR_INT_MSK) != 0;
    if (err && !br->err_sent)
        send_packet(br, 8, true);
    br->err_sent = err;
}

void bridge_host_set_irq(void *host, pci_func *f, int pin, bool level)
{
    bridge *br = host;
    if (f->slot < 0 || f->slot >= BRIDGE_SLOTS || pin < 0 || pin > 3)
        return;
    uint8_t bit = (uint8_t)(1u << pin);
    br->intx_level[f->slot] =
        level ? br->intx_level[f->slot] | bit : br->intx_level[f->slot] & (uint8_t)~bit;
    bridge_update_irqs(br);
}

/* ---- errors ------------------------------------------------------------- */

void bridge_error(bridge *br, uint32_t bit, unsigned latch, uint64_t addr, int slot, bool devmaster,
                  bool write)
{
    if (br->int_err & ~BRIDGE_ISR_MULTI_ERR)
        br->int_err |= BRIDGE_ISR_MULTI_ERR;
    br->int_err |= bit;
    if ((latch & LATCH_PCI) && !(br->latched & LATCH_PCI)) {
        br_set(br, BR_PCI_ERR_UPPER, 0,
               (devmaster ? 1u << 20 : 0) | (uint32_t)(slot & 7) << 16 |
                   (uint32_t)((addr >> 32) & 0xffff));
        br_set(br, BR_PCI_ERR_LOWER, 0, (uint32_t)addr);
        br->latched |= LATCH_PCI;
    }
    if ((latch & LATCH_WID) && !(br->latched & LATCH_WID)) {
        br_set(br, BR_WID_ERR_UPPER, 0, (uint32_t)((addr >> 32) & 0xffff));
        br_set(br, BR_WID_ERR_LOWER, 0, (uint32_t)addr);
        /* DIDN = us, SIDN = the HUB, packet type, error bit. */
        br_set(br, BR_WID_ERR_CMDWORD, 0,
               (br->widget_id & 0xf) << 28 | (br->hub_widget & 0xf) << 24 |
                   (write ? 2u : 0u) << 20 | 1u << 9);
        br->latched |= LATCH_WID;
    }
    if ((latch & LATCH_RESP) && !(br->latched & LATCH_RESP)) {
        br_set(br, BR_WID_RESP_UPPER, 0,
               (uint32_t)(slot & 3) << 20 | (uint32_t)((addr >> 32) & 0xffff));
        br_set(br, BR_WID_RESP_LOWER, 0, (uint32_t)addr);
        br->latched |= LATCH_RESP;
    }
    bridge_update_irqs(br);
}

/* ---- construction ------------------------------------------------------- */

static void bridge_reset(device *d)
{
    bridge *br = br_of(d);
    memset(br->ate, 0, sizeof br->ate);
    br->int_err = 0;
    br->sent = 0;
    br->err_sent = false;
    br->latched = 0;
    br_set(br, BR_WID_CONTROL, 0, br->widget_id & 0xf);
    br->eeprom.state = DS_IDLE; /* the EEPROM waits for a reset pulse */
    ow_mcr_reset(&br->nic_mcr);
    /* A Bridge reset is PCI RST# for every slot. */
    for (int s = 0; s < BRIDGE_SLOTS; s++)
        if (br->slot[s])
            pci_func_reset(br->slot[s]);
    br->pins = compute_pins(br);
}

static int bridge_other_read(device *d, const bus_op *op, uint64_t off, unsigned size,
                             uint64_t *val)
{
    return bridge_space_read(d, op, off, size, val);
}

static int bridge_other_write(device *d, const bus_op *op, uint64_t off, unsigned size,
                              uint64_t val)
{
    return bridge_space_write(d, op, off, size, val);
}

static const state_decl bridge_state[] = {
    STATE_WIRING(bridge, dev, "the register block: bridge_new"),
    STATE_WIRING(bridge, bus, "the machine's bus"),
    STATE_WIRING(bridge, clock, "the machine's clock"),
    STATE_WIRING(bridge, eb, "the machine's event bus"),
    STATE_WIRING(bridge, slot,
                 "the PCI functions plugged in (bridge_plug): each saves "
                 "its own state"),
    STATE_INTS(bridge, intx_level, "per slot: bit i = the function drives INTx i"),
    STATE_INTS(bridge, ate, "internal ATE RAM"),
    STATE_INT(bridge, int_err, "latched error bits 31:8 of INT_STATUS"),
    STATE_INT(bridge, pins, "live levels of the 8 interrupt pins"),
    STATE_INT(bridge, sent, "pins the HUB was told are asserted"),
    STATE_BOOL(bridge, err_sent, "error interrupt delivered, not yet cleared"),
    STATE_INT(bridge, latched, "error-address registers holding a first error (LATCH_*)"),
    STATE_PART(bridge, nic, ow_bus_state, "the NIC register's 1-wire bus"),
    STATE_PART(bridge, nic_mcr, ow_mcr_state, "the NIC register: 1-wire master"),
    STATE_PART(bridge, eeprom, ds2505_state, "the board's DS2505 number-in-a-can"),
    STATE_U64S(bridge, counters, "DMA counters per initiator and window (info dma)"),
    STATE_WIRING(bridge, scratch, "DMA swap buffer: holds nothing between DMAs"),
    STATE_WIRING(bridge, scratch_len, "its size (grows as needed)"),
};

static const device_class bridge_class = {
    .name = "bridge",
    .desc = "SGI Bridge ASIC (XIO to PCI)",
    DEV_REGS(bridge_regs),
    .reg_space = 0x1000000,
    .little_endian = false,
    DEV_EVENTS(bridge_events),
    DEV_VIEWS(bridge_views),
    DEV_COUNTERS(bridge_counters),
    DEV_STATE(bridge_state, bridge),
    .reset = bridge_reset,
    .other_read = bridge_other_read,
    .other_write = bridge_other_write,
};

#define BRIDGE_WINDOW_SIZE 0x1000000ull /* 16 MB small window */
#define DEFAULT_PARTNUM "030-1124-002"  /* [UNC] which number a real Origin 200 has */
#define DEFAULT_SERIAL "XB00000001"
#define DEFAULT_BOARD "BASEIO"

bridge *bridge_new(const char *name, bus *b, sched *clock, event_bus *eb, const uint64_t *windows,
                   unsigned nwindows)
{
    bridge *br = xcalloc(1, sizeof *br);
    br->bus = b;
    br->clock = clock;
    br->eb = eb;
    br->hub_widget = 0xa;
    br->widget_id = 8;
    br->dev = device_new(&bridge_class, name, br, eb, clock);
    br->initiator = initiator_register(b, name, INIT_DEVICE, -1);
    br->dev->initiator = br->initiator;
    for (int s = 0; s < BRIDGE_SLOTS; s++)
        for (int i = 0; i < 4; i++)
            br->intx_pin[s][i] = (int8_t)((i & 1) ? s ^ 4 : s);
    ow_bus_init(&br->nic);
    ds2505_init(&br->eeprom, 0x584200000001ull);
    ow_bus_attach(&br->nic, &br->eeprom.slave);
    ow_mcr_init(&br->nic_mcr, &br->nic, clock);
    sgi_nic_format(br->eeprom.mem, DEFAULT_SERIAL, DEFAULT_PARTNUM, DEFAULT_BOARD);
    for (unsigned i = 0; i < nwindows; i++) {
        if (bus_map_mmio(b, name, windows[i], BRIDGE_WINDOW_SIZE, &dev_mmio_be, br->dev) != 0) {
            xlog(LOG_ERROR, name, "cannot map the widget window at %llx",
                 (unsigned long long)windows[i]);
            device_free(br->dev);
            free(br);
            return NULL;
        }
    }
    device_reset(br->dev);
    return br;
}

void bridge_free(bridge *br)
{
    if (!br)
        return;
    free(br->scratch);
    free(br);
}

device *bridge_device(bridge *br) { return br->dev; }

int bridge_plug(bridge *br, int slot, pci_func *f)
{
    if (slot < 0 || slot >= BRIDGE_SLOTS || br->slot[slot] || !f)
        return -1;
    int id = initiator_register(br->bus, f->name, INIT_DEVICE, -1);
    if (id < 0)
        return -1;
    f->host_ops = &bridge_host_ops;
    f->host = br;
    f->slot = slot;
    f->initiator = id;
    if (f->dev)
        f->dev->initiator = id;
    br->slot[slot] = f;
    br->intx_level[slot] = 0;
    return 0;
}

pci_func *bridge_slot(bridge *br, int slot)
{
    return slot >= 0 && slot < BRIDGE_SLOTS ? br->slot[slot] : NULL;
}

void bridge_set_partnum(bridge *br, const char *partnum)
{
    if (sgi_nic_format(br->eeprom.mem, DEFAULT_SERIAL, partnum, DEFAULT_BOARD) != 0)
        xlog(LOG_ERROR, br->dev->name, "part number '%s' is longer than 25 characters", partnum);
}

void bridge_set_intx_pin(bridge *br, int slot, int intx, int pin)
{
    if (slot < 0 || slot >= BRIDGE_SLOTS || intx < 0 || intx > 3 || pin < 0 || pin > 7)
        return;
    br->intx_pin[slot][intx] = (int8_t)pin;
    bridge_update_irqs(br);
}

void bridge_set_hub_widget(bridge *br, unsigned widget) { br->hub_widget = widget & 0xf; }

void bridge_set_cfg_abort_error(bridge *br, bool bus_error) { br->cfg_abort_error = bus_error; }
