/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tigon2 DMA engines, as the modelled firmware drives them (docs/hardware.md,
 * "Tigon2"): descriptor byte/word swapping, the send ring (in host
 * memory with TX_HOST_RING, else in NIC SRAM), the standard, jumbo and mini
 * receive rings, the return ring, index words in host memory, checksum and
 * VLAN assists, and coalesced completion interrupts.
 *
 * The engines are the nic's (nic_engine: at most its budget of BDs per
 * step), never inside a register write; the transmitter is paced at line
 * rate (nic_wire_send).  A DMA failure on a ring stops that engine until the host writes
 * the ring's producer mailbox again, and the firmware posts ERROR (bad
 * configuration) [INF]. */
#include "dev/nic/tigon/tigon.h"

/* ---- descriptor words ------------------------------------------------------- */

/* Descriptors are 32-bit words taken in pairs.  BYTESWAP_BD: each word is
 * big-endian in host memory.  WORDSWAP_BD: the first word of a pair is the
 * first in memory ("address high first"); without it the two words of each
 * 8-byte pair are exchanged [INF]. */
uint32_t tg_bd_in(const tigon *t, const uint32_t *raw, unsigned k)
{
    uint32_t om = tg_opmode(t);
    uint32_t v = raw[(om & TG_OM_WORDSWAP_BD) ? k : k ^ 1];
    return (om & TG_OM_BYTESWAP_BD) ? bswap32(v) : v;
}

void tg_bd_out(const tigon *t, uint32_t *raw, unsigned k, uint32_t v)
{
    uint32_t om = tg_opmode(t);
    raw[(om & TG_OM_WORDSWAP_BD) ? k : k ^ 1] = (om & TG_OM_BYTESWAP_BD) ? bswap32(v) : v;
}

/* A single index word in host memory: byte order as descriptors, no pair. */
uint32_t tg_idx_out(const tigon *t, uint32_t v)
{
    return (tg_opmode(t) & TG_OM_BYTESWAP_BD) ? bswap32(v) : v;
}

int tg_write_index(tigon *t, uint64_t addr, uint32_t v, int ring)
{
    nic_dma_ctx(&t->n, NIC_DMA_INDEX, ring, -1);
    return nic_dma_write32(&t->n, addr, tg_idx_out(t, v));
}

/* Without BYTESWAP_DATA the payload's bytes are reversed within each
 * 32-bit word counted from the buffer start (a short last word within
 * itself) [INF]. */
static void word_reverse(uint8_t *p, uint32_t len)
{
    for (uint32_t i = 0; i < len; i += 4) {
        uint32_t k = len - i < 4 ? len - i : 4;
        for (uint32_t a = 0, b = k - 1; a < b; a++, b--) {
            uint8_t x = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = x;
        }
    }
}

/* ---- ring decoding, views, stall ----------------------------------------------- */

static const nic_bitname bd_flags[] = {{TG_BD_TCP_UDP_SUM, "TCP_UDP_SUM"},
                                       {TG_BD_IP_SUM, "IP_SUM"},
                                       {TG_BD_END, "END"},
                                       {TG_BD_MORE, "MORE"},
                                       {TG_BD_JUMBO, "JUMBO"},
                                       {TG_BD_UCAST, "UCAST"},
                                       {TG_BD_MCAST, "MCAST"},
                                       {0x0080, "IP_FRAG"},
                                       {0x0100, "IP_FRAG_END"},
                                       {TG_BD_VLAN_TAG, "VLAN_TAG"},
                                       {TG_BD_FRAME_ERROR, "FRAME_ERROR"},
                                       {TG_BD_COAL_NOW, "COAL_NOW"},
                                       {TG_BD_MINI, "MINI"},
                                       {0, NULL}};

/* Is entry i among the `from` .. `to` (exclusive) of a circular ring? */
static bool in_window(uint32_t i, uint32_t from, uint32_t to, uint32_t size)
{
    return size && (i + size - from % size) % size < (to % size + size - from % size) % size;
}

static void fill_bd(nic_ring *r, nic_desc *d, const uint32_t *w, bool tx)
{
    d->buf = (uint64_t)w[0] << 32 | w[1];
    d->len = tx ? w[2] >> 16 : w[2] & 0xffff;
    d->flags = tx ? w[2] & 0xffff : w[3] & 0xffff;
    d->eop = (d->flags & TG_BD_END) != 0;
    d->owned = in_window(d->index, r->index, r->host, r->size);
}

/* A BD in host memory: its first nwords logical words (tg_bd_in). */
static void dec_host_bd(nic_ring *r, nic_desc *d, unsigned nwords, bool send)
{
    uint32_t w[8];
    for (unsigned k = 0; k < nwords; k++)
        w[k] = tg_bd_in(r->opaque, d->w, k);
    fill_bd(r, d, w, send);
}

