/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the R10000 run loop (src/cpu/exec.c): instruction counting
 * at every stopping point (page ends, delay slots, likely branches, jumps
 * between pages), breakpoints and HLE-free special pages while the page is
 * running, the trace hook's count, kicks from a device access, and a Status
 * write that unmasks a pending interrupt. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "cpu_asm.h"
#include "cpu_engines.h"

#define RAM_SIZE (4u << 20)
#define K0(pa) (0xffffffff80000000ull + (pa))
#define MMIO_PA 0x01000000ull
#define VEC_GEN K0(0x180)
#define S_IE 0x1ull
#define S_KERNEL64 (0x80ull | 0x40ull | 0x20ull | (1ull << 28) | (1ull << 29))
#define CP0_STATUS 12
#define CP0_CAUSE 13
#define CP0_EPC 14

static bus B;
static sched CLK;
static event_bus EB;
static cpu *C;
static int ENGINE;      /* the engine every test runs with (main) */
static int kick_writes; /* writes to the kicking device */

/* A device whose every write asks the CPU to stop (as a stop request from an
 * event subscriber would). */
static int kick_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    (void)o, (void)op, (void)off;
    *val = 0;
    return BUS_OK;
}
static int kick_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    (void)o, (void)op, (void)off, (void)val;
    kick_writes++;
    cpu_request_exit(C);
    return BUS_OK;
}
static const mmio_ops kick_ops = {kick_read, kick_write};

static void setup(void)
{
    bus_init(&B);
    sched_init(&CLK, 0);
    event_bus_init(&EB, &CLK.now);
    ram_block *rb = ram_block_new(&B, "ram", RAM_SIZE);
    ck_assert_ptr_nonnull(rb);
    ck_assert_int_eq(bus_map_ram(&B, "cac", BUS_CAC(0), RAM_SIZE, rb, 0, false), 0);
    ck_assert_int_eq(bus_map_mmio(&B, "kick", BUS_UNC(0, MMIO_PA), 0x1000, &kick_ops, NULL), 0);
    C = cpu_new(0, &B, &CLK, &EB);
    ck_assert_ptr_nonnull(C);
    ck_assert_int_eq(cpu_set_engine(C, ENGINE), 0);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_bp_insert(C, VEC_GEN); /* no exception is expected */
    kick_writes = 0;
}

static void teardown(void)
{
    cpu_free(C);
    event_bus_free(&EB);
    bus_free(&B);
}

static void put(uint64_t pa, const uint32_t *w, unsigned n)
{
    ck_assert_int_eq(asm_poke(&B, BUS_CAC(pa), w, n), BUS_OK);
}

/* The walk: every way out of a slot.  From 0x10ff0 (the last four slots of
 * a page): straight-line code into the next page, a likely branch not taken
 * in a page's last slot, a loop by a local branch with its delay slot, a J
 * to the last slot of the page, a taken branch there whose delay slot is on
 * the next page, a JAL/JR call to another page and back, a likely branch
 * taken locally, then END. */
#define WALK_PA 0x10ff0u
#define WALK_VA K0(WALK_PA)
#define LOOP_VA K0(0x11008u)    /* loop head */
#define LOOP_DS_VA K0(0x11010u) /* the loop branch's delay slot */
#define END_VA K0(0x12018u)
static void put_walk(void)
{
    put(0x10ff0,
        (const uint32_t[]){
            ADDIU(T0, ZERO, 5), ADDIU(V0, V0, 1), ADDIU(V1, V1, 3),
            BNEL(ZERO, ZERO, 100), /* 0x10ffc: not taken, skips 0x11000 */
            ADDIU(V0, V0, 100),    /* 0x11000: skipped */
            ADDIU(T1, T1, 1),      /* 0x11004 */
            ADDIU(T0, T0, -1),     /* 0x11008: loop */
            BNE(T0, ZERO, -2),     /* 0x1100c */
            ADDIU(T2, T2, 1),      /* 0x11010: delay slot */
            J(0x11ffc),            /* 0x11014 */
            ADDIU(T3, T3, 1),      /* 0x11018 */
        },
        11);
    put(0x11ffc,
        (const uint32_t[]){
            BEQ(ZERO, ZERO, 2),  /* 0x11ffc: to 0x12008, delay slot on the next page */
            ADDIU(A2, A2, 7),    /* 0x12000 */
            ADDIU(A2, A2, 1000), /* 0x12004: skipped */
            JAL(0x13000),        /* 0x12008 */
            ADDIU(A3, A3, 1),    /* 0x1200c */
            BEQL(ZERO, ZERO, 1), /* 0x12010: taken, to END */
            ADDIU(A3, A3, 2),    /* 0x12014: its delay slot */
        },
        7);
    put(0x13000, (const uint32_t[]){JR(RA), ADDIU(A4, A4, 9)}, 2);
}

