/* SPDX-License-Identifier: GPL-2.0-or-later */
/* e1000 receive (docs/hardware.md, "8254x receive"): the MAC (length
 * checks, the address and VLAN filters, VLAN tag stripping, the FCS), the
 * Rx FIFO sized by PBA, the head/tail ring walker filling one or several
 * buffers per frame (EOP on the last), descriptor write-back with the
 * status word (DD) last,
 * checksum status, RDTR interrupt delay, RXDMT0, RXO/RNBC/MPC and the
 * statistics.  Frames never vanish: each is delivered, waits in the FIFO,
 * or is dropped with a counted reason. */
#include "dev/nic/e1000/e1000.h"
#include "net/backend.h"

/* Descriptor flags for the ring view and events: the status byte, then
 * the errors byte shifted by 8. */
static const nic_bitname rx_flag_names[] = {
    {0x01, "DD"},    {0x02, "EOP"},    {0x04, "IXSM"},  {0x08, "VP"},    {0x20, "TCPCS"},
    {0x40, "IPCS"},  {0x80, "PIF"},    {0x100, "CE"},   {0x200, "SE"},   {0x400, "SEQ"},
    {0x1000, "CXE"}, {0x2000, "TCPE"}, {0x4000, "IPE"}, {0x8000, "RXE"}, {0, NULL}};

/* What travels with a frame in the FIFO (nic_fifo_ent.tag). */
#define TAG_MATCH 0x0fu
#define TAG_VP 0x10u
#define TAG_PIF 0x20u
#define TAG_SPECIAL_SHIFT 16

static void rx_decode(nic_ring *r, nic_desc *d)
{
    uint32_t w3 = d->w[3];
    d->buf = d->w[0] | (uint64_t)d->w[1] << 32;
    d->len = d->w[2] & 0xffff;
    d->flags = w3 & 0xffff;
    d->eop = w3 & E1000_RXD_EOP;
    d->intr = false;
    d->owned = e1000_dev_owns(r, d->index);
}

static const nic_ring_ops rx_ops = {rx_decode, rx_flag_names, 3, NULL, NULL};

static void rx_step(void *opaque);

static void rx_fire(nic *n, int ring) { nic_irq_assert(n, E1000_ICR_RXT0); }

/* MTA bit of an address: 12 bits of the last two bytes, as RCTL.MO says
 * (bits 47:36, 46:35, 45:34, 43:32) [SRC LX-E1000 e1000_hash_mc_addr]. */
static unsigned mta_hash(const uint8_t *mac, const void *ctx)
{
    static const unsigned shift[] = {4, 3, 2, 0};
    const e1000 *h = ctx;
    unsigned mo = (unsigned)(DEV_R(h->n.dev, ER_RCTL) >> E1000_RCTL_MO_SHIFT) & 3;
    return ((unsigned)(mac[5] << 8 | mac[4]) >> shift[mo]) & 0xfff;
}

void e1000_rx_init(e1000 *h)
{
    nic *n = &h->n;
    nic_ring_init(&h->rx, n, NIC_RING_RX, NIC_RING_HEADTAIL, false, 16, &rx_ops, h);
    nic_add_ring(n, &h->rx);
    nic_coal_init(&h->rxc, n, NIC_RING_RX, rx_fire);
    nic_engine_init(&h->n.rx_eng, n, "e1000-rx", rx_step, h);
    h->filt.hash_bits = 4096;
    h->filt.hash_fn = mta_hash;
    h->filt.hash_ctx = h;
}

void e1000_rx_reset(e1000 *h)
{
    nic_engine_stop(&h->n.rx_eng);
    nic_ring_reset(&h->rx);
    nic_ring_set_size(&h->rx, 0);
    nic_coal_reset(&h->rxc);
    nic_coal_config(&h->rxc, 0, 0, 0, 0);
    nic_rx_end(&h->n);
    h->rx_stopped = false;
    h->n.fc_xoff = false;
}

/* ---- 802.3x flow control ------------------------------------------------------------ */

