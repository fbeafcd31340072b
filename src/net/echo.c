/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `echo`: a host on the wire that answers.
 *
 *   echo[:ip=A.B.C.D][,mac=MAC][,mask=N|A.B.C.D][,latency=T]
 *
 * It answers ARP requests for any address of its subnet (default
 * 10.0.2.2/24) with its own MAC, ICMP echo requests to such an address, and
 * sends UDP datagrams back with addresses and ports swapped, all with fresh
 * checksums.  Requests with a bad IP, ICMP or UDP checksum are counted and
 * not answered, as a real host would drop them.  Replies go out `latency`
 * of virtual time later (default 10 us) from a timer, never from inside the
 * NIC's send call.
 *
 * Not answered (counted as ignored): gratuitous ARP and ARP probes (sender
 * address 0 or equal to the target), the subnet's network and broadcast
 * addresses, IP fragments, IPv4 to another MAC, everything else. */
#include "core/image.h"
#include "net/backend.h"

#include <stdio.h>
#include <stdlib.h>

#define ECHO_QUEUE 1024
#define ECHO_DEFAULT_IP 0x0a000202u /* 10.0.2.2 */
#define ECHO_DEFAULT_LATENCY_NS 10000

static const uint8_t echo_default_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02};
static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

typedef struct reply {
    uint64_t due;
    size_t len;
    uint8_t *frame;
} reply;

typedef struct echo {
    net_backend b;
    uint8_t mac[6];
    uint32_t ip, mask;
    uint64_t latency_ns, latency;
    timer t;
    reply q[ECHO_QUEUE];
    unsigned head, count;
    uint64_t arp, icmp, udp, bad_csum, ignored;
} echo;

static bool answers_for(const echo *e, uint32_t a)
{
    if ((a & e->mask) != (e->ip & e->mask))
        return false;
    if (e->mask >= 0xfffffffeu) /* /31 and /32 have no network or broadcast address */
        return true;
    return (a & ~e->mask) != 0 && (a & ~e->mask) != ~e->mask;
}

static void echo_timer(void *opaque)
{
    echo *e = opaque;
    sched *clk = e->b.port->clock;
    while (e->count && e->q[e->head].due <= clk->now) {
        reply r = e->q[e->head];
        e->head = (e->head + 1) % ECHO_QUEUE;
        e->count--;
        net_port_deliver(e->b.port, r.frame, r.len);
        free(r.frame);
    }
    if (e->count)
        timer_mod(clk, &e->t, e->q[e->head].due);
}

/* A copy of the request to turn into the reply, queued with its due time. */
static uint8_t *queue_reply(echo *e, const uint8_t *f, size_t len)
{
    net_port *p = e->b.port;
    if (e->count == ECHO_QUEUE) {
        net_port_drop(p, NET_DIR_RX, len, NET_DROP_QUEUE);
        return NULL;
    }
    uint8_t *r = xmalloc(len);
    memcpy(r, f, len);
    reply *q = &e->q[(e->head + e->count++) % ECHO_QUEUE];
    q->due = p->clock->now + e->latency;
    q->len = len;
    q->frame = r;
    if (!timer_pending(&e->t))
        timer_mod(p->clock, &e->t, q->due);
    /* Ethernet: back to the sender, from us. */
    memcpy(r, f + 6, 6);
    memcpy(r + 6, e->mac, 6);
    return r;
}

static void answer_arp(echo *e, const uint8_t *f, size_t len, size_t l3)
{
    const uint8_t *a = f + l3;
    if (len < l3 + 28 || load_be(a, 2) != 1 || load_be(a + 2, 2) != ETHERTYPE_IPV4 || a[4] != 6 ||
        a[5] != 4 || load_be(a + 6, 2) != 1) {
        e->ignored++;
        return;
    }
    uint32_t sip = (uint32_t)load_be(a + 14, 4), tip = (uint32_t)load_be(a + 24, 4);
    if (sip == 0 || sip == tip || !answers_for(e, tip)) {
        e->ignored++;
        return;
    }
    uint8_t *r = queue_reply(e, f, len);
    if (!r)
        return;
    uint8_t *ra = r + l3;
    store_be(ra + 6, 2, 2);    /* reply */
    memcpy(ra + 18, a + 8, 6); /* target = the asker */
    store_be(ra + 24, 4, sip);
    memcpy(ra + 8, e->mac, 6); /* sender = us, as the asked address */
    store_be(ra + 14, 4, tip);
    e->arp++;
}

