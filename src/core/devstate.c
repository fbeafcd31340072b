/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A device's state from its declaration: save, load, hash, show, compare.
 *
 * The walkers see a device as a list of leaves: each stored register (its
 * values; R_NOSTORE registers have none), then each declared field of the model's struct, parts expanded
 * ("mcr.fields").  The image dev_state_save writes:
 *
 *   "XBDS" u16 version  str class  u32 nleaves
 *   nleaves x { str path  u8 kind  u32 size  u32 count }
 *   u32 data length  data
 *
 * (str: u16 length and bytes; integers little-endian.)  The data holds the
 * leaves in order: integers as `size` bytes each, flags and line levels as
 * one byte each, byte buffers as they are, timers as {u8 pending, u64 when,
 * u64 seq} (0 when not pending), custom fields (ST_CUSTOM) as u32 length and
 * the bytes their save hook wrote (their directory size is 0). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/dev.h"
#include "core/image.h"

#define IMAGE_MAGIC "XBDS"
#define IMAGE_VERSION 1
#define KIND_REG 0   /* a register array's stored values (8 bytes each) */
#define KIND_MORE 99 /* show: the elements of a part array left out */
#define TIMER_BYTES 17
#define SHOW_PARTS 2 /* elements of a part array `info device-state` lists */

/* What a walk visits besides the saved leaves. */
enum {
    WALK_WIRING = 1,
    WALK_BRIEF = 2,  /* part arrays: the first SHOW_PARTS */
    WALK_NOPATH = 4, /* the callback does not read leaf.path (left empty): hashing and
                        saving every device at every step formatted paths mostly */
};

typedef struct leaf {
    char path[96];
    unsigned kind; /* enum state_kind, or KIND_REG */
    uint32_t size, count;
    uint8_t *p;
    uint8_t *field;         /* the field in the struct (ST_BUFFER: the pointer; else p) */
    uint32_t span;          /* its bytes in the struct */
    uint8_t *base;          /* the struct the row's table describes (ST_CUSTOM) */
    const state_decl *decl; /* NULL for registers */
} leaf;

typedef void (*leaf_fn)(void *ctx, const leaf *l);


static uint32_t elems(uint32_t count) { return count ? count : 1; }

static void walk_table(const state_table *t, uint8_t *base, const char *prefix, unsigned how,
                       leaf_fn fn, void *ctx)
{
    for (unsigned i = 0; i < t->n; i++) {
        const state_decl *s = &t->decls[i];
        if (s->kind == ST_WIRING && !(how & WALK_WIRING))
            continue;
        if (s->kind == ST_PART) {
            for (uint32_t k = 0; k < elems(s->count); k++) {
                if ((how & WALK_BRIEF) && k == SHOW_PARTS) {
                    leaf more = {.kind = KIND_MORE, .count = s->count - k, .decl = s};
                    snprintf(more.path, sizeof more.path, "%s%s[%u..%u]", prefix, s->name, k,
                             s->count - 1);
                    fn(ctx, &more);
                    break;
                }
                char sub[96] = "";
                if (!(how & WALK_NOPATH)) {
                    if (s->count > 1)
                        snprintf(sub, sizeof sub, "%s%s[%u].", prefix, s->name, k);
                    else
                        snprintf(sub, sizeof sub, "%s%s.", prefix, s->name);
                }
                walk_table(s->part, base + s->offset + k * s->size, sub, how, fn, ctx);
            }
            continue;
        }
        leaf l = {.kind = s->kind,
                  .size = s->size,
                  .count = elems(s->count),
                  .p = base + s->offset,
                  .field = base + s->offset,
                  .base = base,
                  .decl = s};
        l.span = s->kind == ST_BYTES ? s->size : s->size * l.count;
        if (s->kind == ST_CUSTOM)
            l.size = 0; /* the image says how long it is */
        if (s->kind == ST_BUFFER) {
            memcpy(&l.p, base + s->offset, sizeof l.p);
            l.size = (uint32_t)load_host(base + s->len_offset, s->len_size);
            if (!l.p)
                l.size = 0;
        }
        if (!(how & WALK_NOPATH))
            snprintf(l.path, sizeof l.path, "%s%s", prefix, s->name);
        fn(ctx, &l);
    }
}

