/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of idle skip in the CPU (src/cpu/idle.c): a polling loop on
 * memory waits and wakes when another initiator writes the value; the run
 * is the same however it is cut into cpu_run() calls; loops that store,
 * count or read a register with side effects never wait; a register that
 * changes with time ends the wait on time; an idle point waits for an
 * interrupt line; an interrupt ends a poll; a breakpoint in the loop keeps
 * hitting, also one set while the CPU waits; Count runs on while the CPU
 * waits; a counting delay loop is done at once with the same result as
 * running it.  Every test runs with the interpreter and with the
 * translator (where the host has one). */
#include <check.h>
#include <stdlib.h>

#include "core/dev.h"
#include "cpu/cpu.h"
#include "cpu_asm.h"
#include "cpu_engines.h"

#define RAM_SIZE (4u << 20)
#define K0(pa) (0xffffffff80000000ull + (pa))
#define VEC_GEN K0(0x180)
#define S_IE 0x1ull
#define S_IM2 (1ull << 10)
#define S_KERNEL64 (0x80ull | 0x40ull | 0x20ull | (1ull << 28) | (1ull << 29))
#define CP0_COUNT 9
#define CP0_STATUS 12
#define CP0_EPC 14

#define CODE code_pa         /* the programs (see use_jit) */
#define FLAG 0x3000u         /* the polled word */
#define LOOP K0(CODE + 4)    /* every program's loop head */
#define DONE K0(CODE + 0x10) /* ... and where it ends (a breakpoint) */
#define DEV_PA 0x100000u     /* the test device: XKPHYS uncached */
#define DEV_VA (0x9000000000000000ull + DEV_PA)
#define TICKS_PER_VALUE 100 /* its CLOCK register */

static bus B;
static sched CLK;
static event_bus EB;
static cpu *C;
static int other; /* another initiator (a DMA engine) */
static device *D;
static int engine; /* the CPU's engine (each test case sets it) */
static uint32_t code_pa;

/* The test device: CLOCK = now / 100 (pure, changes with time), STATUS (a
 * stored value), FIFO (a read hook that is not declared pure). */
enum { R_CLOCK, R_STATUS, R_FIFO, NREGS };
static int fifo_reads;
static uint64_t rd_clock(device *d, const reg_access *a) { return d->clock->now / TICKS_PER_VALUE; }
static uint64_t rd_fifo(device *d, const reg_access *a)
{
    if (!a->peek)
        fifo_reads++;
    return 0;
}
static uint64_t clock_next(device *d, unsigned id, unsigned idx)
{
    (void)id, (void)idx;
    return (d->clock->now / TICKS_PER_VALUE + 1) * TICKS_PER_VALUE;
}
/* clang-format off */
static const reg_decl test_regs[] = {
    [R_CLOCK] = {.name = "CLOCK", .offset = 0x0, .width = 8,
                 .rules = R_RO | R_NOSTORE | R_PURE | R_TIME, .read = rd_clock,
                 .desc = "now / 100"},
    [R_STATUS] = {.name = "STATUS", .offset = 0x8, .width = 8, .desc = "stored"},
    [R_FIFO] = {.name = "FIFO", .offset = 0x10, .width = 8, .rules = R_RO | R_NOSTORE,
                .read = rd_fifo, .desc = "pops"},
};
/* clang-format on */
DEV_REGS_CHECK(test_regs, NREGS);
static const device_class test_class = {
    .name = "idletest",
    DEV_REGS(test_regs),
    .reg_space = 0x1000,
    .next_change = clock_next,
};

static void setup(void)
{
    cpu_test_bus(&B, &CLK, &EB, RAM_SIZE);
    D = device_new(&test_class, "idletest", NULL, &EB, &CLK);
    ck_assert_ptr_nonnull(D);
    device_reset(D);
    ck_assert_int_eq(bus_map_mmio(&B, "idletest", BUS_UNC(0, DEV_PA), 0x1000, &dev_mmio_be, D), 0);
    C = cpu_test_cpu(&B, &CLK, &EB, engine);
    other = initiator_register(&B, "dma", INIT_DEVICE, -1);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    cpu_bp_insert(C, VEC_GEN); /* an exception stops the run */
    cpu_bp_insert(C, DONE);
    cpu_set_idle_skip(C, true);
    fifo_reads = 0;
}

