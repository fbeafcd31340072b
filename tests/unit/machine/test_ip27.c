/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Machine-level tests of the IP27 board (src/machine/ip27.c): a whole
 * machine is built and its memory and devices are read back the way the
 * guest or the debugger would, without running guest code. */
#include <check.h>
#include <stdlib.h>

#include "dev/sgi/ioc3.h"
#include "dev/chip/uart16550.h"
#include "machine/ip27.h"
#include "machine/prom.h"
#include "../check_run.h"
#include "example_machine.h"

static machine *make(unsigned ncpus, uint64_t mem_mb)
{
    machine_config cfg = example_config(ncpus, false, NULL, NULL, NULL);
    cfg.mem_mb = mem_mb;
    return test_machine(&cfg);
}

static uint64_t peek(machine *m, uint64_t addr, unsigned size)
{
    uint8_t b[8];
    ck_assert_int_eq(bus_peek(&m->bus, addr, b, size), BUS_OK);
    return load_be(b, size);
}

static uint64_t rd(machine *m, int who, uint64_t addr, unsigned size)
{
    uint64_t v = 0;
    ck_assert_int_eq(bus_read(&m->bus, who, addr, size, &v), BUS_OK);
    return v;
}

START_TEST(ip27_prom_data_in_memory)
{
    machine *m = make(2, 64);
    /* KLDIR[1] -> KLCONFIG header -> IP27 board with the CPUs' real PRId. */
    uint64_t h = peek(m, BUS_CAC(0x2000 + 64 + 8), 8);
    ck_assert_uint_eq(peek(m, BUS_CAC(h), 8), KLCFGINFO_MAGIC);
    ck_assert_uint_eq(peek(m, BUS_CAC(h + 24 + 16), 8), IP27_IOC3_CPU_BASE);
    uint64_t brd = peek(m, BUS_CAC(h + 20), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(brd + 5), 1), 0x11);
    ck_assert_uint_eq(peek(m, BUS_CAC(brd + 23), 1), 4);
    uint64_t cpu0 = peek(m, BUS_CAC(brd + 36), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(cpu0), 1), 1);
    ck_assert_uint_eq(peek(m, BUS_CAC(cpu0 + 56), 2), cpu_cp0(m->cpus[0], 15) & 0xffff);
    ck_assert_uint_eq(peek(m, BUS_CAC(cpu0 + 60), 2), 180);
    uint64_t cpu1 = peek(m, BUS_CAC(brd + 40), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(cpu1 + 24), 1), 1); /* physid = slice B */
    uint64_t mem = peek(m, BUS_CAC(brd + 36 + 12), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(mem), 1), 3);
    ck_assert_uint_eq(peek(m, BUS_CAC(mem + 60), 2), 64);
    /* The same bytes through UNCAC, as Linux reads them. */
    ck_assert_uint_eq(peek(m, BUS_UNC(3, h), 8), KLCFGINFO_MAGIC);
    machine_free(m);
}
END_TEST

START_TEST(ip27_bridge_and_console_as_the_prom_leaves_them)
{
    machine *m = make(1, 64);
    int dbg = m->debugger_initiator;
    uint64_t br = IP27_BRIDGE_BASE;
    /* IOC3 in slot 2: BAR0 in DEVIO(2), DEVICE(2) -> PCI 0x086xxxxx, MEM on. */
    ck_assert_uint_eq(rd(m, dbg, br + 0x22000, 4), 0x000310a9);
    ck_assert_uint_eq(rd(m, dbg, br + 0x22010, 4), 0x08600000);
    ck_assert_uint_eq(rd(m, dbg, br + 0x204 + 16, 4) & 0x1fff, 0x1086);
    ck_assert_uint_eq(rd(m, dbg, br + 0x22004, 4) & 2, 2);
    /* Empty slots read all-ones. */
    ck_assert_uint_eq(rd(m, dbg, br + 0x23000, 4), 0xffffffff);
    /* The Bridge also answers at small window 0 (Linux reads WID_ID there). */
    ck_assert_uint_eq((rd(m, dbg, BUS_UNC(1, 0x04), 4) >> 12) & 0xffff, 0xc002);
    /* The IOC3 registers at the console_t address, numeric 32-bit reads. */
    uint64_t io = BUS_UNC(1, IP27_IOC3_CPU_BASE & 0xffffffffffull);
    ck_assert_uint_eq(rd(m, dbg, io + 0x00, 4), 0x000310a9);
    /* UART A at base + 0x20178 + i: 8N1, divisor 48, THR empty. */
    ck_assert_uint_eq(rd(m, dbg, io + 0x20178 + 3, 1), 0x03);
    ck_assert_uint_eq(rd(m, dbg, io + 0x20178 + 5, 1) & 0x60, 0x60);
    device *u = machine_find_device(m, "ioc3.uart-a");
    ck_assert_ptr_nonnull(u);
    strbuf sb;
    sb_init(&sb);
    dev_view_find(u, "state")->show(u, "", NULL, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "divisor 48"));
    sb_free(&sb);
    /* The RTC behind DEV0 (chip address ^ 3 on PCI, CPU address = chip address). */
    uint64_t year = rd(m, dbg, io + 0x80000 + 0x7fff, 1);
    ck_assert_uint_eq(year, 0x54); /* --rtc-fixed: 2024 = 1970 + 54 */
    machine_free(m);
}
END_TEST

