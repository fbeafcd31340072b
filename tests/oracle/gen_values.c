/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generator's random numbers and operand values: xoshiro256** seeded
 * by splitmix64 (reproducible from one 64-bit seed), and the integer and
 * floating-point values worth testing (MIPS legacy NaN encoding: a NaN whose
 * top fraction bit is set is signalling). */
#include "oracle_gen.h"

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void orc_rng_seed(orc_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t orc_rng_next(orc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

unsigned rnd(orc_rng *r, unsigned n) { return n ? (unsigned)(orc_rng_next(r) % n) : 0; }
bool chance(orc_rng *r, unsigned percent) { return rnd(r, 100) < percent; }

static uint64_t se_val(uint64_t v) { return (uint64_t)(int64_t)(int32_t)(uint32_t)v; }

uint64_t val_int(orc_rng *r, bool se)
{
    static const uint64_t special[] = {
        0,
        1,
        2,
        3,
        0xffffffffffffffffull,
        0xfffffffffffffffeull,
        0x7fffffffull,
        0xffffffff80000000ull,
        0x7ffffffeull,
        0xffffffff80000001ull,
        0xffffffffffff8000ull,
        0x7fffull,
        0x8000ull,
        0xffffull,
        0x00000000ffffffffull,
        0x0000000080000000ull,
        0x7fffffffffffffffull,
        0x8000000000000000ull,
        0x0000000100000000ull,
        0x00000000fffffffeull,
        0xffffffff00000000ull,
        0x8000000080000000ull,
    };
    uint64_t v;
    switch (rnd(r, 8)) {
    case 0:
    case 1: v = (uint64_t)(int64_t)((int)rnd(r, 65) - 32); break;
    case 2:
    case 3: v = special[rnd(r, ARRAY_SIZE(special))]; break;
    case 4: v = orc_rng_next(r) >> rnd(r, 64); break;
    case 5:
        v = (uint64_t)1 << rnd(r, 64);
        if (chance(r, 50))
            v = ~v + (chance(r, 50) ? 1 : 0);
        break;
    default: v = orc_rng_next(r); break;
    }
    return se ? se_val(v) : v;
}

uint32_t val_f32(orc_rng *r)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000,             /* zeros, infinities */
        0x7fbfffff, 0x7f800001, 0xffa00000, 0x7f812345,             /* quiet NaNs */
        0x7fc00000, 0x7fffffff, 0xffc00001, 0x7fe00000,             /* signalling NaNs */
        0x00000001, 0x007fffff, 0x80400000, 0x00012345,             /* denormals */
        0x00800000, 0x80800000, 0x00800001, 0x01000000, 0x0c000000, /* tiny normals */
        0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7e800000,             /* huge */
        0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x40400000,
        0x3dcccccd, 0x3eaaaaab, 0x4f000000, 0xcf000000, 0x4effffff, 0xcf000001, 0x5f000000,
        0xdf000000, 0x5effffff, 0x4b800000, 0x4b7fffff, 0x3effffff, 0x3f7fffff, 0x40000000,
    };
    switch (rnd(r, 6)) {
    case 0:
    case 1:
    case 2: return special[rnd(r, ARRAY_SIZE(special))];
    case 3: /* moderate magnitudes, where sums and products stay normal */
        return (uint32_t)(rnd(r, 2) << 31) | ((uint32_t)(100 + rnd(r, 55)) << 23) |
               (uint32_t)(orc_rng_next(r) & 0x7fffff);
    case 4: { /* small integers and halves */
        float f = (float)((int)rnd(r, 41) - 20) / (chance(r, 50) ? 1.0f : 2.0f);
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    default: return (uint32_t)orc_rng_next(r);
    }
}

uint64_t val_f64(orc_rng *r)
{
    static const uint64_t special[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff7ffffffffffffull, 0x7ff0000000000001ull, 0xfff4000000000000ull, 0x7ff8000000000000ull,
        0x7fffffffffffffffull, 0xfff8000000000001ull, 0x0000000000000001ull, 0x000fffffffffffffull,
        0x8008000000000000ull, 0x0010000000000000ull, 0x8010000000000000ull, 0x0010000000000001ull,
        0x0020000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7fe0000000000000ull,
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, 0x3ff8000000000000ull,
        0x4004000000000000ull, 0xc004000000000000ull, 0x3fb999999999999aull, 0x41e0000000000000ull,
        0x41dfffffffc00000ull, 0xc1e0000000200000ull, 0xc1e0000000000000ull, 0x41dfffffffe00000ull,
        0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43dfffffffffffffull, 0x4340000000000001ull,
        0x47efffffe0000000ull, 0x47effffff0000000ull, 0x36a0000000000000ull, 0x3810000000000000ull,
        0x380fffffffffffffull, 0x3690000000000000ull, 0xc7efffffe0000001ull, 0x3fefffffffffffffull,
        0x4330000000000000ull,
    };
    switch (rnd(r, 6)) {
    case 0:
    case 1:
    case 2: return special[rnd(r, ARRAY_SIZE(special))];
    case 3:
        return ((uint64_t)rnd(r, 2) << 63) | ((uint64_t)(900 + rnd(r, 250)) << 52) |
               (orc_rng_next(r) & 0xfffffffffffffull);
    case 4: {
        double d = (double)((int)rnd(r, 41) - 20) / (chance(r, 50) ? 1.0 : 2.0);
        uint64_t u;
        memcpy(&u, &d, 8);
        return u;
    }
    default: return orc_rng_next(r);
    }
}

/* A 64-bit FPR image: a double, two singles, or integers (for CVT from W/L). */
uint64_t val_fpr(orc_rng *r)
{
    switch (rnd(r, 5)) {
    case 0:
    case 1: return val_f64(r);
    case 2:
    case 3: return ((uint64_t)val_f32(r) << 32) | val_f32(r);
    default: return val_int(r, chance(r, 50));
    }
}
