/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the R10000 interpreter, driven only through cpu.h on a bus
 * with RAM (and a probe MMIO region).  Programs are hand-encoded
 * (cpu_asm.h), placed at CODE_PA and run from KSEG0; exception vectors are
 * caught with breakpoints on them. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu_asm.h"
#include "cpu_engines.h"
#include "../mmio_probe.h"

#define RAM_SIZE (16u << 20)
#define K0(pa) (0xffffffff80000000ull + (pa))
#define K1(pa) (0xffffffffa0000000ull + (pa))
#define XK_CAC(pa) (0xa800000000000000ull + (pa))
#define CODE_PA 0x10000u
#define CODE_VA K0(CODE_PA)
#define DATA_PA 0x40000u
#define DATA_VA K0(DATA_PA)
#define VEC_GEN K0(0x180)
#define VEC_TLB K0(0x000)
#define VEC_XTLB K0(0x080)
#define MMIO_PA 0x01000000ull

/* Status bits used by the tests */
#define S_IE 0x1ull
#define S_EXL 0x2ull
#define S_ERL 0x4ull
#define S_USER 0x10ull
#define S_UX 0x20ull
#define S_SX 0x40ull
#define S_KX 0x80ull
#define S_BEV (1ull << 22)
#define S_NMI (1ull << 19)
#define S_CU0 (1ull << 28)
#define S_CU1 (1ull << 29)
#define S_KERNEL64 (S_KX | S_SX | S_UX | S_CU0 | S_CU1)

enum {
    CP0_INDEX = 0,
    CP0_RANDOM = 1,
    CP0_ENTRYLO0 = 2,
    CP0_ENTRYLO1 = 3,
    CP0_CONTEXT = 4,
    CP0_PAGEMASK = 5,
    CP0_WIRED = 6,
    CP0_BADVADDR = 8,
    CP0_COUNT = 9,
    CP0_ENTRYHI = 10,
    CP0_COMPARE = 11,
    CP0_STATUS = 12,
    CP0_CAUSE = 13,
    CP0_EPC = 14,
    CP0_PRID = 15,
    CP0_CONFIG = 16,
    CP0_LLADDR = 17,
    CP0_WATCHLO = 18,
    CP0_WATCHHI = 19,
    CP0_XCONTEXT = 20,
    CP0_ERROREPC = 30
};

static bus B;
static sched CLK;
static event_bus EB;
static ram_block *RB;
static cpu *C;
static int ENGINE; /* the engine every test runs with (main) */
static mmio_probe PR;
static int DMA;

static void setup(void)
{
    RB = cpu_test_bus(&B, &CLK, &EB, RAM_SIZE);
    ck_assert_int_eq(bus_map_ram(&B, "hspec", BUS_UNC(0, 0), RAM_SIZE, RB, 0, false), 0);
    ck_assert_int_eq(bus_map_ram(&B, "uncac", BUS_UNC(3, 0), RAM_SIZE, RB, 0, false), 0);
    ram_block *prom = ram_block_new(&B, "prom", 0x10000);
    ck_assert_int_eq(bus_map_ram(&B, "lboot", BUS_UNC(0, 0x1fc00000), 0x10000, prom, 0, false), 0);
    memset(&PR, 0, sizeof PR);
    ck_assert_int_eq(bus_map_mmio(&B, "probe", BUS_UNC(1, MMIO_PA), 0x1000, &mmio_probe_ops, &PR),
                     0);
    C = cpu_test_cpu(&B, &CLK, &EB, ENGINE);
    DMA = initiator_register(&B, "dma0", INIT_DEVICE, -1);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_bp_insert(C, VEC_GEN);
    cpu_bp_insert(C, VEC_TLB);
    cpu_bp_insert(C, VEC_XTLB);
}

static void teardown(void)
{
    cpu_free(C);
    event_bus_free(&EB);
    bus_free(&B);
}

static void put_bus(uint64_t ba, const uint32_t *w, unsigned n)
{
    ck_assert_int_eq(asm_poke(&B, ba, w, n), BUS_OK);
}

static void put(uint64_t pa, const uint32_t *w, unsigned n) { put_bus(BUS_CAC(pa), w, n); }

static uint64_t peek(uint64_t pa, unsigned size)
{
    uint8_t b[8];
    ck_assert_int_eq(bus_peek(&B, BUS_CAC(pa), b, size), BUS_OK);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v = (v << 8) | b[i];
    return v;
}

static void poke(uint64_t pa, unsigned size, uint64_t v)
{
    uint8_t b[8];
    for (unsigned i = size; i-- > 0;) {
        b[i] = (uint8_t)v;
        v >>= 8;
    }
    ck_assert_int_eq(bus_poke(&B, BUS_CAC(pa), b, size), BUS_OK);
}

/* Load a program at CODE_PA, run it from CODE_VA until the breakpoint after
 * its last instruction (or a vector).  Returns the stop reason. */
static int run_prog(const uint32_t *w, unsigned n)
{
    put(CODE_PA, w, n);
    bool had = cpu_bp_remove(C, CODE_VA + 4 * n) == 0;
    cpu_bp_insert(C, CODE_VA + 4 * n);
    cpu_set_pc(C, CODE_VA);
    int rc = cpu_run(C, CLK.now + 100000);
    if (!had)
        cpu_bp_remove(C, CODE_VA + 4 * n);
    return rc;
}
#define RUN(...)                                       \
    ({                                                 \
        static const uint32_t prog_[] = {__VA_ARGS__}; \
        run_prog(prog_, ARRAY_SIZE(prog_));            \
    })

/* cpu1 on the same bus and clock, in 64-bit kernel mode, with the engine
 * the tests run with (the test frees it). */
static cpu *second_cpu(void)
{
    cpu *c1 = cpu_new(1, &B, &CLK, &EB);
    ck_assert_ptr_nonnull(c1);
    ck_assert_int_eq(cpu_set_engine(c1, ENGINE), 0);
    cpu_set_cp0(c1, CP0_STATUS, S_KERNEL64);
    return c1;
}

static unsigned exc_code(void) { return (unsigned)(cpu_cp0(C, CP0_CAUSE) >> 2) & 31; }
static bool cause_bd(void) { return (cpu_cp0(C, CP0_CAUSE) >> 31) & 1; }

static void assert_end(int rc, unsigned n)
{
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), CODE_VA + 4 * n);
}

static void assert_exc(int rc, uint64_t vec, unsigned code, uint64_t epc)
{
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), vec);
    ck_assert_uint_eq(exc_code(), code);
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), epc);
    ck_assert(cpu_cp0(C, CP0_STATUS) & S_EXL);
}

/* ---- Arithmetic ---------------------------------------------------------- */

START_TEST(arith_32bit_sign_extension)
{
    cpu_set_gpr(C, A0, 0x7fffffff);
    cpu_set_gpr(C, A1, 1);
    cpu_set_gpr(C, A2, 0xffffffff00000001ull); /* not sign-extended: low word 1 */
    int rc = RUN(ADDU(V0, A0, A1), ADDIU(V1, A0, 1), SLL(T0, A0, 1), SUBU(T1, ZERO, A1),
                 ADDU(T2, A2, ZERO), SRL(T3, A1, 0), LUI(S0, 0x8000), SRA(S1, S0, 4));
    assert_end(rc, 8);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0xffffffff80000000ull);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0xffffffff80000000ull);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0xfffffffffffffffeull);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0xffffffffffffffffull);
    ck_assert_uint_eq(cpu_gpr(C, T2), 1);
    ck_assert_uint_eq(cpu_gpr(C, T3), 1);
    ck_assert_uint_eq(cpu_gpr(C, S0), 0xffffffff80000000ull);
    ck_assert_uint_eq(cpu_gpr(C, S1), 0xfffffffff8000000ull);
    ck_assert_uint_eq(cpu_gpr(C, ZERO), 0);
}
END_TEST

