/* Descriptor ring walkers: fetch, write-back (status word last), advance,
 * wrap; the "ring" view and the stall check.  See nic_ring.h. */
#include "dev/nic_ring.h"

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

void nic_ring_free(nic_ring *r)
{
    free(r->snap);
    r->snap = NULL;
    r->snap_n = 0;
}

void nic_ring_reset(nic_ring *r)
{
    r->base = 0;
    r->index = 0;
    r->cur = 0;
    r->host = 0;
    r->running = false;
    r->idle_since = r->n->clock->now;
    r->done_head = r->done_n = 0;
}

void nic_ring_set_base(nic_ring *r, uint64_t base)
{
    r->base = base;
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

uint64_t nic_ring_addr(const nic_ring *r, uint32_t index)
{
    if (r->size)
        index %= r->size;
    return r->base + (uint64_t)index * r->desc_size;
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

int nic_ring_fetch(nic_ring *r, nic_desc *d)
{
    return nic_ring_fetch_at(r, r->index, r->cur, d);
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
        nic_done *e = &r->done[r->done_head];
        e->addr = d->addr + 4 * sw;
        e->time = nic_now(n);
        e->word = d->w[sw];
        e->index = d->index;
        r->done_head = (r->done_head + 1) % NIC_DONE_LOG;
        if (r->done_n < NIC_DONE_LOG)
            r->done_n++;
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
        r->cur += r->desc_size;
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

int nic_ring_stall(nic_ring *r, nic_stall_info *s)
{
    nic *n = r->n;
    memset(s, 0, sizeof *s);
    s->oldest_index = -1;
    s->idle = !r->running;
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
    s->stalled = s->posted && s->idle;
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

void nic_ring_show(nic_ring *r, unsigned count, strbuf *out)
{
    nic *n = r->n;
    const unsigned limit = 4096;
    /* Never past the ring's end: its size, or its end-of-ring entry. */
    unsigned want = count && (!r->size || count < r->size) ? count : (r->size ? r->size : 256);
    if (want > limit)
        want = limit;
    unsigned words = r->desc_size / 4;
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
    uint32_t *snap = calloc((size_t)want * words, sizeof *snap);
    bool compare = r->snap && r->snap_base == r->base && r->snap_words == words;
    unsigned shown = 0;
    bool ended = false;
    for (unsigned i = 0; i < want; i++) {
        uint64_t a = nic_ring_addr(r, i);
        uint8_t raw[4 * NIC_DESC_MAX_WORDS];
        if (ring_peek(r, a, raw, r->desc_size)) {
            sb_printf(out, "  %5u 0x%016llx (not readable)\n", i, (unsigned long long)a);
            ended = true;
            break;
        }
        nic_desc d;
        memset(&d, 0, sizeof d);
        d.nwords = words;
        d.addr = a;
        d.index = i;
        for (unsigned k = 0; k < words; k++)
            d.w[k] = (uint32_t)load_le(raw + 4 * k, 4);
        r->ops->decode(r, &d);
        bool changed = false;
        if (compare && i < r->snap_n)
            changed = memcmp(&r->snap[(size_t)i * words], d.w, 4 * words) != 0;
        if (snap)
            memcpy(&snap[(size_t)i * words], d.w, 4 * words);
        char mark = ' ';
        if (r->kind == NIC_RING_HEADTAIL || r->kind == NIC_RING_PRODCONS) {
            if (r->size && i == r->host % r->size)
                mark = 'T';
        }
        sb_printf(out, "%c%c%c%4u 0x%016llx %-6s %-6u 0x%016llx ", changed ? '*' : ' ',
                  i == (r->size ? r->index % r->size : r->index) && a == r->cur ? '>' : ' ',
                  mark, i, (unsigned long long)a,
                  d.owned ? "device" : "host", d.len, (unsigned long long)d.buf);
        nic_format_bits(r->ops->flags, d.flags, out);
        unsigned sw = r->ops->status_word < words ? r->ops->status_word : 0;
        uint64_t t = done_time(r, a + 4 * sw, d.w[sw]);
        if (t) {
            sb_puts(out, "  done ");
            show_time(n, nic_now(n) - t, out);
            sb_puts(out, " ago");
        }
        sb_putc(out, '\n');
        shown++;
        if (!r->size && d.end_ring) {
            ended = true;
            break;
        }
    }
    if (!r->size && !count && !ended)
        sb_printf(out, "  (no end-of-ring flag in the first %u entries: the device walks on)\n",
                  shown);
    sb_puts(out, "  > device position, T host index, * changed since the last view\n");
    free(r->snap);
    r->snap = snap;
    r->snap_n = snap ? shown : 0;
    r->snap_base = r->base;
    r->snap_words = words;
}
