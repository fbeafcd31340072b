/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The synthetic PROM's data structures and PROM-window code: see prom.h.
 * Structure layouts are Linux's (asm/sn/kldir.h, klconfig.h, gda.h,
 * launch.h, nmi.h) for the n64 ABI; offsets were computed with
 * mips64-linux-gnuabi64-gcc and are listed in docs/hardware.md, "PROM tables".
 * Values the real PROM would choose and Linux never reads are marked [UNC]. */
#include "machine/prom.h"

#include <stdio.h>
#include <stdlib.h>

/* kldir.h indices */
enum { KLI_LAUNCH, KLI_KLCONFIG, KLI_NMI, KLI_GDA, KLI_FREEMEM, KLI_SYMMON_STK, KLI_PI_ERROR };

/* klconfig.h */
#define KLTYPE_IP27 0x11
#define LOCAL_BOARD 1
#define ENABLE_BOARD 0x01
#define KLINFO_ENABLE 0x01
#define KLSTRUCT_CPU 1
#define KLSTRUCT_HUB 2
#define KLSTRUCT_MEMBNK 3
#define KLSTRUCT_IOC3 6

/* KLCONFIG area layout chosen by this PROM (node offsets). */
#define KL_HDR PROM_KLCONFIG_OFF
#define KL_BOARD (PROM_KLCONFIG_OFF + 0x100)
#define KL_COMP(i) (PROM_KLCONFIG_OFF + 0x200 + 0x80 * (i))

/* Host image of [PROM_TABLES_START, PROM_ARGV_OFF). */
typedef struct img {
    uint8_t b[PROM_ARGV_OFF - PROM_TABLES_START];
} img;

static uint8_t *at(img *m, uint64_t off) { return &m->b[off - PROM_TABLES_START]; }
static void p8(img *m, uint64_t off, uint64_t v) { store_be(at(m, off), 1, v); }
static void p16(img *m, uint64_t off, uint64_t v) { store_be(at(m, off), 2, v); }
static void p32(img *m, uint64_t off, uint64_t v) { store_be(at(m, off), 4, v); }
static void p64(img *m, uint64_t off, uint64_t v) { store_be(at(m, off), 8, v); }

int prom_mem_layout(uint64_t mem_mb, uint16_t bank_mb[8], unsigned *nbanks, xerr *err)
{
    uint64_t left = mem_mb;
    unsigned n = 0;
    memset(bank_mb, 0, 8 * sizeof *bank_mb);
    if (mem_mb < 32) {
        xerr_set(err, "--mem %llu: Linux needs at least 32 MB in the first bank",
                 (unsigned long long)mem_mb);
        return -1;
    }
    while (left) {
        if (n == 8) {
            xerr_set(err,
                     "--mem %llu MB does not fit the IP27's 8 memory banks (each 512 MB, or "
                     "up to 128 MB); use a multiple of 512, or 512*k plus up to 128*m",
                     (unsigned long long)mem_mb);
            return -1;
        }
        /* Linux gives each 128 MB slot bnksz/4 MB of a bank larger than 128
         * MB (ip27-memory.c), which is contiguous only for 512 MB banks. */
        uint64_t b = left >= 512 ? 512 : left > 128 ? 128 : left;
        bank_mb[n++] = (uint16_t)b;
        left -= b;
    }
    *nbanks = n;
    return 0;
}

static void kldir_entry(img *m, unsigned idx, uint64_t off, uint64_t ptr, uint64_t size,
                        uint64_t count, uint64_t stride)
{
    uint64_t e = PROM_KLDIR_OFF + 64ull * idx;
    p64(m, e + 0x00, KLDIR_MAGIC);
    p64(m, e + 0x08, off);
    p64(m, e + 0x10, ptr);
    p64(m, e + 0x18, size);
    p64(m, e + 0x20, count);
    p64(m, e + 0x28, stride);
}

/* klinfo_t header of a component (56 bytes). */
static void klinfo(img *m, uint64_t c, unsigned type, unsigned version, unsigned physid,
                   unsigned virtid, unsigned nasid)
{
    p8(m, c + 0, type);
    p8(m, c + 1, version);
    p8(m, c + 2, KLINFO_ENABLE);
    p8(m, c + 3, 0); /* revision [UNC] */
    p8(m, c + 24, physid);
    p32(m, c + 28, virtid);
    p8(m, c + 32, 0); /* widid */
    p16(m, c + 34, nasid);
}