START_TEST(arith_overflow_traps)
{
    static const struct {
        uint32_t insn;
        uint64_t a, b;
    } cases[] = {
        {ADD(V0, A0, A1), 0x7fffffff, 1},
        {ADDI(V0, A0, 1), 0x7fffffff, 0},
        {SUB(V0, A0, A1), 0xffffffff80000000ull, 1},
        {DADD(V0, A0, A1), 0x7fffffffffffffffull, 1},
        {DADDI(V0, A0, -1), 0x8000000000000000ull, 0},
        {DSUB(V0, A0, A1), 0x8000000000000000ull, 1},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
        cpu_set_gpr(C, A0, cases[i].a);
        cpu_set_gpr(C, A1, cases[i].b);
        cpu_set_gpr(C, V0, 0x5555);
        uint32_t prog[] = {NOP, cases[i].insn, NOP};
        int rc = run_prog(prog, 3);
        assert_exc(rc, VEC_GEN, 12, CODE_VA + 4);
        ck_assert_uint_eq(cpu_gpr(C, V0), 0x5555); /* destination untouched */
    }
    /* No overflow: ADD of values that fit, ADDU/DADDU wrap silently. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, 0x7fffffffffffffffull);
    cpu_set_gpr(C, A1, 1);
    int rc = RUN(DADDU(V0, A0, A1), ADD(V1, A1, A1));
    assert_end(rc, 2);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x8000000000000000ull);
    ck_assert_uint_eq(cpu_gpr(C, V1), 2);
}
END_TEST

START_TEST(arith_shifts_64)
{
    cpu_set_gpr(C, A0, 0x8000000000000001ull);
    cpu_set_gpr(C, A1, 63);
    cpu_set_gpr(C, A2, 64 + 4); /* only the low 6 bits count */
    int rc = RUN(DSLL32(V0, A0, 0), DSRL32(V1, A0, 31), DSRA32(T0, A0, 0), DSLLV(T1, A0, A1),
                 DSRAV(T2, A0, A2), DSLL(T3, A0, 4), DSRL(S0, A0, 1), SLLV(S1, A0, A1));
    assert_end(rc, 8);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x0000000100000000ull);
    ck_assert_uint_eq(cpu_gpr(C, V1), 1);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0xffffffff80000000ull);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0x8000000000000000ull);
    ck_assert_uint_eq(cpu_gpr(C, T2), 0xf800000000000000ull);
    ck_assert_uint_eq(cpu_gpr(C, T3), 0x0000000000000010ull);
    ck_assert_uint_eq(cpu_gpr(C, S0), 0x4000000000000000ull);
    ck_assert_uint_eq(cpu_gpr(C, S1), 0xffffffff80000000ull); /* sllv by 31 */
}
END_TEST

START_TEST(arith_mul_div)
{
    cpu_set_gpr(C, A0, 0xffffffffffffffffull); /* -1 */
    cpu_set_gpr(C, A1, 0x7fffffff);
    int rc = RUN(MULT(A0, A1), MFHI(V0), MFLO(V1), MULTU(A0, A1), MFHI(T0), MFLO(T1));
    assert_end(rc, 6);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0xffffffffffffffffull);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0xffffffff80000001ull);
    /* 0xffffffff * 0x7fffffff = 0x7ffffffe_80000001 */
    ck_assert_uint_eq(cpu_gpr(C, T0), 0x7ffffffe);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0xffffffff80000001ull);

    cpu_set_gpr(C, A0, 0x123456789abcdef0ull);
    cpu_set_gpr(C, A1, 0xfedcba9876543210ull);
    rc = RUN(DMULTU(A0, A1), MFHI(V0), MFLO(V1), DMULT(A0, A1), MFHI(T0), MFLO(T1));
    assert_end(rc, 6);
    unsigned __int128 pu = (unsigned __int128)0x123456789abcdef0ull * 0xfedcba9876543210ull;
    __int128 ps = (__int128)(int64_t)0x123456789abcdef0ull * (int64_t)0xfedcba9876543210ull;
    ck_assert_uint_eq(cpu_gpr(C, V0), (uint64_t)(pu >> 64));
    ck_assert_uint_eq(cpu_gpr(C, V1), (uint64_t)pu);
    ck_assert_uint_eq(cpu_gpr(C, T0), (uint64_t)((unsigned __int128)ps >> 64));
    ck_assert_uint_eq(cpu_gpr(C, T1), (uint64_t)ps);

    cpu_set_gpr(C, A0, (uint64_t)-7);
    cpu_set_gpr(C, A1, 2);
    rc = RUN(DIV(A0, A1), MFLO(V0), MFHI(V1), DIVU(A1, A0), MFLO(T0), MFHI(T1), DDIV(A0, A1),
             MFLO(T2), MFHI(T3));
    assert_end(rc, 9);
    ck_assert_uint_eq(cpu_gpr(C, V0), (uint64_t)-3);
    ck_assert_uint_eq(cpu_gpr(C, V1), (uint64_t)-1);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0);
    ck_assert_uint_eq(cpu_gpr(C, T1), 2);
    ck_assert_uint_eq(cpu_gpr(C, T2), (uint64_t)-3);
    ck_assert_uint_eq(cpu_gpr(C, T3), (uint64_t)-1);

    /* Division by zero: documented choice, LO = dividend, HI = 0. */
    cpu_set_gpr(C, A0, 1234);
    rc = RUN(DIV(A0, ZERO), MFLO(V0), MFHI(V1), DDIVU(A0, ZERO), MFLO(T0), MFHI(T1));
    assert_end(rc, 6);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1234);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(cpu_gpr(C, T0), 1234);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0);
}
END_TEST

START_TEST(arith_compare_and_moves)
{
    cpu_set_gpr(C, A0, (uint64_t)-1);
    cpu_set_gpr(C, A1, 1);
    int rc =
        RUN(SLT(V0, A0, A1), SLTU(V1, A0, A1), SLTI(T0, A0, 0), SLTIU(T1, A1, -1),
            MOVZ(T2, A1, ZERO), MOVN(T3, A1, ZERO), ORI(S0, ZERO, 0xffff), ANDI(S1, A0, 0x8001));
    assert_end(rc, 8);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(cpu_gpr(C, T0), 1);
    ck_assert_uint_eq(cpu_gpr(C, T1), 1); /* 1 < 0xffff...ffff unsigned */
    ck_assert_uint_eq(cpu_gpr(C, T2), 1);
    ck_assert_uint_eq(cpu_gpr(C, T3), 0);
    ck_assert_uint_eq(cpu_gpr(C, S0), 0xffff);
    ck_assert_uint_eq(cpu_gpr(C, S1), 0x8001);
}
END_TEST

START_TEST(traps)
{
    cpu_set_gpr(C, A0, 5);
    cpu_set_gpr(C, A1, 5);
    int rc = RUN(TNE(A0, A1), TEQI(A0, 4), TNEI(A0, 5), TGE(A0, A1));
    assert_exc(rc, VEC_GEN, 13, CODE_VA + 12);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    rc = RUN(TEQI(A0, 5));
    assert_exc(rc, VEC_GEN, 13, CODE_VA);
}
END_TEST

/* ---- Loads and stores ---------------------------------------------------------- */

static const uint8_t pattern[16] = {0x80, 0x91, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7,
                                    0x08, 0x19, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 0x7f};

static void set_pattern(void)
{
    ck_assert_int_eq(bus_poke(&B, BUS_CAC(DATA_PA), pattern, 16), BUS_OK);
}

/* Byte-level reference of the big-endian partial loads/stores. */
static uint64_t ref_load(int kind, uint64_t old, unsigned k)
{
    uint8_t r[8];
    unsigned n = (kind == 0 || kind == 1) ? 4 : 8;
    for (unsigned j = 0; j < 8; j++)
        r[j] = (uint8_t)(old >> (8 * (7 - j)));
    uint8_t *reg = n == 4 ? r + 4 : r;
    if (kind == 0 || kind == 2) /* LWL / LDL */
        for (unsigned j = 0; j + k < n; j++)
            reg[j] = pattern[k + j];
    else /* LWR / LDR */
        for (unsigned j = 0; j <= k; j++)
            reg[n - 1 - j] = pattern[k - j];
    uint64_t v = 0;
    for (unsigned j = 0; j < 8; j++)
        v = (v << 8) | r[j];
    return n == 4 ? (uint64_t)(int64_t)(int32_t)v : v;
}