static void walk(device *d, unsigned how, leaf_fn fn, void *ctx)
{
    for (unsigned i = 0; i < d->cls->nregs; i++) {
        const reg_decl *r = &d->cls->regs[i];
        if (r->rules & R_NOSTORE) /* no stored value: the model's fields hold it */
            continue;
        leaf l = {.kind = KIND_REG,
                  .size = 8,
                  .count = r->count > 1 ? r->count : 1,
                  .p = (uint8_t *)&d->rv[d->slot[i]]};
        if (!(how & WALK_NOPATH))
            snprintf(l.path, sizeof l.path, "reg.%s", r->name);
        fn(ctx, &l);
    }
    if (d->priv && d->cls->state.n)
        walk_table(&d->cls->state, d->priv, "", how, fn, ctx);
}

/* A declaration the walkers cannot handle is a bug in the model: the
 * reason, or NULL. */
static const char *table_problem(const state_table *t, char *buf, size_t len)
{
    for (unsigned i = 0; i < t->n; i++) {
        const state_decl *s = &t->decls[i];
        uint32_t n = elems(s->count);
        bool ok;
        switch (s->kind) {
        case ST_INT: ok = s->size == 1 || s->size == 2 || s->size == 4 || s->size == 8; break;
        case ST_BOOL:
        case ST_LINE: ok = s->size == 1; break;
        case ST_TIMER: ok = s->size == sizeof(timer); break;
        case ST_PART: ok = s->part && s->part->size == s->size; break;
        case ST_BYTES:
        case ST_WIRING: ok = s->size > 0; break;
        case ST_CUSTOM:
            ok = s->size > 0 && s->count <= 1 && s->ops && s->ops->save && s->ops->check &&
                 s->ops->load;
            break;
        case ST_BUFFER:
            ok = s->size == sizeof(void *) &&
                 (s->len_size == 1 || s->len_size == 2 || s->len_size == 4 || s->len_size == 8) &&
                 s->len_offset + s->len_size <= t->size;
            break;
        default: ok = false; break;
        }
        if (!ok || !s->name || (uint64_t)s->offset + (uint64_t)s->size * n > t->size) {
            snprintf(buf, len, "state field %s: kind %u, %u bytes x %u at %u does not fit",
                     s->name ? s->name : "(unnamed)", s->kind, s->size, n, s->offset);
            return buf;
        }
        if (s->kind == ST_PART) {
            const char *why = table_problem(s->part, buf, len);
            if (why)
                return why;
        }
    }
    return NULL;
}

const char *dev_state_problem(const device_class *cls, char *buf, size_t len)
{
    return cls->state.n ? table_problem(&cls->state, buf, len) : NULL;
}

/* ---- encoding ---------------------------------------------------------------- */

static size_t leaf_bytes(const leaf *l)
{
    switch (l->kind) {
    case ST_BOOL:
    case ST_LINE: return l->count;
    case ST_TIMER: return (size_t)TIMER_BYTES * l->count;
    case ST_CUSTOM: return 4; /* at least: the length */
    default: return (size_t)l->size * l->count;
    }
}

/* The bytes of leaf l's values at p in an image (ST_CUSTOM: its length
 * and image; the length is checked by values_fn before anything else). */
static size_t leaf_data_bytes(const leaf *l, const uint8_t *p)
{
    return l->kind == ST_CUSTOM ? 4 + (size_t)load_le(p, 4) : leaf_bytes(l);
}


static void put_str(strbuf *out, const char *s)
{
    size_t n = strlen(s);
    img_put(out, n, 2);
    sb_append(out, s, n);
}

/* The leaf's values as the image holds them. */
static void leaf_encode(const leaf *l, strbuf *out)
{
    for (uint32_t k = 0; k < l->count; k++) {
        switch (l->kind) {
        case ST_BOOL:
        case ST_LINE: img_put(out, l->p[k] != 0, 1); break;
        case ST_BYTES:
        case ST_BUFFER: sb_append(out, l->p, l->size); return;
        case ST_CUSTOM: {
            strbuf img;
            sb_init(&img);
            l->decl->ops->save(l->base, &img);
            img_put(out, img.len, 4);
            sb_append(out, img.s, img.len);
            sb_free(&img);
            return;
        }
        case ST_TIMER: {
            const timer *t = (const timer *)(l->p + k * sizeof(timer));
            img_put(out, t->pending, 1);
            img_put(out, t->pending ? t->when : 0, 8);
            img_put(out, t->pending ? t->seq : 0, 8);
            break;
        }
        default: img_put(out, load_host(l->p + k * l->size, l->size), l->size); break;
        }
    }
}

