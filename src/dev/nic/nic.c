/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared NIC parts: the PCI function shell, DMA helpers, the interrupt
 * cause/mask unit, the common events, the model factory.  See nic.h. */
#include "dev/nic/nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/log.h"
#include "dev/nic/nic_coalesce.h"
#include "dev/nic/nic_eeprom.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"

const char *const nic_ring_names[] = {"tx",        "rx",    "rx-jumbo", "rx-mini",
                                      "rx-return", "event", "command",  NULL};
const char *const nic_drop_names[] = {"none",     "no-buffer", "fifo-overflow", "filtered",
                                      "too-long", "too-short", "dma-error",     "bad-ring",
                                      "rx-off",   "no-link",   "reset",         NULL};
const char *const nic_dma_what_names[] = {"tx-desc", "rx-desc", "tx-buf", "rx-buf", "rx-status",
                                          "index",   "stats",   "other",  NULL};
const char *const nic_match_names[] = {"none",      "station", "broadcast",
                                       "multicast", "promisc", NULL};
static const char *const dma_status_names[] = {"ok", "abort", "no-master", NULL};
static const char *const coal_reason_names[] = {"immediate", "count",  "gap",
                                                "latency",   "forced", NULL};

/* ---- event field formatters --------------------------------------------- */

void nic_format_bits(const nic_bitname *names, uint32_t v, strbuf *out)
{
    if (!v) {
        sb_putc(out, '-');
        return;
    }
    bool first = true;
    for (const nic_bitname *b = names; b && b->name; b++) {
        if (v & b->bit) {
            sb_printf(out, "%s%s", first ? "" : "|", b->name);
            v &= ~b->bit;
            first = false;
        }
    }
    if (v)
        sb_printf(out, "%s0x%x", first ? "" : "|", v);
}

static nic *ev_nic(const event *ev)
{
    device *d = ev->src->owner;
    return d ? d->priv : NULL;
}

static void fmt_cause(const event *ev, uint64_t v, strbuf *out)
{
    nic *n = ev_nic(ev);
    sb_printf(out, "0x%llx(", (unsigned long long)v);
    nic_format_bits(n ? n->model->ops->causes : NULL, (uint32_t)v, out);
    sb_putc(out, ')');
}

static void fmt_reg(const event *ev, uint64_t v, strbuf *out)
{
    nic *n = ev_nic(ev);
    if (n && v < n->dev->cls->nregs)
        sb_puts(out, n->dev->cls->regs[v].name);
    else
        sb_printf(out, "%llu", (unsigned long long)v);
}

static void fmt_index(const event *ev, uint64_t v, strbuf *out)
{
    if ((int64_t)v < 0)
        sb_putc(out, '-');
    else
        sb_printf(out, "%llu", (unsigned long long)v);
}

static void fmt_mac(const event *ev, uint64_t v, strbuf *out)
{
    for (int i = 5; i >= 0; i--)
        sb_printf(out, "%02x%s", (unsigned)(v >> (8 * i)) & 0xff, i ? ":" : "");
}

/* Descriptor flags: named by the ring's ops (field 0 of the event = ring). */
static void fmt_desc_flags(const event *ev, uint64_t v, strbuf *out)
{
    nic *n = ev_nic(ev);
    const nic_bitname *names = NULL;
    if (n && ev->nvals > 0)
        for (unsigned i = 0; i < n->nrings; i++)
            if ((uint64_t)n->rings[i]->id == ev->vals[0])
                names = n->rings[i]->ops->flags;
    nic_format_bits(names, (uint32_t)v, out);
}

#define F_RING                                 \
    {                                          \
        "ring", EVF_ENUM, nic_ring_names, NULL \
    }
#define F_INDEX                           \
    {                                     \
        "index", EVF_DEC, NULL, fmt_index \
    }
#define F_HEX(n)               \
    {                          \
        n, EVF_HEX, NULL, NULL \
    }