/* Queue a copy of the IPv4 frame f as the reply, its IP addresses swapped,
 * a fresh TTL and header checksum; NULL when the queue is full. */
static uint8_t *ip_reply(echo *e, const uint8_t *f, size_t len, const net_ipv4 *ip)
{
    uint8_t *r = queue_reply(e, f, len);
    if (!r)
        return NULL;
    uint8_t *h = r + ip->l3;
    store_be(h + 12, 4, ip->dst);
    store_be(h + 16, 4, ip->src);
    h[8] = 64;
    store_be(h + 10, 2, 0);
    store_be(h + 10, 2, net_csum_fold(net_csum_add(0, h, ip->ihl)));
    return r;
}

static void answer_ip(echo *e, const uint8_t *f, size_t len)
{
    net_ipv4 ip;
    if (memcmp(f, e->mac, 6) != 0 || !net_parse_ipv4_frame(f, len, &ip) || ip.fragment ||
        ip.src == ip.dst || !answers_for(e, ip.dst)) {
        e->ignored++;
        return;
    }
    if (!ip.csum_ok) {
        e->bad_csum++;
        return;
    }
    size_t l4 = ip.l3 + ip.ihl, l4len = ip.ip_len - ip.ihl;
    if (ip.proto == 1) {
        const uint8_t *ic = f + l4;
        if (l4len < 8 || ic[0] != 8 || ic[1] != 0) {
            e->ignored++;
            return;
        }
        if (net_csum_fold(net_csum_add(0, ic, l4len)) != 0) {
            e->bad_csum++;
            return;
        }
        uint8_t *r = ip_reply(e, f, len, &ip);
        if (!r)
            return;
        uint8_t *ric = r + l4;
        ric[0] = 0; /* echo reply */
        store_be(ric + 2, 2, 0);
        store_be(ric + 2, 2, net_csum_fold(net_csum_add(0, ric, l4len)));
        e->icmp++;
    } else if (ip.proto == 17) {
        net_udp u;
        if (!net_parse_udp_frame(f, len, &ip, &u)) {
            e->ignored++;
            return;
        }
        if (!u.csum_ok) {
            e->bad_csum++;
            return;
        }
        uint8_t *r = ip_reply(e, f, len, &ip);
        if (!r)
            return;
        uint8_t *ru = r + u.off;
        size_t ulen = u.data_len + 8;
        store_be(ru, 2, u.dport);
        store_be(ru + 2, 2, u.sport);
        store_be(ru + 6, 2, 0);
        uint16_t c = net_csum_fold(
            net_csum_add(net_csum_pseudo4(ip.dst, ip.src, 17, (uint16_t)ulen), ru, ulen));
        store_be(ru + 6, 2, c ? c : 0xffff);
        e->udp++;
    } else {
        e->ignored++;
    }
}

static void echo_send(net_backend *b, const uint8_t *f, size_t len)
{
    echo *e = container_of(b, echo, b);
    uint16_t type;
    size_t l3 = net_eth_l3(f, len, &type);
    if (l3 && type == ETHERTYPE_ARP && (!memcmp(f, bcast, 6) || !memcmp(f, e->mac, 6)))
        answer_arp(e, f, len, l3);
    else if (l3 && type == ETHERTYPE_IPV4)
        answer_ip(e, f, len);
    else
        e->ignored++;
}

static void echo_close(net_backend *b)
{
    echo *e = container_of(b, echo, b);
    timer_del(b->port->clock, &e->t);
    for (unsigned i = 0; i < e->count; i++)
        free(e->q[(e->head + i) % ECHO_QUEUE].frame);
    free(e);
}

static void echo_show(net_backend *b, strbuf *out)
{
    echo *e = container_of(b, echo, b);
    char m[18], a[16];
    net_fmt_mac(m, e->mac);
    net_fmt_ipv4(a, e->ip);
    int prefix = __builtin_popcount(e->mask);
    sb_printf(out, "  echo      %s/%d at %s, latency %llu ns\n", a, prefix, m,
              (unsigned long long)e->latency_ns);
    sb_printf(out,
              "  answered  %llu ARP, %llu ICMP echo, %llu UDP; %llu bad checksums, %llu ignored; "
              "%u queued\n",
              (unsigned long long)e->arp, (unsigned long long)e->icmp, (unsigned long long)e->udp,
              (unsigned long long)e->bad_csum, (unsigned long long)e->ignored, e->count);
}

/* Snapshots: the counters, the timer, then the queued replies {u64 due,
 * u32-prefixed frame}. */