static void teardown(void)
{
    cpu_free(C);
    device_free(D);
    event_bus_free(&EB);
    bus_free(&B);
}

static void put(uint64_t pa, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t b[4] = {(uint8_t)(w[i] >> 24), (uint8_t)(w[i] >> 16), (uint8_t)(w[i] >> 8),
                        (uint8_t)w[i]};
        ck_assert_int_eq(bus_poke(&B, BUS_CAC(pa + 4 * i), b, 4), BUS_OK);
    }
}

static void start(void) { cpu_set_pc(C, K0(CODE)); }

/* while (*FLAG == 0); v0 = 1 */
static void put_ram_poll(void)
{
    put(CODE,
        (const uint32_t[]){
            LUI(T1, 0x8000),                            /* t1 = KSEG0 */
            LD(T0, FLAG, T1),                           /* LOOP */
            BEQ(T0, ZERO, -2), NOP, ADDIU(V0, ZERO, 1), /* DONE */
        },
        5);
    start();
}

static void set_flag(uint64_t v)
{
    ck_assert_int_eq(bus_write(&B, other, BUS_CAC(FLAG), 8, v), BUS_OK);
}

static cpu_wait_info wait_info(void)
{
    cpu_wait_info w;
    cpu_get_wait_info(C, &w);
    return w;
}

START_TEST(ram_poll_waits_until_another_initiator_writes)
{
    put_ram_poll();
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    cpu_wait_info w = wait_info();
    ck_assert_int_eq(w.kind, CPU_WAIT_POLL);
    ck_assert_uint_eq(w.pc, LOOP);
    ck_assert_uint_eq(w.nreads, 1);
    ck_assert(!w.mmio);
    ck_assert_uint_eq(w.poll_waits, 1);
    /* The first probe comes 4096 ticks in: the rest of the time was waited. */
    ck_assert_uint_lt(cpu_retired(C), 4200);
    ck_assert_uint_eq(cpu_retired(C) + w.waited, 1000000);
    ck_assert_uint_eq(cpu_ticks(C), 1000000);
    /* Count runs at half the clock, waiting or not. */
    ck_assert_uint_eq(cpu_cp0(C, CP0_COUNT) & 0xffffffffu, 500000);
    set_flag(1);
    ck_assert_int_eq(cpu_run(C, 1001000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DONE);
    ck_assert_uint_eq(cpu_ticks(C), 1000000 + 3); /* ld, beq, nop: then DONE */
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_NONE);
}
END_TEST

/* while (*FLAG != 2): the poll wakes when FLAG becomes 1 and waits again.
 * Probed again at once after the wake, the first iteration loads a new
 * value into t0 and a second one is watched: the load at the loop's head
 * must be among the values its wait reads, or FLAG = 2 wakes nothing. */
START_TEST(a_poll_woken_by_a_value_that_is_not_the_one_waits_again_on_it)
{
    put(CODE,
        (const uint32_t[]){
            LUI(T1, 0x8000), LD(T0, FLAG, T1),        /* LOOP */
            BNE(T0, T2, -2), NOP, ADDIU(V0, ZERO, 1), /* DONE */
        },
        5);
    start();
    cpu_set_gpr(C, T2, 2);
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_POLL);
    set_flag(1);
    ck_assert_int_eq(cpu_run(C, 2000000), CPU_RAN);
    cpu_wait_info w = wait_info();
    ck_assert_int_eq(w.kind, CPU_WAIT_POLL);
    ck_assert_uint_eq(w.pc, LOOP);
    ck_assert_uint_eq(w.nreads, 1);
    ck_assert_uint_eq(w.poll_waits, 2);
    set_flag(2);
    ck_assert_int_eq(cpu_run(C, 2001000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DONE);
}
END_TEST

/* The same program, the flag set at tick 100000, run to 120000 in slices of
 * `slice` ticks: what it retired and waited, and where it is. */