#define F_DEC(n)               \
    {                          \
        n, EVF_DEC, NULL, NULL \
    }
#define F_BOOL(n)               \
    {                           \
        n, EVF_BOOL, NULL, NULL \
    }

const event_field nic_evf_doorbell[] = {{"reg", EVF_DEC, NULL, fmt_reg}, F_HEX("value"), F_RING};
const event_field nic_evf_fetch[] = {F_RING,
                                     F_INDEX,
                                     F_HEX("addr"),
                                     F_BOOL("own"),
                                     {"flags", EVF_HEX, NULL, fmt_desc_flags},
                                     F_DEC("len"),
                                     F_HEX("buf")};
const event_field nic_evf_done[] = {F_RING, F_INDEX, F_HEX("addr"), F_HEX("status"), F_DEC("len")};
const event_field nic_evf_txframe[] = {
    F_RING, F_INDEX, F_DEC("len"), F_DEC("frags"), {"dst", EVF_HEX, NULL, fmt_mac}, F_HEX("type")};
const event_field nic_evf_drop[] = {
    F_RING, F_INDEX, {"reason", EVF_ENUM, nic_drop_names, NULL}, F_DEC("len")};
const event_field nic_evf_rxframe[] = {F_RING,
                                       F_INDEX,
                                       F_DEC("len"),
                                       F_DEC("bufs"),
                                       {"match", EVF_ENUM, nic_match_names, NULL},
                                       {"dst", EVF_HEX, NULL, fmt_mac},
                                       F_HEX("type")};
const event_field nic_evf_irq[] = {
    {"cause", EVF_HEX, NULL, fmt_cause}, {"status", EVF_HEX, NULL, fmt_cause}, F_BOOL("line")};
const event_field nic_evf_dmaerr[] = {{"what", EVF_ENUM, nic_dma_what_names, NULL},
                                      F_RING,
                                      F_INDEX,
                                      F_HEX("addr"),
                                      F_DEC("len"),
                                      F_BOOL("write"),
                                      {"status", EVF_ENUM, dma_status_names, NULL}};
const event_field nic_evf_coal[] = {
    F_RING, {"reason", EVF_ENUM, coal_reason_names, NULL}, F_DEC("pending"), F_DEC("waited")};
const event_field nic_evf_link[] = {F_BOOL("up"), F_BOOL("autoneg")};

const event_decl nic_event_decls[NIC_NEVENTS] = {
#include "dev/nic/nic_events.h"
};

/* ---- the PCI function shell -------------------------------------------- */

static bool pio_swapped(nic *n, unsigned size)
{
    return size == 4 && n->model->ops->pio_swap && n->model->ops->pio_swap(n);
}

static int nic_bar_read(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size,
                        uint64_t *val)
{
    nic *n = nic_from_pci(f);
    bus_op op = {
        .addr = off, .size = size, .write = 0, .kind = BUS_WORD, .initiator = (uint16_t)who};
    if (bar != 0 && n->model->ops->bar_access)
        return n->model->ops->bar_access(n, who, bar, off, size, val, false);
    if (bar != 0 || off + size > n->pci.bars[0].size) {
        *val = 0;
        return BUS_ERROR;
    }
    bool swap = pio_swapped(n, size); /* the state before the access */
    int st = dev_read(n->dev, &op, off, size, val);
    if (swap)
        *val = bswap32((uint32_t)*val);
    return st;
}

static int nic_bar_write(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size,
                         uint64_t val)
{
    nic *n = nic_from_pci(f);
    bus_op op = {
        .addr = off, .size = size, .write = 1, .kind = BUS_WORD, .initiator = (uint16_t)who};
    if (bar != 0 && n->model->ops->bar_access)
        return n->model->ops->bar_access(n, who, bar, off, size, &val, true);
    if (bar != 0 || off + size > n->pci.bars[0].size)
        return BUS_ERROR;
    if (pio_swapped(n, size))
        val = bswap32((uint32_t)val);
    return dev_write(n->dev, &op, off, size, val);
}

