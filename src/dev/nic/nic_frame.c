/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The frame engine shared by the NIC models: Tx gather across fragments
 * until end-of-packet, hand-off to the backend, the Rx FIFO between the MAC
 * and the Rx DMA engine, and drop accounting (every frame lost is counted
 * with its reason and published).  Backends carry frames without FCS. */
#include "dev/nic/nic.h"

#include <stdlib.h>

#include "dev/nic/nic_phy.h"

#define ETH_ZLEN 60 /* minimum frame without FCS; shorter ones are padded */

static uint64_t frame_dst(const uint8_t *f, uint32_t len) { return len >= 6 ? load_be(f, 6) : 0; }

static uint64_t frame_type(const uint8_t *f, uint32_t len)
{
    return len >= 14 ? load_be(f + 12, 2) : 0;
}

void nic_tx_drop(nic *n, int reason, uint32_t len, int ring, int index)
{
    n->cnt.tx_drops[reason]++;
    EVENT_EMIT(nic_ev(n, NIC_EV_TX_DROP), nic_initiator(n), (uint64_t)ring,
               (uint64_t)(int64_t)index, (uint64_t)reason, len);
}

void nic_rx_drop(nic *n, int reason, uint32_t len, int ring, int index)
{
    n->cnt.rx_drops[reason]++;
    EVENT_EMIT(nic_ev(n, NIC_EV_RX_DROP), nic_initiator(n), (uint64_t)ring,
               (uint64_t)(int64_t)index, (uint64_t)reason, len);
}

/* Count one more fragment of len bytes for the packet being gathered
 * (index starts a new one); false when it has no room for them. */
static bool tx_room(nic *n, uint32_t len, int index)
{
    if (n->tx_first < 0) {
        n->tx_first = index;
        n->txlen = 0;
        n->txfrags = 0;
        n->tx_overflow = false;
    }
    n->txfrags++;
    if (n->tx_overflow || len > NET_MAX_FRAME - n->txlen) {
        /* Too long for any backend: keep consuming descriptors to the end
         * of the packet, then count one drop. */
        n->tx_overflow = true;
        n->txlen = len > UINT32_MAX - n->txlen ? UINT32_MAX : n->txlen + len;
        return false;
    }
    return true;
}

int nic_tx_gather(nic *n, uint64_t addr, uint32_t len, int ring, int index)
{
    if (!tx_room(n, len, index) || !len)
        return 0;
    nic_dma_ctx(n, NIC_DMA_TX_BUF, ring, index);
    int st = nic_dma_payload_read(n, addr, n->txbuf + n->txlen, len);
    if (st)
        return st;
    n->txlen += len;
    return 0;
}

void nic_tx_put(nic *n, const void *p, uint32_t len, int ring, int index)
{
    if (!tx_room(n, len, index))
        return;
    memcpy(n->txbuf + n->txlen, p, len);
    n->txlen += len;
}

void nic_tx_abort(nic *n, int reason, int ring, int index)
{
    if (n->tx_first < 0)
        return;
    nic_tx_drop(n, reason, n->txlen, ring, index);
    n->tx_first = -1;
    n->txlen = 0;
    n->txfrags = 0;
    n->tx_overflow = false;
}

