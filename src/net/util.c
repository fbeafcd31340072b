/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the frame backends: options, addresses, checksums, the
 * verifiable payload, building and taking apart IPv4/UDP frames. */
#include "net/backend.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *net_fail(xerr *err, const char *who, const char *fmt, ...)
{
    if (!err)
        return NULL;
    char text[XERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    xerr_set(err, "%s: %s", who, text);
    return NULL;
}

void *net_bad_option(xerr *err, const char *who, const net_opt *o, const char *want)
{
    return net_fail(err, who, "bad option \"%s%s%s\" (want %s)", o->key, o->has_val ? "=" : "",
                    o->val, want);
}

int net_opt_next(const char **s, net_opt *o, const char *who, xerr *err)
{
    const char *p = *s;
    while (*p == ',')
        p++;
    if (!*p)
        return 0;
    const char *end = strchr(p, ',');
    if (!end)
        end = p + strlen(p);
    const char *eq = memchr(p, '=', (size_t)(end - p));
    size_t klen = (size_t)((eq ? eq : end) - p);
    size_t vlen = eq ? (size_t)(end - eq - 1) : 0;
    if (klen == 0 || klen >= sizeof o->key || vlen >= sizeof o->val) {
        net_fail(err, who, "bad option \"%.*s\"", (int)(end - p), p);
        return -1;
    }
    memcpy(o->key, p, klen);
    o->key[klen] = 0;
    o->has_val = eq != NULL;
    if (eq)
        memcpy(o->val, eq + 1, vlen);
    o->val[vlen] = 0;
    *s = end;
    return 1;
}

bool net_parse_mac(const char *s, uint8_t mac[6])
{
    for (int i = 0; i < 6; i++) {
        if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
            return false;
        char hex[3] = {s[0], s[1], 0};
        mac[i] = (uint8_t)strtoul(hex, NULL, 16);
        s += 2;
        if (i < 5) {
            if (*s != ':' && *s != '-')
                return false;
            s++;
        }
    }
    return *s == 0;
}

bool net_parse_ipv4(const char *s, uint32_t *ip)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        if (!isdigit((unsigned char)*s))
            return false;
        char *end;
        unsigned long b = strtoul(s, &end, 10);
        if (b > 255 || end - s > 3)
            return false;
        v = v << 8 | (uint32_t)b;
        s = end;
        if (i < 3 && *s++ != '.')
            return false;
    }
    if (*s)
        return false;
    *ip = v;
    return true;
}

bool net_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

bool net_parse_time_ns(const char *s, uint64_t *ns)
{
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    static const struct {
        const char *suffix;
        uint64_t mul;
    } units[] = {{"ns", 1}, {"us", 1000}, {"", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    if (errno)
        return false;
    for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            if (x > UINT64_MAX / units[i].mul)
                return false;
            *ns = x * units[i].mul;
            return true;
        }
    }
    return false;
}

void net_fmt_mac(char out[18], const uint8_t m[6])
{
    snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void net_fmt_ipv4(char out[16], uint32_t ip)
{
    snprintf(out, 16, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

/* ---- checksums ------------------------------------------------------------ */

/* The one's-complement sum of big-endian 16-bit words does not depend on
 * the byte order the words are added in (RFC 1071, 2.B): the data is added
 * 8 bytes at a time in the host's order with the carries wrapped around,
 * folded to 16 bits and swapped to network order only then.  The result
 * is congruent modulo 0xffff (and zero only when the data is) to the
 * plain sum of the big-endian words, so net_csum_fold gives the same. */
uint32_t net_csum_add(uint32_t sum, const uint8_t *d, size_t len)
{
    uint64_t s = 0;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, d + i, 8);
        s += w;
        s += s < w; /* (the carry, around) */
    }
    s = (s & 0xffffffffu) + (s >> 32);
    for (; i + 2 <= len; i += 2) {
        uint16_t h;
        memcpy(&h, d + i, 2);
        s += h;
    }
    if (i < len) { /* the last byte is the high byte of its word */
        uint8_t last[2] = {d[i], 0};
        uint16_t h;
        memcpy(&h, last, 2);
        s += h;
    }
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    s = (uint16_t)(s << 8 | s >> 8);
#endif
    uint64_t t = (uint64_t)sum + s;
    return (uint32_t)((t & 0xffffffffu) + (t >> 32));
}

uint16_t net_csum_fold_sum(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)sum;
}

uint16_t net_csum_fold(uint32_t sum) { return (uint16_t)~net_csum_fold_sum(sum); }

uint32_t net_csum_pseudo4(uint32_t src, uint32_t dst, uint8_t proto, uint16_t len)
{
    uint64_t s = (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) + proto + len;
    return (uint32_t)s;
}

/* ---- frames ------------------------------------------------------------------ */

