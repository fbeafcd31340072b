/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the synthetic PROM (src/machine/prom.c): the structures
 * Linux reads, checked field by field at the offsets of docs/hardware.md (written
 * here as literals, independent of prom.c), and the PROM-window code. */
#include <capstone.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "machine/prom.h"
#include "../check_run.h"

typedef struct memrig {
    bus b;
    ram_block *rb;
} memrig;

static void mem_init(memrig *r)
{
    bus_init(&r->b);
    r->rb = ram_block_new(&r->b, "ram", 64 << 20);
    ck_assert_int_eq(bus_map_ram(&r->b, "cac", BUS_CAC(0), 64 << 20, r->rb, 0, false), 0);
}

static uint64_t g(memrig *r, uint64_t off, unsigned size)
{
    return load_be(r->rb->host + off, size);
}

static prom_config two_cpus(void)
{
    prom_config pc = {
        .ncpus = 2,
        .cpu_prid = 0x0926,
        .cpu_fpirr = 0x0900,
        .cpu_mhz = 180,
        .scache_mb = 1,
        .nbanks = 2,
        .bank_mb = {512, 128},
        .console_base = 0x9200000008600000ull,
        .console_config = 0x9200000008022000ull,
        .console_wid = 8,
        .console_slot = 2,
        .console_baud = 9600,
    };
    return pc;
}

/* A node offset from an XKPHYS pointer (as Linux's NODE_OFFSET_TO_K1 undoes). */
static uint64_t node_off(uint64_t p) { return p & 0xffffffffffull; }

START_TEST(prom_kldir_launch_nmi_gda)
{
    memrig r;
    mem_init(&r);
    /* Garbage where the tables go is overwritten. */
    memset(r.rb->host + 0x2000, 0xee, 0x17000);
    prom_config pc = two_cpus();
    xerr err;
    ck_assert_int_eq(prom_write_tables(&r.b, &pc, &err), 0);
    const uint64_t kldir = 0x2000;
    /* Entry 0 LAUNCH: magic, offset 0x2400, size 0x400, count 2, stride 0x200. */
    ck_assert_uint_eq(g(&r, kldir + 0, 8), 0x434d5f53505f5357ull);
    ck_assert_uint_eq(g(&r, kldir + 8, 8), 0x2400);
    ck_assert_uint_eq(g(&r, kldir + 24, 8), 0x400);
    ck_assert_uint_eq(g(&r, kldir + 32, 8), 2);
    ck_assert_uint_eq(g(&r, kldir + 40, 8), 0x200);
    /* Entry 1 KLCONFIG: offset 0x4000, size 0xc000. */
    ck_assert_uint_eq(g(&r, kldir + 64 + 0, 8), 0x434d5f53505f5357ull);
    ck_assert_uint_eq(g(&r, kldir + 64 + 8, 8), 0x4000);
    ck_assert_uint_eq(g(&r, kldir + 64 + 24, 8), 0xc000);
    /* Entry 2 NMI: offset 0x3000, size 0x40, count 2, stride 0x40. */
    ck_assert_uint_eq(g(&r, kldir + 128 + 8, 8), 0x3000);
    ck_assert_uint_eq(g(&r, kldir + 128 + 24, 8), 0x40);
    ck_assert_uint_eq(g(&r, kldir + 128 + 32, 8), 2);
    ck_assert_uint_eq(g(&r, kldir + 128 + 40, 8), 0x40);
    /* Entry 3 GDA: Linux uses `pointer`. */
    uint64_t gda_ptr = g(&r, kldir + 192 + 16, 8);
    ck_assert_uint_eq(node_off(gda_ptr), 0x11000);
    ck_assert_uint_eq(gda_ptr >> 62, 2); /* an XKPHYS address */
    ck_assert_uint_eq(g(&r, kldir + 192 + 24, 8), 0x400);
    /* Entry 4 FREEMEM at 0x19000; entry 7 KERN_VARS left for Linux. */
    ck_assert_uint_eq(g(&r, kldir + 4 * 64 + 8, 8), 0x19000);
    ck_assert_uint_eq(g(&r, kldir + 7 * 64 + 0, 8), 0);
    ck_assert_uint_eq(g(&r, kldir + 7 * 64 + 16, 8), 0);
    /* LAUNCH slots A and B: magic, nothing pending. */
    ck_assert_uint_eq(g(&r, 0x2400, 8), 0xaddbead2addbead3ull);
    ck_assert_uint_eq(g(&r, 0x2600, 8), 0xaddbead2addbead3ull);
    ck_assert_uint_eq(g(&r, 0x2610, 8), 0);
    /* NMI slots zero: Linux installs its handler only if call_addr is 0. */
    ck_assert_uint_eq(g(&r, 0x3000 + 0x10, 8), 0);
    ck_assert_uint_eq(g(&r, 0x3040 + 0x10, 8), 0);
    /* GDA: magic, version, nasid table {0, -1, ...}. */
    ck_assert_uint_eq(g(&r, 0x11000, 4), 0x58464552);
    ck_assert_uint_eq(g(&r, 0x11004, 2), 2);
    ck_assert_uint_eq(g(&r, 0x11000 + 128, 2), 0);
    for (unsigned i = 1; i < 64; i++)
        ck_assert_uint_eq(g(&r, 0x11000 + 128 + 2 * i, 2), 0xffff);
    bus_free(&r.b);
}
END_TEST

