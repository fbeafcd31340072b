/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PCI DMA test device.  See testdev.h. */
#include "dev/pci/testdev.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

/* clang-format off */
enum {
    TR_ID, TR_VERSION, TR_SRC_LO, TR_SRC_HI, TR_DST_LO, TR_DST_HI, TR_LEN, TR_CMD, TR_STATUS,
    TR_INT_ACK, TR_XFERS, TR_DONE_BYTES, TR_ERR_ADDR_LO, TR_ERR_ADDR_HI, TR_NREGS
};
/* clang-format on */
enum { TEV_START, TEV_DONE, TEV_IRQ, TEV_COUNT };

struct testdev {
    pci_func f;
    device *dev;
    sched *clock;
    timer timer;
    uint8_t buf[TESTDEV_BUF_SIZE];
    bool busy, done, error, irq;
    enum testdev_error code;
    uint32_t cmd; /* command of the transfer in flight */
};

static testdev *td_of(device *d) { return d->priv; }

static uint64_t read_status(device *d, const reg_access *a)
{
    testdev *td = td_of(d);
    return (td->busy ? TD_ST_BUSY : 0) | (td->done ? TD_ST_DONE : 0) |
           (td->error ? TD_ST_ERROR : 0) | (td->irq ? TD_ST_IRQ : 0) |
           (uint32_t)td->code << TD_ST_CODE_SHIFT;
}

static void set_irq(testdev *td, bool level)
{
    if (td->irq == level)
        return;
    td->irq = level;
    EVENT_EMIT(dev_event(td->dev, TEV_IRQ), td->f.initiator, level);
    pci_set_irq(&td->f, 0, level);
}

static uint64_t reg64(testdev *td, unsigned lo)
{
    return DEV_R(td->dev, lo) | DEV_R(td->dev, lo + 1) << 32;
}

/* Move `len` bytes between `buf` and PCI address `addr`: one bulk DMA, or
 * word DMAs of at most 4 bytes that do not cross a 32-bit boundary. */
static int move(testdev *td, uint64_t addr, uint8_t *buf, uint32_t len, bool write, uint32_t *moved)
{
    *moved = 0;
    if (!(td->cmd & TD_CMD_WORD)) {
        int rc = write ? pci_dma_write(&td->f, addr, buf, len, PCI_DMA_BULK)
                       : pci_dma_read(&td->f, addr, buf, len, PCI_DMA_BULK);
        if (rc == PCI_DMA_OK)
            *moved = len;
        return rc;
    }
    while (*moved < len) {
        uint64_t a = addr + *moved;
        uint32_t n = 4 - (uint32_t)(a & 3);
        if (n > len - *moved)
            n = len - *moved;
        int rc = write ? pci_dma_write(&td->f, a, buf + *moved, n, PCI_DMA_WORD)
                       : pci_dma_read(&td->f, a, buf + *moved, n, PCI_DMA_WORD);
        if (rc != PCI_DMA_OK)
            return rc;
        *moved += n;
    }
    return PCI_DMA_OK;
}

static void fail(testdev *td, enum testdev_error code, uint64_t addr)
{
    td->error = true;
    td->code = code;
    DEV_R(td->dev, TR_ERR_ADDR_LO) = (uint32_t)addr;
    DEV_R(td->dev, TR_ERR_ADDR_HI) = (uint32_t)(addr >> 32);
}

/* One side of a transfer: the source read (PCI to the buffer) or the
 * destination written; a failure is latched with the address it stopped
 * at.  Whether it went through. */
static bool leg(testdev *td, bool write, uint64_t addr, uint8_t *buf, uint32_t len, uint32_t *moved)
{
    pci_dma_context(&td->f, write ? "testdev-dst" : "testdev-src", -1, -1);
    if (move(td, addr, buf, len, write, moved) == PCI_DMA_OK)
        return true;
    fail(td, write ? TD_ERR_WRITE : TD_ERR_READ, addr + *moved);
    return false;
}

