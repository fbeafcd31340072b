/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hamachi GNIC-II DMA engines: the Tx and Rx channels walking their
 * ownership-bit rings, the Rx status trailer, coalesced completion
 * interrupts and the statistics counters (docs/hardware.md, "Hamachi GNIC-II").
 *
 * Each channel is one of the nic's engines (nic_engine): at most its budget
 * of descriptors per step, then it continues on a timer, so a ring that
 * never ends (no DescEndRing, every descriptor owned) cannot hang the
 * emulator.  The transmitter is paced at line rate (nic_wire_send, 1 Gb/s),
 * and both engines wait for the DMA time of what they moved (nic.h: PCI
 * clocks per word or burst). */
#include "dev/nic/hamachi/hamachi.h"

static const nic_bitname ham_desc_flags[] = {{HAM_DESC_OWN, "Own"},
                                             {HAM_DESC_EOP, "EndPacket"},
                                             {HAM_DESC_END_RING, "EndRing"},
                                             {HAM_DESC_INTR, "Intr"},
                                             {0, NULL}};

/* 32-bit mode: {status_n_length, addr}; 64-bit mode: {status_n_length, pad,
 * addr low, addr high} (Linux hamachi.c). */
static void ham_decode(nic_ring *r, nic_desc *d)
{
    uint32_t s = d->w[0];
    d->owned = (s & HAM_DESC_OWN) != 0;
    d->eop = (s & HAM_DESC_EOP) != 0;
    d->end_ring = (s & HAM_DESC_END_RING) != 0;
    d->intr = (s & HAM_DESC_INTR) != 0;
    d->flags = s & 0xffff0000u;
    d->len = s & 0xffff;
    d->buf = r->desc_size >= 16 ? d->w[2] | (uint64_t)d->w[3] << 32 : d->w[1];
}

static const nic_ring_ops ham_ring_ops = {ham_decode, ham_desc_flags, 0, NULL, NULL};

static void tx_step(void *opaque);
static void rx_step(void *opaque);

void hamachi_dma_init(hamachi *h)
{
    nic *n = &h->n;
    nic_ring_init(&h->tx, n, NIC_RING_TX, NIC_RING_OWN, true, 8, &ham_ring_ops, h);
    nic_ring_init(&h->rx, n, NIC_RING_RX, NIC_RING_OWN, false, 8, &ham_ring_ops, h);
    nic_add_ring(n, &h->tx);
    nic_add_ring(n, &h->rx);
    nic_engine_init(&h->n.tx_eng, n, "hamachi-tx", tx_step, h);
    nic_engine_init(&h->n.rx_eng, n, "hamachi-rx", rx_step, h);
}

uint16_t hamachi_ch_status(const hamachi *h, bool tx)
{
    return (uint16_t)(tx ? h->tx_state : h->rx_state);
}

static void ch_set(hamachi *h, bool tx, enum ham_ch_state state)
{
    if (tx)
        h->tx_state = state;
    else
        h->rx_state = state;
    nic_ring_set_running(tx ? &h->tx : &h->rx, state == HAM_CH_RUNNING);
}

void hamachi_coal_fire(nic *n, int ring)
{
    nic_irq_assert(n, ring == NIC_RING_TX ? HAM_INTR_TX_DONE : HAM_INTR_RX_DONE);
}

/* Counters are 32 bits and wrap; crossing half range sets the counter's
 * overflow bit and raises StatsMax [INF]. */
void hamachi_stat_add(hamachi *h, unsigned reg, uint32_t v)
{
    device *d = h->n.dev;
    uint64_t *p = dev_rv(d, reg, 0);
    uint32_t old = (uint32_t)*p, nv = old + v;
    *p = nv;
    if (((nv ^ old) & nv & 0x80000000u) || nv < old) {
        uint32_t off = d->cls->regs[reg].offset;
        unsigned ovf = off < 0x380 ? HR_STAT_RX_OVF : HR_STAT_TX_OVF;
        DEV_R(d, ovf) |= 1ull << (((off - 0x300) / 4) & 31);
        nic_irq_assert(&h->n, HAM_INTR_STATS_MAX);
    }
}

/* ---- transmit ---------------------------------------------------------------- */

void hamachi_tx_cmd(hamachi *h, unsigned cmd)
{
    if (cmd & 2) {
        nic_engine_stop(&h->n.tx_eng);
        nic_tx_abort(&h->n, NIC_DROP_RESET, NIC_RING_TX, (int)h->tx.index);
        h->tx_intr = false;
        ch_set(h, true, HAM_CH_STOPPED);
    } else if ((cmd & 1) && h->tx_state != HAM_CH_RUNNING) {
        ch_set(h, true, HAM_CH_RUNNING);
        nic_engine_kick(&h->n.tx_eng, 0);
    }
}

/* A DMA failed: drop the frame being gathered, stop at this descriptor
 * (it is not written back), raise IntrTxPCIFault. */