static void dec_send(nic_ring *r, nic_desc *d) { dec_host_bd(r, d, 4, true); }

/* A send ring in NIC SRAM holds the values the host wrote by PIO. */
static void dec_send_sram(nic_ring *r, nic_desc *d) { fill_bd(r, d, d->w, true); }

static void dec_rx(nic_ring *r, nic_desc *d) { dec_host_bd(r, d, 8, false); }

/* Rings the NIC produces (return, event): the host consumes them. */
static void dec_ret(nic_ring *r, nic_desc *d)
{
    dec_rx(r, d);
    d->owned = false;
}

static void dec_evt(nic_ring *r, nic_desc *d)
{
    uint32_t w = tg_bd_in(r->opaque, d->w, 0);
    d->buf = w;
    d->len = w >> 24;
    d->owned = false;
}

static void dec_cmd(nic_ring *r, nic_desc *d)
{
    d->buf = d->w[0];
    d->len = d->w[0] >> 24;
    d->owned = in_window(d->index, r->index, r->host, r->size);
}

static int sram_ring_read(nic_ring *r, uint64_t addr, void *buf, uint32_t len)
{
    const tigon *t = r->opaque;
    if (addr >= t->sram_size || len > t->sram_size - addr)
        return PCI_DMA_ABORT;
    for (uint32_t i = 0; i + 4 <= len; i += 4)
        store_le((uint8_t *)buf + i, 4, tg_sram_read(t, (uint32_t)addr + i));
    return 0;
}

/* Send ring: completions are index based; "unreclaimed" = BDs consumed that
 * the host has not been told about (consumer word not yet written). */
static void stall_tx(nic_ring *r, ring_state *s)
{
    tigon *t = r->opaque;
    uint32_t k = r->size ? (r->index + r->size - t->tx_reported % r->size) % r->size : 0;
    s->unreclaimed = k;
    s->oldest_index = k ? (int)(t->tx_reported % r->size) : -1;
    s->unreclaimed_ticks = k ? nic_now(&t->n) - t->tx_unreported : 0;
}

/* Return and event rings: nothing is posted to the NIC; for events the host
 * reports its consumer (EvtCsm), so unconsumed events are known. */
static void stall_produced(nic_ring *r, ring_state *s)
{
    tigon *t = r->opaque;
    s->posted = false;
    s->unreclaimed = 0;
    s->oldest_index = -1;
    s->unreclaimed_ticks = 0;
    if (r != &t->evt || !r->size)
        return;
    uint32_t k = (r->index + r->size - r->host % r->size) % r->size;
    s->unreclaimed = k;
    if (k) {
        s->oldest_index = (int)(r->host % r->size);
        s->unreclaimed_ticks = nic_now(&t->n) - t->evt_time[r->host % r->size];
    }
}

static const nic_ring_ops send_host_ops = {dec_send, bd_flags, NIC_DESC_MAX_WORDS, NULL, stall_tx};
static const nic_ring_ops send_sram_ops = {dec_send_sram, bd_flags, NIC_DESC_MAX_WORDS,
                                           sram_ring_read, stall_tx};
static const nic_ring_ops rx_ops = {dec_rx, bd_flags, NIC_DESC_MAX_WORDS, NULL, NULL};
static const nic_ring_ops ret_ops = {dec_ret, bd_flags, 3, NULL, stall_produced};
static const nic_ring_ops evt_ops = {dec_evt, NULL, 0, NULL, stall_produced};
static const nic_ring_ops cmd_ops = {dec_cmd, NULL, NIC_DESC_MAX_WORDS, sram_ring_read, NULL};

/* ---- checksums and VLAN --------------------------------------------------------- */

static uint32_t csum_add(uint32_t sum, const uint8_t *p, uint32_t len)
{
    uint32_t i = 0;
    for (; i + 1 < len; i += 2)
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    if (i < len)
        sum += (uint32_t)p[i] << 8;
    return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)sum;
}

typedef struct ip4 {
    uint32_t l3, ihl, l4, l4len;
    uint8_t proto;
    bool frag;
} ip4;

