/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_compare: run one guest on two machines, one with the interpreter
 * and one with the translator, in the same steps, and check that they stay
 * the same machine.
 *
 *   engine_compare [--steps N] [--hash-every K] [--seed S] XBOW-OPTIONS... GUEST
 *
 * XBOW-OPTIONS are xbow's own (--cpus, --nic, --append, --max-insns ...;
 * --engine is ignored, both are run; --max-insns bounds the run, default
 * 2000000000).  Both machines start the real-time clock at a fixed time and
 * write the console to a file of their own.  They run in steps of a
 * pseudo-random number of instructions (1 to a million, seeded by --seed);
 * after each step the stop reason, every CPU's instruction count, its
 * registers (GPRs, HI/LO, pc and delay-slot state, every CP0 register, the
 * TLB, the FPRs, FCSR, the LL bit) and the console output so far must be
 * the same, and every K steps (default 64) and at the end a hash of all RAM.
 * The run ends at the first stop that is not the step's end (a reset, a
 * halt) or at --max-insns.  Exit status 0 when the machines stayed the
 * same, 1 at the first difference (described on stdout), 2 on a setup
 * error.  One line says how far they went.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "machine/machine.h"
#include "ui/options.h"

static uint64_t rng_state;
static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* A step: mostly long, sometimes a handful of instructions (budget stops
 * inside blocks), sometimes one. */
static uint64_t step_size(uint64_t max)
{
    uint64_t r = rng(), n;
    switch (r & 7) {
    case 0: n = 1; break;
    case 1:
    case 2: n = 1 + (r >> 8) % 64; break;
    case 3:
    case 4: n = 1 + (r >> 8) % 20000; break;
    default: n = 1 + (r >> 8) % max; break;
    }
    return n;
}