START_TEST(unaligned_loads_every_alignment)
{
    static const uint32_t ops[4] = {LWL(V0, 0, A0), LWR(V0, 0, A0), LDL(V0, 0, A0), LDR(V0, 0, A0)};
    const uint64_t old = 0x0123456789abcdefull;
    set_pattern();
    for (int kind = 0; kind < 4; kind++) {
        unsigned n = kind < 2 ? 4 : 8;
        for (unsigned k = 0; k < n; k++) {
            cpu_set_gpr(C, A0, DATA_VA + k);
            cpu_set_gpr(C, V0, old);
            uint32_t prog[] = {ops[kind]};
            assert_end(run_prog(prog, 1), 1);
            ck_assert_msg(cpu_gpr(C, V0) == ref_load(kind, old, k),
                          "kind %d k %u: got %016" PRIx64 " want %016" PRIx64, kind, k,
                          cpu_gpr(C, V0), ref_load(kind, old, k));
        }
    }
    /* The usual pairs give the unaligned word/doubleword. */
    for (unsigned k = 0; k < 8; k++) {
        cpu_set_gpr(C, A0, DATA_VA + k);
        int rc = RUN(LWL(V0, 0, A0), LWR(V0, 3, A0), LDL(V1, 0, A0), LDR(V1, 7, A0));
        assert_end(rc, 4);
        uint64_t w = 0, dw = 0;
        for (unsigned j = 0; j < 4; j++)
            w = (w << 8) | pattern[k + j];
        for (unsigned j = 0; j < 8; j++)
            dw = (dw << 8) | pattern[k + j];
        ck_assert_uint_eq(cpu_gpr(C, V0), (uint64_t)(int64_t)(int32_t)w);
        ck_assert_uint_eq(cpu_gpr(C, V1), dw);
    }
}
END_TEST

START_TEST(unaligned_stores_every_alignment)
{
    static const uint32_t ops[4] = {SWL(A1, 0, A0), SWR(A1, 0, A0), SDL(A1, 0, A0), SDR(A1, 0, A0)};
    const uint64_t val = 0x0123456789abcdefull;
    for (int kind = 0; kind < 4; kind++) {
        unsigned n = kind < 2 ? 4 : 8;
        for (unsigned k = 0; k < n; k++) {
            set_pattern();
            cpu_set_gpr(C, A0, DATA_VA + k);
            cpu_set_gpr(C, A1, val);
            uint32_t prog[] = {ops[kind]};
            assert_end(run_prog(prog, 1), 1);
            uint8_t want[16], got[16], r[8];
            memcpy(want, pattern, 16);
            for (unsigned j = 0; j < 8; j++)
                r[j] = (uint8_t)(val >> (8 * (7 - j)));
            const uint8_t *reg = n == 4 ? r + 4 : r;
            if (kind == 0 || kind == 2)
                for (unsigned j = 0; j + k < n; j++)
                    want[k + j] = reg[j];
            else
                for (unsigned j = 0; j <= k; j++)
                    want[k - j] = reg[n - 1 - j];
            ck_assert_int_eq(bus_peek(&B, BUS_CAC(DATA_PA), got, 16), BUS_OK);
            ck_assert_msg(memcmp(want, got, 16) == 0, "kind %d k %u", kind, k);
        }
    }
}
END_TEST

START_TEST(loads_stores_basic)
{
    set_pattern();
    cpu_set_gpr(C, A0, DATA_VA);
    cpu_set_gpr(C, A1, 0x1122334455667788ull);
    int rc = RUN(LB(V0, 0, A0), LBU(V1, 0, A0), LH(T0, 2, A0), LHU(T1, 2, A0), LW(T2, 0, A0),
                 LWU(T3, 0, A0), LD(S0, 8, A0), SD(A1, 16, A0), SW(A1, 24, A0), SH(A1, 28, A0),
                 SB(A1, 30, A0));
    assert_end(rc, 11);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0xffffffffffffff80ull);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0x80);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0xffffffffffffa2b3ull);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0xa2b3);
    ck_assert_uint_eq(cpu_gpr(C, T2), 0xffffffff8091a2b3ull);
    ck_assert_uint_eq(cpu_gpr(C, T3), 0x8091a2b3);
    ck_assert_uint_eq(cpu_gpr(C, S0), 0x08192a3b4c5d6e7full);
    ck_assert_uint_eq(peek(DATA_PA + 16, 8), 0x1122334455667788ull);
    ck_assert_uint_eq(peek(DATA_PA + 24, 4), 0x55667788);
    ck_assert_uint_eq(peek(DATA_PA + 28, 2), 0x7788);
    ck_assert_uint_eq(peek(DATA_PA + 30, 1), 0x88);
}
END_TEST

START_TEST(address_errors)
{
    cpu_set_gpr(C, A0, DATA_VA + 2);
    int rc = RUN(NOP, LW(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 4, CODE_VA + 4);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), DATA_VA + 2);

    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, DATA_VA + 1);
    rc = RUN(SH(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 5, CODE_VA);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), DATA_VA + 1);

    /* Misaligned in virtual page 0 (an empty soft-TLB tag must not match). */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, 1);
    rc = RUN(LW(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 4, CODE_VA);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), 1);

    /* XKPHYS does not exist with KX clear (32-bit kernel). */
    cpu_set_cp0(C, CP0_STATUS, S_CU0);
    cpu_set_gpr(C, A0, XK_CAC(DATA_PA));
    rc = RUN(LW(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 4, CODE_VA);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), XK_CAC(DATA_PA));

    /* XKPHYS with bits 58:40 set is an address error even with KX. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, XK_CAC(DATA_PA) | (1ull << 45));
    rc = RUN(LD(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 4, CODE_VA);

    /* Jump to a misaligned address: AdEL on the fetch, EPC = the target. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, CODE_VA + 0x102);
    rc = RUN(JR(A0), NOP);
    assert_exc(rc, VEC_GEN, 4, CODE_VA + 0x102);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), CODE_VA + 0x102);
}
END_TEST

START_TEST(xkphys_attributes_reach_the_bus)
{
    int me = cpu_initiator(C);
    cpu_set_gpr(C, A0, 0x9200000000000000ull | MMIO_PA); /* uncached, attribute 1 */
    cpu_set_gpr(C, A1, 0xcafef00d);
    int rc = RUN(LD(V0, 0x10, A0), SW(A1, 0x20, A0));
    assert_end(rc, 2);
    ck_assert_uint_eq(PR.reads, 1);
    ck_assert_uint_eq(PR.writes, 1);
    ck_assert_uint_eq(PR.off, 0x20);
    ck_assert_uint_eq(PR.size, 4);
    ck_assert_uint_eq(PR.val, 0xcafef00d);
    ck_assert_int_eq(PR.initiator, me);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x1122334455667788ull);

    /* The same PA with attribute 0 or cached is not the probe: RAM or nothing. */
    cpu_set_gpr(C, A0, 0x9600000000000000ull | DATA_PA); /* UNCAC alias of RAM */
    cpu_set_gpr(C, A1, 0x0102030405060708ull);
    cpu_set_gpr(C, A2, XK_CAC(DATA_PA));
    rc = RUN(SD(A1, 0, A0), LD(V0, 0, A2));
    assert_end(rc, 2);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x0102030405060708ull);
    ck_assert_uint_eq(PR.reads + PR.writes, 2);

    /* KSEG1 is uncached attribute 0 (our HSPEC alias of RAM here). */
    uint64_t ba = 0;
    ck_assert_int_eq(cpu_translate(C, K1(0x1fc00000), false, &ba), 0);
    ck_assert_uint_eq(ba, BUS_UNC(0, 0x1fc00000));
    ck_assert_int_eq(cpu_translate(C, K0(0x1000), false, &ba), 0);
    ck_assert_uint_eq(ba, BUS_CAC(0x1000));
    ck_assert_int_eq(cpu_translate(C, 0x9200000001000010ull, false, &ba), 0);
    ck_assert_uint_eq(ba, BUS_UNC(1, 0x01000010));
}
END_TEST

START_TEST(bus_errors)
{
    cpu_set_gpr(C, A0, 0x9000000000000000ull | 0x20000000); /* nothing there */
    int rc = RUN(NOP, LW(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 7, CODE_VA + 4);

    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, XK_CAC(0x30000000));
    rc = RUN(JR(A0), NOP);
    assert_exc(rc, VEC_GEN, 6, XK_CAC(0x30000000));
}
END_TEST

/* ---- LL/SC ------------------------------------------------------------------ */

