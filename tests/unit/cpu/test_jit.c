/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the translator (src/cpu/jit*.c): two CPUs on two buses run
 * the same code, one interpreted and one translated, in the same
 * pseudo-random steps, and must have the same instruction count, registers,
 * CP0 state and memory after every step.  The cases are what a translator
 * gets wrong: code that rewrites itself (the next instruction, a block it
 * is in, a delay slot's branch target from the delay slot), DMA into code
 * from a device the code pokes, jumps into the middle of a translated
 * block, executing random data, unaligned pcs, code in uncached space,
 * timer interrupts, and the debugger's features on a translated page
 * (breakpoints inserted from an event callback, watchpoints, the trace
 * hook, single steps). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "cpu_asm.h"
#include "../check_run.h"
#include "../../xorshift.h"

#define RAM_SIZE (4u << 20)
#define KSEG0(pa) (0xffffffff80000000ull + (pa))
#define KSEG1(pa) (0xffffffffa0000000ull + (pa))
#define MMIO_PA 0x01000000ull
#define S_IE 0x1ull
#define S_KERNEL64 (0x80ull | 0x40ull | 0x20ull | (1ull << 28) | (1ull << 29))
#define CP0_COUNT 9
#define CP0_COMPARE 11
#define CP0_STATUS 12
#define CP0_CAUSE 13
#define CP0_EPC 14
#define GP 28 /* the data base register of the tests: KSEG0(0) */
#define T4 16 /* s0: the device's kseg1 address */
#define S7 23

typedef struct twin {
    bus B;
    sched CLK;
    event_bus EB;
    cpu *c;
    uint64_t dma_pa;   /* where the device's DMA writes */
    uint32_t dma_word; /* what it writes */
} twin;

static twin T[2]; /* 0 interpreter, 1 translator */
static uint64_t rng_s;

static uint64_t rnd(void) { return xorshift64(&rng_s); }

/* A device: a write to offset 0 copies dma_word to dma_pa by DMA (through
 * the bus, as a NIC's would), a write to offset 8 asks the CPU to stop. */
static int dev_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    *val = 0x1234;
    return BUS_OK;
}
static int dev_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    twin *t = o;
    if (off == 0) {
        uint8_t b[4] = {(uint8_t)(t->dma_word >> 24), (uint8_t)(t->dma_word >> 16),
                        (uint8_t)(t->dma_word >> 8), (uint8_t)t->dma_word};
        bus_poke(&t->B, BUS_CAC(t->dma_pa), b, 4);
    } else if (off == 8) {
        cpu_request_exit(t->c);
    }
    return BUS_OK;
}
static const mmio_ops dev_ops = {dev_read, dev_write};

static void setup(void)
{
    rng_s = 0x9e3779b97f4a7c15ull;
    for (int e = 0; e < 2; e++) {
        twin *t = &T[e];
        memset(t, 0, sizeof *t);
        bus_init(&t->B);
        sched_init(&t->CLK, 0);
        event_bus_init(&t->EB, &t->CLK.now);
        ram_block *rb = ram_block_new(&t->B, "ram", RAM_SIZE);
        ck_assert_ptr_nonnull(rb);
        ck_assert_int_eq(bus_map_ram(&t->B, "cac", BUS_CAC(0), RAM_SIZE, rb, 0, false), 0);
        ck_assert_int_eq(bus_map_ram(&t->B, "unc", BUS_UNC(0, 0), RAM_SIZE, rb, 0, false), 0);
        ck_assert_int_eq(bus_map_mmio(&t->B, "dev", BUS_UNC(0, MMIO_PA), 0x1000, &dev_ops, t), 0);
        t->c = cpu_new(0, &t->B, &t->CLK, &t->EB);
        ck_assert_ptr_nonnull(t->c);
        ck_assert_int_eq(cpu_set_engine(t->c, e ? CPU_ENGINE_JIT : CPU_ENGINE_INTERP), 0);
        cpu_set_cp0(t->c, CP0_STATUS, S_KERNEL64);
        cpu_set_gpr(t->c, GP, KSEG0(0));
    }
}

