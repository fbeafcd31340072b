/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IOC3 Ethernet DMA engines (docs/hardware.md, "IOC3 Ethernet").
 *
 * Tx: a ring of 128 (or 512) descriptors of 128 bytes, 16 KB aligned at
 * ETBR.  The host owns [ETCIR, ETPIR); a write to ETPIR starts the
 * transmitter, which takes each descriptor's header (cmd, bufcnt, p1, p2: six
 * word DMAs), gathers the inline data D0 (in the descriptor, up to 104
 * bytes), buffer B1 and buffer B2, inserts the checksum if asked, sends the
 * frame at 10 or 100 Mb/s, advances ETCIR by 128 and raises TXEXPLICIT for a
 * descriptor with INTWHENDONE.  A drained ring sets ETCIR.IDLE and raises
 * TXEMPTY.
 *
 * Rx: a ring of 512 big-endian 64-bit buffer addresses, 4 KB aligned at
 * ERBR.  The host posts buffers up to ERPIR; the MAC fills the buffer at
 * ERCIR: the frame and its FCS at 2 * EMCR.RXOFF bytes, then the error word
 * at +4, then w0 at +0 with its valid bit (byte count with FCS, checksum),
 * and advances ERCIR by 8.  The interrupt (RXTIMERINT) is armed by writing
 * ERPIR with ARM: the next frame raises it (after ERTR) and disarms.  A
 * frame that found the ring without a buffer waits in the chip's FIFO (its
 * SSRAM) for the host to post one; when the FIFO is full it is dropped
 * (fifo-overflow) without RXOFLO, which would make Linux reset the chip
 * [INF].  A DMA that fails raises RXMEMERR / TXMEMERR and stops that engine
 * until a reset, as Linux expects.
 *
 * Each engine is one of the nic's engines (nic_engine): at most its budget
 * of descriptors per step, waiting for the wire and for the bus. */
#include "dev/nic/ioc3/ioc3_eth.h"
#include "net/backend.h"

#define RX_HDR 8              /* w0, err */
#define RX_MAX_FRAME 1514     /* without FCS: the byte count's largest legal value [INF] */
#define RX_BUF_ALIGN 128      /* the chip writes 128-byte blocks: low address bits ignored [INF] */
#define FRAG_MAX 0x7ff        /* B1/B2 count fields are 11 bits */
#define RX_TIMER_UNIT_NS 1000 /* ERTR unit [UNC] */

static const nic_bitname txd_flags[] = {
    {ETXD_INTWHENDONE, "IntWhenDone"}, {ETXD_D0V, "D0V"}, {ETXD_B1V, "B1V"}, {ETXD_B2V, "B2V"},
    {ETXD_DOCHECKSUM, "DoChecksum"},   {0, NULL}};

static uint32_t reg(ioc3_eth *e, unsigned id) { return (uint32_t)DEV_R(e->n.dev, id); }

/* Is entry i between the device's index and the host's (device-owned)? */
static bool in_window(const nic_ring *r, uint32_t i)
{
    if (!r->size)
        return false;
    uint32_t pending = (r->host + r->size - r->index) % r->size;
    return (i + r->size - r->index) % r->size < pending;
}

static void tx_decode(nic_ring *r, nic_desc *d)
{
    uint32_t cmd = d->w[0];
    d->len = cmd & ETXD_BYTECNT_MASK;
    d->flags = cmd & (ETXD_INTWHENDONE | ETXD_D0V | ETXD_B1V | ETXD_B2V | ETXD_DOCHECKSUM);
    d->intr = (cmd & ETXD_INTWHENDONE) != 0;
    d->eop = true;
    d->buf = (cmd & ETXD_B1V)   ? (uint64_t)d->w[2] << 32 | d->w[3]
             : (cmd & ETXD_D0V) ? d->addr + ETXD_HEADER
                                : 0;
    d->owned = in_window(r, d->index);
}

static void rx_decode(nic_ring *r, nic_desc *d)
{
    d->buf = (uint64_t)d->w[0] << 32 | d->w[1];
    d->len = 0;
    d->eop = true;
    d->owned = in_window(r, d->index);
}

