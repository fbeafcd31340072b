/* SPDX-License-Identifier: GPL-2.0-or-later */
/* e1000 transmit (docs/hardware.md, "8254x transmit"): the head/tail ring
 * walker, legacy, context and data descriptors, checksum insertion, TCP
 * segmentation (82544), VLAN tag insertion, descriptor write-back (DD only for RS, the
 * status word last), TIDV interrupt delay, statistics, line-rate pacing.
 * The walker is the nic's Tx engine (nic_engine: at most its budget of
 * descriptors per step, then it continues on a timer): misprogrammed rings
 * cannot hang the emulator. */
#include "dev/nic/e1000/e1000.h"
#include "net/backend.h"

#include <stdio.h>

/* Synthetic descriptor flags for the ring view and events (the meaning of
 * the command bits depends on the descriptor kind). */
/* clang-format off */
enum {
    TXF_DD = 1u << 0, TXF_EOP = 1u << 1, TXF_IFCS = 1u << 2, TXF_IC = 1u << 3,
    TXF_RS = 1u << 4, TXF_RPS = 1u << 5, TXF_VLE = 1u << 6, TXF_IDE = 1u << 7,
    TXF_TSE = 1u << 8, TXF_CTX = 1u << 9, TXF_DATA = 1u << 10, TXF_TCP = 1u << 11,
    TXF_IP = 1u << 12, TXF_IXSM = 1u << 13, TXF_TXSM = 1u << 14
};
/* clang-format on */
static const nic_bitname tx_flag_names[] = {
    {TXF_DD, "DD"},   {TXF_EOP, "EOP"},     {TXF_IFCS, "IFCS"}, {TXF_IC, "IC"},
    {TXF_RS, "RS"},   {TXF_RPS, "RPS"},     {TXF_VLE, "VLE"},   {TXF_IDE, "IDE"},
    {TXF_TSE, "TSE"}, {TXF_CTX, "context"}, {TXF_DATA, "data"}, {TXF_TCP, "TCP"},
    {TXF_IP, "IP"},   {TXF_IXSM, "IXSM"},   {TXF_TXSM, "TXSM"}, {0, NULL}};

/* ---- checksums ---------------------------------------------------------------- */

/* Insert the ones' complement of the sum of bytes css..cse (0 = to the
 * end) at sloc, big-endian.  Ignored when the offsets fall outside the
 * packet (SDM 3.3.3: CSS >= length or CSO >= length - 1).  A result of 0
 * is stored as 0xFFFF [INF, as Q-E1000]. */
static void put_sum(uint8_t *f, uint32_t n, uint32_t sloc, uint32_t css, uint32_t cse)
{
    uint32_t end = cse && cse < n ? cse + 1 : n;
    if (css >= end || sloc + 1 >= n)
        return;
    uint16_t v = net_csum_fold(net_csum_add(0, f + css, end - css));
    store_be(f + sloc, 2, v ? v : 0xffff);
}

/* ---- descriptors ----------------------------------------------------------------- */

