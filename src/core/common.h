/* Common helpers used across xbow: integer types, branch hints, byte order. */
#ifndef XBOW_COMMON_H
#define XBOW_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED(x) ((void)(x))
#define container_of(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define BIT(n) (1ull << (n))
#define MASK(w) ((w) >= 64 ? ~0ull : (1ull << (w)) - 1)
#define EXTRACT(v, lsb, w) (((v) >> (lsb)) & MASK(w))

static inline uint16_t bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* Reverse the byte order of the low `size` bytes of v (size 1, 2, 4 or 8). */
static inline uint64_t bswap_n(uint64_t v, unsigned size)
{
    switch (size) {
    case 2: return bswap16((uint16_t)v);
    case 4: return bswap32((uint32_t)v);
    case 8: return bswap64(v);
    default: return v & 0xff;
    }
}

/* Load/store a big- or little-endian value of `size` bytes from host memory. */
static inline uint64_t load_be(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v = (v << 8) | p[i];
    return v;
}
static inline void store_be(uint8_t *p, unsigned size, uint64_t v)
{
    for (unsigned i = size; i-- > 0;) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}
static inline uint64_t load_le(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = size; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}
static inline void store_le(uint8_t *p, unsigned size, uint64_t v)
{
    for (unsigned i = 0; i < size; i++) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* Fast big-endian loads from host memory (the guest is big-endian). */
static inline uint32_t ldbe32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return bswap32(v);
}
static inline uint64_t ldbe64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return bswap64(v);
}
static inline void stbe32(void *p, uint32_t v)
{
    v = bswap32(v);
    memcpy(p, &v, 4);
}
static inline void stbe64(void *p, uint64_t v)
{
    v = bswap64(v);
    memcpy(p, &v, 8);
}

static inline int64_t sext32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }

#endif