static void teardown(void)
{
    for (int e = 0; e < 2; e++) {
        cpu_free(T[e].c);
        event_bus_free(&T[e].EB);
        bus_free(&T[e].B);
    }
}

static void put(uint64_t pa, const uint32_t *w, unsigned n)
{
    for (int e = 0; e < 2; e++)
        ck_assert_int_eq(asm_poke(&T[e].B, BUS_CAC(pa), w, n), BUS_OK);
}

static void set_pc(uint64_t pc)
{
    for (int e = 0; e < 2; e++)
        cpu_set_pc(T[e].c, pc);
}

static void set_gpr(unsigned r, uint64_t v)
{
    for (int e = 0; e < 2; e++)
        cpu_set_gpr(T[e].c, r, v);
}

/* Both CPUs the same?  Fails the test with the first difference. */
static void check_same(const char *when, uint64_t step)
{
    cpu *a = T[0].c, *b = T[1].c;
    char w[96];
    snprintf(w, sizeof w, "%s (step %llu)", when, (unsigned long long)step);
    ck_assert_msg(cpu_retired(a) == cpu_retired(b), "%s: instructions %llu / %llu", w,
                  (unsigned long long)cpu_retired(a), (unsigned long long)cpu_retired(b));
    ck_assert_msg(cpu_pc(a) == cpu_pc(b), "%s: pc %llx / %llx", w, (unsigned long long)cpu_pc(a),
                  (unsigned long long)cpu_pc(b));
    ck_assert_msg(cpu_in_delay_slot(a) == cpu_in_delay_slot(b), "%s: delay slot", w);
    if (cpu_in_delay_slot(a))
        ck_assert_msg(cpu_delay_target(a) == cpu_delay_target(b), "%s: delay target", w);
    for (unsigned i = 0; i < 32; i++) {
        ck_assert_msg(cpu_gpr(a, i) == cpu_gpr(b, i), "%s: $%s %llx / %llx", w, cpu_gpr_names[i],
                      (unsigned long long)cpu_gpr(a, i), (unsigned long long)cpu_gpr(b, i));
        ck_assert_msg(cpu_cp0(a, i) == cpu_cp0(b, i), "%s: CP0 %s %llx / %llx", w, cpu_cp0_names[i],
                      (unsigned long long)cpu_cp0(a, i), (unsigned long long)cpu_cp0(b, i));
    }
    ck_assert_msg(cpu_hi(a) == cpu_hi(b) && cpu_lo(a) == cpu_lo(b), "%s: hi/lo", w);
    static uint8_t ma[1 << 16], mb[1 << 16];
    ck_assert_int_eq(bus_peek(&T[0].B, BUS_CAC(0), ma, sizeof ma), BUS_OK);
    ck_assert_int_eq(bus_peek(&T[1].B, BUS_CAC(0), mb, sizeof mb), BUS_OK);
    ck_assert_msg(memcmp(ma, mb, sizeof ma) == 0, "%s: memory below 64 KB differs", w);
}

/* Run both `total` instructions in random steps (1 to max), comparing after
 * each; both must stop for the same reason each time.  Returns how many
 * steps ended early (a stop other than the budget). */
static unsigned run_both(uint64_t total, uint64_t max, const char *what)
{
    uint64_t done = 0, step = 0;
    unsigned early = 0;
    while (done < total) {
        uint64_t n = 1 + rnd() % max;
        if (n > total - done)
            n = total - done;
        int r[2];
        for (int e = 0; e < 2; e++)
            r[e] = cpu_run(T[e].c, T[e].CLK.now + n);
        ck_assert_msg(r[0] == r[1], "%s: stop %d / %d at step %llu", what, r[0], r[1],
                      (unsigned long long)step);
        check_same(what, step);
        if (r[0] != CPU_RAN)
            early++;
        done += n;
        step++;
    }
    cpu_jit_info ji;
    cpu_jit_info_get(T[1].c, &ji);
    uint64_t all = cpu_retired(T[1].c);
    printf("  %s: %llu steps, %.1f%% of %llu instructions translated, %llu blocks, %llu dropped\n",
           what, (unsigned long long)step,
           all ? 100.0 * (double)(all - ji.interp_ticks) / (double)all : 0.0,
           (unsigned long long)all, (unsigned long long)ji.blocks,
           (unsigned long long)ji.invalidated);
    return early;
}

