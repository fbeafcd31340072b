/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot file format.
 *
 *   "XBOWSNAP"  u32 format version
 *   u32 header length, header, u32 crc32 of the header
 *       header: u32-prefixed xbow version, u32-prefixed machine
 *       configuration (mconfig_text), u64 virtual time
 *   sections, each:
 *       u32 name length, name, u8 kind (0 state, 1 RAM, 2 end)
 *       u64 length, u64 compressed length, u32 crc32 of the data
 *       the data, compressed with zlib
 *   a last section "end" of kind 2 and no data.
 *
 * A state section's data is the image of a CPU, a device, a port ...
 * (snapshot.c).  A RAM section's is u64 the block's size, a bitmap of its
 * pages that are not all zero, then those pages: zero pages cost nothing.
 * Integers are little-endian.  Reading checks every section (length,
 * compressed data, crc32) and returns a snapshot only when all are good:
 * the caller then checks it against the machine before loading. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/image.h"
#include "machine/snapshot_int.h"

#define MAGIC "XBOWSNAP"
#define KIND_STATE 0
#define KIND_RAM 1
#define KIND_END 2
#define MAX_NAME 255
#define MAX_STATE_SECTION (64u << 20)
/* zlib cannot expand by more than about 1032:1: a longer claimed length
 * is a corrupted one (and would only make us allocate for nothing). */
#define MAX_RATIO 1100

/* ---- writing ---- */

typedef struct writer {
    FILE *f;
    bool failed;
} writer;

static void w_bytes(writer *w, const void *p, size_t n)
{
    if (!w->failed && n && fwrite(p, 1, n, w->f) != n)
        w->failed = true;
}

static void w_u(writer *w, uint64_t v, unsigned n)
{
    uint8_t b[8];
    store_le(b, n, v);
    w_bytes(w, b, n);
}

/* One section from up to three pieces, compressed as one stream. */
static void w_section(writer *w, const char *name, unsigned kind, const void *const *piece,
                      const size_t *plen, size_t npieces)
{
    uint64_t raw = 0;
    uint32_t crc = (uint32_t)crc32(0, NULL, 0);
    for (size_t i = 0; i < npieces; i++) {
        raw += plen[i];
        for (size_t off = 0; off < plen[i];) {
            size_t n = plen[i] - off > (1u << 30) ? (1u << 30) : plen[i] - off;
            crc = (uint32_t)crc32(crc, (const Bytef *)piece[i] + off, (uInt)n);
            off += n;
        }
    }
    w_u(w, strlen(name), 4);
    w_bytes(w, name, strlen(name));
    w_u(w, kind, 1);
    w_u(w, raw, 8);
    off_t zlen_at = ftello(w->f);
    w_u(w, 0, 8); /* compressed length: patched below */
    w_u(w, crc, 4);
    if (kind == KIND_END)
        return;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, Z_BEST_SPEED) != Z_OK) {
        w->failed = true;
        return;
    }
    uint8_t out[1 << 16];
    uint64_t zlen = 0;
    for (size_t i = 0; i <= npieces && !w->failed; i++) {
        bool last = i == npieces;
        const uint8_t *p = last ? NULL : piece[i];
        size_t left = last ? 0 : plen[i];
        do {
            size_t n = left > (1u << 30) ? (1u << 30) : left;
            z.next_in = (Bytef *)p;
            z.avail_in = (uInt)n;
            p += n;
            left -= n;
            int rc;
            do {
                z.next_out = out;
                z.avail_out = sizeof out;
                rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
                if (rc == Z_STREAM_ERROR) {
                    w->failed = true;
                    break;
                }
                size_t have = sizeof out - z.avail_out;
                w_bytes(w, out, have);
                zlen += have;
            } while (last ? rc != Z_STREAM_END : z.avail_in != 0 || z.avail_out == 0);
        } while (left && !w->failed);
    }
    deflateEnd(&z);
    off_t end = ftello(w->f);
    if (w->failed || fseeko(w->f, zlen_at, SEEK_SET) != 0) {
        w->failed = true;
        return;
    }
    w_u(w, zlen, 8);
    if (fseeko(w->f, end, SEEK_SET) != 0)
        w->failed = true;
}