START_TEST(ip27_hub_windows_and_cpu_lines)
{
    machine *m = make(2, 64);
    int c0 = cpu_initiator(m->cpus[0]), c1 = cpu_initiator(m->cpus[1]);
    ck_assert_uint_eq(rd(m, c1, BUS_UNC(1, 0x01000020), 8), 1);
    ck_assert_uint_eq(rd(m, c0, BUS_UNC(1, 0x01800020), 8), 0);
    /* A level in PEND0 with CPU B's mask raises IP2 in CPU B's Cause. */
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_UNC(1, 0x010000b8), 8, 1ull << 33), BUS_OK);
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_UNC(1, 0x01000090), 8, 0x100 | 33), BUS_OK);
    ck_assert_uint_eq(cpu_cp0(m->cpus[1], 13) & 0x400, 0x400);
    ck_assert_uint_eq(cpu_cp0(m->cpus[0], 13) & 0x400, 0);
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_UNC(1, 0x01000090), 8, 33), BUS_OK);
    ck_assert_uint_eq(cpu_cp0(m->cpus[1], 13) & 0x400, 0);
    machine_free(m);
}
END_TEST

START_TEST(ip27_ualias_flip_and_prom_window)
{
    machine *m = make(2, 64);
    int c0 = cpu_initiator(m->cpus[0]), c1 = cpu_initiator(m->cpus[1]);
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_CAC(0x00100), 8, 0xaaaa), BUS_OK);
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_CAC(0x10100), 8, 0xbbbb), BUS_OK);
    /* KSEG1/UALIAS low 128 KB: CPU B sees bit 16 flipped. */
    ck_assert_uint_eq(rd(m, c0, BUS_UNC(0, 0x00100), 8), 0xaaaa);
    ck_assert_uint_eq(rd(m, c1, BUS_UNC(0, 0x00100), 8), 0xbbbb);
    ck_assert_uint_eq(rd(m, c1, BUS_UNC(0, 0x10100), 8), 0xaaaa);
    /* Above 128 KB, no flip. */
    ck_assert_int_eq(bus_write(&m->bus, c0, BUS_CAC(0x30000), 8, 0xcccc), BUS_OK);
    ck_assert_uint_eq(rd(m, c1, BUS_UNC(0, 0x30000), 8), 0xcccc);
    /* The PROM window: entry vectors, read-only. */
    uint64_t rom = BUS_UNC(0, PROM_PA);
    ck_assert_uint_eq(rd(m, c0, rom + PROM_LAUNCHSLAVE, 4), 0x03e00008); /* jr ra */
    ck_assert_int_eq(bus_write(&m->bus, c0, rom, 4, 0), BUS_ERROR);
    /* CPU B waits at the reset vector; LAUNCH slot B is armed. */
    ck_assert_uint_eq(cpu_pc(m->cpus[1]), PROM_VADDR);
    ck_assert_uint_eq(peek(m, BUS_CAC(PROM_LAUNCH_OFF + PROM_LAUNCH_STRIDE), 8), LAUNCH_MAGIC);
    machine_free(m);
}
END_TEST

