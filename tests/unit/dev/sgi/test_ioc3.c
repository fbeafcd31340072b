/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the IOC3 PCI function (src/dev/sgi/ioc3.c) through its PCI
 * interface (config cycles and BAR0 accesses with little-endian PCI
 * values), with a fake host bridge that records INTx. */
#include <check.h>
#include <stdlib.h>

#include "core/chardev.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/sgi/ioc3.h"
#include "../../check_run.h"

typedef struct rig {
    sched clock;
    event_bus eb;
    chardev *ch;
    ioc3 *io;
    pci_func *f;
    bool intx[4];
    unsigned intx_changes;
} rig;

static void host_irq(void *host, pci_func *f, int pin, bool level)
{
    rig *r = host;
    r->intx[pin] = level;
    r->intx_changes++;
}

static const pci_host_ops host = {.set_irq = host_irq};

static void rig_init(rig *r)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->clock, XBOW_CPU_HZ);
    event_bus_init(&r->eb, &r->clock.now);
    xerr err;
    r->ch = chardev_open("null", &err);
    ioc3_config c = {r->ch, NULL, 1704067200, NULL};
    r->io = ioc3_new("ioc3", &r->eb, &r->clock, &c);
    ck_assert_ptr_nonnull(r->io);
    r->f = ioc3_pci(r->io);
    r->f->host_ops = &host;
    r->f->host = r;
    r->f->slot = 2;
}

static void rig_free(rig *r)
{
    device *ds[4];
    unsigned n = ioc3_devices(r->io, ds, 4);
    for (unsigned i = 0; i < n; i++)
        device_free(ds[i]);
    ioc3_free(r->io);
    chardev_close(r->ch);
    event_bus_free(&r->eb);
}

static uint64_t bar_rd(rig *r, uint64_t off, unsigned size)
{
    uint64_t v = 0;
    ck_assert_int_eq(pci_bar_access(r->f, 0, 0, off, size, &v, false), BUS_OK);
    return v;
}

static void bar_wr(rig *r, uint64_t off, unsigned size, uint64_t v)
{
    ck_assert_int_eq(pci_bar_access(r->f, 0, 0, off, size, &v, true), BUS_OK);
}

/* The PCI byte address of byte-wide device register `a` (lanes ^ 3). */
static uint64_t lane(uint64_t a) { return a ^ 3; }

START_TEST(ioc3_config_subset)
{
    rig r;
    rig_init(&r);
    ck_assert_uint_eq(pci_config_read(r.f, 0x00, 4), 0x000310a9);
    /* Only 0x00-0x13 and 0x40-0x47 are decoded. */
    ck_assert_uint_eq(pci_config_read(r.f, 0x2c, 4), 0);
    ck_assert_uint_eq(pci_config_read(r.f, 0x3c, 4), 0);
    /* BAR0: 1 MB memory BAR with size probing. */
    pci_config_write(r.f, 0x10, 4, 0xffffffff);
    ck_assert_uint_eq(pci_config_read(r.f, 0x10, 4), 0xfff00000);
    /* Writing BAR1 writes BAR0 (OpenBSD's note on the IOC3). */
    pci_config_write(r.f, 0x14, 4, 0x08600000);
    ck_assert_uint_eq(pci_config_read(r.f, 0x10, 4), 0x08600000);
    ck_assert_uint_eq(pci_config_read(r.f, 0x14, 4), 0);
    pci_config_write(r.f, 0x44, 2, 0xbeef);
    ck_assert_uint_eq(pci_config_read(r.f, 0x44, 4), 0xbeef);
    ck_assert_uint_eq(pci_config_read(r.f, 0x45, 1), 0xbe);
    /* The BAR-mapped mirror of the header. */
    ck_assert_uint_eq(bar_rd(&r, 0x00, 4), 0x000310a9);
    ck_assert_uint_eq(bar_rd(&r, 0x10, 4), 0x08600000);
    rig_free(&r);
}
END_TEST

START_TEST(ioc3_registers)
{
    rig r;
    rig_init(&r);
    /* SIO_IES sets mask bits, SIO_IEC clears them; both read the mask. */
    bar_wr(&r, 0x20, 4, 0x8040);
    bar_wr(&r, 0x20, 4, 0x0001);
    ck_assert_uint_eq(bar_rd(&r, 0x20, 4), 0x8041);
    ck_assert_uint_eq(bar_rd(&r, 0x24, 4), 0x8041);
    bar_wr(&r, 0x24, 4, 0x0040);
    ck_assert_uint_eq(bar_rd(&r, 0x20, 4), 0x8001);
    /* GPCR_S sets (write 1), GPCR_C clears (write 1 to clear). */
    bar_wr(&r, 0x34, 4, 0xc0);
    bar_wr(&r, 0x34, 4, 0x200000);
    ck_assert_uint_eq(bar_rd(&r, 0x38, 4), 0x2000c0);
    bar_wr(&r, 0x38, 4, 0x40);
    ck_assert_uint_eq(bar_rd(&r, 0x34, 4), 0x200080);
    /* GPPR array, SSCR (DMA_EN cleared by Linux), little-endian lanes. */
    bar_wr(&r, 0x40 + 4 * 7, 4, 0);
    bar_wr(&r, 0xb8, 4, 0x10000000);
    ck_assert_uint_eq(bar_rd(&r, 0xb8, 4), 0x10000000);
    ck_assert_uint_eq(bar_rd(&r, 0xbb, 1), 0x10);
    ck_assert_uint_eq(bar_rd(&r, 0xba, 2), 0x1000);
    /* 1-wire master with nothing on the bus: a reset slot (520 us low, the
     * sample 65 us later) shows its timing fields until it is over, then
     * DONE and the line high (no presence pulse). */
    bar_wr(&r, 0x30, 4, 520 << 10 | 65 << 2);
    ck_assert_uint_eq(bar_rd(&r, 0x30, 4), 520 << 10 | 65 << 2);
    r.clock.now += 585 * 180 - 1;
    ck_assert_uint_eq(bar_rd(&r, 0x30, 4) & 3, 0);
    r.clock.now += 1;
    ck_assert_uint_eq(bar_rd(&r, 0x30, 4), 520 << 10 | 65 << 2 | 0x3);
    /* Ethernet interrupt status is write-1-to-clear: writing ~0 leaves 0. */
    bar_wr(&r, 0xf4, 4, 0xffffffff);
    ck_assert_uint_eq(bar_rd(&r, 0xf4, 4), 0);
    rig_free(&r);
}
END_TEST