/* run_both from pc. */
static unsigned run_at(uint64_t pc, uint64_t total, uint64_t max, const char *what)
{
    set_pc(pc);
    return run_both(total, max, what);
}

/* The exception vector (BEV = 0, general 0x180, refills 0x000/0x080): skip
 * the instruction that faulted (EPC + 4) and return. */
static void put_skip_handler(void)
{
    static const uint32_t h[] = {
        MFC0(K0, CP0_EPC), DADDIU(K0, K0, 4), DMTC0(K0, CP0_EPC), NOP, ERET,
    };
    put(0x000, h, 5);
    put(0x080, h, 5);
    put(0x180, h, 5);
}

START_TEST(straight_code_and_loops)
{
    /* sums, a loop with a delay slot, a call to another page and back */
    put(0x10000,
        (const uint32_t[]){
            ADDIU(T0, ZERO, 200),
            ADDIU(V0, ZERO, 0),
            LUI(A0, 0x1234),
            ORI(A0, A0, 0x5678),
            ADDU(V0, V0, T0), /* loop */
            DADDU(V1, V1, A0),
            SLL(A1, T0, 3),
            XOR(A2, A2, A1),
            JAL(0x12000),
            ADDIU(T0, T0, -1),
            BNE(T0, ZERO, -7),
            DSLL32(A3, V0, 1),
            J(0x10000),
            NOP,
        },
        14);
    put(0x12000, (const uint32_t[]){MULT(T0, A0), MFLO(S0), JR(RA), ADDU(S1, S1, S0)}, 4);
    run_at(KSEG0(0x10000), 200000, 300, "loops");
    /* and the translator did run it (not the interpreter behind it) */
    cpu_jit_info ji;
    cpu_jit_info_get(T[1].c, &ji);
    ck_assert_uint_gt(ji.blocks, 0);
    ck_assert_uint_lt(ji.interp_ticks, cpu_retired(T[1].c) / 20);
}
END_TEST

/* Loops that branch back to their own block's start keep the guest
 * registers in host registers from round to round (docs/cpu.md, "The translator"):
 * one with nine registers (HI and LO among them) and an Address Error
 * every other round (a load at an odd offset, skipped by the handler), a
 * store to another page and random budgets ending it anywhere; and one
 * with ten, which the translator compiles as an ordinary block. */
START_TEST(loops_in_one_block)
{
    put_skip_handler();
    put(0x10000,
        (const uint32_t[]){
            LUI(T3, 0x8001),
            DSLL32(T3, T3, 0),
            DSRA32(T3, T3, 0), /* t3 = KSEG0(0x10000) */
            ADDIU(T0, ZERO, 300),
            LW(A0, 0x2000, T3), /* 0x10: loop */
            ANDI(A1, T0, 6),
            DADDU(A1, T3, A1),
            LW(A3, 0x2004, A1), /* unaligned when t0 & 2 */
            MULT(A0, T0),
            MFLO(V0),
            SW(V0, 0x2000, T3),
            ADDIU(T0, T0, -1),
            BNE(T0, ZERO, -9), /* 0x30: to 0x10 */
            DADDU(V1, V1, A3),
            ADDIU(T0, ZERO, 200),
            LW(A0, 0x2008, T3), /* 0x3c: the loop with ten registers */
            DADDU(A2, A0, T0),
            MULTU(A2, T3),
            MFHI(V0),
            SW(V0, 0x2008, T3),
            ADDIU(T0, T0, -1),
            BGTZ(T0, -7), /* 0x54: to 0x3c */
            XOR(V1, V1, A2),
            J(0x10000),
            NOP,
        },
        25);
    put(0x12000, (const uint32_t[]){0x12345678, 0x9abcdef0, 7}, 3);
    run_at(KSEG0(0x10000), 100000, 300, "loops in one block");
    ck_assert_uint_ne(cpu_gpr(T[1].c, V1), 0);
}
END_TEST

/* Values the translator knows while it translates (LUI + ORI, LI, moves
 * from $zero), then changed by a conditional move or a register the block
 * does not know. */
