/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the record/replay log (src/core/rr.c): a log written and
 * read back, inputs due only at their time and channel, a divergence and
 * the end of the recording reported through the stop callback, and every
 * kind of bad log refused or stopped with its message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/rr.h"
#include "../check_run.h"

static char path[64];
static char stopped[512];
static int stops;

static void on_stop(void *ctx, const char *msg)
{
    (void)ctx;
    snprintf(stopped, sizeof stopped, "%s", msg);
    stops++;
}

/* A log: console 'a' at 5, a frame on channel 1 at 10, console 'b' at 10,
 * the end at 20. */
static void write_log(void)
{
    snprintf(path, sizeof path, "/tmp/xbow-test-rr-%d.log", (int)getpid());
    xerr err;
    rr *r = rr_record_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(
        rr_record_begin(r, "xbow-version: test\nidle-skip: on\nconfig:\ncpus 1\n", &err), 0);
    sched s;
    sched_init(&s, 1000);
    rr_attach(r, &s, NULL, NULL);
    s.now = 5;
    rr_put(r, RR_CONSOLE, 0, "a", 1);
    s.now = 10;
    uint8_t f[4 + 14] = {14, 0, 0, 0, 1, 2, 3};
    rr_put(r, RR_NET_FRAME, 1, f, sizeof f);
    rr_put(r, RR_CONSOLE, 0, "b", 1);
    s.now = 20;
    ck_assert_uint_eq(r->records, 3);
    rr_close(r);
}

static long file_size(void)
{
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void patch(long off, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    fseek(f, off, SEEK_SET);
    fwrite(bytes, 1, n, f);
    fclose(f);
}

START_TEST(crc32_is_the_ieee_one) { ck_assert_uint_eq(rr_crc32(0, "123456789", 9), 0xcbf43926u); }
END_TEST

START_TEST(a_log_replays_its_inputs_at_their_times)
{
    write_log();
    xerr err;
    rr *r = rr_replay_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert(r->complete);
    ck_assert_uint_eq(r->total, 3);
    ck_assert_uint_eq(r->end_time, 20);
    char v[32];
    ck_assert(rr_header_get(r, "idle-skip", v, sizeof v));
    ck_assert_str_eq(v, "on");
    ck_assert(!rr_header_get(r, "cpus", v, sizeof v)); /* in the configuration, not a key */
    ck_assert_str_eq(rr_header_config(r), "cpus 1\n");
    sched s;
    sched_init(&s, 1000);
    stops = 0;
    rr_attach(r, &s, on_stop, NULL);
    s.now = 4;
    ck_assert_ptr_null(rr_due(r, RR_CONSOLE, 0)); /* not yet */
    rr_check_time(r, 4);
    s.now = 5;
    ck_assert_ptr_null(rr_due(r, RR_CONSOLE, 1)); /* another channel */
    ck_assert_ptr_null(rr_due(r, RR_NET_FRAME, 0));
    const rr_rec *c = rr_due(r, RR_CONSOLE, 0);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->data[0], 'a');
    rr_take(r);
    s.now = 10;
    ck_assert_ptr_null(rr_due(r, RR_CONSOLE, 0)); /* the frame comes first */
    const rr_rec *f = rr_due(r, RR_NET_FRAME, 1);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->len, 18);
    ck_assert_int_eq(f->data[6], 3);
    rr_take(r);
    ck_assert_int_eq(rr_due(r, RR_CONSOLE, 0)->data[0], 'b');
    rr_take(r);
    rr_check_time(r, 10);
    ck_assert_int_eq(stops, 0);
    ck_assert_uint_eq(rr_deadline(r), 20);
    rr_check_time(r, 20);
    ck_assert_int_eq(stops, 1);
    ck_assert_int_eq(r->state, RR_DONE);
    ck_assert_ptr_nonnull(strstr(stopped, "end of the recording at time 20 (3 inputs"));
    ck_assert_uint_eq(rr_deadline(r), UINT64_MAX);
    strbuf b;
    sb_init(&b);
    rr_show(r, &b);
    ck_assert_ptr_nonnull(strstr(b.s, "record 3 of 3"));
    ck_assert_ptr_nonnull(strstr(b.s, "console   2 records, 2 bytes"));
    sb_free(&b);
    rr_close(r);
    unlink(path);
}
END_TEST

