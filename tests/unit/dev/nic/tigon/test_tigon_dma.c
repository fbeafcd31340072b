/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the Tigon2 model, part 2: receive (standard, jumbo, mini,
 * return ring), transmit (host send ring, consumer index), coalescing, the
 * swap modes, per-word versus raw DMA (bytes and bus time), bad input, views and stall queries. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tigon_host.h"
#include "../nic_checks.h"
#include "../../../check_run.h"

static tg_host H;
static const uint8_t BCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static uint8_t frame[NET_MAX_FRAME];

static void setup_be(void) { tgh_setup(&H, "tigon2", true); }
static void teardown(void) { tgh_teardown(&H); }


static unsigned ev_n;
static void count_ev(void *ctx, const event *ev)
{
    (void)ev;
    (*(unsigned *)ctx)++;
}
static unsigned *counter(tg_host *h, const char *name)
{
    static unsigned slots[16];
    char full[64];
    snprintf(full, sizeof full, "tigon0.%s", name);
    unsigned *c = &slots[ev_n++ % 16];
    *c = 0;
    event_subscribe(event_find(&h->eb, full), count_ev, c);
    return c;
}

static uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)s;
}

/* ---- receive ------------------------------------------------------------------------ */

START_TEST(rx_standard_and_return_ring)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 8, 4);
    unsigned *frames = counter(h, "rx.frame"), *done = counter(h, "rx.desc-done");
    const uint32_t lens[3] = {200, 1514, 101};
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(frame, lens[k], k == 1 ? BCAST : TGH_MAC, k);
        ck_assert(fake_wire_deliver(&h->wire, frame, lens[k]));
    }
    tgh_run(h, US(300));
    ck_assert_uint_eq(h->nrx, 3);
    ck_assert_uint_eq(*frames, 3);
    ck_assert_uint_eq(*done, 3);
    ck_assert_uint_eq(tgh_mr(h, H_RET_PRD), 3);
    for (unsigned k = 0; k < 3; k++) {
        tgh_rx *r = &h->rx[k];
        uint32_t len;
        const uint8_t *d = tgh_rx_data(h, r, &len);
        tgh_frame(frame, lens[k], k == 1 ? BCAST : TGH_MAC, k);
        ck_assert_uint_eq(len, lens[k]);
        ck_assert_mem_eq(d, frame, len);
        ck_assert_uint_eq(r->w[2] >> 16, k);         /* the slot the host posted */
        ck_assert_uint_eq(r->w[7], 0xc0de0000u | k); /* its cookie */
        uint32_t fl = r->w[3] & 0xffff;
        ck_assert(fl & TG_BD_END);
        ck_assert_uint_eq(fl & (TG_BD_JUMBO | TG_BD_MINI | TG_BD_FRAME_ERROR), 0);
        ck_assert_uint_eq(fl & TG_BD_BCAST, k == 1 ? TG_BD_BCAST : TG_BD_UCAST);
        ck_assert_uint_eq(fl & TG_BD_TCP_UDP_SUM, 0); /* not UDP: no checksum */
    }
    ck_assert_uint_eq(h->t->std.index, 3);
    /* A UDP frame: the raw sum without pseudo header (NO_PSEUDO_HDR), which
     * with the pseudo header folds to 0xffff as Linux checks it. */
    tgh_udp_frame(frame, 300, TGH_MAC, 9);
    ck_assert(fake_wire_deliver(&h->wire, frame, 300));
    /* A tagged frame: VLAN assist strips the tag into the BD. */
    uint8_t tagged[304];
    memcpy(tagged, frame, 12);
    store_be(tagged + 12, 2, 0x8100);
    store_be(tagged + 14, 2, 0x2005);
    memcpy(tagged + 16, frame + 12, 288);
    ck_assert(fake_wire_deliver(&h->wire, tagged, 304));
    tgh_run(h, US(300));
    ck_assert_uint_eq(h->nrx, 5);
    for (unsigned k = 3; k < 5; k++) {
        tgh_rx *r = &h->rx[k];
        uint32_t fl = r->w[3] & 0xffff, len;
        ck_assert(fl & TG_BD_TCP_UDP_SUM);
        uint32_t pseudo = 0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 17 + (300 - 34);
        ck_assert_uint_eq(fold((r->w[4] & 0xffff) + pseudo), 0xffff);
        const uint8_t *d = tgh_rx_data(h, r, &len);
        ck_assert_uint_eq(len, 300);
        ck_assert_mem_eq(d, frame, 300);
        ck_assert_uint_eq(!!(fl & TG_BD_VLAN_TAG), k == 4);
        ck_assert_uint_eq(r->w[5] & 0xffff, k == 4 ? 0x2005 : 0);
    }
}
END_TEST