/* Tx completions are by index (ETCIR), Rx ones are w0 in the buffer. */
static const nic_ring_ops tx_ring_ops = {tx_decode, txd_flags, 99, NULL, NULL};
static const nic_ring_ops rx_ring_ops = {rx_decode, NULL, 99, NULL, NULL};

static void tx_step(void *opaque);
static void rx_step(void *opaque);
static void rx_timer_fire(void *opaque);

void ioc3_eth_dma_init(ioc3_eth *e)
{
    nic *n = &e->n;
    nic_ring_init(&e->tx, n, NIC_RING_TX, NIC_RING_PRODCONS, true, ETXD_HEADER, &tx_ring_ops, e);
    nic_ring_init(&e->rx, n, NIC_RING_RX, NIC_RING_PRODCONS, false, 8, &rx_ring_ops, e);
    nic_ring_set_stride(&e->tx, ETXD_SIZE);
    nic_add_ring(n, &e->tx);
    nic_add_ring(n, &e->rx);
    nic_engine_init(&n->tx_eng, n, "ioc3-eth-tx", tx_step, e);
    nic_engine_init(&n->rx_eng, n, "ioc3-eth-rx", rx_step, e);
    timer_init(&e->rx_timer, "ioc3-eth-rxtimer", rx_timer_fire, e);
}

void ioc3_eth_dma_reset(ioc3_eth *e)
{
    nic *n = &e->n;
    nic_engine_stop(&n->tx_eng);
    nic_engine_stop(&n->rx_eng);
    timer_del(n->clock, &e->rx_timer);
    nic_reset_common(n);
    nic_rx_end(n);
    nic_ring_reset(&e->tx);
    nic_ring_reset(&e->rx);
    nic_ring_set_size(&e->tx, 128);
    nic_ring_set_size(&e->rx, IOC3_ETH_RX_ENTRIES);
    e->rx_unsignalled = false;
    n->wire_free = nic_now(n);
}

/* ---- ring registers ------------------------------------------------------------ */

void ioc3_eth_ring_write(ioc3_eth *e, unsigned id, uint32_t val)
{
    nic_ring *tx = &e->tx, *rx = &e->rx;
    switch (id) {
    case ER_ERBR_H:
    case ER_ERBR_L:
        rx->base = (uint64_t)reg(e, ER_ERBR_H) << 32 | (reg(e, ER_ERBR_L) & ~0xfffu);
        rx->set_up = true;
        rx->cur = nic_ring_addr(rx, rx->index);
        rx->done_head = rx->done_n = 0;
        break;
    case ER_ERCIR:
        rx->index = (val >> 3) % IOC3_ETH_RX_ENTRIES;
        rx->cur = nic_ring_addr(rx, rx->index);
        break;
    case ER_ERPIR: rx->host = (val >> 3) % IOC3_ETH_RX_ENTRIES; break;
    case ER_ETBR_H:
    case ER_ETBR_L: {
        uint32_t lo = reg(e, ER_ETBR_L);
        uint32_t size = (lo & 1) ? 512 : 128;
        tx->base = (uint64_t)reg(e, ER_ETBR_H) << 32 | (lo & ~0x3fffu);
        tx->set_up = true;
        if (size != tx->size) {
            tx->host %= size;
            nic_ring_set_size(tx, size);
        }
        tx->cur = nic_ring_addr(tx, tx->index);
        break;
    }
    case ER_ETCIR:
        tx->index = (val >> 7) % tx->size;
        tx->cur = nic_ring_addr(tx, tx->index);
        break;
    case ER_ETPIR: tx->host = (val >> 7) % tx->size; break;
    default: break;
    }
}

uint32_t ioc3_eth_etcir(const ioc3_eth *e)
{
    return e->tx.index << 7 | (e->tx.running ? 0 : ETCIR_IDLE);
}

static bool tx_enabled(ioc3_eth *e)
{
    uint32_t m = reg(e, ER_EMCR);
    return (m & (EMCR_TXDMAEN | EMCR_TXEN)) == (EMCR_TXDMAEN | EMCR_TXEN) && !(m & EMCR_RST);
}

static bool rx_enabled(ioc3_eth *e)
{
    uint32_t m = reg(e, ER_EMCR);
    return (m & EMCR_RXDMAEN) && !(m & EMCR_RST);
}

