/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoded views every NIC model lists (NIC_VIEWS): "ring", "stats",
 * "stall", "rates", and the stall query behind the debugger's `watch stall NIC`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/nic/nic.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"
#include "net/backend.h"

static void show_rates(nic *n, const char *indent, strbuf *out);

static void list_rings(nic *n, strbuf *out)
{
    sb_puts(out, "rings:");
    for (unsigned i = 0; i < n->nrings; i++)
        sb_printf(out, " %s", n->rings[i]->name);
    sb_putc(out, '\n');
}

void nic_view_ring(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    nic *n = d->priv;
    char name[32] = "tx", num[24] = "", extra[2];
    unsigned count = 0;
    if (args && *args) {
        int k = sscanf(args, "%31s %23s %1s", name, num, extra);
        char *end = num;
        unsigned long long c = k == 2 && num[0] != '-' ? strtoull(num, &end, 0) : 0;
        if (k < 1 || k > 2 || (k == 2 && (*end || c == 0 || c > UINT32_MAX))) {
            /* (the ring command's usage is its own: help ring) */
            sb_printf(out, "%s: want a ring and an optional count (1 or more), not \"%s\"; ",
                      d->name, args);
            list_rings(n, out);
            return;
        }
        count = (unsigned)c;
    }
    nic_ring *r = nic_find_ring(n, name);
    if (!r) {
        sb_printf(out, "%s has no ring \"%s\"; ", d->name, name);
        list_rings(n, out);
        return;
    }
    nic_ring_show(r, count, ctx, out);
}

static void show_drops(const char *dir, const uint64_t *drops, strbuf *out)
{
    uint64_t total = 0;
    for (int i = 1; i < NIC_NDROPS; i++)
        total += drops[i];
    sb_printf(out, "  %s drops %llu", dir, (unsigned long long)total);
    for (int i = 1; i < NIC_NDROPS; i++)
        if (drops[i])
            sb_printf(out, " %s=%llu", nic_drop_names[i], (unsigned long long)drops[i]);
    sb_putc(out, '\n');
}

void nic_describe(const nic *n, strbuf *out)
{
    char m[18];
    net_fmt_mac(m, n->mac);
    sb_printf(out, "MAC %s (%s)", m,
              !n->mac_given ? "default"
              : n->mac_from ? n->mac_from
                            : "--mac");
    const net_port *p = n->port;
    if (p && p->mac_known && memcmp(p->mac, n->mac, 6) != 0) {
        net_fmt_mac(m, p->mac);
        sb_printf(out, ", in use %s (programmed into the NIC)", m);
    }
    sb_printf(out, ", net %s", p ? p->spec : "none (no cable)");
}

/* "hamachi0 (hamachi in slot 3): MAC ...": what another machine on the
 * wire sees of this NIC (xbow prints it for every NIC at start-up). */
void nic_view_station(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    const nic *n = d->priv;
    sb_printf(out, "%s (%s in slot %d): ", d->name, n->model->name, n->pci.slot);
    nic_describe(n, out);
    sb_putc(out, '\n');
}

void nic_view_stats(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    nic *n = d->priv;
    const nic_counters *c = &n->cnt;
    sb_printf(out, "%s (%s, slot %d), ", d->name, n->model->name, n->pci.slot);
    nic_describe(n, out);
    sb_putc(out, '\n');
    sb_printf(out, "  tx frames %llu bytes %llu\n", (unsigned long long)c->tx_frames,
              (unsigned long long)c->tx_bytes);
    sb_printf(out, "  rx frames %llu bytes %llu (broadcast %llu, multicast %llu)\n",
              (unsigned long long)c->rx_frames, (unsigned long long)c->rx_bytes,
              (unsigned long long)c->rx_bcast, (unsigned long long)c->rx_mcast);
    show_drops("tx", c->tx_drops, out);
    show_drops("rx", c->rx_drops, out);
    sb_printf(out, "  rx fifo %u frames, %u of %u bytes\n", n->fifo.count, n->fifo.bytes,
              n->fifo.cap);
    if (n->model->ops->fc_levels) {
        uint32_t high, low;
        n->model->ops->fc_levels(n, &high, &low);
        if (high)
            sb_printf(out, "  flow control (802.3x) XOFF at %u bytes, XON at %u: ", high, low);
        else
            sb_puts(out, "  flow control (802.3x) off: ");
        sb_printf(out, "%llu XOFF and %llu XON sent%s\n", (unsigned long long)n->cnt.fc_xoffs,
                  (unsigned long long)n->cnt.fc_xons,
                  nic_fc_ready(n) ? "" : ", the link partner is paused now");
    }
    sb_printf(out, "  descriptors fetched %llu, written back %llu, doorbells %llu\n",
              (unsigned long long)c->desc_fetch, (unsigned long long)c->desc_done,
              (unsigned long long)c->doorbells);
    sb_printf(out,
              "  DMA (payload %s): word ops %llu (%llu bytes), bulk ops %llu (%llu bytes), "
              "errors %llu\n",
              n->dma_per_word ? "per-word" : "raw", (unsigned long long)c->dma_word_ops,
              (unsigned long long)c->dma_word_bytes, (unsigned long long)c->dma_bulk_ops,
              (unsigned long long)c->dma_bulk_bytes, (unsigned long long)c->dma_errors);
    sb_printf(out, "  DMA bus time %lluus (PCI clock %u ps)\n",
              (unsigned long long)(sched_ticks_to_ns(n->clock, n->dma_busy_ticks) / 1000),
              n->pci_clock_ps);
    sb_printf(out, "  interrupt line %s, raised %llu times; causes 0x%x enabled 0x%x\n",
              n->irq.line ? "high" : "low", (unsigned long long)n->irq.raises, n->irq.cause,
              n->irq.mask);
    bool any = false;
    for (unsigned i = 0; i < 32; i++) {
        if (!n->irq.asserts[i])
            continue;
        if (!any)
            sb_puts(out, "  causes asserted:");
        any = true;
        sb_putc(out, ' ');
        nic_format_bits(n->model->ops->causes, 1u << i, out);
        sb_printf(out, "=%llu", (unsigned long long)n->irq.asserts[i]);
    }
    if (any)
        sb_putc(out, '\n');
    show_rates(n, "  ", out);
    if (n->port) /* the far end: the backend's own counts (sink, gen, echo ...) */
        net_port_show(n->port, out);
}