START_TEST(rx_jumbo_and_mini)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.mtu = 9000;
    tgh_up(h, &c, 8, 4);
    ck_assert_uint_eq(h->t->rcb[TG_RCB_MINI].max_len, 100);
    const uint32_t lens[3] = {9014, 60, 1000};
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(frame, lens[k], TGH_MAC, k);
        ck_assert(fake_wire_deliver(&h->wire, frame, lens[k]));
    }
    tgh_run(h, US(300));
    /* The jumbo frame waits at the head of the FIFO for a jumbo buffer. */
    ck_assert_uint_eq(h->nrx, 0);
    ck_assert(h->t->rx_nobuf);
    ring_state s;
    ck_assert_int_eq(nic_ring_state(h->n->dev, "jumbo", &s), 0);
    ck_assert(!s.posted);
    tgh_post(h, 1, 4, 9018);
    tgh_run(h, US(300));
    ck_assert_uint_eq(h->nrx, 3);
    const uint32_t ring_flag[3] = {TG_BD_JUMBO, TG_BD_MINI, 0};
    for (unsigned k = 0; k < 3; k++) {
        uint32_t len;
        const uint8_t *d = tgh_rx_data(h, &h->rx[k], &len);
        tgh_frame(frame, lens[k], TGH_MAC, k);
        ck_assert_uint_eq(len, lens[k]);
        ck_assert_mem_eq(d, frame, len);
        ck_assert_uint_eq(h->rx[k].w[3] & (TG_BD_JUMBO | TG_BD_MINI), ring_flag[k]);
    }
    ck_assert_uint_eq(h->t->jumbo.index, 1);
    ck_assert_uint_eq(h->t->mini.index, 1);
    ck_assert_uint_eq(h->t->std.index, 1);
    /* Longer than IfMtu: dropped by the TGH_MAC. */
    tgh_frame(frame, 9100, TGH_MAC, 5);
    ck_assert(!fake_wire_deliver(&h->wire, frame, 9100));
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_TOO_LONG], 1);
}
END_TEST

START_TEST(rx_jumbo_disabled_and_filter)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.mtu = 9000;
    c.jumbo_disabled = true;
    tgh_up(h, &c, 8, 4);
    tgh_frame(frame, 4000, TGH_MAC, 1);
    ck_assert(fake_wire_deliver(&h->wire, frame, 4000));
    static const uint8_t other[6] = {0x02, 9, 9, 9, 9, 9}, mcast[6] = {1, 0, 0x5e, 1, 2, 3};
    tgh_frame(frame, 200, other, 2);
    ck_assert(!fake_wire_deliver(&h->wire, frame, 200));
    tgh_frame(frame, 200, mcast, 3);
    ck_assert(!fake_wire_deliver(&h->wire, frame, 200));
    tgh_run(h, US(200));
    ck_assert_uint_eq(h->nrx, 0);
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_TOO_LONG], 1);
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_FILTERED], 2);
    tgh_cmd(h, TG_C_SET_PROMISC_MODE, 1, 0);
    tgh_run(h, US(10));
    tgh_frame(frame, 200, other, 2);
    ck_assert(fake_wire_deliver(&h->wire, frame, 200));
    tgh_run(h, US(200));
    ck_assert_uint_eq(h->nrx, 1);
}
END_TEST

/* ---- transmit ---------------------------------------------------------------------- */

START_TEST(tx_host_ring_consumer_index)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 0, 0); /* Linux: COAL_UPDATE_ONLY, 400 us, 60 BDs */
    unsigned *fetch = counter(h, "tx.desc-fetch"), *done = counter(h, "tx.desc-done");
    const uint32_t lens[3] = {60, 1514, 333};
    const unsigned frags[3] = {1, 3, 2};
    unsigned rises = fake_irq_rises(&h->host);
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(frame, lens[k], BCAST, k);
        tgh_send(h, frame, lens[k], frags[k], 0, 0);
    }
    tgh_run(h, US(100));
    ck_assert_uint_eq(h->wire.nframes, 3);
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(frame, lens[k], BCAST, k);
        ck_assert_uint_eq(h->wire.lens[k], lens[k]);
        ck_assert_mem_eq(h->wire.frames[k], frame, lens[k]);
    }
    ck_assert_uint_eq(*fetch, 6);
    ck_assert_uint_eq(*done, 6);
    /* COAL_UPDATE_ONLY: the consumer index waits for the coalescing timer. */
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 0);
    ring_state s;
    nic_ring_state(h->n->dev, "tx", &s);
    ck_assert_uint_eq(s.unreclaimed, 6);
    ck_assert(!ring_stalled(&s));
    tgh_run(h, US(350));
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 6);
    ck_assert_uint_eq(h->tx_csm, 6);
    ck_assert_uint_gt(fake_irq_rises(&h->host), rises);
    ck_assert_uint_eq(h->t->txc.fires[NIC_COAL_LATENCY], 1);
    /* COAL_NOW: at once. */
    tgh_frame(frame, 100, BCAST, 7);
    tgh_send(h, frame, 100, 1, TG_BD_COAL_NOW, 0);
    tgh_run(h, US(20));
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 7);
    ck_assert_uint_eq(h->t->txc.fires[NIC_COAL_FORCED], 1);
}
END_TEST