START_TEST(llsc_success_and_failure)
{
    poke(DATA_PA, 4, 41);
    cpu_set_gpr(C, A0, DATA_VA);
    int rc = RUN(LL(V0, 0, A0), ADDIU(V1, V0, 1), SC(V1, 0, A0));
    assert_end(rc, 3);
    ck_assert_uint_eq(cpu_gpr(C, V1), 1);
    ck_assert_uint_eq(peek(DATA_PA, 4), 42);
    ck_assert_uint_eq(cpu_cp0(C, CP0_LLADDR), DATA_PA >> 4);

    /* SC without LL fails and does not store. */
    rc = RUN(ADDIU(V1, ZERO, 7), SC(V1, 0, A0));
    assert_end(rc, 2);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(peek(DATA_PA, 4), 42);

    /* Another initiator's write to the line breaks the link... */
    cpu_set_gpr(C, V1, 99);
    rc = RUN(LL(V0, 0, A0));
    assert_end(rc, 1);
    ck_assert(cpu_llbit(C));
    ck_assert_int_eq(bus_write(&B, DMA, BUS_CAC(DATA_PA + 64), 4, 5), BUS_OK);
    ck_assert(!cpu_llbit(C));
    rc = RUN(SC(V1, 0, A0));
    assert_end(rc, 1);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(peek(DATA_PA, 4), 42);

    /* ... a write to another line does not. */
    cpu_set_gpr(C, V1, 99);
    rc = RUN(LLD(V0, 0, A0));
    assert_end(rc, 1);
    ck_assert_int_eq(bus_write(&B, DMA, BUS_CAC(DATA_PA + 128), 4, 5), BUS_OK);
    rc = RUN(SCD(V1, 0, A0));
    assert_end(rc, 1);
    ck_assert_uint_eq(cpu_gpr(C, V1), 1);
    ck_assert_uint_eq(peek(DATA_PA, 8), 99);

    /* ERET clears the link. */
    cpu_set_cp0(C, CP0_EPC, CODE_VA + 12);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_EXL);
    cpu_set_gpr(C, V1, 77);
    rc = RUN(LL(V0, 0, A0), ERET, NOP, SC(V1, 0, A0));
    assert_end(rc, 4);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
}
END_TEST

START_TEST(llsc_other_cpu_fast_store)
{
    /* cpu1 stores to the linked line through its soft TLB (fast path). */
    cpu *c1 = second_cpu();
    put(0x20000, (const uint32_t[]){SW(A1, 4, A0), SW(A1, 8, A0)}, 2);
    cpu_bp_insert(c1, K0(0x20008));
    cpu_set_gpr(c1, A0, DATA_VA);
    cpu_set_gpr(c1, A1, 7);
    cpu_set_pc(c1, K0(0x20000));
    ck_assert_int_eq(cpu_run(c1, CLK.now + 100), CPU_BREAK); /* fills cpu1's soft TLB */
    poke(DATA_PA, 4, 1);
    cpu_set_gpr(C, A0, DATA_VA);
    ck_assert_int_eq(RUN(LL(V0, 0, A0)), CPU_BREAK);
    ck_assert(cpu_llbit(C));
    cpu_set_pc(c1, K0(0x20000));
    ck_assert_int_eq(cpu_run(c1, CLK.now + 100), CPU_BREAK);
    ck_assert(!cpu_llbit(C));
    cpu_set_gpr(C, V1, 5);
    ck_assert_int_eq(RUN(SC(V1, 0, A0)), CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(peek(DATA_PA, 4), 1);
    /* Its own stores do not break its link. */
    cpu_set_gpr(C, V1, 5);
    ck_assert_int_eq(RUN(LL(V0, 0, A0), SW(V0, 4, A0), SC(V1, 0, A0)), CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V1), 1);
    ck_assert_uint_eq(peek(DATA_PA, 4), 5);
    cpu_free(c1);
}
END_TEST

/* The same with cpu1's stores in a loop that runs whole rounds, which the
 * translator runs (its store path tests the bus's link count itself). */
START_TEST(llsc_other_cpu_fast_store_in_a_loop)
{
    cpu *c1 = second_cpu();
    put(0x20000, (const uint32_t[]){SW(A1, 4, A0), SW(A1, 8, A0), BEQ(ZERO, ZERO, -3), NOP}, 4);
    cpu_set_gpr(c1, A0, DATA_VA);
    cpu_set_gpr(c1, A1, 7);
    cpu_set_pc(c1, K0(0x20000));
    ck_assert_int_eq(cpu_run(c1, CLK.now + 8), CPU_RAN); /* fills cpu1's soft TLB */
    cpu_jit_info ji;
    cpu_jit_info_get(c1, &ji);
    uint64_t interp0 = ji.interp_ticks;
    poke(DATA_PA, 4, 1);
    cpu_set_gpr(C, A0, DATA_VA);
    ck_assert_int_eq(RUN(LL(V0, 0, A0)), CPU_BREAK);
    ck_assert(cpu_llbit(C));
    /* rounds without a store to the line keep the link */
    cpu_set_gpr(c1, A0, DATA_VA + 0x1000);
    ck_assert_int_eq(cpu_run(c1, CLK.now + 8), CPU_RAN);
    ck_assert(cpu_llbit(C));
    cpu_set_gpr(c1, A0, DATA_VA);
    ck_assert_int_eq(cpu_run(c1, CLK.now + 8), CPU_RAN);
    ck_assert(!cpu_llbit(C));
    cpu_set_gpr(C, V1, 5);
    ck_assert_int_eq(RUN(SC(V1, 0, A0)), CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0);
    ck_assert_uint_eq(peek(DATA_PA, 4), 1);
    cpu_jit_info_get(c1, &ji);
    if (ENGINE == CPU_ENGINE_JIT && cpu_engine_available(CPU_ENGINE_JIT))
        ck_assert_uint_eq(ji.interp_ticks, interp0); /* all of that translated */
    cpu_free(c1);
}
END_TEST

/* ---- Branches and delay slots ---------------------------------------------------- */

START_TEST(branches_and_delay_slots)
{
    cpu_set_gpr(C, A0, 1);
    int rc = RUN(BEQ(ZERO, ZERO, 3), ADDIU(V0, ZERO, 1), ADDIU(V1, ZERO, 1), ADDIU(V1, ZERO, 2),
                 ADDIU(T0, ZERO, 3), BNE(A0, ZERO, 1), ADDIU(T1, ZERO, 4), BLTZ(A0, 100),
                 ADDIU(T2, ZERO, 5));
    assert_end(rc, 9);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1); /* delay slot of a taken branch runs */
    ck_assert_uint_eq(cpu_gpr(C, V1), 0); /* skipped */
    ck_assert_uint_eq(cpu_gpr(C, T0), 3);
    ck_assert_uint_eq(cpu_gpr(C, T1), 4);
    ck_assert_uint_eq(cpu_gpr(C, T2), 5); /* delay slot of a branch not taken runs too */

    /* Likely: not taken nullifies the delay slot, taken runs it. */
    for (unsigned i = 0; i < 32; i++)
        cpu_set_gpr(C, i, 0);
    cpu_set_gpr(C, A0, 1);
    rc = RUN(BEQL(A0, ZERO, 10), ADDIU(V0, ZERO, 1), BNEL(A0, ZERO, 2), ADDIU(V1, ZERO, 2),
             ADDIU(T0, ZERO, 3), BLTZL(A0, 10), ADDIU(T1, ZERO, 4));
    assert_end(rc, 7);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0);
    ck_assert_uint_eq(cpu_gpr(C, V1), 2);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0);

    /* Calls and returns: JAL, JALR, BGEZAL link pc+8. */
    put(0x12000, (const uint32_t[]){JR(RA), ADDIU(V0, V0, 10)}, 2);
    cpu_set_gpr(C, V0, 0);
    cpu_set_gpr(C, A1, K0(0x12000));
    rc = RUN(JAL(0x12000), NOP, JALR(RA, A1), NOP, BGEZAL(ZERO, (0x12000 - CODE_PA - 20) / 4), NOP);
    assert_end(rc, 6);
    ck_assert_uint_eq(cpu_gpr(C, V0), 30);
    ck_assert_uint_eq(cpu_gpr(C, RA), CODE_VA + 24);
}
END_TEST

START_TEST(exception_in_delay_slot)
{
    int rc = RUN(NOP, BEQ(ZERO, ZERO, 5), SYSCALL);
    assert_exc(rc, VEC_GEN, 8, CODE_VA + 4);
    ck_assert(cause_bd());

    /* Not in a delay slot: BD clear. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    rc = RUN(BREAK);
    assert_exc(rc, VEC_GEN, 9, CODE_VA);
    ck_assert(!cause_bd());

    /* An address error in the delay slot of a branch not taken. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_gpr(C, A0, DATA_VA + 1);
    rc = RUN(NOP, NOP, BNE(ZERO, ZERO, 5), LW(V0, 0, A0));
    assert_exc(rc, VEC_GEN, 4, CODE_VA + 8);
    ck_assert(cause_bd());

    /* With EXL already set, EPC is kept. */
    cpu_set_cp0(C, CP0_EPC, 0x1234);
    rc = RUN(SYSCALL);
    assert_exc(rc, VEC_GEN, 8, 0x1234);
}
END_TEST