START_TEST(prom_klconfig_fields)
{
    memrig r;
    mem_init(&r);
    prom_config pc = two_cpus();
    xerr err;
    ck_assert_int_eq(prom_write_tables(&r.b, &pc, &err), 0);
    /* Header at KLDIR[1].offset. */
    uint64_t h = g(&r, 0x2000 + 64 + 8, 8);
    ck_assert_uint_eq(g(&r, h + 0, 8), 0xbeedbabe);
    int32_t cons_off = (int32_t)g(&r, h + 16, 4);
    ck_assert_int_eq(cons_off, 24);
    /* console_t (relative to the header): memory_base drives prom_putchar. */
    uint64_t c = h + (uint64_t)cons_off;
    ck_assert_uint_eq(g(&r, c + 16, 8), 0x9200000008600000ull);
    ck_assert_uint_eq(g(&r, c + 0, 8), 0x9200000008620178ull);
    ck_assert_uint_eq(g(&r, c + 8, 8), 0x9200000008022000ull);
    ck_assert_uint_eq(g(&r, c + 24, 2), 9600);
    ck_assert_uint_eq(g(&r, c + 32, 2), 0);
    ck_assert_uint_eq(g(&r, c + 34, 1), 8);
    ck_assert_uint_eq(g(&r, c + 35, 1), 2);
    /* The board list, the way find_lboard() walks it. */
    uint64_t brd = g(&r, h + 20, 4);
    ck_assert_uint_ne(brd, 0);
    ck_assert_uint_eq(g(&r, brd + 0, 4), 0);     /* brd_next: last board */
    ck_assert_uint_eq(g(&r, brd + 4, 1), 1);     /* LOCAL_BOARD */
    ck_assert_uint_eq(g(&r, brd + 5, 1), 0x11);  /* KLTYPE_IP27 */
    ck_assert_uint_eq(g(&r, brd + 9, 1) & 1, 1); /* ENABLE_BOARD */
    ck_assert_uint_eq(g(&r, brd + 32, 2), 0);    /* brd_nasid */
    unsigned n = (unsigned)g(&r, brd + 23, 1);
    ck_assert_uint_eq(n, 4);
    unsigned cpus = 0, hubs = 0, mems = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t k = g(&r, brd + 36 + 4 * i, 4);
        ck_assert(k >= 0x4000 && k < 0x10000);
        unsigned type = (unsigned)g(&r, k + 0, 1);
        ck_assert_uint_eq(g(&r, k + 2, 1) & 1, 1); /* KLINFO_ENABLE */
        ck_assert_uint_eq(g(&r, k + 34, 2), 0);    /* nasid */
        if (type == 1) {
            /* CPUs in order: slice == logical number. */
            ck_assert_uint_eq(g(&r, k + 24, 1), cpus); /* physid */
            ck_assert_uint_eq(g(&r, k + 28, 4), cpus); /* virtid */
            ck_assert_uint_eq(g(&r, k + 56, 2), 0x0926);
            ck_assert_uint_eq(g(&r, k + 60, 2), 180);
            ck_assert_uint_eq(g(&r, k + 62, 2), 1);
            cpus++;
        } else if (type == 2) {
            hubs++;
        } else if (type == 3) {
            ck_assert_uint_eq(g(&r, k + 56, 2), 640);
            ck_assert_uint_eq(g(&r, k + 60, 2), 512);
            ck_assert_uint_eq(g(&r, k + 62, 2), 128);
            for (unsigned b = 2; b < 8; b++)
                ck_assert_uint_eq(g(&r, k + 60 + 2 * b, 2), 0);
            mems++;
        } else {
            ck_abort_msg("unexpected component type %u", type);
        }
    }
    ck_assert_uint_eq(cpus, 2);
    ck_assert_uint_eq(hubs, 1);
    ck_assert_uint_eq(mems, 1);
    ck_assert_str_eq((const char *)r.rb->host + brd + 153, "IP27");
    bus_free(&r.b);

    /* One CPU: no slice-B component, no slice-B launch slot. */
    mem_init(&r);
    pc.ncpus = 1;
    ck_assert_int_eq(prom_write_tables(&r.b, &pc, &err), 0);
    brd = g(&r, 0x4000 + 20, 4);
    ck_assert_uint_eq(g(&r, brd + 23, 1), 3);
    ck_assert_uint_eq(g(&r, 0x2600, 8), 0);
    bus_free(&r.b);
}
END_TEST

