/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/chardev.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/outfile.h"
#include "core/rr.h"

#define CH_MAX_TAPS 8
#define CH_INQ 4096

/* How the host side's input is read; see docs/architecture.md, "Console
 * input".  Input is read only when the guest's UART wants a byte (it samples
 * the line once per character time) and its queue is empty, so a file or a
 * scripted pipe gives the same bytes at the same virtual times on every run
 * and an idle terminal costs no system call per scheduling quantum. */
enum in_mode {
    IN_OFF,    /* none, end of file, or a closed descriptor */
    IN_FILE,   /* a regular file: always ready, read on demand */
    IN_STREAM, /* a pipe or socket: read on demand, waiting for the writer */
    IN_LIVE,   /* a terminal (or a stream whose writer paused): polled at a host-time rate */
};

struct chardev {
    int in_fd, out_fd;
    bool own_fds, input_on, output_on, own_pty;
    enum in_mode in_mode;
    uint64_t (*host_ns)(void *ctx); /* host clock (injectable for tests) */
    void *host_ctx;
    uint64_t next_poll_ns; /* IN_LIVE: no poll before then */
    uint64_t host_calls;   /* poll() and read() calls on the input */
    outfile *file;         /* file:PATH (out_fd is -1 until it is handed over) */
    char desc[64];
    struct {
        chardev_tap_fn fn;
        void *ctx;
    } taps[CH_MAX_TAPS];
    uint8_t inq[CH_INQ];
    unsigned head, tail; /* queue: tail - head bytes */
    uint64_t taken;      /* bytes that came from outside (chardev_inputs) */
    bool muted;          /* output goes nowhere, not even to the taps */
    uint8_t out[1024];
    unsigned outn;
    rr *rr;       /* recording or replaying the input, or NULL */
    rr_log *hist; /* the history's log, or NULL */
};

static uint64_t monotonic_ns(void *ctx)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What kind of input a descriptor is (see enum in_mode). */
static enum in_mode input_mode(int fd)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return IN_OFF;
    if (isatty(fd))
        return IN_LIVE;
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
        return IN_FILE;
    return IN_STREAM;
}

static int file_ready(void *ctx, int fd, xerr *err)
{
    chardev *ch = ctx;
    ch->out_fd = fd;
    return 0;
}

