/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sink`: a peer that takes every frame the NIC sends, counts it and, for
 * IPv4/UDP frames, checks the payload pattern (net_payload_byte): message
 * number k big-endian in the first 4 bytes, then the pattern.  Frames that
 * are not UDP are counted, not verified.  Nothing is ever sent back.
 *
 *   sink[:verify|noverify][,port=N]
 * verify (the default) checks every UDP datagram, or only those to
 * destination port N; noverify only counts. */
#include "core/image.h"
#include "net/backend.h"

#include <stdlib.h>

typedef struct sink {
    net_backend b;
    bool verify;
    int port; /* -1: every UDP datagram */
    uint64_t frames, bytes, udp_ok, udp_bad, udp_skipped, other, seq_breaks;
    uint32_t last_k;
    bool have_k;
} sink;

static void sink_send(net_backend *b, const uint8_t *f, size_t len)
{
    sink *s = container_of(b, sink, b);
    net_stats *st = &b->port->stats;
    s->frames++;
    s->bytes += len;
    net_ipv4 ip;
    net_udp u;
    if (!net_parse_udp_frame(f, len, &ip, &u)) {
        s->other++;
        return;
    }
    if (!s->verify || (s->port >= 0 && u.dport != s->port)) {
        s->udp_skipped++;
        return;
    }
    uint32_t k;
    if (!net_payload_verify(u.data, u.data_len, &k)) {
        s->udp_bad++;
        st->bad_payload++;
        return;
    }
    s->udp_ok++;
    st->payload_sum += net_payload_hash(k, u.data_len);
    if (s->have_k && k != s->last_k + 1)
        s->seq_breaks++;
    s->last_k = k;
    s->have_k = true;
}

static void sink_close(net_backend *b) { free(container_of(b, sink, b)); }

static void sink_show(net_backend *b, strbuf *out)
{
    sink *s = container_of(b, sink, b);
    sb_printf(out, "  sink      %llu frames, %llu bytes; %llu not UDP\n",
              (unsigned long long)s->frames, (unsigned long long)s->bytes,
              (unsigned long long)s->other);
    if (!s->verify) {
        sb_printf(out, "  udp       %llu (not verified)\n", (unsigned long long)s->udp_skipped);
        return;
    }
    sb_printf(out, "  verified  %llu good, %llu bad payloads", (unsigned long long)s->udp_ok,
              (unsigned long long)s->udp_bad);
    if (s->port >= 0)
        sb_printf(out, " (port %d; %llu other UDP)", s->port, (unsigned long long)s->udp_skipped);
    sb_puts(out, "\n  sequence  last k ");
    if (s->have_k)
        sb_printf(out, "%u", s->last_k);
    else
        sb_puts(out, "none");
    sb_printf(out, ", %llu breaks; payload sum 0x%08x\n", (unsigned long long)s->seq_breaks,
              b->port->stats.payload_sum);
}

/* Snapshots: the counters and the sequence state, 8 x u64 then u8 have_k. */
#define SINK_IMAGE_BYTES (8 * 8 + 1)

static void sink_state_save(net_backend *b, strbuf *out)
{
    sink *s = container_of(b, sink, b);
    const uint64_t v[8] = {s->frames,      s->bytes, s->udp_ok,     s->udp_bad,
                           s->udp_skipped, s->other, s->seq_breaks, s->last_k};
    for (unsigned i = 0; i < 8; i++)
        img_put64(out, v[i]);
    img_put(out, s->have_k, 1);
}

static int sink_state_check(net_backend *b, const uint8_t *img, size_t len, xerr *err)
{
    (void)b;
    if (len != SINK_IMAGE_BYTES)
        return xerr_fail(err, "%zu bytes, want %u", len, SINK_IMAGE_BYTES);
    if (img[64] > 1 || load_le(img + 56, 8) > UINT32_MAX)
        return xerr_fail(err, "the sequence state is not valid");
    return 0;
}

static void sink_state_load(net_backend *b, const uint8_t *img, size_t len)
{
    (void)len;
    sink *s = container_of(b, sink, b);
    uint64_t *v[7] = {&s->frames,      &s->bytes, &s->udp_ok,    &s->udp_bad,
                      &s->udp_skipped, &s->other, &s->seq_breaks};
    for (unsigned i = 0; i < 7; i++)
        *v[i] = load_le(img + 8 * i, 8);
    s->last_k = (uint32_t)load_le(img + 56, 8);
    s->have_k = img[64] != 0;
}

net_backend *net_sink_new(net_port *p, const char *args, xerr *err)
{
    bool verify = true;
    int port = -1;
    net_opt o;
    int r;
    while ((r = net_opt_next(&args, &o, "sink", err)) > 0) {
        uint64_t v;
        if (!strcmp(o.key, "verify") && !o.has_val)
            verify = true;
        else if (!strcmp(o.key, "noverify") && !o.has_val)
            verify = false;
        else if (!strcmp(o.key, "port") && net_parse_u64(o.val, 0, 65535, &v))
            port = (int)v;
        else
            return net_bad_option(err, "sink", &o, "verify, noverify, port=N");
    }
    if (r < 0)
        return NULL;
    sink *s = xcalloc(1, sizeof *s);
    s->b = NET_PEER(sink, p);
    s->verify = verify;
    s->port = port;
    return &s->b;
}
