/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Snapshot save and load times (`make bench-timetravel`): a 512 MB machine
 * with an e1000 on the echo peer boots Linux to its shell's command
 * (XBOW-RUN-BEGIN on the console); then, each BENCH_RUNS times (best and
 * median printed): an in-memory save (snapshot_take), an in-memory load
 * (snapshot_restore), a save to a file (take and write) and a load from it
 * (read and restore), and the state hash.  Then the same with every page of
 * RAM made non-zero (a pattern the host writes: the worst case for the
 * zero-page rule, though it compresses well).  And the history's
 * snapshot, 10 M ticks after the one before: only the pages written since.
 *
 * Usage: snap_bench VMLINUX [RUNS] [DIR for the file] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "machine/snapshot.h"
#include "../unit/machine/example_config.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct watch {
    char buf[256];
    size_t n;
    bool seen;
} watch;

static void tap(void *ctx, const uint8_t *b, size_t n)
{
    watch *w = ctx;
    static const char want[] = "XBOW-RUN-BEGIN";
    for (size_t i = 0; i < n && !w->seen; i++) {
        w->buf[w->n++ % sizeof w->buf] = (char)b[i];
        size_t k = sizeof want - 1;
        if (w->n >= k) {
            bool ok = true;
            for (size_t j = 0; j < k && ok; j++)
                ok = w->buf[(w->n - k + j) % sizeof w->buf] == want[j];
            w->seen = ok;
        }
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, unsigned n)
{
    qsort(t, n, sizeof *t, cmp);
    printf("  %-28s best %7.3f s   median %7.3f s\n", what, t[0], t[n / 2]);
}

static void measure(machine *m, unsigned runs, const char *file)
{
    double ts[4][32], th[32];
    snapshot *s = NULL;
    for (unsigned r = 0; r < runs; r++) {
        double t0 = now();
        snapshot_free(s);
        s = snapshot_take(m);
        double t1 = now();
        xerr err;
        if (snapshot_restore(m, s, &err) != 0) {
            fprintf(stderr, "snap_bench: %s\n", err.msg);
            exit(1);
        }
        double t2 = now();
        snapshot *f = snapshot_take(m);
        if (snapshot_write(f, file, &err) != 0) {
            fprintf(stderr, "snap_bench: %s\n", err.msg);
            exit(1);
        }
        snapshot_free(f);
        double t3 = now();
        f = snapshot_read(file, &err);
        if (!f || snapshot_restore(m, f, &err) != 0) {
            fprintf(stderr, "snap_bench: %s\n", err.msg);
            exit(1);
        }
        snapshot_free(f);
        double t4 = now();
        volatile uint64_t h = machine_state_hash(m);
        (void)h;
        th[r] = now() - t4;
        ts[0][r] = t1 - t0;
        ts[1][r] = t2 - t1;
        ts[2][r] = t3 - t2;
        ts[3][r] = t4 - t3;
    }
    struct stat st;
    stat(file, &st);
    printf("  %llu RAM pages stored (%.1f MB), %.1f MB in memory, file %.1f MB\n",
           (unsigned long long)snapshot_ram_pages(s),
           (double)snapshot_ram_pages(s) * 4096 / (1 << 20), (double)snapshot_bytes(s) / (1 << 20),
           (double)st.st_size / (1 << 20));
    report("save in memory", ts[0], runs);
    report("load from memory", ts[1], runs);
    report("save to a file", ts[2], runs);
    report("load from the file", ts[3], runs);
    report("info state-hash", th, runs);
    snapshot_free(s);
}

/* The history's snapshots: one, then after each 10 M ticks of the guest
 * (at its shell, pinging) another that copies only the pages written since
 * (snapshot_take_since, dirty-page tracking). */
static void measure_since(machine *m, unsigned runs)
{
    double ts[32];
    size_t own = 0, all = 0;
    snapshot *base = snapshot_take(m), *prev = NULL;
    snapshot_track(m);
    for (unsigned r = 0; r < runs; r++) {
        machine_run(m, 10000000);
        double t0 = now();
        snapshot *s = snapshot_take_since(m, base);
        snapshot_track(m);
        ts[r] = now() - t0;
        own = snapshot_own_bytes(s);
        all = snapshot_bytes(s);
        snapshot_free(prev);
        prev = base;
        base = s;
    }
    printf("the history's snapshot 10 M ticks after the one before (dirty pages only):\n");
    printf("  %.1f MB new of %.1f MB (the rest shared with the one before)\n",
           (double)own / (1 << 20), (double)all / (1 << 20));
    report("save in memory", ts, runs);
    snapshot_free(prev);
    snapshot_free(base);
    snapshot_untrack(m);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: snap_bench VMLINUX [RUNS] [DIR]\n");
        return 2;
    }
    unsigned runs = argc > 2 ? (unsigned)atoi(argv[2]) : 5;
    if (runs < 1 || runs > 32)
        runs = 5;
    char file[1024];
    snprintf(file, sizeof file, "%s/snap_bench.snap", argc > 3 ? argv[3] : "/tmp");
    log_set_level(LOG_ERROR);
    machine_config cfg =
        example_config(1, false, "e1000-82544", "echo", "xbow.run=\"ping -c 1 10.0.2.2\"");
    cfg.mem_mb = 512;
    xerr err;
    machine *m = machine_new(&cfg, &err);
    if (!m || machine_load_kernel(m, argv[1], &err) != 0) {
        fprintf(stderr, "snap_bench: %s\n", err.msg);
        return 1;
    }
    watch w = {.n = 0};
    chardev_add_tap(m->console, tap, &w);
    double t0 = now();
    for (unsigned i = 0; i < 4000 && !w.seen; i++) {
        machine_run(m, 1000000);
        chardev_flush(m->console);
    }
    if (!w.seen) {
        fprintf(stderr, "snap_bench: Linux did not reach its shell's command\n");
        return 1;
    }
    printf("snapshot times: 512 MB, 1 CPU, e1000 + echo peer, %s, %u runs\n",
           cfg.engine == CPU_ENGINE_JIT ? "jit" : "interp", runs);
    printf("Linux booted to its shell's command (XBOW-RUN-BEGIN): tick %llu, cpu0 %llu "
           "instructions (boot took %.1f s)\n",
           (unsigned long long)m->clock.now, (unsigned long long)cpu_retired(m->cpus[0]),
           now() - t0);
    measure(m, runs, file);
    measure_since(m, runs);
    /* Every page non-zero: the host writes a pattern over all of RAM. */
    ram_block *rb = m->ram;
    for (uint64_t off = 0; off < rb->size; off += 4096)
        for (unsigned k = 0; k < 4096; k += 64)
            rb->host[off + k] = (uint8_t)(off >> 12 | 1);
    printf("every page of RAM made non-zero (a pattern, every 64th byte):\n");
    measure(m, runs, file);
    unlink(file);
    machine_free(m);
    return 0;
}