static void tx_fault(hamachi *h)
{
    nic_tx_abort(&h->n, NIC_DROP_DMA, NIC_RING_TX, (int)h->tx.index);
    h->tx_intr = false;
    ch_set(h, true, HAM_CH_SUSPENDED);
    nic_irq_assert(&h->n, HAM_INTR_TX_PCI_FAULT);
}

static void tx_step(void *opaque)
{
    hamachi *h = opaque;
    nic *n = &h->n;
    if (h->tx_state != HAM_CH_RUNNING)
        return;
    for (unsigned k = 0; k < h->n.tx_eng.budget; k++) {
        if (nic_engine_wire_wait(&h->n.tx_eng) || nic_engine_bus_wait(&h->n.tx_eng))
            return;
        nic_desc d;
        if (nic_ring_fetch(&h->tx, &d)) {
            tx_fault(h);
            return;
        }
        if (!d.owned) { /* the ring is drained: idle until TxCmd = 1 */
            ch_set(h, true, HAM_CH_SUSPENDED);
            return;
        }
        if (nic_tx_gather(n, d.buf, d.len, NIC_RING_TX, (int)d.index)) {
            tx_fault(h);
            return;
        }
        h->tx_intr |= d.intr;
        uint32_t len = n->txlen;
        if (d.eop && nic_tx_finish(n, NIC_RING_TX, (int)d.index)) {
            uint32_t wire = (len < 60 ? 60 : len) + 4; /* with the FCS the MAC appends */
            hamachi_stat_add(h, HR_STAT_TX_BYTES, wire);
            nic_wire_send(n, wire);
        }
        /* Hand the descriptor back: only DescOwn is cleared ("the chip is
         * not required to set the entire flag to zero"). */
        d.w[0] &= ~HAM_DESC_OWN;
        if (nic_ring_writeback(&h->tx, &d, 1u << 0)) {
            tx_fault(h);
            return;
        }
        if (d.eop) {
            if (h->tx_intr) /* IntrTxDone only for frames with DescIntr */
                nic_coal_event(&h->txc);
            h->tx_intr = false;
        }
        nic_ring_advance(&h->tx, d.end_ring);
    }
    nic_engine_yield(&h->n.tx_eng);
}

/* ---- receive ----------------------------------------------------------------- */

void hamachi_rx_cmd(hamachi *h, unsigned cmd)
{
    if (cmd & 2) {
        nic_engine_stop(&h->n.rx_eng);
        ch_set(h, false, HAM_CH_STOPPED);
    } else if ((cmd & 1) && h->rx_state != HAM_CH_RUNNING) {
        ch_set(h, false, HAM_CH_RUNNING);
        nic_engine_kick(&h->n.rx_eng, 0);
    }
}

/* The MAC: length checks, the address filter, then the FIFO. */
bool hamachi_rx_frame(nic *n, const uint8_t *frame, size_t size)
{
    hamachi *h = (hamachi *)n;
    uint32_t len = size > NET_MAX_FRAME + 1 ? NET_MAX_FRAME + 1 : (uint32_t)size;
    int reason = NIC_DROP_NONE, match = NIC_MATCH_NONE;
    if (h->rx_state == HAM_CH_STOPPED) {
        reason = NIC_DROP_RX_OFF;
    } else if (len < 14) {
        reason = NIC_DROP_TOO_SHORT;
        hamachi_stat_add(h, HR_STAT_RX_LENGTH, 1);
    } else if (len + 4 > DEV_R(n->dev, HR_MAX_FRAME) || len > NET_MAX_FRAME) {
        reason = NIC_DROP_TOO_LONG;
        hamachi_stat_add(h, HR_STAT_RX_LENGTH, 1);
    } else if ((match = nic_mac_match(&h->filt, frame)) == NIC_MATCH_NONE) {
        reason = NIC_DROP_FILTERED;
    } else if (!nic_fifo_push(n, frame, len, match)) {
        reason = h->rx_nobuf ? NIC_DROP_NO_BUFFER : NIC_DROP_FIFO;
        hamachi_stat_add(h, HR_STAT_RX_DROPPED, 1);
    }
    if (reason) {
        nic_rx_drop(n, reason, len, NIC_RING_RX, -1);
        return false;
    }
    /* A new frame makes a suspended channel look at its descriptor again,
     * as Tulip-style chips do [INF]. */
    if (h->rx_state == HAM_CH_SUSPENDED)
        ch_set(h, false, HAM_CH_RUNNING);
    nic_engine_kick(&h->n.rx_eng, 0);
    return true;
}

/* Place the next part of the frame's stream into buffer d: data, the FCS
 * gap (the length in the trailer counts the FCS, whose bytes are not
 * stored), padding to an 8-byte bus address, the 16-byte trailer
 * {0, frame length with FCS, checksum 0, 0} (layout [INF]: docs/hardware.md,
 * "Descriptors and rings"). */