static void nic_pci_reset(pci_func *f) { device_reset(nic_from_pci(f)->dev); }

/* info pci: the factory MAC, where it came from, the address the guest
 * uses if it set another, and the cable. */
static void nic_pci_show(pci_func *f, strbuf *out)
{
    sb_puts(out, "    ");
    nic_describe(nic_from_pci(f), out);
    sb_putc(out, '\n');
}

static const pci_func_ops nic_pci_ops = {.bar_read = nic_bar_read,
                                         .bar_write = nic_bar_write,
                                         .reset = nic_pci_reset,
                                         .show = nic_pci_show};

static bool nic_port_rx(void *opaque, const uint8_t *frame, size_t len)
{
    nic *n = opaque;
    return n->model->ops->rx(n, frame, len);
}

static int nic_init(nic *n, const nic_model *m, const char *name, const nic_opts *o, sched *clock,
                    event_bus *eb, xerr *err)
{
    pci_func_init(&n->pci, name, &nic_pci_ops, n);
    n->pci.vendor_id = m->vendor;
    n->pci.device_id = m->device;
    n->pci.revision = m->ops->revision;
    n->pci.class_code = 0x020000;
    n->pci.int_pin = 1;
    n->pci.header_type = 0;
    n->pci.bars[0].size = m->cls->reg_space; /* BAR0 is the register block */
    n->pci.bars[0].flags = PCI_BAR_MEM | PCI_BAR_64;
    n->model = m;
    n->clock = clock;
    n->eb = eb;
    n->dma_per_word = o && o->dma_per_word;
    n->tx_first = -1;
    n->tx_pad = true;
    n->fifo.cap = NIC_DEFAULT_FIFO;
    n->pci_clock_ps = NIC_PCI_CLOCK_PS;
    n->bit_ps = 1000; /* 1 Gb/s */
    rate_init(&n->rate, sched_ns_to_ticks(clock, NIC_RATE_WINDOW_MS * 1000000ull));
    if (o && o->mac) {
        const char *why = nic_station_problem(o->mac);
        if (why) {
            xerr_set(err, "%s: the MAC %02x:%02x:%02x:%02x:%02x:%02x is %s, not a station address",
                     name, o->mac[0], o->mac[1], o->mac[2], o->mac[3], o->mac[4], o->mac[5], why);
            return -1;
        }
        memcpy(n->mac, o->mac, 6);
        n->mac_given = true;
        n->mac_from = o->mac_from;
    } else {
        nic_default_mac(m->name, o ? o->slot : 0, o ? o->net : NULL, o ? o->mac_seed : NULL,
                        n->mac);
    }
    n->txbuf = xcalloc(1, NET_MAX_FRAME);
    n->dev = device_new(m->cls, name, n, eb, clock);
    n->pci.dev = n->dev;
    return 0;
}

void *nic_new(const nic_model *m, const char *name, const nic_opts *o, sched *clock, event_bus *eb,
              xerr *err)
{
    nic *n = xcalloc(1, m->ops->size);
    n->state_size = m->ops->size;
    if (nic_init(n, m, name, o, clock, eb, err)) {
        free(n);
        return NULL;
    }
    rate_register(&n->rate); /* the debugger pauses it while stopped */
    return n;
}

void nic_fini(nic *n)
{
    rate_unregister(&n->rate);
    if (n->tx_eng.n)
        nic_engine_stop(&n->tx_eng);
    if (n->rx_eng.n)
        nic_engine_stop(&n->rx_eng);
    for (unsigned i = 0; i < n->ncoal; i++)
        nic_coal_fini(n->coal[i]);
    if (n->link && nic_part(n, n->link))
        nic_link_fini(n->link);
    if (n->ee)
        nic_eeprom_fini(n->ee);
    for (unsigned i = 0; i < n->fifo.count; i++)
        free(n->fifo.q[(n->fifo.head + i) % NIC_FIFO_FRAMES].data);
    n->fifo.count = 0;
    free(n->txbuf);
    n->txbuf = NULL;
    device_free(n->dev);
    n->dev = NULL;
}

