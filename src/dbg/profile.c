/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The profiler: where the guest's instructions and the host's time go.
 *
 * Guest instructions are sampled (cpu_set_sampler): every ~PERIOD
 * instructions a profiled CPU executes, its pc and mode go into a table of
 * counts per pc; `profile report` resolves the pcs with every symbol loaded
 * (the kernel's, symbol-file's) and scales the counts by the instructions
 * the CPU really executed in the interval.  The sample points depend on the
 * instruction count only, so a run profiled twice gives the same report.
 * Host time is measured by section (core/hostprof.h): each CPU's
 * interpreter, each device's registers, each timer (device engines), DMA
 * per PCI function and kind, host network I/O, the console.  Neither costs
 * anything when the profiler is off. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/hostprof.h"
#include "dbg/dbg_int.h"

#define PERIOD 4000 /* instructions between samples, on average */
#define DEFAULT_ROWS 15

typedef struct pc_count {
    uint64_t pc;   /* 1 = free slot (a pc is 4-aligned) */
    uint32_t n[3]; /* samples by mode: kernel, supervisor, user */
} pc_count;

typedef struct prof_cpu {
    bool on;
    pc_count *tab;
    size_t cap, used;
    uint64_t samples;
    uint64_t insns0, waited0, ticks0; /* the CPU's counters at start ... */
    uint64_t insns1, waited1, ticks1; /* ... and at stop */
    cpu_run_stats rs0, rs1;           /* its run loop's exits (info engine) */
} prof_cpu;

typedef struct profile {
    bool running, have;
    prof_cpu cpu[MAX_CPUS];
    double host0, host1; /* process CPU time at start and stop */
    double thr0, thr1;   /* the debugger's and emulation's thread's */
} profile;

static profile *prof(dbg *d) { return DBG_STATE(d, prof); }

static double cpu_seconds_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double cpu_seconds(void) { return cpu_seconds_of(CLOCK_PROCESS_CPUTIME_ID); }
static double thread_seconds(void) { return cpu_seconds_of(CLOCK_THREAD_CPUTIME_ID); }

/* ---- samples ------------------------------------------------------------- */

static bool grow(prof_cpu *p)
{
    size_t cap = p->cap ? p->cap * 2 : 4096;
    pc_count *t = malloc(cap * sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < cap; i++)
        t[i].pc = 1;
    for (size_t i = 0; i < p->cap; i++) {
        if (p->tab[i].pc == 1)
            continue;
        size_t k = (size_t)(p->tab[i].pc >> 2) * 0x9e3779b97f4a7c15ull & (cap - 1);
        while (t[k].pc != 1)
            k = (k + 1) & (cap - 1);
        t[k] = p->tab[i];
    }
    free(p->tab);
    p->tab = t;
    p->cap = cap;
    return true;
}

static void on_sample(void *ctx, cpu *c, uint64_t pc, int mode)
{
    (void)c;
    prof_cpu *p = ctx;
    if (p->used * 2 >= p->cap && !grow(p))
        return;
    size_t k = (size_t)(pc >> 2) * 0x9e3779b97f4a7c15ull & (p->cap - 1);
    while (p->tab[k].pc != 1 && p->tab[k].pc != pc)
        k = (k + 1) & (p->cap - 1);
    if (p->tab[k].pc == 1) {
        p->tab[k].pc = pc;
        memset(p->tab[k].n, 0, sizeof p->tab[k].n);
        p->used++;
    }
    p->tab[k].n[mode >= 0 && mode < 3 ? mode : 0]++;
    p->samples++;
}