static void echo_state_save(net_backend *b, strbuf *out)
{
    echo *e = container_of(b, echo, b);
    const uint64_t v[5] = {e->arp, e->icmp, e->udp, e->bad_csum, e->ignored};
    for (unsigned i = 0; i < 5; i++)
        img_put64(out, v[i]);
    img_put_timer(out, &e->t);
    img_put(out, e->count, 4);
    for (unsigned i = 0; i < e->count; i++) {
        const reply *r = &e->q[(e->head + i) % ECHO_QUEUE];
        img_put64(out, r->due);
        img_put_bytes(out, r->frame, r->len);
    }
}

static int echo_state_check(net_backend *b, const uint8_t *img, size_t len, xerr *err)
{
    (void)b;
    img_reader r;
    img_reader_init(&r, img, len);
    for (unsigned i = 0; i < 5; i++)
        img_get64(&r);
    img_timer t;
    if (img_get_timer(&r, &t))
        return xerr_fail(err, "the timer's pending flag is not a flag");
    uint64_t n = img_get(&r, 4);
    if (n > ECHO_QUEUE)
        return xerr_fail(err, "%llu replies queued, at most %u", (unsigned long long)n, ECHO_QUEUE);
    for (uint64_t i = 0; i < n && !r.short_read; i++) {
        img_get64(&r);
        size_t fl;
        img_get_bytes(&r, &fl);
        if (fl > NET_MAX_FRAME)
            return xerr_fail(err, "a queued reply has %zu bytes", fl);
    }
    if (r.short_read)
        return xerr_fail(err, "the image is truncated");
    if (img_left(&r))
        return xerr_fail(err, "%zu bytes after the image", img_left(&r));
    return 0;
}

static void echo_state_load(net_backend *b, const uint8_t *img, size_t len)
{
    echo *e = container_of(b, echo, b);
    img_reader r;
    img_reader_init(&r, img, len);
    uint64_t *v[5] = {&e->arp, &e->icmp, &e->udp, &e->bad_csum, &e->ignored};
    for (unsigned i = 0; i < 5; i++)
        *v[i] = img_get64(&r);
    img_timer t;
    img_get_timer(&r, &t);
    for (unsigned i = 0; i < e->count; i++)
        free(e->q[(e->head + i) % ECHO_QUEUE].frame);
    e->head = 0;
    e->count = (unsigned)img_get(&r, 4);
    for (unsigned i = 0; i < e->count; i++) {
        e->q[i].due = img_get64(&r);
        const uint8_t *f = img_get_bytes(&r, &e->q[i].len);
        e->q[i].frame = xmalloc(e->q[i].len ? e->q[i].len : 1);
        memcpy(e->q[i].frame, f, e->q[i].len);
    }
    img_timer_apply(b->port->clock, &e->t, &t);
}

net_backend *net_echo_new(net_port *p, const char *args, xerr *err)
{
    echo *e = xcalloc(1, sizeof *e);
    memcpy(e->mac, echo_default_mac, 6);
    e->ip = ECHO_DEFAULT_IP;
    e->mask = 0xffffff00u;
    e->latency_ns = ECHO_DEFAULT_LATENCY_NS;
    net_opt o;
    int r;
    while ((r = net_opt_next(&args, &o, "echo", err)) > 0) {
        uint64_t v;
        if (!strcmp(o.key, "ip") && net_parse_ipv4(o.val, &e->ip))
            continue;
        if (!strcmp(o.key, "mac") && net_parse_mac(o.val, e->mac) && !(e->mac[0] & 1))
            continue;
        if (!strcmp(o.key, "mask") && net_parse_u64(o.val, 0, 32, &v)) {
            e->mask = v ? (uint32_t)(0xffffffffu << (32 - v)) : 0;
            continue;
        }
        uint32_t m;
        if (!strcmp(o.key, "mask") && net_parse_ipv4(o.val, &m) && (~m & (~m + 1)) == 0) {
            e->mask = m;
            continue;
        }
        if (!strcmp(o.key, "latency") && net_parse_time_ns(o.val, &v)) {
            e->latency_ns = v;
            continue;
        }
        free(e);
        return net_bad_option(err, "echo", &o, "ip=A.B.C.D, mac=unicast MAC, mask=N, latency=TIME");
    }
    if (r < 0) {
        free(e);
        return NULL;
    }
    e->latency = sched_ns_to_ticks(p->clock, e->latency_ns);
    e->b = NET_PEER(echo, p);
    timer_init(&e->t, "net-echo", echo_timer, e);
    return &e->b;
}