static void tx_decode(nic_ring *r, nic_desc *d)
{
    e1000 *h = r->opaque;
    uint32_t w2 = d->w[2], w3 = d->w[3], f = 0;
    d->buf = d->w[0] | (uint64_t)d->w[1] << 32;
    if (w3 & E1000_TXD_STA_DD)
        f |= TXF_DD;
    if (w2 & E1000_TXD_RS)
        f |= TXF_RS;
    if (w2 & E1000_TXD_IDE)
        f |= TXF_IDE;
    if (!(w2 & E1000_TXD_DEXT)) { /* legacy */
        d->len = w2 & 0xffff;
        f |= (w2 & E1000_TXD_IC) ? TXF_IC : 0;
    } else if (!(w2 & E1000_TXD_DTYP_MASK)) { /* context */
        d->len = w2 & 0xfffff;                /* PAYLEN */
        d->buf = 0;
        f |= TXF_CTX | ((w2 & E1000_TXD_CTX_TCP) ? TXF_TCP : 0) |
             ((w2 & E1000_TXD_CTX_IP) ? TXF_IP : 0) | ((w2 & E1000_TXD_TSE) ? TXF_TSE : 0);
    } else { /* data (or a reserved type, decoded alike) */
        d->len = w2 & 0xfffff;
        f |= TXF_DATA | ((w2 & E1000_TXD_TSE) ? TXF_TSE : 0) |
             ((w3 >> 8) & E1000_TXD_POPTS_IXSM ? TXF_IXSM : 0) |
             ((w3 >> 8) & E1000_TXD_POPTS_TXSM ? TXF_TXSM : 0);
    }
    if (!(f & TXF_CTX)) {
        f |= (w2 & E1000_TXD_EOP) ? TXF_EOP : 0;
        f |= (w2 & E1000_TXD_IFCS) ? TXF_IFCS : 0;
        f |= (w2 & E1000_TXD_VLE) ? TXF_VLE : 0;
        f |= (w2 & E1000_TXD_RPS) && e1000_is_82544(h) ? TXF_RPS : 0;
    }
    d->flags = f;
    d->eop = f & TXF_EOP;
    d->intr = f & (TXF_RS | TXF_RPS);
    d->owned = e1000_dev_owns(r, d->index);
}

static const nic_ring_ops tx_ops = {tx_decode, tx_flag_names, 3, NULL, NULL};

static void tx_step(void *opaque);

static void tx_fire(nic *n, int ring) { nic_irq_assert(n, E1000_ICR_TXDW); }

void e1000_tx_init(e1000 *h)
{
    nic *n = &h->n;
    nic_ring_init(&h->tx, n, NIC_RING_TX, NIC_RING_HEADTAIL, true, 16, &tx_ops, h);
    nic_add_ring(n, &h->tx);
    nic_coal_init(&h->txc, n, NIC_RING_TX, tx_fire);
    nic_engine_init(&h->n.tx_eng, n, "e1000-tx", tx_step, h);
}

static void packet_clear(e1000 *h)
{
    h->pkt = h->pkt_bad = h->pkt_tse = h->pkt_vle = false;
    h->pkt_popts = 0;
    h->pkt_vlan = 0;
    h->seg_count = h->seg_payload = 0;
}

void e1000_tx_reset(e1000 *h)
{
    nic *n = &h->n;
    nic_engine_stop(&h->n.tx_eng);
    if (nic_tx_in_frame(n))
        nic_tx_abort(n, NIC_DROP_RESET, NIC_RING_TX, n->tx_first);
    nic_ring_reset(&h->tx);
    nic_ring_set_size(&h->tx, 0);
    nic_coal_reset(&h->txc);
    nic_coal_config(&h->txc, 0, 0, 0, 0);
    memset(&h->ctx, 0, sizeof h->ctx);
    memset(&h->tso, 0, sizeof h->tso);
    packet_clear(h);
    h->tx_stopped = false;
    n->wire_free = nic_now(n);
}

void e1000_tidv_config(e1000 *h)
{
    uint64_t unit = sched_ns_to_ticks(h->n.clock, 1024);
    nic_coal_config(&h->txc, 0, (DEV_R(h->n.dev, ER_TIDV) & 0xffff) * unit, 0, 0);
}

void e1000_tx_kick(e1000 *h)
{
    nic_ring *r = &h->tx;
    if (!(DEV_R(h->n.dev, ER_TCTL) & E1000_TCTL_EN) || h->tx_stopped || !e1000_ring_ok(r) ||
        r->index == r->host)
        return;
    nic_engine_kick(&h->n.tx_eng, h->n.wire_free);
}

/* ---- sending ------------------------------------------------------------------------ */

