/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The debugger's speed target (not a test): a breakpoint or watchpoint
 * must cost nothing on pages and devices it does not touch, and the
 * profiler under 10% while it runs and nothing once stopped.  Runs the CPU
 * benchmark's guest (guest_loop.c) through the debugger's `continue N`,
 * with nothing armed, with 16 breakpoints and 4 DMA watchpoints armed
 * outside the hot code, with `profile start`, and with nothing armed after
 * `profile stop`, and prints the speeds.  The targets are a slowdown under
 * 5% armed and after profiling, under 10% while profiling; the exit status
 * says whether they were met.
 *
 * Usage: dbg_bench GUEST.ELF [MILLION_INSNS [ROUNDS]]
 * Each configuration runs ROUNDS times (default 3), in turn, and the
 * fastest run of each counts (the machine is shared: the fastest run is
 * the one least disturbed). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dbg/dbg.h"

#define TARGET_PCT 5.0
#define PROFILE_PCT 10.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What the last command printed (shown when it fails). */
static strbuf said;

static void keep(void *ctx, const char *text)
{
    (void)ctx;
    sb_puts(&said, text);
}

static int cmd(dbg *d, const char *c)
{
    int f = d->failures;
    sb_reset(&said);
    dbg_execute(d, c);
    if (d->failures != f) {
        fprintf(stderr, "dbg_bench: \"%s\" failed: %s", c, said.s ? said.s : "\n");
        return -1;
    }
    return 0;
}

/* Run n instructions with `continue`; returns guest MIPS. */
static double run(dbg *d, uint64_t n)
{
    char c[64];
    snprintf(c, sizeof c, "continue %llu", (unsigned long long)n);
    uint64_t before = 0, after = 0;
    for (unsigned i = 0; i < d->m->ncpus; i++)
        before += cpu_retired(d->m->cpus[i]);
    double t0 = now_s();
    if (cmd(d, c))
        return 0;
    double t = now_s() - t0;
    for (unsigned i = 0; i < d->m->ncpus; i++)
        after += cpu_retired(d->m->cpus[i]);
    if (after - before != n) {
        fprintf(stderr, "dbg_bench: the guest stopped early (%llu of %llu instructions)\n",
                (unsigned long long)(after - before), (unsigned long long)n);
        return 0;
    }
    return (double)n / t / 1e6;
}

static int arm(dbg *d)
{
    char c[96];
    /* 16 breakpoints on code the guest never runs (a page of its own). */
    for (unsigned i = 0; i < 16; i++) {
        snprintf(c, sizeof c, "break *0xa800000000100000 + %u", i * 0x40);
        if (cmd(d, c))
            return -1;
    }
    /* 4 DMA watchpoints on RAM the guest never touches. */
    for (unsigned i = 0; i < 4; i++) {
        snprintf(c, sizeof c, "watch dma p:0x%x,0x1000 write", 0x200000 + i * 0x10000);
        if (cmd(d, c))
            return -1;
    }
    return 0;
}

/* One engine: the two configurations alternated; 0 if the target was met. */
static int bench_engine(const char *elf, int engine, uint64_t n, unsigned rounds)
{
    machine_config cfg;
    machine_config_default(&cfg);
    cfg.serial = "null";
    cfg.engine = engine;
    xerr err;
    machine *m = machine_new(&cfg, &err);
    if (!m || machine_load_kernel(m, elf, &err) != 0) {
        fprintf(stderr, "dbg_bench: %s\n", err.msg);
        return 2;
    }
    cpu_set_gpr(m->cpus[0], 29, 0xa800000000f00000ull); /* sp, as cpu_bench sets it */
    dbg *plain = dbg_new(m);
    dbg_set_output(plain, keep, NULL);
    /* Configurations: 0 nothing armed, 1 breakpoints and watchpoints armed,
     * 2 the profiler on (profile start), 3 nothing again after a profile
     * (the profiler off costs nothing).  Each round runs them in a rotated
     * order (the first run of a round tends to find colder caches). */
    enum { NCONF = 4 };
    double best[NCONF] = {0};
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned k = 0; k < NCONF; k++) {
            unsigned conf = (k + r) % NCONF;
            if (conf == 1 && arm(plain))
                return 1;
            if (conf == 2 && cmd(plain, "profile start"))
                return 1;
            double v = run(plain, n);
            if (!v)
                return 1;
            if (v > best[conf])
                best[conf] = v;
            if (conf == 1 && cmd(plain, "delete"))
                return 1;
            if (conf == 2 && (cmd(plain, "profile stop") || cmd(plain, "profile report 1")))
                return 1;
        }
    }
    double slow = (best[0] - best[1]) / best[0] * 100.0;
    double prof = (best[0] - best[2]) / best[0] * 100.0;
    double after = (best[0] - best[3]) / best[0] * 100.0;
    printf("dbg_bench: --engine=%s, %llu M instructions per run, best of %u\n",
           engine == CPU_ENGINE_JIT ? "jit" : "interp", (unsigned long long)(n / 1000000), rounds);
    printf("  nothing armed:                          %8.1f MIPS\n", best[0]);
    printf("  16 breakpoints + 4 DMA watchpoints:     %8.1f MIPS\n", best[1]);
    printf("  profiling (profile start, all CPUs):    %8.1f MIPS\n", best[2]);
    printf("  nothing armed, after profile stop:      %8.1f MIPS\n", best[3]);
    printf("  slowdown armed: %.2f%% (target under %.0f%%): %s\n", slow, TARGET_PCT,
           slow < TARGET_PCT ? "met" : "MISSED");
    printf("  slowdown profiling: %.2f%% (target under %.0f%%): %s\n", prof, PROFILE_PCT,
           prof < PROFILE_PCT ? "met" : "MISSED");
    printf("  slowdown after profiling: %.2f%% (target under %.0f%%: the profiler off costs "
           "nothing): %s\n",
           after, TARGET_PCT, after < TARGET_PCT ? "met" : "MISSED");
    dbg_free(plain);
    machine_free(m);
    return slow < TARGET_PCT && prof < PROFILE_PCT && after < TARGET_PCT ? 0 : 1;
}

/* Each engine the host has: the interpreter, then the translator. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: dbg_bench GUEST.ELF [MILLION_INSNS [ROUNDS]]\n");
        return 2;
    }
    uint64_t n = (argc > 2 ? strtoull(argv[2], NULL, 0) : 200) * 1000000ull;
    unsigned rounds = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 3;
    sb_init(&said);
    int rc = 0;
    for (int e = CPU_ENGINE_INTERP; e <= CPU_ENGINE_JIT; e++) {
        if (!cpu_engine_available(e))
            continue;
        int r = bench_engine(argv[1], e, n, rounds);
        if (r > rc)
            rc = r;
    }
    sb_free(&said);
    return rc;
}