static int rx_fill(hamachi *h, const nic_desc *d, const uint8_t *f, uint32_t len,
                   uint32_t *used_out)
{
    nic *n = &h->n;
    uint32_t cap = d->len, used = 0;
    int st = 0;
    while (used < cap && h->rx_phase != HAM_RX_DONE && !st) {
        uint64_t a = d->buf + used;
        uint32_t room = cap - used, k;
        switch (h->rx_phase) {
        case HAM_RX_DATA:
            k = len - n->rx_off < room ? len - n->rx_off : room;
            nic_dma_ctx(n, NIC_DMA_RX_BUF, NIC_RING_RX, (int)d->index);
            st = nic_dma_payload_write(n, a, f + n->rx_off, k);
            n->rx_off += k;
            if (n->rx_off == len)
                h->rx_phase = HAM_RX_FCS;
            break;
        case HAM_RX_FCS:
            k = h->rx_gap < room ? h->rx_gap : room;
            h->rx_gap -= k;
            if (!h->rx_gap)
                h->rx_phase = HAM_RX_PAD;
            break;
        case HAM_RX_PAD:
            if (h->rx_pad < 0)
                h->rx_pad = (int)((8 - (a & 7)) & 7);
            k = (uint32_t)h->rx_pad < room ? (uint32_t)h->rx_pad : room;
            h->rx_pad -= (int)k;
            if (!h->rx_pad)
                h->rx_phase = HAM_RX_TRAILER;
            break;
        default: { /* HAM_RX_TRAILER */
            uint8_t tb[16] = {0};
            store_le(tb + 4, 4, (len + 4) & 0xffff); /* bits 10:0 as Linux reads them */
            k = 16 - h->rx_toff < room ? 16 - h->rx_toff : room;
            nic_dma_ctx(n, NIC_DMA_RX_STATUS, NIC_RING_RX, (int)d->index);
            st = nic_dma_write_status(n, a, tb + h->rx_toff, k);
            h->rx_toff += k;
            if (h->rx_toff == 16)
                h->rx_phase = HAM_RX_DONE;
            break;
        }
        }
        used += k;
    }
    *used_out = used;
    return st;
}

/* A DMA failed: the frame is dropped, the channel stops at this descriptor,
 * IntrRxPCIFault is raised. */
static void rx_fault(hamachi *h, uint32_t len)
{
    nic_rx_drop(&h->n, NIC_DROP_DMA, len, NIC_RING_RX, (int)h->rx.index);
    nic_fifo_pop(&h->n);
    nic_rx_end(&h->n);
    ch_set(h, false, HAM_CH_SUSPENDED);
    nic_irq_assert(&h->n, HAM_INTR_RX_PCI_FAULT);
}

static void rx_step(void *opaque)
{
    hamachi *h = opaque;
    nic *n = &h->n;
    if (h->rx_state != HAM_CH_RUNNING)
        return;
    for (unsigned k = 0; k < h->n.rx_eng.budget; k++) {
        uint32_t len;
        int match;
        const uint8_t *f = nic_fifo_head(n, &len, &match);
        if (!f)
            return; /* running, waiting for frames */
        if (nic_engine_bus_wait(&h->n.rx_eng))
            return;
        if (!n->rx_active) {
            nic_rx_begin(n, (int)h->rx.index);
            h->rx_phase = HAM_RX_DATA;
            h->rx_toff = 0;
            h->rx_gap = 4;
            h->rx_pad = -1;
            h->rx_intr = false;
        }
        nic_desc d;
        if (nic_ring_fetch(&h->rx, &d)) {
            rx_fault(h, len);
            return;
        }
        h->rx_nobuf = !d.owned;
        if (!d.owned) { /* no buffer: stop until RxCmd = 1 or a new frame */
            ch_set(h, false, HAM_CH_SUSPENDED);
            return;
        }
        uint32_t used;
        if (rx_fill(h, &d, f, len, &used)) {
            rx_fault(h, len);
            return;
        }
        bool done = h->rx_phase == HAM_RX_DONE;
        /* Own cleared, EndPacket on the frame's last buffer only, the byte
         * count in the low 16 bits; EndRing and Intr kept. */
        d.w[0] = (d.w[0] & (HAM_DESC_END_RING | HAM_DESC_INTR)) | (done ? HAM_DESC_EOP : 0) |
                 (used & 0xffff);
        if (nic_ring_writeback(&h->rx, &d, 1u << 0)) {
            rx_fault(h, len);
            return;
        }
        n->rx_bufs++;
        h->rx_intr |= d.intr;
        nic_ring_advance(&h->rx, d.end_ring);
        if (done) {
            hamachi_stat_add(h, HR_STAT_RX_BYTES, len + 4);
            if (match == NIC_MATCH_MULTICAST)
                hamachi_stat_add(h, HR_STAT_RX_MCAST, 1);
            nic_rx_done(n, f, len, match, n->rx_bufs, NIC_RING_RX, n->rx_first);
            if (h->rx_intr) /* IntrRxDone only for frames with DescIntr */
                nic_coal_event(&h->rxc);
            nic_rx_end(n);
            nic_fifo_pop(n);
        }
    }
    nic_engine_yield(&h->n.rx_eng);
}
