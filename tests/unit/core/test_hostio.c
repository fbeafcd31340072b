/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the host side of the console (src/core/chardev.c): how its
 * input is read (a file at once, a pipe waited for, a terminal polled at a
 * host-time rate with an injected clock), and that the end of the input or a
 * closed descriptor stops the reading. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/chardev.h"
#include "../check_run.h"

static uint64_t fake_ns;
static uint64_t fake_clock(void *ctx)
{
    (void)ctx;
    return fake_ns;
}

/* Standard input replaced by fd for one test (Check may run tests in this
 * process: put the real one back). */
static int saved_stdin = -1;
static void stdin_from(int fd)
{
    if (saved_stdin < 0)
        saved_stdin = dup(0);
    if (fd < 0)
        close(0);
    else if (fd != 0) {
        dup2(fd, 0);
        close(fd);
    }
}
static void stdin_restore(void)
{
    if (saved_stdin >= 0) {
        dup2(saved_stdin, 0);
        close(saved_stdin);
        saved_stdin = -1;
    }
}

static chardev *open_stdio(void)
{
    xerr err;
    chardev *ch = chardev_open("stdio", &err);
    ck_assert_msg(ch != NULL, "%s", err.msg);
    chardev_set_output_enabled(ch, false);
    return ch;
}

START_TEST(terminal_is_polled_at_a_host_time_rate)
{
    xerr err;
    chardev *ch = chardev_open("pty", &err);
    ck_assert_msg(ch != NULL, "%s", err.msg);
    ck_assert_str_eq(chardev_input_mode(ch), "live");
    int slave = open(chardev_describe(ch), O_RDWR | O_NOCTTY);
    ck_assert_int_ge(slave, 0);
    fake_ns = 1000000000u;
    chardev_set_host_clock(ch, fake_clock, NULL);
    /* Nobody types: the guest's UART asks 100000 times within one poll
     * interval, the host is asked once. */
    for (int i = 0; i < 100000; i++)
        ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), 1);
    fake_ns += CHARDEV_POLL_NS - 1;
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), 1);
    fake_ns += 1;
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), 2);
    /* Typed bytes wait for the next poll, then come one per request. */
    ck_assert_int_eq(write(slave, "ab", 2), 2);
    ck_assert_int_eq(chardev_getc(ch), -1);
    fake_ns += CHARDEV_POLL_NS;
    ck_assert_int_eq(chardev_getc(ch), 'a');
    ck_assert_int_eq(chardev_getc(ch), 'b');
    ck_assert_uint_eq(chardev_host_calls(ch), 4); /* a poll and a read */
    /* While the debugger owns the terminal, nothing is read. */
    chardev_set_input_enabled(ch, false);
    fake_ns += CHARDEV_POLL_NS;
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), 4);
    /* Nobody on the other side of a pty is no end of input: it may come back. */
    chardev_set_input_enabled(ch, true);
    close(slave);
    for (int i = 0; i < 3; i++) {
        fake_ns += CHARDEV_POLL_NS;
        ck_assert_int_eq(chardev_getc(ch), -1);
    }
    ck_assert_str_eq(chardev_input_mode(ch), "live");
    chardev_close(ch);
}
END_TEST

START_TEST(file_is_read_on_demand_to_its_end)
{
    char path[] = "/tmp/xbow-hostio-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "hi\n", 3), 3);
    lseek(fd, 0, SEEK_SET);
    unlink(path);
    stdin_from(fd);
    chardev *ch = open_stdio();
    ck_assert_str_eq(chardev_input_mode(ch), "file");
    ck_assert_uint_eq(chardev_host_calls(ch), 0); /* nothing before the guest asks */
    ck_assert_int_eq(chardev_getc(ch), 'h');
    ck_assert_int_eq(chardev_getc(ch), 'i');
    ck_assert_int_eq(chardev_getc(ch), '\n');
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_str_eq(chardev_input_mode(ch), "none");
    uint64_t calls = chardev_host_calls(ch);
    ck_assert_uint_eq(calls, 2); /* two reads, no poll: the second one said EOF */
    for (int i = 0; i < 1000; i++)
        chardev_getc(ch);
    ck_assert_uint_eq(chardev_host_calls(ch), calls);
    chardev_close(ch);
    stdin_restore();
}
END_TEST

START_TEST(pipe_writer_is_waited_for_then_input_is_live)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    stdin_from(p[0]);
    chardev *ch = open_stdio();
    ck_assert_str_eq(chardev_input_mode(ch), "stream");
    fake_ns = 5;
    chardev_set_host_clock(ch, fake_clock, NULL);
    /* Written before the guest asks: read as from a file. */
    ck_assert_int_eq(write(p[1], "ok", 2), 2);
    ck_assert_int_eq(chardev_getc(ch), 'o');
    ck_assert_int_eq(chardev_getc(ch), 'k');
    ck_assert_str_eq(chardev_input_mode(ch), "stream");
    /* The writer stays silent for CHARDEV_STREAM_WAIT_MS: input becomes live,
     * polled at the host-time rate from then on. */
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_str_eq(chardev_input_mode(ch), "live");
    uint64_t calls = chardev_host_calls(ch);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_le(chardev_host_calls(ch), calls + 1);
    ck_assert_int_eq(write(p[1], "z", 1), 1);
    fake_ns += CHARDEV_POLL_NS;
    ck_assert_int_eq(chardev_getc(ch), 'z');
    /* The writer closes: the end of the input, never polled again. */
    close(p[1]);
    fake_ns += CHARDEV_POLL_NS;
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_str_eq(chardev_input_mode(ch), "none");
    calls = chardev_host_calls(ch);
    fake_ns += 100 * (uint64_t)CHARDEV_POLL_NS;
    ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), calls);
    chardev_close(ch);
    stdin_restore();
}
END_TEST

START_TEST(closed_stdin_is_never_polled)
{
    stdin_from(-1);
    chardev *ch = open_stdio();
    ck_assert_str_eq(chardev_input_mode(ch), "none");
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(chardev_getc(ch), -1);
    ck_assert_uint_eq(chardev_host_calls(ch), 0);
    /* Bytes pushed by the front end (the TUI's console pane) still come. */
    chardev_push_input(ch, (const uint8_t *)"k", 1);
    ck_assert_int_eq(chardev_getc(ch), 'k');
    chardev_close(ch);
    stdin_restore();
}
END_TEST


int main(void)
{
    return check_main("hostio", "console input", NULL, NULL, 0,
                      terminal_is_polled_at_a_host_time_rate, file_is_read_on_demand_to_its_end,
                      pipe_writer_is_waited_for_then_input_is_live, closed_stdin_is_never_polled);
}
