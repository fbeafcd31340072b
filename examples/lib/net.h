/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the NIC examples share (hamachi, ioc3_eth, e1000, tigon): the words
 * of their command line (the PROM arguments, from xbow --append), the
 * verifiable payload, the Internet checksum and the IPv4 header of their
 * frames.  The code is in net.c (what runs per byte is inline here). */
#ifndef XBOW_GUEST_NET_H
#define XBOW_GUEST_NET_H

#include "xbow.h"

/* Big-endian (network order) fields of a frame. */
static inline void put16(u8 *p, u32 v)
{
    p[0] = (u8)(v >> 8);
    p[1] = (u8)v;
}
static inline void put32(u8 *p, u32 v)
{
    put16(p, v >> 16);
    put16(p + 2, v);
}
static inline u32 get16(const u8 *p) { return (u32)p[0] << 8 | p[1]; }
static inline u32 get32(const u8 *p) { return get16(p) << 16 | get16(p + 2); }

/* The decimal number at s (up to the first other character). */
unsigned atou(const char *s);
/* 1 if s begins with p; streq: 1 if a and b are the same string. */
int prefix(const char *s, const char *p);
int streq(const char *a, const char *b);
/* The words "MODE [COUNT]" and "size=N" of the Hamachi and IOC3 examples:
 * MODE one of modes (a NULL-terminated list) sets *mode to its first
 * letter and *count to the number in the next word, if there is one;
 * size=N sets *size, kept within 60..1514 (a frame).  Any other word goes
 * to other (which ignores what it does not know). */
void arg_mode_count_size(int argc, char **argv, const char *const *modes, int *mode,
                         unsigned *count, unsigned *size, void (*other)(const char *word));
/* "name=value" among the PROM arguments, or `def`. */
u64 arg_num(int argc, char **argv, const char *name, u64 def);
/* The same, which must be min..max (min > 0): the value, or 0 after
 * printing so (as "TAG: NAME must be MIN..MAX"). */
unsigned arg_range(int argc, char **argv, const char *tag, const char *name, unsigned def,
                   unsigned min, unsigned max);

/* The verifiable payload shared with xbow's gen and sink (src/net/net.h): byte i of
 * message k, and FNV-1a over k and the payload length, both big-endian (the
 * payload sum the examples print). */
static inline u8 payload_byte(u32 k, u32 i) { return (u8)(k * 7 + i); }
u32 payload_hash(u32 k, u32 len);
/* The len bytes of message k's payload at p: k big-endian, then
 * payload_byte(k, 4) on. */
static inline void payload_fill(u8 *p, u32 len, u32 k)
{
    put32(p, k);
    for (u32 i = 4; i < len; i++)
        p[i] = payload_byte(k, i);
}
/* Whether p[from] to p[len - 1] are message k's payload bytes (inline: the
 * receive examples spend their time here, per byte). */
static inline int payload_ok(const u8 *p, u32 from, u32 len, u32 k)
{
    for (u32 i = from; i < len; i++)
        if (p[i] != payload_byte(k, i))
            return 0;
    return 1;
}

/* The 16-bit ones' complement sum of big-endian words, and its fold. */
static inline u32 csum_add(u32 sum, const u8 *p, unsigned len)
{
    for (unsigned i = 0; i + 1 < len; i += 2)
        sum += (u32)p[i] << 8 | p[i + 1];
    if (len & 1)
        sum += (u32)p[len - 1] << 8;
    return sum;
}

static inline u16 csum_fold(u32 sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (u16)sum;
}

/* The examples' addresses: the guest is 10.0.2.15, xbow's echo peer or the
 * host 10.0.2.2. */
#define IP_ME 0x0a00020fu
#define IP_PEER 0x0a000202u

/* A 20-byte IPv4 header without options at ip: total length len,
 * identification id, the flags and fragment word frag, TTL 64, protocol
 * proto, addresses src and dst, and its checksum. */
static inline void ip_header(u8 *ip, u32 len, u32 id, u32 frag, u32 proto, u32 src, u32 dst)
{
    memset(ip, 0, 20);
    ip[0] = 0x45;
    put16(ip + 2, len);
    put16(ip + 4, id);
    put16(ip + 6, frag);
    ip[8] = 64;
    ip[9] = (u8)proto;
    put32(ip + 12, src);
    put32(ip + 16, dst);
    put16(ip + 10, (u16)~csum_fold(csum_add(0, ip, 20)));
}

/* A frame of len bytes (>= 46) at f from the station src to dst carrying
 * message k: IPv4 from IP_ME to IP_PEER (ip_header: identification id,
 * flags frag), UDP from port sport to dport with the checksum 0, and the
 * payload (payload_fill).  Returns the UDP header, for a checksum.  Inline,
 * like payload_fill and payload_ok: the transmit examples build a frame
 * for every one they send. */
static inline u8 *udp_frame(u8 *f, u32 len, const u8 *dst, const u8 *src, u32 id, u32 frag,
                            u32 sport, u32 dport, u32 k)
{
    u8 *ip = f + 14, *udp = ip + 20;
    u32 udplen = len - 34;
    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    put16(f + 12, 0x0800);
    ip_header(ip, len - 14, id, frag, 17, IP_ME, IP_PEER);
    put16(udp, sport);
    put16(udp + 2, dport);
    put16(udp + 4, udplen);
    put16(udp + 6, 0);
    payload_fill(udp + 8, udplen - 8, k);
    return udp;
}

#endif
