/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The port between a NIC and its backend: spec parsing, counters, events,
 * capture, and the virtual-clock polling of host backends. */
#include "core/hostprof.h"
#include "core/log.h"
#include "core/rr.h"
#include "net/backend.h"

#include <errno.h>
#include <time.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const reason_names[] = {"refused", "no-nic",     "bad-length", "host",
                                           "no-peer", "queue-full", NULL};
static const char *const dir_names[] = {"tx", "rx", NULL};

const char *net_drop_reason_name(int reason)
{
    if (reason < 0 || reason >= (int)ARRAY_SIZE(reason_names) - 1)
        return "?";
    return reason_names[reason];
}

static void format_mac(const event *ev, uint64_t v, strbuf *out)
{
    uint8_t m[6];
    char s[18];
    store_be(m, 6, v);
    net_fmt_mac(s, m);
    sb_puts(out, s);
}

/* dst and src are 48-bit numbers (conditions compare them as such) shown
 * as MACs. */
static const event_field frame_fields[] = {
    {"len", EVF_DEC, NULL, NULL},
    {"dst", EVF_HEX, NULL, format_mac},
    {"src", EVF_HEX, NULL, format_mac},
    {"type", EVF_HEX, NULL, NULL},
};
static const event_field drop_fields[] = {
    {"dir", EVF_ENUM, dir_names, NULL},
    {"len", EVF_DEC, NULL, NULL},
    {"reason", EVF_ENUM, reason_names, NULL},
};
static const event_decl ev_tx_decl = {"net.tx", "the NIC sent a frame to the wire", frame_fields,
                                      ARRAY_SIZE(frame_fields)};
static const event_decl ev_rx_decl = {"net.rx",
                                      "a frame arrived for the NIC (net.drop follows if refused)",
                                      frame_fields, ARRAY_SIZE(frame_fields)};
static const event_decl ev_drop_decl = {"net.drop", "a frame was dropped (dir, len, reason)",
                                        drop_fields, ARRAY_SIZE(drop_fields)};

/* host: frames come from outside the machine (recorded and replayed). */
static const struct {
    const char *kind;
    net_backend_ctor ctor;
    bool host;
} kinds[] = {
    {"sink", net_sink_new, false}, {"echo", net_echo_new, false},    {"gen", net_gen_new, false},
    {"tap", net_tap_new, true},    {"socket", net_socket_new, true}, {"vde", net_vde_new, true},
};

/* ---- record and replay (core/rr.h) ------------------------------------------ */

static inline bool recording(const net_port *p) { return p->rr_host && rr_recording(p->clock->rr); }

/* The backend's own code (send, poll) starts: what it drops is an input. */
static inline void backend_enter(net_port *p, bool in_send)
{
    p->rr_in_backend = true;
    p->rr_in_poll = !in_send;
}

/* ... and ends: a descriptor it gained or lost (a peer that left) changes
 * when the port polls it, so that is an input too (bit 1: during a send). */
static void backend_leave(net_port *p, bool in_send)
{
    p->rr_in_backend = false;
    p->rr_in_poll = false;
    bool live = p->backend->fd >= 0;
    if (p->rr_host && live != p->rr_live)
        p->clock->inputs++;
    if (p->host && live != p->rr_live && p->clock->hist)
        p->clock->hist->cuts++; /* the history cannot feed a peer's coming or going */
    if (recording(p) && live != p->rr_live) {
        uint8_t v = (uint8_t)(live | in_send << 1);
        rr_put(p->clock->rr, RR_NET_LINK, p->rr_channel, &v, 1);
    }
    p->rr_live = live;
}

void net_port_rr_link(net_port *p, bool live)
{
    p->clock->inputs++;
    if (p->clock->hist)
        p->clock->hist->cuts++;
    p->backend->fd = live ? 0 : -1;
    p->rr_live = live;
}

/* Reuse a source of that name when a port for the same NIC is reopened:
 * the event bus has no removal, and subscriptions should survive. */