/* Hand the gathered frame to the wire: link, speed, statistics, pacing. */
static void send_frame(e1000 *h, int index)
{
    nic *n = &h->n;
    if (!h->lu && !n->tx_overflow) {
        nic_tx_abort(n, NIC_DROP_NO_LINK, NIC_RING_TX, index);
        return;
    }
    if (!e1000_speed_ok(h) && !n->tx_overflow) { /* 82543 MAC forced off the PHY's speed [INF] */
        h->speed_mismatch++;
        nic_tx_abort(n, NIC_DROP_NO_LINK, NIC_RING_TX, index);
        return;
    }
    uint32_t len = n->txlen;
    uint8_t dst0 = len ? n->txbuf[0] : 0;
    bool bcast = len >= 6 && load_be(n->txbuf, 6) == 0xffffffffffffull;
    if (n->tx_pad && len < NET_MIN_FRAME)
        len = NET_MIN_FRAME;
    if (!nic_tx_finish(n, NIC_RING_TX, index))
        return;
    uint32_t wire = len + 4; /* with the FCS */
    e1000_stat_add(h, ER_GPTC, 1);
    e1000_stat_add(h, ER_TPT, 1);
    e1000_stat_add(h, ER_GOTCL, wire);
    e1000_stat_add(h, ER_TOTL, wire);
    e1000_stat_size(h, ER_PTC64, wire);
    if (bcast)
        e1000_stat_add(h, ER_BPTC, 1);
    else if (dst0 & 1)
        e1000_stat_add(h, ER_MPTC, 1);
    static const uint32_t bit_ps[] = {100000, 10000, 1000};
    n->bit_ps = bit_ps[e1000_speed(h)]; /* the speed the MAC runs at now */
    nic_wire_send(n, wire);
}

/* Insert an 802.1Q tag (VET, then the descriptor's VLAN field) after the
 * source address. */
static bool insert_vlan(e1000 *h, uint16_t vlan)
{
    nic *n = &h->n;
    if (n->txlen < 12 || n->txlen > NET_MAX_FRAME - 4)
        return false;
    memmove(n->txbuf + 16, n->txbuf + 12, n->txlen - 12);
    store_be(n->txbuf + 12, 2, DEV_R(n->dev, ER_VET) & 0xffff);
    store_be(n->txbuf + 14, 2, vlan);
    n->txlen += 4;
    return true;
}

/* One TCP segment: patch the replayed header (IP length and ID, TCP
 * sequence and flags or UDP length, checksums) and send it. */
static void tso_emit(e1000 *h, bool last, int index)
{
    nic *n = &h->n;
    const e1000_txctx *c = &h->tso;
    uint8_t *f = n->txbuf;
    uint32_t len = n->txlen, hl = c->hdr_len, payload = len - hl;
    if (c->ip) {
        if (c->ipcss + 6u <= hl) {
            store_be(f + c->ipcss + 2, 2, len - c->ipcss);
            store_be(f + c->ipcss + 4, 2, load_be(h->hdr + c->ipcss + 4, 2) + h->seg_count);
        }
    } else if (c->ipcss + 6u <= hl) { /* IPv6 payload length [INF] */
        store_be(f + c->ipcss + 4, 2, len - c->ipcss - 40);
    }
    if (c->tcp) {
        if (c->tucss + 14u <= hl) {
            store_be(f + c->tucss + 4, 4, load_be(h->hdr + c->tucss + 4, 4) + h->seg_payload);
            if (!last)
                f[c->tucss + 13] &= (uint8_t)~0x09; /* PSH and FIN only on the last */
        }
    } else if (c->tucss + 6u <= hl) {
        store_be(f + c->tucss + 4, 2, len - c->tucss);
    }
    if ((h->pkt_popts & E1000_TXD_POPTS_TXSM) && c->tucso + 2u <= hl) {
        /* The driver seeds the pseudo-header sum without the length. */
        uint32_t seed = (uint32_t)load_be(h->hdr + c->tucso, 2) + (len - c->tucss);
        store_be(f + c->tucso, 2, net_csum_fold_sum(seed));
        put_sum(f, len, c->tucso, c->tucss, c->tucse);
    }
    if (h->pkt_popts & E1000_TXD_POPTS_IXSM)
        put_sum(f, len, c->ipcso, c->ipcss, c->ipcse);
    if (h->pkt_vle && (DEV_R(n->dev, ER_CTRL) & E1000_CTRL_VME) && !insert_vlan(h, h->pkt_vlan)) {
        nic_tx_abort(n, NIC_DROP_TOO_LONG, NIC_RING_TX, index);
        return;
    }
    h->seg_count++;
    h->seg_payload += payload;
    h->tso_frames++;
    send_frame(h, index);
}

