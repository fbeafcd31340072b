/* The SGI Bridge ASIC: register declaration, construction, interrupts and
 * error reporting.  PIO is in bridge_pio.c, DMA in bridge_dma.c, the decoded
 * views in bridge_view.c.  See ../shared/hw/ip27.md section 3 and the Bridge
 * section of docs/hardware.md for every [INF]/[UNC] choice. */
#include "dev/bridge_priv.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

/* ---- register fields ---------------------------------------------------- */

static const reg_field f_wid_id[] = {
    {"REV", 28, 4, NULL}, {"PART", 12, 16, NULL}, {"MFG", 1, 11, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_wid_stat[] = {
    {"LLP_REC_CNT", 24, 8, NULL}, {"LLP_TX_CNT", 16, 8, NULL}, {"FLASH_SELECT", 6, 1, NULL},
    {"PCI_GIO_N", 5, 1, NULL}, {"PENDING", 0, 5, NULL}, {NULL, 0, 0, NULL}};
static const char *const page_sizes[] = {"4K", "16K", NULL};
static const char *const ssram_sizes[] = {"1K", "64K", "128K", "512K", NULL};
static const reg_field f_wid_control[] = {
    {"FLASH_WR_EN", 31, 1, NULL}, {"EN_CLK50", 30, 1, NULL}, {"EN_CLK40", 29, 1, NULL},
    {"EN_CLK33", 28, 1, NULL}, {"RST", 24, 4, NULL}, {"IO_SWAP", 23, 1, NULL},
    {"MEM_SWAP", 22, 1, NULL}, {"PAGE_SIZE", 21, 1, page_sizes}, {"SS_PAR_BAD", 20, 1, NULL},
    {"SS_PAR_EN", 19, 1, NULL}, {"SSRAM_SIZE", 17, 2, ssram_sizes}, {"F_BAD_PKT", 16, 1, NULL},
    {"LLP_XBAR_CRD", 12, 4, NULL}, {"CLR_RLLP_CNT", 11, 1, NULL}, {"CLR_TLLP_CNT", 10, 1, NULL},
    {"SYS_END", 9, 1, NULL}, {"MAX_TRANS", 4, 5, NULL}, {"WIDGET_ID", 0, 4, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_addr_hi[] = {{"ADDR", 0, 16, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_int_upper[] = {
    {"VECTOR", 24, 8, NULL}, {"TARGET", 16, 4, NULL}, {"ADDR", 0, 16, NULL}, {NULL, 0, 0, NULL}};
static const char *const pactyp_names[] = {"RdReq", "RdResp", "WrReqWithResp", "WrResp",
                                           "WrReqNoResp", NULL};
static const reg_field f_cmdword[] = {
    {"DIDN", 28, 4, NULL}, {"SIDN", 24, 4, NULL}, {"PACTYP", 20, 4, pactyp_names},
    {"TNUM", 15, 5, NULL}, {"COH", 14, 1, NULL}, {"DS", 12, 2, NULL}, {"GBR", 11, 1, NULL},
    {"VBPM", 10, 1, NULL}, {"ERROR", 9, 1, NULL}, {"BARR", 8, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_resp_upper[] = {
    {"DEVNUM", 20, 2, NULL}, {"BUFNUM", 16, 4, NULL}, {"ADDR", 0, 16, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_dir_map[] = {
    {"W_ID", 20, 4, NULL}, {"RMF_64", 18, 1, NULL}, {"ADD512", 17, 1, NULL},
    {"DIR_OFF", 0, 17, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_nic[] = {
    {"PULSE", 10, 10, NULL}, {"SAMPLE", 2, 8, NULL}, {"DONE", 1, 1, NULL},
    {"RD_DATA", 0, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_bus_timeout[] = {
    {"PCI_RETRY_HLD", 16, 5, NULL}, {"GIO_TIMEOUT", 12, 1, NULL}, {"PCI_RETRY_CNT", 0, 10, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_pci_cfg[] = {
    {"BUS", 16, 8, NULL}, {"DEV", 11, 5, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_pci_err_upper[] = {
    {"DEVMASTER", 20, 1, NULL}, {"PCIVDEV", 19, 1, NULL}, {"DEVNUM", 16, 3, NULL},
    {"ADDR", 0, 16, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_int_status[] = {
    {"MULTI_ERR", 31, 1, NULL}, {"PMU_ESIZE_FAULT", 30, 1, NULL}, {"UNEXP_RESP", 29, 1, NULL},
    {"BAD_XRESP_PKT", 28, 1, NULL}, {"BAD_XREQ_PKT", 27, 1, NULL},
    {"RESP_XTLK_ERR", 26, 1, NULL}, {"REQ_XTLK_ERR", 25, 1, NULL}, {"INVLD_ADDR", 24, 1, NULL},
    {"UNSUPPORTED_XOP", 23, 1, NULL}, {"XREQ_FIFO_OFLOW", 22, 1, NULL},
    {"LLP_REC_SNERR", 21, 1, NULL}, {"LLP_REC_CBERR", 20, 1, NULL}, {"LLP_RCTY", 19, 1, NULL},
    {"LLP_TX_RETRY", 18, 1, NULL}, {"LLP_TCTY", 17, 1, NULL}, {"SSRAM_PERR", 16, 1, NULL},
    {"PCI_ABORT", 15, 1, NULL}, {"PCI_PARITY", 14, 1, NULL}, {"PCI_SERR", 13, 1, NULL},
    {"PCI_PERR", 12, 1, NULL}, {"PCI_MST_TIMEOUT", 11, 1, NULL}, {"PCI_RETRY_CNT", 10, 1, NULL},
    {"XREAD_REQ_TIMEOUT", 9, 1, NULL}, {"GIO_B_ENBL_ERR", 8, 1, NULL}, {"INT", 0, 8, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_int_rst[] = {
    {"MULTI_CLR", 6, 1, NULL}, {"CRP_GRP_CLR", 5, 1, NULL}, {"RESP_BUF_GRP_CLR", 4, 1, NULL},
    {"REQ_DSP_GRP_CLR", 3, 1, NULL}, {"LLP_GRP_CLR", 2, 1, NULL}, {"SSRAM_GRP_CLR", 1, 1, NULL},
    {"PCI_GRP_CLR", 0, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_int_mode[] = {{"CLR_PKT_EN", 0, 8, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_int_device[] = {
    {"PIN0", 0, 3, NULL}, {"PIN1", 3, 3, NULL}, {"PIN2", 6, 3, NULL}, {"PIN3", 9, 3, NULL},
    {"PIN4", 12, 3, NULL}, {"PIN5", 15, 3, NULL}, {"PIN6", 18, 3, NULL}, {"PIN7", 21, 3, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_fld[] = {{"FLD", 0, 8, NULL}, {NULL, 0, 0, NULL}};
static const reg_field f_int_addr[] = {
    {"DEST_IO", 17, 1, NULL}, {"HOST", 8, 10, NULL}, {"FLD", 0, 8, NULL}, {NULL, 0, 0, NULL}};
static const char *const io_mem_names[] = {"io", "mem", NULL};
static const reg_field f_device[] = {
    {"ERR_LOCK_EN", 28, 1, NULL}, {"PAGE_CHK_DIS", 27, 1, NULL}, {"FORCE_PCI_PAR", 26, 1, NULL},
    {"VIRTUAL_EN", 25, 1, NULL}, {"PMU_WRGA_EN", 24, 1, NULL}, {"DIR_WRGA_EN", 23, 1, NULL},
    {"DEV_SIZE", 22, 1, NULL}, {"RT", 21, 1, NULL}, {"SWAP_PMU", 20, 1, NULL},
    {"SWAP_DIR", 19, 1, NULL}, {"PREF", 18, 1, NULL}, {"PRECISE", 17, 1, NULL},
    {"COH", 16, 1, NULL}, {"BARRIER", 15, 1, NULL}, {"GBR", 14, 1, NULL},
    {"DEV_SWAP", 13, 1, NULL}, {"DEV_IO_MEM", 12, 1, io_mem_names}, {"DEV_OFF", 0, 12, NULL},
    {NULL, 0, 0, NULL}};
static const reg_field f_resp_status[] = {
    {"VALID", 16, 16, NULL}, {"INUSE", 0, 16, NULL}, {NULL, 0, 0, NULL}};

/* ---- register hooks ----------------------------------------------------- */

static bridge *br_of(device *d) { return d->priv; }

static uint64_t read_zero(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    return 0;
}

static uint64_t read_int_status(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    bridge *br = br_of(d);
    return br->int_err | br->pins;
}

static void write_int_enable(device *d, const reg_decl *r, unsigned idx, uint64_t val,
                             uint64_t old)
{
    bridge_update_irqs(br_of(d));
}

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

static void write_int_rst(device *d, const reg_decl *r, unsigned idx, uint64_t val, uint64_t old)
{
    bridge *br = br_of(d);
    for (unsigned g = 0; g < 7; g++)
        if (val & (1u << g))
            br->int_err &= ~rst_groups[g];
    if (!(br->int_err & LATCHED_BY_PCI))
        br->latched &= (uint8_t)~LATCH_PCI;
    if (!(br->int_err & LATCHED_BY_WID))
        br->latched &= (uint8_t)~LATCH_WID;
    if (!(br->int_err & LATCHED_BY_RESP))
        br->latched &= (uint8_t)~LATCH_RESP;
    bridge_update_irqs(br);
}

static void write_nic(device *d, const reg_decl *r, unsigned idx, uint64_t val, uint64_t old)
{
    bridge *br = br_of(d);
    br_set(br, BR_NIC, 0, ow_mcr_write(&br->nic, (uint32_t)(val & r->wmask)));
}

#define REG(n, off, fl, rst, wm, flds, dsc) \
    {n, off, 4, 1, 0, fl, rst, wm, flds, dsc, NULL, NULL}
#define REGH(n, off, fl, rst, wm, flds, dsc, rd, wr) \
    {n, off, 4, 1, 0, fl, rst, wm, flds, dsc, rd, wr}
#define REGA(n, off, cnt, fl, rst, wm, flds, dsc, rd) \
    {n, off, 4, cnt, 8, fl, rst, wm, flds, dsc, rd, NULL}

/* Bridge part 0xc002, manufacturer 0x036 [SRC bridge.h]; revision D (4): the
 * revision whose PCI I/O alias works [SRC OB]; bit 0 is the XIO id's
 * always-one bit [INF]. */
#define BRIDGE_WID_ID_RESET (4u << 28 | 0xc002u << 12 | 0x036u << 1 | 1u)

static const reg_decl bridge_regs[BR_NREGS] = {
    REG("WID_ID", 0x04, R_RO, BRIDGE_WID_ID_RESET, 0, f_wid_id, "widget id"),
    REG("WID_STAT", 0x0c, R_RO, 1u << 5, 0, f_wid_stat, "widget status (PCI, not GIO)"),
    REG("WID_ERR_UPPER", 0x14, R_RO, 0, 0, f_addr_hi, "XIO error address 47:32"),
    REG("WID_ERR_LOWER", 0x1c, R_RO, 0, 0, NULL, "XIO error address 31:0"),
    REG("WID_CONTROL", 0x24, 0, 0, 0, f_wid_control, "widget control"),
    REG("WID_REQ_TIMEOUT", 0x2c, 0, 0, 0, NULL, "request timeout"),
    REG("WID_INT_UPPER", 0x34, 0, 0, 0, f_int_upper, "interrupt target widget, address 47:32"),
    REG("WID_INT_LOWER", 0x3c, 0, 0, 0, NULL, "interrupt address 31:0"),
    REG("WID_ERR_CMDWORD", 0x44, R_RO, 0, 0, f_cmdword, "command word of the failed XIO request"),
    REG("WID_LLP", 0x4c, 0, 0, 0, NULL, "LLP configuration"),
    REGH("WID_TFLUSH", 0x54, R_RO | R_NOSTORE, 0, 0, NULL, "read to flush PIO writes",
         read_zero, NULL),
    REG("WID_AUX_ERR", 0x5c, R_RO, 0, 0, f_cmdword, "auxiliary error command word"),
    REG("WID_RESP_UPPER", 0x64, R_RO, 0, 0, f_resp_upper, "response error address 47:32"),
    REG("WID_RESP_LOWER", 0x6c, R_RO, 0, 0, NULL, "response error address 31:0"),
    REG("WID_TST_PIN_CTRL", 0x74, 0, 0, 0, NULL, "test pin control"),
    REG("DIR_MAP", 0x84, 0, 0, 0x00f7ffff, f_dir_map, "direct-map DMA window"),
    REG("RAM_PERR", 0x94, R_RO, 0, 0, NULL, "SSRAM parity error"),
    REG("ARB", 0xa4, 0, 0, 0, NULL, "arbitration priority"),
    REGH("NIC", 0xb4, 0, 0, 0x000ffffc, f_nic, "1-wire (MicroLAN) master", NULL, write_nic),
    REG("BUS_TIMEOUT", 0xc4, 0, 0, 0x001f13ff, f_bus_timeout, "PCI retry/timeout"),
    REG("PCI_CFG", 0xcc, 0, 0, 0x00fff800, f_pci_cfg, "type-1 config bus/device"),
    REG("PCI_ERR_UPPER", 0xd4, R_RO, 0, 0, f_pci_err_upper, "PCI error address 47:32"),
    REG("PCI_ERR_LOWER", 0xdc, R_RO, 0, 0, NULL, "PCI error address 31:0"),
    REGH("INT_STATUS", 0x104, R_RO | R_NOSTORE, 0, 0, f_int_status,
         "live pin levels and latched errors", read_int_status, NULL),
    REGH("INT_ENABLE", 0x10c, 0, 0, 0, f_int_status, "interrupt enables", NULL,
         write_int_enable),
    REGH("INT_RST_STAT", 0x114, R_WO, 0, 0x7f, f_int_rst, "clear error groups", NULL,
         write_int_rst),
    REG("INT_MODE", 0x11c, 0, 0, 0xff, f_int_mode, "send clear packets on pin deassertion"),
    REG("INT_DEVICE", 0x124, 0, 0, 0x00ffffff, f_int_device, "device owning each pin"),
    REG("INT_HOST_ERR", 0x12c, 0, 0, 0xff, f_fld, "vector of the error interrupt"),
    REGA("INT_ADDR", 0x134, 8, 0, 0, 0x3ffff, f_int_addr, "pin interrupt vector and host", NULL),
    REGA("DEVICE", 0x204, 8, 0, 0, 0x1fffffff, f_device, "per-slot PIO window and DMA modes",
         NULL),
    REGA("WR_REQ_BUF", 0x244, 8, R_RO | R_NOSTORE, 0, 0, NULL, "posted writes pending",
         read_zero),
    REG("EVEN_RESP", 0x284, 0, 0, 0, NULL, "read response buffers, even slots"),
    REG("ODD_RESP", 0x28c, 0, 0, 0, NULL, "read response buffers, odd slots"),
    REG("RESP_STATUS", 0x294, R_RO, 0, 0, f_resp_status, "read response buffer status"),
    REG("RESP_CLEAR", 0x29c, R_WO, 0, 0xffff, NULL, "read response buffer clear"),
};

/* ---- events ------------------------------------------------------------- */

static const char *const kind_names[] = {"word", "bulk", NULL};
static const char *const window_names[] = {"dir32", "ate", "pci64", "local", NULL};
static const char *const space_names[] = {"mem", "io", "cfg", "widget", NULL};
static const char *const pio_reasons[] = {"master-abort", "target-abort", "invalid", NULL};
static const char *const dma_reasons[] = {"local", "ate-range", "ate-invalid", "target",
                                          "nowhere", NULL};

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
    {"initiator", EVF_DEC, NULL, fmt_initiator}, {"write", EVF_BOOL, NULL, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL}, {"bus_addr", EVF_HEX, NULL, NULL},
    {"len", EVF_DEC, NULL, NULL}, {"kind", EVF_ENUM, kind_names, NULL},
    {"window", EVF_ENUM, window_names, NULL}, {"ate", EVF_DEC, NULL, fmt_signed},
    {"swap", EVF_BOOL, NULL, NULL}, {"what", EVF_HEX, NULL, fmt_what},
    {"ring", EVF_DEC, NULL, fmt_signed}, {"index", EVF_DEC, NULL, fmt_signed},
};
static const event_field ev_dma_error_fields[] = {
    {"initiator", EVF_DEC, NULL, fmt_initiator}, {"write", EVF_BOOL, NULL, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL}, {"len", EVF_DEC, NULL, NULL},
    {"reason", EVF_ENUM, dma_reasons, NULL}, {"xio", EVF_HEX, NULL, NULL},
    {"int_bit", EVF_HEX, NULL, NULL},
};
static const event_field ev_pio_fields[] = {
    {"write", EVF_BOOL, NULL, NULL}, {"space", EVF_ENUM, space_names, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL}, {"size", EVF_DEC, NULL, NULL},
    {"value", EVF_HEX, NULL, NULL}, {"slot", EVF_DEC, NULL, NULL}, {"bar", EVF_DEC, NULL, NULL},
};
static const event_field ev_pio_error_fields[] = {
    {"write", EVF_BOOL, NULL, NULL}, {"space", EVF_ENUM, space_names, NULL},
    {"pci_addr", EVF_HEX, NULL, NULL}, {"size", EVF_DEC, NULL, NULL},
    {"reason", EVF_ENUM, pio_reasons, NULL}, {"int_bit", EVF_HEX, NULL, NULL},
};
static const event_field ev_int_fields[] = {
    {"pin", EVF_DEC, NULL, NULL}, {"vector", EVF_DEC, NULL, NULL},
    {"xio", EVF_HEX, NULL, NULL}, {"bus_addr", EVF_HEX, NULL, NULL},
    {"delivered", EVF_BOOL, NULL, NULL},
};
static const event_field ev_pin_fields[] = {
    {"pin", EVF_DEC, NULL, NULL}, {"level", EVF_BOOL, NULL, NULL},
};

static const event_decl bridge_events[BEV_COUNT] = {
    {"dma", "a PCI DMA went through a window (one event per translated chunk)", ev_dma_fields,
     ARRAY_SIZE(ev_dma_fields)},
    {"dma.error", "a PCI DMA was aborted (undecoded address, bad ATE, no target)",
     ev_dma_error_fields, ARRAY_SIZE(ev_dma_error_fields)},
    {"pio", "a CPU access became a PCI cycle", ev_pio_fields, ARRAY_SIZE(ev_pio_fields)},
    {"pio.error", "a PIO found nothing (master abort), was refused, or hit a hole",
     ev_pio_error_fields, ARRAY_SIZE(ev_pio_error_fields)},
    {"int.set", "interrupt set packet sent to the HUB (pin 8 = error interrupt)",
     ev_int_fields, ARRAY_SIZE(ev_int_fields)},
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
        xlog(LOG_WARN, br->dev->name, "interrupt %s packet for pin %d to widget %u XIO 0x%llx reached nothing",
             set ? "set" : "clear", pin, widget, (unsigned long long)xio);
    EVENT_EMIT(dev_event(br->dev, set ? BEV_INT_SET : BEV_INT_CLEAR), br->initiator,
               (uint64_t)pin, fld, xio, ba, ok);
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
    br->intx_level[f->slot] = level ? br->intx_level[f->slot] | bit
                                    : br->intx_level[f->slot] & (uint8_t)~bit;
    bridge_update_irqs(br);
}

/* ---- errors ------------------------------------------------------------- */

void bridge_error(bridge *br, uint32_t bit, unsigned latch, uint64_t addr, int slot,
                  bool devmaster, bool write)
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

static const device_class bridge_class = {
    .name = "bridge",
    .desc = "SGI Bridge ASIC (XIO to PCI)",
    .regs = bridge_regs,
    .nregs = BR_NREGS,
    .reg_space = 0x1000000,
    .little_endian = false,
    .events = bridge_events,
    .nevents = BEV_COUNT,
    .views = bridge_views,
    .nviews = BRIDGE_NVIEWS,
    .counters = bridge_counters,
    .ncounters = BRIDGE_NCOUNTERS,
    .reset = bridge_reset,
    .other_read = bridge_other_read,
    .other_write = bridge_other_write,
};

#define BRIDGE_WINDOW_SIZE 0x1000000ull /* 16 MB small window */
#define DEFAULT_PARTNUM "030-1124-002"  /* [UNC] which number a real Origin 200 has */
#define DEFAULT_SERIAL "XB00000001"
#define DEFAULT_BOARD "BASEIO"

bridge *bridge_new(const char *name, bus *b, sched *clock, event_bus *eb,
                   const uint64_t *windows, unsigned nwindows)
{
    bridge *br = calloc(1, sizeof *br);
    if (!br)
        return NULL;
    br->bus = b;
    br->clock = clock;
    br->eb = eb;
    br->hub_widget = 0xa;
    br->widget_id = 8;
    br->dev = device_new(&bridge_class, name, br, eb, clock);
    if (!br->dev) {
        free(br);
        return NULL;
    }
    br->initiator = initiator_register(b, name, INIT_DEVICE, -1);
    br->dev->initiator = br->initiator;
    for (int s = 0; s < BRIDGE_SLOTS; s++)
        for (int i = 0; i < 4; i++)
            br->intx_pin[s][i] = (int8_t)((i & 1) ? s ^ 4 : s);
    ow_bus_init(&br->nic);
    ds2505_init(&br->eeprom, 0x584200000001ull);
    ow_bus_attach(&br->nic, &br->eeprom.slave);
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
