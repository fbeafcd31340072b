/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output side of a host backend: a bounded queue of the frames the NIC
 * sent and a thread that hands them to the host (the backend's xmit), so
 * that the emulation thread does not spend its time in write(2) to a tap
 * (where the host kernel delivers the frame, up to the receiving socket,
 * in the writer's context) and the host's delivery runs on another core.
 *
 * Order: one writer, first in first out.  A full queue makes the emulation
 * thread wait for the writer, as a NIC's transmitter waits for its wire: a
 * frame the guest sent is never dropped for want of room here.  The wait is
 * bounded, because xmit never blocks (the descriptors are non-blocking): the
 * writer always moves on, at the host's speed.  What the host refuses (xmit
 * returns a drop reason) is kept, with the frame's length and the errno, for
 * the port to count on the emulation thread at its next poll
 * (net_writer_take): the port's counters, events and the record/replay log
 * are the emulation thread's alone.
 *
 * Synchronization: one mutex guards the ring's indices, the results and the
 * counters; `more` wakes the writer, `room` wakes the emulation thread
 * (waiting for room, or for the queue to drain).  A slot belongs to the
 * emulation thread while it is outside [head, head + count) and to the
 * writer while it is the head; the emulation thread fills a slot before it
 * raises count under the lock and the writer empties it before it lowers
 * count under the lock, so the frame bytes are never touched by both. */
#include "core/log.h"
#include "net/backend.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct wslot {
    uint8_t *buf;
    uint32_t cap, len;
    int fd;
} wslot;

struct net_writer {
    net_backend *b;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t more, room;
    /* Under lock. */
    wslot ring[NET_WRITER_FRAMES];
    unsigned head, count;
    bool stop, writer_waiting, room_waiting;
    net_writer_result res[NET_WRITER_RESULTS];
    unsigned nres;
    uint64_t res_lost; /* refusals beyond res[]: counted, without length */
    uint64_t written, refused, most;
    uint64_t full_waits, full_wait_ns; /* the emulation thread waited for room */
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *writer_main(void *opaque)
{
    net_writer *w = opaque;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->count && !w->stop) {
            w->writer_waiting = true;
            pthread_cond_wait(&w->more, &w->lock);
            w->writer_waiting = false;
        }
        if (!w->count)
            break; /* stopping, and everything is out */
        wslot *s = &w->ring[w->head];
        pthread_mutex_unlock(&w->lock);
        int e = 0;
        int reason = w->b->xmit(w->b, s->fd, s->buf, s->len, &e);
        pthread_mutex_lock(&w->lock);
        if (reason < 0) {
            w->written++;
        } else {
            w->refused++;
            if (w->nres < NET_WRITER_RESULTS)
                w->res[w->nres++] = (net_writer_result){s->len, reason, e};
            else
                w->res_lost++;
        }
        w->head = (w->head + 1) % NET_WRITER_FRAMES;
        w->count--;
        if (w->room_waiting)
            pthread_cond_broadcast(&w->room);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

net_writer *net_writer_start(net_backend *b, xerr *err)
{
    net_writer *w = xcalloc(1, sizeof *w);
    w->b = b;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->more, NULL);
    pthread_cond_init(&w->room, NULL);
    int e = pthread_create(&w->thread, NULL, writer_main, w);
    if (e) {
        pthread_cond_destroy(&w->room);
        pthread_cond_destroy(&w->more);
        pthread_mutex_destroy(&w->lock);
        free(w);
        xerr_set(err, "cannot start the writer thread: %s", strerror(e));
        return NULL;
    }
    return w;
}

void net_writer_put(net_writer *w, int fd, const uint8_t *frame, size_t len)
{
    pthread_mutex_lock(&w->lock);
    if (w->count == NET_WRITER_FRAMES) {
        uint64_t t0 = mono_ns();
        w->full_waits++;
        w->room_waiting = true;
        while (w->count == NET_WRITER_FRAMES)
            pthread_cond_wait(&w->room, &w->lock);
        w->room_waiting = false;
        w->full_wait_ns += mono_ns() - t0;
    }
    /* Only this thread adds: the slot after the last stays ours while the
     * lock is released (the writer moves head and count together). */
    wslot *s = &w->ring[(w->head + w->count) % NET_WRITER_FRAMES];
    pthread_mutex_unlock(&w->lock);
    if (s->cap < len) {
        free(s->buf);
        s->cap = len < 2048 ? 2048 : (uint32_t)len;
        s->buf = xmalloc(s->cap);
    }
    memcpy(s->buf, frame, len);
    s->len = (uint32_t)len;
    s->fd = fd;
    pthread_mutex_lock(&w->lock);
    w->count++;
    if (w->count > w->most)
        w->most = w->count;
    if (w->writer_waiting)
        pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->lock);
}

void net_writer_drain(net_writer *w)
{
    pthread_mutex_lock(&w->lock);
    w->room_waiting = true;
    while (w->count)
        pthread_cond_wait(&w->room, &w->lock);
    w->room_waiting = false;
    pthread_mutex_unlock(&w->lock);
}

size_t net_writer_take(net_writer *w, net_writer_result *out, uint64_t *lost)
{
    pthread_mutex_lock(&w->lock);
    size_t n = w->nres;
    memcpy(out, w->res, n * sizeof *out);
    w->nres = 0;
    *lost = w->res_lost;
    w->res_lost = 0;
    pthread_mutex_unlock(&w->lock);
    return n;
}

void net_writer_stop(net_writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    for (unsigned i = 0; i < NET_WRITER_FRAMES; i++)
        free(w->ring[i].buf);
    pthread_cond_destroy(&w->room);
    pthread_cond_destroy(&w->more);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

void net_writer_show(net_writer *w, strbuf *out)
{
    pthread_mutex_lock(&w->lock);
    unsigned count = w->count;
    uint64_t written = w->written, refused = w->refused, most = w->most;
    uint64_t waits = w->full_waits, wait_ns = w->full_wait_ns;
    pthread_mutex_unlock(&w->lock);
    sb_printf(out,
              "  writer    thread: %llu frames to the host, %llu refused by it, %u queued "
              "(most %llu of %u), %llu waits for room (%.3f ms)\n",
              (unsigned long long)written, (unsigned long long)refused, count,
              (unsigned long long)most, NET_WRITER_FRAMES, (unsigned long long)waits,
              (double)wait_ns / 1e6);
}