START_TEST(reserved_instructions)
{
    static const uint32_t ri[] = {
        0x70000002,                /* MUL (SPECIAL2): MIPS32, not on the R10000 */
        0x7c000000,                /* SPECIAL3 (EXT) */
        0x00200002 | (1 << 11),    /* ROTR */
        0xec000000,                /* opcode 0x3b */
        0x42000020,                /* WAIT */
        0x04100000 | (0x1f << 16), /* REGIMM rt=0x1f */
        0x00000005,                /* SPECIAL funct 5 */
    };
    for (unsigned i = 0; i < ARRAY_SIZE(ri); i++) {
        cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
        uint32_t prog[] = {ri[i]};
        int rc = run_prog(prog, 1);
        ck_assert_msg(exc_code() == 10, "insn %08x: code %u", ri[i], exc_code());
        assert_exc(rc, VEC_GEN, 10, CODE_VA);
    }
}
END_TEST

START_TEST(coprocessor_unusable)
{
    cpu_set_cp0(C, CP0_STATUS, S_KX | S_CU0);
    int rc = RUN(LDC1(2, 0, ZERO));
    assert_exc(rc, VEC_GEN, 11, CODE_VA);
    ck_assert_uint_eq((cpu_cp0(C, CP0_CAUSE) >> 28) & 3, 1);
    cpu_set_cp0(C, CP0_STATUS, S_KX | S_CU0);
    rc = RUN(0x48000000); /* COP2 */
    assert_exc(rc, VEC_GEN, 11, CODE_VA);
    ck_assert_uint_eq((cpu_cp0(C, CP0_CAUSE) >> 28) & 3, 2);
}
END_TEST

START_TEST(fp_loads_branches_movcc)
{
    set_pattern();
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | (1ull << 26)); /* FR=1 */
    cpu_set_gpr(C, A0, DATA_VA);
    cpu_set_gpr(C, A1, 8);
    cpu_set_fcsr(C, 1u << 26); /* cc 2 set, cc 0 clear */
    int rc = RUN(LDC1(2, 0, A0), LWC1(3, 8, A0), LDXC1(4, A1, A0), SDC1(2, 16, A0), SWC1(3, 24, A0),
                 SDXC1(4, A1, A0), BC1T(2, 2), NOP, ADDIU(V0, ZERO, 1), BC1T(0, 2), NOP,
                 ADDIU(V1, ZERO, 1), MOVT(T0, A1, 2), MOVF(T1, A1, 2), BC1TL(0, 5),
                 ADDIU(T2, ZERO, 1), PREFX(0, A1, A0));
    assert_end(rc, 17);
    ck_assert_uint_eq(cpu_fpr(C, 2), 0x8091a2b3c4d5e6f7ull);
    ck_assert_uint_eq(cpu_fpr(C, 3) & 0xffffffff, 0x08192a3b);
    ck_assert_uint_eq(cpu_fpr(C, 4), 0x08192a3b4c5d6e7full);
    ck_assert_uint_eq(peek(DATA_PA + 16, 8), 0x8091a2b3c4d5e6f7ull);
    ck_assert_uint_eq(peek(DATA_PA + 24, 4), 0x08192a3b);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0); /* BC1T on cc2 taken */
    ck_assert_uint_eq(cpu_gpr(C, V1), 1); /* BC1T on cc0 not taken */
    ck_assert_uint_eq(cpu_gpr(C, T0), 8);
    ck_assert_uint_eq(cpu_gpr(C, T1), 0);
    ck_assert_uint_eq(cpu_gpr(C, T2), 0); /* likely, not taken: slot nullified */
}
END_TEST

/* ---- TLB ------------------------------------------------------------------- */

#define ELO(pa, c, d, v, g) \
    ((((uint64_t)(pa) >> 12) << 6) | ((c) << 3) | ((d) << 2) | ((v) << 1) | (g))

/* A TLB refill handler: EntryLo0/1 from k0/k1, TLBWR, ERET. */
static void install_refill(uint64_t pa)
{
    static const uint32_t h[] = {
        DMTC0(K0, CP0_ENTRYLO0), DMTC0(K1, CP0_ENTRYLO1), NOP, TLBWR, NOP, ERET};
    put(pa, h, ARRAY_SIZE(h));
}

START_TEST(tlb_refill_xtlb_vector)
{
    const uint64_t uva = 0x10000000ull; /* user code/data page pair */
    const uint32_t user[] = {LW(V0, 0x1000, A0), ADDIU(V0, V0, 1), SW(V0, 0x1004, A0)};
    /* user code at PA 0x200000 (even page), data at 0x201000 (odd page) */
    put(0x200000, user, 3);
    poke(0x201000, 4, 41);
    install_refill(0x80);
    install_refill(0x000);
    cpu_bp_remove(C, VEC_XTLB);
    cpu_bp_insert(C, VEC_XTLB + 4 * 5); /* at the ERET: look at the state */
    cpu_set_gpr(C, K0, ELO(0x200000, 3, 1, 1, 0));
    cpu_set_gpr(C, K1, ELO(0x201000, 3, 1, 1, 0));
    cpu_set_cp0(C, CP0_ENTRYHI, 0x42); /* ASID 0x42 */
    cpu_set_cp0(C, CP0_XCONTEXT, 0xabcull << 40);
    cpu_set_cp0(C, CP0_STATUS, S_UX | S_USER | S_CU1);
    cpu_set_gpr(C, A0, uva);
    cpu_set_pc(C, uva);
    int rc = cpu_run(C, CLK.now + 1000);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_XTLB + 20);
    ck_assert_uint_eq(exc_code(), 2); /* TLBL on the fetch */
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), uva);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), uva);
    ck_assert_uint_eq(cpu_cp0(C, CP0_ENTRYHI), uva | 0x42);
    ck_assert_uint_eq(cpu_cp0(C, CP0_XCONTEXT), (0xabcull << 40) | ((uva >> 13) << 4));
    ck_assert_uint_eq(cpu_cp0(C, CP0_CONTEXT) & 0x7fffff, (uva >> 13) << 4 & 0x7fffff);
    /* Finish: the user program runs, loads 41 through the odd page, stores 42. */
    cpu_bp_insert(C, uva + 12);
    cpu_step_over_bp(C);
    rc = cpu_run(C, CLK.now + 1000);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), uva + 12);
    ck_assert_uint_eq(cpu_gpr(C, V0), 42);
    ck_assert_uint_eq(peek(0x201004, 4), 42);

    /* A different ASID misses again; UX clear uses the 32-bit vector. */
    cpu_set_cp0(C, CP0_ENTRYHI, 0x43);
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_CU1);
    cpu_set_pc(C, uva);
    rc = cpu_run(C, CLK.now + 1000);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_TLB);
    ck_assert_uint_eq(exc_code(), 2);
}
END_TEST