static event_src *port_event(event_bus *eb, const char *nic, const event_decl *d, net_port *p)
{
    char name[sizeof((event_src *)0)->name];
    snprintf(name, sizeof name, "%s.%s", nic, d->name);
    event_src *s = event_find(eb, name);
    if (!s)
        s = event_src_add(eb, nic, d, p);
    else
        s->owner = p;
    return s;
}

static void poll_arm(net_port *p)
{
    if (p->backend && p->backend->fd >= 0 && !timer_pending(&p->poll_timer))
        timer_mod(p->clock, &p->poll_timer, p->clock->now + p->poll_ticks);
}

/* Every poll_ticks of virtual time while the backend has a host fd: one
 * poll(), and the backend reads a batch when something is there.  The poll
 * does not wait, but while every CPU waits (idle skip: sched.idle) it waits
 * for a frame at most until host time has caught up with virtual time:
 * a guest waiting for the host's network waits as long as the network
 * takes, instead of running through its own timeouts in a few host
 * milliseconds.  That costs no host CPU, and the guest sees what it sees
 * from the host's network anyway: frames at host-determined times. */
/* The history feeds the port (the machine re-runs its past): the frames and
 * drops the backend had at this poll, from the log; the host is not asked. */
static void hist_poll(net_port *p)
{
    rr_log *L = p->clock->hist;
    const rr_rec *rec;
    while ((rec = rr_log_next(L, p->hist_stream)) && rec->time <= p->clock->now) {
        if (rec->time < p->clock->now)
            L->diverged++;
        if (rec->kind == RR_NET_FRAME && rec->len >= 4) {
            const uint8_t *f = rec->data + 4;
            size_t len = (size_t)load_le(rec->data, 4);
            rr_log_take(L, p->hist_stream);
            net_port_host_rx(p, f, len);
        } else if (rec->kind == RR_NET_DROP && net_drop_at_poll(rec->data[0])) {
            size_t len = (size_t)load_le(rec->data + 2, 4);
            int reason = rec->data[1];
            rr_log_take(L, p->hist_stream);
            net_port_drop(p, rec->data[0] & 1, len, reason);
        } else {
            return; /* a send's drop: net_port_send takes it */
        }
    }
}

/* ... and a send: what the host did with the frame, from the log. */
static void hist_send(net_port *p)
{
    rr_log *L = p->clock->hist;
    const rr_rec *rec = rr_log_next(L, p->hist_stream);
    if (rec && rec->kind == RR_NET_DROP && rec->data[0] == NET_DIR_TX &&
        rec->time <= p->clock->now && load_le(rec->data + 6, 8) == p->stats.tx_frames) {
        size_t len = (size_t)load_le(rec->data + 2, 4);
        int reason = rec->data[1];
        rr_log_take(L, p->hist_stream);
        net_port_drop(p, NET_DIR_TX, len, reason);
    }
}

static inline bool hist_feeding(const net_port *p)
{
    return p->host && rr_log_feeding(p->clock->hist);
}

/* ---- the output to the host (writer.c) ---------------------------------------- */

/* A frame the host refused (at the send without a writer thread, at a poll
 * with one): counted as a tx drop; an unexpected errno is logged once.
 * EAGAIN/ENOBUFS: the host's queue is full; EIO: a tap whose interface is
 * down; the others: the peer is not there. */
static void tx_refused(net_port *p, size_t len, int reason, int e)
{
    if (e && e != EAGAIN && e != ENOBUFS && e != EIO && e != EPIPE && e != ECONNRESET &&
        e != ECONNREFUSED && !p->tx_err_logged) {
        xlog(LOG_WARN, p->name, "%s: the host refused a frame: %s", p->backend->kind, strerror(e));
        p->tx_err_logged = true;
    }
    net_port_drop(p, NET_DIR_TX, len, reason);
}