static void sliced(uint64_t slice, uint64_t out[4])
{
    put_ram_poll();
    set_flag(0);
    uint64_t t = 0;
    while (t < 120000) {
        if (t == 100000)
            set_flag(1);
        uint64_t until = t + slice;
        if (t < 100000 && until > 100000)
            until = 100000;
        if (until > 120000)
            until = 120000;
        int rc = cpu_run(C, until);
        ck_assert(rc == CPU_RAN || rc == CPU_BREAK);
        if (rc == CPU_BREAK)
            break;
        t = CLK.now;
    }
    cpu_wait_info w = wait_info();
    out[0] = cpu_retired(C);
    out[1] = w.waited;
    out[2] = cpu_pc(C);
    out[3] = cpu_ticks(C);
}

START_TEST(the_run_does_not_depend_on_how_it_is_cut)
{
    uint64_t ref[4];
    sliced(120000, ref);
    ck_assert_uint_eq(ref[2], DONE);
    ck_assert_uint_gt(ref[1], 90000);
    static const uint64_t slices[] = {1, 3, 13, 997, 4096, 4097, 100000};
    for (unsigned i = 0; i < sizeof slices / sizeof slices[0]; i++) {
        teardown();
        setup();
        uint64_t got[4];
        sliced(slices[i], got);
        for (unsigned k = 0; k < 4; k++)
            ck_assert_msg(got[k] == ref[k], "slices of %llu: value %u is %llu, not %llu",
                          (unsigned long long)slices[i], k, (unsigned long long)got[k],
                          (unsigned long long)ref[k]);
    }
}
END_TEST

START_TEST(loops_that_store_or_count_never_wait)
{
    put(CODE,
        (const uint32_t[]){
            LUI(T1, 0x8000),
            SD(T0, FLAG, T1), /* a store */
            BEQ(ZERO, ZERO, -2),
            NOP,
        },
        4);
    start();
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    ck_assert_uint_eq(cpu_retired(C), 1000000);
    ck_assert_uint_eq(wait_info().poll_waits, 0);
    cpu_bp_remove(C, DONE); /* (the loop's delay slot is there) */
    put(CODE,
        (const uint32_t[]){
            LUI(T1, 0x8000),
            LD(T0, FLAG, T1),
            ADDIU(T2, T2, 1), /* a counter: no two iterations alike */
            BEQ(T0, ZERO, -3),
            NOP,
        },
        5);
    start();
    ck_assert_int_eq(cpu_run(C, 2000000), CPU_RAN);
    ck_assert_uint_eq(cpu_retired(C), 2000000);
    ck_assert_uint_eq(wait_info().poll_waits, 0);
}
END_TEST

/* while (dev->REG < limit); at DEV_CODE, ending at DEV_DONE */
#define DEV_CODE (CODE + 0x100)
#define DEV_DONE K0(DEV_CODE + 0x20)
static void put_dev_poll(unsigned reg_off, unsigned limit)
{
    put(DEV_CODE,
        (const uint32_t[]){
            LUI(T1, 0x9000), DSLL32(T1, T1, 0), /* 0x9000000000000000: XKPHYS uncached */
            LUI(T3, DEV_PA >> 16), DADDU(T1, T1, T3), LD(T0, (int)reg_off, T1), /* the loop */
            SLTIU(T2, T0, limit), BNE(T2, ZERO, -3), NOP, NOP,                  /* DEV_DONE */
        },
        9);
    cpu_bp_insert(C, DEV_DONE);
    cpu_set_pc(C, K0(DEV_CODE));
}

