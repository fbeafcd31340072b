/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oracle: run random MIPS IV blocks on xbow's R10000 and on Unicorn, and
 * compare the architectural state after every instruction.
 *
 *   oracle [--insns N] [--seed S] [--block K] [--verbose] [--exclusions] [--no-jit]
 *
 * Where the host has the translator, a second xbow CPU runs every block with
 * it (through the TLB, so that the translated fast paths run) and is
 * compared with the interpreter's CPU, whole state and instruction count,
 * at every exception, every excluded instruction, every block's end and at
 * random counts in between (a run of 1 to 8 or of up to 400 instructions),
 * so that its budget stops land everywhere.
 * ORACLE_INSNS and ORACLE_SEED set the defaults (1000000, 1).  Block K of
 * seed S is generated from S and K alone, so `--seed S --block K` replays
 * one block.  Exit status: 0 all equal, 1 a mismatch, 2 a setup error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/common.h"
#include "oracle.h"


typedef struct diff {
    uint32_t gpr, fpr;
    bool hi, lo, pc, fcsr, exc, mem;
} diff;

typedef struct orc_run {
    uc_side *u;
    xb_side *x;
    orc_block blk;
    uint64_t seed, bseed;
    unsigned bi;
    bool verbose;
    uint64_t status; /* xbow's Status for this block */
    /* the instruction Unicorn is executing */
    bool have_prev;
    bool nullified; /* the current hook is a branch-likely slot Unicorn skips */
    uint64_t prev_pc;
    uint32_t prev_insn;
    unsigned prev_idx, nstep;
    int pre_excl;
    orc_state pre;
    bool failed;
    /* the translator's twin: runs behind the interpreter, caught up and
     * compared at sync points */
    xb_side *j;
    uint64_t jstatus;
    orc_rng jrng;
    uint64_t jnext; /* sync when the interpreter has done this many steps */
    uint64_t jsyncs;
    /* counters */
    uint64_t steps, cls[C_NCLASSES], excl[32], exc[32], mode[2][4], blocks, fs_blocks, en_blocks;
} orc_run;

/* ---- Reporting ------------------------------------------------------------------- */

static const char *const exc_names[32] = {
    [4] = "AdEL", [5] = "AdES", [8] = "Sys", [9] = "Bp",   [10] = "RI",
    [11] = "CpU", [12] = "Ov",  [13] = "Tr", [15] = "FPE",
};

static void print_cfg(const orc_run *r)
{
    const orc_cfg *c = &r->blk.cfg;
    printf("  block config: FR=%d RM=%u FS=%d enables=0x%02x profile=%u length=%u\n", c->fr, c->rm,
           c->fs, c->enables >> 7, c->profile, c->len);
}

