/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdb remote protocol framing: see rsp.h. */
#include "dbg/rsp.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void rsp_init(rsp_decoder *d)
{
    memset(d, 0, sizeof *d);
    d->state = RSP_ST_IDLE;
}

static void start(rsp_decoder *d)
{
    d->state = RSP_ST_DATA;
    d->len = 0;
    d->sum = 0;
    d->overflow = false;
}

int rsp_feed(rsp_decoder *d, uint8_t c)
{
    switch (d->state) {
    case RSP_ST_IDLE:
        switch (c) {
        case '$': start(d); return RSP_NONE;
        case '+': return RSP_ACK;
        case '-': return RSP_NAK;
        case 0x03: return RSP_INTERRUPT;
        default: d->garbage++; return RSP_NONE;
        }
    case RSP_ST_DATA:
        if (c == '#') {
            d->state = RSP_ST_CS1;
        } else if (c == '$') { /* a packet that never ended: take the new one */
            d->restarts++;
            start(d);
        } else {
            d->sum = (uint8_t)(d->sum + c);
            if (d->len < RSP_MAX_PACKET)
                d->buf[d->len++] = (char)c;
            else
                d->overflow = true;
        }
        return RSP_NONE;
    case RSP_ST_CS1:
    case RSP_ST_CS2: {
        int v = hexval(c);
        if (v < 0) { /* not a checksum: the packet is broken */
            d->state = RSP_ST_IDLE;
            return RSP_BAD_CHECKSUM;
        }
        if (d->state == RSP_ST_CS1) {
            d->cs = (uint8_t)(v << 4);
            d->state = RSP_ST_CS2;
            return RSP_NONE;
        }
        d->cs = (uint8_t)(d->cs | v);
        d->state = RSP_ST_IDLE;
        d->buf[d->len] = 0;
        if (d->cs != d->sum)
            return RSP_BAD_CHECKSUM;
        return d->overflow ? RSP_TOO_LONG : RSP_PACKET;
    }
    }
    d->state = RSP_ST_IDLE;
    return RSP_NONE;
}

void rsp_frame(strbuf *out, const char *data, size_t len)
{
    uint8_t sum = 0;
    sb_putc(out, '$');
    for (size_t i = 0; i < len; i++) {
        sum = (uint8_t)(sum + (uint8_t)data[i]);
        sb_putc(out, data[i]);
    }
    sb_printf(out, "#%02x", sum);
}

void rsp_escape(strbuf *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '#' || c == '$' || c == '}' || c == '*') {
            sb_putc(out, '}');
            c ^= 0x20;
        }
        sb_putc(out, (char)c);
    }
}

long rsp_unescape(uint8_t *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '}') {
            if (++i == n)
                return -1;
            p[o++] = p[i] ^ 0x20;
        } else {
            p[o++] = p[i];
        }
    }
    return (long)o;
}

void rsp_hex(strbuf *out, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        sb_putc(out, digits[p[i] >> 4]);
        sb_putc(out, digits[p[i] & 15]);
    }
}

void rsp_hex_str(strbuf *out, const char *s) { rsp_hex(out, (const uint8_t *)s, strlen(s)); }

int rsp_unhex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexval((unsigned char)s[2 * i]);
        int lo = hi < 0 ? -1 : hexval((unsigned char)s[2 * i + 1]);
        if (lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

int rsp_parse_hex(const char **s, uint64_t *v)
{
    const char *p = *s;
    uint64_t x = 0;
    unsigned n = 0;
    for (int h; (h = hexval((unsigned char)*p)) >= 0; p++) {
        if (x >> 60)
            return -1; /* would not fit */
        x = x << 4 | (uint64_t)h;
        n++;
    }
    if (!n)
        return -1;
    *v = x;
    *s = p;
    return 0;
}
