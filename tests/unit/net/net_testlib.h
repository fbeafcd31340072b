/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helpers for src/net: a fake NIC and frame builders written
 * independently of src/net/util.c (own checksum, own layout), so the tests
 * check the backends against a second implementation. */
#ifndef XBOW_NET_TESTLIB_H
#define XBOW_NET_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/net.h"

#define FAKE_KEEP 64

typedef struct fake_nic {
    unsigned calls, accepted, refused;
    unsigned refuse_every; /* refuse every n-th frame offered (0: never) */
    size_t len[FAKE_KEEP];
    uint8_t *frame[FAKE_KEEP];
    uint64_t when[FAKE_KEEP];
    sched *clock;
} fake_nic;

static inline bool fake_rx(void *o, const uint8_t *f, size_t len)
{
    fake_nic *n = o;
    n->calls++;
    if (n->refuse_every && n->calls % n->refuse_every == 0) {
        n->refused++;
        return false;
    }
    if (n->accepted < FAKE_KEEP) {
        n->frame[n->accepted] = malloc(len);
        memcpy(n->frame[n->accepted], f, len);
        n->len[n->accepted] = len;
        n->when[n->accepted] = n->clock ? n->clock->now : 0;
    }
    n->accepted++;
    return true;
}

static inline void fake_free(fake_nic *n)
{
    for (unsigned i = 0; i < FAKE_KEEP && i < n->accepted; i++)
        free(n->frame[i]);
    memset(n, 0, sizeof *n);
}

/* RFC 1071 checksum over the concatenation of (a, alen) and (b, blen). */
static inline uint16_t t_csum2(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    uint8_t *tmp = calloc(1, alen + blen + 1);
    memcpy(tmp, a, alen);
    if (blen)
        memcpy(tmp + alen, b, blen);
    unsigned long sum = 0;
    for (size_t i = 0; i < alen + blen; i += 2)
        sum += (unsigned long)tmp[i] * 256 + tmp[i + 1];
    free(tmp);
    while (sum > 0xffff)
        sum = (sum >> 16) + (sum & 0xffff);
    return (uint16_t)(0xffff - sum);
}
static inline uint16_t t_csum(const uint8_t *a, size_t len) { return t_csum2(a, len, NULL, 0); }

static inline void t_put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static inline unsigned t_get16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static inline uint32_t t_get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void t_put32(uint8_t *p, uint32_t v)
{
    t_put16(p, v >> 16);
    t_put16(p + 2, v & 0xffff);
}

/* UDP checksum check with the IPv4 pseudo-header; ip points at the IP header. */
static inline bool t_udp_csum_ok(const uint8_t *ip)
{
    size_t ihl = (size_t)(ip[0] & 15) * 4;
    const uint8_t *u = ip + ihl;
    unsigned ulen = t_get16(u + 4);
    uint8_t ph[12];
    memcpy(ph, ip + 12, 8);
    ph[8] = 0;
    ph[9] = 17;
    t_put16(ph + 10, ulen);
    return t_get16(u + 6) == 0 || t_csum2(ph, 12, u, ulen) == 0;
}

/* Ethernet + IPv4 header (20 bytes), proto, total IP length ip_len. */
static inline void t_ip_header(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], uint32_t sip,
                               uint32_t dip, uint8_t proto, unsigned ip_len)
{
    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    t_put16(f + 12, 0x0800);
    uint8_t *ip = f + 14;
    memset(ip, 0, 20);
    ip[0] = 0x45;
    t_put16(ip + 2, ip_len);
    t_put16(ip + 4, 0x1234);
    ip[8] = 17; /* an odd TTL, so a fresh one shows */
    ip[9] = proto;
    t_put32(ip + 12, sip);
    t_put32(ip + 16, dip);
    t_put16(ip + 10, t_csum(ip, 20));
}

/* A UDP frame whose payload is pattern message k of plen bytes; returns the
 * frame length (padded to 60). */
static inline size_t t_udp_frame(uint8_t *f, const uint8_t dst[6], const uint8_t src[6],
                                 uint32_t sip, uint32_t dip, unsigned sport, unsigned dport,
                                 uint32_t k, size_t plen)
{
    memset(f, 0, 60);
    t_ip_header(f, dst, src, sip, dip, 17, (unsigned)(28 + plen));
    uint8_t *u = f + 34;
    t_put16(u, sport);
    t_put16(u + 2, dport);
    t_put16(u + 4, (unsigned)(8 + plen));
    t_put16(u + 6, 0);
    uint8_t *pl = u + 8;
    if (plen >= 4)
        t_put32(pl, k);
    for (size_t i = 4; i < plen; i++)
        pl[i] = (uint8_t)(k * 7 + i);
    uint8_t ph[12];
    memcpy(ph, f + 14 + 12, 8);
    ph[8] = 0;
    ph[9] = 17;
    t_put16(ph + 10, (unsigned)(8 + plen));
    uint16_t c = t_csum2(ph, 12, u, 8 + plen);
    t_put16(u + 6, c ? c : 0xffff);
    size_t len = 42 + plen;
    return len < 60 ? 60 : len;
}

/* net_stats.payload_sum's term for a verified payload: FNV-1a over k and
 * the payload length, 4 bytes big-endian each. */
static inline uint32_t t_sum_term(uint32_t k, size_t len)
{
    uint8_t b[8];
    t_put32(b, k);
    t_put32(b + 4, (uint32_t)len);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < 8; i++) {
        h ^= b[i];
        h *= 16777619u;
    }
    return h;
}

/* A scratch directory made by main() before the (forked) tests run and
 * removed by it afterwards, whatever happened to them. */
static char scratch[64];

static inline void scratch_make(void)
{
    strcpy(scratch, "/tmp/xbow-nettest-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(1);
    }
}

static inline void scratch_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch);
}

#define IP4(a, b, c, d) \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

#endif
