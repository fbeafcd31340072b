/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU tests run every test once with each engine the host has, on a
 * bus with RAM, a clock and an event bus built the same way. */
#ifndef XBOW_TEST_CPU_ENGINES_H
#define XBOW_TEST_CPU_ENGINES_H

#include <stdlib.h>
#include <stdio.h>

#include "core/bus.h"
#include "cpu/cpu.h"
#include "../check_run.h"

/* Initialises the bus, the clock (at 0) and the event bus, and maps
 * ram_size bytes of RAM cached at physical 0; returns the RAM. */
static inline ram_block *cpu_test_bus(bus *b, sched *clk, event_bus *eb, uint64_t ram_size)
{
    bus_init(b);
    sched_init(clk, 0);
    event_bus_init(eb, &clk->now);
    ram_block *rb = ram_block_new(b, "ram", ram_size);
    ck_assert_ptr_nonnull(rb);
    ck_assert_int_eq(bus_map_ram(b, "cac", BUS_CAC(0), ram_size, rb, 0, false), 0);
    return rb;
}

/* CPU 0 on that bus, running with the engine given. */
static inline cpu *cpu_test_cpu(bus *b, sched *clk, event_bus *eb, int engine)
{
    cpu *c = cpu_new(0, b, clk, eb);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(cpu_set_engine(c, engine), 0);
    return c;
}

/* Runs the suite make() builds once per available engine, with *engine set
 * to it (the tests' setup reads it); returns how many tests failed. */
static inline int check_run_engines(Suite *(*make)(void), int *engine)
{
    int failed = 0;
    setenv("XBOW_JIT_TIER", "0", 0); /* the translator translates every block at once */
    for (*engine = CPU_ENGINE_INTERP; *engine <= CPU_ENGINE_JIT; ++*engine) {
        if (!cpu_engine_available(*engine))
            continue;
        printf("engine: %s\n", *engine == CPU_ENGINE_JIT ? "jit" : "interp");
        failed += check_run(make());
    }
    return failed;
}

#endif
