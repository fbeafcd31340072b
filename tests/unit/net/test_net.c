/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/net: the port, the built-in peers (sink, echo, gen),
 * events, drops and the pcap writer (checked by our own parser and by the
 * real tshark). */
#include <check.h>
#include <stdio.h>
#include <sys/stat.h>

#include "core/event.h"
#include "core/log.h"
#include "net/backend.h"
#include "net_testlib.h"
#include "../check_run.h"

static const uint8_t nic_mac[6] = {0x08, 0x00, 0x69, 0x12, 0x34, 0x56};
static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t echo_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02};

typedef struct rig {
    sched clk;
    event_bus eb;
    fake_nic nic;
    net_port *p;
    xerr err;
} rig;

static void rig_open(rig *r, const char *spec, const char *pcap)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->clk, 0);
    event_bus_init(&r->eb, &r->clk.now);
    r->nic.clock = &r->clk;
    r->p = net_port_open("nic0", spec, pcap, &r->clk, &r->eb, &r->err);
    ck_assert_msg(r->p != NULL, "open %s: %s", spec, r->err.msg);
    net_port_attach(r->p, fake_rx, &r->nic);
}

static void rig_close(rig *r)
{
    net_port_close(r->p);
    fake_free(&r->nic);
    event_bus_free(&r->eb);
}

/* Advance virtual time as the machine's run loop does: timer by timer, each
 * fired at its own tick. */
static void advance_ticks(rig *r, uint64_t ticks)
{
    uint64_t end = r->clk.now + ticks;
    while (sched_next(&r->clk) <= end) {
        r->clk.now = sched_next(&r->clk);
        sched_run_due(&r->clk);
    }
    r->clk.now = end;
}

/* 180 MHz: 1 ns is 0.18 ticks; callers use multiples of 50 ns. */
static void advance_ns(rig *r, uint64_t ns)
{
    ck_assert_uint_eq(ns % 50, 0);
    advance_ticks(r, ns * 180 / 1000);
}

/* What net_port_show prints for p has both strings. */
static void port_shows(net_port *p, const char *a, const char *b)
{
    strbuf sb;
    sb_init(&sb);
    net_port_show(p, &sb);
    ck_assert_msg(strstr(sb.s, a) && strstr(sb.s, b), "want \"%s\" and \"%s\" in:\n%s", a, b, sb.s);
    sb_free(&sb);
}

/* ---- sink ------------------------------------------------------------------ */

START_TEST(sink_verifies_payloads)
{
    rig r;
    rig_open(&r, "sink", NULL);
    uint8_t f[2048];
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 20; k++) {
        size_t plen = 4 + k * 37;
        size_t len = t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 1000, 9,
                                 k, plen);
        net_port_send(r.p, f, len);
        sum += t_sum_term(k, plen);
    }
    ck_assert_uint_eq(r.p->stats.bad_payload, 0);
    ck_assert_uint_eq(r.p->stats.payload_sum, sum);
    ck_assert_uint_eq(r.p->stats.tx_frames, 20);
    /* One corrupted byte, then a payload too short to hold k. */
    size_t len =
        t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 1000, 9, 20, 300);
    f[42 + 150] ^= 0x40;
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 1);
    /* The first and the last pattern bytes are checked too. */
    for (int pos = 0; pos < 2; pos++) {
        len = t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 1000, 9, 20,
                          300);
        f[42 + (pos ? 299 : 4)] ^= 1;
        net_port_send(r.p, f, len);
    }
    ck_assert_uint_eq(r.p->stats.bad_payload, 3);
    len = t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 1000, 9, 0, 3);
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 4);
    ck_assert_uint_eq(r.p->stats.payload_sum, sum); /* bad ones are not summed */
    /* Non-UDP frames are counted, not verified. */
    memset(f, 0xee, 60);
    t_put16(f + 12, 0x0806);
    net_port_send(r.p, f, 60);
    ck_assert_uint_eq(r.p->stats.bad_payload, 4);
    ck_assert_uint_eq(r.p->stats.tx_frames, 25);
    port_shows(r.p, "20 good, 4 bad payloads", "1 not UDP");
    ck_assert_uint_eq(r.nic.calls, 0); /* a sink never answers */
    rig_close(&r);
}
END_TEST

START_TEST(sink_options)
{
    rig r;
    uint8_t f[256];
    size_t len =
        t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 1000, 53, 5, 100);
    f[100] ^= 1; /* corrupt */
    rig_open(&r, "sink:noverify", NULL);
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 0);
    rig_close(&r);
    rig_open(&r, "sink:port=9", NULL); /* only port 9 is verified: 53 is not */
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 0);
    t_put16(f + 36, 9);
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 1);
    rig_close(&r);
    rig_open(&r, "sink:verify", NULL);
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.p->stats.bad_payload, 1);
    rig_close(&r);
}
END_TEST

/* ---- echo ------------------------------------------------------------------ */

static size_t arp_request(uint8_t *f, const uint8_t *dst, uint32_t sip, uint32_t tip)
{
    memset(f, 0, 60);
    memcpy(f, dst, 6);
    memcpy(f + 6, nic_mac, 6);
    t_put16(f + 12, 0x0806);
    uint8_t *a = f + 14;
    t_put16(a, 1);
    t_put16(a + 2, 0x0800);
    a[4] = 6;
    a[5] = 4;
    t_put16(a + 6, 1);
    memcpy(a + 8, nic_mac, 6);
    t_put32(a + 14, sip);
    t_put32(a + 24, tip);
    return 60;
}