/* Node 1 of a two-node machine (--cpus 4): its own tables in its own
 * memory at 1 << 32, describing its CPUs (logical 2 and 3), its HUB and its
 * banks; no console; the GDA lists both nodes.  Node 0 is left alone. */
START_TEST(prom_node1_tables)
{
    memrig r;
    mem_init(&r);
    const uint64_t n1 = 1ull << 32;
    ram_block *rb1 = ram_block_new(&r.b, "ram1", 64 << 20);
    ck_assert_int_eq(bus_map_ram(&r.b, "cac1", BUS_CAC(n1), 64 << 20, rb1, 0, false), 0);
    memset(rb1->host + 0x2000, 0xee, 0x16000);
    prom_config pc = two_cpus();
    pc.nasid = 1;
    pc.nnodes = 2;
    pc.first_cpu = 2;
    pc.nbanks = 1;
    pc.bank_mb[0] = 64;
    pc.bank_mb[1] = 0;
    pc.console_base = 0; /* no IO on node 1 */
    xerr err;
    ck_assert_int_eq(prom_write_tables(&r.b, &pc, &err), 0);
#define G1(off, size) load_be(rb1->host + (off), (size))
    /* Node 0 untouched. */
    ck_assert_uint_eq(g(&r, 0x2000, 8), 0);
    /* KLDIR: node-relative offsets as on node 0; GDA pointer into node 1. */
    const uint64_t kldir = 0x2000;
    ck_assert_uint_eq(G1(kldir + 0, 8), 0x434d5f53505f5357ull);
    ck_assert_uint_eq(G1(kldir + 8, 8), 0x2400);                       /* LAUNCH */
    ck_assert_uint_eq(G1(kldir + 64 + 8, 8), 0x4000);                  /* KLCONFIG */
    ck_assert_uint_eq(G1(kldir + 128 + 8, 8), 0x3000);                 /* NMI */
    ck_assert_uint_eq(G1(kldir + 192 + 16, 8), 0x9600000100011000ull); /* GDA, UNCAC node 1 */
    ck_assert_uint_eq(G1(kldir + 5 * 64 + 8, 8),
                      0x25000); /* SYMMON_STK: Linux's node-1 free memory */
    ck_assert_uint_eq(G1(kldir + 5 * 64 + 40, 8), 0x7000);
    ck_assert_uint_eq(G1(kldir + 7 * 64 + 16, 8), 0); /* KERN_VARS for Linux */
    /* LAUNCH slots of node 1's slices A and B; NMI slots zero. */
    ck_assert_uint_eq(G1(0x2400, 8), 0xaddbead2addbead3ull);
    ck_assert_uint_eq(G1(0x2600, 8), 0xaddbead2addbead3ull);
    ck_assert_uint_eq(G1(0x2610, 8), 0);
    ck_assert_uint_eq(G1(0x3010, 8), 0);
    ck_assert_uint_eq(G1(0x3050, 8), 0);
    /* GDA: nasid table {0, 1, -1 ...}. */
    ck_assert_uint_eq(G1(0x11000, 4), 0x58464552);
    ck_assert_uint_eq(G1(0x11000 + 128, 2), 0);
    ck_assert_uint_eq(G1(0x11000 + 130, 2), 1);
    for (unsigned i = 2; i < 64; i++)
        ck_assert_uint_eq(G1(0x11000 + 128 + 2 * i, 2), 0xffff);
    /* KLCONFIG header, console_t all zero (Linux reads only the master's). */
    uint64_t h = G1(kldir + 64 + 8, 8);
    ck_assert_uint_eq(G1(h, 8), 0xbeedbabe);
    ck_assert_int_eq((int32_t)G1(h + 16, 4), 24);
    for (unsigned i = 0; i < 48; i += 8)
        ck_assert_uint_eq(G1(h + 24 + i, 8), 0);
    /* The IP27 board of node 1. */
    uint64_t brd = G1(h + 20, 4);
    ck_assert_uint_eq(G1(brd + 0, 4), 0);     /* brd_next */
    ck_assert_uint_eq(G1(brd + 4, 1), 1);     /* LOCAL_BOARD */
    ck_assert_uint_eq(G1(brd + 5, 1), 0x11);  /* KLTYPE_IP27 */
    ck_assert_uint_eq(G1(brd + 9, 1) & 1, 1); /* ENABLE_BOARD */
    ck_assert_uint_eq(G1(brd + 14, 2), 2);    /* brd_module: the second module */
    ck_assert_uint_eq(G1(brd + 32, 2), 1);    /* brd_nasid */
    ck_assert_uint_eq(G1(brd + 23, 1), 4);
    ck_assert_str_eq((const char *)rb1->host + brd + 153, "IP27");
    unsigned cpus = 0, hubs = 0, mems = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t k = G1(brd + 36 + 4 * i, 4);
        ck_assert(k >= 0x4000 && k < 0x10000);
        ck_assert_uint_eq(G1(k + 2, 1) & 1, 1); /* KLINFO_ENABLE */
        ck_assert_uint_eq(G1(k + 34, 2), 1);    /* nasid */
        switch (G1(k, 1)) {
        case 1:
            ck_assert_uint_eq(G1(k + 24, 1), cpus);     /* physid: slice */
            ck_assert_uint_eq(G1(k + 28, 4), 2 + cpus); /* virtid: CPUs 2, 3 */
            ck_assert_uint_eq(G1(k + 56, 2), 0x0926);
            ck_assert_uint_eq(G1(k + 60, 2), 180);
            cpus++;
            break;
        case 2: hubs++; break;
        case 3:
            ck_assert_uint_eq(G1(k + 56, 2), 64);
            ck_assert_uint_eq(G1(k + 60, 2), 64);
            for (unsigned b = 1; b < 8; b++)
                ck_assert_uint_eq(G1(k + 60 + 2 * b, 2), 0);
            mems++;
            break;
        default: ck_abort_msg("unexpected component type");
        }
    }
    ck_assert_uint_eq(cpus, 2);
    ck_assert_uint_eq(hubs, 1);
    ck_assert_uint_eq(mems, 1);