START_TEST(tx_per_frame_updates_and_offloads)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.tx_flags &= (uint16_t)~TG_RCB_COAL_UPDATE_ONLY;
    c.tx_coal = 0; /* no coalescing: an interrupt per BD */
    tgh_up(h, &c, 0, 0);
    /* A UDP frame whose checksum field holds the pseudo-header sum
     * (CHECKSUM_PARTIAL), sent in 2 fragments with TCP_UDP_SUM. */
    tgh_udp_frame(frame, 400, BCAST, 3);
    uint8_t want[400];
    memcpy(want, frame, 400);
    uint32_t pseudo = 0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 17 + 366;
    store_be(frame + 40, 2, fold(pseudo));
    tgh_send(h, frame, 400, 2, TG_BD_TCP_UDP_SUM, 0);
    tgh_run(h, US(20));
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 2); /* written at the frame's END */
    ck_assert_uint_eq(h->wire.nframes, 1);
    ck_assert_mem_eq(h->wire.frames[0], want, 400);
    /* VLAN_TAG: the tag goes in after the source address. */
    tgh_frame(frame, 100, BCAST, 4);
    tgh_send(h, frame, 100, 1, 0, 0x0123);
    tgh_run(h, US(20));
    ck_assert_uint_eq(h->wire.nframes, 2);
    ck_assert_uint_eq(h->wire.lens[1], 104);
    ck_assert_uint_eq(load_be(h->wire.frames[1] + 12, 4), 0x81000123);
    ck_assert_mem_eq(h->wire.frames[1] + 16, frame + 12, 88);
    ck_assert_uint_eq(h->t->txc.fires[NIC_COAL_IMMEDIATE], 3);
}
END_TEST

START_TEST(tx_ring_in_nic_sram)
{
    /* Without TX_HOST_RING the send ring is NIC memory the host fills
     * through the window (the Tigon I way; 512 entries at 0x2000). */
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.tx_flags = TG_RCB_COAL_UPDATE_ONLY;
    c.tx_addr = 0x2000;
    c.tx_entries = 512;
    c.tx_coal = 0;
    tgh_up(h, &c, 0, 0);
    ck_assert(h->t->tx.ops->mem_read != NULL);
    tgh_frame(frame, 150, BCAST, 5);
    memcpy(fake_ptr(&h->host, H_TXBUF(0), 150), frame, 150);
    const uint32_t bd[4] = {(uint32_t)(H_TXBUF(0) >> 32), (uint32_t)H_TXBUF(0),
                            150u << 16 | TG_BD_END, 0};
    tgh_download(h, 0x2000 + 16 * 3, bd, 4); /* entry 3; 0..2 are empty END-less */
    const uint32_t end0[4] = {0, 0, TG_BD_END, 0};
    for (unsigned i = 0; i < 3; i++)
        tgh_download(h, 0x2000 + 16 * i, end0, 4);
    unsigned bus_ops = (unsigned)h->host.word_ops;
    tgh_wr(h, TxPrd, 4);
    tgh_run(h, US(50));
    ck_assert_uint_eq(h->wire.nframes, 1);
    ck_assert_mem_eq(h->wire.frames[0], frame, 150);
    ck_assert_uint_eq(h->n->cnt.tx_drops[NIC_DROP_TOO_SHORT], 3);
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 4);
    /* The BDs cost no bus cycles: one index word per BD (no coalescing). */
    ck_assert_uint_eq(h->host.word_ops - bus_ops, 4);
    strbuf b;
    sb_init(&b);
    dev_view_find(h->n->dev, "ring")->show(h->n->dev, "tx 4", NULL, &b);
    ck_assert_msg(strstr(b.s, "150") != NULL && strstr(b.s, "END") != NULL, "%s", b.s);
    sb_free(&b);
}
END_TEST