chardev *chardev_open(const char *spec, xerr *err)
{
    chardev *ch = xcalloc(1, sizeof *ch);
    ch->in_fd = ch->out_fd = -1;
    ch->input_on = ch->output_on = true;
    if (strcmp(spec, "stdio") == 0) {
        ch->in_fd = 0;
        ch->out_fd = 1;
        snprintf(ch->desc, sizeof ch->desc, "stdio");
    } else if (strcmp(spec, "null") == 0) {
        snprintf(ch->desc, sizeof ch->desc, "null");
    } else if (strcmp(spec, "pty") == 0) {
        int fd = posix_openpt(O_RDWR | O_NOCTTY);
        if (fd < 0 || grantpt(fd) || unlockpt(fd)) {
            xerr_set(err, "pty: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            free(ch);
            return NULL;
        }
        ch->in_fd = ch->out_fd = fd;
        ch->own_fds = ch->own_pty = true;
        snprintf(ch->desc, sizeof ch->desc, "%s", ptsname(fd));
        /* A raw line, as a serial cable is: else the slave's line
         * discipline echoes what the guest prints back to it as input
         * while nobody has the pty open (and cooks what a user types). */
        int slave = open(ch->desc, O_RDWR | O_NOCTTY | O_CLOEXEC);
        struct termios tio;
        if (slave >= 0 && tcgetattr(slave, &tio) == 0) {
            cfmakeraw(&tio);
            tcsetattr(slave, TCSANOW, &tio);
        }
        if (slave >= 0)
            close(slave);
    } else if (strncmp(spec, "file:", 5) == 0) {
        ch->own_fds = true;
        ch->file = outfile_open(spec + 5, file_ready, ch, err);
        if (!ch->file) {
            free(ch);
            return NULL;
        }
        snprintf(ch->desc, sizeof ch->desc, "file %.50s", spec + 5);
    } else {
        xerr_set(err, "unknown serial backend '%s' (want stdio, pty, null or file:PATH)", spec);
        free(ch);
        return NULL;
    }
    ch->in_mode = input_mode(ch->in_fd);
    ch->host_ns = monotonic_ns;
    return ch;
}

void chardev_close(chardev *ch)
{
    if (!ch)
        return;
    chardev_detach_host(ch);
    outfile_close(ch->file);
    free(ch);
}

void chardev_flush(chardev *ch)
{
    unsigned off = 0;
    while (off < ch->outn) {
        ssize_t n = write(ch->out_fd, ch->out + off, ch->outn - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* the terminal went away: drop, the taps still saw it */
        off += (unsigned)n;
    }
    ch->outn = 0;
}

void chardev_write(chardev *ch, const uint8_t *buf, size_t n)
{
    if (ch->muted)
        return;
    for (unsigned i = 0; i < CH_MAX_TAPS; i++)
        if (ch->taps[i].fn)
            ch->taps[i].fn(ch->taps[i].ctx, buf, n);
    if (ch->out_fd < 0 || !ch->output_on)
        return;
    for (size_t i = 0; i < n; i++) {
        ch->out[ch->outn++] = buf[i];
        if (ch->outn == sizeof ch->out || buf[i] == '\n')
            chardev_flush(ch);
    }
}

static void inq_put(chardev *ch, uint8_t c)
{
    if (ch->tail - ch->head < CH_INQ) {
        ch->inq[ch->tail++ % CH_INQ] = c;
        ch->taken++;
    }
}

void chardev_poll(chardev *ch)
{
    if (ch->outn)
        chardev_flush(ch);
}

static void input_off(chardev *ch, const char *why)
{
    if (why)
        xlog(LOG_WARN, "console", "input from %s: %s; no more input is read", ch->desc, why);
    ch->in_mode = IN_OFF;
}

/* Wait up to timeout_ms for the input to be readable (or at its end):
 * 1 if it is, 0 if not, -1 if interrupted or gone. */
static int input_wait(chardev *ch, int timeout_ms)
{
    struct pollfd p = {.fd = ch->in_fd, .events = POLLIN};
    ch->host_calls++;
    int n = poll(&p, 1, timeout_ms);
    if (n < 0) {
        if (errno != EINTR && errno != EAGAIN)
            input_off(ch, strerror(errno));
        return -1;
    }
    if (n == 0)
        return 0;
    if (p.revents & POLLNVAL) {
        input_off(ch, NULL); /* closed: nothing will ever come */
        return -1;
    }
    return 1; /* POLLIN, POLLHUP or POLLERR: read() tells which */
}

/* Read what the input has, up to the room in the queue. */
static void input_read(chardev *ch)
{
    uint8_t buf[CH_INQ];
    size_t room = CH_INQ - (ch->tail - ch->head);
    if (!room)
        return;
    ch->host_calls++;
    ssize_t n = read(ch->in_fd, buf, room < sizeof buf ? room : sizeof buf);
    if (n > 0) {
        for (ssize_t i = 0; i < n; i++)
            ch->inq[ch->tail++ % CH_INQ] = buf[i];
        ch->taken += (uint64_t)n;
        rr_log_put(ch->hist, RR_PUSH, RR_STREAM_CONSOLE, buf, (size_t)n);
    } else if (n == 0) {
        input_off(ch, NULL); /* end of file */
    } else if (errno == EIO && ch->own_pty) {
        /* nobody has the pty's other side open (yet): keep polling */
    } else if (errno != EAGAIN && errno != EINTR) {
        input_off(ch, strerror(errno));
    }
}

/* The guest wants a byte and none is queued: look at the host side. */
static void input_fill(chardev *ch)
{
    switch (ch->in_mode) {
    case IN_OFF: return;
    case IN_FILE: input_read(ch); return;
    case IN_STREAM: {
        int r = input_wait(ch, CHARDEV_STREAM_WAIT_MS);
        if (r > 0)
            input_read(ch);
        else if (r == 0) /* the writer paused: from now on, input as it comes */
            ch->in_mode = IN_LIVE;
        return;
    }
    case IN_LIVE: {
        uint64_t now = ch->host_ns(ch->host_ctx);
        if (now < ch->next_poll_ns)
            return;
        ch->next_poll_ns = now + CHARDEV_POLL_NS;
        if (input_wait(ch, 0) > 0)
            input_read(ch);
        return;
    }
    }
}

/* Feeding the history: queue the pushed bytes due by now. */
void chardev_history_sync(chardev *ch)
{
    rr_log *L = ch->hist;
    const rr_rec *rec;
    while (rr_log_feeding(L) && (rec = rr_log_next(L, RR_STREAM_CONSOLE)) && rec->kind == RR_PUSH &&
           rec->time <= L->clock->now) {
        for (uint32_t i = 0; i < rec->len && ch->tail - ch->head < CH_INQ; i++)
            ch->inq[ch->tail++ % CH_INQ] = rec->data[i];
        rr_log_take(L, RR_STREAM_CONSOLE);
    }
}

/* Feeding the history: the byte the guest took now in the past, from the
 * log (a replay's) or from the queue as it was; never the host's. */
static int getc_fed(chardev *ch)
{
    rr_log *L = ch->hist;
    chardev_history_sync(ch);
    const rr_rec *rec = rr_log_next(L, RR_STREAM_CONSOLE);
    if (rec && rec->kind == RR_CONSOLE && rec->time <= L->clock->now) {
        int c = rec->data[0];
        rr_log_take(L, RR_STREAM_CONSOLE);
        return c;
    }
    if (ch->head == ch->tail)
        return -1;
    return ch->inq[ch->head++ % CH_INQ];
}

int chardev_getc(chardev *ch)
{
    if (rr_log_feeding(ch->hist))
        return getc_fed(ch);
    if (rr_replaying(ch->rr)) {
        const rr_rec *rec = rr_due(ch->rr, RR_CONSOLE, 0);
        if (!rec)
            return -1;
        int c = rec->data[0];
        rr_take(ch->rr);
        ch->taken++;
        rr_log_put(ch->hist, RR_CONSOLE, RR_STREAM_CONSOLE, &c, 1);
        return c;
    }
    if (ch->head == ch->tail && ch->input_on && ch->in_fd >= 0)
        input_fill(ch);
    if (ch->head == ch->tail)
        return -1;
    uint8_t c = ch->inq[ch->head++ % CH_INQ];
    if (rr_recording(ch->rr))
        rr_put(ch->rr, RR_CONSOLE, 0, &c, 1);
    return c;
}

void chardev_set_rr(chardev *ch, rr *r) { ch->rr = r; }
void chardev_set_history(chardev *ch, rr_log *L) { ch->hist = L; }

uint64_t chardev_inputs(const chardev *ch) { return ch->taken; }

bool chardev_has_input(const chardev *ch) { return ch->head != ch->tail; }

void chardev_push_input(chardev *ch, const uint8_t *buf, size_t n)
{
    if (rr_replaying(ch->rr)) {
        if (n && !ch->rr->input_warned)
            xlog(LOG_WARN, "console",
                 "replaying %s: the console takes its input from the log; typed input is ignored",
                 ch->rr->path);
        ch->rr->input_warned = true;
        return;
    }
    if (rr_log_feeding(ch->hist)) {
        if (n && !ch->hist->typed_warned)
            xlog(LOG_WARN, "console",
                 "the machine re-runs its recorded history up to tick %llu: typed input is "
                 "ignored until then (goto-time present goes there)",
                 (unsigned long long)ch->hist->until);
        ch->hist->typed_warned = true;
        return;
    }
    unsigned before = ch->tail;
    for (size_t i = 0; i < n; i++)
        inq_put(ch, buf[i]);
    if (ch->tail != before) {
        uint8_t q[CH_INQ];
        unsigned k = 0;
        for (unsigned i = before; i != ch->tail; i++)
            q[k++] = ch->inq[i % CH_INQ];
        rr_log_put(ch->hist, RR_PUSH, RR_STREAM_CONSOLE, q, k);
    }
}

void chardev_set_input_enabled(chardev *ch, bool on) { ch->input_on = on; }
void chardev_set_output_enabled(chardev *ch, bool on) { ch->output_on = on; }
void chardev_set_muted(chardev *ch, bool on) { ch->muted = on; }

int chardev_add_tap(chardev *ch, chardev_tap_fn fn, void *ctx)
{
    for (int i = 0; i < CH_MAX_TAPS; i++) {
        if (!ch->taps[i].fn) {
            ch->taps[i].fn = fn;
            ch->taps[i].ctx = ctx;
            return i;
        }
    }
    return -1;
}

void chardev_remove_tap(chardev *ch, int id)
{
    if (id >= 0 && id < CH_MAX_TAPS)
        ch->taps[id].fn = NULL;
}

void chardev_detach_host(chardev *ch)
{
    chardev_flush(ch);
    if (ch->own_fds) {
        if (ch->in_fd >= 0)
            close(ch->in_fd);
        if (ch->out_fd >= 0 && ch->out_fd != ch->in_fd)
            close(ch->out_fd);
    }
    ch->in_fd = ch->out_fd = -1;
    ch->own_fds = ch->own_pty = false;
    ch->in_mode = IN_OFF;
}

void chardev_set_host_clock(chardev *ch, uint64_t (*now_ns)(void *ctx), void *ctx)
{
    ch->host_ns = now_ns ? now_ns : monotonic_ns;
    ch->host_ctx = ctx;
}

uint64_t chardev_host_calls(const chardev *ch) { return ch->host_calls; }

const char *chardev_input_mode(const chardev *ch)
{
    static const char *const names[] = {"none", "file", "stream", "live"};
    return names[ch->in_mode];
}

const char *chardev_describe(const chardev *ch) { return ch->desc; }

size_t chardev_pending_input(const chardev *ch, uint8_t *buf, size_t max)
{
    size_t n = 0;
    for (unsigned i = ch->head; i != ch->tail && n < max; i++)
        buf[n++] = ch->inq[i % CH_INQ];
    return n;
}

size_t chardev_input_capacity(void) { return CH_INQ; }

void chardev_set_pending_input(chardev *ch, const uint8_t *buf, size_t n)
{
    ch->head = ch->tail = 0;
    for (size_t i = 0; i < n && i < CH_INQ; i++)
        ch->inq[ch->tail++] = buf[i];
}