#undef G1
    /* Node 2 has no memory here: a clear error. */
    pc.nasid = 2;
    ck_assert_int_eq(prom_write_tables(&r.b, &pc, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "node 2"));
    bus_free(&r.b);
}
END_TEST

START_TEST(prom_argv)
{
    memrig r;
    mem_init(&r);
    uint64_t argc, argv, envp;
    xerr err;
    ck_assert_int_eq(prom_write_argv(&r.b, "vmlinux", "  console=ttyS0,9600  root=/dev/ram ", &argc,
                                     &argv, &envp, &err),
                     0);
    ck_assert_uint_eq(argc, 3);
    ck_assert_uint_eq(argv, 0xa800000000018000ull);
    const char *want[] = {"vmlinux", "console=ttyS0,9600", "root=/dev/ram"};
    for (unsigned i = 0; i < 3; i++) {
        uint64_t p = g(&r, 0x18000 + 8 * i, 8);
        ck_assert_uint_eq(p >> 40, 0xa80000);
        ck_assert_str_eq((const char *)r.rb->host + node_off(p), want[i]);
    }
    ck_assert_uint_eq(g(&r, 0x18000 + 24, 8), 0); /* argv[argc] = NULL */
    ck_assert_uint_eq(g(&r, node_off(envp), 8), 0);
    /* Too long: a clear error, nothing written past the area. */
    char *big = malloc(8000);
    memset(big, 'x', 7999);
    big[7999] = 0;
    ck_assert_int_eq(prom_write_argv(&r.b, "k", big, &argc, &argv, &envp, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "do not fit"));
    free(big);
    bus_free(&r.b);
}
END_TEST

