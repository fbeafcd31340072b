/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Descriptor ring walkers: fetch, write-back (status word last), advance,
 * wrap; the "ring" view and the stall check.  See nic_ring.h. */
#include "dev/nic/nic_ring.h"

#include <stdlib.h>

void nic_ring_init(nic_ring *r, nic *n, int id, int kind, bool tx, uint32_t desc_size,
                   const nic_ring_ops *ops, void *opaque)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->id = id;
    r->name = id >= 0 && id < NIC_NRING_IDS ? nic_ring_names[id] : "ring";
    r->kind = kind;
    r->tx = tx;
    r->what = tx ? NIC_DMA_TX_DESC : NIC_DMA_RX_DESC;
    r->ops = ops;
    r->opaque = opaque;
    nic_ring_set_desc_size(r, desc_size);
    nic_ring_reset(r);
}

void nic_ring_reset(nic_ring *r)
{
    r->base = 0;
    r->index = 0;
    r->cur = 0;
    r->host = 0;
    r->running = false;
    r->set_up = false;
    r->idle_since = r->n->clock->now;
    r->done_head = r->done_n = 0;
}

void nic_ring_set_base(nic_ring *r, uint64_t base)
{
    r->base = base;
    r->set_up = true;
    r->index = 0;
    r->cur = base;
    r->done_head = r->done_n = 0;
}

void nic_ring_set_size(nic_ring *r, uint32_t entries)
{
    r->size = entries;
    if (entries && r->index >= entries)
        r->index = 0;
    r->cur = nic_ring_addr(r, r->index);
}

void nic_ring_set_desc_size(nic_ring *r, uint32_t bytes)
{
    if (bytes < 4)
        bytes = 4;
    if (bytes > 4 * NIC_DESC_MAX_WORDS)
        bytes = 4 * NIC_DESC_MAX_WORDS;
    r->desc_size = bytes & ~3u;
}

void nic_ring_set_stride(nic_ring *r, uint32_t bytes)
{
    r->stride = bytes;
    r->cur = nic_ring_addr(r, r->index);
}

static uint32_t stride(const nic_ring *r) { return r->stride ? r->stride : r->desc_size; }

uint64_t nic_ring_addr(const nic_ring *r, uint32_t index)
{
    if (r->size)
        index %= r->size;
    return r->base + (uint64_t)index * stride(r);
}

/* Side-effect-free read of ring memory (views, stall checks). */
static int ring_peek(nic_ring *r, uint64_t addr, void *buf, uint32_t len)
{
    if (r->ops->mem_read)
        return r->ops->mem_read(r, addr, buf, len);
    return nic_dma_peek(r->n, addr, buf, len);
}

int nic_ring_fetch_at(nic_ring *r, uint32_t index, uint64_t addr, nic_desc *d)
{
    nic *n = r->n;
    memset(d, 0, sizeof *d);
    d->nwords = r->desc_size / 4;
    d->addr = addr;
    d->index = index;
    nic_dma_ctx(n, r->what, r->id, (int)index);
    if (r->ops->mem_read) {
        uint8_t raw[4 * NIC_DESC_MAX_WORDS];
        int st = r->ops->mem_read(r, addr, raw, r->desc_size);
        if (st)
            return st;
        for (unsigned i = 0; i < d->nwords; i++)
            d->w[i] = (uint32_t)load_le(raw + 4 * i, 4);
    } else {
        for (unsigned i = 0; i < d->nwords; i++) {
            int st = nic_dma_read32(n, addr + 4 * i, &d->w[i]);
            if (st)
                return st;
        }
    }
    r->ops->decode(r, d);
    r->fetches++;
    n->cnt.desc_fetch++;
    EVENT_EMIT(nic_ev(n, r->tx ? NIC_EV_TX_DESC_FETCH : NIC_EV_RX_DESC_FETCH), nic_initiator(n),
               (uint64_t)r->id, index, addr, d->owned, d->flags, d->len, d->buf);
    return 0;
}

int nic_ring_fetch(nic_ring *r, nic_desc *d) { return nic_ring_fetch_at(r, r->index, r->cur, d); }