static void transfer(testdev *td)
{
    unsigned dir = (td->cmd >> TD_CMD_DIR_SHIFT) & 3;
    uint64_t src = reg64(td, TR_SRC_LO), dst = reg64(td, TR_DST_LO);
    uint32_t len = (uint32_t)DEV_R(td->dev, TR_LEN), moved = 0;
    DEV_R(td->dev, TR_DONE_BYTES) = 0;
    if (!pci_bus_master(&td->f)) {
        fail(td, TD_ERR_NOMASTER, dir == TD_DIR_BUF_TO_PCI ? dst : src);
        return;
    }
    switch (dir) {
    case TD_DIR_PCI_TO_BUF: leg(td, false, src, td->buf + dst, len, &moved); break;
    case TD_DIR_BUF_TO_PCI: leg(td, true, dst, td->buf + src, len, &moved); break;
    default: {                      /* PCI to PCI through a staging buffer */
        uint8_t *tmp = malloc(len); /* the guest's length: too long for the host, a length error */
        if (!tmp) {
            fail(td, TD_ERR_LEN, src);
            return;
        }
        if (leg(td, false, src, tmp, len, &moved))
            leg(td, true, dst, tmp, len, &moved);
        else
            moved = 0;
        free(tmp);
        break;
    }
    }
    pci_dma_context(&td->f, NULL, -1, -1);
    DEV_R(td->dev, TR_DONE_BYTES) = moved;
}

static void complete(void *opaque)
{
    testdev *td = opaque;
    transfer(td);
    td->busy = false;
    td->done = true;
    DEV_R(td->dev, TR_XFERS) = (uint32_t)(DEV_R(td->dev, TR_XFERS) + 1);
    EVENT_EMIT(dev_event(td->dev, TEV_DONE), td->f.initiator, dev_peek(td->dev, TR_STATUS, 0),
               DEV_R(td->dev, TR_DONE_BYTES));
    if (td->cmd & TD_CMD_IRQ)
        set_irq(td, true);
}

/* Check the command against the length and the buffer; false = refused. */
static bool check(testdev *td, unsigned dir, uint64_t src, uint64_t dst, uint32_t len)
{
    if (dir == 3) {
        fail(td, TD_ERR_DIR, 0);
        return false;
    }
    uint64_t boff = dir == TD_DIR_PCI_TO_BUF ? dst : src;
    bool bad = len == 0 || len > TESTDEV_MAX_LEN;
    if (dir != TD_DIR_PCI_TO_PCI && (boff > TESTDEV_BUF_SIZE || len > TESTDEV_BUF_SIZE - boff))
        bad = true;
    if (bad)
        fail(td, TD_ERR_LEN, 0);
    return !bad;
}

static void write_cmd(device *d, const reg_access *a)
{
    testdev *td = td_of(d);
    if (!(a->val & TD_CMD_GO))
        return;
    if (td->busy) {
        xlog(LOG_DEBUG, d->name, "GO while busy: ignored");
        return;
    }
    td->cmd = (uint32_t)a->val;
    td->done = td->error = false;
    td->code = TD_ERR_NONE;
    unsigned dir = (td->cmd >> TD_CMD_DIR_SHIFT) & 3;
    uint64_t src = reg64(td, TR_SRC_LO), dst = reg64(td, TR_DST_LO);
    uint32_t len = (uint32_t)DEV_R(d, TR_LEN);
    EVENT_EMIT(dev_event(d, TEV_START), td->f.initiator, dir, src, dst, len,
               (td->cmd & TD_CMD_WORD) != 0);
    if (!check(td, dir, src, dst, len)) {
        td->done = true;
        if (td->cmd & TD_CMD_IRQ)
            set_irq(td, true);
        return;
    }
    td->busy = true;
    uint64_t ns = TESTDEV_SETUP_NS + (uint64_t)len * TESTDEV_NS_PER_BYTE;
    timer_mod(td->clock, &td->timer, td->clock->now + sched_ns_to_ticks(td->clock, ns));
}

static void write_int_ack(device *d, const reg_access *a)
{
    if (a->val & 1)
        set_irq(td_of(d), false);
}

static const char *const dir_names[] = {"pci-to-pci", "pci-to-buf", "buf-to-pci", "invalid", NULL};
static const reg_field f_cmd[] = {
    {"IRQ", 4, 1, NULL}, {"WORD", 3, 1, NULL}, {"DIR", 1, 2, dir_names}, {"GO", 0, 1, NULL}};
