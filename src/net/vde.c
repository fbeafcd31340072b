/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vde:PATH`: a port on a VDE switch through libvdeplug.
 *
 * PATH is the switch's directory (`vde_switch -s PATH`); libvdeplug 4 also
 * takes its URLs here (vde:///PATH, vxvde://GROUP, ...).  The data socket
 * carries one frame per datagram; it is made non-blocking, since the
 * classic plugin ignores vde_recv's flags.
 *
 * The switch drops what our data socket cannot take at once, and a Unix
 * datagram socket takes net.unix.max_dgram_qlen datagrams (10 by default),
 * about 120 us of a gigabit wire: any pause of the emulator longer than that
 * (the host running something else) would lose frames nobody counts.  So a
 * reader thread drains the socket as soon as frames arrive, into a ring the
 * port's poll empties on the virtual clock; the ring's overflow is counted
 * (queue-full).  The poll drains the socket too (both under the ring's
 * lock, so order is kept): what the host holds reaches the guest at the
 * next poll even when the reader thread has not been scheduled yet.  The
 * reader cannot promise the switch never drops: if no CPU runs it for
 * longer than the socket's 10 frames last, the switch drops the rest, and
 * says nothing.  Sending, the switch's socket is as small: see vde_b_send. */
#include "core/log.h"
#include "net/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <libvdeplug.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define VDE_BUF 65536
#define VDE_RING 1024 /* frames the reader holds for the next poll */

typedef struct vde_frame {
    uint8_t *data;
    uint32_t len;
} vde_frame;

typedef struct vde {
    net_backend b;
    VDECONN *conn;
    char path[128];
    uint64_t sent, send_errors;
    bool logged_error;
    /* Main thread only: frames the switch could not take yet. */
    vde_frame txq[VDE_RING];
    unsigned txhead, txcount, txmax;
    pthread_t reader;
    bool reader_running;
    int wake[2]; /* reader -> poll: frames are waiting (wake[0] is b.fd) */
    int stop[2]; /* close -> reader: exit */
    /* Under lock: the reader's ring and counts. */
    pthread_mutex_t lock;
    vde_frame ring[VDE_RING];
    unsigned head, count;
    uint64_t received, overflow, overflow_reported;
    int recv_errno;       /* the error that stopped the reader, 0 if none */
    uint8_t buf[VDE_BUF]; /* the reader's */
} vde;

/* Read what the switch's socket holds into the ring; the caller holds the
 * lock, so the reader thread and the poll (which both drain) keep the
 * frames in order.  True if the ring was empty and now is not, or the
 * socket failed (recv_errno set: nothing more will be read). */
static bool drain_locked(vde *v)
{
    bool wake = false;
    while (!v->recv_errno) {
        ssize_t n = vde_recv(v->conn, v->buf, sizeof v->buf, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN) {
                v->recv_errno = errno;
                wake = true;
            }
            break;
        }
        v->received++;
        if (v->count == VDE_RING) {
            v->overflow++;
            continue;
        }
        uint8_t *copy = xmalloc((size_t)n);
        memcpy(copy, v->buf, (size_t)n);
        wake |= v->count == 0;
        v->ring[(v->head + v->count++) % VDE_RING] = (vde_frame){copy, (uint32_t)n};
    }
    return wake;
}

static void *vde_reader(void *opaque)
{
    vde *v = opaque;
    struct pollfd p[2] = {{.fd = vde_datafd(v->conn), .events = POLLIN},
                          {.fd = v->stop[0], .events = POLLIN}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[1].revents)
            break;
        pthread_mutex_lock(&v->lock);
        bool wake = drain_locked(v);
        if (v->recv_errno)
            p[0].fd = -1; /* nothing more from the switch; wait for close */
        pthread_mutex_unlock(&v->lock);
        if (wake)
            (void)!write(v->wake[1], "", 1);
    }
    return NULL;
}

/* One frame to the switch: 1 sent, 0 the switch's socket is full (try
 * again later), -1 failed (counted and dropped). */
static int send_one(vde *v, const uint8_t *f, size_t len)
{
    ssize_t n = vde_send(v->conn, f, len, 0);
    if (n == (ssize_t)len) {
        v->sent++;
        return 1;
    }
    if (n < 0 && (errno == EAGAIN || errno == ENOBUFS))
        return 0;
    v->send_errors++;
    if (n < 0 && !v->logged_error) {
        xlog(LOG_WARN, v->b.port->name, "vde %s: send: %s", v->path, strerror(errno));
        v->logged_error = true;
    }
    net_port_drop(v->b.port, NET_DIR_TX, len, NET_DROP_HOST);
    return -1;
}

/* Send what waits in the backlog, in order, while the switch takes it; if
 * some is left, wake the next poll to try again. */
static void flush_backlog(vde *v)
{
    while (v->txcount) {
        vde_frame *t = &v->txq[v->txhead];
        if (send_one(v, t->data, t->len) == 0)
            break;
        free(t->data);
        v->txhead = (v->txhead + 1) % VDE_RING;
        v->txcount--;
    }
    if (v->txcount)
        (void)!write(v->wake[1], "", 1);
}

/* The switch's socket also holds only max_dgram_qlen frames: when it is
 * full (the switch has not run for a while), the frame waits in a backlog
 * and goes out, in order, at the next polls; only a full backlog drops. */
static void vde_b_send(net_backend *b, const uint8_t *f, size_t len)
{
    vde *v = container_of(b, vde, b);
    if (v->txcount)
        flush_backlog(v);
    if (!v->txcount && send_one(v, f, len) != 0)
        return;
    if (v->txcount >= VDE_RING) {
        v->send_errors++;
        net_port_drop(b->port, NET_DIR_TX, len, NET_DROP_QUEUE);
        return;
    }
    uint8_t *copy = xmalloc(len);
    memcpy(copy, f, len);
    v->txq[(v->txhead + v->txcount++) % VDE_RING] = (vde_frame){copy, (uint32_t)len};
    if (v->txcount > v->txmax)
        v->txmax = v->txcount;
    if (v->txcount == 1)
        (void)!write(v->wake[1], "", 1);
}

/* The port's poll: the frames the reader has, onto the wire. */
static void vde_b_poll(net_backend *b)
{
    vde *v = container_of(b, vde, b);
    char junk[64];
    while (read(v->wake[0], junk, sizeof junk) > 0)
        ;
    flush_backlog(v);
    pthread_mutex_lock(&v->lock);
    /* What reached the socket since the reader last ran: the guest sees
     * every frame the host has, however late the reader thread is
     * scheduled on a loaded host. */
    drain_locked(v);
    uint64_t lost = v->overflow - v->overflow_reported;
    v->overflow_reported = v->overflow;
    int e = v->recv_errno;
    pthread_mutex_unlock(&v->lock);
    for (uint64_t i = 0; i < lost; i++)
        net_port_drop(b->port, NET_DIR_RX, 0, NET_DROP_QUEUE);
    /* As much as the wire carries until the next poll (net_port_host_room);
     * the rest stays in the ring, and the wake pipe says so again. */
    for (unsigned i = 0; i < NET_POLL_BATCH && net_port_host_room(b->port); i++) {
        pthread_mutex_lock(&v->lock);
        bool any = v->count > 0;
        vde_frame f = any ? v->ring[v->head] : (vde_frame){NULL, 0};
        if (any) {
            v->head = (v->head + 1) % VDE_RING;
            v->count--;
        }
        pthread_mutex_unlock(&v->lock);
        if (!any)
            break;
        net_port_host_rx(b->port, f.data, f.len);
        free(f.data);
    }
    pthread_mutex_lock(&v->lock);
    bool left = v->count > 0;
    pthread_mutex_unlock(&v->lock);
    if (left)
        (void)!write(v->wake[1], "", 1);
    if (e && !v->logged_error) {
        xlog(LOG_WARN, b->port->name, "vde %s: recv: %s; no more frames from the switch", v->path,
             strerror(e));
        v->logged_error = true;
    }
}

static void vde_b_close(net_backend *b)
{
    vde *v = container_of(b, vde, b);
    if (v->reader_running) {
        (void)!write(v->stop[1], "", 1);
        pthread_join(v->reader, NULL);
    }
    for (unsigned i = 0; i < v->count; i++)
        free(v->ring[(v->head + i) % VDE_RING].data);
    /* Frames the guest sent that still wait for the switch (it has not run
     * since): give it a second to take them, as the socket writer does at
     * close, rather than lose them silently when the emulator exits. */
    unsigned lost = 0;
    for (int tries = 0; v->conn && v->txcount && tries < 1000; tries++) {
        vde_frame *t = &v->txq[v->txhead];
        ssize_t n = vde_send(v->conn, t->data, t->len, 0);
        if (n < 0 && (errno == EAGAIN || errno == ENOBUFS || errno == EINTR)) {
            usleep(1000);
            continue;
        }
        if (n == (ssize_t)t->len)
            v->sent++;
        else
            lost++;
        free(t->data);
        v->txhead = (v->txhead + 1) % VDE_RING;
        v->txcount--;
    }
    for (unsigned i = 0; i < v->txcount; i++)
        free(v->txq[(v->txhead + i) % VDE_RING].data);
    lost += v->txcount;
    if (lost) /* the port's counters are gone with the emulator: say it here */
        xlog(LOG_WARN, "vde", "%s: %u frames the guest sent were not taken by the switch at exit",
             v->path, lost);
    for (int i = 0; i < 2; i++) {
        if (v->wake[i] >= 0)
            close(v->wake[i]);
        if (v->stop[i] >= 0)
            close(v->stop[i]);
    }
    pthread_mutex_destroy(&v->lock);
    if (v->conn)
        vde_close(v->conn);
    free(v);
}

static void vde_b_show(net_backend *b, strbuf *out)
{
    vde *v = container_of(b, vde, b);
    pthread_mutex_lock(&v->lock);
    uint64_t received = v->received, overflow = v->overflow;
    pthread_mutex_unlock(&v->lock);
    sb_printf(out, "  vde       %s: %llu frames sent, %llu received, %llu send errors", v->path,
              (unsigned long long)v->sent, (unsigned long long)received,
              (unsigned long long)v->send_errors);
    if (overflow)
        sb_printf(out, ", %llu lost (reader full)", (unsigned long long)overflow);
    sb_putc(out, '\n');
    if (v->txmax)
        sb_printf(out, "  backlog   %u frames waiting for the switch (most %u)\n", v->txcount,
                  v->txmax);
}

net_backend *net_vde_new(net_port *p, const char *args, xerr *err)
{
    if (!NET_HAVE_VDE)
        return net_fail(
            err, "vde",
            "not available in this AddressSanitizer build (libvdeplug loads its plugins "
            "with RTLD_DEEPBIND, which ASan rejects)");
    vde *v = xcalloc(1, sizeof *v);
    v->wake[0] = v->wake[1] = v->stop[0] = v->stop[1] = -1;
    pthread_mutex_init(&v->lock, NULL);
    if (!*args || strlen(args) >= sizeof v->path) {
        vde_b_close(&v->b);
        return net_fail(err, "vde", "want vde:PATH (the vde_switch directory)");
    }
    strcpy(v->path, args);
    char descr[64];
    snprintf(descr, sizeof descr, "xbow %s", p->name);
    errno = 0;
    v->conn = vde_open(v->path, descr, NULL);
    if (!v->conn) {
        int e = errno;
        net_fail(err, "vde",
                 "cannot connect to the switch at %s: %s (is `vde_switch -s %s` running?)", args,
                 e ? strerror(e) : "failed", args);
        vde_b_close(&v->b);
        return NULL;
    }
    int fd = vde_datafd(v->conn);
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
        pipe2(v->wake, O_NONBLOCK | O_CLOEXEC) || pipe2(v->stop, O_CLOEXEC)) {
        int e = errno;
        vde_b_close(&v->b);
        return net_fail(err, "vde", "cannot set up the data socket: %s", strerror(e));
    }
    int e = pthread_create(&v->reader, NULL, vde_reader, v);
    if (e) {
        vde_b_close(&v->b);
        return net_fail(err, "vde", "cannot start the reader thread: %s", strerror(e));
    }
    v->reader_running = true;
    v->b.kind = "vde";
    v->b.send = vde_b_send;
    v->b.poll = vde_b_poll;
    v->b.close = vde_b_close;
    v->b.show = vde_b_show;
    v->b.fd = v->wake[0];
    return &v->b;
}
