/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A port's state for snapshots: its counters, the station address it
 * learnt, the frames a host backend read that are still crossing the wire,
 * its timers, then its backend's own image (the built-in peers: sink, echo,
 * gen).  Image: u32 version, the counters, u8 mac_known, 6 bytes mac,
 * u64 wire_free_at, the poll and wire timers, u32 frames x {u64 at,
 * u32-prefixed bytes}, str backend kind, u32-prefixed backend image. */
#include <stdlib.h>

#include "core/image.h"
#include "net/backend.h"

/* Version 2 added the frames read from the host and the rx drops by
 * reason after the ten counters of version 1 (which it still reads, with
 * those zero). */
#define PORT_IMAGE_VERSION 2
#define NSTATS 10
#define NSTATS2 (1 + NET_NDROP_REASONS)

static void stats_put(strbuf *out, const net_stats *s)
{
    const uint64_t v[NSTATS] = {s->tx_frames, s->tx_bytes,   s->tx_dropped,  s->rx_frames,
                                s->rx_bytes,  s->rx_dropped, s->bad_payload, s->payload_sum,
                                s->own_src,   s->wire_max};
    for (unsigned i = 0; i < NSTATS; i++)
        img_put64(out, v[i]);
    img_put64(out, s->rx_host);
    for (unsigned i = 0; i < NET_NDROP_REASONS; i++)
        img_put64(out, s->rx_drops[i]);
}

void net_port_state_save(net_port *p, strbuf *out)
{
    img_put(out, PORT_IMAGE_VERSION, 4);
    stats_put(out, &p->stats);
    img_put(out, p->mac_known, 1);
    sb_append(out, p->mac, 6);
    img_put64(out, p->wire_free_at);
    img_put_timer(out, &p->poll_timer);
    img_put_timer(out, &p->wire_timer);
    img_put(out, p->wire_frames, 4);
    for (const net_wire_frame *w = p->wire_head; w; w = w->next) {
        img_put64(out, w->at);
        img_put_bytes(out, w->data, w->len);
    }
    img_put_bytes(out, p->backend->kind, strlen(p->backend->kind));
    strbuf b;
    sb_init(&b);
    if (p->backend->state_save)
        p->backend->state_save(p->backend, &b);
    img_put_bytes(out, b.s, b.len);
    sb_free(&b);
}

typedef struct port_img {
    net_stats stats;
    uint8_t mac_known, mac[6];
    uint64_t wire_free_at;
    img_timer poll, wire;
    uint32_t nframes;
    const uint8_t *frames; /* nframes x {u64 at, u32 len, bytes} */
    size_t frames_len;
    const uint8_t *bimg;
    size_t blen;
} port_img;

static int parse(net_port *p, const void *img, size_t len, port_img *s, xerr *err)
{
    img_reader r;
    img_reader_init(&r, img, len);
    uint64_t v = img_get(&r, 4);
    if (!r.short_read && v != 1 && v != PORT_IMAGE_VERSION)
        return xerr_fail(err, "%s: port image version %llu, this xbow reads 1 to %u", p->name,
                         (unsigned long long)v, PORT_IMAGE_VERSION);
    uint64_t st[NSTATS + NSTATS2] = {0};
    for (unsigned i = 0; i < (v == 1 ? NSTATS : NSTATS + NSTATS2); i++)
        st[i] = img_get64(&r);
    memset(&s->stats, 0, sizeof s->stats);
    s->stats.tx_frames = st[0];
    s->stats.tx_bytes = st[1];
    s->stats.tx_dropped = st[2];
    s->stats.rx_frames = st[3];
    s->stats.rx_bytes = st[4];
    s->stats.rx_dropped = st[5];
    s->stats.bad_payload = st[6];
    s->stats.payload_sum = (uint32_t)st[7];
    s->stats.own_src = st[8];
    s->stats.wire_max = st[9];
    s->stats.rx_host = st[NSTATS];
    for (unsigned i = 0; i < NET_NDROP_REASONS; i++)
        s->stats.rx_drops[i] = st[NSTATS + 1 + i];
    s->mac_known = (uint8_t)img_get(&r, 1);
    for (unsigned i = 0; i < 6; i++)
        s->mac[i] = (uint8_t)img_get(&r, 1);
    s->wire_free_at = img_get64(&r);
    if (s->mac_known > 1 || img_get_timer(&r, &s->poll) || img_get_timer(&r, &s->wire))
        return xerr_fail(err, "%s: a flag of the port image is not 0 or 1", p->name);
    s->nframes = (uint32_t)img_get(&r, 4);
    if (s->nframes > NET_WIRE_QUEUE_FRAMES)
        return xerr_fail(err, "%s: %u frames on the wire, at most %u", p->name, s->nframes,
                         NET_WIRE_QUEUE_FRAMES);
    s->frames = r.p;
    for (uint32_t i = 0; i < s->nframes && !r.short_read; i++) {
        img_get64(&r);
        size_t n;
        img_get_bytes(&r, &n);
        if (n > NET_MAX_FRAME)
            return xerr_fail(err, "%s: a frame on the wire has %zu bytes", p->name, n);
    }
    s->frames_len = (size_t)(r.p - s->frames);
    size_t kl;
    const uint8_t *kind = img_get_bytes(&r, &kl);
    s->bimg = img_get_bytes(&r, &s->blen);
    if (r.short_read)
        return xerr_fail(err, "%s: the port image is truncated", p->name);
    if (img_left(&r))
        return xerr_fail(err, "%s: %zu bytes after the port image", p->name, img_left(&r));
    const char *mine = p->backend->kind;
    if (kl != strlen(mine) || memcmp(kind, mine, kl) != 0)
        return xerr_fail(err, "%s: the image is of another peer, this one is %s", p->name, mine);
    if (p->backend->state_check) {
        xerr why;
        if (p->backend->state_check(p->backend, s->bimg, s->blen, &why) != 0)
            return xerr_fail(err, "%s: %s peer: %s", p->name, mine, why.msg);
    } else if (s->blen) {
        return xerr_fail(err, "%s: the %s peer has no state, the image has %zu bytes", p->name,
                         mine, s->blen);
    }
    return 0;
}

int net_port_state_check(net_port *p, const void *img, size_t len, xerr *err)
{
    port_img s;
    return parse(p, img, len, &s, err);
}

int net_port_state_load(net_port *p, const void *img, size_t len, xerr *err)
{
    port_img s;
    if (parse(p, img, len, &s, err) != 0)
        return -1;
    p->stats = s.stats;
    p->mac_known = s.mac_known;
    memcpy(p->mac, s.mac, 6);
    p->wire_free_at = s.wire_free_at;
    net_wire_clear(p);
    img_reader r;
    img_reader_init(&r, s.frames, s.frames_len);
    for (uint32_t i = 0; i < s.nframes; i++) {
        uint64_t at = img_get64(&r);
        size_t n;
        const uint8_t *d = img_get_bytes(&r, &n);
        net_wire_append(p, at, d, n);
    }
    img_timer_apply(p->clock, &p->poll_timer, &s.poll);
    img_timer_apply(p->clock, &p->wire_timer, &s.wire);
    if (p->backend->state_load)
        p->backend->state_load(p->backend, s.bimg, s.blen);
    return 0;
}