/* What the writer thread's frames met on the host since the last poll. */
static void writer_retire(net_port *p)
{
    net_writer_result r[NET_WRITER_RESULTS];
    uint64_t lost;
    size_t n = net_writer_take(p->writer, r, &lost);
    for (size_t i = 0; i < n; i++)
        tx_refused(p, r[i].len, r[i].reason, r[i].err);
    for (uint64_t i = 0; i < lost; i++)
        net_port_drop(p, NET_DIR_TX, 0, NET_DROP_HOST);
}

void net_port_tx_drain(net_port *p)
{
    if (!p->writer)
        return;
    net_writer_drain(p->writer);
    writer_retire(p);
}

/* The writer thread, unless XBOW_NET_WRITER=0 (a measurement's reference:
 * xmit then runs on the emulation thread, as before 2026-12-02). */
static void writer_open(net_port *p)
{
    const char *env = getenv("XBOW_NET_WRITER");
    if (!p->backend->xmit || p->backend->replayed || (env && !strcmp(env, "0")))
        return;
    xerr err = {0};
    p->writer = net_writer_start(p->backend, &err);
    if (!p->writer)
        xlog(LOG_WARN, p->name, "%s; frames go to the host from the emulation thread", err.msg);
}

static void poll_timer_fn(void *opaque)
{
    net_port *p = opaque;
    net_backend *b = p->backend;
    if (b->fd < 0)
        return;
    if (hist_feeding(p)) {
        hist_poll(p);
        poll_arm(p);
        return;
    }
    if (b->replayed) { /* the log says what the host had */
        b->poll(b);
        poll_arm(p);
        return;
    }
    struct pollfd pfd = {.fd = b->fd, .events = POLLIN};
    HOSTPROF_BEGIN(&p->poll_timer, HP_NET_IO, p->hp_poll);
    if (p->writer) {
        backend_enter(p, false);
        writer_retire(p);
        backend_leave(p, false);
    }
    uint64_t wait = sched_idle_pace(p->clock, NET_PACE_MAX_NS);
    struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000ull),
                          .tv_nsec = (long)(wait % 1000000000ull)};
    /* With no room for a frame (the NIC paused its partner, the wire is
     * full), frames waiting on the host would end the wait at once: keep
     * the pace without them, then let the backend run (it reads nothing,
     * but a VDE port sends its backlog). */
    bool room = net_port_host_room(p);
    int n = room ? ppoll(&pfd, 1, &ts, NULL) : (wait && nanosleep(&ts, NULL) < 0 ? -1 : 1);
    if (n > 0 && b->poll) {
        backend_enter(p, false);
        b->poll(b);
        backend_leave(p, false);
    } else if (n < 0 && errno != EINTR)
        xlog(LOG_ERROR, p->name, "net: poll: %s", strerror(errno));
    HOSTPROF_END();
    poll_arm(p);
}

/* ---- the wire from a host backend ---------------------------------------- */

static void wire_arm(net_port *p)
{
    if (p->wire_head)
        timer_mod(p->clock, &p->wire_timer, p->wire_head->at);
}

static uint64_t wire_ticks(net_port *p, size_t len)
{
    size_t wire_len = (len < NET_MIN_FRAME ? NET_MIN_FRAME : len) + 4 + 8 + 12;
    uint64_t took = sched_ns_to_ticks(p->clock, wire_len * 8);
    return took ? took : 1;
}

/* The NIC paused its partner (802.3x XOFF): the wire stops at the frame
 * boundary, as the partner's transmitter does, and the frames on it start
 * again from now, each after its own wire time; the pause is checked again
 * when the first of them would be through (so it ends up to one frame's
 * time late [INF]). */
static void wire_respace(net_port *p)
{
    uint64_t t = p->clock->now;
    for (net_wire_frame *w = p->wire_head; w; w = w->next) {
        uint64_t earliest = t + wire_ticks(p, w->len);
        if (w->at < earliest)
            w->at = earliest;
        t = w->at;
    }
    p->wire_free_at = t;
}