static void report(orc_run *r, const char *what, const orc_state *U, const orc_state *X,
                   const diff *d, int xe, int ue)
{
    char dis[96];
    xb_side_disasm(r->prev_pc, r->prev_insn, dis, sizeof dis);
    printf("oracle: MISMATCH (%s): seed 0x%" PRIx64 " block %u step %u\n", what, r->seed, r->bi,
           r->nstep);
    print_cfg(r);
    printf("  pc 0x%" PRIx64 ": %08x  %s\n", r->prev_pc, r->prev_insn, dis);
    uint32_t w = r->prev_insn;
    unsigned f[4] = {(w >> 21) & 31, (w >> 16) & 31, (w >> 11) & 31, (w >> 6) & 31};
    printf("  before: rs=$%u=0x%016" PRIx64 " rt=$%u=0x%016" PRIx64 " hi=0x%" PRIx64
           " lo=0x%" PRIx64 "\n",
           f[0], r->pre.gpr[f[0]], f[1], r->pre.gpr[f[1]], r->pre.hi, r->pre.lo);
    char ops[160];
    orc_describe_fp(w, &r->pre, r->blk.cfg.fr, ops, sizeof ops);
    printf("          fcsr=0x%08x%s\n", r->pre.fcsr, ops);
    for (int i = 0; i < 32; i++)
        if (d->gpr >> i & 1)
            printf("  $%d: unicorn 0x%016" PRIx64 "  xbow 0x%016" PRIx64 "\n", i, U->gpr[i],
                   X->gpr[i]);
    if (d->hi)
        printf("  hi: unicorn 0x%016" PRIx64 "  xbow 0x%016" PRIx64 "\n", U->hi, X->hi);
    if (d->lo)
        printf("  lo: unicorn 0x%016" PRIx64 "  xbow 0x%016" PRIx64 "\n", U->lo, X->lo);
    if (d->pc)
        printf("  pc: unicorn 0x%016" PRIx64 "  xbow 0x%016" PRIx64 "\n", U->pc, X->pc);
    for (int i = 0; i < 32; i++)
        if (d->fpr >> i & 1)
            printf("  $f%d: unicorn 0x%016" PRIx64 "  xbow 0x%016" PRIx64 "\n", i, U->fpr[i],
                   X->fpr[i]);
    if (d->fcsr)
        printf("  fcsr: unicorn 0x%08x  xbow 0x%08x\n", U->fcsr, X->fcsr);
    if (d->exc) {
        printf("  exception: unicorn %s  xbow %s",
               ue ? (exc_names[ue - 1] ? exc_names[ue - 1] : "?") : "none",
               xe ? (exc_names[xe - 1] ? exc_names[xe - 1] : "?") : "none");
        if (xe)
            printf(" (Cause 0x%" PRIx64 " EPC 0x%" PRIx64 ")", xb_side_cp0(r->x, 13),
                   xb_side_cp0(r->x, 14));
        printf("\n");
    }
    if (d->mem)
        printf("  memory differs after the store (see above)\n");
    printf("  replay: oracle --seed 0x%" PRIx64 " --block %u --verbose\n", r->seed, r->bi);
    r->failed = true;
}

/* ---- The translator's twin ------------------------------------------------------------ */

static uint64_t next_gap(orc_run *r)
{
    uint64_t v = orc_rng_next(&r->jrng);
    return (v & 3) == 0 ? 1 + (v >> 8) % 8 : 1 + (v >> 8) % 400;
}

/* Bring the twin to the interpreter's instruction count and compare. */
static bool jit_sync(orc_run *r, const char *where)
{
    if (!r->j)
        return true;
    uint64_t n = xb_side_retired(r->x) - xb_side_retired(r->j);
    r->jnext = r->steps + next_gap(r);
    if (n && xb_side_run(r->j, n) != 0) {
        printf("oracle: MISMATCH (translator): it stopped early (%s), seed 0x%" PRIx64
               " block %u step %u\n",
               where, r->seed, r->bi, r->nstep);
        r->failed = true;
        return false;
    }
    r->jsyncs++;
    char why[160];
    if (xb_side_same(r->x, r->j, why, sizeof why))
        return true;
    printf("oracle: MISMATCH (translator against interpreter, %s): seed 0x%" PRIx64
           " block %u step %u\n  %s\n  replay: oracle --seed 0x%" PRIx64 " --block %u --verbose\n",
           where, r->seed, r->bi, r->nstep, why, r->seed, r->bi);
    r->failed = true;
    return false;
}

/* ---- Comparing --------------------------------------------------------------------- */

static bool branch_likely(uint32_t w)
{
    unsigned op = w >> 26, rt = (w >> 16) & 31;
    return (op >= 0x14 && op <= 0x17) ||
           (op == 1 && (rt == 2 || rt == 3 || rt == 0x12 || rt == 0x13)) ||
           (op == 0x11 && ((w >> 21) & 31) == 8 && (w & (1u << 17)));
}

static bool any(const diff *d)
{
    return d->gpr || d->fpr || d->hi || d->lo || d->pc || d->fcsr || d->exc || d->mem;
}