START_TEST(echo_answers_arp)
{
    rig r;
    rig_open(&r, "echo:latency=5us", NULL);
    uint8_t f[64];
    net_port_send(r.p, f, arp_request(f, bcast, IP4(10, 0, 2, 15), IP4(10, 0, 2, 1)));
    ck_assert_uint_eq(r.nic.calls, 0); /* never from inside the NIC's send */
    advance_ticks(&r, 899);            /* 5 us = 900 ticks */
    ck_assert_uint_eq(r.nic.calls, 0);
    advance_ticks(&r, 1);
    ck_assert_uint_eq(r.nic.accepted, 1);
    const uint8_t *x = r.nic.frame[0];
    ck_assert_uint_eq(r.nic.len[0], 60);
    ck_assert_mem_eq(x, nic_mac, 6);
    ck_assert_mem_eq(x + 6, echo_mac, 6);
    ck_assert_uint_eq(t_get16(x + 12), 0x0806);
    ck_assert_uint_eq(t_get16(x + 14), 1);
    ck_assert_uint_eq(t_get16(x + 16), 0x0800);
    ck_assert_uint_eq(x[18], 6);
    ck_assert_uint_eq(x[19], 4);
    ck_assert_uint_eq(t_get16(x + 20), 2);                /* reply */
    ck_assert_mem_eq(x + 22, echo_mac, 6);                /* sender MAC */
    ck_assert_uint_eq(t_get32(x + 28), IP4(10, 0, 2, 1)); /* sender IP: the asked one */
    ck_assert_mem_eq(x + 32, nic_mac, 6);
    ck_assert_uint_eq(t_get32(x + 38), IP4(10, 0, 2, 15));

    /* Not answered: another subnet, gratuitous, probe, broadcast address,
     * unicast ARP to another MAC. */
    static const uint8_t other[6] = {2, 0, 0, 0, 0, 9};
    net_port_send(r.p, f, arp_request(f, bcast, IP4(10, 0, 2, 15), IP4(10, 0, 3, 1)));
    net_port_send(r.p, f, arp_request(f, bcast, IP4(10, 0, 2, 15), IP4(10, 0, 2, 15)));
    net_port_send(r.p, f, arp_request(f, bcast, 0, IP4(10, 0, 2, 7)));
    net_port_send(r.p, f, arp_request(f, bcast, IP4(10, 0, 2, 15), IP4(10, 0, 2, 255)));
    net_port_send(r.p, f, arp_request(f, other, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2)));
    /* Unicast refresh to echo's MAC is answered. */
    net_port_send(r.p, f, arp_request(f, echo_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2)));
    advance_ns(&r, 1000000);
    ck_assert_uint_eq(r.nic.accepted, 2);
    ck_assert_uint_eq(t_get32(r.nic.frame[1] + 28), IP4(10, 0, 2, 2));
    rig_close(&r);
}
END_TEST

static size_t icmp_request(uint8_t *f, uint32_t dip, unsigned id, unsigned seq, size_t dlen)
{
    memset(f, 0, 60);
    t_ip_header(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), dip, 1, (unsigned)(20 + 8 + dlen));
    uint8_t *ic = f + 34;
    ic[0] = 8;
    ic[1] = 0;
    t_put16(ic + 2, 0);
    t_put16(ic + 4, id);
    t_put16(ic + 6, seq);
    for (size_t i = 0; i < dlen; i++)
        ic[8 + i] = (uint8_t)(i * 3 + 1);
    t_put16(ic + 2, t_csum(ic, 8 + dlen));
    size_t len = 42 + dlen;
    return len < 60 ? 60 : len;
}

START_TEST(echo_answers_icmp)
{
    rig r;
    rig_open(&r, "echo", NULL);
    uint8_t f[1600], req[1600];
    size_t len = icmp_request(f, IP4(10, 0, 2, 2), 0x4242, 7, 57); /* odd length */
    memcpy(req, f, len);
    net_port_send(r.p, f, len);
    ck_assert_uint_eq(r.nic.calls, 0);
    advance_ns(&r, 10000); /* the default latency is 10 us */
    ck_assert_uint_eq(r.nic.accepted, 1);
    const uint8_t *x = r.nic.frame[0];
    ck_assert_uint_eq(r.nic.len[0], len);
    ck_assert_mem_eq(x, nic_mac, 6);
    ck_assert_mem_eq(x + 6, echo_mac, 6);
    const uint8_t *ip = x + 14;
    ck_assert_uint_eq(t_csum(ip, 20), 0);
    ck_assert_uint_eq(t_get32(ip + 12), IP4(10, 0, 2, 2));
    ck_assert_uint_eq(t_get32(ip + 16), IP4(10, 0, 2, 15));
    ck_assert_uint_eq(ip[8], 64);
    ck_assert_uint_eq(ip[9], 1);
    ck_assert_mem_eq(ip, req + 14, 8); /* version, TOS, length, id, flags */
    ck_assert_uint_eq(t_get16(ip + 2), 20 + 8 + 57);
    const uint8_t *ic = ip + 20;
    ck_assert_uint_eq(ic[0], 0);
    ck_assert_uint_eq(ic[1], 0);
    ck_assert_uint_eq(t_csum(ic, 8 + 57), 0);
    ck_assert_mem_eq(ic + 4, req + 38, 4 + 57); /* id, seq and data unchanged */

    /* Any address of the subnet is answered; checksum errors are not. */
    net_port_send(r.p, f, icmp_request(f, IP4(10, 0, 2, 99), 1, 1, 8));
    len = icmp_request(f, IP4(10, 0, 2, 2), 1, 2, 8);
    f[34 + 9] ^= 1; /* ICMP data: checksum now wrong */
    net_port_send(r.p, f, len);
    len = icmp_request(f, IP4(10, 0, 2, 2), 1, 3, 8);
    f[14 + 8] ^= 1; /* TTL: IP header checksum now wrong */
    net_port_send(r.p, f, len);
    advance_ns(&r, 1000000);
    ck_assert_uint_eq(r.nic.accepted, 2);
    ck_assert_uint_eq(t_get32(r.nic.frame[1] + 26), IP4(10, 0, 2, 99));
    port_shows(r.p, "2 ICMP echo", "2 bad checksums");
    rig_close(&r);
}
END_TEST