START_TEST(a_register_that_changes_with_time_ends_the_wait_on_time)
{
    put_dev_poll(0x0, 200); /* CLOCK reaches 200 at tick 20000 */
    ck_assert_int_eq(cpu_run(C, 100000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DEV_DONE);
    uint64_t skip_ticks = cpu_ticks(C);
    cpu_wait_info w = wait_info();
    ck_assert_uint_ge(w.poll_waits, 100); /* it waited for each new value after a probe */
    ck_assert_uint_gt(w.waited, 10000);
    ck_assert_uint_ge(skip_ticks, 20000);
    /* Without idle skip the loop leaves at the first iteration after 5000. */
    teardown();
    setup();
    cpu_set_idle_skip(C, false);
    put_dev_poll(0x0, 200);
    ck_assert_int_eq(cpu_run(C, 100000), CPU_BREAK);
    uint64_t ref_ticks = cpu_ticks(C);
    ck_assert_uint_eq(wait_info().waited, 0);
    ck_assert_uint_le(skip_ticks > ref_ticks ? skip_ticks - ref_ticks : ref_ticks - skip_ticks, 4);
}
END_TEST

START_TEST(a_register_read_with_a_side_effect_is_never_skipped)
{
    put_dev_poll(0x10, 1); /* FIFO: always 0, but each read pops */
    ck_assert_int_eq(cpu_run(C, 200000), CPU_RAN);
    ck_assert_uint_eq(wait_info().poll_waits, 0);
    ck_assert_uint_eq(cpu_retired(C), 200000);
    ck_assert_int_gt(fifo_reads, 200000 / 4 - 10);
}
END_TEST

START_TEST(a_stored_register_wakes_the_poll_when_the_device_changes_it)
{
    put_dev_poll(0x8, 1); /* STATUS: 0 until the device sets it */
    ck_assert_int_eq(cpu_run(C, 200000), CPU_RAN);
    cpu_wait_info w = wait_info();
    ck_assert_int_eq(w.kind, CPU_WAIT_POLL);
    ck_assert(w.mmio);
    *dev_rv(D, R_STATUS, 0) = 1; /* what a device model does on an event */
    ck_assert_int_eq(cpu_run(C, 200100), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DEV_DONE);
    ck_assert_uint_eq(cpu_ticks(C), 200000 + 4);
}
END_TEST

/* jal IDLE with interrupts off; IDLE returns at once (as Linux's
 * arch_cpu_idle does after enabling interrupts). */
#define IDLE K0(0x21000)
static void put_idle_call(void)
{
    put(CODE,
        (const uint32_t[]){
            JAL(IDLE & 0x0fffffff), NOP, NOP, NOP, NOP, /* DONE */
        },
        5);
    put(0x21000, (const uint32_t[]){JR(RA), NOP}, 2);
    start();
}

START_TEST(an_idle_point_waits_for_an_interrupt_line)
{
    ck_assert_int_eq(cpu_idle_point_add(C, IDLE), 0);
    put_idle_call();
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IM2); /* IE = 0, IP2 enabled */
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    cpu_wait_info w = wait_info();
    ck_assert_int_eq(w.kind, CPU_WAIT_IDLE);
    ck_assert_uint_eq(w.pc, IDLE);
    ck_assert_uint_eq(cpu_pc(C), IDLE);
    ck_assert_uint_eq(cpu_retired(C), 2); /* jal and its delay slot */
    ck_assert_uint_eq(w.waited, 1000000 - 2);
    /* A line that Status.IM masks does not end it, IP2 does. */
    cpu_set_irq(C, 3, true);
    ck_assert_int_eq(cpu_run(C, 2000000), CPU_RAN);
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_IDLE);
    cpu_set_irq(C, 2, true);
    ck_assert_int_eq(cpu_run(C, 3000000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DONE);
    ck_assert_uint_eq(cpu_ticks(C), 2000000 + 4);
    ck_assert_uint_eq(wait_info().idle_waits, 1);
}
END_TEST

START_TEST(an_idle_point_reached_with_interrupts_on_does_not_wait)
{
    ck_assert_int_eq(cpu_idle_point_add(C, IDLE), 0);
    put_idle_call();
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IM2 | S_IE);
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DONE);
    ck_assert_uint_eq(wait_info().idle_waits, 0);
    /* Nor does one with no interrupt enabled in Status.IM (nothing could end it). */
    cpu_idle_points_clear(C);
    ck_assert_int_eq(cpu_idle_point_add(C, IDLE), 0);
    put_idle_call();
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64);
    ck_assert_int_eq(cpu_run(C, 2000000), CPU_BREAK);
    ck_assert_uint_eq(wait_info().idle_waits, 0);
}
END_TEST

START_TEST(an_interrupt_ends_a_poll)
{
    put_ram_poll();
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IM2 | S_IE);
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_POLL);
    cpu_set_irq(C, 2, true);
    ck_assert_int_eq(cpu_run(C, 2000000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), VEC_GEN);
    ck_assert_uint_eq(cpu_cp0(C, CP0_EPC), LOOP);
    ck_assert_uint_eq(cpu_ticks(C), 1000000 + 1); /* the exception's tick */
}
END_TEST