/* Remember a completion (the status word written), for the stall check. */
static void log_done(nic_ring *r, uint32_t index, uint64_t addr, uint32_t word)
{
    nic_done *e = &r->done[r->done_head];
    e->addr = addr;
    e->time = nic_now(r->n);
    e->word = word;
    e->index = index;
    r->done_head = (r->done_head + 1) % NIC_DONE_LOG;
    if (r->done_n < NIC_DONE_LOG)
        r->done_n++;
}

int nic_ring_writeback(nic_ring *r, nic_desc *d, uint32_t word_mask)
{
    nic *n = r->n;
    unsigned sw = r->ops->status_word;
    nic_dma_ctx(n, r->what, r->id, (int)d->index);
    for (unsigned i = 0; i < d->nwords; i++) {
        if (i == sw || !(word_mask & (1u << i)))
            continue;
        int st = nic_dma_write32(n, d->addr + 4 * i, d->w[i]);
        if (st)
            return st;
    }
    if (sw < d->nwords && (word_mask & (1u << sw))) {
        int st = nic_dma_write32(n, d->addr + 4 * sw, d->w[sw]);
        if (st)
            return st;
        log_done(r, d->index, d->addr + 4 * sw, d->w[sw]);
    }
    r->ops->decode(r, d);
    r->writebacks++;
    n->cnt.desc_done++;
    EVENT_EMIT(nic_ev(n, r->tx ? NIC_EV_TX_DESC_DONE : NIC_EV_RX_DESC_DONE), nic_initiator(n),
               (uint64_t)r->id, d->index, d->addr, d->w[sw < d->nwords ? sw : 0], d->len);
    return 0;
}

void nic_ring_advance(nic_ring *r, bool wrap)
{
    if (r->size) {
        r->index = (r->index + 1) % r->size;
        if (r->index == 0)
            r->wraps++;
        r->cur = nic_ring_addr(r, r->index);
    } else if (wrap) {
        r->index = 0;
        r->cur = r->base;
        r->wraps++;
    } else {
        r->index++;
        r->cur += stride(r);
    }
}

void nic_ring_complete(nic_ring *r, const nic_desc *d, uint32_t status)
{
    nic *n = r->n;
    r->writebacks++;
    n->cnt.desc_done++;
    EVENT_EMIT(nic_ev(n, r->tx ? NIC_EV_TX_DESC_DONE : NIC_EV_RX_DESC_DONE), nic_initiator(n),
               (uint64_t)r->id, d->index, d->addr, status, d->len);
}

void nic_ring_complete_at(nic_ring *r, const nic_desc *d, uint64_t status_addr, uint32_t word)
{
    log_done(r, d->index, status_addr, word);
    nic_ring_complete(r, d, word);
}

void nic_ring_set_running(nic_ring *r, bool running)
{
    if (r->running && !running)
        r->idle_since = nic_now(r->n);
    r->running = running;
}

uint32_t nic_ring_pending(const nic_ring *r)
{
    if (!r->size || r->kind == NIC_RING_OWN)
        return 0;
    return (r->host % r->size + r->size - r->index % r->size) % r->size;
}

/* ---- completions the host has not reclaimed ---------------------------- */

/* Is log entry k (0 = newest) the newest for its address and still in
 * memory as the device wrote it? */
static bool done_unreclaimed(nic_ring *r, unsigned k, const nic_done **out)
{
    unsigned pos = (r->done_head + NIC_DONE_LOG - 1 - k) % NIC_DONE_LOG;
    const nic_done *e = &r->done[pos];
    for (unsigned j = 0; j < k; j++) {
        unsigned q = (r->done_head + NIC_DONE_LOG - 1 - j) % NIC_DONE_LOG;
        if (r->done[q].addr == e->addr)
            return false;
    }
    uint8_t b[4];
    if (ring_peek(r, e->addr, b, 4))
        return false;
    if ((uint32_t)load_le(b, 4) != e->word)
        return false;
    *out = e;
    return true;
}