static void clear_regs(void)
{
    for (unsigned i = 1; i < 32; i++)
        cpu_set_gpr(C, i, 0);
}

static void assert_walk_result(void)
{
    ck_assert_uint_eq(cpu_pc(C), END_VA);
    ck_assert_uint_eq(cpu_gpr(C, V0), 1);
    ck_assert_uint_eq(cpu_gpr(C, V1), 3);
    ck_assert_uint_eq(cpu_gpr(C, T0), 0);
    ck_assert_uint_eq(cpu_gpr(C, T1), 1);
    ck_assert_uint_eq(cpu_gpr(C, T2), 5);
    ck_assert_uint_eq(cpu_gpr(C, T3), 1);
    ck_assert_uint_eq(cpu_gpr(C, A2), 7);
    ck_assert_uint_eq(cpu_gpr(C, A3), 3);
    ck_assert_uint_eq(cpu_gpr(C, A4), 9);
    ck_assert_uint_eq(cpu_gpr(C, RA), K0(0x12010));
}

/* 4 + 1 + 5 * 3 + (J, BEQ, JAL, JR, BEQL: 2 each) = what the walk retires */
#define WALK_INSNS 30u

START_TEST(every_stopping_point_counts_the_same)
{
    put_walk();
    cpu_bp_insert(C, END_VA);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    uint64_t r0 = cpu_retired(C);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    ck_assert_uint_eq(cpu_retired(C) - r0, WALK_INSNS);
    assert_walk_result();
    /* The same in steps of k instructions: every stop lands on a different
     * kind of slot (delay slots, page ends, after a skipped slot). */
    for (unsigned k = 1; k <= 7; k++) {
        clear_regs();
        cpu_set_pc(C, WALK_VA);
        r0 = cpu_retired(C);
        unsigned runs = 0;
        int rc;
        while ((rc = cpu_run(C, CLK.now + k)) == CPU_RAN) {
            ck_assert_uint_eq(cpu_retired(C) - r0, (uint64_t)(runs + 1) * k);
            runs++;
            ck_assert_uint_lt(runs, 100);
        }
        ck_assert_int_eq(rc, CPU_BREAK);
        ck_assert_uint_eq(cpu_retired(C) - r0, WALK_INSNS);
        assert_walk_result();
    }
}
END_TEST

START_TEST(breakpoints_on_a_running_page)
{
    put_walk();
    cpu_bp_insert(C, END_VA);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK); /* pages decoded, current */
    /* A breakpoint at the loop head: hit once per iteration. */
    cpu_bp_insert(C, LOOP_VA);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    unsigned hits = 0;
    int rc;
    while ((rc = cpu_run(C, CLK.now + 1000)) == CPU_BREAK && cpu_pc(C) == LOOP_VA) {
        ck_assert_uint_eq(cpu_gpr(C, T0), 5 - hits);
        hits++;
        cpu_step_over_bp(C);
    }
    ck_assert_int_eq(rc, CPU_BREAK);
    ck_assert_uint_eq(hits, 5);
    assert_walk_result();
    /* One in the loop branch's delay slot: stops in the slot, with the
     * branch's target pending. */
    ck_assert_int_eq(cpu_bp_remove(C, LOOP_VA), 0);
    cpu_bp_insert(C, LOOP_DS_VA);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    hits = 0;
    while ((rc = cpu_run(C, CLK.now + 1000)) == CPU_BREAK && cpu_pc(C) == LOOP_DS_VA) {
        ck_assert(cpu_in_delay_slot(C));
        ck_assert_uint_eq(cpu_delay_target(C), hits < 4 ? LOOP_VA : LOOP_DS_VA + 4);
        ck_assert_uint_eq(cpu_gpr(C, T2), hits);
        hits++;
        cpu_step_over_bp(C);
    }
    ck_assert_uint_eq(hits, 5);
    assert_walk_result();
    /* Removed: the page runs as before. */
    ck_assert_int_eq(cpu_bp_remove(C, LOOP_DS_VA), 0);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    assert_walk_result();
}
END_TEST

static unsigned traced;
static void trace_fn(void *ctx, cpu *c, uint64_t pc, uint32_t insn)
{
    (void)ctx, (void)c, (void)pc, (void)insn;
    traced++;
}