static void dir_fn(void *ctx, const leaf *l)
{
    strbuf *out = ctx;
    put_str(out, l->path);
    img_put(out, l->kind, 1);
    img_put(out, l->size, 4);
    img_put(out, l->count, 4);
}

static void count_fn(void *ctx, const leaf *l)
{
    (void)l;
    (*(unsigned *)ctx)++;
}

static void data_fn(void *ctx, const leaf *l) { leaf_encode(l, ctx); }

static void encode_data(device *d, strbuf *out) { walk(d, WALK_NOPATH, data_fn, out); }

void dev_state_save(device *d, strbuf *out)
{
    sb_append(out, IMAGE_MAGIC, 4);
    img_put(out, IMAGE_VERSION, 2);
    put_str(out, d->cls->name);
    unsigned n = 0;
    walk(d, WALK_NOPATH, count_fn, &n);
    img_put(out, n, 4);
    walk(d, 0, dir_fn, out);
    strbuf data;
    sb_init(&data);
    encode_data(d, &data);
    img_put(out, data.len, 4);
    sb_append(out, data.s, data.len);
    sb_free(&data);
}

static void stop_fn(void *ctx, const leaf *l)
{
    if (l->kind == ST_TIMER)
        for (uint32_t k = 0; k < l->count; k++)
            timer_del(ctx, (timer *)(l->p + k * sizeof(timer)));
}

void dev_state_stop_timers(device *d) { walk(d, WALK_NOPATH, stop_fn, d->clock); }

uint64_t dev_state_hash(device *d)
{
    strbuf data;
    sb_init(&data);
    encode_data(d, &data);
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const char *c = d->cls->name; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
    for (size_t i = 0; i < data.len; i++)
        h = (h ^ (uint8_t)data.s[i]) * 0x100000001b3ull;
    sb_free(&data);
    return h;
}

/* ---- loading --------------------------------------------------------------------- */

/* A string of the image into buf (cut to fit: a compare then fails). */
static void get_str(img_reader *r, char *buf, size_t len)
{
    size_t n = (size_t)img_get(r, 2);
    if ((size_t)(r->end - r->p) < n) {
        r->short_read = true;
        r->p = r->end;
        n = 0;
    }
    size_t keep = n < len - 1 ? n : len - 1;
    memcpy(buf, r->p, keep);
    buf[keep] = 0;
    r->p += n;
}

/* Text from an image goes into one-line messages: no control bytes. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            *s = '?';
}

/* What the walks that check an image share: the first error stops them. */
typedef struct image_check {
    xerr *err;
    const char *dev;
    bool bad;
} image_check;