static void counters(cpu *c, uint64_t *insns, uint64_t *waited, uint64_t *ticks)
{
    cpu_wait_info w;
    cpu_get_wait_info(c, &w);
    *insns = cpu_retired(c);
    *waited = w.waited;
    *ticks = cpu_ticks(c);
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_profile_start(dbg *d, const cmd_args *a)
{
    machine *m = d->m;
    profile *p = prof(d);
    if (!p)
        return dbg_error(d, "profile: out of memory.");
    if (p->running)
        return dbg_error(d, "profile: already profiling (\"profile stop\" first).");
    int only = -1;
    if (a->num[0] == 0) { /* cpu N */
        if (!a->given[1] || a->num[1] >= m->ncpus)
            return dbg_error(d, "profile: want a CPU number from 0 to %u.", m->ncpus - 1);
        only = (int)a->num[1];
    } else if (a->given[1]) {
        return dbg_usage_error(d, "profile start", "a CPU number goes after \"cpu\"");
    }
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        prof_cpu *pc = &p->cpu[i];
        free(pc->tab);
        memset(pc, 0, sizeof *pc);
    }
    for (unsigned i = 0; i < m->ncpus; i++) {
        prof_cpu *pc = &p->cpu[i];
        pc->on = only < 0 || (int)i == only;
        if (!pc->on)
            continue;
        if (!grow(pc))
            return dbg_error(d, "profile: out of memory.");
        counters(m->cpus[i], &pc->insns0, &pc->waited0, &pc->ticks0);
        pc->rs0 = *cpu_get_run_stats(m->cpus[i]);
        cpu_set_sampler(m->cpus[i], PERIOD, on_sample, pc);
    }
    p->running = p->have = true;
    p->host0 = cpu_seconds();
    p->thr0 = thread_seconds();
    hostprof_start();
    if (only < 0)
        dbg_printf(d,
                   "Profiling every CPU: a sample every ~%u instructions, and the host's time.\n",
                   PERIOD);
    else
        dbg_printf(d, "Profiling cpu%d: a sample every ~%u instructions, and the host's time.\n",
                   only, PERIOD);
    return 0;
}

static void stop(dbg *d, profile *p)
{
    machine *m = d->m;
    for (unsigned i = 0; i < m->ncpus; i++) {
        prof_cpu *pc = &p->cpu[i];
        if (!pc->on)
            continue;
        cpu_set_sampler(m->cpus[i], 0, NULL, NULL);
        counters(m->cpus[i], &pc->insns1, &pc->waited1, &pc->ticks1);
        pc->rs1 = *cpu_get_run_stats(m->cpus[i]);
    }
    hostprof_stop();
    p->host1 = cpu_seconds();
    p->thr1 = thread_seconds();
    p->running = false;
}

static int cmd_profile_stop(dbg *d, const cmd_args *a)
{
    profile *p = prof(d);
    if (!p || !p->running)
        return dbg_error(d, "profile: not profiling (\"profile start\" first).");
    stop(d, p);
    dbg_puts(d, "Profiling stopped: \"profile report\" shows what it found.\n");
    return 0;
}

/* One row of a function table. */
typedef struct func_row {
    const char *name;
    uint64_t n[3];
} func_row;

static int by_name(const void *a, const void *b)
{
    const func_row *x = a, *y = b;
    return x->name < y->name ? -1 : x->name > y->name;
}

static uint64_t row_total(const func_row *r) { return r->n[0] + r->n[1] + r->n[2]; }

static int by_count(const void *a, const void *b)
{
    uint64_t x = row_total(a), y = row_total(b);
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(((const func_row *)a)->name, ((const func_row *)b)->name);
}

static const char *const NO_SYM_USER = "[user code without symbols]";
static const char *const NO_SYM = "[no symbol]";

/* Append the functions of CPU p's samples to rows (names resolved). */
static size_t add_rows(dbg *d, const prof_cpu *p, func_row *rows, size_t n)
{
    for (size_t i = 0; i < p->cap; i++) {
        const pc_count *e = &p->tab[i];
        if (e->pc == 1)
            continue;
        uint64_t off;
        const symbol *s = symtab_lookup_addr(&d->m->syms, e->pc, &off);
        func_row *r = &rows[n++];
        r->name = s ? s->name : e->n[2] ? NO_SYM_USER : NO_SYM;
        for (int k = 0; k < 3; k++)
            r->n[k] = e->n[k];
    }
    return n;
}

/* Merge rows of the same function and sort them by samples. */
static size_t merge(func_row *rows, size_t n)
{
    qsort(rows, n, sizeof *rows, by_name);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && rows[m - 1].name == rows[i].name) {
            for (int k = 0; k < 3; k++)
                rows[m - 1].n[k] += rows[i].n[k];
        } else {
            rows[m++] = rows[i];
        }
    }
    qsort(rows, m, sizeof *rows, by_count);
    return m;
}

static void fmt_count(double v, char *buf, size_t len)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.2f G", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.2f M", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.1f k", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

/* The table of the top `rows_max` functions; `insns` scales samples to
 * instructions. */
