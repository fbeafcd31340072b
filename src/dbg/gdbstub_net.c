/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb stub's sockets: a TCP or Unix listener, one client at a time (the
 * next one gets a refusal gdb shows), non-blocking reads fed to the session,
 * and the waiting front ends do (gdbstub_wait). */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "dbg/gdbstub_int.h"

/* How long a refused client may take to read its refusal. */
#define REFUSE_SECONDS 3.0
/* How long a reply may wait for a client that does not read. */
#define WRITE_TIMEOUT_MS 5000

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- listening ------------------------------------------------------------------ */

static void format_sockaddr(const struct sockaddr *sa, char *buf, size_t len)
{
    char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "?";
    socklen_t sl =
        sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    getnameinfo(sa, sl, host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV);
    snprintf(buf, len, sa->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

static bool is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
    }
    return false;
}

/* "[HOST:]PORT", "[V6]:PORT": HOST defaults to 127.0.0.1. */
static int split_spec(dbg *d, const char *spec, char *host, size_t hl, char *port, size_t pl)
{
    const char *colon = strrchr(spec, ':');
    const char *p = colon ? colon + 1 : spec;
    size_t n = colon ? (size_t)(colon - spec) : 0;
    if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']') {
        spec++;
        n -= 2;
    } else if (colon && memchr(spec, ':', n)) {
        return dbg_error(d, "gdbserver: write an IPv6 address in brackets: [%.*s]:%s.", (int)n,
                         spec, p);
    }
    if (n >= hl)
        return dbg_error(d, "gdbserver: host name too long.");
    snprintf(host, hl, "%.*s", (int)n, spec);
    if (!host[0])
        snprintf(host, hl, "127.0.0.1");
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (!*p || *end || v > 65535 || *p == '-' || *p == '+')
        return dbg_error(d,
                         "gdbserver: \"%s\" is not a port (want [HOST:]PORT with PORT from "
                         "0 to 65535, 0 for any free one, or unix:PATH).",
                         spec);
    snprintf(port, pl, "%lu", v);
    return 0;
}

static int listen_tcp(dbg *d, const char *spec, char *where, size_t wl, bool *remote)
{
    char host[256], port[16];
    if (split_spec(d, spec, host, sizeof host, port, sizeof port))
        return -1;
    struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc)
        return dbg_error(d, "gdbserver: %s: %s.", host, gai_strerror(rc));
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 4)) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        return dbg_error(d, "gdbserver: cannot listen on %s:%s: %s.", host, port, strerror(err));
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    format_sockaddr((struct sockaddr *)&ss, where, wl);
    *remote = !is_loopback((struct sockaddr *)&ss);
    return fd;
}

static int listen_unix(dbg *d, const char *path, char *where, size_t wl, char *keep, size_t kl)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (!*path)
        return dbg_error(d, "gdbserver: unix: wants a path (unix:/tmp/xbow-gdb).");
    if (strlen(path) >= sizeof sa.sun_path || strlen(path) >= kl)
        return dbg_error(d, "gdbserver: %s: a socket path has at most %zu characters.", path,
                         sizeof sa.sun_path - 1);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode))
            return dbg_error(d, "gdbserver: %s exists and is not a socket.", path);
        int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        bool alive = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0;
        if (probe >= 0)
            close(probe);
        if (alive)
            return dbg_error(d, "gdbserver: %s: something listens there already.", path);
        unlink(path); /* left behind by a process that is gone */
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return dbg_error(d, "gdbserver: socket: %s.", strerror(errno));
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) || listen(fd, 4)) {
        int e = errno;
        close(fd);
        return dbg_error(d, "gdbserver: cannot listen on %s: %s.", path, strerror(e));
    }
    chmod(path, 0600); /* the socket controls the machine: its owner only */
    snprintf(where, wl, "unix:%s", path);
    snprintf(keep, kl, "%s", path);
    return fd;
}