static const char *const code_names[] = {"none",      "read-abort", "write-abort", "length",
                                         "direction", "no-master",  NULL};
static const reg_field f_status[] = {{"CODE", 8, 4, code_names},
                                     {"IRQ", 3, 1, NULL},
                                     {"ERROR", 2, 1, NULL},
                                     {"DONE", 1, 1, NULL},
                                     {"BUSY", 0, 1, NULL}};

/* clang-format off */
static const reg_decl testdev_regs[] = {
    [TR_ID] = {.name = "ID", .offset = TD_ID, .width = 4, .rules = R_RO,
               .reset = (uint32_t)TESTDEV_DEVICE << 16 | TESTDEV_VENDOR,
               .desc = "device<<16 | vendor"},
    [TR_VERSION] = {.name = "VERSION", .offset = TD_VERSION, .width = 4, .rules = R_RO, .reset = 1,
                    .desc = "register layout version"},
    [TR_SRC_LO] = {.name = "SRC_LO", .offset = TD_SRC_LO, .width = 4,
                   .desc = "source address 31:0"},
    [TR_SRC_HI] = {.name = "SRC_HI", .offset = TD_SRC_HI, .width = 4,
                   .desc = "source address 63:32"},
    [TR_DST_LO] = {.name = "DST_LO", .offset = TD_DST_LO, .width = 4,
                   .desc = "destination address 31:0"},
    [TR_DST_HI] = {.name = "DST_HI", .offset = TD_DST_HI, .width = 4,
                   .desc = "destination address 63:32"},
    [TR_LEN] = {.name = "LEN", .offset = TD_LEN, .width = 4, .desc = "bytes to move"},
    [TR_CMD] = {.name = "CMD", .offset = TD_CMD, .width = 4, .wmask = 0x1e, REG_FIELDS(f_cmd),
                .write = write_cmd, .desc = "command (GO starts)"},
    [TR_STATUS] = {.name = "STATUS", .offset = TD_STATUS, .width = 4, .rules = R_RO | R_NOSTORE,
                   REG_FIELDS(f_status), .read = read_status, .desc = "transfer status"},
    [TR_INT_ACK] = {.name = "INT_ACK", .offset = TD_INT_ACK, .width = 4, .rules = R_WO, .wmask = 1,
                    .write = write_int_ack, .desc = "write 1: lower INTA"},
    [TR_XFERS] = {.name = "XFERS", .offset = TD_XFERS, .width = 4, .rules = R_RO,
                  .desc = "completed transfers"},
    [TR_DONE_BYTES] = {.name = "DONE_BYTES", .offset = TD_DONE_BYTES, .width = 4, .rules = R_RO,
                       .desc = "bytes moved by the last transfer"},
    [TR_ERR_ADDR_LO] = {.name = "ERR_ADDR_LO", .offset = TD_ERR_ADDR_LO, .width = 4, .rules = R_RO,
                        .desc = "failing PCI address 31:0"},
    [TR_ERR_ADDR_HI] = {.name = "ERR_ADDR_HI", .offset = TD_ERR_ADDR_HI, .width = 4, .rules = R_RO,
                        .desc = "failing PCI address 63:32"},
};
/* clang-format on */
DEV_REGS_CHECK(testdev_regs, TR_NREGS);

static const event_field ev_start_fields[] = {{"dir", EVF_ENUM, dir_names, NULL},
                                              {"src", EVF_HEX, NULL, NULL},
                                              {"dst", EVF_HEX, NULL, NULL},
                                              {"len", EVF_DEC, NULL, NULL},
                                              {"word", EVF_BOOL, NULL, NULL}};
static const event_field ev_done_fields[] = {{"status", EVF_HEX, NULL, NULL},
                                             {"bytes", EVF_DEC, NULL, NULL}};
static const event_field ev_irq_fields[] = {{"level", EVF_BOOL, NULL, NULL}};
static const event_decl testdev_events[TEV_COUNT] = {
    {"start", "GO written", ev_start_fields, ARRAY_SIZE(ev_start_fields)},
    {"done", "transfer finished (or refused)", ev_done_fields, ARRAY_SIZE(ev_done_fields)},
    {"irq", "INTA raised or lowered", ev_irq_fields, ARRAY_SIZE(ev_irq_fields)},
};