static void table(strbuf *b, func_row *rows, size_t n, uint64_t samples, uint64_t insns,
                  unsigned rows_max)
{
    sb_puts(b, "   share  instructions  kernel   user  function\n");
    for (size_t i = 0; i < n && i < rows_max; i++) {
        uint64_t t = row_total(&rows[i]);
        char cnt[24];
        fmt_count((double)t * (double)insns / (double)samples, cnt, sizeof cnt);
        sb_printf(b, "  %5.1f%%  %12s  %5.1f%%  %5.1f%%  %s\n", 100.0 * (double)t / (double)samples,
                  cnt, 100.0 * (double)(rows[i].n[0] + rows[i].n[1]) / (double)t,
                  100.0 * (double)rows[i].n[2] / (double)t, rows[i].name);
    }
    if (n > rows_max)
        sb_printf(b, "  (%zu more function%s)\n", n - rows_max, n - rows_max == 1 ? "" : "s");
}

static double ticks_s(const machine *m, uint64_t t) { return (double)t / (double)m->clock.hz; }

/* The run loop's exits over the interval (cpu.h, cpu_run_stats; the whole
 * story is in info engine). */
static void report_exits(strbuf *b, const cpu_run_stats *a, const cpu_run_stats *z)
{
#define D(f) ((unsigned long long)(z->f - a->f))
    uint64_t back = 0, help = 0, interp = 0, exc = 0;
    for (unsigned k = 0; k < 32; k++)
        exc += z->exceptions[k] - a->exceptions[k];
    for (unsigned k = 0; k < JIT_BACK_N; k++)
        back += z->back[k] - a->back[k];
    for (unsigned k = 0; k < JIT_HELP_N; k++)
        help += z->helpers[k] - a->helpers[k];
    for (unsigned k = 0; k < JIT_INTERP_N; k++)
        interp += z->interp_ticks[k] - a->interp_ticks[k];
    sb_printf(b,
              "  run loop: %llu inner runs (turn end %llu, Count/Compare %llu, idle-skip probe "
              "%llu, sample %llu, kick %llu, stop %llu); %llu exceptions (%llu interrupts), "
              "%llu device accesses\n",
              D(runs), D(run_end[RUN_END_TURN]), D(run_end[RUN_END_TIMER]),
              D(run_end[RUN_END_IDLE]), D(run_end[RUN_END_SAMPLE]), D(run_end[RUN_END_KICK]),
              D(run_end[RUN_END_STOP]), (unsigned long long)exc, D(exceptions[EXC_INT]),
              D(bus_accesses));
    if (z->enters == a->enters)
        return;
    sb_printf(b,
              "  translator: entered %llu times, back to the dispatcher %llu (lookup %llu, not "
              "chained %llu, budget %llu, helper stop %llu, exception %llu); %llu helper calls "
              "(%llu LWL-SDR/LL/SC); %llu instructions interpreted (%llu cold); %llu blocks "
              "translated\n",
              D(enters), (unsigned long long)back, D(back[JIT_BACK_LOOKUP]),
              D(back[JIT_BACK_CHAIN]), D(back[JIT_BACK_BUDGET]), D(back[JIT_BACK_STOP]),
              D(back[JIT_BACK_EXC]), (unsigned long long)help, D(helpers[JIT_HELP_MEM_OTHER]),
              (unsigned long long)interp, D(interp_ticks[JIT_INTERP_COLD]), D(translations));
#undef D
}

