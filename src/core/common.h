/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Common helpers used across xbow: integer types, branch hints, byte order. */
#ifndef XBOW_COMMON_H
#define XBOW_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED(x) ((void)(x))
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

/* Allocation.  The x functions never return NULL: when the host is out of
 * memory they print a message and abort, as nothing sensible can go on.  A
 * size the guest or the user chooses (guest RAM from --mem, a file read
 * whole, a count typed at the prompt) is allocated with malloc or calloc
 * instead and a failure reported as an error, because that one is the
 * user's to fix.  A size of 0 allocates one byte (xcalloc: a count of 0 one
 * element), so a result is never NULL. */
void *xmalloc(size_t size) __attribute__((malloc, returns_nonnull, alloc_size(1)));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull, alloc_size(1, 2)));
void *xrealloc(void *p, size_t size) __attribute__((returns_nonnull, alloc_size(2)));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
char *xstrndup(const char *s, size_t n) __attribute__((malloc, returns_nonnull));
/* Memory aligned to `align` (a power of two); the size is rounded up to a
 * multiple of it, as aligned_alloc wants. */
void *xaligned_alloc(size_t align, size_t size) __attribute__((malloc, returns_nonnull));

/* Errors.  A function that can fail for a reason the user must read takes an
 * `xerr *err` last and, when it fails, fills it with xerr_set (and returns
 * -1 or NULL, as its comment says); the caller prints err.msg.  err may be
 * NULL when the caller does not want the text. */
#define XERR_MAX 512
typedef struct xerr {
    char msg[XERR_MAX];
} xerr;
void xerr_set(xerr *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xerr_vset(xerr *err, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* xerr_set, returning -1: `return xerr_fail(err, "...", ...);`. */
int xerr_fail(xerr *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Empty the message (callers that test err.msg[0] after a call). */
static inline void xerr_clear(xerr *err)
{
    if (err)
        err->msg[0] = 0;
}

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
/* An unsigned integer field of size 1, 2, 4 or 8 bytes in host memory (a
 * struct member described by its offset and size: state tables, options). */
static inline uint64_t load_host(const void *p, unsigned size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;
    switch (size) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&d, p, 8); return d;
    }
}
static inline void store_host(void *p, unsigned size, uint64_t v)
{
    uint8_t b = (uint8_t)v;
    uint16_t h = (uint16_t)v;
    uint32_t w = (uint32_t)v;
    switch (size) {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &h, 2); break;
    case 4: memcpy(p, &w, 4); break;
    default: memcpy(p, &v, 8); break;
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