static void wire_timer_fn(void *opaque)
{
    net_port *p = opaque;
    while (p->wire_head && p->wire_head->at <= p->clock->now) {
        if (p->ready && p->nic && !p->ready(p->nic)) {
            wire_respace(p); /* asks again one head frame's time later */
            break;
        }
        net_wire_frame *w = p->wire_head;
        p->wire_head = w->next;
        if (!p->wire_head)
            p->wire_tail = NULL;
        p->wire_frames--;
        p->wire_bytes -= w->len;
        net_port_deliver(p, w->data, w->len);
        free(w);
    }
    wire_arm(p);
}

net_wire_frame *net_wire_append(net_port *p, uint64_t at, const uint8_t *frame, size_t len)
{
    net_wire_frame *w = xmalloc(sizeof *w + len);
    w->next = NULL;
    w->at = at;
    w->len = (uint32_t)len;
    memcpy(w->data, frame, len);
    if (p->wire_tail)
        p->wire_tail->next = w;
    else
        p->wire_head = w;
    p->wire_tail = w;
    p->wire_frames++;
    p->wire_bytes += len;
    return w;
}

void net_wire_clear(net_port *p)
{
    while (p->wire_head) {
        net_wire_frame *w = p->wire_head;
        p->wire_head = w->next;
        free(w);
    }
    p->wire_tail = NULL;
    p->wire_frames = 0;
    p->wire_bytes = 0;
}

static void wire_queue(net_port *p, const uint8_t *frame, size_t len)
{
    if (len < ETH_HLEN || len > NET_MAX_FRAME) {
        net_port_deliver(p, frame, len); /* counted as bad-length at once */
        return;
    }
    if (p->wire_frames >= NET_WIRE_QUEUE_FRAMES || p->wire_bytes + len > NET_WIRE_QUEUE_BYTES) {
        net_port_drop(p, NET_DIR_RX, len, NET_DROP_QUEUE);
        return;
    }
    uint64_t start = p->wire_free_at > p->clock->now ? p->wire_free_at : p->clock->now;
    p->wire_free_at = start + wire_ticks(p, len);
    net_wire_frame *w = net_wire_append(p, p->wire_free_at, frame, len);
    if (p->wire_frames > p->stats.wire_max)
        p->stats.wire_max = p->wire_frames;
    if (p->wire_head == w)
        wire_arm(p);
}

static void record_frame(net_port *p, const uint8_t *frame, size_t len)
{
    size_t keep = len > NET_MAX_FRAME ? 0 : len; /* an over-long one is dropped by its length */
    store_le(p->rr_buf, 4, len > UINT32_MAX ? UINT32_MAX : len);
    memcpy(p->rr_buf + 4, frame, keep);
    rr_put(p->clock->rr, RR_NET_FRAME, p->rr_channel, p->rr_buf, 4 + keep);
}

bool net_port_host_room(const net_port *p)
{
    return p->wire_free_at <= p->clock->now + p->poll_ticks &&
           p->wire_frames < NET_WIRE_QUEUE_FRAMES && (!p->ready || !p->nic || p->ready(p->nic));
}

void net_port_host_rx(net_port *p, const uint8_t *frame, size_t len)
{
    p->stats.rx_host++;     /* from the host, or the history's copy of it */
    if (!hist_feeding(p)) { /* a new input (else the history's own) */
        p->clock->inputs++;
        if (recording(p))
            record_frame(p, frame, len);
        if (p->clock->hist) {
            size_t keep = len > NET_MAX_FRAME ? 0 : len;
            uint8_t *d = xmalloc(4 + keep);
            store_le(d, 4, len > UINT32_MAX ? UINT32_MAX : len);
            memcpy(d + 4, frame, keep);
            rr_log_put(p->clock->hist, RR_NET_FRAME, p->hist_stream, d, 4 + keep);
            free(d);
        }
    }
    /* What happens to it from here on follows from the machine's state. */
    bool in_backend = p->rr_in_backend;
    p->rr_in_backend = false;
    wire_queue(p, frame, len);
    p->rr_in_backend = in_backend;
}

