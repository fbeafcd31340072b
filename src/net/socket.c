/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `socket:...`: a wire between two xbow processes (or anything speaking the
 * same framing).
 *
 *   socket:udp:LPORT:HOST:RPORT   one UDP datagram per frame; we listen on
 *       LPORT and send to HOST:RPORT and accept datagrams only from there.
 *       HOST is a name, an IPv4 address or a [bracketed] IPv6 address.  The
 *       local socket binds to the loopback address when HOST is loopback,
 *       to the wildcard address otherwise.
 *   socket:unix:PATH              listen on a Unix socket (SOCK_SEQPACKET);
 *       one peer at a time, the next one is accepted when it leaves.
 *   socket:unix-connect:PATH      connect to such a socket.
 * SOCK_SEQPACKET keeps message boundaries, so one message is one frame with
 * no length prefix.  Frames sent with nobody at the other end are dropped
 * (reason no-peer), as on an unplugged cable. */
#include "core/log.h"
#include "net/backend.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define SOCK_BUF 65536

enum sock_mode { MODE_UDP, MODE_LISTEN, MODE_CONNECT };

typedef struct sockb {
    net_backend b;
    enum sock_mode mode;
    int lfd;         /* listening socket (MODE_LISTEN) */
    int conn;        /* connected peer, -1 if none (unix modes) */
    char where[160]; /* for messages */
    char path[108];
    uint64_t received, peers;
    _Atomic uint64_t sent, send_errors; /* xmit's: the writer thread's */
    uint8_t buf[SOCK_BUF];
} sockb;

static void peer_gone(sockb *s, const char *why)
{
    xlog(LOG_INFO, s->b.port->name, "socket %s: peer left (%s)", s->where, why);
    s->b.tx_fd = -1;
    net_port_tx_drain(s->b.port); /* the writer thread is done with conn */
    close(s->conn);
    s->conn = -1;
    /* Back to listening, or (connect side) unplugged for good. */
    s->b.fd = s->mode == MODE_LISTEN ? s->lfd : -1;
}

/* On the port's writer thread: fd is the UDP socket or the peer's
 * connection when the frame was sent (peer_gone waits for the writer before
 * it closes it).  A peer that left (EPIPE, ECONNRESET) is found by the next
 * poll; UDP's ECONNREFUSED means the other side is not running (yet). */
static int sock_xmit(net_backend *b, int fd, const uint8_t *f, size_t len, int *err)
{
    sockb *s = container_of(b, sockb, b);
    ssize_t n = send(fd, f, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n == (ssize_t)len) {
        atomic_fetch_add_explicit(&s->sent, 1, memory_order_relaxed);
        return -1;
    }
    int e = n < 0 ? errno : 0;
    *err = e;
    atomic_fetch_add_explicit(&s->send_errors, 1, memory_order_relaxed);
    return e == EPIPE || e == ECONNRESET || e == ECONNREFUSED ? NET_DROP_NO_PEER : NET_DROP_HOST;
}

static void sock_accept(sockb *s)
{
    int c = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c < 0)
        return;
    s->conn = c;
    s->b.fd = c;
    s->b.tx_fd = c;
    s->peers++;
    xlog(LOG_INFO, s->b.port->name, "socket %s: peer connected", s->where);
}

static void sock_poll(net_backend *b)
{
    sockb *s = container_of(b, sockb, b);
    if (s->mode == MODE_LISTEN && s->conn < 0) {
        sock_accept(s);
        return;
    }
    for (int i = 0; i < NET_POLL_BATCH && b->fd >= 0 && net_port_host_room(b->port); i++) {
        ssize_t n = recv(b->fd, s->buf, sizeof s->buf, MSG_DONTWAIT | MSG_TRUNC);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                return;
            if (s->mode == MODE_UDP) {
                if (errno == ECONNREFUSED) /* a late ICMP error for an earlier send */
                    continue;
                xlog(LOG_WARN, b->port->name, "socket %s: recv: %s", s->where, strerror(errno));
                return;
            }
            peer_gone(s, strerror(errno));
            return;
        }
        if (n == 0 && s->mode != MODE_UDP) {
            peer_gone(s, "closed");
            return;
        }
        s->received++;
        /* MSG_TRUNC returns the real length: an over-long frame is dropped whole. */
        net_port_host_rx(b->port, s->buf,
                         (size_t)n > sizeof s->buf ? NET_MAX_FRAME + 1 : (size_t)n);
    }
}

