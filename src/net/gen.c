/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `gen`: a traffic generator on the virtual clock.
 *
 *   gen[:size=N][,rate=PPS][,count=N][,dst=MAC][,src=MAC][,ip=A][,dip=A]
 *      [,sport=N][,dport=N][,proto=udp][,start=TIME|tx]
 *
 * Frame k (k = 0, 1, ...) is an IPv4/UDP frame of `size` bytes (60..9018,
 * no FCS) whose UDP payload is the verifiable pattern for message k; it is
 * handed to the NIC at base + (k+1)/rate virtual seconds, exactly, so the
 * long-run rate has no drift.  base is the open time plus `start`, or with
 * start=tx the moment the NIC sends its first frame (a guest can say "ready").
 * count=0 (the default) never stops.  The destination MAC is dst=, else the
 * NIC's address when the port knows it, else broadcast.  Frames the NIC
 * refuses are counted as dropped by the port and here. */
#include "core/image.h"
#include "net/backend.h"

#include <stdlib.h>

#define GEN_MIN_SIZE 60
#define GEN_MAX_SIZE 9018
#define GEN_PAYLOAD 42 /* Ethernet + IPv4 + UDP headers */

static const uint8_t gen_default_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x01};

typedef struct gen {
    net_backend b;
    uint64_t size, rate, count, start_ns;
    bool start_on_tx, started, have_dst;
    net_udp_spec spec;
    uint64_t base, k;
    uint64_t accepted, refused, nic_frames;
    timer t;
    uint8_t *frame;
} gen;

static uint64_t due(const gen *g, uint64_t k)
{
    return g->base + (uint64_t)((unsigned __int128)(k + 1) * g->b.port->clock->hz / g->rate);
}

static bool more(const gen *g) { return g->count == 0 || g->k < g->count; }

static void gen_timer(void *opaque)
{
    gen *g = opaque;
    net_port *p = g->b.port;
    static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    while (more(g) && due(g, g->k) <= p->clock->now) {
        if (!g->have_dst)
            memcpy(g->spec.dst_mac, p->mac_known ? p->mac : bcast, 6);
        uint32_t k = (uint32_t)g->k++;
        net_build_udp(g->frame, g->size, &g->spec, k);
        if (net_port_deliver(p, g->frame, g->size)) {
            g->accepted++;
            p->stats.payload_sum += net_payload_hash(k, g->size - GEN_PAYLOAD);
        } else {
            g->refused++;
        }
    }
    if (more(g))
        timer_mod(p->clock, &g->t, due(g, g->k));
}

static void gen_start(gen *g, uint64_t base)
{
    g->base = base;
    g->started = true;
    timer_mod(g->b.port->clock, &g->t, due(g, 0));
}

static void gen_send(net_backend *b, const uint8_t *f, size_t len)
{
    gen *g = container_of(b, gen, b);
    g->nic_frames++;
    if (g->start_on_tx && !g->started)
        gen_start(g, b->port->clock->now);
}

static void gen_close(net_backend *b)
{
    gen *g = container_of(b, gen, b);
    timer_del(b->port->clock, &g->t);
    free(g->frame);
    free(g);
}

static void gen_show(net_backend *b, strbuf *out)
{
    gen *g = container_of(b, gen, b);
    char m[18];
    net_fmt_mac(m, g->spec.dst_mac);
    sb_printf(out, "  gen       %llu-byte UDP frames at %llu/s, ", (unsigned long long)g->size,
              (unsigned long long)g->rate);
    if (g->count)
        sb_printf(out, "%llu of %llu sent", (unsigned long long)g->k, (unsigned long long)g->count);
    else
        sb_printf(out, "%llu sent (no limit)", (unsigned long long)g->k);
    sb_printf(out, "; %llu accepted, %llu refused by the NIC\n", (unsigned long long)g->accepted,
              (unsigned long long)g->refused);
    if (!g->started)
        sb_printf(out, "  waiting   for the NIC's first frame (start=tx)\n");
    else if (more(g))
        sb_printf(out, "  next      frame %llu at tick %llu, to %s\n", (unsigned long long)g->k,
                  (unsigned long long)due(g, g->k),
                  g->have_dst          ? m
                  : b->port->mac_known ? "the NIC's address"
                                       : "broadcast");
    sb_printf(out, "  from nic  %llu frames (ignored)\n", (unsigned long long)g->nic_frames);
}