net_port *net_port_open(const char *name, const char *spec, const char *pcap_path, sched *clock,
                        event_bus *eb, xerr *err)
{
    if (!name || !*name || strlen(name) >= sizeof((net_port *)0)->name)
        return net_fail(err, "net", "bad NIC name");
    if (!spec || !*spec)
        return net_fail(err, name, "no network backend given");
    if (strlen(spec) >= sizeof((net_port *)0)->spec)
        return net_fail(err, name, "network spec too long");
    if (!clock)
        return net_fail(err, name, "no clock");
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    net_backend_ctor ctor = NULL;
    bool host = false;
    for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
        if (strlen(kinds[i].kind) == klen && !strncmp(spec, kinds[i].kind, klen)) {
            ctor = kinds[i].ctor;
            host = kinds[i].host;
        }
    if (!ctor)
        return net_fail(
            err, name,
            "unknown network backend \"%.*s\" (want sink, echo, gen, tap, socket or vde)",
            (int)klen, spec);

    net_port *p = xcalloc(1, sizeof *p);
    strcpy(p->name, name);
    strcpy(p->spec, spec);
    snprintf(p->hp_send, sizeof p->hp_send, "%s (send)", name);
    snprintf(p->hp_poll, sizeof p->hp_poll, "%s (poll)", name);
    p->clock = clock;
    p->poll_ticks = sched_ns_to_ticks(clock, NET_POLL_NS);
    if (!p->poll_ticks)
        p->poll_ticks = 1;
    timer_init(&p->poll_timer, "net-poll", poll_timer_fn, p);
    timer_init(&p->wire_timer, "net-wire", wire_timer_fn, p);
    rr *r = clock->rr;
    p->host = host;
    if (host)
        p->hist_stream = clock->host_ports++ % RR_STREAM_CONSOLE;
    if (host && rr_mode_of(r) != RR_OFF) {
        p->rr_host = true;
        p->rr_channel = r->channels++;
    }
    /* A replay opens nothing on the host: the log is the backend. */
    if (host && rr_replaying(r))
        p->backend = net_replay_new(p, spec, err);
    else
        p->backend = ctor(p, colon ? colon + 1 : "", err);
    if (!p->backend) {
        free(p);
        return NULL;
    }
    p->rr_live = p->backend->fd >= 0;
    writer_open(p);
    if (recording(p))
        p->rr_buf = xmalloc(4 + NET_MAX_FRAME);
    p->backend->port = p;
    /* The capture file last: a backend that fails leaves it as it was. */
    if (pcap_path && *pcap_path) {
        p->pcap = net_pcap_open(pcap_path, clock, err);
        if (!p->pcap) {
            net_writer_stop(p->writer);
            if (p->backend->close)
                p->backend->close(p->backend);
            free(p);
            return NULL;
        }
    }
    if (eb) {
        p->ev_tx = port_event(eb, name, &ev_tx_decl, p);
        p->ev_rx = port_event(eb, name, &ev_rx_decl, p);
        p->ev_drop = port_event(eb, name, &ev_drop_decl, p);
    }
    poll_arm(p);
    return p;
}

void net_port_close(net_port *p)
{
    if (!p)
        return;
    timer_del(p->clock, &p->poll_timer);
    timer_del(p->clock, &p->wire_timer);
    net_wire_clear(p);
    /* What the guest sent goes out before the descriptor closes; what the
     * host refused of it since the last poll is said, not lost silently. */
    if (p->writer) {
        net_writer_drain(p->writer);
        net_writer_result r[NET_WRITER_RESULTS];
        uint64_t lost, n = net_writer_take(p->writer, r, &lost);
        if (n + lost)
            xlog(LOG_WARN, p->name,
                 "%s: the host refused %llu of the frames sent after the last poll (at the end)",
                 p->backend->kind, (unsigned long long)(n + lost));
    }
    net_writer_stop(p->writer);
    if (p->backend && p->backend->close)
        p->backend->close(p->backend);
    net_pcap_close(p->pcap);
    free(p->rr_buf);
    /* The sources stay on the bus (it has no removal); nothing emits on them. */
    event_src *srcs[] = {p->ev_tx, p->ev_rx, p->ev_drop};
    for (size_t i = 0; i < ARRAY_SIZE(srcs); i++)
        if (srcs[i])
            srcs[i]->owner = NULL;
    free(p);
}

