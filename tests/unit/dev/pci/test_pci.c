/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the PCI function core (src/dev/pci/pci.c). */
#include <check.h>
#include <stdlib.h>

#include "core/dev.h"
#include "dev/pci/pci.h"
#include "../../check_run.h"

/* A host that records what the function asks of it. */
typedef struct fake_host {
    int irq_calls;
    int last_pin;
    bool last_level;
    uint64_t dma_addr, dma_len;
    bool dma_write;
    int dma_kind;
    uint8_t mem[64];
    int rc;
} fake_host;

static int host_dma(void *host, pci_func *f, uint64_t addr, void *buf, uint64_t len, bool write,
                    int kind)
{
    fake_host *h = host;
    h->dma_addr = addr;
    h->dma_len = len;
    h->dma_write = write;
    h->dma_kind = kind;
    if (h->rc != PCI_DMA_OK)
        return h->rc;
    if (write)
        memcpy(h->mem + (addr & 31), buf, len);
    else
        memcpy(buf, h->mem + (addr & 31), len);
    return PCI_DMA_OK;
}

static void host_irq(void *host, pci_func *f, int pin, bool level)
{
    fake_host *h = host;
    h->irq_calls++;
    h->last_pin = pin;
    h->last_level = level;
}

static const pci_host_ops fake_host_ops = {host_dma, host_irq, NULL};

static void setup(pci_func *f, fake_host *h)
{
    memset(h, 0, sizeof *h);
    pci_func_init(f, "f", NULL, NULL);
    f->vendor_id = 0x10a9;
    f->device_id = 0x0009;
    f->subsys_vendor = 0x10a9;
    f->subsys_id = 0x1234;
    f->class_code = 0x020000;
    f->revision = 0x21;
    f->int_pin = 1;
    f->host_ops = &fake_host_ops;
    f->host = h;
    f->bars[0] = (pci_bar){0x1000, PCI_BAR_MEM};
    f->bars[1] = (pci_bar){0x100, PCI_BAR_IO};
    f->bars[2] = (pci_bar){1ull << 33, PCI_BAR_MEM | PCI_BAR_64 | PCI_BAR_PREFETCH};
    pci_func_reset(f);
}

/* Configuration-space accesses in order: a write, or a read that must
 * return val. */
enum { CFG_WRITE, CFG_READ };
typedef struct cfg_step {
    int op;
    unsigned off, size;
    uint32_t val;
} cfg_step;

static void cfg_steps(pci_func *f, const cfg_step *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i].op == CFG_WRITE) {
            pci_config_write(f, s[i].off, s[i].size, s[i].val);
            continue;
        }
        uint32_t v = pci_config_read(f, s[i].off, s[i].size);
        ck_assert_msg(v == s[i].val, "step %zu: config 0x%x (%u bytes) reads 0x%x, want 0x%x", i,
                      s[i].off, s[i].size, v, s[i].val);
    }
}

START_TEST(pci_header_fields)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    static const cfg_step steps[] = {
        {CFG_READ, 0x00, 4, 0x000910a9},
        {CFG_READ, 0x00, 2, 0x10a9},
        {CFG_READ, 0x02, 2, 0x0009},
        {CFG_READ, 0x01, 1, 0x10},
        {CFG_READ, 0x08, 4, 0x02000021},
        {CFG_READ, 0x0b, 1, 0x02},
        {CFG_READ, 0x2c, 4, 0x123410a9},
        {CFG_READ, 0x3d, 1, 1},
        {CFG_READ, 0x0e, 1, 0},
        /* Reset BAR values carry their type bits. */
        {CFG_READ, 0x10, 4, 0},
        {CFG_READ, 0x14, 4, 1},
        {CFG_READ, 0x18, 4, 0xc},
        /* Beyond the header: 0.  Read-only fields ignore writes. */
        {CFG_READ, 0x40, 4, 0},
        {CFG_WRITE, 0x00, 4, 0xffffffff},
        {CFG_WRITE, 0x08, 4, 0xffffffff},
        {CFG_READ, 0x00, 4, 0x000910a9},
        {CFG_READ, 0x08, 4, 0x02000021},
        /* Writable bytes: cache line, latency, interrupt line. */
        {CFG_WRITE, 0x0c, 2, 0x4010},
        {CFG_WRITE, 0x3c, 1, 0x55},
        {CFG_READ, 0x0c, 4, 0x4010},
        {CFG_READ, 0x3c, 4, 0x0155},
    };
    cfg_steps(&f, steps, ARRAY_SIZE(steps));
}
END_TEST