int snapshot_write(const snapshot *s, const char *path, xerr *err)
{
    size_t plen = strlen(path);
    char *tmp = xmalloc(plen + 8);
    snprintf(tmp, plen + 8, "%s.tmp~", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        xerr_set(err, "%s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    writer w = {f, false};
    w_bytes(&w, MAGIC, 8);
    w_u(&w, SNAPSHOT_FORMAT_VERSION, 4);
    strbuf h;
    sb_init(&h);
    img_put_bytes(&h, s->version, strlen(s->version));
    img_put_bytes(&h, s->config, strlen(s->config));
    img_put64(&h, s->time);
    w_u(&w, h.len, 4);
    w_bytes(&w, h.s, h.len);
    w_u(&w, crc32(0, (const Bytef *)h.s, (uInt)h.len), 4);
    sb_free(&h);
    for (unsigned i = 0; i < s->nsecs && !w.failed; i++) {
        const void *p[1] = {s->secs[i].data};
        size_t l[1] = {s->secs[i].len};
        w_section(&w, s->secs[i].name, KIND_STATE, p, l, 1);
    }
    for (unsigned i = 0; i < s->nrams && !w.failed; i++) {
        const snap_ram *r = &s->rams[i];
        uint8_t size[8];
        store_le(size, 8, r->size);
        /* The size, the bitmap, then each page. */
        const void **p = xmalloc((r->nstored + 2) * sizeof *p);
        size_t *l = xmalloc((r->nstored + 2) * sizeof *l);
        p[0] = size;
        l[0] = 8;
        p[1] = r->bitmap;
        l[1] = (r->npages + 7) / 8;
        for (uint64_t k = 0; k < r->nstored; k++) {
            p[k + 2] = r->pages[k]->data;
            l[k + 2] = RAM_PAGE_SIZE;
        }
        char name[80];
        snprintf(name, sizeof name, "ram:%s", r->name);
        w_section(&w, name, KIND_RAM, p, l, r->nstored + 2);
        free(p);
        free(l);
    }
    w_section(&w, "end", KIND_END, NULL, NULL, 0);
    bool bad = w.failed || fflush(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = true;
        e = errno;
    }
    if (bad) {
        unlink(tmp);
        xerr_set(err, "%s: cannot write the snapshot: %s", path, strerror(e ? e : EIO));
    }
    free(tmp);
    return bad ? -1 : 0;
}

/* ---- reading ---- */

/* Inflate exactly n bytes into dst; -1 when the data is bad or ends early. */
static int inflate_into(z_stream *z, uint8_t *dst, size_t n)
{
    while (n) {
        size_t k = n > (1u << 30) ? (1u << 30) : n;
        z->next_out = dst;
        z->avail_out = (uInt)k;
        while (z->avail_out) {
            int rc = inflate(z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END && z->avail_out)
                return -1;
            if (rc != Z_OK && rc != Z_STREAM_END)
                return -1;
            if (rc == Z_OK && z->avail_in == 0 && z->avail_out)
                return -1;
        }
        dst += k;
        n -= k;
    }
    return 0;
}

/* After the last byte the stream must end, with no input left. */
static int inflate_done(z_stream *z)
{
    uint8_t extra;
    z->next_out = &extra;
    z->avail_out = 1;
    int rc = inflate(z, Z_FINISH);
    return rc == Z_STREAM_END && z->avail_out == 1 && z->avail_in == 0 ? 0 : -1;
}

static uint32_t crc_of(uint32_t crc, const uint8_t *p, size_t n)
{
    while (n) {
        size_t k = n > (1u << 30) ? (1u << 30) : n;
        crc = (uint32_t)crc32(crc, p, (uInt)k);
        p += k;
        n -= k;
    }
    return crc;
}

static int parse_ram(snapshot *s, const char *name, z_stream *z, uint64_t raw, uint32_t *crc,
                     xerr *err)
{
    uint8_t hdr[8];
    if (raw < 8 || inflate_into(z, hdr, 8) != 0)
        return xerr_fail(err, "section \"%s\" is corrupted (bad compressed data)", name);
    uint64_t size = load_le(hdr, 8);
    uint64_t npages = size / RAM_PAGE_SIZE, bml = (npages + 7) / 8;
    if (size % RAM_PAGE_SIZE || raw - 8 < bml)
        return xerr_fail(err, "section \"%s\" is malformed (%llu bytes of RAM)", name,
                         (unsigned long long)size);
    snap_ram r = {.size = size, .npages = npages};
    r.bitmap = xcalloc(1, bml + 1);
    if (inflate_into(z, r.bitmap, bml) != 0) {
        free(r.bitmap);
        return xerr_fail(err, "section \"%s\" is corrupted (bad compressed data)", name);
    }
    for (uint64_t i = 0; i < bml; i++)
        r.nstored += (uint64_t)__builtin_popcount(r.bitmap[i]);
    if ((npages & 7) && (r.bitmap[bml - 1] >> (npages & 7))) {
        free(r.bitmap);
        return xerr_fail(err, "section \"%s\" is malformed (pages past its end)", name);
    }
    if (raw != 8 + bml + r.nstored * RAM_PAGE_SIZE) {
        free(r.bitmap);
        return xerr_fail(err, "section \"%s\" is malformed (its length does not match its pages)",
                         name);
    }
    r.pages = calloc(r.nstored ? r.nstored : 1, sizeof *r.pages);
    bool bad = false, nomem = !r.pages;
    uint32_t c = crc_of(crc_of((uint32_t)crc32(0, NULL, 0), hdr, 8), r.bitmap, bml);
    for (uint64_t k = 0; k < r.nstored && !bad && !nomem; k++) {
        r.pages[k] = snap_page_new();
        if (!r.pages[k])
            nomem = true;
        else if (inflate_into(z, r.pages[k]->data, RAM_PAGE_SIZE) != 0)
            bad = true;
        else
            c = crc_of(c, r.pages[k]->data, RAM_PAGE_SIZE);
    }
    if (!bad && !nomem && inflate_done(z) != 0)
        bad = true;
    if (bad || nomem) {
        for (uint64_t k = 0; r.pages && k < r.nstored; k++)
            free(r.pages[k]);
        free(r.bitmap);
        free(r.pages);
        if (nomem)
            return xerr_fail(err, "section \"%s\": not enough memory for %llu pages", name,
                             (unsigned long long)r.nstored);
        return xerr_fail(err, "section \"%s\" is corrupted (bad compressed data)", name);
    }
    *crc = c;
    r.name = xstrdup(name + 4);
    s->rams = xrealloc(s->rams, (s->nrams + 1) * sizeof *s->rams);
    s->rams[s->nrams++] = r;
    return 0;
}

static int parse_sections(snapshot *s, img_reader *r, xerr *err)
{
    char last[MAX_NAME + 1] = "the header";
    for (;;) {
        if (img_left(r) < 4)
            return xerr_fail(err, "the snapshot is truncated after section \"%s\"", last);
        size_t nl;
        const uint8_t *np = img_get_bytes(r, &nl);
        if (!np || img_left(r) < 1 + 8 + 8 + 4)
            return xerr_fail(err, "the snapshot is truncated after section \"%s\"", last);
        bool bad_char = false;
        for (size_t k = 0; k < nl && np; k++)
            bad_char |= np[k] < 0x20 || np[k] >= 0x7f;
        if (nl == 0 || nl > MAX_NAME || bad_char)
            return xerr_fail(err,
                             "the snapshot is corrupted after section \"%s\" (a bad section "
                             "name)",
                             last);
        char name[MAX_NAME + 1];
        memcpy(name, np, nl);
        name[nl] = 0;
        unsigned kind = (unsigned)img_get(r, 1);
        uint64_t raw = img_get64(r), zlen = img_get64(r);
        uint32_t crc = (uint32_t)img_get(r, 4);
        if (kind == KIND_END) {
            if (strcmp(name, "end") != 0 || raw || zlen)
                return xerr_fail(err, "section \"%s\" is corrupted (a bad end marker)", name);
            if (img_left(r))
                return xerr_fail(err, "%zu bytes after the end of the snapshot", img_left(r));
            return 0;
        }
        if (kind > KIND_END || (kind == KIND_RAM) != (strncmp(name, "ram:", 4) == 0))
            return xerr_fail(err, "section \"%s\" is corrupted (kind %u)", name, kind);
        if (zlen > img_left(r))
            return xerr_fail(err, "the snapshot is truncated in section \"%s\"", name);
        if (raw > zlen * MAX_RATIO + 64 || (kind == KIND_STATE && raw > MAX_STATE_SECTION))
            return xerr_fail(err, "section \"%s\" is corrupted (a length of %llu bytes)", name,
                             (unsigned long long)raw);
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit(&z) != Z_OK)
            return xerr_fail(err, "zlib: cannot start decompressing");
        z.next_in = (Bytef *)r->p;
        z.avail_in = (uInt)(zlen > UINT32_MAX ? UINT32_MAX : zlen);
        if (zlen > UINT32_MAX) {
            inflateEnd(&z);
            return xerr_fail(err, "section \"%s\": compressed sections over 4 GB are not read",
                             name);
        }
        uint32_t got = 0;
        int rc = 0;
        if (kind == KIND_RAM) {
            rc = parse_ram(s, name, &z, raw, &got, err);
        } else {
            uint8_t *data = xmalloc(raw ? raw : 1);
            if (inflate_into(&z, data, raw) != 0 || inflate_done(&z) != 0) {
                free(data);
                rc = xerr_fail(err, "section \"%s\" is corrupted (bad compressed data)", name);
            } else {
                got = crc_of((uint32_t)crc32(0, NULL, 0), data, raw);
                snapshot_add_sec(s, name, data, raw);
            }
        }
        inflateEnd(&z);
        if (rc != 0)
            return -1;
        if (got != crc)
            return xerr_fail(err, "section \"%s\" is corrupted (checksum mismatch)", name);
        r->p += zlen;
        snprintf(last, sizeof last, "%s", name);
    }
}

snapshot *snapshot_parse(const uint8_t *buf, size_t len, xerr *err)
{
    img_reader r;
    img_reader_init(&r, buf, len);
    if (len < 12 || memcmp(buf, MAGIC, 8) != 0) {
        xerr_set(err, "not an xbow snapshot (no XBOWSNAP header)");
        return NULL;
    }
    r.p += 8;
    uint64_t ver = img_get(&r, 4);
    if (ver > SNAPSHOT_FORMAT_VERSION) {
        xerr_set(err, "snapshot format version %llu is newer than this xbow reads (%u)",
                 (unsigned long long)ver, SNAPSHOT_FORMAT_VERSION);
        return NULL;
    }
    if (ver < 1) {
        xerr_set(err, "snapshot format version %llu is not one xbow wrote",
                 (unsigned long long)ver);
        return NULL;
    }
    size_t hl = (size_t)img_get(&r, 4);
    if (r.short_read || img_left(&r) < hl + 4) {
        xerr_set(err, "the snapshot is truncated in its header");
        return NULL;
    }
    const uint8_t *hp = r.p;
    r.p += hl;
    if ((uint32_t)img_get(&r, 4) != crc_of((uint32_t)crc32(0, NULL, 0), hp, hl)) {
        xerr_set(err, "the snapshot's header is corrupted (checksum mismatch)");
        return NULL;
    }
    img_reader h;
    img_reader_init(&h, hp, hl);
    size_t vl, cl;
    const uint8_t *vp = img_get_bytes(&h, &vl);
    const uint8_t *cp = img_get_bytes(&h, &cl);
    uint64_t time = img_get64(&h);
    bool bad_char = false;
    for (size_t k = 0; vp && k < vl; k++)
        bad_char |= vp[k] < 0x20 || vp[k] >= 0x7f;
    for (size_t k = 0; cp && k < cl; k++)
        bad_char |= (cp[k] < 0x20 && cp[k] != '\n') || cp[k] >= 0x7f;
    if (h.short_read || img_left(&h) || bad_char) {
        xerr_set(err, "the snapshot's header is malformed");
        return NULL;
    }
    snapshot *s = snapshot_alloc();
    s->version = xmalloc(vl + 1);
    memcpy(s->version, vp, vl);
    s->version[vl] = 0;
    s->config = xmalloc(cl + 1);
    memcpy(s->config, cp, cl);
    s->config[cl] = 0;
    if (parse_sections(s, &r, err) != 0 || snapshot_read_info(s, err) != 0) {
        snapshot_free(s);
        return NULL;
    }
    if (s->time != time) {
        xerr_set(err, "the snapshot's header says time %llu, its machine section %llu",
                 (unsigned long long)time, (unsigned long long)s->time);
        snapshot_free(s);
        return NULL;
    }
    return s;
}

snapshot *snapshot_read(const char *path, xerr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        xerr_set(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        xerr_set(err, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    size_t len = (size_t)st.st_size;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        xerr_set(err, "%s: not enough memory to read %zu bytes", path, len);
        fclose(f);
        return NULL;
    }
    size_t got = fread(buf, 1, len, f);
    fclose(f);
    if (got != len) {
        xerr_set(err, "%s: read error", path);
        free(buf);
        return NULL;
    }
    xerr e;
    snapshot *s = snapshot_parse(buf, len, &e);
    free(buf);
    if (!s)
        xerr_set(err, "%s: %s", path, e.msg);
    return s;
}