void net_port_attach(net_port *p, net_rx_fn rx, void *nic)
{
    p->rx = rx;
    p->nic = nic;
}

void net_port_set_ready(net_port *p, net_ready_fn ready) { p->ready = ready; }

void net_port_set_mac(net_port *p, const uint8_t mac[6])
{
    memcpy(p->mac, mac, 6);
    p->mac_known = true;
}

static inline void emit_frame(event_src *src, const uint8_t *f, size_t len)
{
    EVENT_EMIT(src, -1, len, len >= 6 ? load_be(f, 6) : 0, len >= 12 ? load_be(f + 6, 6) : 0,
               len >= 14 ? load_be(f + 12, 2) : 0);
}

void net_port_drop(net_port *p, int dir, size_t len, int reason)
{
    if (p->rr_in_backend && p->rr_host)
        p->clock->inputs++;
    if (p->rr_in_backend && (recording(p) || (p->host && p->clock->hist))) {
        uint8_t d[14];
        d[0] = (uint8_t)dir;
        d[1] = (uint8_t)reason;
        store_le(d + 2, 4, len > UINT32_MAX ? UINT32_MAX : len);
        store_le(d + 6, 8,
                 dir == NET_DIR_TX ? p->stats.tx_frames : p->stats.rx_frames + p->stats.rx_dropped);
        if (dir == NET_DIR_TX && p->rr_in_poll)
            d[0] |= NET_DROP_AT_POLL;
        if (recording(p))
            rr_put(p->clock->rr, RR_NET_DROP, p->rr_channel, d, sizeof d);
        if (p->host)
            rr_log_put(p->clock->hist, RR_NET_DROP, p->hist_stream, d, sizeof d);
    }
    if (dir == NET_DIR_TX) {
        p->stats.tx_dropped++;
    } else {
        p->stats.rx_dropped++;
        if (reason >= 0 && reason < (int)ARRAY_SIZE(p->stats.rx_drops))
            p->stats.rx_drops[reason]++;
    }
    EVENT_EMIT(p->ev_drop, -1, (uint64_t)dir, len, (uint64_t)reason);
}

void net_port_send(net_port *p, const uint8_t *frame, size_t len)
{
    p->stats.tx_frames++;
    p->stats.tx_bytes += len;
    if (len < ETH_HLEN || len > NET_MAX_FRAME) {
        net_port_drop(p, NET_DIR_TX, len, NET_DROP_LENGTH);
        return;
    }
    if (!p->mac_known && !(frame[6] & 1)) {
        memcpy(p->mac, frame + 6, 6);
        p->mac_known = true;
    }
    if (p->pcap)
        net_pcap_write(p->pcap, frame, len);
    emit_frame(p->ev_tx, frame, len);
    if (hist_feeding(p)) { /* the host had it when the run was live */
        hist_send(p);
        poll_arm(p);
        return;
    }
    HOSTPROF_BEGIN(p, HP_NET_IO, p->hp_send);
    backend_enter(p, true);
    net_backend *b = p->backend;
    if (!b->xmit) {
        b->send(b, frame, len);
    } else if (b->tx_fd < 0) {
        net_port_drop(p, NET_DIR_TX, len, NET_DROP_NO_PEER);
    } else if (p->writer) {
        net_writer_put(p->writer, b->tx_fd, frame, len);
    } else {
        int e = 0, reason = b->xmit(b, b->tx_fd, frame, len, &e);
        if (reason >= 0)
            tx_refused(p, len, reason, e);
    }
    backend_leave(p, true);
    HOSTPROF_END();
    /* A backend may have gained a host fd (a peer connected). */
    poll_arm(p);
}