START_TEST(echo_answers_udp)
{
    rig r;
    rig_open(&r, "echo:ip=192.168.7.1,mask=16,mac=02:00:00:00:00:aa,latency=1ms", NULL);
    static const uint8_t emac[6] = {2, 0, 0, 0, 0, 0xaa};
    uint8_t f[2048], req[2048];
    size_t len = t_udp_frame(f, emac, nic_mac, IP4(192, 168, 3, 4), IP4(192, 168, 200, 1), 40000, 7,
                             3, 1001);
    memcpy(req, f, len);
    net_port_send(r.p, f, len);
    advance_ticks(&r, 179999);
    ck_assert_uint_eq(r.nic.calls, 0);
    advance_ticks(&r, 1);
    ck_assert_uint_eq(r.nic.accepted, 1);
    const uint8_t *x = r.nic.frame[0];
    ck_assert_uint_eq(r.nic.len[0], len);
    ck_assert_mem_eq(x, nic_mac, 6);
    ck_assert_mem_eq(x + 6, emac, 6);
    ck_assert_uint_eq(t_csum(x + 14, 20), 0);
    ck_assert_mem_eq(x + 14, req + 14, 8);
    ck_assert_uint_eq(x[22], 64);
    ck_assert_uint_eq(x[23], 17);
    ck_assert_uint_eq(t_get32(x + 26), IP4(192, 168, 200, 1));
    ck_assert_uint_eq(t_get32(x + 30), IP4(192, 168, 3, 4));
    ck_assert_uint_eq(t_get16(x + 34), 7);
    ck_assert_uint_eq(t_get16(x + 36), 40000);
    ck_assert_uint_eq(t_get16(x + 38), 8 + 1001);
    ck_assert_uint_ne(t_get16(x + 40), 0);
    ck_assert(t_udp_csum_ok(x + 14));
    ck_assert_mem_eq(x + 42, req + 42, 1001);
    /* A corrupted datagram is not echoed; one with no checksum is. */
    f[42 + 500] ^= 0xff;
    net_port_send(r.p, f, len);
    memcpy(f, req, len);
    t_put16(f + 40, 0);
    net_port_send(r.p, f, len);
    /* Outside 192.168/16: not for echo. */
    len = t_udp_frame(f, emac, nic_mac, IP4(192, 168, 3, 4), IP4(192, 169, 0, 1), 1, 2, 0, 10);
    net_port_send(r.p, f, len);
    advance_ns(&r, 2000000);
    ck_assert_uint_eq(r.nic.accepted, 2);
    ck_assert(t_udp_csum_ok(r.nic.frame[1] + 14));
    ck_assert_uint_ne(t_get16(r.nic.frame[1] + 40), 0);
    rig_close(&r);
}
END_TEST

/* ---- gen -------------------------------------------------------------------- */

static void check_gen_frame(const uint8_t *x, size_t len, size_t size, uint32_t k,
                            const uint8_t *dst)
{
    ck_assert_uint_eq(len, size);
    ck_assert_mem_eq(x, dst, 6);
    ck_assert_uint_eq(t_get16(x + 12), 0x0800);
    ck_assert_uint_eq(t_csum(x + 14, 20), 0);
    ck_assert_uint_eq(t_get16(x + 16), size - 14);
    ck_assert_uint_eq(x[23], 17);
    ck_assert_uint_eq(t_get16(x + 38), size - 34);
    ck_assert(t_udp_csum_ok(x + 14));
    ck_assert_uint_eq(t_get32(x + 42), k);
    for (size_t i = 4; i < size - 42; i++)
        ck_assert_uint_eq(x[42 + i], net_payload_byte(k, (uint32_t)i));
}