/* An IPv4 header (after an optional 802.1Q tag) that fits the frame. */
static bool parse_ip4(const uint8_t *f, uint32_t len, ip4 *p)
{
    uint32_t off = 12;
    if (len < 14)
        return false;
    uint32_t type = (uint32_t)load_be(f + 12, 2);
    if (type == 0x8100 && len >= 18) {
        off = 16;
        type = (uint32_t)load_be(f + 16, 2);
    }
    p->l3 = off + 2;
    if (type != 0x0800 || len < p->l3 + 20 || f[p->l3] >> 4 != 4)
        return false;
    p->ihl = (f[p->l3] & 15u) * 4;
    uint32_t tot = (uint32_t)load_be(f + p->l3 + 2, 2);
    if (p->ihl < 20 || tot < p->ihl || p->l3 + tot > len)
        return false;
    p->frag = (load_be(f + p->l3 + 6, 2) & 0x3fff) != 0;
    p->proto = f[p->l3 + 9];
    p->l4 = p->l3 + p->ihl;
    p->l4len = tot - p->ihl;
    return true;
}

static uint32_t pseudo_sum(const uint8_t *f, const ip4 *p)
{
    return csum_add(0, f + p->l3 + 12, 8) + p->proto + p->l4len;
}

static bool l4_ok(const ip4 *p)
{
    return !p->frag && ((p->proto == 6 && p->l4len >= 20) || (p->proto == 17 && p->l4len >= 8));
}

/* Tx: VLAN tag insertion and checksum insertion, when both the BD and the
 * send RCB ask for them [INF].  With NO_PSEUDO_HDR the host has seeded the
 * checksum field with the pseudo-header sum (Linux CHECKSUM_PARTIAL). */
static void tx_offload(tigon *t)
{
    nic *n = &t->n;
    uint32_t ff = t->tx_frame_flags, rf = t->rcb[TG_RCB_SEND].flags;
    uint8_t *f = n->txbuf;
    if (n->tx_overflow)
        return;
    if ((ff & TG_BD_VLAN_TAG) && (rf & TG_RCB_VLAN_ASSIST) && n->txlen >= 12 &&
        n->txlen + 4 <= NET_MAX_FRAME) {
        memmove(f + 16, f + 12, n->txlen - 12);
        store_be(f + 12, 2, 0x8100);
        store_be(f + 14, 2, t->tx_vlan);
        n->txlen += 4;
    }
    ip4 p;
    if (!(ff & (TG_BD_TCP_UDP_SUM | TG_BD_IP_SUM)) || !parse_ip4(f, n->txlen, &p))
        return;
    if ((ff & TG_BD_IP_SUM) && (rf & TG_RCB_IP_SUM)) {
        store_be(f + p.l3 + 10, 2, 0);
        store_be(f + p.l3 + 10, 2, (uint16_t)~csum_fold(csum_add(0, f + p.l3, p.ihl)));
    }
    if ((ff & TG_BD_TCP_UDP_SUM) && (rf & TG_RCB_TCP_UDP_SUM) && l4_ok(&p)) {
        uint32_t co = p.l4 + (p.proto == 6 ? 16 : 6), sum = 0;
        if (!(rf & TG_RCB_NO_PSEUDO_HDR)) {
            store_be(f + co, 2, 0);
            sum = pseudo_sum(f, &p);
        }
        uint16_t c = (uint16_t)~csum_fold(csum_add(sum, f + p.l4, p.l4len));
        store_be(f + co, 2, p.proto == 17 && c == 0 ? 0xffff : c);
    }
}

/* ---- coalescing, reporting ---------------------------------------------------- */

static void coal_set(tigon *t, nic_coal *c, uint32_t us, uint32_t max_bds)
{
    /* Ticks = how long after the first completion the firmware waits at
     * most; max BDs = how many completions interrupt at once; 0 ticks =
     * no coalescing [INF]. */
    if (!us)
        nic_coal_config(c, 0, 0, 0, 0);
    else
        nic_coal_config(c, max_bds, 0, sched_ns_to_ticks(t->n.clock, us * 1000ull), 0);
}

void tg_coal_refresh(tigon *t)
{
    uint32_t v[4] = {tg_gcr(t, 0x630), tg_gcr(t, 0x634), tg_gcr(t, 0x63c), tg_gcr(t, 0x640)};
    if (!memcmp(v, t->cfg_coal, sizeof v))
        return;
    memcpy(t->cfg_coal, v, sizeof v);
    coal_set(t, &t->rxc, v[0], v[3]);
    coal_set(t, &t->txc, v[1], v[2]);
}

/* Tell the host how far the send ring has been consumed. */
static void tx_report(tigon *t)
{
    if (t->tx_reported == t->tx.index)
        return;
    t->tx_reported = t->tx.index;
    if (tg_write_index(t, t->tx_csm_addr, t->tx.index, NIC_RING_TX))
        t->st.dma_wr_aborts++;
}