bool net_port_deliver(net_port *p, const uint8_t *frame, size_t len)
{
    if (len < ETH_HLEN || len > NET_MAX_FRAME) {
        net_port_drop(p, NET_DIR_RX, len, NET_DROP_LENGTH);
        return false;
    }
    uint8_t pad[NET_MIN_FRAME];
    if (len < NET_MIN_FRAME) {
        memcpy(pad, frame, len);
        memset(pad + len, 0, NET_MIN_FRAME - len);
        frame = pad;
        len = NET_MIN_FRAME;
    }
    /* The capture shows the wire: frames the NIC refuses are in it too. */
    if (p->pcap)
        net_pcap_write(p->pcap, frame, len);
    /* Only another station with our address (or a wire looped back onto
     * itself) sends such frames: the two stations will lose each other's
     * traffic, so say why once. */
    if (p->mac_known && memcmp(frame + 6, p->mac, 6) == 0 && p->stats.own_src++ == 0) {
        char m[18];
        net_fmt_mac(m, p->mac);
        xlog(LOG_WARN, p->name,
             "a frame from the wire has this NIC's own address %s as its source: another "
             "machine on the wire uses the same MAC (give each its own --mac)",
             m);
    }
    if (!p->rx) {
        net_port_drop(p, NET_DIR_RX, len, NET_DROP_NO_NIC);
        return false;
    }
    /* The event comes first, so a trace reads in causal order: the frame,
     * then what the NIC did with it (DMA, interrupts, or net.drop). */
    emit_frame(p->ev_rx, frame, len);
    if (!p->rx(p->nic, frame, len)) {
        net_port_drop(p, NET_DIR_RX, len, NET_DROP_REFUSED);
        return false;
    }
    p->stats.rx_frames++;
    p->stats.rx_bytes += len;
    return true;
}

void net_port_flush(net_port *p)
{
    if (p->pcap)
        net_pcap_flush(p->pcap);
}

void net_port_show(net_port *p, strbuf *out)
{
    const net_stats *s = &p->stats;
    sb_printf(out, "%s: net %s%s\n", p->name, p->spec, p->rx ? "" : " (no NIC attached)");
    if (p->mac_known) {
        char m[18];
        net_fmt_mac(m, p->mac);
        sb_printf(out, "  nic mac   %s\n", m);
    }
    sb_printf(out, "  tx        %llu frames, %llu bytes, %llu dropped\n",
              (unsigned long long)s->tx_frames, (unsigned long long)s->tx_bytes,
              (unsigned long long)s->tx_dropped);
    sb_printf(out, "  rx        %llu frames, %llu bytes, %llu dropped",
              (unsigned long long)s->rx_frames, (unsigned long long)s->rx_bytes,
              (unsigned long long)s->rx_dropped);
    for (int i = 0; i < (int)ARRAY_SIZE(s->rx_drops); i++)
        if (s->rx_drops[i])
            sb_printf(out, " %s=%llu", net_drop_reason_name(i), (unsigned long long)s->rx_drops[i]);
    sb_putc(out, '\n');
    if (s->rx_host)
        sb_printf(out,
                  "  host      %llu frames read: %u on the wire, the rest in rx above (taken by "
                  "the NIC or dropped)\n",
                  (unsigned long long)s->rx_host, p->wire_frames);
    if (s->wire_max)
        sb_printf(out, "  wire      %u frames waiting to cross it at 1 Gb/s (most %llu)\n",
                  p->wire_frames, (unsigned long long)s->wire_max);
    if (s->own_src)
        sb_printf(out, "  own MAC   %llu frames from the wire had this NIC's address as source\n",
                  (unsigned long long)s->own_src);
    if (p->backend->show)
        p->backend->show(p->backend, out);
    if (p->writer)
        net_writer_show(p->writer, out);
    if (p->pcap)
        net_pcap_show(p->pcap, out);
}