int nic_ring_state(device *d, const char *ring, ring_state *st)
{
    nic *n = nic_of_device(d);
    if (!n)
        return -1;
    nic_ring *r = nic_find_ring(n, ring);
    if (!r)
        return -1;
    return nic_ring_stall(r, st);
}

void nic_view_stall(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    nic *n = d->priv;
    for (unsigned i = 0; i < n->nrings; i++) {
        nic_ring *r = n->rings[i];
        ring_state s;
        nic_ring_stall(r, &s);
        uint64_t idle_us = sched_ticks_to_ns(n->clock, s.idle_ticks) / 1000;
        uint64_t old_us = sched_ticks_to_ns(n->clock, s.unreclaimed_ticks) / 1000;
        sb_printf(out, "%s %s: %s, engine %s", d->name, r->name,
                  ring_stalled(&s) ? "STALLED (host-posted work, engine idle)"
                  : s.posted       ? "work posted"
                                   : "no work posted",
                  s.idle ? "idle" : "running");
        if (s.idle)
            sb_printf(out, " for %lluus", (unsigned long long)idle_us);
        sb_printf(out, "; %u completed descriptors not reclaimed", s.unreclaimed);
        if (s.unreclaimed)
            sb_printf(out, " (oldest: entry %d, %lluus)", s.oldest_index,
                      (unsigned long long)old_us);
        sb_putc(out, '\n');
    }
}

/* ---- live rates (info nic, the TUI's status bar) ---------------------------- */

static void read_rates(nic *n, rate_result *r)
{
    uint64_t v[RATE_NVALS];
    nic_rate_values(n, v);
    rate_read(&n->rate, nic_now(n), n->clock->hz, v, r);
}

static void rate_line(const double *per, strbuf *out)
{
    sb_printf(out, "tx %.1f frames/s %.3f Mbit/s, rx %.1f frames/s %.3f Mbit/s\n",
              per[NIC_RATE_TX_FRAMES], per[NIC_RATE_TX_BYTES] * 8 / 1e6, per[NIC_RATE_RX_FRAMES],
              per[NIC_RATE_RX_BYTES] * 8 / 1e6);
}

static void show_rates(nic *n, const char *indent, strbuf *out)
{
    rate_result r;
    read_rates(n, &r);
    if (!r.valid) {
        /* Frames counted but no sample: the state was loaded (a snapshot,
         * a replay), which forgets the samples (nic_state.c). */
        bool counted = n->cnt.tx_frames || n->cnt.rx_frames;
        sb_printf(out, "%srates: no frame %s\n", indent,
                  counted ? "since the state was loaded" : "yet");
        return;
    }
    sb_printf(out, "%srates over the last %.6f s of guest time (%.6f s of host time running):\n",
              indent, r.vt_span, r.host_span);
    sb_printf(out, "%s  guest time: ", indent);
    rate_line(r.per_vt, out);
    sb_printf(out, "%s  host time:  ", indent);
    if (r.per_host[0] < 0)
        sb_puts(out, "- (no host time has passed)\n");
    else
        rate_line(r.per_host, out);
}

void nic_view_rates(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    nic *n = d->priv;
    rate_result r;
    if (args && !strcmp(args, "brief")) {
        read_rates(n, &r);
        if (!r.valid)
            return;
        double h_tx = r.per_host[NIC_RATE_TX_BYTES] * 8 / 1e6;
        double h_rx = r.per_host[NIC_RATE_RX_BYTES] * 8 / 1e6;
        sb_printf(out, "%s tx %.1f/%.1f rx %.1f/%.1f Mb/s g/h", d->name,
                  r.per_vt[NIC_RATE_TX_BYTES] * 8 / 1e6, h_tx < 0 ? 0 : h_tx,
                  r.per_vt[NIC_RATE_RX_BYTES] * 8 / 1e6, h_rx < 0 ? 0 : h_rx);
        return;
    }
    if (args && *args) {
        sb_printf(out, "%s: the rates view takes no arguments but \"brief\", not \"%s\"\n", d->name,
                  args);
        return;
    }
    const nic_counters *c = &n->cnt;
    sb_printf(out, "%s (%s, slot %d), ", d->name, n->model->name, n->pci.slot);
    nic_describe(n, out);
    sb_printf(out, "\n  link %s; tx %llu frames, %llu bytes; rx %llu frames, %llu bytes\n",
              !n->port                  ? "none"
              : n->link && !n->link->up ? "down"
                                        : "up",
              (unsigned long long)c->tx_frames, (unsigned long long)c->tx_bytes,
              (unsigned long long)c->rx_frames, (unsigned long long)c->rx_bytes);
    show_rates(n, "  ", out);
}