START_TEST(ip27_memory_banks_and_limits)
{
    machine *m = make(1, 256);
    uint64_t v;
    /* 256 MB = two 128 MB banks: node offsets 0-128 MB and 512-640 MB. */
    ck_assert_int_eq(bus_read(&m->bus, 0, BUS_CAC(0x07fffff8), 8, &v), BUS_OK);
    ck_assert_int_eq(bus_read(&m->bus, 0, BUS_CAC(0x08000000), 8, &v), BUS_ERROR);
    ck_assert_int_eq(bus_read(&m->bus, 0, BUS_CAC(0x20000000), 8, &v), BUS_OK);
    ck_assert_int_eq(bus_read(&m->bus, 0, BUS_CAC(0x28000000), 8, &v), BUS_ERROR);
    uint64_t h = peek(m, BUS_CAC(0x4000 + 20), 4);
    uint64_t memc = peek(m, BUS_CAC(h + 36 + 8), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(memc + 60), 2), 128);
    ck_assert_uint_eq(peek(m, BUS_CAC(memc + 62), 2), 128);
    machine_free(m);

    machine_config cfg;
    machine_config_default(&cfg);
    cfg.serial = "null";
    cfg.ncpus = 5;
    xerr err;
    ck_assert_ptr_null(machine_new(&cfg, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "1 to 4"));
}
END_TEST

static void wr(machine *m, int who, uint64_t addr, unsigned size, uint64_t v)
{
    ck_assert_int_eq(bus_write(&m->bus, who, addr, size, v), BUS_OK);
}

#define N1 (1ull << 32)

/* --cpus 4: node 1 (CPUs 2, 3) with its memory at 1 << 32 and its own PROM
 * tables there; IALIAS and UALIAS answer per CPU node. */
START_TEST(ip27_two_nodes)
{
    machine *m = make(4, 64);
    int c[4], dbg = m->debugger_initiator;
    for (int i = 0; i < 4; i++)
        c[i] = cpu_initiator(m->cpus[i]);
    ck_assert_ptr_nonnull(machine_find_device(m, "hub"));
    ck_assert_ptr_nonnull(machine_find_device(m, "hub1"));
    ck_assert_ptr_nonnull(m->ram1);
    /* Node 1 memory: CAC and UNCAC at 1 << 32, as much as --mem. */
    wr(m, c[0], BUS_CAC(N1 | 0x3fffff8), 8, 0x1234);
    ck_assert_uint_eq(rd(m, c[2], BUS_UNC(3, N1 | 0x3fffff8), 8), 0x1234);
    uint64_t v;
    ck_assert_int_eq(bus_read(&m->bus, c[0], BUS_CAC(N1 | 0x4000000), 8, &v), BUS_ERROR);
    /* Node 1's tables: KLDIR -> KLCONFIG -> IP27 board, nasid 1, CPUs 2, 3. */
    uint64_t h = peek(m, BUS_CAC(N1 | (0x2000 + 64 + 8)), 8);
    ck_assert_uint_eq(h, 0x4000);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | h), 8), KLCFGINFO_MAGIC);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (h + 24 + 16)), 8), 0); /* no console */
    uint64_t brd = peek(m, BUS_CAC(N1 | (h + 20)), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (brd + 32)), 2), 1);
    uint64_t cpu3 = peek(m, BUS_CAC(N1 | (brd + 40)), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (cpu3 + 24)), 1), 1); /* physid: slice B */
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (cpu3 + 28)), 4), 3); /* virtid */
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (PROM_LAUNCH_OFF + PROM_LAUNCH_STRIDE)), 8),
                      LAUNCH_MAGIC);
    /* Both GDAs list nasids 0 and 1. */
    ck_assert_uint_eq(peek(m, BUS_CAC(0x11000 + 130), 2), 1);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (0x11000 + 130)), 2), 1);
    ck_assert_uint_eq(peek(m, BUS_CAC(0x11000 + 132), 2), 0xffff);
    /* IALIAS: the accessing CPU's HUB. */
    const uint64_t ialias = BUS_UNC(1, 0x01000000);
    ck_assert_uint_eq(rd(m, c[2], ialias + 0x20, 8), 0); /* PI_CPU_NUM */
    ck_assert_uint_eq(rd(m, c[3], ialias + 0x20, 8), 1);
    ck_assert_uint_eq(rd(m, c[1], ialias + 0x20, 8), 1);
    ck_assert_uint_eq((rd(m, c[3], ialias + 0x600000, 8) >> 8) & 0x1ff, 1);
    ck_assert_uint_eq((rd(m, c[1], ialias + 0x600000, 8) >> 8) & 0x1ff, 0);
    ck_assert_uint_eq((rd(m, dbg, ialias + 0x600000, 8) >> 8) & 0x1ff, 0);
    /* Node 1 has no XIO widget: link down, small windows empty. */
    ck_assert_uint_eq(rd(m, c[2], ialias + 0x400128, 8) & 0x2000, 0);
    ck_assert_uint_eq(rd(m, c[0], ialias + 0x400128, 8) & 0x2000, 0x2000);
    ck_assert_int_eq(bus_read(&m->bus, c[2], BUS_UNC(1, N1 | 0x04), 4, &v), BUS_ERROR);
    /* An IPI to CPU 3 (REMOTE_HUB_SEND_INTR on node 1, level CPU_CALL_B). */
    wr(m, c[3], ialias + 0xb8, 8, 1ull << 10);
    wr(m, c[0], BUS_UNC(1, N1 | 0x01800090), 8, 0x100 | 10);
    ck_assert_uint_eq(cpu_cp0(m->cpus[3], 13) & 0x400, 0x400);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(cpu_cp0(m->cpus[i], 13) & 0x400, 0);
    wr(m, c[3], ialias + 0x90, 8, 10); /* LOCAL_HUB_CLR_INTR on CPU 3 */
    ck_assert_uint_eq(cpu_cp0(m->cpus[3], 13) & 0x400, 0);
    /* UALIAS is the reader's node memory, flipped for slice B. */
    wr(m, c[0], BUS_CAC(0x100), 8, 0xa0);
    wr(m, c[0], BUS_CAC(N1 | 0x100), 8, 0xa1);
    wr(m, c[0], BUS_CAC(N1 | 0x10100), 8, 0xb1);
    wr(m, c[0], BUS_CAC(N1 | 0x30000), 8, 0xc1);
    ck_assert_uint_eq(rd(m, c[0], BUS_UNC(0, 0x100), 8), 0xa0);
    ck_assert_uint_eq(rd(m, c[2], BUS_UNC(0, 0x100), 8), 0xa1);
    ck_assert_uint_eq(rd(m, c[3], BUS_UNC(0, 0x100), 8), 0xb1);
    ck_assert_uint_eq(rd(m, c[2], BUS_UNC(0, 0x30000), 8), 0xc1);
    /* Every CPU waits at the reset vector until launched. */
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(cpu_pc(m->cpus[i]), PROM_VADDR);
    machine_free(m);

    /* --cpus 3: node 1 has slice A only. */
    m = make(3, 64);
    ck_assert_uint_eq(rd(m, cpu_initiator(m->cpus[2]), ialias + 0x48, 8), 0); /* PRESENT_B */
    brd = peek(m, BUS_CAC(N1 | (0x4000 + 20)), 4);
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (brd + 23)), 1), 3); /* CPU, HUB, MEMBNK */
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | (PROM_LAUNCH_OFF + PROM_LAUNCH_STRIDE)), 8), 0);
    machine_free(m);
}
END_TEST