/* Data of a segmentation packet: fill header + MSS, send, replay the header. */
static void tso_data(e1000 *h, const nic_desc *d, uint64_t addr, uint32_t left)
{
    nic *n = &h->n;
    const e1000_txctx *c = &h->tso;
    uint32_t msh = c->hdr_len + c->mss;
    while (left) {
        if (!nic_tx_in_frame(n) && h->seg_count)
            nic_tx_put(n, h->hdr, c->hdr_len, NIC_RING_TX, (int)d->index);
        uint32_t have = nic_tx_in_frame(n) ? n->txlen : 0;
        uint32_t k = msh - have < left ? msh - have : left;
        if (nic_tx_gather(n, addr, k, NIC_RING_TX, (int)d->index)) {
            nic_tx_abort(n, NIC_DROP_DMA, NIC_RING_TX, (int)d->index);
            e1000_stat_add(h, ER_TSCTFC, 1);
            h->pkt_bad = true;
            return;
        }
        if (have < c->hdr_len && n->txlen >= c->hdr_len && !h->seg_count)
            memcpy(h->hdr, n->txbuf, c->hdr_len);
        addr += k;
        left -= k;
        if (n->txlen == msh) {
            bool last = h->seg_payload + c->mss >= c->paylen;
            tso_emit(h, last, (int)d->index);
        }
    }
}

static void tso_eop(e1000 *h, int index)
{
    nic *n = &h->n;
    const e1000_txctx *c = &h->tso;
    if (nic_tx_in_frame(n)) {
        if (n->txlen <= c->hdr_len) { /* never reached the payload */
            nic_tx_abort(n, NIC_DROP_TOO_SHORT, NIC_RING_TX, index);
            e1000_stat_add(h, ER_TSCTFC, 1);
            return;
        }
        tso_emit(h, true, index);
    }
    /* PAYLEN and the data the descriptors carried disagree (SDM 3.3.7.1). */
    if (h->seg_payload != c->paylen)
        e1000_stat_add(h, ER_TSCTFC, 1);
    else
        e1000_stat_add(h, ER_TSCTC, 1);
}

/* End of a normal packet: checksum insertion, VLAN tag, FCS, send. */
static void normal_eop(e1000 *h, const nic_desc *d)
{
    nic *n = &h->n;
    uint32_t w2 = d->w[2], w3 = d->w[3];
    uint8_t *f = n->txbuf;
    uint32_t len = n->txlen;
    if (n->tx_overflow) {
        send_frame(h, (int)d->index); /* counted as too long by the frame engine */
        return;
    }
    if (h->pkt_popts & E1000_TXD_POPTS_TXSM)
        put_sum(f, len, h->ctx.tucso, h->ctx.tucss, h->ctx.tucse);
    if (h->pkt_popts & E1000_TXD_POPTS_IXSM)
        put_sum(f, len, h->ctx.ipcso, h->ctx.ipcss, h->ctx.ipcse);
    if (!(w2 & E1000_TXD_DEXT) && (w2 & E1000_TXD_IC))
        put_sum(f, len, (w2 >> 16) & 0xff, (w3 >> 8) & 0xff, 0);
    if (!(w2 & E1000_TXD_IFCS) && len >= 4) {
        /* The software supplied the FCS: the wire carries no FCS here, so
         * drop it after checking it [INF]. */
        uint32_t fcs = (uint32_t)load_le(f + len - 4, 4);
        if (fcs != nic_crc32(f, len - 4))
            h->tx_bad_fcs++;
        n->txlen -= 4;
    }
    if ((w2 & E1000_TXD_VLE) && (DEV_R(n->dev, ER_CTRL) & E1000_CTRL_VME) &&
        !insert_vlan(h, (uint16_t)(w3 >> 16))) {
        nic_tx_abort(n, NIC_DROP_TOO_LONG, NIC_RING_TX, (int)d->index);
        return;
    }
    send_frame(h, (int)d->index);
}