START_TEST(pci_bar_sizing)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    static const cfg_step steps[] = {
        /* 4 KB memory BAR */
        {CFG_WRITE, 0x10, 4, 0xffffffff},
        {CFG_READ, 0x10, 4, 0xfffff000},
        /* 256-byte I/O BAR */
        {CFG_WRITE, 0x14, 4, 0xffffffff},
        {CFG_READ, 0x14, 4, 0xffffff01},
        /* 8 GB 64-bit prefetchable BAR: low half keeps type bits, high half
         * shows the size above 4 GB. */
        {CFG_WRITE, 0x18, 4, 0xffffffff},
        {CFG_WRITE, 0x1c, 4, 0xffffffff},
        {CFG_READ, 0x18, 4, 0x0000000c},
        {CFG_READ, 0x1c, 4, 0xfffffffe},
        /* Unimplemented BARs stay 0. */
        {CFG_WRITE, 0x20, 4, 0xffffffff},
        {CFG_READ, 0x20, 4, 0},
        /* Assign addresses; low bits are not writable. */
        {CFG_WRITE, 0x10, 4, 0x08200fff},
        {CFG_READ, 0x10, 4, 0x08200000},
        {CFG_WRITE, 0x14, 4, 0x00001234},
        {CFG_READ, 0x14, 4, 0x00001201},
        {CFG_WRITE, 0x18, 4, 0},
        {CFG_WRITE, 0x1c, 4, 0x00000003},
        {CFG_READ, 0x1c, 4, 0x00000002},
        /* Byte writes to a BAR merge with the rest. */
        {CFG_WRITE, 0x13, 1, 0x09},
        {CFG_READ, 0x10, 4, 0x09200000},
    };
    cfg_steps(&f, steps, ARRAY_SIZE(steps));
    /* A 64-bit BAR below 4 GB in size: the high half is fully writable. */
    pci_func g;
    setup(&g, &h);
    g.bars[0] = (pci_bar){0x4000, PCI_BAR_MEM | PCI_BAR_64};
    g.bars[1] = (pci_bar){0, 0};
    pci_func_reset(&g);
    pci_config_write(&g, 0x10, 4, 0xffffffff);
    pci_config_write(&g, 0x14, 4, 0xffffffff);
    ck_assert_uint_eq(pci_config_read(&g, 0x10, 4), 0xffffc004);
    ck_assert_uint_eq(pci_config_read(&g, 0x14, 4), 0xffffffff);
}
END_TEST

START_TEST(pci_decode)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    pci_config_write(&f, 0x10, 4, 0x08200000);
    pci_config_write(&f, 0x14, 4, 0x00004000);
    pci_config_write(&f, 0x18, 4, 0);
    pci_config_write(&f, 0x1c, 4, 0x2);
    unsigned bar = 9;
    uint64_t off = 0;
    /* Decoding is off until the command register enables it. */
    ck_assert(!pci_func_decode(&f, false, 0x08200010, &bar, &off));
    pci_config_write(&f, 0x04, 2, PCI_CMD_MEM);
    ck_assert(pci_func_decode(&f, false, 0x08200010, &bar, &off));
    ck_assert_uint_eq(bar, 0);
    ck_assert_uint_eq(off, 0x10);
    ck_assert(!pci_func_decode(&f, false, 0x08201000, &bar, &off));
    ck_assert(!pci_func_decode(&f, true, 0x4004, &bar, &off));
    pci_config_write(&f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_IO);
    ck_assert(pci_func_decode(&f, true, 0x40ff, &bar, &off));
    ck_assert_uint_eq(bar, 1);
    ck_assert_uint_eq(off, 0xff);
    ck_assert(!pci_func_decode(&f, true, 0x4100, &bar, &off));
    /* The 64-bit BAR at 8 GB. */
    ck_assert(pci_func_decode(&f, false, 0x200000000ull + 0x12345, &bar, &off));
    ck_assert_uint_eq(bar, 2);
    ck_assert_uint_eq(off, 0x12345);
    ck_assert(!pci_func_decode(&f, false, 0x400000000ull, &bar, &off));
}
END_TEST