START_TEST(gen_rate_and_count)
{
    rig r;
    rig_open(&r, "gen:size=100,rate=1000,count=10", NULL);
    ck_assert_uint_eq(r.nic.calls, 0);
    advance_ns(&r, 5000000); /* 5 ms: frames due at 1..5 ms */
    ck_assert_uint_eq(r.nic.accepted, 5);
    for (unsigned k = 0; k < 5; k++) {
        check_gen_frame(r.nic.frame[k], r.nic.len[k], 100, k, bcast);
        ck_assert_uint_eq(r.nic.when[k], (k + 1) * 180000ull);
    }
    /* Now the port knows the NIC's address: gen sends there. */
    net_port_set_mac(r.p, nic_mac);
    advance_ns(&r, 1000000000);
    ck_assert_uint_eq(r.nic.accepted, 10);
    check_gen_frame(r.nic.frame[9], r.nic.len[9], 100, 9, nic_mac);
    ck_assert_uint_eq(r.p->stats.rx_frames, 10);
    ck_assert_uint_eq(r.p->stats.rx_bytes, 1000);
    ck_assert(sched_next(&r.clk) == UINT64_MAX); /* done: nothing armed */
    uint32_t sum = 0;
    for (unsigned k = 0; k < 10; k++)
        sum += t_sum_term(k, 58);
    ck_assert_uint_eq(r.p->stats.payload_sum, sum);
    rig_close(&r);
}
END_TEST

START_TEST(gen_exact_rate_and_sizes)
{
    rig r;
    /* 7 frames per virtual second does not divide 180 MHz: still exactly
     * 70 in 10 s, frame k at floor((k+1) * hz / 7), no drift. */
    rig_open(&r, "gen:rate=7,count=0,size=9018", NULL);
    for (int i = 0; i < 100; i++)
        advance_ns(&r, 100000000);
    ck_assert_uint_eq(r.nic.accepted, 70);
    for (unsigned k = 0; k < FAKE_KEEP; k++)
        ck_assert_uint_eq(r.nic.when[k], (uint64_t)(k + 1) * 180000000ull / 7);
    check_gen_frame(r.nic.frame[63], r.nic.len[63], 9018, 63, bcast);
    ck_assert(sched_next(&r.clk) != UINT64_MAX); /* count=0 goes on */
    rig_close(&r);
    rig_open(&r, "gen:rate=1000000,count=1000,size=60", NULL);
    advance_ticks(&r, 179999);
    ck_assert_uint_eq(r.nic.accepted, 999);
    advance_ticks(&r, 1);
    ck_assert_uint_eq(r.nic.accepted, 1000);
    check_gen_frame(r.nic.frame[5], r.nic.len[5], 60, 5, bcast);
    rig_close(&r);
}
END_TEST

START_TEST(gen_starts)
{
    rig r;
    rig_open(&r, "gen:rate=100,count=3,start=50ms,dst=02:11:22:33:44:55", NULL);
    advance_ticks(&r, 10799999); /* 50 ms start + 10 ms period */
    ck_assert_uint_eq(r.nic.accepted, 0);
    advance_ticks(&r, 1);
    ck_assert_uint_eq(r.nic.accepted, 1);
    static const uint8_t d[6] = {2, 0x11, 0x22, 0x33, 0x44, 0x55};
    check_gen_frame(r.nic.frame[0], r.nic.len[0], 60, 0, d);
    rig_close(&r);

    rig_open(&r, "gen:rate=100,count=3,start=tx", NULL);
    advance_ns(&r, 1000000000);
    ck_assert_uint_eq(r.nic.accepted, 0);
    uint8_t f[60] = {0};
    memcpy(f + 6, nic_mac, 6);
    net_port_send(r.p, f, 60); /* the guest says "ready"; gen learns its MAC */
    ck_assert_uint_eq(r.nic.calls, 0);
    advance_ns(&r, 30000000);
    ck_assert_uint_eq(r.nic.accepted, 3);
    ck_assert_uint_eq(r.nic.when[0], r.nic.when[1] - 1800000);
    check_gen_frame(r.nic.frame[2], r.nic.len[2], 60, 2, nic_mac);
    rig_close(&r);
}
END_TEST

/* ---- drops and events ------------------------------------------------------- */

typedef struct ev_log {
    unsigned n;
    uint64_t vals[64][4];
    char names[64][64];
} ev_log;

static void ev_record(void *ctx, const event *ev)
{
    ev_log *l = ctx;
    if (l->n >= 64)
        return;
    snprintf(l->names[l->n], sizeof l->names[0], "%s", ev->src->name);
    for (unsigned i = 0; i < ev->nvals && i < 4; i++)
        l->vals[l->n][i] = ev->vals[i];
    l->n++;
}

