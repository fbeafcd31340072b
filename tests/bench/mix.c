/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The emulator comparison benchmark guest: an integer mix (CRC-32 and
 * Adler-32 checksums, memory copies, a qsort-like sort of a few thousand
 * ints through a comparison function, recursive calls, 64-bit multiply and
 * divide), MIX_ROUNDS rounds, then one result line and a "done" line.
 *
 * The same source is built for xbow (the examples/lib runtime: IOC3 UART,
 * HUB reset), for QEMU's Malta and GXemul's testmips (shim_malta.c,
 * shim_testmips.c with shim_crt0.S), and for the host (shim_host.c, with
 * -DMIX_NO_MAIN: it calls mix_run() itself), which gives the reference
 * checksum.  The only thing a guest shim provides is bench_putc(); returning
 * from main() ends the run the platform's way.
 *
 * The workload is endian-neutral (data written as one type is only read as
 * that type; copies move bytes) and uses no library calls; build it with
 * -fno-tree-loop-distribute-patterns so that the compiler does not add
 * memcpy/memset calls either. */
#include "mix.h"

#ifndef MIX_ROUNDS
#define MIX_ROUNDS 600
#endif

#define BUF_BYTES 16384
#define SORT_N 4096

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

static u8 src[BUF_BYTES], dst[BUF_BYTES + 16];
static u64 wsrc[BUF_BYTES / 8], wdst[BUF_BYTES / 8];
static int arr[SORT_N];
static u32 crc_table[256];

static u64 rng(u64 *s)
{
    /* xorshift64* */
    u64 x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

static void crc_init(void)
{
    for (u32 i = 0; i < 256; i++) {
        u32 c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static u32 crc32(const u8 *p, unsigned n)
{
    u32 c = 0xffffffffu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static u32 adler32(const u8 *p, unsigned n)
{
    u32 a = 1, b = 0;
    while (n) {
        unsigned k = n < 5552 ? n : 5552;
        n -= k;
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    return (b << 16) | a;
}

static void copy_words(u64 *d, const u64 *s, unsigned n)
{
    for (; n >= 4; n -= 4, d += 4, s += 4) {
        u64 a = s[0], b = s[1], c = s[2], e = s[3];
        d[0] = a;
        d[1] = b;
        d[2] = c;
        d[3] = e;
    }
    while (n--)
        *d++ = *s++;
}

static void copy_bytes(u8 *d, const u8 *s, unsigned n)
{
    while (n--)
        *d++ = *s++;
}

/* A qsort-like sort: median of three, recursion on the smaller part,
 * insertion sort below 16 elements, comparisons through a function
 * pointer. */
typedef int (*cmp_fn)(const int *, const int *);

static int cmp_int(const int *a, const int *b) { return (*a > *b) - (*a < *b); }

static void swap_int(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

static void sort_ints(int *a, long n, cmp_fn cmp)
{
    while (n > 16) {
        long m = n / 2;
        if (cmp(&a[m], &a[0]) < 0)
            swap_int(&a[m], &a[0]);
        if (cmp(&a[n - 1], &a[m]) < 0) {
            swap_int(&a[n - 1], &a[m]);
            if (cmp(&a[m], &a[0]) < 0)
                swap_int(&a[m], &a[0]);
        }
        int pivot = a[m];
        long i = 0, j = n - 1;
        for (;;) {
            while (cmp(&a[i], &pivot) < 0)
                i++;
            while (cmp(&pivot, &a[j]) < 0)
                j--;
            if (i >= j)
                break;
            swap_int(&a[i], &a[j]);
            i++;
            j--;
        }
        long left = j + 1;
        if (left < n - left) {
            sort_ints(a, left, cmp);
            a += left;
            n -= left;
        } else {
            sort_ints(a + left, n - left, cmp);
            n = left;
        }
    }
    for (long i = 1; i < n; i++) {
        int v = a[i];
        long j = i - 1;
        while (j >= 0 && cmp(&a[j], &v) > 0) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static u64 fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static u64 ack(u64 m, u64 n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static u64 muldiv(u64 seed)
{
    u64 acc = seed, s = seed | 1;
    for (int i = 0; i < 256; i++) {
        u64 x = rng(&s), y = (rng(&s) >> (i & 31)) | 1;
        s64 sx = (s64)x, sy = (s64)(y >> 1) | 1;
        acc += x / y + x % y;
        acc ^= (u64)(sx / sy) + (u64)(sx % sy);
        acc += (u64)(((unsigned __int128)x * y) >> 64);
        acc ^= (u64)(((__int128)sx * sy) >> 64);
        acc = acc * 0x9e3779b97f4a7c15ull + (u32)x / ((u32)y | 1);
    }
    return acc;
}

static u64 round_mix(u64 seed)
{
    u64 s = seed * 0x9e3779b97f4a7c15ull + 1, r = 0;
    for (unsigned i = 0; i < BUF_BYTES; i++)
        src[i] = (u8)(rng(&s) >> 56);
    r ^= crc32(src, BUF_BYTES);
    r = (r << 7) ^ adler32(src, BUF_BYTES);

    for (unsigned i = 0; i < BUF_BYTES / 8; i++)
        wsrc[i] = rng(&s);
    copy_words(wdst, wsrc, BUF_BYTES / 8);
    u64 ws = 0;
    for (unsigned i = 0; i < BUF_BYTES / 8; i++)
        ws = ws * 31 + wdst[i];
    r += ws;
    copy_bytes(dst + 3, src + 1, BUF_BYTES - 1);
    r ^= (u64)crc32(dst + 3, BUF_BYTES - 1) << 17;

    for (int i = 0; i < SORT_N; i++)
        arr[i] = (int)(rng(&s) >> 33) - (1 << 30);
    sort_ints(arr, SORT_N, cmp_int);
    u64 ss = 0;
    for (int i = 0; i < SORT_N; i++) {
        if (i && arr[i - 1] > arr[i])
            ss += 0x5555; /* unsorted: changes the result */
        ss = ss * 33 + (u64)(s64)arr[i];
    }
    r += ss;

    r ^= fib(16 + (unsigned)(seed & 3));
    r += ack(2, 64 + (seed & 15));
    r ^= muldiv(seed);
    return r;
}

static void put_str(const char *p)
{
    while (*p)
        bench_putc(*p++);
}

static void put_hex(u64 v, int digits)
{
    for (int i = digits - 1; i >= 0; i--)
        bench_putc("0123456789abcdef"[(v >> (4 * i)) & 15]);
}

static void put_dec(u64 v)
{
    char b[24];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        bench_putc(b[--n]);
}

void mix_run(unsigned long rounds)
{
    crc_init();
    u64 sum = 0;
    for (u64 k = 1; k <= rounds; k++)
        sum = (sum << 13 | sum >> 51) ^ round_mix(k);
    put_str("mix: rounds ");
    put_dec(rounds);
    put_str(" checksum ");
    put_hex(sum, 16);
    put_str("\nmix: done\n");
}

#ifndef MIX_NO_MAIN
int main(void)
{
    mix_run(MIX_ROUNDS);
    return 0;
}
#endif