START_TEST(an_input_not_taken_is_a_divergence)
{
    write_log();
    xerr err;
    rr *r = rr_replay_open(path, &err);
    sched s;
    sched_init(&s, 1000);
    stops = 0;
    rr_attach(r, &s, on_stop, NULL);
    s.now = 5;
    rr_check_time(r, 5); /* due now: may still be taken */
    ck_assert_int_eq(stops, 0);
    rr_check_time(r, 6);
    ck_assert_int_eq(stops, 1);
    ck_assert_int_eq(r->state, RR_FAILED);
    ck_assert_ptr_nonnull(strstr(stopped, "replay diverged: the log has a console input"));
    ck_assert_ptr_nonnull(strstr(stopped, "at time 5, record 1 of 3; the machine is at 6"));
    /* Once stopped, nothing more is due and no second stop comes. */
    ck_assert_ptr_null(rr_due(r, RR_CONSOLE, 0));
    rr_check_time(r, 100);
    ck_assert_int_eq(stops, 1);
    rr_close(r);
    unlink(path);
}
END_TEST

START_TEST(damaged_logs_are_refused)
{
    xerr err;
    write_log();
    long hdr = 20 + (long)strlen("xbow-version: test\nidle-skip: on\nconfig:\ncpus 1\n");
    uint8_t x = 'z';
    patch(hdr + 16, &x, 1); /* the first record's byte */
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "record 1 (at byte"));
    ck_assert_ptr_nonnull(strstr(err.msg, "checksum mismatch: the log is damaged"));

    write_log();
    patch(30, &x, 1); /* the header text */
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "header checksum mismatch"));

    write_log();
    uint8_t v2[4] = {2, 0, 0, 0};
    patch(8, v2, 4);
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "log format version 2; this xbow reads version 1"));

    write_log();
    patch(0, "XBOWRAC\n", 8);
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "not an xbow record log"));

    write_log();
    uint8_t big[4] = {0, 0, 2, 0}; /* a record length of 128 KB */
    patch(hdr + 4, big, 4);
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "a record of 131072 bytes"));

    ck_assert_ptr_null(rr_replay_open("/nonexistent/x.log", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
    unlink(path);
}
END_TEST

START_TEST(a_log_cut_short_replays_as_far_as_it_goes)
{
    write_log();
    long n = file_size();
    /* Cut inside the end record: the three inputs are whole. */
    ck_assert_int_eq(truncate(path, n - 5), 0);
    xerr err;
    rr *r = rr_replay_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert(!r->complete);
    ck_assert_uint_eq(r->total, 3);
    ck_assert_uint_eq(r->end_time, 10);
    sched s;
    sched_init(&s, 1000);
    stops = 0;
    rr_attach(r, &s, on_stop, NULL);
    for (s.now = 0; s.now <= 10; s.now++) {
        while (rr_due(r, RR_CONSOLE, 0) || rr_due(r, RR_NET_FRAME, 1))
            rr_take(r);
        rr_check_time(r, s.now);
    }
    ck_assert_int_eq(stops, 1);
    ck_assert_ptr_nonnull(strstr(stopped, "without its end record (the recording was cut short)"));
    rr_close(r);
    /* Cut inside the second record: one input. */
    write_log();
    long hdr = 20 + (long)strlen("xbow-version: test\nidle-skip: on\nconfig:\ncpus 1\n");
    ck_assert_int_eq(truncate(path, hdr + 21 + 10), 0);
    r = rr_replay_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->total, 1);
    ck_assert_uint_eq(r->end_time, 5);
    rr_close(r);
    /* Only the header. */
    ck_assert_int_eq(truncate(path, hdr), 0);
    r = rr_replay_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->total, 0);
    ck_assert(!r->complete);
    rr_close(r);
    /* Inside the header. */
    ck_assert_int_eq(truncate(path, 25), 0);
    ck_assert_ptr_null(rr_replay_open(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "the header is cut short"));
    unlink(path);
}
END_TEST


int main(void)
{
    return check_main("rr", "log", NULL, NULL, 0, crc32_is_the_ieee_one,
                      a_log_replays_its_inputs_at_their_times, an_input_not_taken_is_a_divergence,
                      damaged_logs_are_refused, a_log_cut_short_replays_as_far_as_it_goes);
}