/* With CTRL.TFCE the MAC sends XOFF when its Rx FIFO reaches FCRTH, and
 * XON when it has drained to FCRTL (with FCRTL.XONE), counting both
 * (XOFFTXC, XONTXC) [INF: the registers of LX-E1000 e1000_hw.h; 802.3x].  Linux's e1000 turns
 * it on (CTRL.TFCE|RFCE, FCRTH just under PBA).  The shell keeps the state
 * (nic_fc_update): it follows the FIFO, so it changes only when the
 * machine's own frames move; the link partner that honours it is a host
 * backend.  Not modelled [INF]: the pause time (FCTTV) and XOFF refresh
 * (FCRTV); the partner simply waits for XON. */
void e1000_fc_levels(const nic *n, uint32_t *high, uint32_t *low)
{
    device *d = n->dev;
    bool on = DEV_R(d, ER_CTRL) & E1000_CTRL_TFCE;
    *high = on ? (uint32_t)DEV_R(d, ER_FCRTH) & 0xfff8u : 0;
    *low = (uint32_t)DEV_R(d, ER_FCRTL) & 0xfff8u;
}

void e1000_fc_sent(nic *n, bool xoff)
{
    e1000 *h = (e1000 *)n;
    if (xoff)
        e1000_stat_add(h, ER_XOFFTXC, 1);
    else if (DEV_R(n->dev, ER_FCRTL) & 0x80000000u) /* XONE */
        e1000_stat_add(h, ER_XONTXC, 1);
}


void e1000_rx_kick(e1000 *h)
{
    if (!(DEV_R(h->n.dev, ER_RCTL) & E1000_RCTL_EN) || h->rx_stopped || !h->n.fifo.count)
        return;
    nic_engine_kick(&h->n.rx_eng, 0);
}

void e1000_rdtr_written(e1000 *h, uint32_t v)
{
    uint64_t unit = sched_ns_to_ticks(h->n.clock, 1024);
    nic_coal_config(&h->rxc, 0, (v & 0xffff) * unit, 0, 0);
    if (v & 0x80000000u) /* FPD: the timer expires now (self-clearing) */
        nic_coal_flush(&h->rxc);
}

/* ---- the address filter ------------------------------------------------------------ */

/* The filter tables from RAL/RAH, MTA and RCTL.  RAR entries holding a
 * multicast address go to the exact multicast list (the "CAM"). */
void e1000_filter_update(e1000 *h)
{
    device *d = h->n.dev;
    nic_mac_filter *f = &h->filt;
    uint32_t rctl = (uint32_t)DEV_R(d, ER_RCTL);
    for (unsigned i = 0; i < 16; i++) {
        uint8_t a[6];
        store_le(a, 4, *dev_rv(d, ER_RAL, i));
        uint32_t hi = (uint32_t)*dev_rv(d, ER_RAH, i);
        store_le(a + 4, 2, hi & 0xffff);
        bool av = hi & E1000_RAH_AV, mc = a[0] & 1;
        memcpy(f->station[i], a, 6);
        memcpy(f->cam_addr[i], a, 6);
        f->station_valid[i] = av && !mc;
        f->cam_valid[i] = av && mc;
    }
    for (unsigned i = 0; i < 128; i++)
        f->hash_table[i] = (uint32_t)*dev_rv(d, ER_MTA, i);
    f->unicast = f->cam = f->hash = true;
    f->hash_unicast = false;
    f->broadcast = rctl & E1000_RCTL_BAM;
    f->all_multi = rctl & E1000_RCTL_MPE;
    f->promisc = rctl & E1000_RCTL_UPE;   /* unicast only, see filter() */
    if (h->n.port && f->station_valid[0]) /* peers such as gen address RAR0 */
        net_port_set_mac(h->n.port, f->station[0]);
}

static bool is_vlan(const e1000 *h, const uint8_t *f, uint32_t len)
{
    return len >= 18 && load_be(f + 12, 2) == (DEV_R(h->n.dev, ER_VET) & 0xffff);
}