START_TEST(tlb_modified_invalid_and_probe)
{
    /* Entry 5: kernel-mapped xkseg page pair, even page clean, odd invalid. */
    const uint64_t va = 0xc000000000100000ull;
    cpu_set_cp0(C, CP0_ENTRYHI, va | 7);
    cpu_set_cp0(C, CP0_ENTRYLO0, ELO(0x300000, 3, 0, 1, 0));
    cpu_set_cp0(C, CP0_ENTRYLO1, ELO(0x301000, 3, 1, 0, 0));
    cpu_set_cp0(C, CP0_PAGEMASK, 0);
    cpu_set_cp0(C, CP0_INDEX, 5);
    poke(0x300010, 8, 0x5a5a);
    cpu_set_gpr(C, A0, va);
    int rc = RUN(TLBWI, LD(V0, 0x10, A0), SD(V0, 0x18, A0));
    assert_exc(rc, VEC_GEN, 1, CODE_VA + 8); /* Mod */
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x5a5a);
    ck_assert_uint_eq(cpu_cp0(C, CP0_BADVADDR), va + 0x18);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    rc = RUN(LD(V0, 0x1000, A0));
    assert_exc(rc, VEC_GEN, 2, CODE_VA); /* TLBL invalid: general vector */
    /* TLBP finds entry 5; TLBR reads it back. */
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_cp0(C, CP0_ENTRYHI, va | 7);
    cpu_set_cp0(C, CP0_ENTRYLO0, 0);
    rc = RUN(TLBP, NOP, TLBR);
    assert_end(rc, 3);
    ck_assert_uint_eq(cpu_cp0(C, CP0_INDEX), 5);
    ck_assert_uint_eq(cpu_cp0(C, CP0_ENTRYLO0), ELO(0x300000, 3, 0, 1, 0));
    cpu_set_cp0(C, CP0_ENTRYHI, 0x1234000);
    rc = RUN(TLBP);
    assert_end(rc, 1);
    ck_assert_uint_eq(cpu_cp0(C, CP0_INDEX) >> 31, 1);
    /* 16 MB pages through PageMask, and cpu_translate sees them. */
    cpu_set_cp0(C, CP0_PAGEMASK, 0x1ffe000);
    cpu_set_cp0(C, CP0_ENTRYHI, 0xc000000040000000ull);
    cpu_set_cp0(C, CP0_ENTRYLO0, ELO(0x0, 2, 1, 1, 1));
    cpu_set_cp0(C, CP0_ENTRYLO1, ELO(0x1000000, 3, 1, 1, 1));
    cpu_set_cp0(C, CP0_INDEX, 9);
    rc = RUN(TLBWI);
    assert_end(rc, 1);
    uint64_t ba;
    ck_assert_int_eq(cpu_translate(C, 0xc000000040abcdefull, false, &ba), 0);
    ck_assert_uint_eq(ba, BUS_UNC(0, 0xabcdef));
    ck_assert_int_eq(cpu_translate(C, 0xc000000041abcdefull, true, &ba), 0);
    ck_assert_uint_eq(ba, BUS_CAC(0x1abcdef));
    ck_assert_int_eq(cpu_translate(C, 0xc000000042000000ull, false, &ba), -1);

    /* Remapping a page with TLBWI drops the soft TLB entries of the old one. */
    poke(0x302010, 8, 0x7777);
    cpu_set_cp0(C, CP0_PAGEMASK, 0);
    cpu_set_cp0(C, CP0_ENTRYHI, va | 7);
    cpu_set_cp0(C, CP0_ENTRYLO0, ELO(0x302000, 3, 1, 1, 0));
    cpu_set_cp0(C, CP0_ENTRYLO1, 0);
    cpu_set_cp0(C, CP0_INDEX, 5);
    cpu_set_gpr(C, V1, 0);
    rc = RUN(LD(V1, 0x10, A0), TLBWI, LD(V0, 0x10, A0));
    assert_end(rc, 3);
    ck_assert_uint_eq(cpu_gpr(C, V1), 0x5a5a);
    ck_assert_uint_eq(cpu_gpr(C, V0), 0x7777);
}
END_TEST

START_TEST(tlbwr_random_and_wired)
{
    cpu_set_cp0(C, CP0_WIRED, 60);
    for (int i = 0; i < 10; i++) {
        unsigned r = (unsigned)cpu_cp0(C, CP0_RANDOM);
        ck_assert_uint_ge(r, 60);
        ck_assert_uint_le(r, 63);
        cpu_set_cp0(C, CP0_ENTRYHI, 0x10000000ull + ((uint64_t)i << 13));
        cpu_set_cp0(C, CP0_ENTRYLO0, ELO(0x200000, 3, 1, 1, 0));
        ck_assert_int_eq(RUN(TLBWR, NOP), CPU_BREAK);
    }
    unsigned seen = 0;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t hi, lo0, lo1, mask;
        ck_assert_int_eq(cpu_tlb_get(C, i, &hi, &lo0, &lo1, &mask), 0);
        if (lo0 & 2) {
            ck_assert_uint_ge(i, 60);
            seen++;
        }
    }
    ck_assert_uint_ge(seen, 1);
    ck_assert_uint_eq(cpu_cp0(C, CP0_PRID), 0x926);
    uint64_t cfg = cpu_cp0(C, CP0_CONFIG);
    ck_assert_uint_eq((cfg >> 29) & 7, 3); /* 32 KB I */
    ck_assert_uint_eq((cfg >> 26) & 7, 3); /* 32 KB D */
    ck_assert_uint_eq((cfg >> 16) & 7, 1); /* 1 MB secondary */
}
END_TEST

START_TEST(user_mode_rules)
{
    /* Map user page 0x10000000 -> PA 0x200000 with a TLB entry. */
    ck_assert_int_eq(
        cpu_tlb_set(C, 0, 0x10000000, ELO(0x200000, 3, 1, 1, 1), ELO(0x201000, 3, 1, 1, 1), 0), 0);
    put(0x200000, (const uint32_t[]){DSLL(V0, V0, 1)}, 1);
    cpu_set_cp0(C, CP0_STATUS, S_USER); /* UX clear: 64-bit ops are reserved */
    cpu_set_pc(C, 0x10000000);
    int rc = cpu_run(C, CLK.now + 100);
    assert_exc(rc, VEC_GEN, 10, 0x10000000);
    /* With UX they are fine. */
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_UX);
    cpu_set_gpr(C, V0, 1ull << 40);
    cpu_bp_insert(C, 0x10000004);
    cpu_set_pc(C, 0x10000000);
    rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1ull << 41);
    cpu_bp_remove(C, 0x10000004);
    /* MIPS IV instructions in user mode need Status.XX. */
    put(0x200000, (const uint32_t[]){MOVN(V0, V1, V1)}, 1);
    cpu_set_gpr(C, V1, 5);
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_UX);
    cpu_set_pc(C, 0x10000000);
    rc = cpu_run(C, CLK.now + 100);
    assert_exc(rc, VEC_GEN, 10, 0x10000000);
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_UX | (1ull << 31));
    cpu_bp_insert(C, 0x10000004);
    cpu_set_pc(C, 0x10000000);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V0), 5);
    cpu_bp_remove(C, 0x10000004);
    /* User access to KSEG0 and CP0 use are refused. */
    put(0x200000, (const uint32_t[]){LW(V0, 0, A0), MFC0(V0, CP0_STATUS)}, 2);
    cpu_set_gpr(C, A0, DATA_VA);
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_UX);
    cpu_set_pc(C, 0x10000000);
    rc = cpu_run(C, CLK.now + 100);
    assert_exc(rc, VEC_GEN, 4, 0x10000000);
    cpu_set_cp0(C, CP0_STATUS, S_USER | S_UX);
    cpu_set_pc(C, 0x10000004);
    rc = cpu_run(C, CLK.now + 100);
    assert_exc(rc, VEC_GEN, 11, 0x10000004);
}
END_TEST

/* ---- Interrupts and the timer -------------------------------------------------------- */

START_TEST(interrupt_ip2)
{
    static const uint32_t loop[] = {BEQ(ZERO, ZERO, -1), NOP};
    put(CODE_PA, loop, 2);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IE | (1ull << 10) /* IM2 */);
    cpu_set_pc(C, CODE_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_RAN);
    cpu_set_irq(C, 3, true); /* masked */
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_RAN);
    cpu_set_irq(C, 2, true);
    ck_assert_uint_eq(cpu_cp0(C, CP0_CAUSE) & 0xff00, 0x0c00);
    int rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_GEN);
    ck_assert_uint_eq(exc_code(), 0);
    uint64_t epc = cpu_cp0(C, CP0_EPC);
    ck_assert(epc == CODE_VA || epc == CODE_VA + 4);
    ck_assert(!(epc == CODE_VA + 4) || cause_bd() == false);
    /* Lowered: no more interrupt. */
    cpu_set_irq(C, 2, false);
    cpu_set_irq(C, 3, false);
    ck_assert_uint_eq(cpu_cp0(C, CP0_CAUSE) & 0xff00, 0);
}
END_TEST

START_TEST(interrupt_in_delay_slot)
{
    static const uint32_t loop[] = {BEQ(ZERO, ZERO, -1), NOP};
    put(CODE_PA, loop, 2);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IE | (1ull << 10));
    cpu_set_pc(C, CODE_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1), CPU_RAN); /* just the branch */
    ck_assert(cpu_in_delay_slot(C));
    ck_assert_uint_eq(cpu_pc(C), CODE_VA + 4);
    ck_assert_uint_eq(cpu_delay_target(C), CODE_VA);
    cpu_set_irq(C, 2, true);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_GEN);
    ck_assert_uint_eq(exc_code(), 0);
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), CODE_VA);
    ck_assert(cause_bd());
    cpu_set_irq(C, 2, false);
}
END_TEST

START_TEST(perf_counters)
{
    static const uint32_t loop[] = {BEQ(ZERO, ZERO, -1), NOP};
    put(CODE_PA, loop, 2);
    cpu_set_cp0_sel(C, 25, 0, (0u << 5) | 2); /* counter 0: cycles, kernel */
    cpu_set_cp0_sel(C, 25, 1, 0);
    cpu_set_cp0_sel(C, 25, 2, (5u << 5) | 2); /* counter 1: an event we do not count */
    cpu_set_pc(C, CODE_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_RAN);
    ck_assert_uint_eq(cpu_cp0_sel(C, 25, 1), 1000);
    ck_assert_uint_eq(cpu_cp0_sel(C, 25, 3), 0);
    ck_assert_uint_eq(cpu_cp0_sel(C, 25, 0), 2);
}
END_TEST