int nic_ring_stall(nic_ring *r, ring_state *s)
{
    nic *n = r->n;
    memset(s, 0, sizeof *s);
    s->oldest_index = -1;
    s->idle = !r->running;
    s->set_up = r->set_up;
    s->idle_ticks = s->idle ? nic_now(n) - r->idle_since : 0;
    if (r->kind == NIC_RING_OWN) {
        nic_desc d;
        memset(&d, 0, sizeof d);
        d.nwords = r->desc_size / 4;
        d.addr = r->cur;
        d.index = r->index;
        uint8_t raw[4 * NIC_DESC_MAX_WORDS];
        if (ring_peek(r, r->cur, raw, r->desc_size) == 0) {
            for (unsigned i = 0; i < d.nwords; i++)
                d.w[i] = (uint32_t)load_le(raw + 4 * i, 4);
            r->ops->decode(r, &d);
            s->posted = d.owned;
        }
    } else {
        s->posted = nic_ring_pending(r) > 0;
    }
    uint64_t oldest = UINT64_MAX;
    for (unsigned k = 0; k < r->done_n; k++) {
        const nic_done *e;
        if (!done_unreclaimed(r, k, &e))
            continue;
        s->unreclaimed++;
        if (e->time < oldest) {
            oldest = e->time;
            s->oldest_index = (int)e->index;
        }
    }
    if (s->unreclaimed)
        s->unreclaimed_ticks = nic_now(n) - oldest;
    if (r->ops->stall)
        r->ops->stall(r, s);
    return 0;
}

/* ---- the "ring" view ---------------------------------------------------- */

static void show_time(const nic *n, uint64_t ticks, strbuf *out)
{
    uint64_t ns = sched_ticks_to_ns(n->clock, ticks);
    if (ns < 10000)
        sb_printf(out, "%lluns", (unsigned long long)ns);
    else if (ns < 10000000)
        sb_printf(out, "%lluus", (unsigned long long)(ns / 1000));
    else
        sb_printf(out, "%llums", (unsigned long long)(ns / 1000000));
}

/* Time of the unreclaimed completion at addr, or 0 if none. */
static uint64_t done_time(nic_ring *r, uint64_t status_addr, uint32_t word)
{
    for (unsigned k = 0; k < r->done_n; k++) {
        unsigned pos = (r->done_head + NIC_DONE_LOG - 1 - k) % NIC_DONE_LOG;
        if (r->done[pos].addr == status_addr)
            return r->done[pos].word == word ? r->done[pos].time : 0;
    }
    return 0;
}

/* What a viewer's memo keeps of a ring: its words when it last looked. */
typedef struct ring_snap {
    uint64_t base;
    uint32_t words, n;
    uint32_t w[]; /* n entries of `words` words */
} ring_snap;

/* Read and decode entry i without side effects; -1 when its memory does
 * not answer. */
static int peek_desc(nic_ring *r, unsigned i, nic_desc *d)
{
    uint8_t raw[4 * NIC_DESC_MAX_WORDS];
    uint64_t a = nic_ring_addr(r, i);
    if (ring_peek(r, a, raw, r->desc_size))
        return -1;
    memset(d, 0, sizeof *d);
    d->nwords = r->desc_size / 4;
    d->addr = a;
    d->index = i;
    for (unsigned k = 0; k < d->nwords; k++)
        d->w[k] = (uint32_t)load_le(raw + 4 * k, 4);
    r->ops->decode(r, d);
    return 0;
}

enum { READ_ALL, READ_UNREADABLE, READ_END_FLAG };

/* The words of entries [0, want) into a new snapshot, up to the first that
 * does not answer and, when `to_end`, up to the end-of-ring flag; *why says
 * where it stopped. */
static ring_snap *read_ring(nic_ring *r, unsigned want, bool to_end, int *why)
{
    unsigned words = r->desc_size / 4;
    ring_snap *s = xmalloc(sizeof *s + (size_t)want * words * sizeof(uint32_t)); /* want <= 4096 */
    *why = READ_ALL;
    s->base = r->base;
    s->words = words;
    s->n = 0;
    for (unsigned i = 0; i < want; i++) {
        nic_desc d;
        if (peek_desc(r, i, &d)) {
            *why = READ_UNREADABLE;
            break;
        }
        memcpy(&s->w[(size_t)i * words], d.w, 4 * words);
        s->n++;
        if (to_end && d.end_ring) {
            *why = READ_END_FLAG;
            break;
        }
    }
    return s;
}