void tg_coal_fire(nic *n, int ring)
{
    tigon *t = (tigon *)n;
    if (ring == NIC_RING_TX) {
        tx_report(t);
        if (!(tg_opmode(t) & TG_OM_NO_TX_INTRS))
            tg_irq_request(t, TG_CAUSE_TX);
    } else if (!(tg_opmode(t) & TG_OM_NO_RX_INTRS)) {
        tg_irq_request(t, TG_CAUSE_RX);
    }
}

/* ---- transmit ------------------------------------------------------------------ */

static bool tx_enabled(const tigon *t)
{
    return tg_fw_running(t) && t->stack_up && t->tx.size && !t->tx_fault;
}

void tg_tx_kick(tigon *t)
{
    if (!tx_enabled(t) || !nic_ring_pending(&t->tx))
        return;
    nic_ring_set_running(&t->tx, true);
    nic_engine_kick(&t->n.tx_eng, 0);
}

static void tx_fault(tigon *t)
{
    nic_tx_abort(&t->n, NIC_DROP_DMA, NIC_RING_TX, (int)t->tx.index);
    t->tx_fault = true;
    t->st.dma_rd_aborts++;
    nic_ring_set_running(&t->tx, false);
    tg_fw_post_event(t, TG_E_ERROR, TG_E_ERR_BAD_CFG, 0);
}

static void count_cast(uint64_t *u, uint64_t *m, uint64_t *b, const uint8_t *f, uint32_t len)
{
    if (len < 6 || !(f[0] & 1))
        (*u)++;
    else if (load_be(f, 6) == 0xffffffffffffull)
        (*b)++;
    else
        (*m)++;
}

static void tx_end(tigon *t, uint32_t index)
{
    nic *n = &t->n;
    tg_fwstats *st = &t->st;
    if (t->tx_skip) {
        nic_tx_abort(n, NIC_DROP_DMA, NIC_RING_TX, (int)index);
        st->out_errors++;
        return;
    }
    tx_offload(t);
    uint32_t len = n->txlen;
    if (!nic_tx_finish(n, NIC_RING_TX, (int)index)) {
        st->out_discards++;
        return;
    }
    len = len < 60 ? 60 : len;
    st->out_octets += len;
    count_cast(&st->out_ucast, &st->out_mcast, &st->out_bcast, n->txbuf, len);
    nic_wire_send(n, len + 4); /* with the FCS */
}

static void tx_step(void *opaque)
{
    tigon *t = opaque;
    nic *n = &t->n;
    sched *s = n->clock;
    if (!tx_enabled(t)) {
        nic_ring_set_running(&t->tx, false);
        return;
    }
    for (unsigned k = 0; k < t->n.tx_eng.budget; k++) {
        if (nic_engine_wire_wait(&t->n.tx_eng))
            return;
        if (!nic_ring_pending(&t->tx)) {
            nic_ring_set_running(&t->tx, false);
            return;
        }
        if (nic_engine_bus_wait(&t->n.tx_eng)) /* the bus is still busy with the last BD */
            return;
        nic_desc d;
        if (nic_ring_fetch(&t->tx, &d)) {
            tx_fault(t);
            return;
        }
        if (!nic_tx_in_frame(n)) {
            t->tx_frame_flags = 0;
            t->tx_vlan = 0;
            t->tx_skip = false;
        }
        uint32_t vlan = (t->tx.ops == &send_sram_ops ? d.w[3] : tg_bd_in(t, d.w, 3)) & 0xffff;
        t->tx_frame_flags |= d.flags;
        if (d.flags & TG_BD_VLAN_TAG)
            t->tx_vlan = (uint16_t)vlan;
        uint32_t before = n->txlen;
        if (!t->tx_skip) {
            if (nic_tx_gather(n, d.buf, d.len, NIC_RING_TX, (int)d.index)) {
                t->tx_skip = true;
                t->st.dma_rd_aborts++;
            } else if (!(tg_opmode(t) & TG_OM_BYTESWAP_DATA) && !n->tx_overflow) {
                word_reverse(n->txbuf + before, n->txlen - before);
            }
        } else if (!nic_tx_in_frame(n)) {
            n->tx_first = (int)d.index; /* keep the frame open until its END */
        }
        if (d.eop)
            tx_end(t, d.index);
        nic_ring_complete(&t->tx, &d, d.flags);
        if (t->tx_reported == t->tx.index)
            t->tx_unreported = s->now;
        nic_ring_advance(&t->tx, false);
        tg_coal_refresh(t);
        nic_coal_event(&t->txc);
        if (d.eop && !(t->rcb[TG_RCB_SEND].flags & TG_RCB_COAL_UPDATE_ONLY))
            tx_report(t);
        if (d.flags & TG_BD_COAL_NOW)
            nic_coal_flush(&t->txc);
    }
    nic_engine_yield(&t->n.tx_eng);
}

