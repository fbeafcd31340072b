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