static void show_header(nic_ring *r, bool brief, strbuf *out)
{
    nic *n = r->n;
    if (brief) { /* what changes first: a pane is narrow */
        sb_printf(out, "%s %s: device at %u", n->dev->name, r->name, r->index);
        if (r->size)
            sb_printf(out, ", host %u, %u entries", r->host, r->size);
        sb_printf(out, ", %s", r->running ? "running" : "idle");
        if (!r->running) {
            sb_puts(out, " ");
            show_time(n, nic_now(n) - r->idle_since, out);
        }
        sb_printf(out, ", base 0x%llx\n", (unsigned long long)r->base);
        return;
    }
    sb_printf(out, "%s ring %s: base 0x%llx, %u-byte descriptors", n->dev->name, r->name,
              (unsigned long long)r->base, r->desc_size);
    if (r->size)
        sb_printf(out, ", %u entries, host index %u", r->size, r->host);
    sb_printf(out, ", device at entry %u (0x%llx), %s", r->index, (unsigned long long)r->cur,
              r->running ? "running" : "idle");
    if (!r->running) {
        sb_puts(out, " for ");
        show_time(n, nic_now(n) - r->idle_since, out);
    }
    sb_printf(out, "\n  fetched %llu, written back %llu, wrapped %llu\n",
              (unsigned long long)r->fetches, (unsigned long long)r->writebacks,
              (unsigned long long)r->wraps);
    sb_puts(out, "     idx address            owner  len    buffer              flags\n");
}

static void show_entry(nic_ring *r, const nic_desc *d, bool changed, strbuf *out)
{
    nic *n = r->n;
    unsigned i = d->index, words = d->nwords;
    char mark = ' ';
    if (r->kind == NIC_RING_HEADTAIL || r->kind == NIC_RING_PRODCONS) {
        if (r->size && i == r->host % r->size)
            mark = 'T';
    }
    sb_printf(out, "%c%c%c%4u 0x%016llx %-6s %-6u 0x%016llx ", changed ? '*' : ' ',
              i == (r->size ? r->index % r->size : r->index) && d->addr == r->cur ? '>' : ' ', mark,
              i, (unsigned long long)d->addr, d->owned ? "device" : "host", d->len,
              (unsigned long long)d->buf);
    nic_format_bits(r->ops->flags, d->flags, out);
    unsigned sw = r->ops->status_word < words ? r->ops->status_word : 0;
    uint64_t t = done_time(r, d->addr + 4 * sw, d->w[sw]);
    if (t) {
        sb_puts(out, "  done ");
        show_time(n, nic_now(n) - t, out);
        sb_puts(out, " ago");
    }
    sb_putc(out, '\n');
}

/* The entries listed are those of the ring (`count` of them if given; an
 * unsized ring's up to its end-of-ring flag), or the window of them the
 * viewer asks for.  A mark compares with the whole ring as the viewer's
 * memo last saw it, whichever entries were listed then. */