START_TEST(drops_are_counted_and_published)
{
    rig r;
    rig_open(&r, "gen:rate=1000,count=9,size=128", NULL);
    ev_log drops = {0}, rx = {0};
    ck_assert_int_gt(event_subscribe(event_find(&r.eb, "nic0.net.drop"), ev_record, &drops), 0);
    ck_assert_int_gt(event_subscribe(event_find(&r.eb, "nic0.net.rx"), ev_record, &rx), 0);
    r.nic.refuse_every = 3;
    advance_ns(&r, 10000000);
    ck_assert_uint_eq(r.nic.accepted, 6);
    ck_assert_uint_eq(r.nic.refused, 3);
    ck_assert_uint_eq(r.p->stats.rx_frames, 6);
    ck_assert_uint_eq(r.p->stats.rx_dropped, 3);
    ck_assert_uint_eq(drops.n, 3);
    ck_assert_uint_eq(drops.vals[0][0], NET_DIR_RX);
    ck_assert_uint_eq(drops.vals[0][1], 128);
    ck_assert_uint_eq(drops.vals[0][2], NET_DROP_REFUSED);
    ck_assert_uint_eq(rx.n, 9); /* every frame offered to the NIC */
    ck_assert_uint_eq(rx.vals[0][0], 128);
    ck_assert_uint_eq(rx.vals[0][1], 0xffffffffffffull);
    ck_assert_uint_eq(rx.vals[0][2], 0x0278626f7701ull);
    ck_assert_uint_eq(rx.vals[0][3], 0x0800);
    port_shows(r.p, "6 accepted, 3 refused", "rx        6 frames, 768 bytes, 3 dropped");
    /* The formatted event names the reason. */
    strbuf sb;
    event e = {.src = event_find(&r.eb, "nic0.net.drop"), .nvals = 3, .vals = drops.vals[0]};
    sb_init(&sb);
    event_format(&e, &sb);
    ck_assert_str_eq(sb.s, "nic0.net.drop dir=rx len=128 reason=refused");
    sb_free(&sb);
    e = (event){.src = event_find(&r.eb, "nic0.net.rx"), .nvals = 4, .vals = rx.vals[0]};
    sb_init(&sb);
    event_format(&e, &sb);
    ck_assert_str_eq(sb.s,
                     "nic0.net.rx len=128 dst=ff:ff:ff:ff:ff:ff src=02:78:62:6f:77:01 type=0x800");
    sb_free(&sb);
    /* Without a NIC, frames are dropped as no-nic. */
    net_port_attach(r.p, NULL, NULL);
    uint8_t f[60] = {0};
    ck_assert(!net_port_deliver(r.p, f, 60));
    ck_assert_uint_eq(drops.vals[3][2], NET_DROP_NO_NIC);
    rig_close(&r);
}
END_TEST

START_TEST(tx_events_lengths_and_padding)
{
    rig r;
    rig_open(&r, "sink", NULL);
    ev_log tx = {0}, drops = {0};
    event_subscribe(event_find(&r.eb, "nic0.net.tx"), ev_record, &tx);
    event_subscribe(event_find(&r.eb, "nic0.net.drop"), ev_record, &drops);
    uint8_t f[NET_MAX_FRAME + 1];
    memset(f, 0x5a, sizeof f);
    net_port_send(r.p, f, 200);
    net_port_send(r.p, f, 13);                /* shorter than a header */
    net_port_send(r.p, f, NET_MAX_FRAME + 1); /* too long */
    ck_assert_uint_eq(tx.n, 1);
    ck_assert_uint_eq(tx.vals[0][0], 200);
    ck_assert_uint_eq(tx.vals[0][3], 0x5a5a);
    ck_assert_uint_eq(drops.n, 2);
    ck_assert_uint_eq(drops.vals[1][0], NET_DIR_TX);
    ck_assert_uint_eq(drops.vals[1][1], NET_MAX_FRAME + 1);
    ck_assert_uint_eq(drops.vals[1][2], NET_DROP_LENGTH);
    ck_assert_uint_eq(r.p->stats.tx_frames, 3);
    ck_assert_uint_eq(r.p->stats.tx_dropped, 2);
    /* Short frames toward the NIC are padded to 60 with zeros. */
    ck_assert(net_port_deliver(r.p, f, 42));
    ck_assert_uint_eq(r.nic.len[0], 60);
    ck_assert_uint_eq(r.nic.frame[0][41], 0x5a);
    ck_assert_uint_eq(r.nic.frame[0][42], 0);
    ck_assert_uint_eq(r.nic.frame[0][59], 0);
    ck_assert(!net_port_deliver(r.p, f, 10));
    ck_assert_uint_eq(r.p->stats.rx_dropped, 1);
    rig_close(&r);
}
END_TEST