void ioc3_eth_kick(ioc3_eth *e)
{
    nic *n = &e->n;
    if (tx_enabled(e) && nic_ring_pending(&e->tx)) {
        nic_ring_set_running(&e->tx, true);
        nic_engine_kick(&n->tx_eng, 0);
    } else if (!tx_enabled(e)) {
        nic_engine_stop(&n->tx_eng);
        nic_ring_set_running(&e->tx, false);
    }
    nic_ring_set_running(&e->rx, rx_enabled(e));
    if (rx_enabled(e) && n->fifo.count)
        nic_engine_kick(&n->rx_eng, 0);
    else if (!rx_enabled(e))
        nic_engine_stop(&n->rx_eng);
}

/* ---- byte lanes ------------------------------------------------------------------ */

/* Read len bytes of memory at addr into buf in memory order: the PCI words
 * around them, each word's lanes reversed back (see ioc3_eth.h). */
static int eth_read_bytes(ioc3_eth *e, uint64_t addr, uint8_t *buf, uint32_t len)
{
    uint8_t tmp[FRAG_MAX + 8];
    uint32_t head = (uint32_t)(addr & 3), span = (head + len + 3) & ~3u;
    if (len > FRAG_MAX)
        return PCI_DMA_ABORT;
    int st = nic_dma_payload_read(&e->n, addr & ~3ull, tmp, span);
    if (st)
        return st;
    for (uint32_t i = 0; i < len; i++)
        buf[i] = tmp[(head + i) ^ 3];
    return 0;
}

/* Write len bytes (a multiple of 4) to the word-aligned addr. */
static int eth_write_bytes(ioc3_eth *e, uint64_t addr, const uint8_t *buf, uint32_t len)
{
    uint8_t tmp[2048 + 128 + 8];
    if (len > sizeof tmp)
        return PCI_DMA_ABORT;
    for (uint32_t i = 0; i < len; i++)
        tmp[i] = buf[i ^ 3];
    return nic_dma_payload_write(&e->n, addr, tmp, len);
}

/* ---- checksums ------------------------------------------------------------------- */


uint16_t ioc3_eth_tx_csum(const uint8_t *f, uint32_t len)
{
    return net_csum_fold(net_csum_add(0, f, len));
}

uint16_t ioc3_eth_rx_csum(const uint8_t *f, uint32_t len)
{
    return net_csum_fold_sum(net_csum_add(0, f, len));
}

/* ---- transmit -------------------------------------------------------------------- */

static void tx_fault(ioc3_eth *e, const nic_desc *d)
{
    if (nic_tx_in_frame(&e->n))
        nic_tx_abort(&e->n, NIC_DROP_DMA, NIC_RING_TX, (int)d->index);
    else
        nic_tx_drop(&e->n, NIC_DROP_DMA, 0, NIC_RING_TX, (int)d->index);
    nic_engine_stop(&e->n.tx_eng);
    nic_ring_set_running(&e->tx, false);
    nic_irq_assert(&e->n, EISR_TXMEMERR);
}

/* One fragment: `len` bytes at addr (memory order) onto the frame. */
static int tx_fragment(ioc3_eth *e, const nic_desc *d, uint64_t addr, uint32_t len)
{
    uint8_t buf[FRAG_MAX];
    if (!len)
        return 0;
    nic_dma_ctx(&e->n, NIC_DMA_TX_BUF, NIC_RING_TX, (int)d->index);
    int st = eth_read_bytes(e, addr, buf, len);
    if (!st)
        nic_tx_put(&e->n, buf, len, NIC_RING_TX, (int)d->index);
    return st;
}

