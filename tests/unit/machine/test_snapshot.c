/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-machine snapshots: the round trip with every example guest, and
 * every kind of bad file.
 *
 * Round trip: a guest runs to N; a snapshot is taken (in memory, and
 * written to a file); it runs on to M, and its state hash and the console
 * output from N to M are noted.  Then the same machine is loaded from the
 * in-memory snapshot and a fresh machine from the file: both run to M and
 * must reach the same hash with the same console output.  At several N
 * for each guest (mid-DMA, mid-frame, waiting, polling), with the
 * interpreter and, where the host has one, the translator.
 *
 * Bad files: not a snapshot, a newer format version, truncated anywhere,
 * a flipped byte in every section, another machine configuration: each is
 * a one-line error naming the problem, and the machine's state hash is the
 * same after it as before. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "machine/snapshot.h"
#include "../check_run.h"
#include "example_machine.h"

typedef struct guest {
    const char *elf; /* under examples/ */
    unsigned ncpus;
    bool test_device;
    const char *input;  /* typed on the console at the start, or NULL */
    uint64_t first;     /* the first save point ... */
    uint64_t stride;    /* ... then every stride ... */
    unsigned points;    /* ... this many */
    uint64_t run_on;    /* instructions from a save point to M */
    const char *nic;    /* a NIC model in slot 3, or NULL */
    const char *net;    /* its peer */
    const char *append; /* the guest's command line */
} guest;

static char tmpdir[256];

static machine *build(const guest *g, int engine)
{
    machine_config cfg = example_config(g->ncpus, g->test_device, g->nic, g->net, g->append);
    if (engine >= 0)
        cfg.engine = engine;
    return example_machine(&cfg, g->elf);
}

static bool built(const char *elf) { return example_built(elf, "test_snapshot"); }

static void collect(void *ctx, const uint8_t *buf, size_t n) { sb_append(ctx, buf, n); }

/* Run m for n instructions; its console output goes to out (reset first). */
static void run_collect(machine *m, uint64_t n, strbuf *out)
{
    sb_reset(out);
    int tap = chardev_add_tap(m->console, collect, out);
    machine_run(m, n);
    chardev_flush(m->console);
    chardev_remove_tap(m->console, tap);
}

static bool same_text(const strbuf *a, const strbuf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
}

static void round_trip_engine(const guest *g, int engine)
{
    machine *a = build(g, engine);
    if (g->input)
        chardev_push_input(a->console, (const uint8_t *)g->input, strlen(g->input));
    strbuf out1, out2, out3;
    sb_init(&out1);
    sb_init(&out2);
    sb_init(&out3);
    uint64_t done = 0;
    char file[300];
    snprintf(file, sizeof file, "%s/rt.snap", tmpdir);
    for (unsigned k = 0; k < g->points; k++) {
        uint64_t n = k == 0 ? g->first : g->stride;
        machine_run(a, n);
        done += n;
        char where[128];
        snprintf(where, sizeof where, "%s (%s) at %llu", g->elf,
                 engine == CPU_ENGINE_JIT ? "jit" : "interp", (unsigned long long)done);
        uint64_t h0 = machine_state_hash(a);
        snapshot *s = snapshot_take(a);
        xerr err;
        ck_assert_msg(snapshot_write(s, file, &err) == 0, "%s: %s", where, err.msg);
        ck_assert_msg(machine_state_hash(a) == h0, "%s: taking a snapshot changed the state",
                      where);
        run_collect(a, g->run_on, &out1);
        uint64_t h1 = machine_state_hash(a);
        ck_assert_msg(h1 != h0, "%s: the guest did nothing in %llu instructions", where,
                      (unsigned long long)g->run_on);
        /* Back in the same machine, from memory. */
        ck_assert_msg(snapshot_restore(a, s, &err) == 0, "%s: %s", where, err.msg);
        ck_assert_msg(machine_state_hash(a) == h0, "%s: the loaded state differs", where);
        run_collect(a, g->run_on, &out2);
        ck_assert_msg(machine_state_hash(a) == h1, "%s: the run after the load diverged", where);
        ck_assert_msg(same_text(&out1, &out2),
                      "%s: console output differs after the load:\n%.*s\n--\n%.*s", where,
                      (int)out1.len, out1.s ? out1.s : "", (int)out2.len, out2.s ? out2.s : "");
        /* A fresh machine from the file. */
        snapshot *f = snapshot_read(file, &err);
        ck_assert_msg(f != NULL, "%s: %s", where, err.msg);
        machine *b = build(g, engine);
        ck_assert_msg(snapshot_restore(b, f, &err) == 0, "%s: %s", where, err.msg);
        ck_assert_msg(machine_state_hash(b) == h0, "%s: the state loaded from the file differs",
                      where);
        run_collect(b, g->run_on, &out3);
        ck_assert_msg(machine_state_hash(b) == h1, "%s: the run from the file diverged", where);
        ck_assert_msg(same_text(&out1, &out3), "%s: console output differs from the file", where);
        machine_free(b);
        snapshot_free(f);
        snapshot_free(s);
    }
    sb_free(&out1);
    sb_free(&out2);
    sb_free(&out3);
    unlink(file);
    machine_free(a);
}