/* The verdict (the SDM; docs/hardware.md, "8254x receive"): VLAN filter
 * when RCTL.VFE, then broadcast (BAM), multicast (MPE, exact RAR, MTA hash:
 * PIF), unicast (exact RAR, UPE).  UPE accepts unicast only; MPE also takes
 * broadcast [INF, as Q-E1000]. */
static int filter(const e1000 *h, const uint8_t *f, uint32_t len, bool *pif)
{
    const nic_mac_filter *m = &h->filt;
    device *d = h->n.dev;
    *pif = false;
    if ((DEV_R(d, ER_RCTL) & E1000_RCTL_VFE) && is_vlan(h, f, len)) {
        unsigned vid = (unsigned)load_be(f + 14, 2) & 0xfff;
        if (!((*dev_rv(d, ER_VFTA, vid >> 5) >> (vid & 31)) & 1))
            return NIC_MATCH_NONE;
    }
    if (f[0] & 1) {
        if (load_be(f, 6) == 0xffffffffffffull)
            return m->broadcast || m->all_multi ? NIC_MATCH_BROADCAST : NIC_MATCH_NONE;
        if (m->all_multi)
            return NIC_MATCH_MULTICAST;
        for (unsigned i = 0; i < 16; i++)
            if (m->cam_valid[i] && memcmp(m->cam_addr[i], f, 6) == 0)
                return NIC_MATCH_MULTICAST;
        unsigned bit = mta_hash(f, h);
        if ((m->hash_table[bit >> 5] >> (bit & 31)) & 1) {
            *pif = true;
            return NIC_MATCH_MULTICAST;
        }
        return NIC_MATCH_NONE;
    }
    for (unsigned i = 0; i < 16; i++)
        if (m->station_valid[i] && memcmp(m->station[i], f, 6) == 0)
            return NIC_MATCH_STATION;
    return m->promisc ? NIC_MATCH_PROMISC : NIC_MATCH_NONE;
}

/* ---- the MAC ----------------------------------------------------------------------- */

static uint32_t rx_buf_size(const e1000 *h)
{
    uint32_t rctl = (uint32_t)DEV_R(h->n.dev, ER_RCTL);
    unsigned bs = (rctl >> E1000_RCTL_BSIZE_SHIFT) & 3;
    if (rctl & E1000_RCTL_BSEX)
        return bs ? 32768u >> bs : 2048; /* 01 16K, 10 8K, 11 4K; 00 reserved [INF] */
    return 2048u >> bs;
}

/* Is there a posted buffer for a frame arriving now?  The frames already
 * in the FIFO will take theirs first (the DMA engine runs behind the MAC on
 * the virtual clock; on the real part it keeps up with the wire) [INF]. */
static bool buffer_free(const e1000 *h)
{
    const nic_ring *r = &h->rx;
    const nic_fifo *q = &h->n.fifo;
    if (!e1000_ring_ok(r))
        return false;
    uint32_t bs = rx_buf_size(h), need = 0;
    for (unsigned i = 0; i < q->count; i++)
        need += (q->q[(q->head + i) % NIC_FIFO_FRAMES].len + bs - 1) / bs;
    if (h->n.rx_active)
        need = need > h->n.rx_bufs ? need - h->n.rx_bufs : 0;
    return nic_ring_pending(r) > need;
}