static void context_desc(e1000 *h, const nic_desc *d)
{
    e1000_txctx c;
    uint32_t w0 = d->w[0], w1 = d->w[1], w2 = d->w[2], w3 = d->w[3];
    c.ipcss = (uint8_t)w0;
    c.ipcso = (uint8_t)(w0 >> 8);
    c.ipcse = (uint16_t)(w0 >> 16);
    c.tucss = (uint8_t)w1;
    c.tucso = (uint8_t)(w1 >> 8);
    c.tucse = (uint16_t)(w1 >> 16);
    c.paylen = w2 & 0xfffff;
    c.tcp = w2 & E1000_TXD_CTX_TCP;
    c.ip = w2 & E1000_TXD_CTX_IP;
    c.hdr_len = (uint8_t)(w3 >> 8);
    c.mss = (uint16_t)(w3 >> 16);
    /* The segmentation context exists on the 82544 only; on the 82543
     * TSE is reserved and the descriptor loads the normal context [INF]. */
    if ((w2 & E1000_TXD_TSE) && e1000_is_82544(h))
        h->tso = c;
    else
        h->ctx = c;
}

/* One data or legacy descriptor. */
static void data_desc(e1000 *h, const nic_desc *d)
{
    nic *n = &h->n;
    uint32_t w2 = d->w[2], w3 = d->w[3];
    bool data = (w2 & E1000_TXD_DEXT) != 0;
    uint32_t len = data ? w2 & 0xfffff : w2 & 0xffff;
    if (!h->pkt) {
        h->pkt = true;
        h->pkt_tse = data && (w2 & E1000_TXD_TSE) && e1000_is_82544(h);
        h->pkt_popts = data ? (uint8_t)(w3 >> 8) : 0;
        h->pkt_vle = (w2 & E1000_TXD_VLE) != 0; /* TSE: taken from the first descriptor */
        h->pkt_vlan = (uint16_t)(w3 >> 16);
        if (h->pkt_tse) {
            const e1000_txctx *c = &h->tso;
            if (!c->mss || !c->hdr_len || c->hdr_len + c->mss > NET_MAX_FRAME - 4) {
                nic_tx_drop(n, NIC_DROP_TOO_LONG, 0, NIC_RING_TX, (int)d->index);
                e1000_stat_add(h, ER_TSCTFC, 1);
                h->pkt_bad = true;
            }
        }
    }
    /* A null address or a zero length carries no data (SDM 3.3.3). */
    uint64_t addr = d->buf;
    if (!addr)
        len = 0;
    if (!h->pkt_bad) {
        if (h->pkt_tse) {
            tso_data(h, d, addr, len);
        } else if (nic_tx_gather(n, addr, len, NIC_RING_TX, (int)d->index)) {
            nic_tx_abort(n, NIC_DROP_DMA, NIC_RING_TX, (int)d->index);
            h->pkt_bad = true;
        }
    }
    if (!(w2 & E1000_TXD_EOP))
        return;
    if (!h->pkt_bad) {
        if (h->pkt_tse)
            tso_eop(h, (int)d->index);
        else
            normal_eop(h, d);
    }
    packet_clear(h);
}