static void round_trip(const guest *g)
{
    if (!built(g->elf))
        return;
    round_trip_engine(g, CPU_ENGINE_INTERP);
    if (cpu_engine_available(CPU_ENGINE_JIT))
        round_trip_engine(g, CPU_ENGINE_JIT);
}

/* clang-format off */
START_TEST(snap_hello)
{
    static const guest g = {"hello/hello.elf", 1, false, NULL, 1000, 7919, 4, 20000, NULL, NULL, NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_timer)
{
    static const guest g = {"timer/timer.elf", 1, false, NULL, 100003, 1000003, 4, 2000000, NULL, NULL, NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_serial_irq)
{
    static const guest g = {"serial-irq/serial_irq.elf", 1, false, "typed\nmore\n", 5003, 40009, 4, 200000, NULL, NULL, NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_smp)
{
    static const guest g = {"smp/smp.elf", 2, false, NULL, 5003, 50021, 4, 100000, NULL, NULL, NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_testdev)
{
    static const guest g = {"testdev/testdev_dma.elf", 1, true, NULL, 20011, 200003, 4, 300000, NULL, NULL, NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_hamachi)
{
    static const guest g = {"hamachi/hamachi.elf", 1, false, NULL, 7919, 300007, 4, 300000, "hamachi", "sink", "tx 60"};
    round_trip(&g);
}
END_TEST

START_TEST(snap_e1000)
{
    static const guest g = {"e1000/echo.elf", 1, false, NULL, 20011, 300007, 4, 300000, "e1000-82544", "echo", "count=25 size=700"};
    round_trip(&g);
}
END_TEST

START_TEST(snap_tigon)
{
    static const guest g = {"tigon/tigon_echo.elf", 1, false, NULL, 30011, 300007, 4, 300000, "tigon2", "echo", NULL};
    round_trip(&g);
}
END_TEST

START_TEST(snap_tigon_gen)
{
    static const guest g = {"tigon/tigon_rx.elf", 1, false, NULL, 30011, 400009, 3, 400000, "tigon2", "gen:size=600,rate=20000", NULL};
    round_trip(&g);
}
END_TEST
/* clang-format on */

/* ---- bad files ---- */

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = xmalloc(*len);
    ck_assert_uint_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

/* parse + restore of a damaged image must fail with `want` in one line,
 * and leave m as it was. */
static void expect_bad(machine *m, const uint8_t *buf, size_t len, const char *want,
                       const char *what)
{
    uint64_t h = machine_state_hash(m);
    xerr err;
    err.msg[0] = 0;
    snapshot *s = snapshot_parse(buf, len, &err);
    if (s) {
        int rc = snapshot_restore(m, s, &err);
        snapshot_free(s);
        ck_assert_msg(rc != 0, "%s: loaded", what);
    }
    ck_assert_msg(strstr(err.msg, want) != NULL, "%s: \"%s\" lacks \"%s\"", what, err.msg, want);
    ck_assert_msg(strchr(err.msg, '\n') == NULL, "%s: more than one line", what);
    ck_assert_msg(machine_state_hash(m) == h, "%s: the machine changed", what);
}

/* Offsets of each section's compressed data in a file we wrote. */
typedef struct sec_pos {
    char name[64];
    size_t at, zlen;
} sec_pos;

static unsigned sections(const uint8_t *b, size_t len, sec_pos *out, unsigned max)
{
    size_t p = 12;
    p += 4 + load_le(b + 8 + 4, 4) + 4;
    unsigned n = 0;
    while (p + 4 <= len && n < max) {
        size_t nl = load_le(b + p, 4);
        sec_pos *s = &out[n++];
        snprintf(s->name, sizeof s->name, "%.*s", (int)nl, (const char *)b + p + 4);
        p += 4 + nl + 1 + 8;
        s->zlen = load_le(b + p, 8);
        p += 8 + 4;
        s->at = p;
        p += s->zlen;
    }
    return n;
}

START_TEST(snap_bad_files)
{
    static const guest g = {
        "tigon/tigon_echo.elf", 1, false, NULL, 0, 0, 0, 0, "tigon2", "echo", NULL};
    if (!built(g.elf))
        return;
    log_set_level(LOG_ERROR);
    machine *m = build(&g, -1);
    machine_run(m, 200000);
    snapshot *s = snapshot_take(m);
    char file[300];
    snprintf(file, sizeof file, "%s/bad.snap", tmpdir);
    xerr err;
    ck_assert(snapshot_write(s, file, &err) == 0);
    snapshot_free(s);
    machine_run(m, 100000); /* m is elsewhere now: a bad load must leave it there */
    size_t len;
    uint8_t *good = slurp(file, &len);
    uint8_t *b = xmalloc(len);

    expect_bad(m, (const uint8_t *)"hello", 5, "not an xbow snapshot", "garbage");
    expect_bad(m, good, 0, "not an xbow snapshot", "empty");
    memcpy(b, good, len);
    store_le(b + 8, 4, SNAPSHOT_FORMAT_VERSION + 1);
    expect_bad(m, b, len, "newer than this xbow reads", "newer version");
    memcpy(b, good, len);
    b[20] ^= 0x40; /* in the header (version string) */
    expect_bad(m, b, len, "header is corrupted (checksum mismatch)", "header");
    /* Truncated: at every section boundary and in the middle of each. */
    sec_pos sp[64];
    unsigned ns = sections(good, len, sp, 64);
    ck_assert_uint_gt(ns, 8);
    ck_assert_str_eq(sp[ns - 1].name, "end");
    for (unsigned i = 0; i + 1 < ns; i++) {
        char what[160];
        snprintf(what, sizeof what, "truncated in %.64s", sp[i].name);
        expect_bad(m, good, sp[i].at + sp[i].zlen / 2, "truncated", what);
        snprintf(what, sizeof what, "truncated after %.64s", sp[i].name);
        expect_bad(m, good, sp[i].at + sp[i].zlen, "truncated", what);
    }
    expect_bad(m, good, 10, "not an xbow snapshot", "truncated in the magic");
    expect_bad(m, good, 30, "truncated in its header", "truncated in the header");
    /* A byte flipped in each section's data: that section is named.  (A
     * flip deflate's redundancy absorbs, such as in an unused code of a
     * Huffman table, decodes to the same bytes: then the same state.) */
    snapshot *ref = snapshot_parse(good, len, &err);
    ck_assert_ptr_nonnull(ref);
    machine *r = build(&g, -1);
    ck_assert(snapshot_restore(r, ref, &err) == 0);
    uint64_t want_h = machine_state_hash(r);
    snapshot_free(ref);
    for (unsigned i = 0; i + 1 < ns; i++) {
        char want[160], what[160];
        snprintf(want, sizeof want, "section \"%.64s\" is corrupted", sp[i].name);
        snprintf(what, sizeof what, "flipped last byte of %.64s", sp[i].name);
        memcpy(b, good, len);
        b[sp[i].at + sp[i].zlen - 1] ^= 0x10;
        expect_bad(m, b, len, want, what);
        for (unsigned k = 1; k < 4; k++) {
            memcpy(b, good, len);
            b[sp[i].at + sp[i].zlen * k / 4] ^= 0x10;
            snapshot *f = snapshot_parse(b, len, &err);
            if (!f) {
                ck_assert_msg(strstr(err.msg, want) != NULL, "\"%s\" lacks \"%s\"", err.msg, want);
                continue;
            }
            if (snapshot_restore(r, f, &err) == 0)
                ck_assert_msg(machine_state_hash(r) == want_h, "%s: a flip loaded another state",
                              sp[i].name);
            snapshot_free(f);
        }
    }
    machine_free(r);
    /* Bytes after the end. */
    uint8_t *longer = xmalloc(len + 3);
    memcpy(longer, good, len);
    memcpy(longer + len, "xyz", 3);
    expect_bad(m, longer, len + 3, "3 bytes after the end", "trailing bytes");
    free(longer);
    /* Another machine: more CPUs, more memory, another NIC, no NIC. */
    static const guest other[] = {
        {"tigon/tigon_echo.elf", 2, false, NULL, 0, 0, 0, 0, "tigon2", "echo", NULL},
        {"tigon/tigon_echo.elf", 1, false, NULL, 0, 0, 0, 0, "hamachi", "echo", NULL},
        {"tigon/tigon_echo.elf", 1, false, NULL, 0, 0, 0, 0, "tigon2", "sink", NULL},
        {"tigon/tigon_echo.elf", 1, false, NULL, 0, 0, 0, 0, NULL, NULL, NULL},
        {"tigon/tigon_echo.elf", 1, true, NULL, 0, 0, 0, 0, "tigon2", "echo", NULL},
    };
    const char *diff[] = {"cpus:", "nic0:", "peer sink", "nic0: the file has", "testdev:"};
    for (unsigned i = 0; i < ARRAY_SIZE(other); i++) {
        machine *o = build(&other[i], -1);
        expect_bad(o, good, len, diff[i], diff[i]);
        machine_free(o);
    }
    free(b);
    free(good);
    unlink(file);
    machine_free(m);
}
END_TEST

/* Files that cannot be read or written. */
START_TEST(snap_bad_paths)
{
    xerr err;
    ck_assert_ptr_null(snapshot_read("/nonexistent/x.snap", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
    ck_assert_ptr_null(snapshot_read("/", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
    static const guest g = {"hello/hello.elf", 1, false, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    if (!built(g.elf))
        return;
    machine *m = build(&g, -1);
    snapshot *s = snapshot_take(m);
    ck_assert_int_eq(snapshot_write(s, "/nonexistent/x.snap", &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/x.snap"));
    snapshot_free(s);
    machine_free(m);
}
END_TEST

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/xbow-snap-XXXXXX");
    if (!mkdtemp(tmpdir))
        return EXIT_FAILURE;
    Suite *s = suite_create("snapshot");
    TCase *tc = tcase_create("snapshot");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, snap_hello);
    tcase_add_test(tc, snap_timer);
    tcase_add_test(tc, snap_serial_irq);
    tcase_add_test(tc, snap_smp);
    tcase_add_test(tc, snap_testdev);
    tcase_add_test(tc, snap_hamachi);
    tcase_add_test(tc, snap_e1000);
    tcase_add_test(tc, snap_tigon);
    tcase_add_test(tc, snap_tigon_gen);
    tcase_add_test(tc, snap_bad_files);
    tcase_add_test(tc, snap_bad_paths);
    suite_add_tcase(s, tc);
    int failed = check_run(s);
    rmdir(tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
