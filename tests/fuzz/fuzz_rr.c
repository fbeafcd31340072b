/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the record/replay log reader (src/core/rr.c) and the
 * machine's reading of its header (src/machine/record.c): the input is a
 * log file.  One that opens is replayed the way the machine consumes it:
 * the clock moves to each record's time, the record is taken by its kind
 * and channel (or, for some records chosen by the input's own bytes, left
 * so the replay diverges), and the time check runs after each step.
 *
 * Invariants: a log that opens has records no later than their count says
 * and an end time no earlier than any record's; the replay never takes more
 * records than the log has, stops at most once, and ends (done or failed)
 * by the end time; info record prints. */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/rr.h"
#include "machine/record.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_rr: invariant broken: %s\n", what);
    abort();
}

static void quiet_log(void *ctx, int level, const char *who, const char *msg)
{
    (void)ctx;
    (void)level;
    (void)who;
    (void)msg;
}

static int stops;
static void on_stop(void *ctx, const char *msg)
{
    (void)ctx;
    if (!msg || !*msg)
        fail("a stop without a message");
    stops++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    log_set_sink(quiet_log, NULL);
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (!f)
        return 0;
    if (!size) {
        fclose(f);
        return 0;
    }
    xerr err;
    rr *r = rr_replay_open_stream(f, "fuzz.rr", &err);
    if (!r) {
        fclose(f);
        if (!err.msg[0])
            fail("a refused log without a message");
        return 0;
    }
    machine_config cfg;
    machine_config_default(&cfg);
    (void)machine_replay_settings(r, &cfg, &err);
    char v[64];
    (void)rr_header_get(r, "xbow-version", v, sizeof v);
    (void)rr_header_config(r);
    sched s;
    sched_init(&s, XBOW_CPU_HZ);
    stops = 0;
    rr_attach(r, &s, on_stop, NULL);
    uint64_t total = r->total, steps = 0;
    while (r->state == RR_RUNNING && steps++ < 100000) {
        if (r->have_next && r->next.kind != RR_END) {
            if (r->next.time > r->end_time)
                fail("a record after the end time");
            if (r->next.time > s.now)
                s.now = r->next.time;
            /* Leave a record now and then (its first data byte decides). */
            bool leave = r->next.len && r->next.data[0] == 0xa5;
            if (!leave && rr_due(r, r->next.kind, r->next.channel))
                rr_take(r);
            rr_check_time(r, s.now + (leave ? 1 : 0));
        } else {
            s.now = r->end_time > s.now ? r->end_time : s.now;
            rr_check_time(r, s.now);
            break;
        }
        if (r->records > total)
            fail("more records taken than the log has");
    }
    if (r->state == RR_RUNNING)
        fail("the replay did not end by its end time");
    if (stops != 1)
        fail("the replay did not stop exactly once");
    strbuf b;
    sb_init(&b);
    rr_show(r, &b);
    if (!b.s || !strstr(b.s, "fuzz.rr"))
        fail("info record does not name the log");
    sb_free(&b);
    rr_close(r);
    return 0;
}
