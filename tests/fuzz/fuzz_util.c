/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared pieces of the fuzz targets (see fuzz_util.h). */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t fuzz_take(fuzz_reader *r, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t b = 0;
        if (r->left) {
            b = *r->p++;
            r->left--;
        }
        v |= b << (8 * i);
    }
    return v;
}

static unsigned formatted;
static void sink_event(void *ctx, const event *ev)
{
    strbuf *b = ctx;
    if (formatted++ > 256)
        return;
    sb_reset(b);
    event_format(ev, b);
}

void fuzz_format_events(event_bus *eb, const char *glob, strbuf *text)
{
    formatted = 0;
    event_subscribe_glob(eb, glob, sink_event, text);
}

void fuzz_fail(const char *what)
{
    fprintf(stderr, "%s: invariant broken: %s\n", fuzz_target, what);
    abort();
}

unsigned fuzz_nic_frame(uint8_t *frame, unsigned len, const uint8_t station[6], unsigned dst,
                        unsigned seed, uint64_t *badlen)
{
    len %= NET_MAX_FRAME + 40;
    *badlen += len < 14 || len > NET_MAX_FRAME;
    for (unsigned i = 0; i < len; i++)
        frame[i] = (uint8_t)(seed + i * 7);
    if (len >= 6) {
        if ((dst & 3) == 0)
            memcpy(frame, station, 6);
        else if ((dst & 3) == 1)
            memset(frame, 0xff, 6);
        else if ((dst & 3) == 2)
            frame[0] |= 1;
    }
    return len;
}

uint64_t fuzz_check_nic(const nic *n, const fake_wire *w, const fake_host *h, uint64_t offered,
                        uint64_t badlen)
{
    /* The port refuses malformed lengths itself; the NIC accounts for the
     * rest: refused at once (any reason but dma-error and reset), or taken
     * and then delivered, dropped later, or still queued. */
    const uint64_t *rd = n->cnt.rx_drops;
    uint64_t later = rd[NIC_DROP_DMA] + rd[NIC_DROP_RESET], drops = 0;
    for (int i = 0; i < NIC_NDROPS; i++)
        drops += rd[i];
    const net_stats *ps = &w->port.stats;
    if (offered != ps->rx_frames + ps->rx_dropped)
        fuzz_fail("the port lost an offered frame");
    if (ps->rx_frames != n->cnt.rx_frames + later + n->fifo.count)
        fuzz_fail("a frame the NIC took was neither delivered, dropped nor queued");
    if (ps->rx_dropped != badlen + drops - later)
        fuzz_fail("a frame the NIC refused was not counted with a reason");
    if (w->total != n->cnt.tx_frames)
        fuzz_fail("a sent frame did not reach the wire");
    if (h->level != ((n->irq.cause & n->irq.mask) != 0))
        fuzz_fail("INTA does not match the enabled pending causes");
    return drops;
}