static void compare(const orc_state *U, const orc_state *X, bool fr, bool check_pc, diff *d)
{
    memset(d, 0, sizeof *d);
    for (int i = 1; i < 32; i++)
        if (U->gpr[i] != X->gpr[i])
            d->gpr |= 1u << i;
    uint64_t m = fr ? ~0ull : 0xffffffffull; /* FR=0: 32-bit registers */
    for (int i = 0; i < 32; i++)
        if ((U->fpr[i] ^ X->fpr[i]) & m)
            d->fpr |= 1u << i;
    d->hi = U->hi != X->hi;
    d->lo = U->lo != X->lo;
    d->pc = check_pc && U->pc != X->pc;
    d->fcsr = U->fcsr != X->fcsr;
}

/* The bytes a store instruction may have written: 16 from its doubleword. */
static bool store_addr(uint32_t w, const orc_state *s, uint64_t *addr)
{
    unsigned op = w >> 26;
    int16_t imm = (int16_t)(w & 0xffff);
    switch (op) {
    case 0x28:
    case 0x29:
    case 0x2a:
    case 0x2b:
    case 0x2c:
    case 0x2d:
    case 0x2e:
    case 0x38:
    case 0x39:
    case 0x3c:
    case 0x3d:
    case 0x3f: *addr = s->gpr[(w >> 21) & 31] + (uint64_t)(int64_t)imm; return true;
    case 0x13:
        if ((w & 63) == 8 || (w & 63) == 9) {
            *addr = s->gpr[(w >> 21) & 31] + s->gpr[(w >> 16) & 31];
            return true;
        }
        return false;
    default: return false;
    }
}

static bool mem_equal(orc_run *r, uint64_t addr, unsigned len)
{
    uint8_t a[ORC_DATA_SIZE], b[ORC_DATA_SIZE];
    if (uc_side_read(r->u, addr, a, len) || xb_side_read(r->x, addr, b, len))
        return false;
    if (memcmp(a, b, len) == 0)
        return true;
    for (unsigned i = 0; i < len; i += 8) {
        if (memcmp(a + i, b + i, 8) != 0)
            printf("  memory 0x%" PRIx64 ": unicorn %016" PRIx64 "  xbow %016" PRIx64 "\n",
                   addr + i, load_be(a + i, 8), load_be(b + i, 8));
    }
    return false;
}

static bool allowed(const diff *d, unsigned ign, const orc_state *U, const orc_state *X)
{
    if (ign & IGN_ALL)
        return true;
    diff e = *d;
    if (ign & IGN_FPR)
        e.fpr = 0;
    if ((ign & IGN_FCSR) || ((ign & IGN_FCSR_CAUSE) && ((U->fcsr ^ X->fcsr) & ~0x3f000u) == 0))
        e.fcsr = false;
    return !any(&e);
}

/* Step xbow over the instruction Unicorn just finished (or faulted on, ue =
 * its ExcCode + 1) and compare. */