size_t net_eth_l3(const uint8_t *f, size_t len, uint16_t *type)
{
    if (len < ETH_HLEN)
        return 0;
    uint16_t t = (uint16_t)load_be(f + 12, 2);
    size_t off = ETH_HLEN;
    if (t == ETHERTYPE_VLAN) {
        if (len < ETH_HLEN + 4)
            return 0;
        t = (uint16_t)load_be(f + 16, 2);
        off += 4;
    }
    *type = t;
    return off;
}

bool net_parse_ipv4_frame(const uint8_t *f, size_t len, net_ipv4 *ip)
{
    uint16_t type;
    size_t l3 = net_eth_l3(f, len, &type);
    if (!l3 || type != ETHERTYPE_IPV4 || len < l3 + 20)
        return false;
    const uint8_t *h = f + l3;
    size_t ihl = (size_t)(h[0] & 15) * 4;
    size_t tot = (size_t)load_be(h + 2, 2);
    if ((h[0] >> 4) != 4 || ihl < 20 || tot < ihl || l3 + tot > len)
        return false;
    ip->l3 = l3;
    ip->ihl = ihl;
    ip->ip_len = tot;
    ip->proto = h[9];
    ip->src = (uint32_t)load_be(h + 12, 4);
    ip->dst = (uint32_t)load_be(h + 16, 4);
    ip->csum_ok = net_csum_fold(net_csum_add(0, h, ihl)) == 0;
    uint16_t frag = (uint16_t)load_be(h + 6, 2);
    ip->fragment = (frag & 0x3fff) != 0;
    return true;
}

bool net_parse_udp_frame(const uint8_t *f, size_t len, net_ipv4 *ip, net_udp *u)
{
    if (!net_parse_ipv4_frame(f, len, ip) || ip->proto != 17 || ip->fragment)
        return false;
    size_t off = ip->l3 + ip->ihl;
    size_t room = ip->ip_len - ip->ihl;
    if (room < 8)
        return false;
    const uint8_t *h = f + off;
    size_t ulen = (size_t)load_be(h + 4, 2);
    if (ulen < 8 || ulen > room)
        return false;
    u->off = off;
    u->sport = (uint16_t)load_be(h, 2);
    u->dport = (uint16_t)load_be(h + 2, 2);
    u->data = h + 8;
    u->data_len = ulen - 8;
    uint16_t c = (uint16_t)load_be(h + 6, 2);
    u->csum_ok =
        c == 0 || net_csum_fold(net_csum_add(net_csum_pseudo4(ip->src, ip->dst, 17, (uint16_t)ulen),
                                             h, ulen)) == 0;
    return true;
}

/* ---- payload pattern ------------------------------------------------------- */

void net_payload_fill(uint8_t *pl, size_t len, uint32_t k)
{
    if (len < 4)
        return;
    store_be(pl, 4, k);
    for (size_t i = 4; i < len; i++)
        pl[i] = net_payload_byte(k, (uint32_t)i);
}

bool net_payload_verify(const uint8_t *pl, size_t len, uint32_t *k)
{
    if (len < 4)
        return false;
    uint32_t m = (uint32_t)load_be(pl, 4);
    *k = m;
    for (size_t i = 4; i < len; i++)
        if (pl[i] != net_payload_byte(m, (uint32_t)i))
            return false;
    return true;
}

uint32_t net_payload_hash(uint32_t k, size_t len)
{
    uint8_t b[8];
    store_be(b, 4, k);
    store_be(b + 4, 4, len);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < 8; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

void net_build_udp(uint8_t *f, size_t size, const net_udp_spec *s, uint32_t k)
{
    memcpy(f, s->dst_mac, 6);
    memcpy(f + 6, s->src_mac, 6);
    store_be(f + 12, 2, ETHERTYPE_IPV4);
    uint8_t *ip = f + ETH_HLEN;
    size_t ip_len = size - ETH_HLEN, udp_len = ip_len - 20;
    memset(ip, 0, 20);
    ip[0] = 0x45;
    store_be(ip + 2, 2, ip_len);
    store_be(ip + 4, 2, k & 0xffff); /* identification */
    store_be(ip + 6, 2, 0x4000);     /* DF */
    ip[8] = 64;
    ip[9] = 17;
    store_be(ip + 12, 4, s->src_ip);
    store_be(ip + 16, 4, s->dst_ip);
    store_be(ip + 10, 2, net_csum_fold(net_csum_add(0, ip, 20)));
    uint8_t *u = ip + 20;
    store_be(u, 2, s->sport);
    store_be(u + 2, 2, s->dport);
    store_be(u + 4, 2, udp_len);
    store_be(u + 6, 2, 0);
    net_payload_fill(u + 8, udp_len - 8, k);
    uint16_t c = net_csum_fold(
        net_csum_add(net_csum_pseudo4(s->src_ip, s->dst_ip, 17, (uint16_t)udp_len), u, udp_len));
    store_be(u + 6, 2, c ? c : 0xffff);
}