/* ---- receive -------------------------------------------------------------------- */

static bool rx_enabled(const tigon *t) { return tg_fw_running(t) && t->stack_up && !t->rx_fault; }

static void rx_running(tigon *t, bool on)
{
    nic_ring_set_running(&t->std, on);
    nic_ring_set_running(&t->jumbo, on && !(t->rcb[TG_RCB_JUMBO].flags & TG_RCB_DISABLED));
    nic_ring_set_running(&t->mini, on && !(t->rcb[TG_RCB_MINI].flags & TG_RCB_DISABLED));
}

void tg_rx_kick(tigon *t)
{
    rx_running(t, rx_enabled(t));
    if (rx_enabled(t) && t->n.fifo.count)
        nic_engine_kick(&t->n.rx_eng, 0);
}

void tg_rx_ring_reset(tigon *t, nic_ring *r)
{
    r->index = 0;
    r->host = 0; /* ignore the old producer until the host writes a new one */
    r->cur = r->base;
}

/* The MAC: checks, the address filter, the on-chip FIFO. */
bool tg_rx_frame(nic *n, const uint8_t *frame, size_t size)
{
    tigon *t = (tigon *)n;
    uint32_t len = size > NET_MAX_FRAME + 1 ? NET_MAX_FRAME + 1 : (uint32_t)size;
    uint32_t mtu = tg_gcr(t, 0x660);
    if (!mtu)
        mtu = 1518; /* [INF] until the host sets IfMtu */
    int reason = NIC_DROP_NONE, match = NIC_MATCH_NONE;
    if (!tg_fw_running(t) || !t->stack_up || !t->link.up) {
        reason = NIC_DROP_RX_OFF;
    } else if (len < 14) {
        reason = NIC_DROP_TOO_SHORT;
        t->st.in_errors++;
    } else if (len > mtu || len > NET_MAX_FRAME) {
        reason = NIC_DROP_TOO_LONG;
        t->st.in_errors++;
        t->st.too_long++;
    } else if ((match = nic_mac_match(&t->filt, frame)) == NIC_MATCH_NONE) {
        reason = NIC_DROP_FILTERED;
    } else if (!nic_fifo_push(n, frame, len, match)) {
        bool bufs =
            nic_ring_pending(&t->std) || nic_ring_pending(&t->jumbo) || nic_ring_pending(&t->mini);
        reason = t->rx_nobuf || !bufs ? NIC_DROP_NO_BUFFER : NIC_DROP_FIFO;
        t->st.in_discards++;
    }
    if (reason) {
        nic_rx_drop(n, reason, len, NIC_RING_RX, -1);
        return false;
    }
    tg_rx_kick(t);
    return true;
}

/* Which ring a frame of `len` bytes goes to (docs/hardware.md, "Tigon2
 * receive"): mini if enabled and it fits the mini buffers, standard up to
 * the standard RCB's threshold, else jumbo; NULL if the jumbo ring is
 * disabled [INF: no fall-back to another ring when the chosen one is
 * empty]. */
static nic_ring *classify(tigon *t, uint32_t len, unsigned *rk)
{
    const tg_rcb *rc = t->rcb;
    uint32_t std_max = rc[TG_RCB_STD].max_len ? rc[TG_RCB_STD].max_len : 1518;
    if (!(rc[TG_RCB_MINI].flags & TG_RCB_DISABLED) && len <= rc[TG_RCB_MINI].max_len) {
        *rk = TG_RCB_MINI;
        return &t->mini;
    }
    if (len <= std_max) {
        *rk = TG_RCB_STD;
        return &t->std;
    }
    if (rc[TG_RCB_JUMBO].flags & TG_RCB_DISABLED)
        return NULL;
    *rk = TG_RCB_JUMBO;
    return &t->jumbo;
}

typedef struct rx_meta {
    uint32_t len;   /* bytes to place */
    uint32_t flags; /* VLAN_TAG, TCP_UDP_SUM, IP_SUM */
    uint16_t vlan, ip_sum, l4_sum;
} rx_meta;

/* The frame as the firmware places it: tag stripped (VLAN assist),
 * checksums computed, FCS appended (INCLUDE_CRC), bytes ordered. */