START_TEST(prom_memory_banks)
{
    uint16_t b[8];
    unsigned n;
    xerr err;
    ck_assert_int_eq(prom_mem_layout(512, b, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(b[0], 512);
    ck_assert_int_eq(prom_mem_layout(256, b, &n, &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(b[0], 128);
    ck_assert_uint_eq(b[1], 128);
    ck_assert_int_eq(prom_mem_layout(64, b, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(b[0], 64);
    ck_assert_int_eq(prom_mem_layout(1100, b, &n, &err), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(b[2], 76);
    ck_assert_int_eq(prom_mem_layout(4096, b, &n, &err), 0);
    ck_assert_uint_eq(n, 8);
    ck_assert_int_eq(prom_mem_layout(4000, b, &n, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "8 memory banks"));
    ck_assert_int_eq(prom_mem_layout(16, b, &n, &err), -1);
}
END_TEST

/* Instruction off of the PROM image disassembles to want. */
static void expect_insn(csh h, const uint8_t *rom, size_t off, const char *want)
{
    cs_insn *insn;
    size_t n = cs_disasm(h, rom + off, 4, PROM_VADDR + off, 1, &insn);
    ck_assert_uint_eq(n, 1);
    char buf[256];
    snprintf(buf, sizeof buf, "%s %s", insn[0].mnemonic, insn[0].op_str);
    cs_free(insn, n);
    ck_assert_str_eq(buf, want);
}

/* The ROM's code at fixed offsets.  (Capstone names registers the o32 way:
 * $t4 is register 12, n64's t0; it prints addresses as signed 64-bit
 * values.) */
static const struct {
    size_t off;
    const char *insn;
} rom_code[] = {
    /* LAUNCHSLAVE's fallback returns; the reset entry goes to the slave loop. */
    {PROM_LAUNCHSLAVE, "jr $ra"},
    {PROM_ENTRY, "j -0x403ffc00"},
    /* The slave loop: Status, PI_CPU_NUM, the launch slot. */
    {PROM_SLAVE_ENTRY + 8, "mtc0 $t5, $t4, 0"},
    {PROM_SLAVE_ENTRY + 0x24, "ld $t7, 0x20($t6)"},
    /* The node: NI_STATUS_REV_ID's node id, shifted to bit 32. */
    {PROM_SLAVE_ENTRY + 0x2c, "lui $t5, 0x60"},
    {PROM_SLAVE_ENTRY + 0x34, "ld $t5, ($t5)"},
    {PROM_SLAVE_ENTRY + 0x38, "dsrl $t5, $t5, 8"},
    {PROM_SLAVE_ENTRY + 0x40, "dsll32 $t5, $t5, 0"},
    /* The slot: XKPHYS cached | nasid << 32 | 0x2400 + slice * 0x200. */
    {PROM_SLAVE_ENTRY + 0x44, "lui $s0, 0xa800"},
    {PROM_SLAVE_ENTRY + 0x4c, "ori $s0, $s0, 0x2400"},
    {PROM_SLAVE_ENTRY + 0x58, "ld $t4, 0x10($s0)"},
    {PROM_SLAVE_ENTRY + 0x5c, "beqz $t4, -0x403ffba8"},
    /* BEV general exception vector spins in place. */
    {PROM_BEV_GENERAL, "b -0x403ffc80"},
};

START_TEST(prom_rom_code)
{
    uint8_t *rom = malloc(0x10000);
    size_t used = prom_build_rom(rom, 0x10000);
    ck_assert(used > PROM_SLAVE_ENTRY && used < 0x1000);
    csh h;
    ck_assert_int_eq(cs_open(CS_ARCH_MIPS, CS_MODE_MIPS64 | CS_MODE_BIG_ENDIAN, &h), CS_ERR_OK);
    for (size_t i = 0; i < ARRAY_SIZE(rom_code); i++)
        expect_insn(h, rom, rom_code[i].off, rom_code[i].insn);
    /* The slave loop's last instruction branches back to its start. */
    expect_insn(h, rom, used - 8, "b -0x403ffba8");
    cs_close(&h);
    free(rom);
}
END_TEST


int main(void)
{
    return check_main("prom", "prom", NULL, NULL, 0, prom_kldir_launch_nmi_gda,
                      prom_klconfig_fields, prom_node1_tables, prom_argv, prom_memory_banks,
                      prom_rom_code);
}