static bool gen_option(gen *g, const net_opt *o)
{
    uint64_t v;
    const char *k = o->key;
    if (!o->has_val)
        return false;
    if (!strcmp(k, "size"))
        return net_parse_u64(o->val, GEN_MIN_SIZE, GEN_MAX_SIZE, &g->size);
    if (!strcmp(k, "rate"))
        return net_parse_u64(o->val, 1, 1000000000ull, &g->rate);
    if (!strcmp(k, "count"))
        return net_parse_u64(o->val, 0, UINT32_MAX + 1ull, &g->count);
    if (!strcmp(k, "dst"))
        return (g->have_dst = net_parse_mac(o->val, g->spec.dst_mac));
    if (!strcmp(k, "src"))
        return net_parse_mac(o->val, g->spec.src_mac) && !(g->spec.src_mac[0] & 1);
    if (!strcmp(k, "ip"))
        return net_parse_ipv4(o->val, &g->spec.src_ip);
    if (!strcmp(k, "dip"))
        return net_parse_ipv4(o->val, &g->spec.dst_ip);
    if (!strcmp(k, "sport") && net_parse_u64(o->val, 0, 65535, &v))
        return (g->spec.sport = (uint16_t)v), true;
    if (!strcmp(k, "dport") && net_parse_u64(o->val, 0, 65535, &v))
        return (g->spec.dport = (uint16_t)v), true;
    if (!strcmp(k, "proto"))
        return !strcmp(o->val, "udp");
    if (!strcmp(k, "start")) {
        if (!strcmp(o->val, "tx"))
            return (g->start_on_tx = true);
        g->start_on_tx = false;
        return net_parse_time_ns(o->val, &g->start_ns);
    }
    return false;
}

/* Snapshots: u8 started, u64 base, k, accepted, refused, nic_frames, the
 * timer, 6 bytes of the destination used last. */
#define GEN_IMAGE_BYTES (1 + 5 * 8 + 17 + 6)

static void gen_state_save(net_backend *b, strbuf *out)
{
    gen *g = container_of(b, gen, b);
    img_put(out, g->started, 1);
    const uint64_t v[5] = {g->base, g->k, g->accepted, g->refused, g->nic_frames};
    for (unsigned i = 0; i < 5; i++)
        img_put64(out, v[i]);
    img_put_timer(out, &g->t);
    sb_append(out, g->spec.dst_mac, 6);
}

static int gen_state_check(net_backend *b, const uint8_t *img, size_t len, xerr *err)
{
    (void)b;
    if (len != GEN_IMAGE_BYTES)
        return xerr_fail(err, "%zu bytes, want %u", len, GEN_IMAGE_BYTES);
    if (img[0] > 1 || img[41] > 1)
        return xerr_fail(err, "a flag is not 0 or 1");
    return 0;
}

static void gen_state_load(net_backend *b, const uint8_t *img, size_t len)
{
    gen *g = container_of(b, gen, b);
    img_reader r;
    img_reader_init(&r, img, len);
    g->started = img_get(&r, 1) != 0;
    uint64_t *v[5] = {&g->base, &g->k, &g->accepted, &g->refused, &g->nic_frames};
    for (unsigned i = 0; i < 5; i++)
        *v[i] = img_get64(&r);
    img_timer t;
    img_get_timer(&r, &t);
    for (unsigned i = 0; i < 6; i++)
        g->spec.dst_mac[i] = (uint8_t)img_get(&r, 1);
    img_timer_apply(b->port->clock, &g->t, &t);
}

net_backend *net_gen_new(net_port *p, const char *args, xerr *err)
{
    gen *g = xcalloc(1, sizeof *g);
    g->size = GEN_MIN_SIZE;
    g->rate = 1000;
    memcpy(g->spec.src_mac, gen_default_mac, 6);
    g->spec.src_ip = 0x0a000202u; /* 10.0.2.2 */
    g->spec.dst_ip = 0x0a00020fu; /* 10.0.2.15 */
    g->spec.sport = g->spec.dport = 9;
    net_opt o;
    int r;
    while ((r = net_opt_next(&args, &o, "gen", err)) > 0) {
        if (!gen_option(g, &o)) {
            free(g);
            return net_bad_option(err, "gen", &o,
                                  "size=60..9018, rate=1.., count=N, dst=MAC, src=MAC, ip=A, "
                                  "dip=A, sport=N, dport=N, proto=udp, start=TIME|tx");
        }
    }
    if (r < 0) {
        free(g);
        return NULL;
    }
    g->frame = xmalloc(g->size);
    g->b = NET_PEER(gen, p);
    timer_init(&g->t, "net-gen", gen_timer, g);
    if (!g->start_on_tx && more(g))
        gen_start(g, p->clock->now + sched_ns_to_ticks(p->clock, g->start_ns));
    return &g->b;
}