int gdbstub_listen(dbg *d, const char *spec)
{
    gdbstub *s = gdb_stub(d);
    if (s && s->lfd >= 0)
        return dbg_error(d, "gdbserver: already listening on %s (\"gdbserver off\" first).",
                         s->where);
    if (!d->m)
        return dbg_error(d, "gdbserver: no machine is loaded.");
    spec = dbg_skip_ws(spec);
    char where[200], path[108] = "";
    bool remote = false;
    int fd = !strncmp(spec, "unix:", 5)
                 ? listen_unix(d, spec + 5, where, sizeof where, path, sizeof path)
                 : listen_tcp(d, spec, where, sizeof where, &remote);
    if (fd < 0)
        return -1;
    s = gdb_stub_new(d);
    s->lfd = fd;
    snprintf(s->where, sizeof s->where, "%s", where);
    snprintf(s->unix_path, sizeof s->unix_path, "%s", path);
    dbg_printf(d, "gdbserver: listening on %s (gdb-multiarch: target remote %s)\n", where,
               path[0] ? path : where);
    if (remote)
        xlog(LOG_WARN, "gdbserver",
             "%s can be reached from other machines: whoever connects has full control of the "
             "machine and of xbow's commands (monitor)",
             where);
    return 0;
}

void gdb_net_stop_listening(gdbstub *s)
{
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++) {
        if (s->refused[i].fd >= 0)
            close(s->refused[i].fd);
        s->refused[i].fd = -1;
    }
    if (s->lfd >= 0)
        close(s->lfd);
    s->lfd = -1;
    if (s->unix_path[0])
        unlink(s->unix_path);
    s->unix_path[0] = 0;
    s->where[0] = 0;
}

/* ---- the client ------------------------------------------------------------------- */

void gdb_net_close_client(gdbstub *s)
{
    if (s->cfd >= 0)
        close(s->cfd);
    s->cfd = -1;
    s->vsend = NULL;
}

void gdb_net_write(gdbstub *s, const char *data, size_t len)
{
    if (!s->connected)
        return;
    if (s->cfd < 0) {
        if (s->vsend)
            s->vsend(s->vctx, data, len);
        return;
    }
    while (len) {
        ssize_t n = send(s->cfd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        struct pollfd p = {.fd = s->cfd, .events = POLLOUT};
        if (n < 0 && errno == EAGAIN && poll(&p, 1, WRITE_TIMEOUT_MS) > 0)
            continue;
        xlog(LOG_WARN, "gdbserver", "cannot write to %s (%s): connection dropped", s->peer,
             n < 0 && errno != EAGAIN ? strerror(errno) : "it does not read");
        gdb_session_end(s, "connection dropped");
        return;
    }
}

static void accept_client(gdbstub *s)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept4(s->lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0)
        return;
    char peer[sizeof s->peer];
    if (ss.ss_family == AF_UNIX) {
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) == 0)
            snprintf(peer, sizeof peer, "pid %d", (int)cr.pid);
        else
            snprintf(peer, sizeof peer, "a local process");
    } else {
        format_sockaddr((struct sockaddr *)&ss, peer, sizeof peer);
        int one = 1; /* many small packets, each waiting for its answer */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (!s->connected) {
        gdb_session_start(s, fd, peer);
        return;
    }
    /* One client at a time: the next gets a refusal, sent when its first
     * packet arrives (gdb drops what comes before it asks). */
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++) {
        if (s->refused[i].fd < 0) {
            s->refused[i].fd = fd;
            s->refused[i].answered = false;
            s->refused[i].until = now_s() + REFUSE_SECONDS;
            xlog(LOG_WARN, "gdbserver", "refused a second gdb from %s: %s is attached", peer,
                 s->peer);
            return;
        }
    }
    close(fd);
}

/* A refused client: answer its first packet with an error gdb prints, then
 * close once it has read it (or after a while). */