void nic_free(nic *n)
{
    if (!n)
        return;
    if (n->model->ops->fini)
        n->model->ops->fini(n);
    dev_state_stop_timers(n->dev);
    nic_fini(n);
    free(n);
}

static bool nic_port_ready(void *opaque) { return nic_fc_ready(opaque); }

void nic_attach_port(nic *n, net_port *p)
{
    n->port = p;
    if (p) {
        net_port_attach(p, nic_port_rx, n);
        if (n->model->ops->fc_levels)
            net_port_set_ready(p, nic_port_ready);
        net_port_set_mac(p, n->mac);
    }
    if (n->link)
        nic_link_set_carrier(n->link, p != NULL);
}

void nic_reset_common(nic *n)
{
    if (nic_tx_in_frame(n))
        nic_tx_abort(n, NIC_DROP_RESET, NIC_RING_TX, n->tx_first);
    n->fc_xoff = false; /* the MAC's reset: no PAUSE stands */
    nic_fifo_flush(n, NIC_DROP_RESET);
    n->dma_free_at = nic_now(n); /* the transfer in flight is abandoned */
    n->dma_next = n->dma_last = NULL;
    n->irq.mask = 0;
    nic_irq_deassert(n, ~0u);
}

void nic_add_ring(nic *n, nic_ring *r)
{
    if (n->nrings < NIC_MAX_RINGS)
        n->rings[n->nrings++] = r;
}

nic_ring *nic_find_ring(nic *n, const char *name)
{
    for (unsigned i = 0; i < n->nrings; i++)
        if (strcasecmp(n->rings[i]->name, name) == 0)
            return n->rings[i];
    for (unsigned i = 0; i < n->nrings; i++)
        if (strncasecmp(n->rings[i]->name, "rx-", 3) == 0 &&
            strcasecmp(n->rings[i]->name + 3, name) == 0)
            return n->rings[i];
    return NULL;
}

void nic_set_dma_per_word(nic *n, bool on) { n->dma_per_word = on; }

/* ---- the factory ------------------------------------------------------- */

/* The variant tables, in the order --help lists them. */
static const nic_model *const nic_tables[] = {hamachi_models, tigon_models, e1000_models,
                                              ioc3_eth_models};

/* Other names a model answers to. */
static const struct {
    const char *name;
    const char *model;
} nic_aliases[] = {{"e1000", "e1000-82544"}};

static const nic_model *model_named(const char *name, bool onboard)
{
    for (unsigned i = 0; i < ARRAY_SIZE(nic_tables); i++)
        for (const nic_model *m = nic_tables[i]; m->name; m++)
            if (strcmp(m->name, name) == 0 && (onboard || !m->onboard))
                return m;
    return NULL;
}

static const nic_model *find_model(const char *name, bool onboard)
{
    const nic_model *m = model_named(name, onboard);
    for (unsigned i = 0; !m && i < ARRAY_SIZE(nic_aliases); i++)
        if (strcmp(nic_aliases[i].name, name) == 0)
            m = model_named(nic_aliases[i].model, onboard);
    return m;
}

const nic_model *nic_model_find(const char *name) { return find_model(name, false); }

const char *nic_model_list(void)
{
    static char buf[128];
    size_t pos = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < ARRAY_SIZE(nic_tables); i++)
        for (const nic_model *m = nic_tables[i]; m->name; m++)
            if (!m->onboard)
                pos +=
                    (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", pos ? " " : "", m->name);
    for (unsigned i = 0; i < ARRAY_SIZE(nic_aliases); i++)
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, " %s", nic_aliases[i].name);
    return buf;
}