/* "DEV: field "PATH"..." in err, and the walk goes no further. */
static void refuse(image_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(image_check *c, const char *fmt, ...)
{
    char why[XERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    xerr_set(c->err, "%s: %s", c->dev, why);
    c->bad = true;
}

/* Compares the image's directory with the device's, leaf by leaf. */
typedef struct dir_check {
    image_check chk;
    img_reader *r;
    bool custom; /* a custom leaf: data_len is the least the data holds */
    size_t data_len;
} dir_check;

static void check_fn(void *ctx, const leaf *l)
{
    dir_check *c = ctx;
    if (c->chk.bad)
        return;
    char path[96];
    get_str(c->r, path, sizeof path);
    unsigned kind = (unsigned)img_get(c->r, 1);
    uint32_t size = (uint32_t)img_get(c->r, 4), count = (uint32_t)img_get(c->r, 4);
    if (c->r->short_read)
        return;
    if (strcmp(path, l->path) != 0) {
        printable(path);
        refuse(&c->chk, "the state image has field \"%s\" where \"%s\" is declared", path, l->path);
    } else if (kind != l->kind || size != l->size || count != l->count) {
        refuse(&c->chk,
               "field \"%s\" is kind %u, %u bytes x %u in the state image, kind %u, %u x %u "
               "declared",
               path, kind, size, count, l->kind, l->size, l->count);
    }
    c->data_len += leaf_bytes(l);
    c->custom |= l->kind == ST_CUSTOM;
}

/* Checks the values of the flags and timers before anything is stored. */
typedef struct data_check {
    image_check chk;
    const uint8_t *p, *end;
} data_check;

static void values_fn(void *ctx, const leaf *l)
{
    data_check *c = ctx;
    if (c->chk.bad)
        return;
    size_t left = (size_t)(c->end - c->p);
    if (l->kind == ST_CUSTOM) {
        size_t len = left < 4 ? 0 : (size_t)load_le(c->p, 4);
        xerr why = {0};
        if (left < 4 || len > left - 4)
            refuse(&c->chk, "field \"%s\" runs past the end of the state image", l->path);
        else if (l->decl->ops->check(l->base, c->p + 4, len, &why) < 0)
            refuse(&c->chk, "field \"%s\": %s", l->path, why.msg);
    } else if (left < leaf_bytes(l)) {
        refuse(&c->chk, "field \"%s\" runs past the end of the state image", l->path);
    }
    if (c->chk.bad)
        return;
    if ((l->kind == ST_BOOL || l->kind == ST_LINE || l->kind == ST_TIMER)) {
        size_t step = l->kind == ST_TIMER ? TIMER_BYTES : 1;
        for (uint32_t k = 0; k < l->count && !c->chk.bad; k++)
            if (c->p[k * step] > 1)
                refuse(&c->chk, "field \"%s\"[%u] holds %u, not a flag", l->path, k,
                       c->p[k * step]);
    }
    c->p += leaf_data_bytes(l, c->p);
}

typedef struct apply {
    const uint8_t *p;
    device *d;
} apply;

static void apply_fn(void *ctx, const leaf *l)
{
    apply *a = ctx;
    for (uint32_t k = 0; k < l->count; k++) {
        switch (l->kind) {
        case ST_BOOL:
        case ST_LINE: l->p[k] = a->p[k] != 0; break;
        case ST_BYTES:
        case ST_BUFFER: memcpy(l->p, a->p, l->size); break;
        case ST_CUSTOM: l->decl->ops->load(l->base, a->p + 4, (size_t)load_le(a->p, 4)); break;
        case ST_TIMER: {
            timer *t = (timer *)(l->p + k * sizeof(timer));
            const uint8_t *e = a->p + k * TIMER_BYTES;
            if (e[0])
                timer_restore(a->d->clock, t, load_le(e + 1, 8), load_le(e + 9, 8));
            else
                timer_del(a->d->clock, t);
            break;
        }
        default:
            store_host(l->p + k * l->size, l->size, load_le(a->p + k * l->size, l->size));
            break;
        }
        if (l->kind == ST_BYTES || l->kind == ST_BUFFER || l->kind == ST_CUSTOM)
            break;
    }
    a->p += leaf_data_bytes(l, a->p);
}

/* Checks the whole image; on success *data is where its data starts. */
static int check_image(device *d, const void *img, size_t len, const uint8_t **data, xerr *err)
{
    img_reader r;
    img_reader_init(&r, img, len);
    if (len < 6 || memcmp(img, IMAGE_MAGIC, 4) != 0)
        return xerr_fail(err, "%s: not a device state image", d->name);
    r.p += 4;
    unsigned version = (unsigned)img_get(&r, 2);
    if (version != IMAGE_VERSION)
        return xerr_fail(err, "%s: state image version %u, this xbow reads version %u", d->name,
                         version, IMAGE_VERSION);
    char cls[64];
    get_str(&r, cls, sizeof cls);
    printable(cls);
    if (!r.short_read && strcmp(cls, d->cls->name) != 0)
        return xerr_fail(err, "%s: the state image is of a %s, this device is a %s", d->name, cls,
                         d->cls->name);
    unsigned n = (unsigned)img_get(&r, 4), have = 0;
    walk(d, WALK_NOPATH, count_fn, &have);
    if (!r.short_read && n != have)
        return xerr_fail(err, "%s: the state image has %u fields, %u are declared", d->name, n,
                         have);
    dir_check dc = {.chk = {err, d->name, false}, .r = &r};
    walk(d, 0, check_fn, &dc);
    if (dc.chk.bad)
        return -1;
    size_t data_len = (size_t)img_get(&r, 4);
    if (r.short_read || (dc.custom ? data_len < dc.data_len : data_len != dc.data_len) ||
        (size_t)(r.end - r.p) < data_len)
        return xerr_fail(err, "%s: the state image is truncated or its data has the wrong size",
                         d->name);
    if ((size_t)(r.end - r.p) != data_len)
        return xerr_fail(err, "%s: %zu bytes after the end of the state image", d->name,
                         (size_t)(r.end - r.p) - data_len);
    data_check vc = {.chk = {err, d->name, false}, .p = r.p, .end = r.p + data_len};
    walk(d, 0, values_fn, &vc);
    if (vc.chk.bad)
        return -1;
    if (vc.p != vc.end)
        return xerr_fail(err, "%s: the state image's data has %zu bytes its fields do not use",
                         d->name, (size_t)(vc.end - vc.p));
    *data = r.p;
    return 0;
}

int dev_state_check(device *d, const void *img, size_t len, xerr *err)
{
    const uint8_t *data;
    return check_image(d, img, len, &data, err);
}

int dev_state_load(device *d, const void *img, size_t len, xerr *err)
{
    const uint8_t *data;
    if (check_image(d, img, len, &data, err) != 0)
        return -1;
    apply a = {.p = data, .d = d};
    walk(d, WALK_NOPATH, apply_fn, &a);
    return 0;
}

/* ---- showing ---------------------------------------------------------------------- */

static const char *kind_name(unsigned kind)
{
    static const char *const names[] = {
        [KIND_REG] = "reg",     [ST_INT] = "int",       [ST_BOOL] = "bool",
        [ST_LINE] = "line",     [ST_BYTES] = "bytes",   [ST_TIMER] = "timer",
        [ST_PART] = "part",     [ST_WIRING] = "wiring", [ST_BUFFER] = "buffer",
        [ST_CUSTOM] = "custom", [KIND_MORE] = "parts",
    };
    return kind < ARRAY_SIZE(names) && names[kind] ? names[kind] : "?";
}

typedef struct show_ctx {
    device *d;
    strbuf *out;
} show_ctx;

#define SHOW_MAX 16 /* elements of an array shown; the rest summed up */

static void show_fn(void *ctx, const leaf *l)
{
    show_ctx *c = ctx;
    strbuf *out = c->out;
    sb_printf(out, "  %-24s %-6s ", l->path, kind_name(l->kind));
    uint32_t shown = l->count < SHOW_MAX ? l->count : SHOW_MAX;
    switch (l->kind) {
    case ST_WIRING: sb_printf(out, "not state: %s", l->decl->desc ? l->decl->desc : ""); break;
    case KIND_MORE: sb_printf(out, "%u more, as the ones above", l->count); break;
    case ST_CUSTOM: {
        strbuf img;
        sb_init(&img);
        l->decl->ops->save(l->base, &img);
        for (size_t i = 0; i < img.len && i < SHOW_MAX; i++)
            sb_printf(out, "%02x", (uint8_t)img.s[i]);
        sb_printf(out, "%s (%zu bytes of image)", img.len > SHOW_MAX ? "..." : "", img.len);
        sb_free(&img);
        break;
    }
    case ST_BYTES:
    case ST_BUFFER: {
        uint32_t nz = 0;
        for (uint32_t i = 0; i < l->size; i++)
            nz += l->p[i] != 0;
        for (uint32_t i = 0; i < l->size && i < SHOW_MAX; i++)
            sb_printf(out, "%02x", l->p[i]);
        sb_printf(out, "%s (%u bytes, %u not 0)", l->size > SHOW_MAX ? "..." : "", l->size, nz);
        break;
    }
    case ST_TIMER:
        for (uint32_t k = 0; k < shown; k++) {
            const timer *t = (const timer *)(l->p + k * sizeof(timer));
            if (k)
                sb_puts(out, ", ");
            if (t->pending)
                sb_printf(out, "due at %llu (in %lld), order %llu", (unsigned long long)t->when,
                          (long long)(t->when - c->d->clock->now), (unsigned long long)t->seq);
            else
                sb_puts(out, "idle");
        }
        break;
    default:
        for (uint32_t k = 0; k < shown; k++) {
            uint64_t v = l->kind == ST_BOOL || l->kind == ST_LINE
                             ? l->p[k]
                             : load_host(l->p + k * l->size, l->size);
            sb_printf(out, k ? " 0x%llx" : "0x%llx", (unsigned long long)v);
        }
        break;
    }
    if (l->kind != ST_BYTES && l->kind != ST_BUFFER && l->kind != ST_CUSTOM &&
        l->kind != KIND_MORE && l->count > shown)
        sb_printf(out, " ... (%u)", l->count);
    if (l->kind != ST_WIRING && l->decl && l->decl->desc)
        sb_printf(out, "  -- %s", l->decl->desc);
    sb_putc(out, '\n');
}

void dev_state_show(device *d, strbuf *out)
{
    strbuf img;
    sb_init(&img);
    dev_state_save(d, &img);
    sb_printf(out, "%s (%s): state hash %016llx, image %zu bytes\n", d->name, d->cls->name,
              (unsigned long long)dev_state_hash(d), img.len);
    sb_free(&img);
    show_ctx c = {d, out};
    walk(d, WALK_WIRING | WALK_BRIEF, show_fn, &c);
    if (!d->cls->state.n)
        sb_puts(out, "  (the model declares no state beyond its registers)\n");
}

/* ---- comparing ------------------------------------------------------------------- */

typedef struct diff_ctx {
    device *b;
    uint8_t *covered; /* per byte of the model's struct: some field declares it */
    const uint8_t *base;
    bool differs;
    strbuf *why;
    /* b's leaves, collected first */
    leaf *bl;
    unsigned nb, ib, cap;
} diff_ctx;

static void collect_fn(void *ctx, const leaf *l)
{
    diff_ctx *c = ctx;
    if (c->nb == c->cap) { /* (doubling: a NIC has thousands of leaves) */
        c->cap = c->cap ? 2 * c->cap : 64;
        c->bl = xrealloc(c->bl, c->cap * sizeof *c->bl);
    }
    c->bl[c->nb++] = *l;
}

static void cover_fn(void *ctx, const leaf *l)
{
    diff_ctx *c = ctx;
    if (l->kind == KIND_REG)
        return;
    memset(c->covered + (l->field - c->base), 1, l->span);
}

static void compare_fn(void *ctx, const leaf *l)
{
    diff_ctx *c = ctx;
    const leaf *o = &c->bl[c->ib++];
    if (c->differs || l->kind == ST_WIRING)
        return;
    strbuf x, y;
    sb_init(&x);
    sb_init(&y);
    leaf_encode(l, &x);
    leaf_encode(o, &y);
    if (x.len != y.len || memcmp(x.s, y.s, x.len) != 0) {
        size_t i = 0;
        while (i < x.len && x.s[i] == y.s[i])
            i++;
        sb_printf(c->why, "field %s differs (byte %zu of its image)", l->path, i);
        c->differs = true;
    }
    sb_free(&x);
    sb_free(&y);
}

/* Name the field before offset `off` of the struct (for a message). */
typedef struct near_ctx {
    const uint8_t *base;
    size_t off;
    char before[96];
    size_t best;
} near_ctx;

static void near_fn(void *ctx, const leaf *l)
{
    near_ctx *n = ctx;
    size_t at = (size_t)(l->field - n->base);
    if (l->kind != KIND_REG && at <= n->off && (!n->before[0] || at >= n->best)) {
        snprintf(n->before, sizeof n->before, "%s", l->path);
        n->best = at;
    }
}

int dev_state_diff(device *a, device *b, strbuf *why)
{
    if (a->cls != b->cls) {
        sb_printf(why, "%s is a %s, %s a %s", a->name, a->cls->name, b->name, b->cls->name);
        return -1;
    }
    diff_ctx c = {.b = b, .why = why};
    walk(b, WALK_WIRING | WALK_NOPATH, collect_fn, &c); /* a's leaves name the field */
    walk(a, WALK_WIRING, compare_fn, &c);
    free(c.bl);
    if (c.differs)
        return -1;
    uint32_t size = a->cls->state.size;
    if (!a->priv || !b->priv || !size)
        return 0;
    c.covered = xcalloc(size, 1);
    c.base = a->priv;
    walk(a, WALK_WIRING | WALK_NOPATH, cover_fn, &c);
    const uint8_t *pa = a->priv, *pb = b->priv;
    int rc = 0;
    for (size_t i = 0; i < size; i++) {
        if (c.covered[i] || pa[i] == pb[i])
            continue;
        size_t end = i;
        while (end < size && !c.covered[end])
            end++;
        near_ctx n = {.base = a->priv, .off = i};
        walk(a, WALK_WIRING, near_fn, &n);
        sb_printf(why,
                  "byte %zu of the %s struct (undeclared bytes %zu..%zu, after field %s) "
                  "differs: state the declaration misses",
                  i, a->cls->name, i, end - 1, n.before[0] ? n.before : "(none)");
        rc = -1;
        break;
    }
    free(c.covered);
    return rc;
}