static void rx_prepare(tigon *t, unsigned rk, const uint8_t *f, uint32_t len, rx_meta *m)
{
    uint32_t rf = t->rcb[rk].flags, om = tg_opmode(t);
    uint8_t *b = t->rxbuf;
    memset(m, 0, sizeof *m);
    memcpy(b, f, len);
    m->len = len;
    if ((rf & TG_RCB_VLAN_ASSIST) && len >= 18 && load_be(b + 12, 2) == 0x8100) {
        m->vlan = (uint16_t)load_be(b + 14, 2);
        memmove(b + 12, b + 16, len - 16);
        m->len -= 4;
        m->flags |= TG_BD_VLAN_TAG;
    }
    ip4 p;
    if ((rf & (TG_RCB_TCP_UDP_SUM | TG_RCB_IP_SUM)) && parse_ip4(b, m->len, &p)) {
        if (rf & TG_RCB_IP_SUM) {
            m->ip_sum = csum_fold(csum_add(0, b + p.l3, p.ihl));
            m->flags |= TG_BD_IP_SUM;
        }
        if ((rf & TG_RCB_TCP_UDP_SUM) && l4_ok(&p)) {
            uint32_t sum = (rf & TG_RCB_NO_PSEUDO_HDR) ? 0 : pseudo_sum(b, &p);
            m->l4_sum = csum_fold(csum_add(sum, b + p.l4, p.l4len));
            m->flags |= TG_BD_TCP_UDP_SUM;
        }
    }
    if (om & TG_OM_INCLUDE_CRC) {
        store_le(b + m->len, 4, nic_crc32(b, m->len));
        m->len += 4;
    }
    if (!(om & TG_OM_BYTESWAP_DATA))
        word_reverse(b, m->len);
}

static void rx_fault(tigon *t, int ring, uint32_t index, uint32_t len)
{
    nic_rx_drop(&t->n, NIC_DROP_DMA, len, ring, (int)index);
    nic_fifo_pop(&t->n);
    t->rx_fault = true;
    rx_running(t, false);
    tg_fw_post_event(t, TG_E_ERROR, TG_E_ERR_BAD_CFG, 0);
}

static uint32_t cast_flag(const uint8_t *f)
{
    if (!(f[0] & 1))
        return TG_BD_UCAST;
    return load_be(f, 6) == 0xffffffffffffull ? TG_BD_BCAST : TG_BD_MCAST;
}

/* Place the FIFO head in BD d of ring r and return the BD.  False if the
 * return ring could not be written (engine stopped). */
static bool rx_deliver(tigon *t, nic_ring *r, unsigned rk, nic_desc *d, const uint8_t *f,
                       uint32_t len, int match)
{
    nic *n = &t->n;
    rx_meta m;
    rx_prepare(t, rk, f, len, &m);
    uint32_t store = m.len < d->len ? m.len : d->len;
    uint16_t err = 0;
    int reason = NIC_DROP_NONE;
    nic_dma_ctx(n, NIC_DMA_RX_BUF, r->id, (int)d->index);
    if (store && nic_dma_payload_write(n, d->buf, t->rxbuf, store)) {
        err = TG_RXERR_MAC_ABORT; /* [INF] the buffer comes back empty, flagged */
        store = 0;
        reason = NIC_DROP_DMA;
        t->st.dma_wr_aborts++;
    } else if (m.len > d->len) {
        err = TG_RXERR_TRUNC; /* the buffer is too small: truncated, flagged [INF] */
        reason = NIC_DROP_TOO_LONG;
        t->st.too_long++;
    }
    uint32_t pw[8], lw[8];
    for (unsigned k = 0; k < 8; k++)
        pw[k] = tg_bd_in(t, d->w, k);
    const uint32_t mine = TG_BD_TCP_UDP_SUM | TG_BD_IP_SUM | TG_BD_END | TG_BD_MORE | TG_BD_JUMBO |
                          TG_BD_BCAST | 0x0180 | TG_BD_VLAN_TAG | TG_BD_FRAME_ERROR |
                          TG_BD_COAL_NOW | TG_BD_MINI;
    uint32_t flags = (pw[3] & 0xffff & ~mine) | TG_BD_END | cast_flag(f) | m.flags |
                     (rk == TG_RCB_JUMBO  ? TG_BD_JUMBO
                      : rk == TG_RCB_MINI ? TG_BD_MINI
                                          : 0) |
                     (err ? TG_BD_FRAME_ERROR : 0);
    lw[0] = pw[0];
    lw[1] = pw[1];
    lw[2] = (pw[2] & 0xffff0000u) | (store & 0xffff);
    lw[3] = (pw[3] & 0xffff0000u) | flags;
    lw[4] = (uint32_t)m.ip_sum << 16 | m.l4_sum;
    lw[5] = (uint32_t)err << 16 | m.vlan;
    lw[6] = 0;
    lw[7] = pw[7]; /* the host's cookie, returned verbatim */
    nic_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.nwords = 8;
    rd.index = t->ret.index;
    rd.addr = nic_ring_addr(&t->ret, rd.index);
    for (unsigned k = 0; k < 8; k++)
        tg_bd_out(t, rd.w, k, lw[k]);
    nic_ring_advance(r, false);
    if (nic_ring_writeback(&t->ret, &rd, 0xff)) {
        t->st.dma_wr_aborts++;
        rx_fault(t, r->id, d->index, len);
        return false;
    }
    nic_ring_advance(&t->ret, false);
    if (tg_write_index(t, t->ret_prd_addr, t->ret.index, NIC_RING_RX_RETURN))
        t->st.dma_wr_aborts++;
    if (reason) {
        nic_rx_drop(n, reason, len, r->id, (int)d->index);
        t->st.in_errors++;
    } else {
        nic_rx_done(n, f, len, match, 1, r->id, (int)d->index);
        t->st.in_octets += len;
        count_cast(&t->st.in_ucast, &t->st.in_mcast, &t->st.in_bcast, f, len);
    }
    tg_coal_refresh(t);
    nic_coal_event(&t->rxc);
    nic_fifo_pop(n);
    return true;
}