static void serve_refused(gdbstub *s, unsigned i)
{
    char buf[512];
    int fd = s->refused[i].fd;
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    bool done = n == 0 || (n < 0 && errno != EAGAIN) || now_s() > s->refused[i].until;
    if (!done && n > 0 && !s->refused[i].answered && memchr(buf, '#', (size_t)n)) {
        char msg[300];
        snprintf(msg, sizeof msg, "E.xbow: another gdb is attached (from %s); only one at a time",
                 s->peer);
        strbuf b;
        sb_init(&b);
        sb_putc(&b, '+');
        rsp_frame(&b, msg, strlen(msg));
        done = send(fd, b.s, b.len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0;
        sb_free(&b);
        shutdown(fd, SHUT_WR);
        s->refused[i].answered = true;
        s->refused[i].until = now_s() + REFUSE_SECONDS;
    }
    if (done) {
        close(fd);
        s->refused[i].fd = -1;
    }
}

static void read_client(gdbstub *s)
{
    if (s->in_pos < s->in_len) /* bytes held back for a stop still to come */
        return;
    ssize_t n = recv(s->cfd, s->in, sizeof s->in, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        bool mid = s->dec.state != RSP_ST_IDLE;
        const char *what = s->gdb_run ? "closed the connection while the guest ran; it runs on "
                                        "(Ctrl-C stops it)"
                           : mid      ? "closed the connection in the middle of a packet"
                                      : "closed the connection";
        if (n < 0)
            xlog(LOG_WARN, "gdbserver", "reading from %s: %s", s->peer, strerror(errno));
        else if (mid || s->gdb_run)
            xlog(LOG_WARN, "gdbserver", "%s %s", s->peer, what);
        gdb_session_end(s, what);
        return;
    }
    s->in_len = (size_t)n;
    s->in_pos = 0;
    uint64_t garbage = s->dec.garbage;
    gdb_feed(s);
    if (s->dec.garbage > garbage && garbage == 0)
        xlog(LOG_WARN, "gdbserver", "%s sends bytes that are not packets: ignored", s->peer);
}

/* Poll the listener, the client and the refused clients (and `fd`);
 * handle what arrived.  Returns whether fd is readable. */
static bool service(gdbstub *s, int fd, int timeout_ms)
{
    struct pollfd p[3 + GDB_MAX_REFUSED];
    int np = 0, ifd = -1, il = -1, ic = -1, ir[GDB_MAX_REFUSED];
    if (fd >= 0) {
        ifd = np;
        p[np++] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    if (s->lfd >= 0) {
        il = np;
        p[np++] = (struct pollfd){.fd = s->lfd, .events = POLLIN};
    }
    if (s->connected && s->cfd >= 0 && s->in_pos == s->in_len) {
        ic = np;
        p[np++] = (struct pollfd){.fd = s->cfd, .events = POLLIN};
    }
    bool draining = false;
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++) {
        ir[i] = -1;
        if (s->refused[i].fd >= 0) {
            ir[i] = np;
            p[np++] = (struct pollfd){.fd = s->refused[i].fd, .events = POLLIN};
            draining = true;
        }
    }
    if (draining && (timeout_ms < 0 || timeout_ms > 500))
        timeout_ms = 500; /* to close refused clients on time */
    int n = poll(p, (nfds_t)np, timeout_ms);
    if (n < 0)
        return false; /* a signal (Ctrl-C, a resize): the front end looks */
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++)
        if (ir[i] >= 0)
            serve_refused(s, i);
    if (ic >= 0 && p[ic].revents && s->connected)
        read_client(s);
    if (il >= 0 && (p[il].revents & POLLIN))
        accept_client(s);
    return ifd >= 0 && p[ifd].revents != 0;
}

void gdb_net_poll(gdbstub *s, int timeout_ms)
{
    if (s->connected && s->in_pos < s->in_len)
        gdb_feed(s);
    service(s, -1, timeout_ms);
}

int gdbstub_wait(dbg *d, int fd, int timeout_ms)
{
    gdbstub *s = gdb_stub(d);
    if (!s || d->running) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        return fd >= 0 && poll(&p, 1, timeout_ms) > 0 ? 1 : 0;
    }
    /* The xbow prompt ran the guest while gdb waited for a stop. */
    if (s->connected && s->waiting && !s->gdb_run)
        gdb_send_stop(s);
    gdb_after_packet(s);
    if (s->connected && s->in_pos < s->in_len) {
        gdb_feed(s);
        gdb_after_packet(s);
        return 0;
    }
    bool ready = service(s, fd, timeout_ms);
    gdb_after_packet(s);
    if (s->connected && s->waiting && !s->gdb_run && !d->running)
        gdb_send_stop(s);
    return ready ? 1 : 0;
}

void gdbstub_serve_session(dbg *d)
{
    gdbstub *s = gdb_stub(d);
    if (!s || (!s->connected && s->lfd < 0))
        return;
    uint64_t ended = s->sessions;
    if (!s->connected)
        dbg_printf(d, "gdbserver: waiting for gdb on %s\n", s->where);
    while (!d->quit && s->sessions == ended && (s->connected || s->lfd >= 0))
        gdbstub_wait(d, -1, -1);
}

void gdbstub_status(dbg *d, char *buf, size_t len)
{
    gdbstub *s = gdb_stub(d);
    if (!s || (!s->connected && s->lfd < 0))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%s", s->connected ? "gdb attached" : "gdb waiting");
}