static bool check_prev(orc_run *r, const orc_state *U, int ue)
{
    int xe = xb_side_step(r->x);
    if (xe < 0) {
        printf("oracle: xbow stopped (halted) at step %u of block %u\n", r->nstep, r->bi);
        r->failed = true;
        return false;
    }
    if ((xe || ue || r->steps + 1 >= r->jnext) && !jit_sync(r, xe || ue ? "exception" : "count"))
        return false;
    orc_state X;
    xb_side_state(r->x, &X);
    r->steps++;
    r->cls[r->blk.cls[r->prev_idx]]++;
    r->mode[r->blk.cfg.fr][r->blk.cfg.rm]++;
    r->nstep++;
    diff d;
    compare(U, &X, r->blk.cfg.fr, !ue, &d);
    /* A branch-likely that is not taken: Unicorn calls the code hook for
     * the slot it then skips; xbow is already past it. */
    r->nullified = d.pc && !ue && !xe && branch_likely(r->prev_insn) && U->pc == r->prev_pc + 4 &&
                   X.pc == U->pc + 4;
    if (r->nullified)
        d.pc = false;
    if (ue) {
        uint64_t cause = xb_side_cp0(r->x, 13), epc = xb_side_cp0(r->x, 14);
        bool bd = cause >> 31;
        d.exc = xe != ue || epc != (bd ? r->prev_pc - 4 : r->prev_pc);
        if (xe == ue)
            r->exc[ue - 1]++;
    } else if (xe) {
        d.exc = true;
    }
    uint64_t a;
    if (!ue && !xe && store_addr(r->prev_insn, &r->pre, &a) && a >= ORC_DATA_BASE &&
        a + 16 <= ORC_DATA_BASE + ORC_DATA_SIZE)
        d.mem = !mem_equal(r, a & ~7ull, 16);
    if (!any(&d) && r->pre_excl < 0)
        return true;
    orc_step st = {r->prev_insn, r->prev_pc, &r->pre, U, &X, r->blk.cfg.fr, xe, ue};
    unsigned ign = IGN_ALL;
    int k = r->pre_excl >= 0 ? r->pre_excl : orc_excl_post(&st, &ign);
    if (k >= 0 && allowed(&d, ign, U, &X)) {
        if (orc_excls[k].avoided && !r->excl[k]) {
            char dis[96];
            xb_side_disasm(r->prev_pc, r->prev_insn, dis, sizeof dis);
            printf("oracle: generator produced %s: block %u step %u pc 0x%" PRIx64 " %s\n",
                   orc_excls[k].name, r->bi, r->nstep, r->prev_pc, dis);
        }
        r->excl[k]++;
        if (!jit_sync(r, "excluded instruction"))
            return false;
        if (!ue) { /* go on from Unicorn's state */
            xb_side_set_state(r->x, U, r->status);
            if (r->j)
                xb_side_set_state(r->j, U, r->jstatus);
        }
        if (d.mem) { /* keep the data areas equal too */
            uint8_t buf[ORC_DATA_SIZE];
            if (uc_side_read(r->u, ORC_DATA_BASE, buf, ORC_DATA_SIZE) == 0) {
                xb_side_write(r->x, ORC_DATA_BASE, buf, ORC_DATA_SIZE);
                if (r->j)
                    xb_side_write(r->j, ORC_DATA_BASE, buf, ORC_DATA_SIZE);
            }
        }
        return true;
    }
    report(r, ue ? "at an exception" : xe ? "xbow took an exception" : "state", U, &X, &d, xe, ue);
    return false;
}

static void on_step(void *ctx, uint64_t pc)
{
    orc_run *r = ctx;
    if (r->failed) {
        uc_side_stop(r->u);
        return;
    }
    orc_state U;
    uc_side_state(r->u, &U);
    U.pc = pc;
    if (r->have_prev && !check_prev(r, &U, 0)) {
        uc_side_stop(r->u);
        return;
    }
    if (r->nullified) { /* not an instruction: the next hook is */
        r->nullified = false;
        r->have_prev = false;
        return;
    }
    unsigned idx = (unsigned)((pc - ORC_CODE_BASE) / 4);
    if (idx >= r->blk.n) {
        printf("oracle: Unicorn left the block (pc 0x%" PRIx64 ")\n", pc);
        r->failed = true;
        uc_side_stop(r->u);
        return;
    }
    r->prev_pc = pc;
    r->prev_insn = r->blk.code[idx];
    r->prev_idx = idx;
    r->pre = U;
    r->pre_excl = orc_excl_pre(r->prev_insn, &U, r->blk.cfg.fr);
    r->have_prev = true;
    if (r->verbose) {
        char dis[96];
        xb_side_disasm(pc, r->prev_insn, dis, sizeof dis);
        printf("  %4u  %08" PRIx64 ": %08x  %s\n", r->nstep, pc, r->prev_insn, dis);
    }
}

/* ---- Blocks ---------------------------------------------------------------------- */

static uint64_t block_seed(uint64_t seed, unsigned k)
{
    orc_rng g;
    orc_rng_seed(&g, seed ^ (0x9e3779b97f4a7c15ull * (k + 1)));
    return orc_rng_next(&g);
}