static void rx_step(void *opaque)
{
    tigon *t = opaque;
    nic *n = &t->n;
    if (!rx_enabled(t))
        return;
    for (unsigned k = 0; k < t->n.rx_eng.budget; k++) {
        uint32_t len;
        int match;
        const uint8_t *f = nic_fifo_head(n, &len, &match);
        if (!f)
            return;
        unsigned rk = TG_RCB_STD;
        uint32_t need = len + (tg_opmode(t) & TG_OM_INCLUDE_CRC ? 4 : 0);
        nic_ring *r = classify(t, need, &rk);
        if (!r) {
            nic_rx_drop(n, NIC_DROP_TOO_LONG, len, NIC_RING_RX_JUMBO, -1);
            t->st.too_long++;
            t->st.in_errors++;
            nic_fifo_pop(n);
            continue;
        }
        if (!nic_ring_pending(r)) { /* wait for buffers; the FIFO fills meanwhile */
            if (!t->rx_nobuf)
                t->st.no_rx_bds++;
            t->rx_nobuf = true;
            return;
        }
        t->rx_nobuf = false;
        if (nic_engine_bus_wait(&t->n.rx_eng)) /* the bus is still busy with the last frame */
            return;
        nic_desc d;
        if (nic_ring_fetch(r, &d)) {
            t->st.dma_rd_aborts++;
            rx_fault(t, r->id, r->index, len);
            return;
        }
        if (!rx_deliver(t, r, rk, &d, f, len, match))
            return;
    }
    nic_engine_yield(&t->n.rx_eng);
}

/* ---- mailboxes, life cycle --------------------------------------------------------- */

void tg_dma_mailbox(tigon *t, unsigned word, uint32_t v)
{
    nic_ring *r = word == TG_MB_TX_PRD      ? &t->tx
                  : word == TG_MB_STD_PRD   ? &t->std
                  : word == TG_MB_JUMBO_PRD ? &t->jumbo
                                            : &t->mini;
    /* Producers past the ring size wrap [INF]; before the firmware runs the
     * sizes are unknown and the mailbox is read again at boot. */
    r->host = r->size ? v % r->size : v;
    if (r == &t->tx) {
        t->tx_fault = false;
        tg_tx_kick(t);
    } else {
        t->rx_fault = false;
        tg_rx_kick(t);
    }
}

void tg_dma_init(tigon *t)
{
    nic *n = &t->n;
    nic_ring_init(&t->tx, n, NIC_RING_TX, NIC_RING_PRODCONS, true, 16, &send_host_ops, t);
    nic_ring_init(&t->std, n, NIC_RING_RX, NIC_RING_PRODCONS, false, 32, &rx_ops, t);
    nic_ring_init(&t->jumbo, n, NIC_RING_RX_JUMBO, NIC_RING_PRODCONS, false, 32, &rx_ops, t);
    nic_ring_init(&t->mini, n, NIC_RING_RX_MINI, NIC_RING_PRODCONS, false, 32, &rx_ops, t);
    nic_ring_init(&t->ret, n, NIC_RING_RX_RETURN, NIC_RING_PRODCONS, false, 32, &ret_ops, t);
    nic_ring_init(&t->evt, n, NIC_RING_EVENT, NIC_RING_PRODCONS, false, 8, &evt_ops, t);
    nic_ring_init(&t->cmd, n, NIC_RING_CMD, NIC_RING_PRODCONS, true, 4, &cmd_ops, t);
    t->ret.what = NIC_DMA_RX_STATUS;
    t->evt.what = NIC_DMA_OTHER;
    nic_ring *all[] = {&t->tx, &t->std, &t->jumbo, &t->mini, &t->ret, &t->evt, &t->cmd};
    for (unsigned i = 0; i < ARRAY_SIZE(all); i++)
        nic_add_ring(n, all[i]);
    nic_engine_init(&t->n.tx_eng, n, "tigon-tx", tx_step, t);
    nic_engine_init(&t->n.rx_eng, n, "tigon-rx", rx_step, t);
}