nic *nic_of_device(device *d)
{
    if (!d)
        return NULL;
    for (unsigned i = 0; i < ARRAY_SIZE(nic_tables); i++)
        for (const nic_model *m = nic_tables[i]; m->name; m++)
            if (d->cls == m->cls)
                return d->priv;
    return NULL;
}

pci_func *nic_create(const char *model, const char *name, const nic_opts *o, sched *clock,
                     event_bus *eb, xerr *err)
{
    const nic_model *m = find_model(model, true);
    if (!m) {
        xerr_set(err, "unknown NIC model \"%s\" (known: %s)", model, nic_model_list());
        return NULL;
    }
    nic_opts def = {0};
    if (!o)
        o = &def;
    const char *spec = o->net && *o->net ? o->net : "sink";
    const char *pcap = o->pcap && *o->pcap ? o->pcap : NULL;
    if (strcmp(spec, "none") == 0 && pcap) {
        xerr_set(err, "%s: --pcap needs a network backend, not --net none", name);
        return NULL;
    }
    const nic_ops *ops = m->ops;
    nic *n = nic_new(m, name, o, clock, eb, err);
    if (!n)
        return NULL;
    ops->init(n);
    device_reset(n->dev);
    if (strcmp(spec, "none") != 0) {
        net_port *p = net_port_open(name, spec, pcap, clock, eb, err);
        if (!p) {
            nic_free(n);
            return NULL;
        }
        nic_attach_port(n, p);
        n->own_port = true;
    }
    return &n->pci;
}

void nic_destroy(pci_func *f)
{
    if (!f)
        return;
    nic *n = nic_from_pci(f);
    net_port *p = n->own_port ? n->port : NULL;
    n->port = NULL;
    nic_free(n);
    if (p)
        net_port_close(p);
}

/* ---- DMA ---------------------------------------------------------------- */

void nic_dma_ctx(nic *n, int what, int ring, int index)
{
    n->dma_what = what;
    pci_dma_context(&n->pci, nic_dma_what_names[what < NIC_NDMA_WHAT ? what : NIC_DMA_OTHER], ring,
                    index);
}

/* Bus time of one transfer. */
static void dma_time(nic *n, bool word, uint64_t bytes)
{
    if (!n->pci_clock_ps)
        return;
    uint64_t clocks = word ? NIC_PCI_WORD_CLOCKS : NIC_PCI_BURST_SETUP + (bytes + 7) / 8;
    uint64_t ticks = sched_ns_to_ticks(n->clock, clocks * n->pci_clock_ps / 1000);
    uint64_t start = n->dma_free_at > nic_now(n) ? n->dma_free_at : nic_now(n);
    n->dma_free_at = start + ticks;
    n->dma_busy_ticks += ticks;
}

/* Is `w` (another engine than t) waiting for the bus, due by `by`? */
static bool dma_claimed(const nic *n, const timer *t, uint64_t by)
{
    const timer *w = n->dma_next;
    return w && w != t && timer_pending(w) && w->when <= by;
}

bool nic_dma_wait(nic *n, timer *t)
{
    uint64_t now = nic_now(n);
    if (n->dma_free_at > now) {
        /* The next turn goes to the first engine to find the bus busy, but
         * not to the one that has just had it if another is waiting. */
        if (!dma_claimed(n, t, n->dma_free_at) || (n->dma_next == n->dma_last && t != n->dma_last))
            n->dma_next = t;
        timer_mod(n->clock, t, n->dma_free_at);
        return true;
    }
    if (dma_claimed(n, t, now)) {
        /* Free, but another engine waited for it first and is due now:
         * run after it (timers due at the same time run in arming order). */
        timer_mod(n->clock, t, now);
        return true;
    }
    n->dma_next = NULL; /* t's turn, or a claim nobody is waiting on */
    n->dma_last = t;
    return false;
}