START_TEST(count_compare_timer)
{
    static const uint32_t loop[] = {BEQ(ZERO, ZERO, -1), NOP};
    put(CODE_PA, loop, 2);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_set_pc(C, CODE_VA);
    uint64_t c0 = cpu_cp0(C, CP0_COUNT);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_RAN);
    ck_assert_uint_eq(cpu_cp0(C, CP0_COUNT) - c0, 50); /* one Count tick per 2 instructions */
    cpu_set_cp0(C, CP0_COMPARE, cpu_cp0(C, CP0_COUNT) + 30);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IE | (1ull << 15) /* IM7 */);
    uint64_t start = cpu_retired(C);
    int rc = cpu_run(C, CLK.now + 1000);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_GEN);
    ck_assert_uint_eq(exc_code(), 0);
    ck_assert(cpu_cp0(C, CP0_CAUSE) & (1ull << 15));
    uint64_t took = cpu_retired(C) - start;
    ck_assert_uint_ge(took, 59);
    ck_assert_uint_le(took, 62);
    /* Writing Compare acknowledges. */
    cpu_set_cp0(C, CP0_COMPARE, 0);
    ck_assert(!(cpu_cp0(C, CP0_CAUSE) & (1ull << 15)));
}
END_TEST

START_TEST(nmi_and_reset)
{
    cpu_set_pc(C, CODE_VA + 0x40);
    cpu_nmi(C);
    ck_assert_uint_eq(cpu_pc(C), 0xffffffffbfc00000ull);
    ck_assert_uint_eq(cpu_cp0(C, CP0_ERROREPC), CODE_VA + 0x40);
    uint64_t st = cpu_cp0(C, CP0_STATUS);
    ck_assert(st & S_ERL);
    ck_assert(st & S_BEV);
    ck_assert(st & S_NMI);
    cpu_reset(C);
    st = cpu_cp0(C, CP0_STATUS);
    ck_assert(st & S_ERL);
    ck_assert(st & S_BEV);
    ck_assert(!(st & S_NMI));
    ck_assert_uint_eq(cpu_pc(C), 0xffffffffbfc00000ull);
    /* BEV vectors: a syscall goes to 0xbfc00380. */
    put_bus(BUS_UNC(0, 0x1fc00000), (const uint32_t[]){SYSCALL}, 1);
    cpu_set_cp0(C, CP0_STATUS, S_BEV | S_KX);
    cpu_bp_insert(C, 0xffffffffbfc00380ull);
    ck_assert_int_eq(cpu_run(C, CLK.now + 10), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), 0xffffffffbfc00380ull);
    ck_assert_uint_eq(exc_code(), 8);
}
END_TEST

/* ---- Debugger features ------------------------------------------------------- */

START_TEST(breakpoints_and_step_over)
{
    static const uint32_t p[] = {ADDIU(V0, ZERO, 1), ADDIU(V0, V0, 1), ADDIU(V0, V0, 1)};
    put(CODE_PA, p, 3);
    cpu_bp_insert(C, CODE_VA + 4);
    cpu_bp_insert(C, CODE_VA + 12);
    cpu_set_pc(C, CODE_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), CODE_VA + 4);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1);
    /* Running again without step-over stops at once. */
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1);
    cpu_step_over_bp(C);
    ck_assert_int_eq(cpu_run(C, CLK.now + 100), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), CODE_VA + 12);
    ck_assert_uint_eq(cpu_gpr(C, V0), 3);
    ck_assert_int_eq(cpu_bp_remove(C, CODE_VA + 4), 0);
    ck_assert_int_eq(cpu_bp_remove(C, CODE_VA + 4), -1);
    /* Time limit */
    put(CODE_PA, (const uint32_t[]){BEQ(ZERO, ZERO, -1), NOP}, 2);
    cpu_set_pc(C, CODE_VA);
    uint64_t t0 = CLK.now;
    ck_assert_int_eq(cpu_run(C, t0 + 1000), CPU_RAN);
    ck_assert_uint_eq(CLK.now, t0 + 1000);
}
END_TEST

START_TEST(watchpoints)
{
    cpu_set_gpr(C, A0, DATA_VA);
    cpu_set_gpr(C, A1, 0xabcd);
    int id = cpu_wp_insert(C, DATA_VA + 8, 4, WATCH_WRITE);
    ck_assert_int_gt(id, 0);
    static const uint32_t p[] = {SW(A1, 0, A0), LW(V0, 8, A0), SH(A1, 10, A0), ADDIU(V1, ZERO, 1)};
    put(CODE_PA, p, 4);
    cpu_set_pc(C, CODE_VA);
    int rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_WATCH);
    const cpu_watch_hit *h = cpu_watch_hit_info(C);
    ck_assert_int_eq(h->id, id);
    ck_assert_uint_eq(h->vaddr, DATA_VA + 10);
    ck_assert_uint_eq(h->bus_addr, BUS_CAC(DATA_PA + 10));
    ck_assert(h->write);
    ck_assert_uint_eq(h->size, 2);
    ck_assert_uint_eq(h->value, 0xabcd);
    ck_assert_uint_eq(h->pc, CODE_VA + 8);
    ck_assert_uint_eq(cpu_pc(C), CODE_VA + 12); /* reported after the access */
    ck_assert_uint_eq(peek(DATA_PA + 10, 2), 0xabcd);
    cpu_wp_remove(C, id);
    id = cpu_wp_insert(C, DATA_VA + 8, 4, WATCH_READ);
    cpu_set_pc(C, CODE_VA);
    rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_WATCH);
    h = cpu_watch_hit_info(C);
    ck_assert(!h->write);
    ck_assert_uint_eq(h->pc, CODE_VA + 4);
    ck_assert_uint_eq(h->vaddr, DATA_VA + 8);
}
END_TEST

static int hle_calls;
static void hle_fn(void *ctx, cpu *c)
{
    hle_calls++;
    cpu_set_gpr(c, V0, (uint64_t)(uintptr_t)ctx);
}

static int bus_hook_reads;
static void bus_hook(void *ctx, const bus_op *op)
{
    (void)ctx;
    if (!op->write)
        bus_hook_reads++;
}

START_TEST(bus_page_flags_reach_the_cpu)
{
    /* A physical read watch (PF_WATCH_R) set after the CPU cached the page,
     * even with flags_changed taken over by someone else. */
    set_pattern();
    cpu_set_gpr(C, A0, DATA_VA);
    ck_assert_int_eq(RUN(LW(V0, 0, A0), LW(V0, 0, A0)), CPU_BREAK);
    B.flags_changed = NULL;
    B.hook = bus_hook;
    bus_hook_reads = 0;
    ram_page_flags_set(&B, RB, DATA_PA, 4, PF_WATCH_R);
    ck_assert_int_eq(RUN(LW(V0, 0, A0), LW(V0, 4, A0)), CPU_BREAK);
    ck_assert_int_eq(bus_hook_reads, 2);
    ram_page_flags_clear(&B, RB, DATA_PA, 4, PF_WATCH_R);
    ck_assert_int_eq(RUN(LW(V0, 0, A0), LW(V0, 4, A0)), CPU_BREAK);
    ck_assert_int_eq(bus_hook_reads, 2); /* unwatched again: no more hook calls */
    B.hook = NULL;
}
END_TEST

START_TEST(hle_hook)
{
    ck_assert_int_eq(cpu_hle_register(C, K0(0x30000), hle_fn, (void *)(uintptr_t)41), 0);
    hle_calls = 0;
    int rc = RUN(JAL(0x30000), NOP, ADDIU(V1, V0, 1));
    assert_end(rc, 3);
    ck_assert_int_eq(hle_calls, 1);
    ck_assert_uint_eq(cpu_gpr(C, V1), 42);
}
END_TEST

static unsigned traced;
static uint32_t last_traced;
static void trace_fn(void *ctx, cpu *c, uint64_t pc, uint32_t insn)
{
    (void)ctx;
    (void)c;
    (void)pc;
    traced++;
    last_traced = insn;
}