/* ---- coalescing -------------------------------------------------------------------- */

START_TEST(rx_coalescing_ticks_and_count)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg; /* Rx 120 us / 25 BDs */
    tgh_up(h, &c, 64, 0);
    h->refill = true;
    unsigned *fires = counter(h, "coal.fire");
    unsigned handled = h->isr_handled;
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(frame, 200, TGH_MAC, k);
        fake_wire_deliver(&h->wire, frame, 200);
    }
    tgh_run(h, US(100));
    ck_assert_uint_eq(h->nrx, 0); /* written, but no interrupt yet */
    ck_assert_uint_eq(tgh_mr(h, H_RET_PRD), 3);
    tgh_run(h, US(40));
    ck_assert_uint_eq(h->nrx, 3);
    ck_assert_uint_eq(h->isr_handled - handled, 1);
    ck_assert_uint_eq(h->t->rxc.fires[NIC_COAL_LATENCY], 1);
    /* 25 BDs interrupt at once, before the 120 us are up.  Each frame
     * takes ~3.4 us of bus time (BD fetch, payload, return BD, index
     * word), which the engine waits out: the 25th is done after ~85 us. */
    for (unsigned k = 0; k < 25; k++) {
        tgh_frame(frame, 200, TGH_MAC, k);
        fake_wire_deliver(&h->wire, frame, 200);
    }
    tgh_run(h, US(60));
    ck_assert_uint_eq(h->nrx, 3); /* still moving them */
    tgh_run(h, US(40));
    ck_assert_uint_eq(h->nrx, 28);
    ck_assert_uint_eq(h->t->rxc.fires[NIC_COAL_COUNT], 1);
    ck_assert_uint_eq(h->t->rxc.fires[NIC_COAL_LATENCY], 1);
    /* Ticks 0: every frame interrupts. */
    tgh_wr(h, RxCoal, 0);
    for (unsigned k = 0; k < 4; k++) {
        tgh_frame(frame, 200, TGH_MAC, k);
        fake_wire_deliver(&h->wire, frame, 200);
        tgh_run(h, US(5));
    }
    ck_assert_uint_eq(h->nrx, 32);
    ck_assert_uint_eq(h->t->rxc.fires[NIC_COAL_IMMEDIATE], 4);
    ck_assert_uint_ge(*fires, 6);
}
END_TEST

/* ---- swap modes -------------------------------------------------------------------- */

/* One receive and one transmit through a fresh NIC set up as `mode` does:
 * 0 Linux big-endian, 1 little-endian host, 2 big-endian host with raw PIO
 * (HostCtrl BYTE_SWAP, FreeBSD's old big-endian set-up). */
static void swap_run(int mode, uint8_t *rx_out, uint8_t *tx_out)
{
    tg_host *h = &H;
    tgh_teardown(h);
    tgh_setup(h, "tigon2", mode != 1);
    tgh_cfg c = tgh_linux_cfg(mode != 1);
    if (mode == 2)
        c.host_ctrl |= TG_HC_BYTE_SWAP;
    tgh_up(h, &c, 8, 0);
    ck_assert(h->fw_running);
    tgh_udp_frame(frame, 777, TGH_MAC, 11);
    ck_assert(fake_wire_deliver(&h->wire, frame, 777));
    tgh_udp_frame(frame, 555, BCAST, 12);
    tgh_send(h, frame, 555, 3, 0, 0);
    tgh_run(h, US(500));
    ck_assert_uint_eq(h->nrx, 1);
    ck_assert_uint_eq(h->wire.nframes, 1);
    uint32_t len;
    memcpy(rx_out, tgh_rx_data(h, &h->rx[0], &len), 777);
    ck_assert_uint_eq(len, 777);
    memcpy(tx_out, h->wire.frames[0], 555);
    ck_assert_uint_eq(h->rx[0].w[7], 0xc0de0000u);
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 3);
}

START_TEST(swap_modes_same_bytes)
{
    static uint8_t rx[3][777], tx[3][555];
    for (int m = 0; m < 3; m++)
        swap_run(m, rx[m], tx[m]);
    tgh_udp_frame(frame, 777, TGH_MAC, 11);
    for (int m = 0; m < 3; m++)
        ck_assert_mem_eq(rx[m], frame, 777);
    tgh_udp_frame(frame, 555, BCAST, 12);
    for (int m = 0; m < 3; m++)
        ck_assert_mem_eq(tx[m], frame, 555);
}
END_TEST

