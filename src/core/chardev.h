/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Character backends for guest serial ports: the user's terminal (stdio), a
 * pseudo-terminal, a file, or nothing.  Taps see every byte the guest sends,
 * so `expect`, the TUI console pane and logs need no special cases. */
#ifndef XBOW_CHARDEV_H
#define XBOW_CHARDEV_H

#include "core/common.h"

typedef struct chardev chardev;
typedef void (*chardev_tap_fn)(void *ctx, const uint8_t *buf, size_t n);

/* spec: "stdio", "pty", "null", "file:PATH" (output only). */
chardev *chardev_open(const char *spec, xerr *err);
void chardev_close(chardev *ch);
/* Guest output. */
void chardev_write(chardev *ch, const uint8_t *buf, size_t n);
void chardev_flush(chardev *ch);
/* Between scheduling turns: write out pending partial output lines. */
void chardev_poll(chardev *ch);
/* Guest input: the next byte, or -1 when there is none.  With the queue
 * empty it looks at the host side, which is read on demand:
 *  - a regular file (or block device) is read at once;
 *  - a pipe, socket or other stream is waited for up to
 *    CHARDEV_STREAM_WAIT_MS, so that a writer that is about to write (a
 *    script) gives the same run every time; a writer that stays silent that
 *    long makes the input live;
 *  - a terminal (or pty, or live stream) is polled at most once every
 *    CHARDEV_POLL_NS of host time.
 * End of file, a read error or a closed descriptor end the input. */
int chardev_getc(chardev *ch);
#define CHARDEV_POLL_NS 10000000u /* 10 ms: 100 polls a second at most */
#define CHARDEV_STREAM_WAIT_MS 100
/* Bytes of input that came from outside so far (typed, read, or from a
 * replay log): the debugger's history cannot re-execute past one. */
uint64_t chardev_inputs(const chardev *ch);
bool chardev_has_input(const chardev *ch);
/* Snapshots: the bytes typed and not yet taken (at most max into buf; the
 * queue holds chardev_input_capacity()), and replacing them. */
size_t chardev_pending_input(const chardev *ch, uint8_t *buf, size_t max);
size_t chardev_input_capacity(void);
void chardev_set_pending_input(chardev *ch, const uint8_t *buf, size_t n);
/* Record or replay the bytes the guest takes (core/rr.h): while recording,
 * each byte chardev_getc returns is logged; while replaying, chardev_getc
 * returns the logged bytes at their times and the host side and typed
 * input (chardev_push_input) are ignored. */
struct rr;
void chardev_set_rr(chardev *ch, struct rr *r);
/* The history's log (core/rr.h, rr_log; NULL: none): bytes queued for the
 * guest (typed, read from the host) and bytes a replay's log gave are kept
 * in it; while it feeds (the machine re-runs its past), the console takes
 * them from it, reads nothing from the host and ignores typed input.
 * chardev_history_sync queues the fed bytes due by now (the end of a feed). */
struct rr_log;
void chardev_set_history(chardev *ch, struct rr_log *L);
void chardev_history_sync(chardev *ch);
/* Queue bytes as if typed (TUI console pane, tests). */
void chardev_push_input(chardev *ch, const uint8_t *buf, size_t n);
/* Stop or resume reading the host side (the debugger owns the terminal
 * while the guest is stopped). */
void chardev_set_input_enabled(chardev *ch, bool on);
int chardev_add_tap(chardev *ch, chardev_tap_fn fn, void *ctx);
void chardev_remove_tap(chardev *ch, int id);
/* Echo guest output to the host side (stdout/pty/file)?  The TUI turns it
 * off and shows the console in a pane. */
void chardev_set_output_enabled(chardev *ch, bool on);
/* Drop the guest's output altogether, taps included (the debugger's history
 * re-executes what was already shown). */
void chardev_set_muted(chardev *ch, bool on);
/* Stop using the host side for good (the TUI shows the console in a pane
 * and feeds input with chardev_push_input). */
void chardev_detach_host(chardev *ch);
const char *chardev_describe(const chardev *ch); /* "stdio", "/dev/pts/3", ... */
/* How the input is read: "none", "file", "stream" or "live". */
const char *chardev_input_mode(const chardev *ch);
/* Tests and benchmarks: the host clock used to pace polling (NULL: the
 * monotonic clock), and the number of poll() and read() calls made on the
 * input so far. */
void chardev_set_host_clock(chardev *ch, uint64_t (*now_ns)(void *ctx), void *ctx);
uint64_t chardev_host_calls(const chardev *ch);

#endif