void nic_ring_show(nic_ring *r, unsigned count, view_ctx *ctx, strbuf *out)
{
    nic *n = r->n;
    const unsigned limit = 4096;
    /* Never past the ring's end: its size, or its end-of-ring entry. */
    unsigned whole = r->size ? (r->size < limit ? r->size : limit) : 256;
    unsigned want = count && count < whole ? count : whole;
    unsigned words = r->desc_size / 4;
    bool brief = ctx && ctx->brief;
    show_header(r, brief, out);

    /* The viewer's reference, if it still describes this ring. */
    size_t len;
    const ring_snap *old = ctx ? view_memo_get(ctx->memo, n->dev, r->name, &len) : NULL;
    if (old && (len < sizeof *old || old->base != r->base || old->words != words ||
                len < sizeof *old + (size_t)old->n * words * sizeof(uint32_t)))
        old = NULL;
    bool store = ctx && ctx->memo && (!old || ctx->update);
    /* An unsized ring ends at its end-of-ring flag: read it all to know
     * where.  Read it all too when the viewer keeps a new reference,
     * however few entries it lists now. */
    bool to_end = !r->size;
    int why = READ_ALL;
    ring_snap *now = to_end || store ? read_ring(r, whole, !r->size, &why) : NULL;
    /* An unreadable entry is listed, as such, and ends the listing. */
    unsigned total = want;
    if (to_end) {
        unsigned upto = now ? now->n + (why == READ_UNREADABLE) : 0;
        total = count && count < upto ? count : upto;
    }

    unsigned rows = ctx && ctx->rows && ctx->rows < total ? ctx->rows : total;
    long first = 0;
    if (ctx && ctx->follow) {
        uint32_t dev = r->size ? r->index % r->size : r->index;
        first = (long)dev - (long)((rows + 1) / 4); /* what the device did last */
    } else if (ctx) {
        first = ctx->first;
    }
    if (first > (long)(total - rows))
        first = (long)(total - rows);
    if (first < 0)
        first = 0;
    if (ctx) {
        ctx->first = (int)first;
        ctx->total = total;
    }

    unsigned shown = 0;
    bool unreadable = false;
    for (unsigned i = (unsigned)first; i < (unsigned)first + rows; i++) {
        nic_desc d;
        if (peek_desc(r, i, &d)) {
            sb_printf(out, "  %5u 0x%016llx (not readable)\n", i,
                      (unsigned long long)nic_ring_addr(r, i));
            unreadable = true;
            break;
        }
        bool changed = old && i < old->n && memcmp(&old->w[(size_t)i * words], d.w, 4 * words) != 0;
        show_entry(r, &d, changed, out);
        shown++;
    }
    if (to_end && !count && why == READ_ALL && !unreadable && (unsigned)first + shown == total &&
        !brief)
        sb_printf(out, "  (no end-of-ring flag in the first %u entries: the device walks on)\n",
                  total);
    if (!brief)
        sb_puts(out, "  > device position, T host index, * changed since the last stop\n");
    if (store && now)
        view_memo_put(ctx->memo, n->dev, dev_view_find(n->dev, "ring"), r->name, now,
                      sizeof *now + (size_t)now->n * words * sizeof(uint32_t));
    free(now);
}

/* ---- state ------------------------------------------------------------------ */

static const state_decl nic_done_decls[] = {
    STATE_INT(nic_done, addr, "bus address of the status word written"),
    STATE_INT(nic_done, time, "when"),
    STATE_INT(nic_done, word, "the value written"),
    STATE_INT(nic_done, index, "descriptor index"),
};
static const state_table nic_done_state = STATE_TABLE(nic_done_decls, nic_done);

static const state_decl nic_ring_decls[] = {
    STATE_WIRING(nic_ring, n, "the NIC: nic_ring_init"),
    STATE_WIRING(nic_ring, name, "a static name: nic_ring_init"),
    STATE_WIRING(nic_ring, ops, "the model's decode: nic_ring_init"),
    STATE_WIRING(nic_ring, opaque, "the model: nic_ring_init"),
    STATE_INT(nic_ring, base, "bus address of entry 0"),
    STATE_INT(nic_ring, desc_size, "bytes per descriptor"),
    STATE_INT(nic_ring, stride, "bytes between entries (0 = desc_size)"),
    STATE_INT(nic_ring, size, "entries"),
    STATE_INT(nic_ring, index, "the device's next descriptor"),
    STATE_INT(nic_ring, cur, "its bus address"),
    STATE_INT(nic_ring, host, "tail / host producer index"),
    STATE_BOOL(nic_ring, running, "the engine is working on the ring"),
    STATE_BOOL(nic_ring, set_up, "the host gave it a base since the last reset"),
    STATE_INT(nic_ring, idle_since, "idle since"),
    STATE_INT(nic_ring, fetches, "descriptor fetches"),
    STATE_INT(nic_ring, writebacks, "write-backs"),
    STATE_INT(nic_ring, wraps, "wraps"),
    STATE_PARTS(nic_ring, done, nic_done_state, "completions, for the stall check"),
    STATE_INT(nic_ring, done_head, "oldest completion"),
    STATE_INT(nic_ring, done_n, "completions kept"),
};
const state_table nic_ring_state_decl = STATE_TABLE(nic_ring_decls, nic_ring);