static void sock_close(net_backend *b)
{
    sockb *s = container_of(b, sockb, b);
    if (s->conn >= 0)
        close(s->conn);
    if (s->mode == MODE_UDP)
        close(b->fd);
    if (s->mode == MODE_LISTEN) {
        close(s->lfd);
        unlink(s->path);
    }
    free(s);
}

static void sock_show(net_backend *b, strbuf *out)
{
    sockb *s = container_of(b, sockb, b);
    const char *state = s->mode == MODE_UDP      ? ""
                        : s->conn >= 0           ? ", connected"
                        : s->mode == MODE_LISTEN ? ", waiting for a peer"
                                                 : ", disconnected";
    sb_printf(out, "  socket    %s%s: %llu frames sent, %llu received, %llu send errors", s->where,
              state, (unsigned long long)atomic_load_explicit(&s->sent, memory_order_relaxed),
              (unsigned long long)s->received,
              (unsigned long long)atomic_load_explicit(&s->send_errors, memory_order_relaxed));
    if (s->mode == MODE_LISTEN)
        sb_printf(out, ", peers so far: %llu", (unsigned long long)s->peers);
    sb_putc(out, '\n');
}

static sockb *sock_alloc(enum sock_mode mode)
{
    sockb *s = xcalloc(1, sizeof *s);
    s->mode = mode;
    s->lfd = s->conn = -1;
    s->b.kind = "socket";
    s->b.xmit = sock_xmit;
    s->b.tx_fd = -1;
    s->b.poll = sock_poll;
    s->b.close = sock_close;
    s->b.show = sock_show;
    s->b.fd = -1;
    return s;
}

static bool unix_addr(const char *path, struct sockaddr_un *a, xerr *err)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (!*path || strlen(path) >= sizeof a->sun_path) {
        net_fail(err, "socket", "bad Unix socket path \"%s\" (1..%zu characters)", path,
                 sizeof a->sun_path - 1);
        return false;
    }
    strcpy(a->sun_path, path);
    return true;
}

static net_backend *open_unix(const char *path, bool listening, xerr *err)
{
    struct sockaddr_un a;
    if (!unix_addr(path, &a, err))
        return NULL;
    /* Non-blocking for accept(); data calls all pass MSG_DONTWAIT. */
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | (listening ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return net_fail(err, "socket", "socket: %s", strerror(errno));
    if (!listening) {
        if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
            int e = errno;
            close(fd);
            return net_fail(err, "socket", "cannot connect to %s: %s%s", path, strerror(e),
                            e == ENOENT || e == ECONNREFUSED
                                ? " (start the listening side first, with socket:unix:PATH)"
                            : e == EPROTOTYPE ? " (not a SOCK_SEQPACKET socket)"
                                              : "");
        }
    } else {
        /* A socket file nobody is bound to is a leftover: replace it.  The
         * probe is a datagram socket: connecting it to a live SEQPACKET
         * listener fails with EPROTOTYPE and creates no connection. */
        struct stat st;
        if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
            int probe = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof a) < 0 &&
                errno == ECONNREFUSED)
                unlink(path);
            if (probe >= 0)
                close(probe);
        }
        if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1) < 0) {
            int e = errno;
            close(fd);
            return net_fail(
                err, "socket", "cannot listen on %s: %s%s", path, strerror(e),
                e == EADDRINUSE ? " (another process listens there, or it is not a socket)" : "");
        }
    }
    sockb *s = sock_alloc(listening ? MODE_LISTEN : MODE_CONNECT);
    strcpy(s->path, path);
    snprintf(s->where, sizeof s->where, "unix%s:%s", listening ? "" : "-connect", path);
    if (listening) {
        s->lfd = fd;
    } else {
        s->conn = fd;
        s->peers = 1;
        s->b.tx_fd = fd;
    }
    s->b.fd = fd;
    return &s->b;
}