static void block_cfg(uint64_t bseed, unsigned k, orc_cfg *c)
{
    orc_rng g;
    orc_rng_seed(&g, bseed ^ 0x636667ull);
    memset(c, 0, sizeof *c);
    c->fr = k & 1;
    c->rm = (k >> 1) & 3;
    unsigned special = (k >> 3) & 7;
    c->fs = special == 7;
    c->enables = special == 6 ? (uint32_t)(1 + orc_rng_next(&g) % 31) << 7 : 0;
    c->len = 150 + (unsigned)(orc_rng_next(&g) % 350);
    c->profile = (unsigned)(orc_rng_next(&g) % 3);
}

static bool run_block(orc_run *r, unsigned k)
{
    orc_cfg cfg;
    r->bi = k;
    r->bseed = block_seed(r->seed, k);
    block_cfg(r->bseed, k, &cfg);
    orc_generate(&r->blk, r->bseed, &cfg);
    r->blocks++;
    r->fs_blocks += cfg.fs;
    r->en_blocks += cfg.enables != 0;
    if (uc_side_load(r->u, &r->blk) || xb_side_load(r->x, &r->blk) ||
        (r->j && xb_side_load(r->j, &r->blk))) {
        printf("oracle: cannot load block %u\n", k);
        return false;
    }
    /* The FPU is loaded by the prologue; start both from Unicorn's leftovers. */
    orc_state U, X;
    uc_side_state(r->u, &U);
    U.pc = ORC_CODE_BASE;
    r->status = xb_side_status(r->x);
    xb_side_set_state(r->x, &U, r->status);
    if (r->j) {
        r->jstatus = xb_side_status(r->j);
        xb_side_set_state(r->j, &U, r->jstatus);
    }
    xb_side_state(r->x, &X);
    diff d;
    compare(&U, &X, true, true, &d);
    if (any(&d)) {
        printf("oracle: the two sides do not start equal (block %u)\n", k);
        return false;
    }
    r->have_prev = false;
    r->nstep = 0;
    if (r->verbose) {
        printf("block %u (seed 0x%" PRIx64 "):\n", k, r->seed);
        print_cfg(r);
    }
    int exc;
    uint64_t exc_pc;
    int rc = uc_side_run(r->u, ORC_CODE_BASE + 4ull * r->blk.n, on_step, r, &exc, &exc_pc);
    if (r->failed)
        return false;
    if (rc < 0) {
        printf("oracle: Unicorn failed in block %u\n", k);
        return false;
    }
    uc_side_state(r->u, &U);
    if (rc == 1) {
        int code = uc_excp_to_code(exc);
        if (code < 0 || exc_pc != r->prev_pc) {
            printf("oracle: unexpected Unicorn exception %d at 0x%" PRIx64 " (block %u)\n", exc,
                   exc_pc, k);
            return false;
        }
        if (!check_prev(r, &U, code + 1))
            return false;
    } else {
        U.pc = ORC_CODE_BASE + 4ull * r->blk.n;
        if (r->have_prev && !check_prev(r, &U, 0))
            return false;
    }
    if (!mem_equal(r, ORC_DATA_BASE, ORC_DATA_SIZE)) {
        printf("oracle: MISMATCH: memory differs at the end of block %u (seed 0x%" PRIx64 ")\n", k,
               r->seed);
        return false;
    }
    return jit_sync(r, "end of the block");
}

/* ---- Main -------------------------------------------------------------------------- */

static void print_exclusions(void)
{
    for (unsigned i = 0; i < orc_nexcls; i++)
        printf("%-28s %s %s\n", orc_excls[i].name, orc_excls[i].avoided ? "(not generated)" : "",
               orc_excls[i].reason);
}