static void tx_step(void *opaque)
{
    ioc3_eth *e = opaque;
    nic *n = &e->n;
    if (!tx_enabled(e)) {
        nic_ring_set_running(&e->tx, false);
        return;
    }
    for (unsigned k = 0; k < n->tx_eng.budget; k++) {
        if (!nic_ring_pending(&e->tx)) { /* drained */
            if (e->tx.running)
                nic_irq_assert(n, EISR_TXEMPTY);
            nic_ring_set_running(&e->tx, false);
            return;
        }
        nic_ring_set_running(&e->tx, true);
        if (nic_engine_wire_wait(&n->tx_eng) || nic_engine_bus_wait(&n->tx_eng))
            return;
        nic_desc d;
        if (nic_ring_fetch(&e->tx, &d)) {
            tx_fault(e, &d);
            return;
        }
        uint32_t cmd = d.w[0], cnt = d.w[1];
        uint32_t c0 = cnt & 0x7f, c1 = (cnt >> 8) & FRAG_MAX, c2 = (cnt >> 20) & FRAG_MAX;
        if (c0 > ETXD_DATA_MAX)
            c0 = ETXD_DATA_MAX;
        int st = 0;
        if (cmd & ETXD_D0V)
            st = tx_fragment(e, &d, d.addr + ETXD_HEADER, c0);
        if (!st && (cmd & ETXD_B1V))
            st = tx_fragment(e, &d, (uint64_t)d.w[2] << 32 | d.w[3], c1);
        if (!st && (cmd & ETXD_B2V))
            st = tx_fragment(e, &d, (uint64_t)d.w[4] << 32 | d.w[5], c2);
        if (st) {
            tx_fault(e, &d);
            return;
        }
        /* The frame is the fragments' bytes, cut at the total length [INF]. */
        uint32_t total = cmd & ETXD_BYTECNT_MASK;
        if (n->txlen > total && !n->tx_overflow)
            n->txlen = total;
        if ((cmd & ETXD_DOCHECKSUM) && nic_tx_in_frame(n)) {
            uint32_t off = (cmd & ETXD_CHKOFF_MASK) >> ETXD_CHKOFF_SHIFT;
            if (off + 2 <= n->txlen)
                store_be(n->txbuf + off, 2, ioc3_eth_tx_csum(n->txbuf, n->txlen));
        }
        uint32_t len = n->txlen;
        if (nic_tx_finish(n, NIC_RING_TX, (int)d.index))
            nic_wire_send(n, (len < 60 ? 60 : len) + 4); /* with the FCS the MAC appends */
        nic_ring_complete(&e->tx, &d, cmd);
        nic_ring_advance(&e->tx, false);
        if (cmd & ETXD_INTWHENDONE)
            nic_irq_assert(n, EISR_TXEXPLICIT);
    }
    nic_engine_yield(&n->tx_eng);
}

/* ---- receive --------------------------------------------------------------------- */

/* The MAC: length checks, the address filter, then the FIFO. */
bool ioc3_eth_rx_frame(nic *n, const uint8_t *frame, size_t size)
{
    ioc3_eth *e = (ioc3_eth *)n;
    uint32_t len = size > NET_MAX_FRAME + 1 ? NET_MAX_FRAME + 1 : (uint32_t)size;
    uint32_t emcr = reg(e, ER_EMCR);
    int reason = NIC_DROP_NONE, match = NIC_MATCH_NONE;
    if (!(emcr & EMCR_RXEN) || (emcr & EMCR_RST))
        reason = NIC_DROP_RX_OFF;
    else if (len < 14)
        reason = NIC_DROP_TOO_SHORT;
    else if (len > RX_MAX_FRAME)
        reason = NIC_DROP_TOO_LONG;
    else if ((match = nic_mac_match(&e->filt, frame)) == NIC_MATCH_NONE)
        reason = NIC_DROP_FILTERED;
    else if (!nic_fifo_push(n, frame, len, match))
        reason = NIC_DROP_FIFO;
    if (reason) {
        nic_rx_drop(n, reason, len, NIC_RING_RX, -1);
        return false;
    }
    if (rx_enabled(e))
        nic_engine_kick(&n->rx_eng, 0);
    return true;
}

static void rx_signal_now(ioc3_eth *e)
{
    DEV_R(e->n.dev, ER_ERPIR) &= ~(uint64_t)ERPIR_ARM;
    e->rx_unsignalled = false;
    nic_irq_assert(&e->n, EISR_RXTIMERINT);
}

static void rx_timer_fire(void *opaque) { rx_signal_now(opaque); }

/* A frame was delivered: interrupt if armed (after ERTR), else remember it
 * for the next ARM. */
static void rx_signal(ioc3_eth *e)
{
    if (!(reg(e, ER_ERPIR) & ERPIR_ARM)) {
        e->rx_unsignalled = true;
        return;
    }
    uint32_t t = reg(e, ER_ERTR) & 0x7ff;
    if (!t)
        rx_signal_now(e);
    else if (!timer_pending(&e->rx_timer))
        timer_mod(e->n.clock, &e->rx_timer,
                  nic_now(&e->n) + sched_ns_to_ticks(e->n.clock, (uint64_t)t * RX_TIMER_UNIT_NS));
}