START_TEST(pci_command_status)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    /* Only implemented command bits stick. */
    pci_config_write(&f, 0x04, 2, 0xffff);
    ck_assert_uint_eq(pci_config_read(&f, 0x04, 2), 0x0557);
    pci_config_write(&f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    /* A DMA abort sets "received master abort"; a command write leaves it. */
    h.rc = PCI_DMA_ABORT;
    uint32_t v;
    ck_assert_int_eq(pci_dma_read32(&f, 0x100, &v), PCI_DMA_ABORT);
    ck_assert_uint_eq(v, 0xffffffff);
    ck_assert_uint_eq(pci_config_read(&f, 0x06, 2) & 0x2000, 0x2000);
    pci_config_write(&f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    ck_assert_uint_eq(pci_config_read(&f, 0x06, 2) & 0x2000, 0x2000);
    pci_config_write(&f, 0x04, 4, (PCI_CMD_MEM | PCI_CMD_MASTER) | 0x20000000u);
    ck_assert_uint_eq(pci_config_read(&f, 0x04, 4), PCI_CMD_MEM | PCI_CMD_MASTER);
}
END_TEST

START_TEST(pci_dma_calls)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    uint8_t b[4] = {1, 2, 3, 4};
    /* No bus mastering: the host is not even asked. */
    ck_assert_int_eq(pci_dma_write(&f, 0x10, b, 4, PCI_DMA_BULK), PCI_DMA_NOMASTER);
    ck_assert_uint_eq(h.dma_len, 0);
    pci_config_write(&f, 0x04, 2, PCI_CMD_MASTER);
    ck_assert_int_eq(pci_dma_write32(&f, 0x10, 0x44332211), PCI_DMA_OK);
    ck_assert(h.dma_write);
    ck_assert_int_eq(h.dma_kind, PCI_DMA_WORD);
    ck_assert_uint_eq(h.mem[0x10], 0x11);
    ck_assert_uint_eq(h.mem[0x13], 0x44);
    uint64_t q;
    ck_assert_int_eq(pci_dma_write64(&f, 0x00, 0x0807060504030201ull), PCI_DMA_OK);
    ck_assert_int_eq(pci_dma_read64(&f, 0x00, &q), PCI_DMA_OK);
    ck_assert_uint_eq(q, 0x0807060504030201ull);
    uint16_t s;
    ck_assert_int_eq(pci_dma_read16(&f, 0x01, &s), PCI_DMA_OK);
    ck_assert_uint_eq(s, 0x0302);
    ck_assert_int_eq(pci_dma_read(&f, 0x00, b, 4, PCI_DMA_BULK), PCI_DMA_OK);
    ck_assert_int_eq(h.dma_kind, PCI_DMA_BULK);
    ck_assert_uint_eq(b[3], 4);
}
END_TEST

START_TEST(pci_intx)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    pci_set_irq(&f, 0, true);
    ck_assert_int_eq(h.irq_calls, 1);
    ck_assert(h.last_level);
    pci_set_irq(&f, 0, true); /* no change: no call */
    ck_assert_int_eq(h.irq_calls, 1);
    ck_assert_uint_eq(pci_config_read(&f, 0x06, 2) & 0x8, 0x8);
    /* INTx disable drops the line the host sees, status still shows it. */
    pci_config_write(&f, 0x04, 2, 0x0400);
    ck_assert_int_eq(h.irq_calls, 2);
    ck_assert(!h.last_level);
    ck_assert_uint_eq(pci_config_read(&f, 0x06, 2) & 0x8, 0x8);
    pci_set_irq(&f, 0, false);
    ck_assert_int_eq(h.irq_calls, 2);
    pci_set_irq(&f, 0, true);
    pci_config_write(&f, 0x04, 2, 0);
    ck_assert_int_eq(h.irq_calls, 3);
    ck_assert(h.last_level);
    /* Reset lowers it. */
    pci_func_reset(&f);
    ck_assert_int_eq(h.irq_calls, 4);
    ck_assert(!h.last_level);
    ck_assert_uint_eq(pci_config_read(&f, 0x06, 2) & 0x8, 0);
}
END_TEST

/* A model with no BAR handlers: BAR 0 reaches its register declaration. */
/* clang-format off */
static const reg_decl le_regs[] = {
    {.name = "CTRL", .offset = 0x0, .width = 4, .reset = 0x11223344},
};
/* clang-format on */
static const device_class le_class = {
    .name = "le", DEV_REGS(le_regs), .reg_space = 0x100, .little_endian = true};

START_TEST(pci_bar_to_declaration)
{
    pci_func f;
    fake_host h;
    setup(&f, &h);
    device *d = device_new(&le_class, "le0", NULL, NULL, NULL);
    device_reset(d);
    f.dev = d;
    uint64_t v = 0;
    ck_assert_int_eq(pci_bar_access(&f, 0, 0, 0, 4, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x11223344);
    ck_assert_int_eq(pci_bar_access(&f, 0, 0, 1, 1, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x33);
    v = 0xaa;
    ck_assert_int_eq(pci_bar_access(&f, 0, 0, 3, 1, &v, true), BUS_OK);
    ck_assert_uint_eq(DEV_R(d, 0), 0xaa223344);
    ck_assert_int_eq(pci_bar_access(&f, 0, 1, 0, 4, &v, false), BUS_ERROR);
    device_free(d);
}
END_TEST


int main(void)
{
    return check_main("pci", "core", NULL, NULL, 0, pci_header_fields, pci_bar_sizing, pci_decode,
                      pci_command_status, pci_dma_calls, pci_intx, pci_bar_to_declaration);
}