static void ring_setup(nic_ring *r, uint64_t base, uint32_t size, uint32_t host)
{
    nic_ring_set_base(r, base);
    nic_ring_set_size(r, size);
    r->host = host % size;
}

/* The firmware came up: rings from the RCBs, producers from the mailboxes. */
void tg_dma_start(tigon *t)
{
    const tg_rcb *rc = t->rcb;
    bool host = rc[TG_RCB_SEND].flags & TG_RCB_HOST_RING;
    uint32_t txn = rc[TG_RCB_SEND].max_len;
    uint32_t retn = rc[TG_RCB_RETURN].max_len;
    t->tx.ops = host ? &send_host_ops : &send_sram_ops;
    ring_setup(&t->tx, host ? rc[TG_RCB_SEND].addr : (uint32_t)rc[TG_RCB_SEND].addr,
               txn && txn <= TG_TX_MAX_ENTRIES ? txn : TG_TX_MAX_ENTRIES,
               tg_mailbox(t, TG_MB_TX_PRD));
    ring_setup(&t->std, rc[TG_RCB_STD].addr, TG_STD_ENTRIES, tg_mailbox(t, TG_MB_STD_PRD));
    ring_setup(&t->jumbo, rc[TG_RCB_JUMBO].addr, TG_JUMBO_ENTRIES, tg_mailbox(t, TG_MB_JUMBO_PRD));
    ring_setup(&t->mini, rc[TG_RCB_MINI].addr, TG_MINI_ENTRIES, tg_mailbox(t, TG_MB_MINI_PRD));
    ring_setup(&t->ret, rc[TG_RCB_RETURN].addr,
               retn && retn <= TG_RET_ENTRIES ? retn : TG_RET_ENTRIES, tg_gcr(t, 0x680));
    ring_setup(&t->evt, rc[TG_RCB_EVENT].addr, TG_EVT_ENTRIES, tg_gcr(t, 0x628));
    /* The command ring is where the NIC knows it is; its RCB is ignored. */
    ring_setup(&t->cmd, 0x100, TG_CMD_ENTRIES, tg_mailbox(t, TG_MB_CMD_PRD));
    t->cmd.index = tg_gcr(t, 0x62c) % TG_CMD_ENTRIES;
    t->cmd.cur = nic_ring_addr(&t->cmd, t->cmd.index);
    nic_ring_set_running(&t->cmd, true);
    t->tx_reported = 0;
    t->tx_unreported = nic_now(&t->n);
    t->tx_fault = t->rx_fault = t->rx_nobuf = false;
    memset(t->cfg_coal, 0xff, sizeof t->cfg_coal);
    tg_coal_refresh(t);
}

void tg_dma_stop(tigon *t)
{
    nic *n = &t->n;
    nic_engine_stop(&t->n.tx_eng);
    nic_engine_stop(&t->n.rx_eng);
    if (nic_tx_in_frame(n))
        nic_tx_abort(n, NIC_DROP_RESET, NIC_RING_TX, n->tx_first);
    nic_fifo_flush(n, tg_fw_running(t) ? NIC_DROP_RX_OFF : NIC_DROP_RESET);
    if (tg_fw_running(t)) { /* stack down: what is done is reported */
        nic_coal_flush(&t->txc);
        nic_coal_flush(&t->rxc);
    }
    nic_coal_reset(&t->txc);
    nic_coal_reset(&t->rxc);
    nic_ring_set_running(&t->tx, false);
    rx_running(t, false);
    nic_ring_set_running(&t->cmd, tg_fw_running(t));
}

void tg_dma_reset(tigon *t)
{
    tg_dma_stop(t);
    nic_ring *all[] = {&t->tx, &t->std, &t->jumbo, &t->mini, &t->ret, &t->evt, &t->cmd};
    for (unsigned i = 0; i < ARRAY_SIZE(all); i++)
        nic_ring_reset(all[i]);
    t->tx.ops = &send_host_ops;
    t->tx_reported = 0;
    t->tx_fault = t->rx_fault = t->rx_nobuf = t->tx_skip = false;
    t->n.wire_free = nic_now(&t->n);
    memset(t->cfg_coal, 0xff, sizeof t->cfg_coal);
}
