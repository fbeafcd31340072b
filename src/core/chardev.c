#include "core/chardev.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CH_MAX_TAPS 8
#define CH_INQ 4096

struct chardev {
    int in_fd, out_fd;
    bool own_fds, input_on, output_on;
    char desc[64];
    struct {
        chardev_tap_fn fn;
        void *ctx;
    } taps[CH_MAX_TAPS];
    uint8_t inq[CH_INQ];
    unsigned head, tail; /* queue: tail - head bytes */
    uint8_t out[1024];
    unsigned outn;
};

chardev *chardev_open(const char *spec, char *err, size_t errlen)
{
    chardev *ch = calloc(1, sizeof *ch);
    if (!ch) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
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
            snprintf(err, errlen, "pty: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            free(ch);
            return NULL;
        }
        ch->in_fd = ch->out_fd = fd;
        ch->own_fds = true;
        snprintf(ch->desc, sizeof ch->desc, "%s", ptsname(fd));
    } else if (strncmp(spec, "file:", 5) == 0) {
        int fd = open(spec + 5, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            snprintf(err, errlen, "%s: %s", spec + 5, strerror(errno));
            free(ch);
            return NULL;
        }
        ch->out_fd = fd;
        ch->own_fds = true;
        snprintf(ch->desc, sizeof ch->desc, "file %.50s", spec + 5);
    } else {
        snprintf(err, errlen, "unknown serial backend '%s' (want stdio, pty, null or file:PATH)",
                 spec);
        free(ch);
        return NULL;
    }
    return ch;
}

void chardev_close(chardev *ch)
{
    if (!ch)
        return;
    chardev_flush(ch);
    if (ch->own_fds) {
        if (ch->in_fd >= 0)
            close(ch->in_fd);
        if (ch->out_fd >= 0 && ch->out_fd != ch->in_fd)
            close(ch->out_fd);
    }
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
    if (ch->tail - ch->head < CH_INQ)
        ch->inq[ch->tail++ % CH_INQ] = c;
}

void chardev_poll(chardev *ch)
{
    if (ch->outn)
        chardev_flush(ch);
    if (ch->in_fd < 0 || !ch->input_on)
        return;
    struct pollfd p = {.fd = ch->in_fd, .events = POLLIN};
    while (CH_INQ - (ch->tail - ch->head) >= 256 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
        uint8_t buf[256];
        ssize_t n = read(ch->in_fd, buf, sizeof buf);
        if (n <= 0) {
            ch->input_on = false; /* EOF: stop polling */
            break;
        }
        for (ssize_t i = 0; i < n; i++)
            inq_put(ch, buf[i]);
    }
}

int chardev_getc(chardev *ch)
{
    if (ch->head == ch->tail)
        return -1;
    return ch->inq[ch->head++ % CH_INQ];
}

bool chardev_has_input(const chardev *ch) { return ch->head != ch->tail; }

void chardev_push_input(chardev *ch, const uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        inq_put(ch, buf[i]);
}

void chardev_set_input_enabled(chardev *ch, bool on) { ch->input_on = on; }
void chardev_set_output_enabled(chardev *ch, bool on) { ch->output_on = on; }

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
    ch->own_fds = false;
}

const char *chardev_describe(const chardev *ch) { return ch->desc; }