START_TEST(trace_hook_and_events)
{
    traced = 0;
    cpu_set_trace(C, trace_fn, NULL);
    int rc = RUN(NOP, ADDIU(V0, ZERO, 5), NOP);
    assert_end(rc, 3);
    ck_assert_uint_eq(traced, 3);
    cpu_set_trace(C, NULL, NULL);
    rc = RUN(NOP, ADDIU(V0, ZERO, 5), NOP);
    assert_end(rc, 3);
    ck_assert_uint_eq(traced, 3);
    ck_assert_ptr_nonnull(event_find(&EB, "cpu0.exception"));
    ck_assert_ptr_nonnull(event_find(&EB, "cpu0.irq"));
    ck_assert_ptr_nonnull(event_find(&EB, "cpu0.eret"));
}
END_TEST

static uint64_t ev_code = 99, ev_pc;
static void on_exc(void *ctx, const event *ev)
{
    (void)ctx;
    ev_code = ev->vals[1];
    ev_pc = ev->vals[2];
}

START_TEST(exception_event)
{
    event_subscribe(cpu_event(C, CPU_EV_EXCEPTION), on_exc, NULL);
    int rc = RUN(NOP, SYSCALL);
    assert_exc(rc, VEC_GEN, 8, CODE_VA + 4);
    ck_assert_uint_eq(ev_code, 8);
    ck_assert_uint_eq(ev_pc, CODE_VA + 4);
    strbuf sb;
    sb_init(&sb);
    cpu_show_regs(C, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "Sys"));
    ck_assert_ptr_nonnull(strstr(sb.s, "EXL"));
    sb_free(&sb);
}
END_TEST

START_TEST(self_modifying_code)
{
    /* The store rewrites the instruction two slots ahead. */
    cpu_set_gpr(C, A0, CODE_VA);
    cpu_set_gpr(C, A1, ADDIU(V0, ZERO, 1));
    int rc = RUN(SW(A1, 8, A0), NOP, ADDIU(V0, ZERO, 1), NOP);
    assert_end(rc, 4);
    cpu_bp_insert(C, CODE_VA + 16);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1);
    cpu_set_gpr(C, A1, ADDIU(V0, ZERO, 2));
    cpu_set_pc(C, CODE_VA);
    rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V0), 2);
    /* A DMA write into decoded code is seen too. */
    ck_assert_int_eq(bus_write(&B, DMA, BUS_CAC(CODE_PA + 8), 4, ADDIU(V0, ZERO, 3)), BUS_OK);
    cpu_set_gpr(C, A1, ADDIU(V0, ZERO, 3));
    cpu_set_pc(C, CODE_VA + 4);
    rc = cpu_run(C, CLK.now + 100);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(cpu_gpr(C, V0), 3);
}
END_TEST

START_TEST(debugger_memory_access)
{
    set_pattern();
    uint8_t buf[16];
    ck_assert_uint_eq(cpu_read_virt(C, DATA_VA, buf, 16), 16);
    ck_assert_int_eq(memcmp(buf, pattern, 16), 0);
    ck_assert_uint_eq(cpu_write_virt(C, XK_CAC(DATA_PA + 4), "\x01\x02", 2), 2);
    ck_assert_uint_eq(peek(DATA_PA + 4, 2), 0x0102);
    /* MMIO is not touched; unmapped user addresses fail. */
    ck_assert_uint_eq(cpu_read_virt(C, 0x9200000000000000ull | MMIO_PA, buf, 4), 0);
    ck_assert_uint_eq(PR.reads, 0);
    ck_assert_uint_eq(cpu_read_virt(C, 0x20000000, buf, 4), 0);
}
END_TEST

START_TEST(cp0_watch_exception)
{
    cpu_set_cp0(C, CP0_WATCHLO, (DATA_PA + 0x20) | 1); /* W */
    cpu_set_cp0(C, CP0_WATCHHI, 0);
    cpu_set_gpr(C, A0, DATA_VA);
    int rc = RUN(SW(A0, 0x20, A0), NOP);
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(exc_code(), 23);
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), CODE_VA);
}
END_TEST

/* ---- Names and disassembly ---------------------------------------------------------- */

START_TEST(names)
{
    ck_assert_int_eq(cpu_gpr_lookup("a0"), 4);
    ck_assert_int_eq(cpu_gpr_lookup("r4"), 4);
    ck_assert_int_eq(cpu_gpr_lookup("$4"), 4);
    ck_assert_int_eq(cpu_gpr_lookup("$a4"), 8);
    ck_assert_int_eq(cpu_gpr_lookup("t0"), 12);
    ck_assert_int_eq(cpu_gpr_lookup("fp"), 30);
    ck_assert_int_eq(cpu_gpr_lookup("s8"), 30);
    ck_assert_int_eq(cpu_gpr_lookup("ra"), 31);
    ck_assert_int_eq(cpu_gpr_lookup("r32"), -1);
    ck_assert_int_eq(cpu_gpr_lookup("bogus"), -1);
    ck_assert_int_eq(cpu_cp0_lookup("status"), 12);
    ck_assert_int_eq(cpu_cp0_lookup("ErrorEPC"), 30);
    ck_assert_int_eq(cpu_cp0_lookup("nope"), -1);
    ck_assert_str_eq(cpu_gpr_names[29], "sp");
    ck_assert_str_eq(cpu_cp0_names[13], "Cause");
}
END_TEST

START_TEST(disassembly)
{
    char buf[256];
    symtab st;
    symtab_init(&st);
    symtab_add(&st, "start_kernel", 0xffffffff80012000ull, 0x100, 'T');
    symtab_sort(&st);
    cpu_disasm(CODE_VA, LW(A6, 4, A4), &st, buf, sizeof buf);
    ck_assert_str_eq(buf, "lw a6, 4(a4)");
    cpu_disasm(CODE_VA, JAL(0x12008), &st, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "jal"));
    ck_assert_ptr_nonnull(strstr(buf, "<start_kernel+0x8>"));
    cpu_disasm(CODE_VA, BEQ(A0, A1, -1), NULL, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "0xffffffff80010000"));
    cpu_disasm(CODE_VA, MFC0(T0, CP0_STATUS), NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "mfc0 t0, Status");
    cpu_disasm(CODE_VA, PREFX(1, A1, A0), NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "prefx 1, a1(a0)");
    cpu_disasm(CODE_VA, LDXC1(2, A1, A0), NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "ldxc1 $f2, a1(a0)");
    cpu_disasm(CODE_VA, 0x70000002, NULL, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "reserved"));
    cpu_disasm(CODE_VA, 0x46000855, NULL, buf, sizeof buf); /* Capstone 4 lacks RECIP */
    ck_assert_str_eq(buf, "recip.s $f1, $f1");
    cpu_disasm(CODE_VA, 0x46020a32, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "c.eq.s $fcc2, $f1, $f2");
    cpu_disasm(CODE_VA, 0x4c4200a1, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "madd.d $f2, $f2, $f0, $f2");
    cpu_disasm(CODE_VA, DSLL32(V0, V1, 4), NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "dsll32 v0, v1, 4");
    /* Every word gives some text. */
    for (uint32_t w = 0; w < 64; w++) {
        cpu_disasm(CODE_VA, (w << 26) | 0x12345, &st, buf, sizeof buf);
        ck_assert_uint_gt(strlen(buf), 0);
    }
    symtab_free(&st);
}
END_TEST

static Suite *cpu_suite(void)
{
    Suite *s = suite_create("cpu");
    check_add_tests(
        check_case(s, "cpu", setup, teardown, 0), arith_32bit_sign_extension, arith_overflow_traps,
        arith_shifts_64, arith_mul_div, arith_compare_and_moves, traps,
        unaligned_loads_every_alignment, unaligned_stores_every_alignment, loads_stores_basic,
        address_errors, xkphys_attributes_reach_the_bus, bus_errors, llsc_success_and_failure,
        llsc_other_cpu_fast_store, llsc_other_cpu_fast_store_in_a_loop, branches_and_delay_slots,
        exception_in_delay_slot, reserved_instructions, coprocessor_unusable,
        fp_loads_branches_movcc, tlb_refill_xtlb_vector, tlb_modified_invalid_and_probe,
        tlbwr_random_and_wired, user_mode_rules, interrupt_ip2, interrupt_in_delay_slot,
        perf_counters, count_compare_timer, nmi_and_reset, breakpoints_and_step_over, watchpoints,
        bus_page_flags_reach_the_cpu, hle_hook, trace_hook_and_events, exception_event,
        self_modifying_code, debugger_memory_access, cp0_watch_exception, names, disassembly);
    return s;
}

/* Every test runs with each engine the host has. */
int main(void) { return check_run_engines(cpu_suite, &ENGINE) ? EXIT_FAILURE : EXIT_SUCCESS; }