START_TEST(data_swap_off_reverses_words)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.opmode &= ~0x10u; /* BYTESWAP_DATA off */
    tgh_up(h, &c, 8, 0);
    tgh_frame(frame, 203, TGH_MAC, 1);
    fake_wire_deliver(&h->wire, frame, 203);
    tgh_run(h, US(300));
    ck_assert_uint_eq(h->nrx, 1);
    uint32_t len;
    const uint8_t *d = tgh_rx_data(h, &h->rx[0], &len);
    ck_assert_uint_eq(len, 203);
    for (uint32_t i = 0; i < 200; i++) /* whole words reversed */
        ck_assert_uint_eq(d[i], frame[(i & ~3u) + 3 - (i & 3)]);
    ck_assert_uint_eq(d[200], frame[202]); /* the short last word within itself */
    ck_assert_uint_eq(d[202], frame[200]);
}
END_TEST

/* ---- per-word versus raw DMA ----------------------------------------------------------- */

/* A fresh big-endian host's Tigon, up with nstd standard receive buffers,
 * moving payloads per word or raw. */
static tg_host *fresh_up(bool per_word, unsigned nstd)
{
    tg_host *h = &H;
    tgh_teardown(h);
    tgh_setup(h, "tigon2", true);
    nic_set_dma_per_word(h->n, per_word);
    tgh_up(h, &h->cfg, nstd, 0);
    return h;
}

static void dma_run(bool per_word, uint8_t *rx_out, uint8_t *tx_out, uint64_t *word_ops,
                    uint64_t *bulk_ops)
{
    tg_host *h = fresh_up(per_word, 8);
    uint64_t w0 = h->n->cnt.dma_word_ops, b0 = h->n->cnt.dma_bulk_ops;
    tgh_frame(frame, 1501, TGH_MAC, 21);
    ck_assert(fake_wire_deliver(&h->wire, frame, 1501));
    tgh_frame(frame, 1203, BCAST, 22);
    tgh_send(h, frame, 1203, 2, 0, 0);
    tgh_run(h, US(500));
    uint32_t len;
    memcpy(rx_out, tgh_rx_data(h, &h->rx[0], &len), 1501);
    memcpy(tx_out, h->wire.frames[0], 1203);
    *word_ops = h->n->cnt.dma_word_ops - w0;
    *bulk_ops = h->n->cnt.dma_bulk_ops - b0;
}

START_TEST(per_word_vs_raw)
{
    static uint8_t rx[2][1501], tx[2][1203];
    uint64_t w[2], b[2];
    dma_run(false, rx[0], tx[0], &w[0], &b[0]);
    dma_run(true, rx[1], tx[1], &w[1], &b[1]);
    ck_assert_mem_eq(rx[0], rx[1], 1501);
    ck_assert_mem_eq(tx[0], tx[1], 1203);
    tgh_frame(frame, 1501, TGH_MAC, 21);
    ck_assert_mem_eq(rx[0], frame, 1501);
    ck_assert_uint_eq(b[0], 3); /* Rx payload, two Tx fragments */
    ck_assert_uint_eq(b[1], 0);
    /* 1501 + 1203 payload bytes: ~676 more word operations. */
    ck_assert_uint_ge(w[1] - w[0], (1501 + 1203) / 4);
}
END_TEST

/* The engines wait for the bus: N frames each way take the time of their
 * bus transfers, so per-word payload DMA costs virtual time, not only host
 * time.  Returns the virtual time until the last of `nf` frames went out
 * (tx) or was delivered to the host (rx). */
static uint64_t timed_run(bool per_word, bool tx, uint8_t out[NIC_TIMED_FRAMES][1514],
                          uint64_t *busy)
{
    tg_host *h = fresh_up(per_word, 16);
    uint64_t t0 = h->clock.now, b0 = h->n->dma_busy_ticks;
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        tgh_frame(frame, 1514, TGH_MAC, 40 + i);
        if (tx)
            tgh_send(h, frame, 1514, 1, 0, 0);
        else
            ck_assert(fake_wire_deliver(&h->wire, frame, 1514));
    }
    unsigned k = 0;
    while ((tx ? h->wire.nframes : h->n->cnt.rx_frames) < NIC_TIMED_FRAMES && k++ < 2000)
        tgh_run(h, US(1));
    ck_assert_uint_eq(tx ? h->wire.nframes : h->n->cnt.rx_frames, NIC_TIMED_FRAMES);
    uint64_t took = h->clock.now - t0;
    tgh_run(h, US(100));
    ck_assert_uint_eq(h->nrx, tx ? 0 : NIC_TIMED_FRAMES);
    for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
        uint32_t len = 0;
        const uint8_t *p = tx ? h->wire.frames[i] : tgh_rx_data(h, &h->rx[i], &len);
        ck_assert_uint_eq(tx ? h->wire.lens[i] : len, 1514);
        memcpy(out[i], p, 1514);
    }
    *busy = h->n->dma_busy_ticks - b0;
    return took;
}