static void report_guest(dbg *d, profile *p, unsigned rows_max, strbuf *b)
{
    machine *m = d->m;
    size_t cap = 0;
    unsigned nprof = 0;
    uint64_t all_samples = 0, all_insns = 0, all_user = 0;
    for (unsigned i = 0; i < m->ncpus; i++) {
        if (!p->cpu[i].on)
            continue;
        cap += p->cpu[i].used;
        nprof++;
    }
    func_row *rows = malloc((cap + 1) * sizeof *rows);
    func_row *all = malloc((cap + 1) * sizeof *all);
    if (!rows || !all) {
        free(rows);
        free(all);
        sb_puts(b, "(out of memory)\n");
        return;
    }
    size_t nall = 0;
    for (unsigned i = 0; i < m->ncpus; i++) {
        prof_cpu *pc = &p->cpu[i];
        if (!pc->on)
            continue;
        if (p->running) {
            counters(m->cpus[i], &pc->insns1, &pc->waited1, &pc->ticks1);
            pc->rs1 = *cpu_get_run_stats(m->cpus[i]);
        }
        uint64_t insns = pc->insns1 - pc->insns0, waited = pc->waited1 - pc->waited0;
        uint64_t ticks = pc->ticks1 - pc->ticks0;
        size_t n = add_rows(d, pc, rows, 0);
        nall = add_rows(d, pc, all, nall);
        uint64_t user = 0;
        for (size_t k = 0; k < n; k++)
            user += rows[k].n[2];
        char ic[24], wc[24];
        fmt_count((double)insns, ic, sizeof ic);
        fmt_count((double)waited, wc, sizeof wc);
        sb_printf(b, "\ncpu%u: %.6f s of virtual time; %s instructions executed (%llu samples", i,
                  ticks_s(m, ticks), ic, (unsigned long long)pc->samples);
        if (pc->samples)
            sb_printf(b, "; kernel %.1f%%, user %.1f%%",
                      100.0 * (double)(pc->samples - user) / (double)pc->samples,
                      100.0 * (double)user / (double)pc->samples);
        sb_printf(b, "); waited %s ticks (%.1f%% of its time)\n", wc,
                  ticks ? 100.0 * (double)waited / (double)ticks : 0.0);
        report_exits(b, &pc->rs0, &pc->rs1);
        all_samples += pc->samples;
        all_insns += insns;
        all_user += user;
        if (!pc->samples)
            continue;
        n = merge(rows, n);
        table(b, rows, n, pc->samples, insns, rows_max);
    }
    if (nprof > 1 && all_samples) {
        char ic[24];
        fmt_count((double)all_insns, ic, sizeof ic);
        sb_printf(b, "\nAll CPUs: %s instructions (%llu samples; kernel %.1f%%, user %.1f%%)\n", ic,
                  (unsigned long long)all_samples,
                  100.0 * (double)(all_samples - all_user) / (double)all_samples,
                  100.0 * (double)all_user / (double)all_samples);
        nall = merge(all, nall);
        table(b, all, nall, all_samples, all_insns, rows_max);
    }
    free(rows);
    free(all);
}

static int by_time(const void *a, const void *b)
{
    const hostprof_entry *x = *(const hostprof_entry *const *)a,
                         *y = *(const hostprof_entry *const *)b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return x->kind - y->kind;
}

static void report_host(profile *p, unsigned rows_max, strbuf *b)
{
    const hostprof_entry *e;
    unsigned n = hostprof_entries(&e);
    const hostprof_entry **v = malloc((n + 1) * sizeof *v);
    if (!v)
        return;
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        v[i] = &e[i];
        total += e[i].ns;
    }
    qsort(v, n, sizeof *v, by_time);
    double proc = (p->running ? cpu_seconds() : p->host1) - p->host0;
    double thr = (p->running ? thread_seconds() : p->thr1) - p->thr0;
    sb_printf(b,
              "\nHost time: %.3f s while the guest ran (the process used %.3f s of CPU time, "
              "%.3f s of it in the emulation thread; the rest: host network writer and reader "
              "threads); each section without those inside it:\n",
              (double)total * 1e-9, proc, thr);
    sb_puts(b, "   share   seconds        calls  section\n");
    for (unsigned i = 0; i < n && i < rows_max; i++) {
        char label[96];
        hostprof_label(v[i], label, sizeof label);
        sb_printf(b, "  %5.1f%%  %8.3f  %11llu  %s\n",
                  total ? 100.0 * (double)v[i]->ns / (double)total : 0.0, (double)v[i]->ns * 1e-9,
                  (unsigned long long)v[i]->calls, label);
    }
    if (n > rows_max)
        sb_printf(b, "  (%u more section%s)\n", n - rows_max, n - rows_max == 1 ? "" : "s");
    free(v);
}

static int cmd_profile_report(dbg *d, const cmd_args *a)
{
    profile *p = prof(d);
    uint64_t rows_max = a->num[0];
    if (!p || !p->have)
        return dbg_error(d, "profile: no profile yet (\"profile start\", run the guest, then "
                            "\"profile report\").");
    strbuf b;
    sb_init(&b);
    sb_printf(&b,
              "Profile %s: guest instructions by function (a sample every ~%u "
              "instructions, scaled to the instructions executed), then host time.\n",
              p->running ? "so far (still profiling)" : "from start to stop", PERIOD);
    report_guest(d, p, (unsigned)rows_max, &b);
    report_host(p, (unsigned)rows_max, &b);
    return dbg_puts_sb(d, &b);
}

static void dbg_profile_free(dbg *d)
{
    profile *p = d->prof;
    if (!p)
        return;
    if (p->running)
        stop(d, p);
    for (unsigned i = 0; i < MAX_CPUS; i++)
        free(p->cpu[i].tab);
    free(p);
    d->prof = NULL;
}

#include "dbg/profile.cmds.h"

const dbg_module dbg_profile_module = {
    .name = "profile",
    .commands = DBG_COMMANDS("Profiling", profile_commands),
    .free = dbg_profile_free,
};