static void summary(const orc_run *r, double secs)
{
    printf("oracle: seed 0x%" PRIx64 ": %" PRIu64 " blocks (%" PRIu64 " with FS=1, %" PRIu64
           " with FP exceptions enabled), %" PRIu64 " instructions compared in %.1f s\n",
           r->seed, r->blocks, r->fs_blocks, r->en_blocks, r->steps, secs);
    printf("  by class:");
    for (int i = 0; i < C_NCLASSES; i++)
        printf("%s %s %" PRIu64, i % 6 ? "," : "\n   ", orc_class_names[i], r->cls[i]);
    printf("\n  by FPU mode:");
    static const char *const rm[4] = {"RN", "RZ", "RP", "RM"};
    for (int f = 0; f < 2; f++)
        for (int m = 0; m < 4; m++)
            printf(" FR=%d/%s %" PRIu64, f, rm[m], r->mode[f][m]);
    printf("\n  exceptions compared:");
    for (int i = 0; i < 32; i++)
        if (r->exc[i])
            printf(" %s %" PRIu64, exc_names[i] ? exc_names[i] : "?", r->exc[i]);
    if (r->j) {
        uint64_t in, nb, inv, all = xb_side_retired(r->j);
        xb_side_jit(r->j, &in, &nb, &inv);
        printf("\n  translator: the same state and count as the interpreter at %" PRIu64
               " points; %.1f%% of its %" PRIu64 " instructions ran translated (%" PRIu64
               " blocks, %" PRIu64 " dropped as their code was rewritten)",
               r->jsyncs, all ? 100.0 * (double)(all - in) / (double)all : 0.0, all, nb, inv);
    } else
        printf("\n  translator: not run (--no-jit, or no translator on this host)");
    printf("\n  exclusions (instructions whose difference is a named, allowed one):\n");
    for (unsigned i = 0; i < orc_nexcls; i++)
        if (r->excl[i] || !orc_excls[i].avoided)
            printf("    %-28s %" PRIu64 "%s\n", orc_excls[i].name, r->excl[i],
                   orc_excls[i].avoided && r->excl[i] ? "  (GENERATOR BUG: should not be generated)"
                                                      : "");
}

static uint64_t env_u64(const char *name, uint64_t def)
{
    const char *s = getenv(name);
    return s && *s ? strtoull(s, NULL, 0) : def;
}

int main(int argc, char **argv)
{
    static orc_run run;
    orc_run *r = &run;
    setenv("XBOW_JIT_TIER", "0", 0); /* the twin translates every block at once */
    uint64_t insns = env_u64("ORACLE_INSNS", 1000000);
    r->seed = env_u64("ORACLE_SEED", 1);
    long block = -1;
    bool jit = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--insns") && i + 1 < argc)
            insns = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            r->seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--block") && i + 1 < argc)
            block = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--verbose"))
            r->verbose = true;
        else if (!strcmp(argv[i], "--no-jit"))
            jit = false;
        else if (!strcmp(argv[i], "--exclusions")) {
            print_exclusions();
            return 0;
        } else {
            fprintf(stderr, "usage: oracle [--insns N] [--seed S] [--block K] [--verbose] "
                            "[--exclusions] [--no-jit]\n");
            return 2;
        }
    }
    xerr err = {0};
    r->u = uc_side_new(&err);
    if (!r->u) {
        printf("oracle: Unicorn: %s\n", err.msg);
        return 2;
    }
    r->x = xb_side_new(&err);
    if (!r->x) {
        printf("oracle: xbow: %s\n", err.msg);
        return 2;
    }
    if (jit) {
        r->j = xb_side_new_mode(&err, 1 /* CPU_ENGINE_JIT */, true);
        if (!r->j)
            printf("oracle: no translator twin (%s)\n", err.msg);
        orc_rng_seed(&r->jrng, r->seed ^ 0x6a6974ull);
        r->jnext = next_gap(r);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = true;
    if (block >= 0) {
        ok = run_block(r, (unsigned)block);
    } else {
        for (unsigned k = 0; ok && r->steps < insns; k++)
            ok = run_block(r, k);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    summary(r, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    bool gen_bug = false;
    for (unsigned i = 0; i < orc_nexcls; i++)
        gen_bug |= orc_excls[i].avoided && r->excl[i];
    printf("oracle: %" PRIu64 " passed, %d failed\n", r->steps - (ok ? 0 : 1),
           ok && !gen_bug ? 0 : 1);
    uc_side_free(r->u);
    xb_side_free(r->x);
    xb_side_free(r->j);
    return ok && !gen_bug ? 0 : 1;
}