START_TEST(per_word_dma_takes_virtual_time)
{
    /* A 1514-byte payload: one burst of 4 + 190 PCI clocks (5.8 us), or
     * 379 word transfers of 5 clocks (57 us).  Raw Tx is paced by the
     * wire (12.3 us a frame), per-word by the bus. */
    check_per_word_dma_costs(timed_run, TGH_MAC, 0x0800, 40);
}
END_TEST

/* ---- bad input --------------------------------------------------------------------------- */

START_TEST(bad_tx_input)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.tx_flags &= (uint16_t)~TG_RCB_COAL_UPDATE_ONLY;
    tgh_up(h, &c, 0, 0);
    unsigned *dmaerr = counter(h, "dma.error");
    /* A zero-length frame: dropped, the ring goes on. */
    tgh_send(h, frame, 0, 1, 0, 0);
    /* A buffer outside RAM: the frame is dropped, the ring goes on. */
    uint32_t slot = h->tx_prd;
    tgh_frame(frame, 100, BCAST, 1);
    tgh_send(h, frame, 100, 1, 0, 0);
    tgh_mw(h, H_TX + 16 * slot + 4, 0x7fff0000);
    tgh_wr(h, TxPrd, h->tx_prd);
    tgh_frame(frame, 90, BCAST, 2);
    tgh_send(h, frame, 90, 1, 0, 0);
    tgh_run(h, US(500));
    ck_assert_uint_eq(h->wire.nframes, 1);
    ck_assert_uint_eq(h->wire.lens[0], 90);
    ck_assert_uint_eq(h->n->cnt.tx_drops[NIC_DROP_TOO_SHORT], 1);
    ck_assert_uint_eq(h->n->cnt.tx_drops[NIC_DROP_DMA], 1);
    ck_assert_uint_eq(*dmaerr, 1);
    ck_assert_uint_eq(tgh_mr(h, H_TX_CSM), 3);
    /* A producer past the ring size wraps; zero BDs without END form one
     * endless frame that the step budget keeps from hanging anything. */
    tgh_wr(h, TxPrd, 256 + 100);
    tgh_run(h, US(2000));
    ck_assert_uint_eq(h->t->tx.index, 100);
    ck_assert(nic_tx_in_frame(h->n));
    /* A reset in the middle of it: the half-gathered frame counts as reset. */
    tgh_wr(h, HostCtrl, TG_HC_HW_RESET);
    ck_assert_uint_eq(h->n->cnt.tx_drops[NIC_DROP_RESET], 1);
    ck_assert(!nic_tx_in_frame(h->n));
}
END_TEST

START_TEST(bad_rx_input)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 0, 0);
    unsigned offered = 0;
    /* A buffer outside RAM, and one too small for the frame. */
    tgh_post(h, 0, 2, 1518);
    tgh_mw(h, H_STD + 4, 0x7fff0000);
    tgh_mw(h, H_STD + 32 + 8, 1u << 16 | 64);
    tgh_frame(frame, 200, TGH_MAC, 1);
    fake_wire_deliver(&h->wire, frame, 200), offered++;
    fake_wire_deliver(&h->wire, frame, 200), offered++;
    tgh_run(h, US(300));
    ck_assert_uint_eq(h->nrx, 2);
    ck_assert_uint_eq(h->rx[0].w[2] & 0xffff, 0);
    ck_assert_uint_eq(h->rx[0].w[3] & TG_BD_FRAME_ERROR, TG_BD_FRAME_ERROR);
    ck_assert_uint_eq(h->rx[0].w[5] >> 16, TG_RXERR_MAC_ABORT);
    ck_assert_uint_eq(h->rx[1].w[2] & 0xffff, 64);
    ck_assert_uint_eq(h->rx[1].w[5] >> 16, TG_RXERR_TRUNC);
    uint32_t len;
    ck_assert_mem_eq(tgh_rx_data(h, &h->rx[1], &len), frame, 64);
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_DMA], 1);
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_TOO_LONG], 1);
    /* A runt never reaches the NIC (the port drops it for its length);
     * frames with no buffer until the FIFO is full. */
    ck_assert(!fake_wire_deliver(&h->wire, frame, 10));
    ck_assert_uint_eq(h->wire.port.stats.rx_dropped, 1);
    for (unsigned k = 0; k < 300; k++)
        fake_wire_deliver(&h->wire, frame, 200), offered++;
    tgh_run(h, US(100));
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_TOO_SHORT], 0);
    ck_assert_uint_gt(h->n->cnt.rx_drops[NIC_DROP_NO_BUFFER], 0);
    /* A return ring that cannot be written: the engine stops, ERROR. */
    h->t->ret.base = 0x7fff0000;
    tgh_post(h, 0, 1, 1518);
    tgh_run(h, US(100));
    ck_assert(h->t->rx_fault);
    ck_assert(tgh_saw_event(h, TG_E_ERROR, TG_E_ERR_BAD_CFG));
    /* A reset mid-stream: what waits in the FIFO counts as reset. */
    tgh_wr(h, HostCtrl, TG_HC_HW_RESET);
    uint64_t drops = 0;
    for (int i = 0; i < NIC_NDROPS; i++)
        drops += h->n->cnt.rx_drops[i];
    ck_assert_uint_gt(h->n->cnt.rx_drops[NIC_DROP_RESET], 0);
    ck_assert_uint_eq(offered, h->n->cnt.rx_frames + drops + h->n->fifo.count);
    ck_assert_uint_eq(h->n->fifo.count, 0);
}
END_TEST