START_TEST(constants_in_a_block)
{
    put(0x10000,
        (const uint32_t[]){
            LUI(A0, 0x1234),     ORI(A0, A0, 0x5678),
            ADDIU(A1, ZERO, -3), MOVN(A1, T0, T1), /* a1 = t0 when t1 != 0 */
            ADDIU(A1, A1, 1),    MOVZ(A0, T0, T2), /* a0 = t0 when t2 == 0 */
            ORI(A0, A0, 1),      DADDU(V1, V1, A1),
            XOR(V0, V0, A0),     SLTIU(A2, A1, 5),
            OR(A3, ZERO, A2),    ADDU(A3, A3, ZERO),
            DADDU(V1, V1, A3),   AND(A2, A2, ZERO),
            ADDIU(T0, T0, 1),    ANDI(T1, T0, 3),
            ANDI(T2, T0, 5),     DSUBU(V0, V0, A2),
            J(0x10000),          NOP,
        },
        20);
    run_at(KSEG0(0x10000), 50000, 300, "constants");
}
END_TEST

/* A store rewrites the instruction two slots ahead, in the same block:
 * each pass alternates it between addiu v0, v0, 1 and addiu v0, v0, 100. */
START_TEST(self_modifying_next_instruction)
{
    uint32_t add1 = ADDIU(V0, V0, 1), add100 = ADDIU(V0, V0, 100);
    put(0x10000,
        (const uint32_t[]){
            LUI(T1, add1 >> 16), ORI(T1, T1, add1 & 0xffff), LUI(T2, add100 >> 16),
            ORI(T2, T2, add100 & 0xffff), LUI(T3, 0x8001), DSLL32(T3, T3, 0),
            DSRA32(T3, T3, 0),                     /* t3 = KSEG0(0x10000) */
            SW(T1, 0x28, T3),                      /* 0x1c: loop: the slot at 0x28 = add 1 */
            ADDIU(A0, A0, 1), ADDIU(V0, V0, 1000), /* 0x24 */
            ADDIU(V0, V0, 7),                      /* 0x28: rewritten */
            SW(T2, 0x28, T3),                      /* now add 100 */
            ADDIU(V1, V1, 1), ADDIU(V0, V0, 3), BEQ(ZERO, ZERO, -9), NOP, /* to 0x1c */
        },
        16);
    run_at(KSEG0(0x10000), 100000, 500, "self-modifying");
    ck_assert_uint_gt(cpu_gpr(T[1].c, V0), 0);
}
END_TEST

/* The delay slot of a taken branch rewrites the branch target, which then
 * runs as rewritten; and a store in a loop's delay slot rewrites the loop
 * branch itself. */
START_TEST(self_modifying_from_a_delay_slot)
{
    uint32_t new_insn = ADDIU(V1, V1, 5);
    put(0x10000,
        (const uint32_t[]){
            LUI(T1, new_insn >> 16),
            ORI(T1, T1, new_insn & 0xffff),
            LUI(T3, 0x8001),
            DSLL32(T3, T3, 0),
            DSRA32(T3, T3, 0),
            ADDIU(T0, ZERO, 50),
            BEQ(ZERO, ZERO, 3),  /* 0x18: to 0x28 */
            SW(T1, 0x28, T3),    /* 0x1c: its delay slot rewrites 0x28 */
            ADDIU(V0, V0, 1000), /* 0x20: skipped */
            ADDIU(V0, V0, 1000), /* 0x24: skipped */
            ADDIU(V1, V1, 1),    /* 0x28: becomes addiu v1, v1, 5 */
            ADDIU(T0, T0, -1),   /* 0x2c */
            BNE(T0, ZERO, -3),   /* 0x30: to 0x28 */
            SW(ZERO, 0x34, T3),  /* 0x34: its own slot: becomes a nop */
            ADDIU(A0, A0, 1),
            J(0x10000),
            NOP,
        },
        17);
    run_at(KSEG0(0x10000), 50000, 200, "self-modifying delay slot");
}
END_TEST

/* DMA into the code the CPU runs, started by the CPU's own store to a
 * device register in the middle of a block. */
