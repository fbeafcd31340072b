/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU tests run every test once with each engine the host has. */
#ifndef XBOW_TEST_CPU_ENGINES_H
#define XBOW_TEST_CPU_ENGINES_H

#include <stdio.h>

#include "cpu/cpu.h"
#include "../check_run.h"

/* Runs the suite make() builds once per available engine, with *engine set
 * to it (the tests' setup reads it); returns how many tests failed. */
static inline int check_run_engines(Suite *(*make)(void), int *engine)
{
    int failed = 0;
    for (*engine = CPU_ENGINE_INTERP; *engine <= CPU_ENGINE_JIT; ++*engine) {
        if (!cpu_engine_available(*engine))
            continue;
        printf("engine: %s\n", *engine == CPU_ENGINE_JIT ? "jit" : "interp");
        failed += check_run(make());
    }
    return failed;
}

#endif