/* A device interrupt steered to node 1: the Bridge's INT_ADDR names nasid 1
 * (as Linux's bridge_set_affinity writes it), the packet lands in node 1's
 * PI_INT_PEND_MOD and CPU 2's mask raises its IP2. */
START_TEST(ip27_bridge_interrupt_to_node1)
{
    machine *m = make(4, 64);
    int dbg = m->debugger_initiator;
    uint64_t br = IP27_BRIDGE_BASE;
    uint64_t intr_addr = (1ull << 47) + 0x01800000 + 0x90;
    wr(m, dbg, br + 0x34, 4, ((intr_addr >> 32) & 0xffff) | 0xau << 16);     /* WID_INT_UPPER */
    wr(m, dbg, br + 0x3c, 4, (uint32_t)intr_addr);                           /* WID_INT_LOWER */
    wr(m, dbg, br + 0x134 + 8 * 4, 4, 0x20000 | 1u << 8 | 20);               /* INT_ADDR(4) */
    wr(m, dbg, br + 0x10c, 4, 1u << 4);                                      /* INT_ENABLE */
    wr(m, cpu_initiator(m->cpus[2]), BUS_UNC(1, 0x010000a8), 8, 1ull << 20); /* MASK0_A */
    /* The console UART's THRE interrupt: IER, then the IOC3's SIO_IES. */
    uint64_t io = BUS_UNC(1, IP27_IOC3_CPU_BASE & 0xffffffffffull);
    wr(m, dbg, io + 0x20178 + 1, 1, 0x02);
    wr(m, dbg, io + 0x20, 4, 0x40);
    ck_assert_uint_eq(rd(m, dbg, BUS_UNC(1, N1 | 0x01800098), 8), 1ull << 20);
    ck_assert_uint_eq(rd(m, dbg, BUS_UNC(1, 0x01800098), 8), 0);
    ck_assert_uint_eq(cpu_cp0(m->cpus[2], 13) & 0x400, 0x400);
    ck_assert_uint_eq(cpu_cp0(m->cpus[0], 13) & 0x400, 0);
    machine_free(m);
}
END_TEST