/* "LPORT:HOST:RPORT" with HOST possibly "[v6]". */
static net_backend *open_udp(const char *args, xerr *err)
{
    const char *c1 = strchr(args, ':'), *c2 = strrchr(args, ':');
    char lport[8], host[128], rport[8];
    if (!c1 || c1 == c2 || (size_t)(c1 - args) >= sizeof lport || strlen(c2 + 1) >= sizeof rport ||
        (size_t)(c2 - c1 - 1) >= sizeof host)
        return net_fail(err, "socket", "want socket:udp:LPORT:HOST:RPORT, not \"udp:%s\"", args);
    snprintf(lport, sizeof lport, "%.*s", (int)(c1 - args), args);
    snprintf(host, sizeof host, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    strcpy(rport, c2 + 1);
    size_t hl = strlen(host);
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = 0;
    }
    uint64_t lp, rp;
    if (!net_parse_u64(lport, 0, 65535, &lp) || !net_parse_u64(rport, 1, 65535, &rp) || !*host)
        return net_fail(err, "socket", "bad ports or host in \"udp:%s\"", args);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM}, *res;
    int gai = getaddrinfo(host, rport, &hints, &res);
    if (gai)
        return net_fail(err, "socket", "cannot resolve %s: %s", host, gai_strerror(gai));
    int fd = socket(res->ai_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        freeaddrinfo(res);
        return net_fail(err, "socket", "socket: %s", strerror(errno));
    }
    struct sockaddr_storage local;
    memset(&local, 0, sizeof local);
    socklen_t llen;
    if (res->ai_family == AF_INET6) {
        struct sockaddr_in6 *l6 = (void *)&local;
        const struct sockaddr_in6 *r6 = (const void *)res->ai_addr;
        l6->sin6_family = AF_INET6;
        l6->sin6_port = htons((uint16_t)lp);
        l6->sin6_addr = IN6_IS_ADDR_LOOPBACK(&r6->sin6_addr) ? in6addr_loopback : in6addr_any;
        llen = sizeof *l6;
    } else {
        struct sockaddr_in *l4 = (void *)&local;
        const struct sockaddr_in *r4 = (const void *)res->ai_addr;
        l4->sin_family = AF_INET;
        l4->sin_port = htons((uint16_t)lp);
        bool loop = (ntohl(r4->sin_addr.s_addr) >> 24) == 127;
        l4->sin_addr.s_addr = htonl(loop ? INADDR_LOOPBACK : INADDR_ANY);
        llen = sizeof *l4;
    }
    /* Room for the frames that arrive while the emulator does not poll (the
     * host runs something else): as much as net.core.rmem_max allows, up
     * to the port's wire queue. */
    int rcvbuf = (int)NET_WIRE_QUEUE_BYTES;
    (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    const char *what = "bind";
    int rc = bind(fd, (struct sockaddr *)&local, llen);
    if (rc == 0) {
        what = "connect";
        rc = connect(fd, res->ai_addr, res->ai_addrlen);
    }
    freeaddrinfo(res);
    if (rc < 0) {
        int e = errno;
        close(fd);
        return net_fail(err, "socket", "udp %s (local port %s): %s", what, lport, strerror(e));
    }
    sockb *s = sock_alloc(MODE_UDP);
    snprintf(s->where, sizeof s->where, "udp:%s:%s:%s", lport, host, rport);
    s->b.fd = fd;
    s->b.tx_fd = fd;
    return &s->b;
}

net_backend *net_socket_new(net_port *p, const char *args, xerr *err)
{
    if (!strncmp(args, "udp:", 4))
        return open_udp(args + 4, err);
    if (!strncmp(args, "unix:", 5))
        return open_unix(args + 5, true, err);
    if (!strncmp(args, "unix-connect:", 13))
        return open_unix(args + 13, false, err);
    return net_fail(
        err, "socket",
        "want socket:udp:LPORT:HOST:RPORT, socket:unix:PATH or socket:unix-connect:PATH");
}