int prom_write_tables(bus *b, const prom_config *pc, xerr *err)
{
    img *m = xcalloc(1, sizeof *m);
    /* KLDIR (the real PROM's IP27_* values). */
    kldir_entry(m, KLI_LAUNCH, PROM_LAUNCH_OFF, 0, 0x400, 2, PROM_LAUNCH_STRIDE);
    kldir_entry(m, KLI_KLCONFIG, PROM_KLCONFIG_OFF, 0, PROM_KLCONFIG_SIZE, 1, 0);
    kldir_entry(m, KLI_NMI, PROM_NMI_OFF, 0, 0x40, 2, PROM_NMI_STRIDE);
    unsigned nasid = pc->nasid;
    kldir_entry(m, KLI_GDA, PROM_GDA_OFF, prom_uncac(prom_node(nasid, PROM_GDA_OFF)), 0x400, 1, 0);
    kldir_entry(m, KLI_FREEMEM, PROM_FREEMEM_OFF, 0, ~0ull, 1, 0);
    kldir_entry(m, KLI_SYMMON_STK, 0x25000, 0, 0xe000, 2, 0x7000);
    kldir_entry(m, KLI_PI_ERROR, PROM_PI_ERROR_OFF, 0, 0x4000, 1, 0);
    /* KLI_KERN_VARS (7) and up: zero, Linux fills KERN_VARS in. */

    /* LAUNCH slots of the CPUs that exist; NMI slots stay zero so that
     * Linux installs its handler (it skips a slot whose call_addr is set). */
    for (unsigned s = 0; s < pc->ncpus && s < 2; s++)
        p64(m, PROM_LAUNCH_OFF + PROM_LAUNCH_STRIDE * s + LAUNCH_OFF_MAGIC, LAUNCH_MAGIC);

    /* KLCONFIG header. */
    p64(m, KL_HDR + 0, KLCFGINFO_MAGIC);
    p32(m, KL_HDR + 8, 1);                         /* ch_version [UNC] */
    p32(m, KL_HDR + 12, 72);                       /* ch_malloc_hdr_off */
    p32(m, KL_HDR + 16, 24);                       /* ch_cons_off (from the header) */
    p32(m, KL_HDR + 20, KL_BOARD);                 /* ch_board_info (node offset) */
    uint64_t c = KL_HDR + 24;                      /* console_t */
    if (pc->console_base) {                        /* else a node without IO: all zero [INF] */
        p64(m, c + 0, pc->console_base + 0x20178); /* uart_base: UART A [UNC] */
        p64(m, c + 8, pc->console_config);
        p64(m, c + 16, pc->console_base); /* memory_base: prom_putchar uses it */
        p16(m, c + 24, (uint64_t)pc->console_baud);
        p16(m, c + 26, 0);
        p32(m, c + 28, KLSTRUCT_IOC3); /* type [UNC] */
        p16(m, c + 32, nasid);
        p8(m, c + 34, pc->console_wid);
        p8(m, c + 35, pc->console_slot);
    }
    /* klmalloc headers (board, component, errinfo areas) [UNC: unused by Linux]. */
    unsigned ncomp = 0;
    uint64_t comp[4];
    for (unsigned s = 0; s < pc->ncpus && s < 2; s++) {
        uint64_t cpu = comp[ncomp] = KL_COMP(ncomp);
        ncomp++;
        klinfo(m, cpu, KLSTRUCT_CPU, 2, s, pc->first_cpu + s, nasid);
        p16(m, cpu + 56, pc->cpu_prid);
        p16(m, cpu + 58, pc->cpu_fpirr);
        p16(m, cpu + 60, pc->cpu_mhz);
        p16(m, cpu + 62, pc->scache_mb);
        p16(m, cpu + 64, (uint64_t)pc->cpu_mhz * 2 / 3); /* scache speed [UNC] */
    }
    uint64_t hubc = comp[ncomp] = KL_COMP(ncomp);
    ncomp++;
    klinfo(m, hubc, KLSTRUCT_HUB, 2, 0, 0, nasid);
    p64(m, hubc + 88, 90000000); /* hub_speed in Hz [UNC] */
    uint64_t mem = comp[ncomp] = KL_COMP(ncomp);
    ncomp++;
    klinfo(m, mem, KLSTRUCT_MEMBNK, 2, 0, 0, nasid);
    unsigned total = 0;
    for (unsigned i = 0; i < 8; i++) {
        p16(m, mem + 60 + 2 * i, i < pc->nbanks ? pc->bank_mb[i] : 0);
        total += i < pc->nbanks ? pc->bank_mb[i] : 0;
    }
    p16(m, mem + 56, total);
    for (unsigned i = 0; i < 3; i++) {
        uint64_t h = KL_HDR + 72 + 12ull * i;
        uint64_t base = i == 0 ? KL_BOARD : i == 1 ? KL_COMP(0) : KL_COMP(ncomp);
        uint64_t cur = i == 0 ? KL_BOARD + 192 : i == 1 ? KL_COMP(ncomp) : base;
        p32(m, h + 0, base);
        p32(m, h + 4, PROM_KLCONFIG_OFF + PROM_KLCONFIG_SIZE);
        p32(m, h + 8, cur);
    }
    /* The IP27 board: CPUs, HUB, memory. */
    uint64_t brd = KL_BOARD;
    p32(m, brd + 0, 0); /* brd_next: the only board */
    p8(m, brd + 4, LOCAL_BOARD);
    p8(m, brd + 5, KLTYPE_IP27);
    p8(m, brd + 6, 2); /* brd_sversion */
    p8(m, brd + 9, ENABLE_BOARD);
    p16(m, brd + 14, nasid + 1); /* brd_module: one module per node [UNC] */
    p8(m, brd + 23, ncomp);
    p16(m, brd + 32, nasid); /* brd_nasid */
    for (unsigned i = 0; i < ncomp; i++)
        p32(m, brd + 36 + 4 * i, comp[i]);
    memcpy(at(m, brd + 153), "IP27", 5);

    /* GDA (each node has one, the same): nasids 0..nnodes-1, then -1. */
    unsigned nnodes = pc->nnodes ? pc->nnodes : 1;
    p32(m, PROM_GDA_OFF + 0, GDA_MAGIC);
    p16(m, PROM_GDA_OFF + 4, 2); /* g_version */
    p16(m, PROM_GDA_OFF + 6, 0); /* g_masterid: nasid 0, CPU 0 */
    for (unsigned i = 0; i < 64; i++)
        p16(m, PROM_GDA_OFF + 128 + 2 * i, i < nnodes ? i : 0xffff);

    int rc = bus_poke(b, BUS_CAC(prom_node(nasid, PROM_TABLES_START)), m->b, sizeof m->b);
    free(m);
    if (rc != BUS_OK) {
        xerr_set(err, "node %u memory does not cover the PROM tables", nasid);
        return -1;
    }
    return 0;
}