/* PCI64 DMA into node 1's memory: the XIO address carries the nasid in
 * bits 39:32 (the test device in slot 7, as --testdev plugs it). */
START_TEST(ip27_dma_to_node1)
{
    machine_config cfg = example_config(4, true, NULL, NULL, NULL);
    machine *m = test_machine(&cfg);
    int dbg = m->debugger_initiator;
    uint64_t br = IP27_BRIDGE_BASE, bar = br + 0xb00000; /* DEVIO(7) */
    ck_assert_uint_eq(rd(m, dbg, br + 0x27000, 4), 0x00015842);
    wr(m, dbg, br + 0x27004, 4, 0x6);        /* PCI command: MEM | MASTER */
    wr(m, dbg, bar + 0x1000, 4, 0x11223344); /* buffer word 0 */
    wr(m, dbg, bar + 0x08, 4, 0);            /* SRC: buffer offset 0 */
    wr(m, dbg, bar + 0x10, 4, 0x8000);       /* DST: PCI64, widget 0xa, */
    wr(m, dbg, bar + 0x14, 4, 0xa0000001);   /* XIO 1 << 32 | 0x8000 */
    wr(m, dbg, bar + 0x18, 4, 4);
    wr(m, dbg, bar + 0x1c, 4, 1 | 2 << 1); /* GO, buffer -> PCI */
    while (rd(m, dbg, bar + 0x20, 4) & 1) {
        uint64_t next = sched_next(&m->clock);
        ck_assert_uint_ne(next, UINT64_MAX);
        m->clock.now = next;
        sched_run_due(&m->clock);
    }
    ck_assert_uint_eq(rd(m, dbg, bar + 0x20, 4), 2); /* DONE, no error */
    ck_assert_uint_eq(peek(m, BUS_CAC(N1 | 0x8000), 4), 0x11223344);
    ck_assert_uint_eq(peek(m, BUS_CAC(0x8000), 4), 0);
    machine_free(m);
}
END_TEST

/* A one-BAR PCI card for ip27_plug_pci. */
static int card_rd(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val)
{
    *val = 0x5a5a;
    return BUS_OK;
}
static int card_wr(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val)
{
    return BUS_OK;
}
static const pci_func_ops card_ops = {.bar_read = card_rd, .bar_write = card_wr};

START_TEST(ip27_plug_assigns_devio_window)
{
    machine *m = make(1, 64);
    pci_func card;
    pci_func_init(&card, "card", &card_ops, NULL);
    card.vendor_id = 0x5842;
    card.device_id = 0x0042;
    card.bars[0].size = 0x10000;
    xerr err;
    ck_assert_int_ne(ip27_plug_pci(m, 2, &card, &err), 0); /* the IOC3's slot */
    ck_assert_int_eq(ip27_plug_pci(m, 3, &card, &err), 0);
    int dbg = m->debugger_initiator;
    ck_assert_uint_eq(rd(m, dbg, IP27_BRIDGE_BASE + 0x23010, 4), 0x08700000);
    ck_assert_uint_eq(rd(m, dbg, IP27_BRIDGE_BASE + 0x204 + 24, 4) & 0x1fff, 0x1087);
    /* A machine reset programs it again (the Bridge reset cleared it). */
    machine_reset(m, false);
    ck_assert_uint_eq(rd(m, dbg, IP27_BRIDGE_BASE + 0x23010, 4), 0x08700000);
    machine_free(m);
}
END_TEST


int main(void)
{
    /* whole machines: slow under sanitizers on a busy host */
    return check_main("ip27", "board", NULL, NULL, 120, ip27_prom_data_in_memory,
                      ip27_bridge_and_console_as_the_prom_leaves_them,
                      ip27_hub_windows_and_cpu_lines, ip27_ualias_flip_and_prom_window,
                      ip27_memory_banks_and_limits, ip27_plug_assigns_devio_window, ip27_two_nodes,
                      ip27_bridge_interrupt_to_node1, ip27_dma_to_node1);
}