START_TEST(bad_rings)
{
    tg_host *h = &H;
    /* A send ring outside RAM: fault, ERROR event, stopped; no hang. */
    tgh_cfg c = h->cfg;
    tgh_up(h, &c, 0, 0);
    nic_ring_set_base(&h->t->tx, 0x7ff00000);
    tgh_frame(frame, 100, BCAST, 1);
    tgh_send(h, frame, 100, 1, 0, 0);
    tgh_run(h, US(100));
    ck_assert(h->t->tx_fault);
    ck_assert(tgh_saw_event(h, TG_E_ERROR, TG_E_ERR_BAD_CFG));
    ring_state s;
    nic_ring_state(h->n->dev, "tx", &s);
    ck_assert(ring_stalled(&s));
    /* An event ring outside RAM: the firmware's events are lost, counted. */
    tgh_teardown(h);
    tgh_setup(h, "tigon2", true);
    c = tgh_linux_cfg(true);
    tgh_init(h, &c);
    ck_assert(h->fw_running);
    h->t->evt.base = 0x7ff00000;
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0);
    tgh_run(h, US(20));
    ck_assert_uint_eq(h->t->events_lost, 1);
    /* Bus mastering off: every DMA fails cleanly. */
    uint64_t errs = h->n->cnt.dma_errors;
    pci_config_write(h->f, 4, 2, PCI_CMD_MEM);
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0); /* the statistics DMA fails */
    tgh_run(h, US(20));
    ck_assert_uint_eq(h->n->cnt.dma_errors, errs + 1);
    ck_assert_uint_eq(h->t->st.dma_wr_aborts, 2);
}
END_TEST

/* ---- views --------------------------------------------------------------------------- */

START_TEST(views_and_events)
{
    tg_host *h = &H;
    unsigned *mb = counter(h, "mailbox.write"), *cmd = counter(h, "cmd"),
             *evt = counter(h, "event"), *bell = counter(h, "doorbell");
    tgh_up(h, &h->cfg, 8, 4);
    tgh_frame(frame, 300, TGH_MAC, 1);
    fake_wire_deliver(&h->wire, frame, 300);
    tgh_send(h, frame, 300, 1, 0, 0);
    tgh_run(h, US(500));
    ck_assert_uint_ge(*mb, 8);
    ck_assert_uint_eq(*mb, *bell);
    ck_assert_uint_eq(*cmd, 2);
    ck_assert_uint_ge(*evt, 2);
    static const char *const rings[] = {"tx", "rx", "jumbo", "mini", "return", "event", "command"};
    for (unsigned i = 0; i < ARRAY_SIZE(rings); i++) {
        strbuf b;
        sb_init(&b);
        char args[32];
        snprintf(args, sizeof args, "%s 4", rings[i]);
        dev_view_find(h->n->dev, "ring")->show(h->n->dev, args, NULL, &b);
        ck_assert_msg(strstr(b.s, "ring ") != NULL, "%s", b.s);
        ck_assert_msg(strstr(b.s, "not readable") == NULL, "%s: %s", rings[i], b.s);
        sb_free(&b);
        ring_state s;
        ck_assert_int_eq(nic_ring_state(h->n->dev, rings[i], &s), 0);
    }
    strbuf b;
    sb_init(&b);
    dev_view_find(h->n->dev, "ring")->show(h->n->dev, "command 3", NULL, &b);
    ck_assert(strstr(b.s, "0x000000000f000000") != NULL); /* CLEAR_STATS */
    sb_reset(&b);
    dev_view_find(h->n->dev, "stall")->show(h->n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "tigon0 event") != NULL);
    sb_reset(&b);
    dev_view_find(h->n->dev, "stats")->show(h->n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "tigon2") != NULL);
    sb_reset(&b);
    dev_show(h->n->dev, &b);
    ck_assert(strstr(b.s, "TxPrd") != NULL && strstr(b.s, "ModeStat") != NULL);
    sb_free(&b);
    /* An event formats with its decoded fields. */
    event_src *src = event_find(&h->eb, "tigon0.event");
    ck_assert(src != NULL);
    uint64_t vals[5] = {3, TG_E_LINK_STATE, 1, 0, 0x06001000};
    event e = {src, 0, -1, 5, vals};
    sb_init(&b);
    event_format(&e, &b);
    ck_assert_msg(strstr(b.s, "LINK_STATE") != NULL, "%s", b.s);
    sb_free(&b);
}
END_TEST