bool fuzz_nic_op(fuzz_nic_rig *g, unsigned op, fuzz_reader *r, unsigned view_bits)
{
    nic *n = g->n;
    pci_func *f = g->f;
    switch (op) {
    case 2: {
        uint64_t off = fuzz_take(r, 2) % (g->host.size - 4);
        fake_w32(&g->host, FAKE_LO + off, (uint32_t)fuzz_take(r, 4));
        return true;
    }
    case 6:
        pci_config_write(f, 4, 2, fuzz_take(r, 1) & 1 ? PCI_CMD_MEM | PCI_CMD_MASTER : PCI_CMD_MEM);
        return true;
    case 7:
        pci_func_reset(f);
        pci_config_write(f, 4, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
        return true;
    case 8: {
        static const char *const args[] = {"tx", "rx 8", "tx 70000", "bogus 1 2"};
        unsigned w = (unsigned)fuzz_take(r, 1);
        strbuf b;
        sb_init(&b);
        const dev_view *v = &n->dev->cls->views[w % n->dev->cls->nviews];
        v->show(n->dev, args[(w >> view_bits) & 3], NULL, &b);
        ring_state s;
        nic_ring_state(n->dev, "rx", &s);
        nic_ring_state(n->dev, "tx", &s);
        dev_show(n->dev, &b);
        sb_free(&b);
        return true;
    }
    case 9: nic_set_dma_per_word(n, fuzz_take(r, 1) & 1); return true;
    default: return false;
    }
}

/* Offer one frame of len (mod 16 KB + 40) bytes to the NIC; returns 1. */
static unsigned deliver(fuzz_nic_rig *g, unsigned len, unsigned dst, unsigned seed,
                        uint64_t *badlen)
{
    static uint8_t frame[NET_MAX_FRAME + 64];
    len = fuzz_nic_frame(frame, len, g->station, dst, seed, badlen);
    fake_wire_deliver(&g->wire, frame, len);
    return 1;
}

bool fuzz_nic_wire_op(fuzz_nic_rig *g, unsigned op, fuzz_reader *r, unsigned run_scale,
                      uint64_t *offered, uint64_t *badlen)
{
    switch (op) {
    case 4: run_for(&g->clock, fuzz_take(r, 2) * run_scale); return true;
    case 5: {
        unsigned len = (unsigned)fuzz_take(r, 2);
        unsigned dst = (unsigned)fuzz_take(r, 1), seed = (unsigned)fuzz_take(r, 1);
        *offered += deliver(g, len, dst, seed, badlen);
        return true;
    }
    case 11: {
        unsigned count = (unsigned)fuzz_take(r, 1), len = (unsigned)fuzz_take(r, 2);
        unsigned dst = (unsigned)fuzz_take(r, 1), seed = (unsigned)fuzz_take(r, 1);
        for (unsigned k = 0; k < count; k++)
            *offered += deliver(g, len, dst, seed + k, badlen);
        return true;
    }
    default: return false;
    }
}

void fuzz_nic_open(fuzz_nic_rig *g, const char *model, const char *name, size_t ram_size,
                   const uint8_t station[6])
{
    xerr err;
    nic_opts o = {.net = "none", .mac = station};
    if (!nic_rig_open(&g->rig, model, name, &o, ram_size, true, &err))
        fuzz_fail(err.msg);
    sb_init(&g->evtext);
    g->station = station;
    char glob[64];
    snprintf(glob, sizeof glob, "%s.*", name);
    fuzz_format_events(&g->eb, glob, &g->evtext);
}

void fuzz_nic_finish(fuzz_nic_rig *g, uint64_t offered, uint64_t badlen)
{
    nic *n = g->n;
    run_for(&g->clock, 18000); /* 100 us of virtual time for the engines to settle */
    uint64_t drops = fuzz_check_nic(n, &g->wire, &g->host, offered, badlen);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr,
                "fuzz: tx %llu rx %llu offered %llu rx-drops %llu dma-errors %llu irqs %llu\n",
                (unsigned long long)n->cnt.tx_frames, (unsigned long long)n->cnt.rx_frames,
                (unsigned long long)offered, (unsigned long long)drops,
                (unsigned long long)n->cnt.dma_errors, (unsigned long long)n->irq.raises);
    fuzz_nic_close(g);
}

void fuzz_nic_program(fuzz_nic_rig *g, fuzz_reader *r, unsigned max_ops, unsigned nops,
                      void (*model_op)(fuzz_nic_rig *g, unsigned code, fuzz_reader *r))
{
    uint64_t offered = 0, badlen = 0; /* badlen: frames the port refuses for their length */
    for (unsigned op = 0; op < max_ops && r->left; op++) {
        unsigned code = (unsigned)fuzz_take(r, 1) % nops;
        if (!fuzz_nic_op(g, code, r, 2) && !fuzz_nic_wire_op(g, code, r, 4, &offered, &badlen))
            model_op(g, code, r);
    }
    fuzz_nic_finish(g, offered, badlen);
}

void fuzz_nic_close(fuzz_nic_rig *g)
{
    nic_rig_close(&g->rig);
    sb_free(&g->evtext);
}