START_TEST(ioc3_uart_and_rtc_lanes)
{
    rig r;
    rig_init(&r);
    uart16550 *ua = ioc3_uart(r.io, 0);
    /* Register i of UART A at PCI byte (0x20178 + i) ^ 3. */
    bar_wr(&r, lane(0x20178 + UART_SCR), 1, 0x5a);
    ck_assert_uint_eq(uart16550_read(ua, UART_SCR), 0x5a);
    ck_assert_uint_eq(bar_rd(&r, lane(0x20178 + UART_LSR), 1), 0x60);
    bar_wr(&r, lane(0x20178 + UART_MCR), 1, 0x0b);
    /* A 32-bit PCI read at 0x2017c carries SCR, MSR, LSR, MCR in its lanes. */
    uint64_t w = bar_rd(&r, 0x2017c, 4);
    ck_assert_uint_eq(w & 0xff, 0x5a);
    ck_assert_uint_eq((w >> 16) & 0xff, 0x60);
    ck_assert_uint_eq((w >> 24) & 0xff, 0x0b);
    /* UART B at 0x20170. */
    bar_wr(&r, lane(0x20170 + UART_SCR), 1, 0x33);
    ck_assert_uint_eq(uart16550_read(ioc3_uart(r.io, 1), UART_SCR), 0x33);
    /* SHADOW_A mirrors LSR, MSR and MCR. */
    uint64_t sh = bar_rd(&r, 0xd0, 4);
    ck_assert_uint_eq(sh & 0xff, 0x60);
    ck_assert_uint_eq((sh >> 24) & 0x1f, 0x0b);
    /* The M48T35 on DEV0: year register (2024 = 1970 + 0x54). */
    ck_assert_uint_eq(bar_rd(&r, lane(0x80000 + 0x7fff), 1), 0x54);
    bar_wr(&r, lane(0x80000 + 0x10), 1, 0xa5);
    ck_assert_uint_eq(m48t35_read(ioc3_rtc(r.io), 0x10), 0xa5);
    rig_free(&r);
}
END_TEST

static unsigned sio_events;
static void on_sio(void *ctx, const event *ev) { sio_events++; }

START_TEST(ioc3_intb_follows_sio)
{
    rig r;
    rig_init(&r);
    event_subscribe(event_find(&r.eb, "ioc3.sio.irq"), on_sio, NULL);
    sio_events = 0;
    uart16550 *ua = ioc3_uart(r.io, 0);
    /* UART A's THRE interrupt: SIO_IR.SA_INT follows it; INTB only once
     * enabled in SIO_IES. */
    uart16550_write(ua, UART_IER, 0x02);
    ck_assert_uint_eq(bar_rd(&r, 0x1c, 4) & SIO_IR_SA_INT, SIO_IR_SA_INT);
    ck_assert(!r.intx[1]);
    bar_wr(&r, 0x20, 4, SIO_IR_SA_INT);
    ck_assert(r.intx[1]);
    ck_assert(!r.intx[0]);
    ck_assert_uint_eq(sio_events, 1);
    /* The UART bit is a live level: writing 1 to SIO_IR does not clear it. */
    bar_wr(&r, 0x1c, 4, SIO_IR_SA_INT);
    ck_assert(r.intx[1]);
    /* Reading IIR acknowledges THRE in the UART: everything drops. */
    ck_assert_uint_eq(bar_rd(&r, lane(0x20178 + UART_IIR), 1) & 0x0f, 0x02);
    ck_assert_uint_eq(bar_rd(&r, 0x1c, 4) & SIO_IR_SA_INT, 0);
    ck_assert(!r.intx[1]);
    /* Disabling in SIO_IEC masks a pending source. */
    uart16550_write(ua, UART_THR, 'x');
    ck_assert(r.intx[1]);
    bar_wr(&r, 0x24, 4, SIO_IR_SA_INT);
    ck_assert(!r.intx[1]);
    ck_assert_uint_eq(sio_events, 4);
    rig_free(&r);
}
END_TEST


int main(void)
{
    return check_main("ioc3", "ioc3", NULL, NULL, 0, ioc3_config_subset, ioc3_registers,
                      ioc3_uart_and_rtc_lanes, ioc3_intb_follows_sio);
}