START_TEST(dma_into_running_code)
{
    for (int e = 0; e < 2; e++) {
        T[e].dma_pa = 0x10024;
        T[e].dma_word = ADDIU(V1, V1, 9);
    }
    put(0x10000,
        (const uint32_t[]){
            NOP,
            ADDIU(T0, ZERO, 20),
            NOP,
            NOP,
            NOP,
            ADDIU(V0, V0, 1), /* 0x14: loop */
            SW(ZERO, 0, T4),  /* 0x18: the device copies into 0x24 */
            ADDIU(A0, A0, 1),
            ADDIU(A1, A1, 1),
            ADDIU(V1, V1, 1), /* 0x24: becomes addiu v1, v1, 9 */
            ADDIU(T0, T0, -1),
            BNE(T0, ZERO, -7),
            NOP,
            J(0x10000),
            NOP,
        },
        15);
    set_gpr(T4, KSEG1(MMIO_PA));
    set_pc(KSEG0(0x10014));
    for (int e = 0; e < 2; e++)
        cpu_set_gpr(T[e].c, T0, 20);
    run_both(20000, 150, "DMA into code");
    ck_assert_uint_gt(cpu_gpr(T[1].c, V1), 20);
}
END_TEST

/* Jumps into the middle of blocks already translated, by JR to every
 * address of a straight run in turn. */
START_TEST(jumps_into_the_middle)
{
    uint32_t code[40];
    for (unsigned i = 0; i < 32; i++)
        code[i] = ADDIU(V0, V0, (int)i + 1);
    code[32] = DADDIU(A0, A0, 4);  /* next entry */
    code[33] = ANDI(A0, A0, 0x7f); /* 32 entries, wraps */
    code[34] = LUI(T0, 0x8001);
    code[35] = DSLL32(T0, T0, 0);
    code[36] = DSRA32(T0, T0, 0);
    code[37] = DADDU(T0, T0, A0);
    code[38] = JR(T0);
    code[39] = ADDIU(V1, V1, 1);
    put(0x10000, code, 40);
    run_at(KSEG0(0x10000), 60000, 400, "jumps into blocks");
}
END_TEST

/* Random words as code, mostly real instructions with random registers and
 * offsets (loads and stores around a base, branches), every exception
 * skipped by the handler. */
START_TEST(executing_data)
{
    put_skip_handler();
    for (int e = 0; e < 2; e++)
        cpu_set_cp0(T[e].c, CP0_STATUS, S_KERNEL64 & ~(1ull << 29)); /* no FPU: CpU */
    static const uint32_t tmpl[] = {
        ADDU(0, 0, 0), DADDU(0, 0, 0), SLL(0, 0, 0), LW(0, 0, 0),  SW(0, 0, 0),
        LD(0, 0, 0),   SD(0, 0, 0),    BEQ(0, 0, 0), BNE(0, 0, 0), JR(0),
        ADDI(0, 0, 0), LWL(0, 0, 0),   SC(0, 0, 0),  LL(0, 0, 0),  MULT(0, 0),
        DIV(0, 0),     MFHI(0),        TEQ(0, 0),    LB(0, 0, 0),  SB(0, 0, 0),
        SH(0, 0, 0),   LHU(0, 0, 0),   BGEZAL(0, 0), BLTZL(0, 0),  BEQL(0, 0, 0),
    };
    uint32_t page[1024];
    for (unsigned i = 0; i < 1024; i++) {
        uint64_t r = rnd();
        if (r & 1) {
            page[i] = (uint32_t)(r >> 16);
        } else {
            uint32_t t = tmpl[(r >> 1) % (sizeof tmpl / sizeof tmpl[0])];
            /* random rs/rt/rd; memory operands based on s0 (a data page) */
            uint32_t regs = (uint32_t)(r >> 8) & 0x03fff800u;
            if ((t >> 26) >= 0x20)
                regs = (16u << 21) | ((uint32_t)(r >> 8) & 0x001f0000u) |
                       ((uint32_t)(r >> 40) & 0x7f8);
            page[i] = t | regs;
        }
    }
    put(0x20000, page, 1024);
    for (unsigned i = 1; i < 32; i++)
        set_gpr(i, KSEG0(0x30000) + ((rnd() & 0xff) << 3));
    set_gpr(S0, KSEG0(0x30800));
    set_pc(KSEG0(0x20000));
    run_both(300000, 100, "executing data");
}
END_TEST

