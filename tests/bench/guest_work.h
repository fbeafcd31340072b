/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark workload: a sieve, an insertion sort, a string hash and a
 * linked-list walk.  Included by the guest (guest_loop.c) and by the host
 * harness (cpu_bench.c), which computes the same rounds natively to check
 * the emulated results. */
#define N_SIEVE 8192
#define N_SORT 256
#define N_LIST 512

static unsigned char sieve[N_SIEVE];
static int arr[N_SORT];
static struct node {
    struct node *next;
    unsigned long val;
} nodes[N_LIST];
static const char text[] = "The quick brown fox jumps over the lazy dog; SGI Origin 200, IP27.";

static unsigned long do_sieve(void)
{
    unsigned long count = 0;
    for (int i = 0; i < N_SIEVE; i++)
        sieve[i] = 1;
    for (int i = 2; i < N_SIEVE; i++) {
        if (!sieve[i])
            continue;
        count++;
        for (int j = i + i; j < N_SIEVE; j += i)
            sieve[j] = 0;
    }
    return count;
}

static unsigned long do_sort(unsigned long seed)
{
    for (int i = 0; i < N_SORT; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        arr[i] = (int)(seed >> 33);
    }
    for (int i = 1; i < N_SORT; i++) {
        int v = arr[i], j = i - 1;
        while (j >= 0 && arr[j] > v) {
            arr[j + 1] = arr[j];
            j--;
        }
        arr[j + 1] = v;
    }
    return (unsigned long)arr[N_SORT / 2];
}

static unsigned long do_hash(void)
{
    unsigned long h = 5381;
    for (int k = 0; k < 64; k++)
        for (const char *p = text; *p; p++)
            h = (h << 5) + h + (unsigned char)*p;
    return h;
}

static unsigned long do_list(void)
{
    for (int i = 0; i < N_LIST; i++) {
        nodes[i].next = &nodes[(i * 7 + 3) % N_LIST];
        nodes[i].val = (unsigned long)i * 3;
    }
    unsigned long s = 0;
    struct node *n = &nodes[0];
    for (int i = 0; i < 4 * N_LIST; i++) {
        s += n->val;
        n = n->next;
    }
    return s;
}

/* 64- and 32-bit multiply/divide, variable shifts, and packed (unaligned)
 * fields: GCC emits DMULT(U)/DDIV(U)/MULT/DIV and LDL/LDR/SDL/SDR/LWL/LWR/SWL/
 * SWR for these.  Divisors are kept positive and nonzero (no host traps). */
struct __attribute__((packed)) pk {
    char c;
    unsigned long v;
    unsigned int w;
    unsigned short h;
};
static struct pk pks[64];

static unsigned long do_arith(unsigned long seed)
{
    unsigned long acc = seed;
    for (int i = 0; i < 64; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long a = seed, b = (seed >> 17) | 1;
        long sa = (long)a, sb = (long)((b ^ (seed << 40)) & 0x7fffffffffffffffull) | 1;
        acc += a / b + a % b;
        acc ^= (unsigned long)(sa / sb) + (unsigned long)(sa % sb);
        acc += (unsigned int)a / ((unsigned int)b | 1) +
               (unsigned long)((int)a / (((int)b & 0x7fffffff) | 1));
        acc ^= (a << (b & 63)) ^ (a >> (seed & 63)) ^ (unsigned long)(sa >> (b & 63));
        acc += (unsigned long)(((unsigned __int128)a * b) >> 64);
        acc ^= (unsigned long)(((__int128)sa * sb) >> 64);
        acc += (unsigned long)(long)(int)((unsigned int)a * (unsigned int)b);
        pks[i].v = acc;
        pks[i].w = (unsigned int)a;
        pks[i].h = (unsigned short)b;
        pks[i].c = (char)b;
    }
    for (int i = 0; i < 64; i++)
        acc += (pks[i].v ^ pks[i].w) + pks[i].h + (unsigned long)pks[(i * 5) & 63].c;
    return acc;
}

/* Double precision: add, multiply, divide, compare-and-branch, long<->double
 * conversions (the n64 ABI: Status.FR = 1).  Only + - * / and conversions,
 * which IEEE rounds the same on the host. */
static double fl[64];

static unsigned long do_float(unsigned long seed)
{
    double acc = 1.0;
    for (int i = 0; i < 64; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double x = (double)(long)(seed >> 11) / 9007199254740992.0;
        double y = (double)(long)(seed & 0xfffff) + 0.5;
        fl[i] = x * y + acc / (y + 1.0);
        if (fl[i] > acc)
            acc = fl[i] - acc * 0.25;
        else
            acc += x;
    }
    long r = 0;
    for (int i = 0; i < 64; i++)
        r += (long)(fl[i] * 1000.0);
    union {
        double d;
        unsigned long u;
    } u = {acc};
    return (unsigned long)r ^ u.u;
}

static unsigned long work_round(unsigned long seed)
{
    unsigned long r = do_sieve();
    r ^= do_sort(seed);
    r += do_hash();
    r ^= do_list();
    r += do_arith(seed);
    r ^= do_float(seed);
    return r;
}