START_TEST(bad_specs_are_explained)
{
    static const struct {
        const char *spec, *want;
    } cases[] = {
        {"", "no network backend"},
        {"nothing", "unknown network backend \"nothing\""},
        {"sink:port=70000", "sink: bad option \"port=70000\""},
        {"sink:frobnicate", "bad option"},
        {"echo:ip=10.0.2", "echo: bad option \"ip=10.0.2\""},
        {"echo:mac=01:00:00:00:00:01", "unicast MAC"},
        {"echo:mask=255.0.255.0", "bad option"},
        {"echo:latency=5 hours", "bad option"},
        {"gen:size=59", "gen: bad option \"size=59\""},
        {"gen:size=9019", "bad option"},
        {"gen:rate=0", "bad option"},
        {"gen:proto=tcp", "bad option"},
        {"gen:dst=ff:ff:ff:ff:ff", "bad option"},
        {"gen:start=soon", "bad option"},
        {"gen:size", "bad option \"size\""},
        {"tap", "want tap:IFNAME"},
        {"tap:averyveryverylongname", "bad interface name"},
        {"socket", "want socket:udp"},
        {"socket:udp:1:2", "want socket:udp:LPORT:HOST:RPORT"},
        {"socket:udp:x:127.0.0.1:5", "bad ports or host"},
        {"socket:udp:0:no.such.host.invalid:5", "cannot resolve no.such.host.invalid"},
        {"socket:unix-connect:/nonexistent/xbow.sock", "start the listening side first"},
        {"socket:unix:", "bad Unix socket path"},
        {"vde:/nonexistent/switch", NET_HAVE_VDE ? "is `vde_switch -s /nonexistent/switch` running?"
                                                 : "not available in this AddressSanitizer build"},
    };
    sched clk;
    sched_init(&clk, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xerr err = {0};
        net_port *p = net_port_open("nic0", cases[i].spec, NULL, &clk, NULL, &err);
        ck_assert_msg(p == NULL, "%s opened", cases[i].spec);
        ck_assert_msg(strstr(err.msg, cases[i].want), "%s: got \"%s\", want \"%s\"", cases[i].spec,
                      err.msg, cases[i].want);
    }
    xerr err;
    ck_assert_ptr_null(net_port_open("nic0", "sink", "/nonexistent/dir/x.pcap", &clk, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot create /nonexistent/dir/x.pcap"));
    ck_assert(sched_next(&clk) == UINT64_MAX); /* failed opens leave nothing armed */
}
END_TEST

START_TEST(reopen_keeps_event_subscriptions)
{
    rig r;
    rig_open(&r, "sink", NULL);
    ev_log tx = {0};
    event_subscribe(event_find(&r.eb, "nic0.net.tx"), ev_record, &tx);
    net_port_close(r.p);
    r.p = net_port_open("nic0", "echo", NULL, &r.clk, &r.eb, &r.err);
    ck_assert_ptr_nonnull(r.p);
    ck_assert_uint_eq(r.eb.nsrcs, 3);
    uint8_t f[60] = {0};
    net_port_send(r.p, f, 60);
    ck_assert_uint_eq(tx.n, 1);
    rig_close(&r);
}
END_TEST

/* ---- pcap ------------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* A capture with tx frames of three protocols at chosen virtual times and
 * gen frames toward the NIC. */
static void make_capture(const char *path)
{
    rig r;
    rig_open(&r, "echo", path);
    uint8_t f[1600];
    r.clk.now = 180; /* 1 us */
    net_port_send(r.p, f, arp_request(f, bcast, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2)));
    advance_ns(&r, 99000);
    net_port_send(r.p, f, icmp_request(f, IP4(10, 0, 2, 2), 1, 1, 56));
    advance_ticks(&r, 180000000ull * 3 + 90 - r.clk.now); /* to 3.0000005 s */
    size_t len =
        t_udp_frame(f, echo_mac, nic_mac, IP4(10, 0, 2, 15), IP4(10, 0, 2, 2), 5000, 7, 1, 1400);
    net_port_send(r.p, f, len);
    advance_ns(&r, 1000000);
    ck_assert_uint_eq(r.nic.accepted, 3);
    rig_close(&r);
}

START_TEST(pcap_is_valid_and_reproducible)
{
    char path[128], path2[128];
    snprintf(path, sizeof path, "%s/a.pcap", scratch);
    snprintf(path2, sizeof path2, "%s/b.pcap", scratch);
    make_capture(path);
    size_t n;
    uint8_t *b = slurp(path, &n);
    ck_assert_uint_ge(n, 24);
    ck_assert_uint_eq(le32(b), 0xa1b23c4d);
    ck_assert_uint_eq(b[4] | b[5] << 8, 2);
    ck_assert_uint_eq(b[6] | b[7] << 8, 4);
    ck_assert_uint_eq(le32(b + 16), 65535);
    ck_assert_uint_eq(le32(b + 20), 1);
    /* Records: arp, its reply, icmp, its reply, udp, its reply. */
    static const uint32_t want_len[] = {60, 60, 98, 98, 1442, 1442};
    static const uint64_t want_ns[] = {1000, 11000, 100000, 110000, 3000000500ull, 3000010500ull};
    size_t off = 24;
    unsigned i = 0;
    while (off + 16 <= n && i < 6) {
        uint64_t ns = le32(b + off) * 1000000000ull + le32(b + off + 4);
        ck_assert_uint_eq(le32(b + off + 8), want_len[i]);
        ck_assert_uint_eq(le32(b + off + 12), want_len[i]);
        ck_assert_msg(ns == want_ns[i], "record %u at %llu ns", i, (unsigned long long)ns);
        off += 16 + le32(b + off + 8);
        i++;
    }
    ck_assert_uint_eq(i, 6);
    ck_assert_uint_eq(off, n);
    /* The same inputs give the same bytes. */
    make_capture(path2);
    size_t n2;
    uint8_t *b2 = slurp(path2, &n2);
    ck_assert_uint_eq(n, n2);
    ck_assert_mem_eq(b, b2, n);
    free(b);
    free(b2);

    if (system("command -v tshark >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: tshark is not installed; the pcap file was checked by the test's "
                        "own parser only\n");
    } else {
        char cmd[512], out[2048] = "";
        snprintf(cmd, sizeof cmd,
                 "tshark -r %s -T fields -e frame.len -e frame.protocols -e frame.time_epoch "
                 "2>/dev/null",
                 path);
        FILE *t = popen(cmd, "r");
        ck_assert_ptr_nonnull(t);
        size_t got = fread(out, 1, sizeof out - 1, t);
        out[got] = 0;
        ck_assert_int_eq(pclose(t), 0);
        const char *want = "60\teth:ethertype:arp\t0.000001000\n"
                           "60\teth:ethertype:arp\t0.000011000\n"
                           "98\teth:ethertype:ip:icmp:data\t0.000100000\n"
                           "98\teth:ethertype:ip:icmp:data\t0.000110000\n"
                           "1442\teth:ethertype:ip:udp:echo\t3.000000500\n"
                           "1442\teth:ethertype:ip:udp:echo\t3.000010500\n";
        ck_assert_str_eq(out, want);
        /* tshark's own checksum validation agrees with ours: all four IP
         * frames good (status 1), none bad (status 0). */
        static const struct {
            const char *filter, *count;
        } checks[] = {
            {"ip.checksum.status==1 && (udp.checksum.status==1 || icmp.checksum.status==1)", "4\n"},
            {"ip.checksum.status==0 || udp.checksum.status==0 || icmp.checksum.status==0", "0\n"},
        };
        for (size_t c = 0; c < 2; c++) {
            snprintf(cmd, sizeof cmd,
                     "tshark -r %s -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -Y '%s' "
                     "2>/dev/null"
                     " | wc -l",
                     path, checks[c].filter);
            t = popen(cmd, "r");
            got = fread(out, 1, sizeof out - 1, t);
            out[got] = 0;
            pclose(t);
            ck_assert_msg(!strcmp(out, checks[c].count), "%s: %s", checks[c].filter, out);
        }
    }
    unlink(path);
    unlink(path2);
}
END_TEST

START_TEST(pcap_is_flushed_while_running)
{
    char path[128];
    snprintf(path, sizeof path, "%s/flush.pcap", scratch);
    rig r;
    rig_open(&r, "gen:rate=1000,count=0,size=1000", path);
    struct stat st;
    advance_ns(&r, 5000000); /* 5 frames, buffered */
    stat(path, &st);
    ck_assert_int_eq(st.st_size, 24);
    advance_ns(&r, 6000000); /* 10 ms after the first record: flushed */
    stat(path, &st);
    ck_assert_int_ge(st.st_size, 24 + 10 * (16 + 1000));
    advance_ns(&r, 1000000);
    net_port_flush(r.p); /* the debugger's stop hook */
    stat(path, &st);
    ck_assert_int_eq(st.st_size, 24 + 12 * (16 + 1000));
    rig_close(&r);
    unlink(path);
}
END_TEST

/* A frame from the wire with the NIC's own source address: another station
 * has the same MAC.  Counted, shown by info net, and said once. */
typedef struct log_rec {
    unsigned n;
    char last[300];
} log_rec;

static void log_record(void *ctx, int level, const char *who, const char *msg)
{
    log_rec *l = ctx;
    if (level != LOG_WARN)
        return;
    l->n++;
    snprintf(l->last, sizeof l->last, "%s: %s", who ? who : "", msg);
}

START_TEST(own_address_from_the_wire)
{
    rig r;
    log_rec l = {0};
    log_set_sink(log_record, &l);
    rig_open(&r, "gen:rate=1000,count=3,src=08:00:69:12:34:56", NULL);
    advance_ns(&r, 2000000);
    ck_assert_uint_eq(r.nic.accepted, 2);
    ck_assert_uint_eq(r.p->stats.own_src, 0); /* the port does not know the NIC's address yet */
    net_port_set_mac(r.p, nic_mac);
    advance_ns(&r, 1000000);
    ck_assert_uint_eq(r.nic.accepted, 3);
    ck_assert_uint_eq(r.p->stats.own_src, 1);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_msg(strstr(l.last, "nic0: a frame from the wire has this NIC's own address "
                                 "08:00:69:12:34:56 as its source") != NULL,
                  "%s", l.last);
    strbuf out;
    sb_init(&out);
    net_port_show(r.p, &out);
    ck_assert_msg(strstr(out.s, "own MAC   1 frames") != NULL, "%s", out.s);
    sb_free(&out);
    rig_close(&r);
    /* Other sources: nothing said. */
    rig_open(&r, "gen:rate=1000,count=3", NULL);
    net_port_set_mac(r.p, nic_mac);
    advance_ns(&r, 3000000);
    ck_assert_uint_eq(r.nic.accepted, 3);
    ck_assert_uint_eq(r.p->stats.own_src, 0);
    ck_assert_uint_eq(l.n, 1);
    rig_close(&r);
    log_set_sink(NULL, NULL);
}
END_TEST

/* Frames a host backend reads in one burst cross the wire one after the
 * other at 1 Gb/s; beyond the wire queue's bound they are dropped, counted
 * as queue-full. */
START_TEST(host_frames_cross_the_wire_at_line_rate)
{
    rig r;
    rig_open(&r, "sink", NULL);
    ev_log drops = {0};
    ck_assert_int_gt(event_subscribe(event_find(&r.eb, "nic0.net.drop"), ev_record, &drops), 0);
    uint8_t f[1514];
    memset(f, 0, sizeof f);
    memset(f, 0xff, 6);
    f[6] = 2;
    uint64_t t0 = r.clk.now;
    for (unsigned i = 0; i < NET_WIRE_QUEUE_FRAMES + 3; i++) {
        f[14] = (uint8_t)i;
        net_port_host_rx(r.p, f, i == 1 ? 20 : sizeof f); /* frame 1: a runt */
    }
    net_port_host_rx(r.p, f, 10); /* shorter than a header: refused at once */
    ck_assert_uint_eq(r.nic.calls, 0);
    ck_assert_uint_eq(r.p->stats.rx_dropped, 4);
    ck_assert_uint_eq(drops.n, 4);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(drops.vals[i][2], NET_DROP_QUEUE);
    ck_assert_uint_eq(drops.vals[3][2], NET_DROP_LENGTH);
    /* (1514 + 24) bytes at 8 ns: 12304 ns, 2214 ticks at 180 MHz; the runt
     * takes a 60-byte frame's time, (60 + 24) * 8 ns = 672 ns, 120 ticks. */
    uint64_t big = sched_ns_to_ticks(&r.clk, 12304), small = sched_ns_to_ticks(&r.clk, 672);
    advance_ticks(&r, big - 1);
    ck_assert_uint_eq(r.nic.accepted, 0);
    advance_ticks(&r, 1);
    ck_assert_uint_eq(r.nic.accepted, 1);
    advance_ticks(&r, small);
    ck_assert_uint_eq(r.nic.accepted, 2);
    ck_assert_uint_eq(r.nic.len[1], 60); /* padded as a sender would */
    advance_ticks(&r, big * (NET_WIRE_QUEUE_FRAMES - 2));
    ck_assert_uint_eq(r.nic.accepted, NET_WIRE_QUEUE_FRAMES);
    for (unsigned i = 2; i < FAKE_KEEP; i++) {
        ck_assert_uint_eq(r.nic.when[i], t0 + small + big * i);
        ck_assert_uint_eq(r.nic.frame[i][14], i);
    }
    ck_assert_uint_eq(r.p->stats.wire_max, NET_WIRE_QUEUE_FRAMES);
    strbuf out;
    sb_init(&out);
    net_port_show(r.p, &out);
    ck_assert_msg(strstr(out.s, "wire      0 frames waiting to cross it at 1 Gb/s (most 4096)"),
                  "%s", out.s);
    sb_free(&out);
    /* An idle wire: the next frame takes its own time only. */
    advance_ticks(&r, 1000000);
    uint64_t t1 = r.clk.now;
    net_port_host_rx(r.p, f, sizeof f);
    advance_ticks(&r, big);
    ck_assert_uint_eq(r.nic.accepted, NET_WIRE_QUEUE_FRAMES + 1);
    ck_assert_uint_eq(r.clk.now, t1 + big);
    /* Closing with frames on the wire frees them. */
    net_port_host_rx(r.p, f, sizeof f);
    rig_close(&r);
}
END_TEST

/* 802.3x: while the NIC has paused its partner, the wire stops at the frame
 * boundary (nothing delivered, nothing dropped) and a host backend reads
 * nothing (net_port_host_room); once it lets go, the frames cross one
 * after the other again, each after its own wire time. */
static bool pause_flag;
static bool pause_ready(void *nic)
{
    (void)nic;
    return !pause_flag;
}

START_TEST(a_paused_wire_holds_its_frames)
{
    rig r;
    rig_open(&r, "sink", NULL);
    net_port_set_ready(r.p, pause_ready);
    uint8_t f[1514];
    memset(f, 0, sizeof f);
    memset(f, 0xff, 6);
    f[6] = 2;
    uint64_t big = sched_ns_to_ticks(&r.clk, 12304);
    ck_assert(net_port_host_room(r.p));
    for (unsigned i = 0; i < 5; i++) {
        f[14] = (uint8_t)i;
        net_port_host_rx(r.p, f, sizeof f);
    }
    advance_ticks(&r, big);
    ck_assert_uint_eq(r.nic.accepted, 1);
    pause_flag = true;
    ck_assert(!net_port_host_room(r.p));
    advance_ticks(&r, big * 100);
    ck_assert_uint_eq(r.nic.accepted, 1);
    ck_assert_uint_eq(r.p->stats.rx_dropped, 0);
    ck_assert_uint_eq(r.p->wire_frames, 4);
    pause_flag = false;
    ck_assert(net_port_host_room(r.p));
    uint64_t t1 = r.clk.now;
    advance_ticks(&r, big * 6);
    ck_assert_uint_eq(r.nic.accepted, 5);
    for (unsigned i = 1; i < 5; i++) {
        ck_assert_uint_eq(r.nic.frame[i][14], i);
        ck_assert_uint_ge(r.nic.when[i], r.nic.when[i - 1] + big);
    }
    ck_assert_uint_le(r.nic.when[1], t1 + 2 * big); /* at most a frame's time late */
    ck_assert_uint_eq(r.p->stats.rx_host, 5);
    rig_close(&r);
}
END_TEST

static Suite *net_suite(void)
{
    Suite *s = suite_create("net");
    check_add_tests(check_case(s, "peers", NULL, NULL, 0), sink_verifies_payloads, sink_options,
                    echo_answers_arp, echo_answers_icmp, echo_answers_udp, gen_rate_and_count,
                    gen_exact_rate_and_sizes, gen_starts);
    check_add_tests(check_case(s, "port", NULL, NULL, 0), drops_are_counted_and_published,
                    tx_events_lengths_and_padding, bad_specs_are_explained,
                    reopen_keeps_event_subscriptions, own_address_from_the_wire,
                    host_frames_cross_the_wire_at_line_rate, a_paused_wire_holds_its_frames);
    check_add_tests(check_case(s, "pcap", NULL, NULL, 30), pcap_is_valid_and_reproducible,
                    pcap_is_flushed_while_running);
    return s;
}

int main(void)
{
    scratch_make();
    int failed = check_run(net_suite());
    scratch_remove();
    return failed ? 1 : 0;
}