int prom_write_argv(bus *b, const char *argv0, const char *append, uint64_t *argc, uint64_t *argv,
                    uint64_t *envp, xerr *err)
{
    enum { AREA = PROM_FREEMEM_OFF - PROM_ARGV_OFF, MAXARGS = 64 };
    uint8_t area[AREA];
    memset(area, 0, sizeof area);
    const char *words[MAXARGS];
    size_t lens[MAXARGS];
    unsigned n = 0;
    words[n] = argv0 ? argv0 : "";
    lens[n++] = strlen(words[0]);
    for (const char *p = append ? append : ""; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        if (n == MAXARGS) {
            xerr_set(err, "--append: more than %d words", MAXARGS - 1);
            return -1;
        }
        words[n] = s;
        lens[n++] = (size_t)(p - s);
    }
    /* argv[0..n-1], NULL, then envp[0] = NULL, then the strings. */
    size_t pos = 8 * (n + 2);
    for (unsigned i = 0; i < n; i++) {
        if (pos + lens[i] + 1 > AREA) {
            xerr_set(err,
                     "kernel path and --append do not fit in the %d bytes below "
                     "the kernel (0x%x-0x%x)",
                     AREA, PROM_ARGV_OFF, PROM_FREEMEM_OFF);
            return -1;
        }
        store_be(area + 8 * i, 8, prom_cac(PROM_ARGV_OFF + pos));
        memcpy(area + pos, words[i], lens[i]);
        pos += lens[i] + 1;
    }
    if (bus_poke(b, BUS_CAC(PROM_ARGV_OFF), area, AREA) != BUS_OK) {
        xerr_set(err, "node 0 memory does not cover the argv area");
        return -1;
    }
    *argc = n;
    *argv = prom_cac(PROM_ARGV_OFF);
    *envp = prom_cac(PROM_ARGV_OFF + 8 * (n + 1));
    return 0;
}