bool e1000_rx_frame(nic *n, const uint8_t *frame, size_t size)
{
    e1000 *h = (e1000 *)n;
    device *d = n->dev;
    uint32_t rctl = (uint32_t)DEV_R(d, ER_RCTL);
    uint32_t len = size > NET_MAX_FRAME ? NET_MAX_FRAME + 1 : (uint32_t)size;
    int reason = NIC_DROP_NONE, match = NIC_MATCH_NONE;
    bool pif = false;
    if (!(rctl & E1000_RCTL_EN)) {
        reason = NIC_DROP_RX_OFF;
    } else if (!h->lu || !e1000_speed_ok(h)) {
        if (h->lu)
            h->speed_mismatch++;
        reason = NIC_DROP_NO_LINK;
    } else {
        uint32_t wire = len + 4, max = (rctl & E1000_RCTL_LPE) ? 16384 : 1522;
        e1000_stat_add(h, ER_TPR, 1);
        e1000_stat_add(h, ER_TORL, wire);
        if (len < 14 || len > NET_MAX_FRAME) {
            reason = len < 14 ? NIC_DROP_TOO_SHORT : NIC_DROP_TOO_LONG;
            e1000_stat_add(h, len < 14 ? ER_RUC : ER_ROC, 1);
        } else if (wire > max && !(rctl & E1000_RCTL_SBP)) {
            reason = NIC_DROP_TOO_LONG; /* SBP stores long frames too [INF, as Q-E1000] */
            e1000_stat_add(h, ER_ROC, 1);
        } else if ((match = filter(h, frame, len, &pif)) == NIC_MATCH_NONE) {
            reason = NIC_DROP_FILTERED;
        }
    }
    if (reason) {
        nic_rx_drop(n, reason, len, NIC_RING_RX, -1);
        return false;
    }
    /* What the DMA engine will store: the frame (its VLAN tag stripped
     * when CTRL.VME), then the FCS as it came off the wire. */
    static uint8_t stream[NET_MAX_FRAME + 4];
    uint32_t fcs = nic_crc32(frame, len), slen = len;
    uint32_t tag = (uint32_t)match | (pif ? TAG_PIF : 0);
    if ((DEV_R(d, ER_CTRL) & E1000_CTRL_VME) && is_vlan(h, frame, len)) {
        tag |= TAG_VP | (uint32_t)load_be(frame + 14, 2) << TAG_SPECIAL_SHIFT;
        memcpy(stream, frame, 12);
        memcpy(stream + 12, frame + 16, len - 16);
        slen = len - 4;
    } else {
        memcpy(stream, frame, len);
    }
    store_le(stream + slen, 4, fcs);
    if (!buffer_free(h))
        e1000_stat_add(h, ER_RNBC, 1); /* no buffer for it: it waits in the FIFO */
    if (!nic_fifo_push(n, stream, slen + 4, (int)tag)) {
        e1000_stat_add(h, ER_MPC, 1);
        nic_irq_assert(n, E1000_ICR_RXO);
        nic_rx_drop(n, NIC_DROP_FIFO, len, NIC_RING_RX, -1);
        return false;
    }
    e1000_rx_kick(h);
    return true;
}

/* ---- checksum status ------------------------------------------------------------- */

/* IPv4 header and TCP/UDP checksums of a stored frame (without FCS),
 * when RXCSUM enables them (SDM 3.2.3.1/3.2.9); IPv6 and fragments are not
 * checked [INF]. */
static void rx_csum(const e1000 *h, const uint8_t *f, uint32_t len, uint8_t *status,
                    uint8_t *errors)
{
    uint32_t rxcsum = (uint32_t)DEV_R(h->n.dev, ER_RXCSUM);
    if (!(rxcsum & (E1000_RXCSUM_IPOFL | E1000_RXCSUM_TUOFL))) {
        *status |= E1000_RXD_IXSM;
        return;
    }
    if (len < 34 || load_be(f + 12, 2) != 0x0800 || (f[14] >> 4) != 4)
        return;
    const uint8_t *ip = f + 14;
    uint32_t ihl = (ip[0] & 0xfu) * 4, tot = (uint32_t)load_be(ip + 2, 2);
    if (ihl < 20 || 14 + ihl > len)
        return;
    if (rxcsum & E1000_RXCSUM_IPOFL) {
        *status |= E1000_RXD_IPCS;
        if (net_csum_fold_sum(net_csum_add(0, ip, ihl)) != 0xffff)
            *errors |= E1000_RXE_IPE;
    }
    unsigned proto = ip[9];
    bool frag = load_be(ip + 6, 2) & 0x3fff;
    if (!(rxcsum & E1000_RXCSUM_TUOFL) || frag || tot < ihl || 14 + tot > len ||
        (proto != 6 && proto != 17))
        return;
    uint32_t l4 = tot - ihl;
    if (l4 < (proto == 6 ? 20u : 8u))
        return;
    if (proto == 17 && load_be(ip + ihl + 6, 2) == 0)
        return; /* UDP without a checksum: nothing to check [INF] */
    uint32_t sum = net_csum_add(0, ip + 12, 8) + proto + l4;
    sum = net_csum_add(sum, ip + ihl, l4);
    *status |= E1000_RXD_TCPCS;
    if (net_csum_fold_sum(sum) != 0xffff)
        *errors |= E1000_RXE_TCPE;
}

