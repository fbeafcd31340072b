/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The NIC examples' shared pieces: see net.h. */
#include "net.h"

unsigned atou(const char *s)
{
    unsigned v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (unsigned)(*s++ - '0');
    return v;
}

int prefix(const char *s, const char *p)
{
    while (*p)
        if (*s++ != *p++)
            return 0;
    return 1;
}

int streq(const char *a, const char *b) { return prefix(a, b) && a[strlen(b)] == 0; }

void arg_mode_count_size(int argc, char **argv, const char *const *modes, int *mode,
                         unsigned *count, unsigned *size, void (*other)(const char *word))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int m = 0;
        while (modes[m] && !streq(a, modes[m]))
            m++;
        if (modes[m]) {
            *mode = a[0];
            if (i + 1 < argc)
                *count = atou(argv[++i]);
        } else if (prefix(a, "size=")) {
            *size = atou(a + 5);
        } else {
            other(a);
        }
    }
    if (*size < 60)
        *size = 60;
    if (*size > 1514)
        *size = 1514;
}

u64 arg_num(int argc, char **argv, const char *name, u64 def)
{
    size_t n = strlen(name);
    for (int a = 1; a < argc; a++) {
        const char *s = argv[a];
        if (strlen(s) <= n || s[n] != '=')
            continue;
        int same = 1;
        for (size_t i = 0; i < n; i++)
            if (s[i] != name[i])
                same = 0;
        if (!same)
            continue;
        u64 v = 0;
        for (s += n + 1; *s >= '0' && *s <= '9'; s++)
            v = v * 10 + (u64)(*s - '0');
        return v;
    }
    return def;
}

unsigned arg_range(int argc, char **argv, const char *tag, const char *name, unsigned def,
                   unsigned min, unsigned max)
{
    u64 v = arg_num(argc, argv, name, def);
    if (v >= min && v <= max)
        return (unsigned)v;
    printf("%s: %s must be %u..%u\n", tag, name, min, max);
    return 0;
}

u32 payload_hash(u32 k, u32 len)
{
    u8 b[8] = {(u8)(k >> 24), (u8)(k >> 16), (u8)(k >> 8), (u8)k,
               (u8)(len >> 24), (u8)(len >> 16), (u8)(len >> 8), (u8)len};
    u32 h = 2166136261u;
    for (int i = 0; i < 8; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

void payload_fill(u8 *p, u32 len, u32 k)
{
    put32(p, k);
    for (u32 i = 4; i < len; i++)
        p[i] = payload_byte(k, i);
}

u32 csum_add(u32 sum, const u8 *p, unsigned len)
{
    for (unsigned i = 0; i + 1 < len; i += 2)
        sum += (u32)p[i] << 8 | p[i + 1];
    if (len & 1)
        sum += (u32)p[len - 1] << 8;
    return sum;
}

u16 csum_fold(u32 sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (u16)sum;
}

void ip_header(u8 *ip, u32 len, u32 id, u32 frag, u32 proto, u32 src, u32 dst)
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

u8 *udp_frame(u8 *f, u32 len, const u8 *dst, const u8 *src, u32 id, u32 frag, u32 sport,
              u32 dport, u32 k)
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