void nic_engine_init(nic_engine *e, nic *n, const char *name, void (*step)(void *), void *opaque)
{
    timer_init(&e->t, name, step, opaque);
    e->n = n;
    e->budget = 64;
    e->step_ticks = sched_ns_to_ticks(n->clock, 1000);
}

void nic_engine_kick(nic_engine *e, uint64_t not_before)
{
    sched *s = e->n->clock;
    if (!timer_pending(&e->t) || e->t.when > s->now)
        timer_mod(s, &e->t, s->now > not_before ? s->now : not_before);
}

void nic_engine_stop(nic_engine *e) { timer_del(e->n->clock, &e->t); }

bool nic_engine_wire_wait(nic_engine *e)
{
    if (e->n->wire_free <= nic_now(e->n))
        return false;
    timer_mod(e->n->clock, &e->t, e->n->wire_free);
    return true;
}

void nic_engine_yield(nic_engine *e)
{
    timer_mod(e->n->clock, &e->t, nic_now(e->n) + e->step_ticks);
}

/* Preamble 8 and inter-frame gap 12 bytes around every frame. */
void nic_wire_send(nic *n, uint32_t bytes)
{
    sched *s = n->clock;
    uint64_t ns = (uint64_t)(bytes + 8 + 12) * 8 * n->bit_ps / 1000;
    n->wire_free = (n->wire_free > s->now ? n->wire_free : s->now) + sched_ns_to_ticks(s, ns);
}

static int dma_fail(nic *n, uint64_t addr, uint32_t len, bool write, int st)
{
    n->cnt.dma_errors++;
    EVENT_EMIT(nic_ev(n, NIC_EV_DMA_ERROR), nic_initiator(n), (uint64_t)n->dma_what,
               (uint64_t)(int64_t)n->pci.dma_ctx.ring, (uint64_t)(int64_t)n->pci.dma_ctx.index,
               addr, len, write, (uint64_t)st);
    xlog(LOG_DEBUG, n->dev->name, "DMA %s of %u bytes at 0x%llx (%s) failed: %s",
         write ? "write" : "read", len, (unsigned long long)addr, nic_dma_what_names[n->dma_what],
         st == PCI_DMA_NOMASTER ? "bus mastering disabled" : "abort");
    return st;
}

int nic_dma_read32(nic *n, uint64_t addr, uint32_t *v)
{
    *v = 0;
    n->cnt.dma_word_ops++;
    n->cnt.dma_word_bytes += 4;
    dma_time(n, true, 4);
    int st = pci_dma_read32(&n->pci, addr, v);
    return st ? dma_fail(n, addr, 4, false, st) : 0;
}

int nic_dma_write32(nic *n, uint64_t addr, uint32_t v)
{
    n->cnt.dma_word_ops++;
    n->cnt.dma_word_bytes += 4;
    dma_time(n, true, 4);
    int st = pci_dma_write32(&n->pci, addr, v);
    return st ? dma_fail(n, addr, 4, true, st) : 0;
}

/* One word of the per-word payload path: 1, 2 or 4 bytes at a. */
static int payload_word(nic *n, uint64_t a, uint8_t *p, unsigned size, bool write)
{
    pci_func *f = &n->pci;
    n->cnt.dma_word_ops++;
    n->cnt.dma_word_bytes += size;
    dma_time(n, true, size);
    /* One PCI word access: the bytes in the guest's memory order either way. */
    return write ? pci_dma_write(f, a, p, size, PCI_DMA_WORD)
                 : pci_dma_read(f, a, p, size, PCI_DMA_WORD);
}

