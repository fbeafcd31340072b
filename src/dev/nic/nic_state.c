/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state declaration of the NIC shell (struct nic): what every model's
 * table embeds with STATE_PART(model, n, nic_state, ...).  Two fields need
 * their own encoding (ST_CUSTOM): the Rx FIFO, a queue of allocated frames
 * of varying length, and dma_next/dma_last, which point at a timer of the
 * model state (an engine's, or the Tigon2 statistics timer) and are saved
 * as its offset in the model state, mapped back on load.  The rate meter
 * (info nic's live rates) is the host's observation of the run: a load
 * forgets its samples. */
#include <stdlib.h>

#include "core/ratemeter.h"

#include "dev/nic/nic.h"

/* ---- the Rx FIFO: u32 count, then per frame {u32 len, u32 tag, bytes} ---- */

static void fifo_save(const void *base, strbuf *out)
{
    const nic_fifo *q = &((const nic *)base)->fifo;
    uint8_t w[8];
    store_le(w, 4, q->count);
    sb_append(out, w, 4);
    for (unsigned i = 0; i < q->count; i++) {
        const nic_fifo_ent *e = &q->q[(q->head + i) % NIC_FIFO_FRAMES];
        store_le(w, 4, e->len);
        store_le(w + 4, 4, (uint32_t)e->tag);
        sb_append(out, w, 8);
        sb_append(out, e->data, e->len);
    }
}

static int fifo_check(const void *base, const uint8_t *img, size_t len, xerr *err)
{
    const nic_fifo *q = &((const nic *)base)->fifo;
    if (len < 4)
        return xerr_fail(err, "the FIFO image is truncated");
    uint64_t count = load_le(img, 4), bytes = 0;
    if (count > NIC_FIFO_FRAMES)
        return xerr_fail(err, "%llu frames, the FIFO holds at most %u", (unsigned long long)count,
                         NIC_FIFO_FRAMES);
    size_t at = 4;
    for (uint64_t i = 0; i < count; i++) {
        if (len - at < 8)
            return xerr_fail(err, "the FIFO image is truncated at frame %llu",
                             (unsigned long long)i);
        uint64_t flen = load_le(img + at, 4);
        at += 8;
        if (flen > NET_MAX_FRAME || flen > len - at)
            return xerr_fail(err, "frame %llu of the FIFO has %llu bytes: too long or truncated",
                             (unsigned long long)i, (unsigned long long)flen);
        at += flen;
        bytes += flen;
    }
    if (at != len)
        return xerr_fail(err, "%zu bytes after the FIFO's frames", len - at);
    if (bytes > q->cap)
        return xerr_fail(err, "%llu bytes queued, the FIFO holds %u", (unsigned long long)bytes,
                         q->cap);
    return 0;
}

static void fifo_load(void *base, const uint8_t *img, size_t len)
{
    (void)len;
    nic_fifo *q = &((nic *)base)->fifo;
    for (unsigned i = 0; i < q->count; i++) {
        nic_fifo_ent *e = &q->q[(q->head + i) % NIC_FIFO_FRAMES];
        free(e->data);
        e->data = NULL;
    }
    q->head = 0;
    q->count = (unsigned)load_le(img, 4);
    q->bytes = 0;
    size_t at = 4;
    for (unsigned i = 0; i < q->count; i++) {
        nic_fifo_ent *e = &q->q[i];
        e->len = (uint32_t)load_le(img + at, 4);
        e->tag = (int)(uint32_t)load_le(img + at + 4, 4);
        at += 8;
        e->data = xmalloc(e->len ? e->len : 1);
        memcpy(e->data, img + at, e->len);
        at += e->len;
        q->bytes += e->len;
    }
}

static const state_ops fifo_ops = {fifo_save, fifo_check, fifo_load};

/* ---- the Tx gather buffer: the txlen bytes gathered so far ---- */

static void txbuf_save(const void *base, strbuf *out)
{
    const nic *n = base;
    sb_append(out, n->txbuf, n->txlen);
}

static int txbuf_check(const void *base, const uint8_t *img, size_t len, xerr *err)
{
    (void)base;
    (void)img;
    if (len > NET_MAX_FRAME)
        return xerr_fail(err, "%zu bytes gathered, the buffer holds %u", len, NET_MAX_FRAME);
    return 0;
}

static void txbuf_load(void *base, const uint8_t *img, size_t len)
{
    nic *n = base;
    memcpy(n->txbuf, img, len);
    n->txlen = (uint32_t)len;
}

static const state_ops txbuf_ops = {txbuf_save, txbuf_check, txbuf_load};

/* ---- dma_next / dma_last: u32 offset of the timer in the model state + 1, 0 = none ---- */

static void timer_ref_save(const nic *n, const timer *t, strbuf *out)
{
    uint8_t w[4];
    store_le(w, 4, t ? (uint32_t)((const char *)t - (const char *)n) + 1 : 0);
    sb_append(out, w, 4);
}

static void dma_turn_save(const void *base, strbuf *out)
{
    const nic *n = base;
    timer_ref_save(n, n->dma_next, out);
    timer_ref_save(n, n->dma_last, out);
}

static int dma_turn_check(const void *base, const uint8_t *img, size_t len, xerr *err)
{
    const nic *n = base;
    if (len != 8)
        return xerr_fail(err, "%zu bytes, not two timer references", len);
    for (unsigned i = 0; i < 2; i++) {
        uint64_t v = load_le(img + 4 * i, 4);
        if (v && (v - 1 + sizeof(timer) > n->state_size || (v - 1) % _Alignof(timer)))
            return xerr_fail(err, "offset %llu is not a timer of the model state",
                             (unsigned long long)(v - 1));
    }
    return 0;
}

static timer *timer_ref_load(nic *n, const uint8_t *img)
{
    uint64_t v = load_le(img, 4);
    return v ? (timer *)((char *)n + v - 1) : NULL;
}

static void dma_turn_load(void *base, const uint8_t *img, size_t len)
{
    (void)len;
    nic *n = base;
    n->dma_next = timer_ref_load(n, img);
    n->dma_last = timer_ref_load(n, img + 4);
}

static const state_ops dma_turn_ops = {dma_turn_save, dma_turn_check, dma_turn_load};

/* ---- the rate meter: host-side observation, not machine state ---- */

/* Its samples are of the run before the load (counters and virtual time
 * that no longer hold): nothing is saved, and a load forgets them. */
static void rate_save(const void *base, strbuf *out)
{
    (void)base;
    (void)out;
}

static int rate_check(const void *base, const uint8_t *img, size_t len, xerr *err)
{
    (void)base;
    (void)img;
    if (len)
        return xerr_fail(err, "%zu bytes, the rate meter saves none", len);
    return 0;
}

static void rate_load(void *base, const uint8_t *img, size_t len)
{
    (void)img;
    (void)len;
    rate_clear(&((nic *)base)->rate);
}

static const state_ops rate_ops = {rate_save, rate_check, rate_load};

/* ---- the tables ---- */

static const state_decl nic_irq_decls[] = {
    STATE_INT(nic_irq, cause, "latched causes"),
    STATE_INT(nic_irq, mask, "enabled causes"),
    STATE_INT(nic_irq, effective, "cause & mask at the last update"),
    STATE_LINE(nic_irq, line, "INTA"),
    STATE_INT(nic_irq, raises, "INTA raises"),
    STATE_U64S(nic_irq, asserts, "times each cause was newly asserted"),
};
static const state_table nic_irq_state = STATE_TABLE(nic_irq_decls, nic_irq);

static const state_decl nic_engine_decls[] = {
    STATE_TIMER(nic_engine, t, "the engine's next step"),
    STATE_WIRING(nic_engine, n, "the NIC: nic_engine_init"),
};
static const state_table nic_engine_state = STATE_TABLE(nic_engine_decls, nic_engine);

/* dma_next and dma_last are adjacent: one custom row covers both. */
typedef struct nic_dma_turn {
    timer *next, *last;
} nic_dma_turn;
_Static_assert(offsetof(nic, dma_last) == offsetof(nic, dma_next) + sizeof(timer *),
               "dma_next and dma_last must be adjacent");

static const state_decl nic_decls[] = {
    STATE_PART(nic, pci, pci_func_state, "the PCI function"),
    STATE_WIRING(nic, dev, "the register block: nic_new"),
    STATE_WIRING(nic, model, "the variant: nic_new"),
    STATE_WIRING(nic, clock, "the machine's clock"),
    STATE_WIRING(nic, eb, "the event bus"),
    STATE_WIRING(nic, port, "the backend: nic_create"),
    STATE_WIRING(nic, link, "the model's link part, declared by the model"),
    STATE_WIRING(nic, coal, "the model's coalescers, declared by the model"),
    STATE_WIRING(nic, state_size, "the model state's size: nic_new"),
    STATE_WIRING(nic, ncoal, "the coalescers registered: the model's constructor"),
    STATE_WIRING(nic, ee, "the model's EEPROM, declared by the model"),
    STATE_PART(nic, tx_eng, nic_engine_state, "the Tx DMA engine"),
    STATE_PART(nic, rx_eng, nic_engine_state, "the Rx DMA engine"),
    STATE_INT(nic, dma_what, "what the current DMA is for (enum nic_dma_what)"),
    STATE_WIRING(nic, own_port, "the backend was opened by nic_create"),
    STATE_BOOL(nic, dma_per_word, "payload moved word by word (--nic-dma)"),
    STATE_INT(nic, pci_clock_ps, "PCI clock period"),
    STATE_INT(nic, dma_free_at, "virtual time the DMA is busy until"),
    {.name = "dma_turn",
     .offset = offsetof(nic, dma_next),
     .size = sizeof(nic_dma_turn),
     .kind = ST_CUSTOM,
     .ops = &dma_turn_ops,
     .desc = "dma_next, dma_last: the engines' turns on the bus (timer offsets)"},
    STATE_INT(nic, dma_busy_ticks, "total DMA time"),
    STATE_INT(nic, bit_ps, "wire time per bit"),
    STATE_INT(nic, wire_free, "the transmitter is busy until"),
    STATE_WIRING(nic, mac, "the factory address: nic_create (--mac or the default)"),
    STATE_WIRING(nic, mac_given, "it came from an option: nic_create"),
    STATE_WIRING(nic, mac_from, "the option it came from: nic_create"),
    STATE_PART(nic, irq, nic_irq_state, "the interrupt cause/mask unit"),
    STATE_U64S(nic, cnt, "statistics"),
    STATE_CUSTOM(nic, rate, rate_ops, "live rates (info nic): not saved, forgotten on load"),
    STATE_CUSTOM(nic, fifo, fifo_ops, "the Rx FIFO: frames, their lengths and tags"),
    STATE_BOOL(nic, fc_xoff, "802.3x: XOFF sent (the Rx FIFO reached the high level), no XON yet"),
    STATE_CUSTOM(nic, txbuf, txbuf_ops, "the Tx frame being gathered"),
    STATE_INT(nic, txlen, "its length"),
    STATE_INT(nic, txfrags, "its fragments"),
    STATE_INT(nic, tx_first, "its first descriptor, -1 = none"),
    STATE_BOOL(nic, tx_overflow, "it outgrew the maximum frame"),
    STATE_BOOL(nic, tx_pad, "pad short frames"),
    STATE_BOOL(nic, rx_active, "an Rx frame is being stored"),
    STATE_INT(nic, rx_first, "its first descriptor"),
    STATE_INT(nic, rx_bufs, "buffers it filled"),
    STATE_INT(nic, rx_off, "bytes of it stored"),
    STATE_WIRING(nic, rings, "the model's rings, declared by the model"),
    STATE_WIRING(nic, nrings, "how many: the model's constructor"),
};
const state_table nic_state = STATE_TABLE(nic_decls, nic);