/* ---- PROM window code ------------------------------------------------------ */

enum { ZERO = 0, A0 = 4, T0 = 12, T1 = 13, T2 = 14, T3 = 15, S0 = 16, GP = 28, SP = 29, RA = 31 };

typedef struct emit {
    uint8_t *rom;
    size_t size, pc; /* pc = byte offset in the window */
} emit;

static void ins(emit *e, uint32_t w)
{
    if (e->pc + 4 <= e->size)
        store_be(e->rom + e->pc, 4, w);
    e->pc += 4;
}

static uint32_t itype(unsigned op, unsigned rs, unsigned rt, uint32_t imm)
{
    return op << 26 | rs << 21 | rt << 16 | (imm & 0xffff);
}

static uint32_t rtype(unsigned rs, unsigned rt, unsigned rd, unsigned sa, unsigned fn)
{
    return rs << 21 | rt << 16 | rd << 11 | sa << 6 | fn;
}

static void nop(emit *e) { ins(e, 0); }
static void lui(emit *e, unsigned rt, uint32_t imm) { ins(e, itype(0x0f, 0, rt, imm)); }
static void ori(emit *e, unsigned rt, unsigned rs, uint32_t imm)
{
    ins(e, itype(0x0d, rs, rt, imm));
}
static void daddiu(emit *e, unsigned rt, unsigned rs, uint32_t imm)
{
    ins(e, itype(0x19, rs, rt, imm));
}
static void ld(emit *e, unsigned rt, int off, unsigned base)
{
    ins(e, itype(0x37, base, rt, (uint32_t)off));
}
static void sd(emit *e, unsigned rt, int off, unsigned base)
{
    ins(e, itype(0x3f, base, rt, (uint32_t)off));
}
static void daddu(emit *e, unsigned rd, unsigned rs, unsigned rt)
{
    ins(e, rtype(rs, rt, rd, 0, 0x2d));
}
static void nor(emit *e, unsigned rd, unsigned rs, unsigned rt)
{
    ins(e, rtype(rs, rt, rd, 0, 0x27));
}
static void dsll(emit *e, unsigned rd, unsigned rt, unsigned sa)
{
    ins(e, rtype(0, rt, rd, sa, 0x38));
}
static void dsll32(emit *e, unsigned rd, unsigned rt, unsigned sa)
{
    ins(e, rtype(0, rt, rd, sa, 0x3c));
}
static void dsrl(emit *e, unsigned rd, unsigned rt, unsigned sa)
{
    ins(e, rtype(0, rt, rd, sa, 0x3a));
}
static void andi(emit *e, unsigned rt, unsigned rs, uint32_t imm)
{
    ins(e, itype(0x0c, rs, rt, imm));
}
static void jr(emit *e, unsigned rs) { ins(e, rtype(rs, 0, 0, 0, 0x08)); }
static void jalr(emit *e, unsigned rs) { ins(e, rtype(rs, 0, RA, 0, 0x09)); }
static void mtc0(emit *e, unsigned rt, unsigned rd) { ins(e, 0x40800000u | rt << 16 | rd << 11); }
static void branch(emit *e, unsigned op, unsigned rs, unsigned rt, size_t target)
{
    ins(e, itype(op, rs, rt, (uint32_t)(((int64_t)target - (int64_t)(e->pc + 4)) >> 2)));
}
static void jump(emit *e, size_t target)
{
    ins(e, 2u << 26 | (uint32_t)(((PROM_VADDR + target) >> 2) & 0x3ffffff));
}

