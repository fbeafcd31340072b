/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The replay of a host backend (tap, socket, vde): under `--replay FILE`
 * the port gets this backend instead of the one its spec names, and it
 * hands the NIC the frames the log holds for its channel at the times the
 * recorded backend read them.  It opens nothing on the host, so the replay
 * of a tap recording needs no tap device and no privilege.
 *
 * What the recorded backend did at a poll (frames read, frames dropped on
 * the way in, a peer that left) is in the log in that order at the poll's
 * time; what it did with a frame it was given (the host could not take it,
 * the peer had left) is in the log at the send, matched by the port's
 * transmit count.  Frames the NIC sends go nowhere. */
#include "core/rr.h"
#include "net/backend.h"

#include <stdlib.h>

typedef struct replayb {
    net_backend b;
    rr *r;
    unsigned ch;
    uint64_t frames, drops, sent;
    uint8_t frame[NET_MAX_FRAME];
} replayb;

static void apply_drop(net_port *p, const rr_rec *rec)
{
    net_port_drop(p, rec->data[0] & 1 ? NET_DIR_RX : NET_DIR_TX, (size_t)load_le(rec->data + 2, 4),
                  rec->data[1]);
}

static void replay_send(net_backend *b, const uint8_t *f, size_t len)
{
    replayb *rb = container_of(b, replayb, b);
    net_port *p = b->port;
    rb->sent++;
    const rr_rec *rec = rr_due(rb->r, RR_NET_DROP, rb->ch);
    if (rec && rec->data[0] == NET_DIR_TX && load_le(rec->data + 6, 8) == p->stats.tx_frames) {
        rb->drops++;
        apply_drop(p, rec);
        rr_take(rb->r);
    }
    rec = rr_due(rb->r, RR_NET_LINK, rb->ch);
    if (rec && (rec->data[0] & 2)) {
        net_port_rr_link(p, rec->data[0] & 1);
        rr_take(rb->r);
    }
}

static void replay_poll(net_backend *b)
{
    replayb *rb = container_of(b, replayb, b);
    net_port *p = b->port;
    for (;;) {
        const rr_rec *rec;
        if ((rec = rr_due(rb->r, RR_NET_FRAME, rb->ch))) {
            rb->frames++;
            /* rr_take reads the next record into the same buffer: copy first */
            size_t len = (size_t)load_le(rec->data, 4);
            size_t have = rec->len - 4;
            /* An over-long frame is logged without its bytes (dropped by its length). */
            if (len <= NET_MAX_FRAME ? have != len : have != 0) {
                rr_fail(rb->r,
                        "replay: a %s frame record of %zu bytes says %zu: the log is damaged",
                        p->name, have, len);
                return;
            }
            memcpy(rb->frame, rec->data + 4, have);
            rr_take(rb->r);
            net_port_host_rx(p, rb->frame, len);
        } else if ((rec = rr_due(rb->r, RR_NET_DROP, rb->ch)) && net_drop_at_poll(rec->data[0])) {
            rb->drops++;
            apply_drop(p, rec);
            rr_take(rb->r);
        } else if ((rec = rr_due(rb->r, RR_NET_LINK, rb->ch)) && !(rec->data[0] & 2)) {
            net_port_rr_link(p, rec->data[0] & 1);
            rr_take(rb->r);
        } else {
            return;
        }
    }
}

static void replay_close(net_backend *b) { free(container_of(b, replayb, b)); }

static void replay_show(net_backend *b, strbuf *out)
{
    replayb *rb = container_of(b, replayb, b);
    sb_printf(out,
              "  replay    from %s (channel %u)%s: %llu frames replayed, %llu drops, %llu sent "
              "nowhere\n",
              rb->r->path, rb->ch, b->fd < 0 ? ", peer gone" : "", (unsigned long long)rb->frames,
              (unsigned long long)rb->drops, (unsigned long long)rb->sent);
}

net_backend *net_replay_new(net_port *p, const char *args, xerr *err)
{
    UNUSED(err);
    replayb *rb = xcalloc(1, sizeof *rb);
    rb->r = p->clock->rr;
    rb->ch = p->rr_channel;
    /* The kind of the backend it stands for: the machine's state (a
     * snapshot's image of the port) is the same in the recording and the
     * replay; `info device NIC stats` says "replay". */
    static const char *const kinds[] = {"tap", "socket", "vde"};
    rb->b.kind = "replay";
    for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
        size_t n = strlen(kinds[i]);
        if (!strncmp(args, kinds[i], n) && (args[n] == ':' || !args[n]))
            rb->b.kind = kinds[i];
    }
    rb->b.send = replay_send;
    rb->b.poll = replay_poll;
    rb->b.close = replay_close;
    rb->b.show = replay_show;
    rb->b.fd = 0; /* not a host descriptor (replayed): polled as the recorded one was */
    rb->b.replayed = true;
    return &rb->b;
}