/* A pc that is not word aligned, and code run from kseg1 (uncached). */
START_TEST(unaligned_pc_and_uncached_code)
{
    put_skip_handler();
    put(0x10000,
        (const uint32_t[]){
            ADDIU(V0, V0, 1),
            LUI(T0, 0xa001),
            DSLL32(T0, T0, 0),
            DSRA32(T0, T0, 0),
            ORI(T0, T0, 0x22), /* kseg1 0x10022: unaligned */
            JR(T0),
            ADDIU(V1, V1, 1),
        },
        7);
    /* the handler's ERET returns to EPC + 4 = 0x10026: AdEL again, and so on */
    run_at(KSEG0(0x10000), 2000, 7, "unaligned pc");
    teardown(); /* again, from kseg1 */
    setup();
    put(0x10000,
        (const uint32_t[]){
            ADDIU(V0, V0, 1),
            ADDU(V1, V1, V0),
            SW(V1, 0x1100, GP),
            LW(A0, 0x1100, GP),
            BEQ(ZERO, ZERO, -5),
            ADDIU(A1, A1, 1),
        },
        6);
    set_pc(KSEG1(0x10000));
    run_both(20000, 50, "uncached code");
}
END_TEST

/* The Count/Compare interrupt is taken at the same instruction. */
START_TEST(timer_interrupts)
{
    static const uint32_t h[] = {
        MFC0(K0, CP0_COUNT), ADDIU(K0, K0, 97), MTC0(K0, CP0_COMPARE), ADDIU(S7, S7, 1), ERET,
    };
    put(0x180, h, 5);
    put(0x10000,
        (const uint32_t[]){
            ADDIU(V0, V0, 1),
            LW(A0, 0x200, GP),
            ADDU(V1, V1, A0),
            SW(V0, 0x200, GP),
            BNE(V0, ZERO, -5),
            ADDIU(A1, A1, 1),
        },
        6);
    for (int e = 0; e < 2; e++) {
        cpu_set_cp0(T[e].c, CP0_COMPARE, 50);
        cpu_set_cp0(T[e].c, CP0_STATUS, S_KERNEL64 | S_IE | (0x80u << 8));
    }
    set_gpr(SP, KSEG0(0x8000));
    run_at(KSEG0(0x10000), 100000, 1000, "timer");
    ck_assert_uint_gt(cpu_gpr(T[1].c, S7), 100);
}
END_TEST

/* A device write that asks the CPU to stop: both stop after that store. */
START_TEST(stop_requests)
{
    put(0x10000,
        (const uint32_t[]){
            ADDIU(V0, V0, 1),
            ADDIU(V1, V1, 1),
            SW(ZERO, 8, T4),
            ADDIU(A0, A0, 1),
            BEQ(ZERO, ZERO, -5),
            SW(ZERO, 8, T4),
        },
        6);
    set_gpr(T4, KSEG1(MMIO_PA));
    set_pc(KSEG0(0x10000));
    ck_assert_uint_gt(run_both(5000, 300, "stop requests"), 10);
}
END_TEST

/* A breakpoint inserted while a hot loop runs translated (from an event
 * callback: here the CPU's own MMIO store makes the device ask for it), a
 * data watchpoint, the trace hook and single steps. */
static unsigned traced[2];
static void trace_fn(void *ctx, cpu *c, uint64_t pc, uint32_t insn) { traced[(intptr_t)ctx]++; }