size_t prom_build_rom(uint8_t *rom, size_t size)
{
    emit e = {rom, size, 0};
    memset(rom, 0, size);
    /* Entry vectors: the machine runs host code (HLE) at each; the MIPS code
     * here is what a CPU without that hook would do: the reset entry and
     * SLAVELOOP go to the slave loop, the others return to the caller. */
    for (unsigned v = 0; v < PROM_NVECTORS; v++) {
        e.pc = 8 * v;
        if (v * 8 == PROM_ENTRY || v * 8 == PROM_SLAVELOOP)
            jump(&e, PROM_SLAVE_ENTRY);
        else
            jr(&e, RA);
        nop(&e);
    }
    /* BEV exception vectors: spin in place (the machine stops the CPU here
     * with a report; see ip27.c). */
    static const size_t bev[] = {PROM_BEV_TLB, PROM_BEV_XTLB, PROM_BEV_CACHE, PROM_BEV_GENERAL};
    for (unsigned i = 0; i < ARRAY_SIZE(bev); i++) {
        e.pc = bev[i];
        branch(&e, 0x04, ZERO, ZERO, bev[i]);
        nop(&e);
    }
    /* The slave loop (launch.h protocol).  Status: 64-bit kernel
     * addressing, ERL/EXL clear. */
    e.pc = PROM_SLAVE_ENTRY;
    lui(&e, T1, PROM_STATUS >> 16);
    ori(&e, T1, T1, PROM_STATUS & 0xffff);
    mtc0(&e, T1, 12);
    nop(&e);
    nop(&e);
    lui(&e, T2, 0x9200);   /* 0xffffffff92000000 */
    dsll32(&e, T2, T2, 0); /* 0x9200000000000000 */
    lui(&e, T3, 0x0100);
    daddu(&e, T2, T2, T3); /* LOCAL_HUB_ADDR(0) */
    ld(&e, T3, 0x20, T2);  /* PI_CPU_NUM: this CPU's slice */
    dsll(&e, T3, T3, 9);   /* * PROM_LAUNCH_STRIDE */
    lui(&e, T1, 0x0060);
    daddu(&e, T1, T1, T2);
    ld(&e, T1, 0, T1); /* NI_STATUS_REV_ID: this node's nasid in bits 16:8 */
    dsrl(&e, T1, T1, 8);
    andi(&e, T1, T1, 0xff);
    dsll32(&e, T1, T1, 0); /* nasid << 32 */
    lui(&e, S0, 0xa800);
    dsll32(&e, S0, S0, 0); /* XKPHYS cached (no UALIAS flip, no CALIAS needed) */
    ori(&e, S0, S0, PROM_LAUNCH_OFF);
    daddu(&e, S0, S0, T1);
    daddu(&e, S0, S0, T3); /* s0 = this slice's launch_t in this node's memory */
    size_t loop = e.pc;
    ld(&e, T0, LAUNCH_OFF_CALL, S0);
    branch(&e, 0x04, T0, ZERO, loop); /* beq t0, zero, loop */
    nop(&e);
    ld(&e, T1, LAUNCH_OFF_CALLC, S0);
    nor(&e, T2, T0, ZERO);
    branch(&e, 0x05, T1, T2, loop); /* complement must match */
    nop(&e);
    sd(&e, ZERO, LAUNCH_OFF_CALLC, S0); /* invalidate before the call (launch.h) */
    daddiu(&e, T1, ZERO, 1);
    sd(&e, T1, LAUNCH_OFF_BUSY, S0);
    ld(&e, A0, LAUNCH_OFF_PARM, S0);
    ld(&e, SP, LAUNCH_OFF_STACK, S0);
    ld(&e, GP, LAUNCH_OFF_GP, S0);
    jalr(&e, T0);
    nop(&e);
    sd(&e, ZERO, LAUNCH_OFF_BUSY, S0); /* back from the call: not busy */
    branch(&e, 0x04, ZERO, ZERO, loop);
    nop(&e);
    return e.pc;
}