static uint64_t ram_hash(const ram_block *rb)
{
    if (!rb)
        return 0;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    const uint64_t *p = (const uint64_t *)(const void *)rb->host;
    for (uint64_t i = 0; i < rb->size / 8; i++) {
        h ^= p[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    return h;
}

static char why[256];

#define SAME(what, a, b)                                                                      \
    do {                                                                                      \
        uint64_t a_ = (a), b_ = (b);                                                          \
        if (a_ != b_) {                                                                       \
            snprintf(why, sizeof why, "%s: interpreter 0x%" PRIx64 ", translator 0x%" PRIx64, \
                     what, a_, b_);                                                           \
            return false;                                                                     \
        }                                                                                     \
    } while (0)

static bool same_cpu(unsigned k, cpu *p, cpu *q)
{
    char n[48];
#define NAME(...) (snprintf(n, sizeof n, __VA_ARGS__), n)
    SAME(NAME("cpu%u instructions", k), cpu_retired(p), cpu_retired(q));
    SAME(NAME("cpu%u pc", k), cpu_pc(p), cpu_pc(q));
    /* idle skip: the same waits, started at the same ticks, as long */
    cpu_wait_info wp, wq;
    cpu_get_wait_info(p, &wp);
    cpu_get_wait_info(q, &wq);
    SAME(NAME("cpu%u ticks", k), cpu_ticks(p), cpu_ticks(q));
    SAME(NAME("cpu%u waiting", k), wp.kind, wq.kind);
    SAME(NAME("cpu%u ticks waited", k), wp.waited, wq.waited);
    SAME(NAME("cpu%u idle waits", k), wp.idle_waits, wq.idle_waits);
    SAME(NAME("cpu%u polling waits", k), wp.poll_waits, wq.poll_waits);
    SAME(NAME("cpu%u delay slot", k), cpu_in_delay_slot(p), cpu_in_delay_slot(q));
    if (cpu_in_delay_slot(p))
        SAME(NAME("cpu%u delay target", k), cpu_delay_target(p), cpu_delay_target(q));
    for (unsigned i = 0; i < 32; i++) {
        SAME(NAME("cpu%u $%s", k, cpu_gpr_names[i]), cpu_gpr(p, i), cpu_gpr(q, i));
        SAME(NAME("cpu%u $f%u", k, i), cpu_fpr(p, i), cpu_fpr(q, i));
        SAME(NAME("cpu%u CP0 %s", k, cpu_cp0_names[i]), cpu_cp0(p, i), cpu_cp0(q, i));
    }
    for (unsigned s = 0; s < 4; s++)
        SAME(NAME("cpu%u PerfCount select %u", k, s), cpu_cp0_sel(p, 25, s), cpu_cp0_sel(q, 25, s));
    SAME(NAME("cpu%u hi", k), cpu_hi(p), cpu_hi(q));
    SAME(NAME("cpu%u lo", k), cpu_lo(p), cpu_lo(q));
    SAME(NAME("cpu%u fcsr", k), cpu_fcsr(p), cpu_fcsr(q));
    SAME(NAME("cpu%u LL bit", k), cpu_llbit(p), cpu_llbit(q));
    for (unsigned i = 0; i < 64; i++) {
        uint64_t a[4], b[4];
        cpu_tlb_get(p, i, &a[0], &a[1], &a[2], &a[3]);
        cpu_tlb_get(q, i, &b[0], &b[1], &b[2], &b[3]);
        for (unsigned w = 0; w < 4; w++)
            SAME(NAME("cpu%u TLB entry %u word %u", k, i, w), a[w], b[w]);
    }
#undef NAME
    return true;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static bool same_files(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    bool same = f && g;
    long off = 0;
    while (same) {
        int x = fgetc(f), y = fgetc(g);
        if (x != y) {
            snprintf(why, sizeof why, "console output differs at byte %ld", off);
            same = false;
        }
        if (x == EOF || y == EOF)
            break;
        off++;
    }
    if (!f || !g)
        snprintf(why, sizeof why, "a console file is missing");
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

int main(int argc, char **argv)
{
    uint64_t steps_max = 1000000, hash_every = 64;
    rng_state = 0x2545f4914f6cdd1dull;
    /* our options, wherever they are; the rest is xbow's command line */
    char **xargv = calloc((size_t)argc + 1, sizeof *xargv);
    if (!xargv)
        return 2;
    int xargc = 0;
    xargv[xargc++] = "xbow";
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--steps") && k + 1 < argc)
            steps_max = strtoull(argv[++k], NULL, 0);
        else if (!strcmp(argv[k], "--hash-every") && k + 1 < argc)
            hash_every = strtoull(argv[++k], NULL, 0);
        else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
            rng_state ^= strtoull(argv[++k], NULL, 0) * 0x9e3779b97f4a7c15ull;
        else
            xargv[xargc++] = argv[k];
    }
    if (!steps_max || !hash_every) {
        printf("engine_compare: --steps and --hash-every must be at least 1\n");
        return 2;
    }
    if (!rng_state)
        rng_state = 1;
    if (!cpu_engine_available(CPU_ENGINE_JIT)) {
        printf("engine_compare: this host has no translator\n");
        return 77;
    }
    ui_options o[2];
    char con[2][64];
    machine *m[2];
    for (int e = 0; e < 2; e++) {
        strbuf err;
        sb_init(&err);
        ui_options_init(&o[e], xargc);
        if (ui_parse_options(&o[e], xargc, xargv, &err) != UI_OPTS_RUN) {
            printf("engine_compare: %s\n", err.s ? err.s : "bad command line");
            return 2;
        }
        sb_free(&err);
        if (!o[e].kernel && !o[e].cfg.prom) {
            printf("engine_compare: no guest given\n");
            return 2;
        }
        ui_default_machine(&o[e]);
        snprintf(con[e], sizeof con[e], "/tmp/engine_compare.%d.%d", (int)getpid(), e);
        static char spec[2][80];
        snprintf(spec[e], sizeof spec[e], "file:%s", con[e]);
        o[e].cfg.serial = spec[e];
        o[e].cfg.rtc_fixed = true;
        o[e].cfg.engine = e ? CPU_ENGINE_JIT : CPU_ENGINE_INTERP;
        xerr msg = {0};
        m[e] = machine_new(&o[e].cfg, &msg);
        if (!m[e] || (o[e].kernel && machine_load_kernel(m[e], o[e].kernel, &msg))) {
            printf("engine_compare: %s\n", msg.msg);
            return 2;
        }
    }
    uint64_t max = o[0].max_insns ? o[0].max_insns : 2000000000ull, done = 0, steps = 0;
    int rc = 0, r0 = STOP_LIMIT;
    while (done < max) {
        uint64_t n = step_size(steps_max);
        if (n > max - done)
            n = max - done;
        r0 = machine_run(m[0], n);
        int r1 = machine_run(m[1], n);
        chardev_flush(m[0]->console);
        chardev_flush(m[1]->console);
        steps++;
        /* machine_run's budget is ticks: instructions, and with idle skip
         * the ticks the CPUs waited (a guest waiting for console input
         * executes nothing and still reaches the limit) */
        uint64_t t0 = 0;
        for (unsigned i = 0; i < m[0]->ncpus; i++)
            t0 += cpu_ticks(m[0]->cpus[i]);
        bool last = r0 != STOP_LIMIT || t0 >= max;
        bool ok = true;
        if (r0 != r1) {
            snprintf(why, sizeof why,
                     "stopped for different reasons: interpreter %s, translator %s",
                     stop_reason_name(r0), stop_reason_name(r1));
            ok = false;
        }
        for (unsigned i = 0; ok && i < m[0]->ncpus; i++)
            ok = same_cpu(i, m[0]->cpus[i], m[1]->cpus[i]);
        if (ok && file_size(con[0]) != file_size(con[1])) {
            snprintf(why, sizeof why, "console output: interpreter %ld bytes, translator %ld",
                     file_size(con[0]), file_size(con[1]));
            ok = false;
        }
        if (ok && (last || steps % hash_every == 0)) {
            if (ram_hash(m[0]->ram) != ram_hash(m[1]->ram) ||
                ram_hash(m[0]->ram1) != ram_hash(m[1]->ram1)) {
                snprintf(why, sizeof why, "memory differs");
                ok = false;
            }
        }
        if (ok && last)
            ok = same_files(con[0], con[1]);
        if (!ok) {
            printf("engine_compare: MISMATCH after step %" PRIu64 " (%" PRIu64
                   " ticks, the step was %" PRIu64 "): %s\n",
                   steps, t0, n, why);
            rc = 1;
            break;
        }
        done = t0;
        if (last)
            break;
    }
    if (!rc) {
        cpu_jit_info ji; /* blocks, flushes: the machine's code cache */
        uint64_t all = 0, interp = 0;
        for (unsigned i = 0; i < m[1]->ncpus; i++) {
            cpu_jit_info_get(m[1]->cpus[i], &ji);
            all += cpu_retired(m[1]->cpus[i]);
            interp += ji.interp_ticks;
        }
        printf("engine_compare: the same after %" PRIu64 " instructions and %" PRIu64
               " ticks waited in %" PRIu64
               " steps (stopped: %s), console %ld bytes; %.1f%% translated, %" PRIu64
               " blocks, %" PRIu64 " dropped, %" PRIu64 " cache flushes\n",
               all, done - all, steps, stop_reason_name(r0), file_size(con[0]),
               all ? 100.0 * (double)(all - interp) / (double)all : 0.0, ji.blocks, ji.invalidated,
               ji.flushes);
    }
    for (int e = 0; e < 2; e++) {
        machine_free(m[e]);
        ui_options_free(&o[e]);
        unlink(con[e]);
    }
    free(xargv);
    return rc;
}