START_TEST(a_breakpoint_in_the_loop_keeps_hitting)
{
    put_ram_poll();
    cpu_bp_insert(C, K0(CODE + 8));
    for (unsigned i = 0; i < 3000; i++) {
        ck_assert_int_eq(cpu_run(C, 1000000), CPU_BREAK);
        ck_assert_uint_eq(cpu_pc(C), K0(CODE + 8));
        cpu_step_over_bp(C);
    }
    ck_assert_uint_gt(cpu_ticks(C), 8192); /* probes came and went */
    ck_assert_uint_eq(wait_info().poll_waits, 0);
}
END_TEST

START_TEST(a_breakpoint_set_in_a_loop_that_waits_hits)
{
    put_ram_poll();
    ck_assert_int_eq(cpu_run(C, 100000), CPU_RAN);
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_POLL);
    cpu_bp_insert(C, K0(CODE + 8));
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_NONE);
    ck_assert_int_eq(cpu_run(C, 200000), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), K0(CODE + 8));
    ck_assert_uint_lt(cpu_ticks(C), 100000 + 4);
}
END_TEST

START_TEST(a_held_cpu_does_not_wait_and_the_debugger_wakes_one)
{
    put_ram_poll();
    cpu_hold_wait(C, true);
    ck_assert_int_eq(cpu_run(C, 100000), CPU_RAN);
    ck_assert_uint_eq(cpu_retired(C), 100000);
    cpu_hold_wait(C, false);
    ck_assert_int_eq(cpu_run(C, 200000), CPU_RAN);
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_POLL);
    /* Setting a register the loop depends on ends the wait. */
    cpu_set_gpr(C, T1, K0(0) + 0x8);            /* the loop now reads FLAG + 8 ... */
    put(FLAG + 8, (const uint32_t[]){0, 1}, 2); /* ... which is 1 */
    ck_assert_int_eq(wait_info().kind, CPU_WAIT_NONE);
    ck_assert_int_eq(cpu_run(C, 200100), CPU_BREAK);
    ck_assert_uint_eq(cpu_pc(C), DONE);
}
END_TEST

/* Linux's __delay: bnez a0, self; daddiu a0, a0, -1 (done at once with idle
 * skip, exactly).  Returns ticks, retired, a0 and pc after running to
 * `until` in slices of `slice`, with IP2 raised at tick `irq_at` (0: none). */
static void delay_run(bool skip, bool wide, uint64_t count, uint64_t until, uint64_t slice,
                      uint64_t irq_at, uint64_t out[4])
{
    cpu_set_idle_skip(C, skip);
    put(CODE,
        (const uint32_t[]){
            NOP, BNE(A0, ZERO, -1),                                  /* LOOP */
            wide ? DADDIU(A0, A0, -1) : ADDIU(A0, A0, -1), NOP, NOP, /* DONE */
        },
        5);
    start();
    cpu_set_gpr(C, A0, count);
    cpu_set_cp0(C, CP0_STATUS, S_KERNEL64 | S_IM2 | S_IE);
    while (CLK.now < until) {
        uint64_t to = CLK.now + slice < until ? CLK.now + slice : until;
        if (irq_at && CLK.now < irq_at && to > irq_at)
            to = irq_at;
        if (irq_at && CLK.now == irq_at)
            cpu_set_irq(C, 2, true);
        if (cpu_run(C, to) == CPU_BREAK)
            break;
    }
    out[0] = cpu_ticks(C);
    out[1] = cpu_retired(C);
    out[2] = cpu_gpr(C, A0);
    out[3] = cpu_pc(C);
}

START_TEST(a_delay_loop_is_done_at_once_and_exactly)
{
    static const struct {
        bool wide;
        uint64_t count, until, slice, irq_at;
    } runs[] = {
        {true, 100000, 1000000, 1000000, 0},       /* runs out: DONE */
        {true, 100000, 150001, 1000000, 0},        /* stops half way, at an odd tick */
        {true, 100000, 150000, 977, 0},            /* in slices */
        {true, 100000, 1000000, 1000000, 70001},   /* an interrupt half way */
        {false, 0x180000000ull, 1000000, 4096, 0}, /* a 32-bit count (0x80000000) */
        {true, 0, 1000, 1000, 0},                  /* nothing to count */
    };
    for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint64_t ref[4], got[4];
        teardown();
        setup();
        delay_run(false, runs[i].wide, runs[i].count, runs[i].until, runs[i].slice, runs[i].irq_at,
                  ref);
        teardown();
        setup();
        delay_run(true, runs[i].wide, runs[i].count, runs[i].until, runs[i].slice, runs[i].irq_at,
                  got);
        for (unsigned k = 0; k < 4; k++)
            ck_assert_msg(got[k] == ref[k], "run %u: value %u is 0x%llx, not 0x%llx", i, k,
                          (unsigned long long)got[k], (unsigned long long)ref[k]);
        ck_assert_uint_eq(wait_info().waited, 0); /* executed, not waited */
    }
}
END_TEST