/* ERPIR written with ARM: frames the host has not been told about raise
 * the interrupt at once, so none waits for the next frame [INF]. */
void ioc3_eth_arm(ioc3_eth *e)
{
    if (e->rx_unsignalled)
        rx_signal(e);
}

static void rx_fault(ioc3_eth *e, uint32_t len)
{
    nic *n = &e->n;
    nic_rx_drop(n, NIC_DROP_DMA, len, NIC_RING_RX, (int)e->rx.index);
    nic_fifo_pop(n);
    nic_rx_end(n);
    nic_engine_stop(&n->rx_eng);
    nic_irq_assert(n, EISR_RXMEMERR);
}

/* Buffer image: header, pad to 2 * RXOFF, frame (runts padded to 60), FCS. */
static uint32_t rx_image(ioc3_eth *e, const uint8_t *f, uint32_t len, uint8_t *img, uint32_t *count)
{
    uint32_t off = ((reg(e, ER_EMCR) & EMCR_RXOFF_MASK) >> EMCR_RXOFF_SHIFT) * 2;
    uint32_t flen = len < 60 ? 60 : len;
    memset(img, 0, off + flen + 4 + 4);
    memcpy(img + off, f, len);
    store_le(img + off + flen, 4, nic_crc32(img + off, flen));
    *count = flen + 4;
    return off;
}

static void rx_step(void *opaque)
{
    ioc3_eth *e = opaque;
    nic *n = &e->n;
    if (!rx_enabled(e))
        return;
    for (unsigned k = 0; k < n->rx_eng.budget; k++) {
        uint32_t len;
        int match;
        const uint8_t *f = nic_fifo_head(n, &len, &match);
        if (!f)
            return; /* waiting for frames */
        if (!nic_ring_pending(&e->rx))
            return; /* no buffer: the frame waits for ERPIR */
        if (nic_engine_bus_wait(&n->rx_eng))
            return;
        nic_rx_begin(n, (int)e->rx.index);
        nic_desc d;
        if (nic_ring_fetch(&e->rx, &d)) {
            rx_fault(e, len);
            return;
        }
        uint64_t buf = d.buf & ~(uint64_t)(RX_BUF_ALIGN - 1);
        uint8_t img[2048 + 128 + 8];
        uint32_t count;
        uint32_t off = rx_image(e, f, len, img, &count);
        uint32_t start = off < RX_HDR ? off & ~3u : RX_HDR, end = (off + count + 3) & ~3u;
        nic_dma_ctx(n, NIC_DMA_RX_BUF, NIC_RING_RX, (int)d.index);
        if (eth_write_bytes(e, buf + start, img + start, end - start)) {
            rx_fault(e, len);
            return;
        }
        uint32_t err = ERXBUF_GOODPKT | (match == NIC_MATCH_BROADCAST   ? ERXBUF_BCAST
                                         : match == NIC_MATCH_MULTICAST ? ERXBUF_MCAST
                                                                        : 0);
        uint32_t w0 = ERXBUF_V | count << ERXBUF_BYTECNT_SHIFT | ioc3_eth_rx_csum(img + off, count);
        nic_dma_ctx(n, NIC_DMA_RX_STATUS, NIC_RING_RX, (int)d.index);
        if (nic_dma_write32(n, buf + 4, err) || nic_dma_write32(n, buf, w0)) {
            rx_fault(e, len);
            return;
        }
        nic_ring_complete_at(&e->rx, &d, buf, w0);
        nic_ring_advance(&e->rx, false);
        nic_rx_done(n, f, len, match, 1, NIC_RING_RX, (int)d.index);
        nic_rx_end(n);
        nic_fifo_pop(n);
        rx_signal(e);
        uint32_t thresh = reg(e, ER_ERCSR) & 0x1ff;
        if (thresh && nic_ring_pending(&e->rx) == thresh)
            nic_irq_assert(n, EISR_RXTHRESHINT);
    }
    nic_engine_yield(&n->rx_eng);
}