/* Model state back to power-on (registers included). */
static void hw_reset(testdev *td)
{
    timer_del(td->clock, &td->timer);
    for (unsigned i = 0; i < TR_NREGS; i++)
        DEV_R(td->dev, i) = testdev_regs[i].reset;
    memset(td->buf, 0, sizeof td->buf);
    td->busy = td->done = td->error = td->irq = false;
    td->code = TD_ERR_NONE;
    td->cmd = 0;
}

static void dev_reset(device *d) { pci_func_reset(&td_of(d)->f); }

static const state_decl testdev_state[] = {
    STATE_PART(testdev, f, pci_func_state, "its PCI configuration header and INTA"),
    STATE_WIRING(testdev, dev, "the register block: testdev_new"),
    STATE_WIRING(testdev, clock, "the machine's clock"),
    STATE_TIMER(testdev, timer, "the transfer in flight completes"),
    STATE_BYTES(testdev, buf, "the device's buffer"),
    STATE_BOOL(testdev, busy, "a transfer is in flight"),
    STATE_BOOL(testdev, done, "STATUS.DONE"),
    STATE_BOOL(testdev, error, "STATUS.ERROR"),
    STATE_LINE(testdev, irq, "INTA as driven"),
    STATE_INT(testdev, code, "error code (enum testdev_error)"),
    STATE_INT(testdev, cmd, "command of the transfer in flight"),
};

static const device_class testdev_class = {
    .name = "testdev",
    .desc = "xbow PCI DMA test device",
    DEV_REGS(testdev_regs),
    .reg_space = TESTDEV_BUF_OFF,
    .little_endian = true,
    DEV_EVENTS(testdev_events),
    DEV_STATE(testdev_state, testdev),
    .reset = dev_reset,
};

static int bar_read(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val)
{
    testdev *td = f->opaque;
    if (bar != 0 || off + size > TESTDEV_BAR_SIZE)
        return BUS_ERROR;
    if (off >= TESTDEV_BUF_OFF) {
        *val = load_le(td->buf + off - TESTDEV_BUF_OFF, size);
        return BUS_OK;
    }
    return pci_func_reg_access(f, who, off, size, val, false);
}

static int bar_write(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val)
{
    testdev *td = f->opaque;
    if (bar != 0 || off + size > TESTDEV_BAR_SIZE)
        return BUS_ERROR;
    if (off >= TESTDEV_BUF_OFF) {
        store_le(td->buf + off - TESTDEV_BUF_OFF, size, val);
        return BUS_OK;
    }
    return pci_func_reg_access(f, who, off, size, &val, true);
}

static void pci_reset(pci_func *f) { hw_reset(f->opaque); }

static const pci_func_ops testdev_ops = {
    .bar_read = bar_read, .bar_write = bar_write, .reset = pci_reset};

testdev *testdev_new(const char *name, event_bus *eb, sched *clock)
{
    testdev *td = xcalloc(1, sizeof *td);
    td->clock = clock;
    pci_func_init(&td->f, name, &testdev_ops, td);
    td->f.vendor_id = TESTDEV_VENDOR;
    td->f.device_id = TESTDEV_DEVICE;
    td->f.subsys_vendor = TESTDEV_VENDOR;
    td->f.subsys_id = TESTDEV_DEVICE;
    td->f.class_code = 0xff0000;
    td->f.revision = 1;
    td->f.int_pin = 1;
    td->f.bars[0] = (pci_bar){TESTDEV_BAR_SIZE, PCI_BAR_MEM};
    td->dev = device_new(&testdev_class, name, td, eb, clock);
    td->f.dev = td->dev;
    timer_init(&td->timer, name, complete, td);
    device_reset(td->dev);
    return td;
}

void testdev_free(testdev *td)
{
    if (!td)
        return;
    timer_del(td->clock, &td->timer);
    free(td);
}

pci_func *testdev_func(testdev *td) { return &td->f; }
device *testdev_device(testdev *td) { return td->dev; }