START_TEST(a_long_delay_loop_costs_nothing)
{
    /* 10^9 iterations: only doing them at once finishes this test in time
     * (the interpreter would take seconds). */
    const uint64_t count = 1ull << 40, iters = 1000000000ull, until = 1 + 2 * iters;
    put(CODE, (const uint32_t[]){NOP, BNE(A0, ZERO, -1), DADDIU(A0, A0, -1), NOP, NOP}, 5);
    start();
    cpu_set_gpr(C, A0, count);
    ck_assert_int_eq(cpu_run(C, 1), CPU_RAN); /* the NOP: now at the loop */
    while (CLK.now < until) {
        uint64_t to = CLK.now + (1ull << 28) < until ? CLK.now + (1ull << 28) : until;
        ck_assert_int_eq(cpu_run(C, to), CPU_RAN);
    }
    ck_assert_uint_eq(cpu_gpr(C, A0), count - iters);
    ck_assert_uint_eq(cpu_pc(C), LOOP);
    ck_assert_uint_eq(cpu_retired(C), until);
    ck_assert_uint_eq(cpu_cp0(C, CP0_COUNT) & 0xffffffffu, (until / 2) & 0xffffffffu);
}
END_TEST

START_TEST(idle_skip_off_executes_everything)
{
    cpu_set_idle_skip(C, false);
    put_ram_poll();
    ck_assert_int_eq(cpu_run(C, 1000000), CPU_RAN);
    ck_assert_uint_eq(cpu_retired(C), 1000000);
    ck_assert_uint_eq(wait_info().poll_waits, 0);
}
END_TEST

static void use_interp(void)
{
    engine = CPU_ENGINE_INTERP;
    code_pa = 0x20000;
}

/* The translator runs only pages without breakpoints (the others go to the
 * interpreter): the programs end where a page starts, so that DONE's
 * breakpoint is on the next page and the loops are translated. */
static void use_jit(void)
{
    engine = CPU_ENGINE_JIT;
    code_pa = 0x20000 - 0x10;
}

static TCase *tests(const char *name, void (*use)(void))
{
    TCase *t = tcase_create(name);
    tcase_set_timeout(t, 60);
    tcase_add_unchecked_fixture(t, use, NULL);
    tcase_add_checked_fixture(t, setup, teardown);
    check_add_tests(t, ram_poll_waits_until_another_initiator_writes,
                    a_poll_woken_by_a_value_that_is_not_the_one_waits_again_on_it,
                    the_run_does_not_depend_on_how_it_is_cut, loops_that_store_or_count_never_wait,
                    a_register_that_changes_with_time_ends_the_wait_on_time,
                    a_register_read_with_a_side_effect_is_never_skipped,
                    a_stored_register_wakes_the_poll_when_the_device_changes_it,
                    an_idle_point_waits_for_an_interrupt_line,
                    an_idle_point_reached_with_interrupts_on_does_not_wait,
                    an_interrupt_ends_a_poll, a_breakpoint_in_the_loop_keeps_hitting,
                    a_breakpoint_set_in_a_loop_that_waits_hits,
                    a_held_cpu_does_not_wait_and_the_debugger_wakes_one,
                    a_delay_loop_is_done_at_once_and_exactly, a_long_delay_loop_costs_nothing,
                    idle_skip_off_executes_everything);
    return t;
}

static Suite *suite(void)
{
    Suite *s = suite_create("cpu_idle");
    suite_add_tcase(s, tests("interp", use_interp));
    if (cpu_engine_available(CPU_ENGINE_JIT))
        suite_add_tcase(s, tests("jit", use_jit));
    return s;
}

int main(void) { return check_run(suite()) ? EXIT_FAILURE : EXIT_SUCCESS; }