bool nic_tx_finish(nic *n, int ring, int index)
{
    int first = n->tx_first;
    uint32_t len = n->txlen;
    unsigned frags = n->txfrags;
    bool overflow = n->tx_overflow;
    n->tx_first = -1;
    n->txlen = 0;
    n->txfrags = 0;
    n->tx_overflow = false;
    int reason = NIC_DROP_NONE;
    if (overflow)
        reason = NIC_DROP_TOO_LONG;
    else if (len == 0 || (!n->tx_pad && len < 14)) /* no Ethernet header to send */
        reason = NIC_DROP_TOO_SHORT;
    else if (!n->port || (n->link && !n->link->up))
        reason = NIC_DROP_NO_LINK;
    if (reason) {
        nic_tx_drop(n, reason, len, ring, first);
        return false;
    }
    if (n->tx_pad && len < ETH_ZLEN) {
        memset(n->txbuf + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    n->cnt.tx_frames++;
    n->cnt.tx_bytes += len;
    nic_rate_tick(n);
    EVENT_EMIT(nic_ev(n, NIC_EV_TX_FRAME), nic_initiator(n), (uint64_t)ring,
               (uint64_t)(int64_t)first, len, frags, frame_dst(n->txbuf, len),
               frame_type(n->txbuf, len));
    net_port_send(n->port, n->txbuf, len);
    return true;
}

void nic_rx_done(nic *n, const uint8_t *frame, uint32_t len, int match, unsigned bufs, int ring,
                 int index)
{
    n->cnt.rx_frames++;
    n->cnt.rx_bytes += len;
    nic_rate_tick(n);
    if (len >= 6 && (frame[0] & 1)) {
        if (frame_dst(frame, len) == 0xffffffffffffull)
            n->cnt.rx_bcast++;
        else
            n->cnt.rx_mcast++;
    }
    EVENT_EMIT(nic_ev(n, NIC_EV_RX_FRAME), nic_initiator(n), (uint64_t)ring,
               (uint64_t)(int64_t)index, len, bufs, (uint64_t)match, frame_dst(frame, len),
               frame_type(frame, len));
}

/* ---- the Rx FIFO ---------------------------------------------------------- */

bool nic_fifo_push(nic *n, const uint8_t *frame, uint32_t len, int tag)
{
    nic_fifo *q = &n->fifo;
    if (q->count == NIC_FIFO_FRAMES || len > q->cap - q->bytes)
        return false;
    uint8_t *p = xmalloc(len);
    memcpy(p, frame, len);
    nic_fifo_ent *e = &q->q[(q->head + q->count) % NIC_FIFO_FRAMES];
    e->data = p;
    e->len = len;
    e->tag = tag;
    q->count++;
    q->bytes += len;
    nic_fc_update(n);
    return true;
}

const uint8_t *nic_fifo_head(const nic *n, uint32_t *len, int *tag)
{
    const nic_fifo *q = &n->fifo;
    if (!q->count)
        return NULL;
    *len = q->q[q->head].len;
    if (tag)
        *tag = q->q[q->head].tag;
    return q->q[q->head].data;
}

void nic_fifo_pop(nic *n)
{
    nic_fifo *q = &n->fifo;
    if (!q->count)
        return;
    nic_fifo_ent *e = &q->q[q->head];
    q->bytes -= e->len;
    free(e->data);
    e->data = NULL;
    q->head = (q->head + 1) % NIC_FIFO_FRAMES;
    q->count--;
    nic_fc_update(n);
}

/* ---- 802.3x flow control --------------------------------------------------- */

void nic_fc_update(nic *n)
{
    const nic_ops *ops = n->model->ops;
    uint32_t high = 0, low = 0;
    if (ops->fc_levels)
        ops->fc_levels(n, &high, &low);
    if (!high) {
        n->fc_xoff = false; /* flow control off: the partner sends freely */
        return;
    }
    if (!n->fc_xoff && n->fifo.bytes >= high) {
        n->fc_xoff = true;
        n->cnt.fc_xoffs++;
        if (ops->fc_sent)
            ops->fc_sent(n, true);
    } else if (n->fc_xoff && n->fifo.bytes <= low) {
        n->fc_xoff = false;
        n->cnt.fc_xons++;
        if (ops->fc_sent)
            ops->fc_sent(n, false);
    }
}

bool nic_fc_ready(const nic *n)
{
    if (!n->fc_xoff)
        return true;
    uint32_t high = 0, low = 0;
    n->model->ops->fc_levels(n, &high, &low);
    return !high; /* turned off since: the pause ends */
}

void nic_fc_default_levels(const nic *n, uint32_t max_frame, uint32_t *high, uint32_t *low)
{
    uint32_t cap = n->fifo.cap;
    *high = cap > max_frame ? cap - max_frame : 1;
    *low = cap / 2;
}

void nic_fifo_flush(nic *n, int reason)
{
    uint32_t len;
    while (nic_fifo_head(n, &len, NULL)) {
        nic_rx_drop(n, reason, len, NIC_RING_RX, -1);
        nic_fifo_pop(n);
    }
}