START_TEST(trace_hook_sees_every_instruction)
{
    put_walk();
    cpu_bp_insert(C, END_VA);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    traced = 0;
    cpu_set_trace(C, trace_fn, NULL);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    ck_assert_uint_eq(traced, WALK_INSNS);
    assert_walk_result();
    cpu_set_trace(C, NULL, NULL);
    clear_regs();
    cpu_set_pc(C, WALK_VA);
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    ck_assert_uint_eq(traced, WALK_INSNS);
}
END_TEST

START_TEST(a_kick_stops_right_after_the_access)
{
    /* A loop storing to the device: the CPU stops after the first store,
     * also when the store is a delay slot (then at the branch target). */
    put(0x20000,
        (const uint32_t[]){
            ADDIU(T0, T0, 1),    /* 0x20000 */
            SW(T0, 0, A0),       /* 0x20004 */
            ADDIU(T1, T1, 1),    /* 0x20008 */
            BEQ(ZERO, ZERO, -4), /* 0x2000c: back to 0x20000 */
            SW(T1, 0, A0),       /* 0x20010: delay slot */
        },
        5);
    clear_regs();
    cpu_set_gpr(C, A0, 0xffffffffa0000000ull + MMIO_PA); /* KSEG1: uncached, attribute 0 */
    cpu_set_pc(C, K0(0x20000));
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_EXIT);
    ck_assert_int_eq(kick_writes, 1);
    ck_assert_uint_eq(cpu_pc(C), K0(0x20008));
    ck_assert(!cpu_in_delay_slot(C));
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_EXIT);
    ck_assert_int_eq(kick_writes, 2);
    ck_assert_uint_eq(cpu_pc(C), K0(0x20000));
    ck_assert(!cpu_in_delay_slot(C));
    ck_assert_uint_eq(cpu_gpr(C, T1), 1);
}
END_TEST

START_TEST(status_write_unmasking_a_pending_interrupt)
{
    /* IP2 pending but masked; the MTC0 that sets IE takes it at once. */
    cpu_set_irq(C, 2, true);
    cpu_set_gpr(C, A0, S_KERNEL64 | S_IE | (1ull << 10));
    put(0x20000,
        (const uint32_t[]){
            ADDIU(T0, T0, 1),
            MTC0(A0, CP0_STATUS),
            ADDIU(T0, T0, 1),
            ADDIU(T0, T0, 1),
        },
        4);
    cpu_set_pc(C, K0(0x20000));
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_GEN);
    ck_assert_uint_eq((cpu_cp0(C, CP0_CAUSE) >> 2) & 31, 0);
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), K0(0x20008));
    ck_assert_uint_eq(cpu_gpr(C, T0), 1);
    cpu_set_irq(C, 2, false);
}
END_TEST

/* An HLE entry that stops the machine and returns to itself (the synthetic
 * PROM's "no OS handler" entries): the run ends with CPU_EXIT at the entry,
 * having called it once, whatever budget is left. */
static int hle_calls;
static void halting_hle(void *ctx, cpu *c)
{
    (void)ctx;
    hle_calls++;
    cpu_request_exit(c);
    cpu_set_gpr(c, RA, K0(0x30000));
}

START_TEST(an_hle_entry_that_requests_exit_stops_the_run)
{
    hle_calls = 0;
    ck_assert_int_eq(cpu_hle_register(C, K0(0x30000), halting_hle, NULL), 0);
    put(0x20000, (const uint32_t[]){ADDIU(T0, T0, 1), J(0x30000), ADDIU(T0, T0, 1)}, 3);
    clear_regs();
    cpu_set_pc(C, K0(0x20000));
    ck_assert_int_eq(cpu_run(C, CLK.now + 1000000), CPU_EXIT);
    ck_assert_int_eq(hle_calls, 1);
    ck_assert_uint_eq(cpu_pc(C), K0(0x30000));
    ck_assert_uint_eq(cpu_gpr(C, T0), 2);
}
END_TEST

static Suite *cpu_loop_suite(void)
{
    Suite *s = suite_create("cpu_loop");
    TCase *t = tcase_create("loop");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, every_stopping_point_counts_the_same);
    tcase_add_test(t, breakpoints_on_a_running_page);
    tcase_add_test(t, trace_hook_sees_every_instruction);
    tcase_add_test(t, a_kick_stops_right_after_the_access);
    tcase_add_test(t, status_write_unmasking_a_pending_interrupt);
    tcase_add_test(t, an_hle_entry_that_requests_exit_stops_the_run);
    suite_add_tcase(s, t);
    return s;
}

/* Every test runs with each engine the host has. */
int main(void) { return check_run_engines(cpu_loop_suite, &ENGINE) ? EXIT_FAILURE : EXIT_SUCCESS; }
