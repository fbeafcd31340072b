/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing and reading binary state images: little-endian integers and
 * length-prefixed byte strings into a strbuf, and a reader that never runs
 * past its end (a short read sets a flag the caller checks once). */
#ifndef XBOW_IMAGE_H
#define XBOW_IMAGE_H

#include "core/common.h"
#include "core/sched.h"
#include "core/strbuf.h"

static inline void img_put(strbuf *out, uint64_t v, unsigned n)
{
    uint8_t b[8];
    store_le(b, n, v);
    sb_append(out, b, n);
}
static inline void img_put64(strbuf *out, uint64_t v) { img_put(out, v, 8); }
/* u32 length, then the bytes. */
static inline void img_put_bytes(strbuf *out, const void *p, size_t n)
{
    img_put(out, n, 4);
    sb_append(out, p, n);
}

typedef struct img_reader {
    const uint8_t *p, *end;
    bool short_read;
} img_reader;

static inline void img_reader_init(img_reader *r, const void *p, size_t len)
{
    r->p = p;
    r->end = r->p + len;
    r->short_read = false;
}
static inline size_t img_left(const img_reader *r) { return (size_t)(r->end - r->p); }
static inline uint64_t img_get(img_reader *r, unsigned n)
{
    if (img_left(r) < n) {
        r->short_read = true;
        r->p = r->end;
        return 0;
    }
    uint64_t v = load_le(r->p, n);
    r->p += n;
    return v;
}
static inline uint64_t img_get64(img_reader *r) { return img_get(r, 8); }
/* A u32-prefixed byte string: its bytes (NULL on a short read) and length. */
static inline const uint8_t *img_get_bytes(img_reader *r, size_t *len)
{
    size_t n = (size_t)img_get(r, 4);
    if (r->short_read || img_left(r) < n) {
        r->short_read = true;
        r->p = r->end;
        *len = 0;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    *len = n;
    return p;
}

/* A timer: u8 pending, u64 when, u64 seq (the order among timers due at
 * the same tick). */
typedef struct img_timer {
    uint8_t pending;
    uint64_t when, seq;
} img_timer;
static inline void img_put_timer(strbuf *out, const timer *t)
{
    img_put(out, t->pending, 1);
    img_put64(out, t->pending ? t->when : 0);
    img_put64(out, t->pending ? t->seq : 0);
}
/* 0, or -1 when the pending flag is not a flag. */
static inline int img_get_timer(img_reader *r, img_timer *t)
{
    t->pending = (uint8_t)img_get(r, 1);
    t->when = img_get64(r);
    t->seq = img_get64(r);
    return t->pending > 1 ? -1 : 0;
}
static inline void img_timer_apply(sched *s, timer *t, const img_timer *it)
{
    if (it->pending)
        timer_restore(s, t, it->when, it->seq);
    else
        timer_del(s, t);
}

#endif