/* ---- the DMA engine ------------------------------------------------------------------ */

static void frame_done(e1000 *h, const uint8_t *f, uint32_t slen, int tag)
{
    nic *n = &h->n;
    nic_ring *r = &h->rx;
    uint32_t wire = slen; /* stored bytes include the FCS */
    e1000_stat_add(h, ER_GPRC, 1);
    e1000_stat_add(h, ER_GORCL, wire);
    e1000_stat_size(h, ER_PRC64, wire);
    int match = (int)((uint32_t)tag & TAG_MATCH);
    if (match == NIC_MATCH_BROADCAST)
        e1000_stat_add(h, ER_BPRC, 1);
    else if (f[0] & 1)
        e1000_stat_add(h, ER_MPRC, 1);
    nic_rx_done(n, f, slen - 4, match, n->rx_bufs, NIC_RING_RX, n->rx_first);
    /* RXDMT0: free descriptors at or below RDLEN/2, /4 or /8 (RCTL.RDMTS). */
    unsigned rdmts = (unsigned)(DEV_R(n->dev, ER_RCTL) >> E1000_RCTL_RDMTS_SHIFT) & 3;
    if (nic_ring_pending(r) <= r->size >> (rdmts == 3 ? 3 : rdmts + 1))
        nic_irq_assert(n, E1000_ICR_RXDMT0);
    nic_coal_event(&h->rxc); /* RXT0, delayed by RDTR */
}

static void rx_step(void *opaque)
{
    e1000 *h = opaque;
    nic *n = &h->n;
    nic_ring *r = &h->rx;
    if (!(DEV_R(n->dev, ER_RCTL) & E1000_RCTL_EN) || h->rx_stopped) {
        nic_ring_set_running(r, false);
        return;
    }
    for (unsigned k = 0; k < h->n.rx_eng.budget; k++) {
        uint32_t slen;
        int tag;
        const uint8_t *f = nic_fifo_head(n, &slen, &tag);
        if (!f || !e1000_ring_ok(r) || r->index == r->host) {
            nic_ring_set_running(r, false); /* waiting for frames or for RDT */
            return;
        }
        nic_ring_set_running(r, true);
        if (nic_engine_bus_wait(&h->n.rx_eng)) /* the bus is still busy with the last buffer */
            return;
        nic_rx_begin(n, (int)r->index);
        nic_desc d;
        if (nic_ring_fetch(r, &d)) { /* the ring is unreachable: drop, stop until RDT */
            nic_rx_drop(n, NIC_DROP_DMA, slen - 4, NIC_RING_RX, (int)r->index);
            nic_fifo_pop(&h->n);
            nic_rx_end(n);
            h->rx_stopped = true;
            nic_ring_set_running(r, false);
            return;
        }
        uint8_t status = E1000_RXD_DD, errors = 0;
        uint32_t put = 0;
        bool dma_failed = false;
        if (d.buf) { /* a null buffer is handed back empty [SRC Q-E1000] */
            put = slen - n->rx_off;
            if (put > rx_buf_size(h))
                put = rx_buf_size(h);
            nic_dma_ctx(n, NIC_DMA_RX_BUF, NIC_RING_RX, (int)d.index);
            if (nic_dma_payload_write(n, d.buf, f + n->rx_off, put)) {
                dma_failed = true; /* RXE on this descriptor, the frame ends here [INF] */
                errors |= E1000_RXE_RXE;
            }
            n->rx_off += put;
        }
        bool done = dma_failed || n->rx_off == slen;
        uint16_t csum = 0;
        if (done) {
            status |= E1000_RXD_EOP;
            if (!dma_failed) {
                uint32_t pcss = (uint32_t)DEV_R(n->dev, ER_RXCSUM) & 0xff;
                if (pcss < slen) /* packet checksum from PCSS, FCS included [INF] */
                    csum = net_csum_fold_sum(net_csum_add(0, f + pcss, slen - pcss));
                rx_csum(h, f, slen - 4, &status, &errors);
                if ((uint32_t)tag & TAG_VP)
                    status |= E1000_RXD_VP;
                if ((uint32_t)tag & TAG_PIF)
                    status |= 0x80;
            }
        }
        d.w[2] = put | (uint32_t)csum << 16;
        d.w[3] = status | (uint32_t)errors << 8 |
                 (done && ((uint32_t)tag & TAG_VP) ? (uint32_t)tag & 0xffff0000u : 0);
        bool wb_failed = nic_ring_writeback(r, &d, (1u << 2) | (1u << 3)) != 0;
        nic_ring_advance(r, false);
        n->rx_bufs++;
        if (dma_failed || wb_failed) {
            nic_rx_drop(n, NIC_DROP_DMA, slen - 4, NIC_RING_RX, n->rx_first);
            nic_fifo_pop(&h->n);
            nic_rx_end(n);
            continue;
        }
        if (done) {
            frame_done(h, f, slen, tag);
            nic_fifo_pop(&h->n);
            nic_rx_end(n);
        }
    }
    nic_engine_yield(&h->n.rx_eng);
}