/* 802.3x: with TX_FLOW in the link word (acenic.c sets it on a Tigon2) the
 * chip sends XOFF before its receive buffer overflows; a partner that
 * honours it (a host backend: nic_fc_ready) waits, and no frame is lost
 * where one that does not overflows the buffer (the control run, TX_FLOW
 * off in the link word). */
static unsigned deliver_while_ready(tg_host *h, unsigned max)
{
    unsigned sent = 0;
    while (sent < max && nic_fc_ready(h->n)) {
        tgh_frame(frame, 1514, TGH_MAC, sent++);
        fake_wire_deliver(&h->wire, frame, 1514);
        tgh_run(h, US(13));
    }
    return sent;
}

START_TEST(flow_control_xoff_xon)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 4, 0); /* 4 standard buffers, not refilled */
    ck_assert(h->t->link_word & TG_LNK_TX_FLOW);
    unsigned sent = deliver_while_ready(h, 1000);
    ck_assert(!nic_fc_ready(h->n));
    ck_assert(h->n->fc_xoff);
    ck_assert_uint_eq(h->n->cnt.fc_xoffs, 1);
    ck_assert_uint_gt(sent, 4);
    ck_assert_uint_lt(sent, 1000);
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_FIFO] + h->n->cnt.rx_drops[NIC_DROP_NO_BUFFER],
                      0);
    ck_assert_uint_eq(h->n->cnt.rx_frames + h->n->fifo.count, sent);
    /* The driver posts buffers again: the buffer drains, XON at half. */
    h->refill = true;
    for (unsigned round = 0; round < 50 && !nic_fc_ready(h->n); round++) {
        tgh_post(h, 0, 4, 1536);
        tgh_run(h, US(200));
    }
    ck_assert(nic_fc_ready(h->n));
    ck_assert_uint_eq(h->n->cnt.fc_xons, 1);
    ck_assert_uint_le(h->n->fifo.bytes, h->n->fifo.cap / 2);
    /* The link word without TX_FLOW: never paused, the buffer overflows. */
    tgh_teardown(h);
    tgh_setup(h, "tigon2", true);
    tgh_cfg c = h->cfg;
    c.link &= ~TG_LNK_TX_FLOW;
    tgh_up(h, &c, 4, 0);
    sent = deliver_while_ready(h, 300);
    ck_assert_uint_eq(sent, 300);
    ck_assert_uint_eq(h->n->cnt.fc_xoffs, 0);
    ck_assert_uint_gt(h->n->cnt.rx_drops[NIC_DROP_FIFO] + h->n->cnt.rx_drops[NIC_DROP_NO_BUFFER],
                      0);
}
END_TEST

int main(void)
{
    return check_main("tigon-dma", "dma", setup_be, teardown, 60, rx_standard_and_return_ring,
                      rx_jumbo_and_mini, rx_jumbo_disabled_and_filter, tx_host_ring_consumer_index,
                      tx_per_frame_updates_and_offloads, tx_ring_in_nic_sram,
                      rx_coalescing_ticks_and_count, swap_modes_same_bytes,
                      data_swap_off_reverses_words, per_word_vs_raw,
                      per_word_dma_takes_virtual_time, bad_tx_input, bad_rx_input, bad_rings,
                      views_and_events, flow_control_xoff_xon);
}