START_TEST(debugger_features)
{
    put(0x10000,
        (const uint32_t[]){
            ADDIU(V0, V0, 1),
            LW(A0, 0x200, GP),
            ADDU(V1, V1, A0),
            SW(V0, 0x200, GP),
            BNE(V0, ZERO, -5),
            ADDIU(A1, A1, 1),
        },
        6);
    set_gpr(SP, KSEG0(0x8000));
    run_at(KSEG0(0x10000), 10000, 2000, "warm up");
    /* breakpoint on the running page: both stop there, each time */
    for (int e = 0; e < 2; e++)
        cpu_bp_insert(T[e].c, KSEG0(0x10008));
    for (unsigned k = 0; k < 5; k++) {
        for (int e = 0; e < 2; e++) {
            ck_assert_int_eq(cpu_run(T[e].c, T[e].CLK.now + 100000), CPU_BREAK);
            ck_assert_uint_eq(cpu_pc(T[e].c), KSEG0(0x10008));
            cpu_step_over_bp(T[e].c);
        }
        check_same("breakpoint", k);
    }
    for (int e = 0; e < 2; e++)
        cpu_bp_remove(T[e].c, KSEG0(0x10008));
    run_both(5000, 700, "breakpoint removed");
    /* a watchpoint on the loop's data word */
    int id[2];
    for (int e = 0; e < 2; e++)
        id[e] = cpu_wp_insert(T[e].c, KSEG0(0x200), 4, WATCH_WRITE);
    for (unsigned k = 0; k < 5; k++) {
        for (int e = 0; e < 2; e++)
            ck_assert_int_eq(cpu_run(T[e].c, T[e].CLK.now + 100000), CPU_WATCH);
        check_same("watchpoint", k);
        ck_assert_uint_eq(cpu_watch_hit_info(T[0].c)->pc, cpu_watch_hit_info(T[1].c)->pc);
        ck_assert_uint_eq(cpu_watch_hit_info(T[1].c)->pc, KSEG0(0x1000c));
    }
    for (int e = 0; e < 2; e++)
        cpu_wp_remove(T[e].c, id[e]);
    /* the trace hook sees every instruction */
    for (int e = 0; e < 2; e++) {
        traced[e] = 0;
        cpu_set_trace(T[e].c, trace_fn, (void *)(intptr_t)e);
    }
    run_both(3000, 300, "trace hook");
    ck_assert_uint_eq(traced[0], 3000);
    ck_assert_uint_eq(traced[1], 3000);
    for (int e = 0; e < 2; e++)
        cpu_set_trace(T[e].c, NULL, NULL);
    /* single steps */
    run_both(500, 1, "single steps");
}
END_TEST

/* Every kind of slow path in one loop: LL/SC, partial loads and stores,
 * FPU moves, CP0 reads and writes, a TLB write, CACHE; the mode stays. */
START_TEST(helpers_in_blocks)
{
    put_skip_handler();
    put(0x10000,
        (const uint32_t[]){
            LL(T0, 0x300, GP),
            ADDIU(T0, T0, 1),
            SC(T0, 0x300, GP),
            BEQ(T0, ZERO, -4),
            NOP,
            LWL(A0, 0x301, GP),
            LWR(A0, 0x304, GP),
            SWL(A0, 0x309, GP),
            SDR(V0, 0x30e, GP),
            MFC0(A1, CP0_STATUS),
            MTC0(A1, CP0_STATUS),
            MFC0(A2, CP0_COUNT),
            CACHE(4, 0, GP),
            LDC1(2, 0x310, GP),
            SDC1(2, 0x318, GP),
            ADDIU(V0, V0, 1),
            TLBP,
            MTC0(ZERO, 0),
            TLBWI,
            J(0x10000),
            ADDIU(V1, V1, 1),
        },
        21);
    run_at(KSEG0(0x10000), 30000, 400, "helpers");
}
END_TEST

static Suite *jit_suite(void)
{
    Suite *s = suite_create("jit");
    check_add_tests(check_case(s, "twins", setup, teardown, 120), straight_code_and_loops,
                    loops_in_one_block, constants_in_a_block, self_modifying_next_instruction,
                    self_modifying_from_a_delay_slot, dma_into_running_code, jumps_into_the_middle,
                    executing_data, unaligned_pc_and_uncached_code, timer_interrupts, stop_requests,
                    debugger_features, helpers_in_blocks);
    return s;
}

int main(void)
{
    if (!cpu_engine_available(CPU_ENGINE_JIT)) {
        printf("test_jit: no translator on this host\n");
        return 77;
    }
    setenv("XBOW_JIT_TIER", "0", 0); /* translate every block at once (jit.h) */
    return check_run(jit_suite()) ? EXIT_FAILURE : EXIT_SUCCESS;
}