/* ---- the "filter" view -------------------------------------------------------------- */

void e1000_view_filter(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    e1000 *h = E1000(d);
    uint32_t rctl = (uint32_t)DEV_R(d, ER_RCTL);
    sb_printf(out, "%s RCTL: receiver %s, %s%s%s%s MO=%u, buffers %u bytes%s\n", d->name,
              rctl & E1000_RCTL_EN ? "on" : "off", rctl & E1000_RCTL_BAM ? "BAM " : "",
              rctl & E1000_RCTL_UPE ? "UPE " : "", rctl & E1000_RCTL_MPE ? "MPE " : "",
              rctl & E1000_RCTL_LPE ? "LPE" : "max 1522", (rctl >> E1000_RCTL_MO_SHIFT) & 3,
              rx_buf_size(h), rctl & E1000_RCTL_SBP ? ", stores bad packets" : "");
    nic_mac_show(&h->filt, out);
    unsigned bits = 0;
    for (unsigned i = 0; i < 128; i++)
        bits += (unsigned)__builtin_popcount((unsigned)*dev_rv(d, ER_MTA, i));
    sb_printf(out, "  MTA: %u of 4096 bits set", bits);
    for (unsigned i = 0, shown = 0; i < 4096 && shown < 16; i++)
        if ((*dev_rv(d, ER_MTA, i >> 5) >> (i & 31)) & 1) {
            sb_printf(out, "%s0x%03x", shown ? " " : " (", i);
            if (++shown == 16 || bits == shown)
                sb_puts(out, bits > shown ? " ...)" : ")");
        }
    unsigned vids = 0;
    for (unsigned i = 0; i < 128; i++)
        vids += (unsigned)__builtin_popcount((unsigned)*dev_rv(d, ER_VFTA, i));
    sb_printf(out, "\n  VLAN: CTRL.VME %s (VET 0x%04x), filter %s with %u VLAN IDs\n",
              DEV_R(d, ER_CTRL) & E1000_CTRL_VME ? "on: tags stripped" : "off",
              (unsigned)(DEV_R(d, ER_VET) & 0xffff), rctl & E1000_RCTL_VFE ? "on" : "off", vids);
    sb_printf(out, "  Rx FIFO %u frames, %u of %u bytes (PBA); engine %s%s\n", h->n.fifo.count,
              h->n.fifo.bytes, h->n.fifo.cap, h->rx.running ? "running" : "idle",
              h->rx_stopped ? " (stopped by a descriptor DMA error until RDT is written)" : "");
}