static void tx_step(void *opaque)
{
    e1000 *h = opaque;
    nic *n = &h->n;
    nic_ring *r = &h->tx;
    if (!(DEV_R(n->dev, ER_TCTL) & E1000_TCTL_EN) || h->tx_stopped || !e1000_ring_ok(r)) {
        nic_ring_set_running(r, false);
        return;
    }
    for (unsigned k = 0; k < h->n.tx_eng.budget; k++) {
        if (r->index == r->host) { /* the queue is empty */
            if (r->running)
                nic_irq_assert(n, E1000_ICR_TXQE);
            nic_ring_set_running(r, false);
            return;
        }
        if (nic_engine_wire_wait(&h->n.tx_eng))
            return;
        nic_ring_set_running(r, true);
        if (nic_engine_bus_wait(&h->n.tx_eng)) /* the bus is still busy with the last descriptor */
            return;
        nic_desc d;
        if (nic_ring_fetch(r, &d)) { /* counted and published by the DMA layer */
            h->tx_stopped = true;
            nic_ring_set_running(r, false);
            return;
        }
        uint32_t w2 = d.w[2];
        if ((w2 & E1000_TXD_DEXT) && !(w2 & E1000_TXD_DTYP_MASK))
            context_desc(h, &d);
        else
            data_desc(h, &d);
        bool report = (w2 & E1000_TXD_RS) || ((w2 & E1000_TXD_RPS) && e1000_is_82544(h));
        if (report) {
            /* Only DD is written, in the status word (word 3). */
            d.w[3] = (d.w[3] & ~0xfu) | E1000_TXD_STA_DD;
            if (nic_ring_writeback(r, &d, 1u << 3)) {
                h->tx_stopped = true;
                nic_ring_set_running(r, false);
                return;
            }
            nic_coal_event(&h->txc); /* TXDW, delayed by TIDV when IDE is set */
            if (!(w2 & E1000_TXD_IDE))
                nic_coal_flush(&h->txc);
        }
        nic_ring_advance(r, false);
    }
    nic_engine_yield(&h->n.tx_eng);
}

/* ---- the "offload" view ------------------------------------------------------------ */

static void show_ctx(const char *what, const e1000_txctx *c, strbuf *out)
{
    sb_printf(out, "  %s context: IPCSS %u IPCSO %u IPCSE %u  TUCSS %u TUCSO %u TUCSE %u  %s%s",
              what, c->ipcss, c->ipcso, c->ipcse, c->tucss, c->tucso, c->tucse,
              c->ip ? "IPv4 " : "", c->tcp ? "TCP" : "UDP");
    sb_printf(out, "  PAYLEN %u HDRLEN %u MSS %u\n", c->paylen, c->hdr_len, c->mss);
}

void e1000_view_offload(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    e1000 *h = E1000(d);
    nic *n = &h->n;
    show_ctx("normal", &h->ctx, out);
    if (e1000_is_82544(h))
        show_ctx("segmentation", &h->tso, out);
    else
        sb_puts(out, "  (the 82543 has no TCP segmentation)\n");
    if (!h->pkt) {
        sb_puts(out, "  no packet in progress\n");
    } else {
        sb_printf(out, "  packet in progress: %u bytes gathered%s%s, POPTS%s%s%s",
                  nic_tx_in_frame(n) ? n->txlen : 0, h->pkt_tse ? ", TSE" : "",
                  h->pkt_bad ? " (failed: skipping to EOP)" : "",
                  h->pkt_popts & E1000_TXD_POPTS_IXSM ? " IXSM" : "",
                  h->pkt_popts & E1000_TXD_POPTS_TXSM ? " TXSM" : "", h->pkt_popts ? "" : " none");
        if (h->pkt_tse)
            sb_printf(out, ", %u segments sent, %u payload bytes", h->seg_count, h->seg_payload);
        sb_putc(out, '\n');
    }
    sb_printf(out,
              "  TSO segments sent %llu; frames sent with a software FCS that was wrong %llu\n",
              (unsigned long long)h->tso_frames, (unsigned long long)h->tx_bad_fcs);
    sb_printf(out, "  Tx engine %s%s\n", h->tx.running ? "running" : "idle",
              h->tx_stopped ? " (stopped by a descriptor DMA error until TDT is written)" : "");
}