static int payload(nic *n, uint64_t addr, void *buf, uint32_t len, bool write)
{
    if (!len)
        return 0;
    if (!n->dma_per_word) {
        n->cnt.dma_bulk_ops++;
        n->cnt.dma_bulk_bytes += len;
        dma_time(n, false, len);
        int st = write ? pci_dma_write(&n->pci, addr, buf, len, PCI_DMA_BULK)
                       : pci_dma_read(&n->pci, addr, buf, len, PCI_DMA_BULK);
        return st ? dma_fail(n, addr, len, write, st) : 0;
    }
    uint8_t *p = buf;
    uint64_t a = addr;
    uint32_t left = len;
    while (left) {
        unsigned size;
        if (a & 1)
            size = 1;
        else if (a & 2)
            size = left >= 2 ? 2 : 1;
        else
            size = left >= 4 ? 4 : left >= 2 ? 2 : 1;
        int st = payload_word(n, a, p, size, write);
        if (st)
            return dma_fail(n, a, size, write, st);
        a += size;
        p += size;
        left -= size;
    }
    return 0;
}

int nic_dma_payload_read(nic *n, uint64_t addr, void *buf, uint32_t len)
{
    return payload(n, addr, buf, len, false);
}

int nic_dma_payload_write(nic *n, uint64_t addr, const void *buf, uint32_t len)
{
    /* payload() only reads from buf when writing. */
    return payload(n, addr, (void *)(uintptr_t)buf, len, true);
}

int nic_dma_write_status(nic *n, uint64_t addr, const void *buf, uint32_t len)
{
    const uint8_t *p = buf;
    while (len) {
        int st;
        unsigned size = (addr & 3) == 0 && len >= 4 ? 4 : 1;
        if (size == 4) {
            st = nic_dma_write32(n, addr, (uint32_t)load_le(p, 4));
        } else {
            n->cnt.dma_word_ops++;
            n->cnt.dma_word_bytes++;
            dma_time(n, true, 1);
            st = pci_dma_write(&n->pci, addr, p, 1, PCI_DMA_WORD);
            if (st)
                st = dma_fail(n, addr, 1, true, st);
        }
        if (st)
            return st;
        addr += size;
        p += size;
        len -= size;
    }
    return 0;
}

int nic_dma_peek(nic *n, uint64_t addr, void *buf, uint32_t len)
{
    return pci_dma_peek(&n->pci, addr, buf, len);
}

/* ---- interrupts ----------------------------------------------------------- */

static void irq_update(nic *n)
{
    nic_irq *q = &n->irq;
    uint32_t eff = q->cause & q->mask;
    uint32_t fresh = eff & ~q->effective, gone = q->effective & ~eff;
    bool line = eff != 0;
    q->effective = eff;
    if (line != q->line) {
        q->line = line;
        if (line)
            q->raises++;
        pci_set_irq(&n->pci, 0, line);
    }
    for (unsigned i = 0; i < 32; i++)
        if (fresh & (1u << i))
            q->asserts[i]++;
    if (fresh)
        EVENT_EMIT(nic_ev(n, NIC_EV_IRQ_RAISE), nic_initiator(n), fresh, eff, line);
    if (gone)
        EVENT_EMIT(nic_ev(n, NIC_EV_IRQ_LOWER), nic_initiator(n), gone, eff, line);
}

void nic_irq_assert(nic *n, uint32_t bits)
{
    n->irq.cause |= bits;
    irq_update(n);
}

void nic_irq_deassert(nic *n, uint32_t bits)
{
    n->irq.cause &= ~bits;
    irq_update(n);
}

uint64_t nic_read_causes(device *d, const reg_access *a) { return ((nic *)d->priv)->irq.cause; }

uint64_t nic_read_clear_causes(device *d, const reg_access *a)
{
    nic *n = d->priv;
    uint32_t v = n->irq.cause;
    if (!a->peek && v)
        nic_irq_deassert(n, v);
    return v;
}

void nic_irq_set_mask(nic *n, uint32_t mask)
{
    n->irq.mask = mask;
    irq_update(n);
}

void nic_doorbell(nic *n, unsigned reg_id, uint64_t value, int ring)
{
    n->cnt.doorbells++;
    EVENT_EMIT(nic_ev(n, NIC_EV_DOORBELL), nic_initiator(n), reg_id, value,
               (uint64_t)(int64_t)ring);
}
