/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bridge_fixture.h"

#include <check.h>
#include <stdlib.h>

static int hub_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    *val = 0;
    return BUS_OK;
}

static int hub_write_fn(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    fixture *fx = o;
    if (fx->nhub < FX_MAX_LOG)
        fx->hub[fx->nhub++] = (hub_write){off, val, op->size, op->initiator};
    return BUS_OK;
}

static const mmio_ops hub_ops = {hub_read, hub_write_fn};

void fx_init(fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    bus_init(&fx->bus);
    sched_init(&fx->clock, 180000000);
    event_bus_init(&fx->eb, &fx->clock.now);
    fx->ram = ram_block_new(&fx->bus, "ram", FX_RAM_SIZE);
    ck_assert_int_eq(bus_map_ram(&fx->bus, "ram", BUS_CAC(0), FX_RAM_SIZE, fx->ram, 0, false), 0);
    ck_assert_int_eq(bus_map_mmio(&fx->bus, "hub", FX_HUB_BASE, 0x800000, &hub_ops, fx), 0);
    fx->cpu = initiator_register(&fx->bus, "cpu0", INIT_CPU, 0);
    uint64_t win[1] = {FX_WIDGET_BASE};
    fx->br = bridge_new("bridge", &fx->bus, &fx->clock, &fx->eb, win, 1);
    ck_assert_ptr_nonnull(fx->br);
}

void fx_free(fixture *fx)
{
    device_free(bridge_device(fx->br));
    bridge_free(fx->br);
    event_bus_free(&fx->eb);
    bus_free(&fx->bus);
}

static void record(void *ctx, const event *ev)
{
    fixture *fx = ctx;
    if (fx->nev >= FX_MAX_LOG)
        return;
    fx->ev_name[fx->nev] = ev->src->name;
    fx->ev_n[fx->nev] = ev->nvals;
    fx->ev_who[fx->nev] = ev->initiator;
    for (unsigned i = 0; i < ev->nvals && i < 12; i++)
        fx->ev_vals[fx->nev][i] = ev->vals[i];
    fx->nev++;
}

void fx_record(fixture *fx, const char *pattern)
{
    ck_assert_int_gt(event_subscribe_glob(&fx->eb, pattern, record, fx), 0);
}

int fx_rd(fixture *fx, uint64_t off, unsigned size, uint64_t *val)
{
    return bus_read(&fx->bus, fx->cpu, FX_WIDGET_BASE + off, size, val);
}

int fx_wr(fixture *fx, uint64_t off, unsigned size, uint64_t val)
{
    return bus_write(&fx->bus, fx->cpu, FX_WIDGET_BASE + off, size, val);
}

uint32_t fx_reg(fixture *fx, uint64_t off)
{
    uint64_t v = 0;
    ck_assert_int_eq(fx_rd(fx, off, 4, &v), BUS_OK);
    return (uint32_t)v;
}

void fx_setreg(fixture *fx, uint64_t off, uint32_t v)
{
    ck_assert_int_eq(fx_wr(fx, off, 4, v), BUS_OK);
}

static int ff_access(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                     bool write)
{
    fake_func *ff = f->opaque;
    if (ff->nlog < FX_MAX_LOG)
        ff->log[ff->nlog++] = (fx_access){bar, size, off, write ? *val : 0, write, who};
    if (ff->refuse || bar > 1 || off + size > sizeof ff->mem[0])
        return BUS_ERROR;
    if (write)
        store_le(ff->mem[bar] + off, size, *val);
    else
        *val = load_le(ff->mem[bar] + off, size);
    if (!write)
        ff->log[ff->nlog - 1].val = *val;
    return BUS_OK;
}

static int ff_read(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val)
{
    return ff_access(f, who, bar, off, size, val, false);
}

static int ff_write(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val)
{
    return ff_access(f, who, bar, off, size, &val, true);
}

static const pci_func_ops ff_ops = {.bar_read = ff_read, .bar_write = ff_write};

void fake_func_init(fake_func *ff, const char *name, uint64_t bar0_size, uint64_t bar1_io_size)
{
    memset(ff, 0, sizeof *ff);
    pci_func_init(&ff->f, name, &ff_ops, ff);
    ff->f.vendor_id = 0x1234;
    ff->f.device_id = 0x5678;
    ff->f.class_code = 0x020000;
    ff->f.int_pin = 1;
    ff->f.bars[0] = (pci_bar){bar0_size, PCI_BAR_MEM};
    if (bar1_io_size)
        ff->f.bars[1] = (pci_bar){bar1_io_size, PCI_BAR_IO};
    pci_func_reset(&ff->f);
}

void fx_linux_int_setup(fixture *fx)
{
    uint64_t intr_addr = (1ull << 47) + 0x01800000 + FX_PEND_MOD;
    fx_setreg(fx, B_WID_INT_UPPER, (uint32_t)(((intr_addr >> 32) & 0xffff) | (0xau << 16)));
    fx_setreg(fx, B_WID_INT_LOWER, (uint32_t)intr_addr);
    fx_setreg(fx, B_DIR_MAP, 0xau << 20);
}
