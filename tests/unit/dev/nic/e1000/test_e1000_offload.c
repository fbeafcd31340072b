/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the e1000 models: checksum offload (context + data and
 * legacy descriptors), TCP segmentation frame by frame, receive checksum
 * status, jumbo frames over several buffers, RDTR/TIDV timing on the
 * virtual clock, per-word vs raw payload DMA, and the gen/echo peers. */
#include <stdio.h>
#include <stdlib.h>

#include "e1000_env.h"
#include "../../../check_run.h"

#define DATA_CMD (E1000_TXD_DEXT | E1000_TXD_DTYP_D | E1000_TXD_IFCS)
#define POPTS(x) ((uint32_t)(x) << 8)

/* A context descriptor at ring entry i. */
static void ctx_desc(unsigned i, unsigned ipcss, unsigned ipcso, unsigned ipcse, unsigned tucss,
                     unsigned tucso, unsigned tucse, uint32_t cmd_len, unsigned hdr_len,
                     unsigned mss)
{
    uint64_t a = TXRING + (uint64_t)i * 16;
    fake_w32(&E.host, a, ipcss | ipcso << 8 | ipcse << 16);
    fake_w32(&E.host, a + 4, tucss | tucso << 8 | tucse << 16);
    fake_w32(&E.host, a + 8, E1000_TXD_DEXT | cmd_len);
    fake_w32(&E.host, a + 12, hdr_len << 8 | mss << 16);
}

/* ---- checksum offload ------------------------------------------------------------------ */

START_TEST(tx_checksum_offload)
{
    uint8_t f[1514];
    env_up("e1000-82543", NULL, 16, 16); /* checksum offload exists on both parts */
    /* UDP: CHECKSUM_PARTIAL style seed (pseudo header with length), IP
     * checksum zeroed; the context asks for both. */
    uint32_t len = make_ip(f, false, 500, 0x1111, 3);
    uint8_t want[1514];
    memcpy(want, f, len);
    store_be(f + 24, 2, 0);
    store_be(f + 40, 2, fake_csum(f + 26, 8, 17 + 508));
    ctx_desc(0, 14, 24, 33, 34, 40, 0, 0, 0, 0);
    memcpy(fake_ptr(&E.host, TXBUF(1), len), f, len);
    tx_desc(1, TXBUF(1), len | DATA_CMD | E1000_TXD_EOP | E1000_TXD_RS,
            POPTS(E1000_TXD_POPTS_IXSM | E1000_TXD_POPTS_TXSM));
    /* TCP in two data descriptors, TCP checksum only (the IP one given). */
    uint32_t tlen = make_ip(f, true, 1000, 0x2222, 99);
    uint8_t twant[1514];
    memcpy(twant, f, tlen);
    store_be(f + 50, 2, fake_csum(f + 26, 8, 6 + 1020));
    ctx_desc(2, 14, 24, 33, 34, 50, 0, E1000_TXD_CTX_TCP | E1000_TXD_CTX_IP, 0, 0);
    memcpy(fake_ptr(&E.host, TXBUF(3), 300), f, 300);
    memcpy(fake_ptr(&E.host, TXBUF(4), tlen - 300), f + 300, tlen - 300);
    tx_desc(3, TXBUF(3), 300 | DATA_CMD, POPTS(E1000_TXD_POPTS_TXSM));
    tx_desc(4, TXBUF(4), (tlen - 300) | DATA_CMD | E1000_TXD_EOP, 0);
    /* Legacy IC: CSO/CSS in the descriptor. */
    uint32_t llen = make_ip(f, true, 200, 0x3333, 5);
    uint8_t lwant[1514];
    memcpy(lwant, f, llen);
    store_be(f + 50, 2, fake_csum(f + 26, 8, 6 + 220));
    memcpy(fake_ptr(&E.host, TXBUF(5), llen), f, llen);
    tx_desc(5, TXBUF(5), llen | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_IC | 50u << 16,
            34u << 8);
    /* Offsets beyond the packet: IC is ignored (SDM 3.3.3). */
    memcpy(fake_ptr(&E.host, TXBUF(6), llen), f, llen);
    tx_desc(6, TXBUF(6), llen | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_IC | 253u << 16,
            34u << 8);
    wr(TDT, 7);
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.wire.nframes, 4);
    ck_assert_uint_eq(E.wire.lens[0], len);
    ck_assert(ip_csum_ok(E.wire.frames[0]) && l4_csum_ok(E.wire.frames[0], len));
    ck_assert_mem_eq(E.wire.frames[0], want, len); /* exactly what software would compute */
    ck_assert(l4_csum_ok(E.wire.frames[1], tlen));
    ck_assert_mem_eq(E.wire.frames[1], twant, tlen);
    ck_assert_mem_eq(E.wire.frames[2], lwant, llen);
    ck_assert(!l4_csum_ok(E.wire.frames[3], llen)); /* left as the software wrote it */
    ck_assert_uint_eq(tx_status(0) & 1, 0);
    ck_assert_uint_eq(tx_status(1) & 1, 1);
    env_close();
}
END_TEST

/* ---- TCP segmentation ------------------------------------------------------------------ */

static void post_tso(uint8_t *f, uint32_t plen, unsigned mss, const uint32_t *split, unsigned n)
{
    uint32_t len = make_ip(f, true, plen, 0x4000, 1000000);
    /* Linux's e1000_tso: tot_len 0, IP checksum 0, TCP seed without length. */
    uint8_t tx[8192];
    memcpy(tx, f, len);
    store_be(tx + 16, 2, 0);
    store_be(tx + 24, 2, 0);
    store_be(tx + 50, 2, fake_csum(tx + 26, 8, 6));
    ctx_desc(0, 14, 24, 33, 34, 50, 0,
             E1000_TXD_TSE | E1000_TXD_CTX_TCP | E1000_TXD_CTX_IP | (len - 54), 54, mss);
    uint32_t off = 0;
    for (unsigned i = 0; i < n; i++) {
        memcpy(fake_ptr(&E.host, TXBUF(1 + i), split[i]), tx + off, split[i]);
        uint32_t cmd =
            split[i] | DATA_CMD | E1000_TXD_TSE | (i == n - 1 ? E1000_TXD_EOP | E1000_TXD_RS : 0);
        tx_desc(1 + i, TXBUF(1 + i), cmd, POPTS(E1000_TXD_POPTS_IXSM | E1000_TXD_POPTS_TXSM));
        off += split[i];
    }
    ck_assert_uint_eq(off, len);
    wr(TDT, 1 + n);
}

START_TEST(tso_segments_frame_by_frame)
{
    uint8_t f[8192];
    env_up("e1000-82544", NULL, 16, 16);
    static const uint32_t split[] = {100, 2000, 1954}; /* crosses the segment boundaries */
    post_tso(f, 4000, 1448, split, 3);
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.wire.nframes, 3);
    static const uint32_t pay[] = {1448, 1448, 1104};
    uint32_t off = 0;
    for (unsigned s = 0; s < 3; s++) {
        const uint8_t *g = E.wire.frames[s];
        ck_assert_uint_eq(E.wire.lens[s], 54 + pay[s]);
        ck_assert_mem_eq(g, f, 14);                         /* Ethernet header */
        ck_assert_uint_eq(load_be(g + 16, 2), 40 + pay[s]); /* IP total length */
        ck_assert_uint_eq(load_be(g + 18, 2), 0x4000 + s);  /* IP ID */
        ck_assert(ip_csum_ok(g));
        ck_assert_uint_eq(load_be(g + 38, 4), 1000000 + off); /* TCP sequence */
        ck_assert_uint_eq(g[47], s == 2 ? 0x19 : 0x10);       /* FIN/PSH: last only */
        ck_assert(l4_csum_ok(g, E.wire.lens[s]));
        ck_assert_mem_eq(g + 54, f + 54 + off, pay[s]);
        off += pay[s];
    }
    ck_assert_uint_eq(rd(TSCTC), 1);
    ck_assert_uint_eq(rd(TSCTFC), 0);
    ck_assert_uint_eq(tx_status(3) & 1, 1);
    ck_assert_uint_eq(rd(GPTC), 3);
    /* A payload that is an exact multiple of MSS: no empty segment. */
    wr(TDH, 0);
    wr(TDT, 0);
    static const uint32_t one[] = {54 + 2896};
    post_tso(f, 2896, 1448, one, 1);
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.wire.nframes, 5);
    ck_assert_uint_eq(E.wire.frames[3][47], 0x10);
    ck_assert_uint_eq(E.wire.frames[4][47], 0x19);
    ck_assert_uint_eq(rd(TSCTC), 1);
    /* MSS 0 is no context: the packet is dropped and counted. */
    wr(TDH, 0);
    wr(TDT, 0);
    post_tso(f, 1000, 0, (const uint32_t[]){1054}, 1);
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.wire.nframes, 5);
    ck_assert_uint_eq(rd(TSCTFC), 1);
    env_close();
    /* The 82543 has no segmentation: TSE is ignored, one frame goes out. */
    env_up("e1000-82543", NULL, 16, 16);
    post_tso(f, 4000, 1448, split, 3);
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.wire.nframes, 1);
    ck_assert_uint_eq(E.wire.lens[0], 4054);
    ck_assert_uint_eq(rd(TSCTC), 0);
    env_close();
}
END_TEST

/* ---- receive checksum status and jumbo frames ------------------------------------------ */

START_TEST(rx_checksum_status)
{
    uint8_t f[1514];
    env_up("e1000-82544", NULL, 16, 16);
    wr(RXCSUM, E1000_RXCSUM_IPOFL | E1000_RXCSUM_TUOFL);
    uint32_t len = make_ip(f, false, 300, 1, 1);
    memcpy(f, MYMAC, 6);
    fake_wire_deliver(&E.wire, f, len); /* good UDP */
    uint32_t tlen = make_ip(f, true, 300, 2, 2);
    memcpy(f, MYMAC, 6);
    f[60] ^= 0xff;
    fake_wire_deliver(&E.wire, f, tlen); /* bad TCP checksum */
    f[60] ^= 0xff;
    f[24] ^= 0x01;
    fake_wire_deliver(&E.wire, f, tlen); /* bad IP checksum */
    make_frame(f, 200, MYMAC, 1);
    fake_wire_deliver(&E.wire, f, 200); /* not IP */
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rx_w3(0) & 0xffff, 0x0003 | E1000_RXD_IPCS | E1000_RXD_TCPCS);
    ck_assert_uint_eq(rx_w3(1) & 0xffff,
                      0x0003 | E1000_RXD_IPCS | E1000_RXD_TCPCS | E1000_RXE_TCPE << 8);
    ck_assert_uint_eq((rx_w3(2) >> 8) & E1000_RXE_IPE, E1000_RXE_IPE);
    ck_assert_uint_eq(rx_w3(3) & 0xffff, 0x0003);
    /* The packet checksum from PCSS (here 14): the sum of the stored bytes. */
    uint32_t s = 0;
    const uint8_t *b = rx_buf(3);
    for (uint32_t i = 14; i + 1 < 204; i += 2)
        s += (uint32_t)b[i] << 8 | b[i + 1];
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    wr(RXCSUM, 14 | E1000_RXCSUM_TUOFL);
    fake_wire_deliver(&E.wire, f, 200);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rx_w2(4) >> 16, s);
    env_close();
}
END_TEST

START_TEST(rx_jumbo_multi_buffer)
{
    static uint8_t f[9000];
    env_up("e1000-82544", NULL, 16, 16);
    make_frame(f, 9000, MYMAC, 5);
    /* Without LPE: too long, ROC. */
    fake_wire_deliver(&E.wire, f, 9000);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 0);
    ck_assert_uint_eq(rd(ROC), 1);
    /* LPE with 2048-byte buffers: 9004 bytes over 5 buffers, EOP on the last. */
    wr(RCTL, rd(RCTL) | E1000_RCTL_LPE);
    fake_wire_deliver(&E.wire, f, 9000);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    ck_assert_uint_eq(rd(RDH), 5);
    uint8_t got[9004];
    uint32_t off = 0;
    for (unsigned i = 0; i < 5; i++) {
        uint32_t l = rx_w2(i) & 0xffff;
        ck_assert_uint_eq(l, i < 4 ? 2048 : 9004 - 4 * 2048);
        ck_assert_uint_eq(rx_w3(i) & E1000_RXD_EOP, i == 4 ? E1000_RXD_EOP : 0);
        ck_assert_uint_eq(rx_w3(i) & E1000_RXD_DD, E1000_RXD_DD);
        memcpy(got + off, rx_buf(i), l);
        off += l;
    }
    ck_assert_mem_eq(got, f, 9000);
    ck_assert_uint_eq(load_le(got + 9000, 4), nic_crc32(f, 9000));
    /* BSEX with 16 KiB buffers: one buffer. */
    wr(RCTL, rd(RCTL) | E1000_RCTL_BSEX | 1u << 16);
    fake_wire_deliver(&E.wire, f, 9000);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rx_w2(5) & 0xffff, 9004);
    ck_assert_uint_eq(rx_w3(5) & 3, 3);
    /* Jumbo transmit from three descriptors. */
    for (unsigned i = 0; i < 3; i++) {
        memcpy(fake_ptr(&E.host, TXBUF(2 * i), 3000), f + 3000 * i, 3000);
        tx_desc(i, TXBUF(2 * i), 3000 | E1000_TXD_IFCS | (i == 2 ? E1000_TXD_EOP : 0), 0);
    }
    wr(TDT, 3);
    run_for(&E.clock, US(100));
    ck_assert_uint_eq(E.wire.nframes, 1);
    ck_assert_uint_eq(E.wire.lens[0], 9000);
    ck_assert_mem_eq(E.wire.frames[0], f, 9000);
    env_close();
}
END_TEST

/* ---- interrupt delay timers ---------------------------------------------------------- */

/* Time of the first rise of INTA logged from entry `from` on. */
static uint64_t first_rise_from(unsigned from)
{
    for (unsigned i = from; i < E.host.nirq; i++)
        if (E.host.irqlog[i].level)
            return E.host.irqlog[i].time;
    return UINT64_MAX;
}

START_TEST(rdtr_relative_timer)
{
    uint8_t f[100];
    env_up("e1000-82543", NULL, 16, 16);
    wr(IMS, E1000_ICR_RXT0);
    wr(IMC, ~E1000_ICR_RXT0);
    wr(RDTR, 100); /* 102.4 us */
    make_frame(f, 100, MYMAC, 1);
    unsigned from = E.host.nirq;
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(50));
    ck_assert_uint_eq(rx_w3(0) & 1, 1); /* written back at once: only the interrupt waits */
    ck_assert(!E.host.level);
    uint64_t t1 = E.clock.now;
    fake_wire_deliver(&E.wire, f, 100); /* restarts the timer */
    run_for(&E.clock, US(100));
    ck_assert(!E.host.level);
    run_for(&E.clock, US(10));
    ck_assert(E.host.level);
    uint64_t fire = first_rise_from(from);
    ck_assert_uint_ge(fire, t1 + US(102));
    ck_assert_uint_le(fire, t1 + US(103) + 180);
    ck_assert_uint_eq(rd(ICR) & E1000_ICR_RXT0, E1000_ICR_RXT0);
    ck_assert_uint_eq(E.h->rxc.fires[NIC_COAL_GAP], 1);
    /* FPD: flush now; the bit reads back 0. */
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(5));
    ck_assert(!E.host.level);
    wr(RDTR, 100 | 0x80000000u);
    ck_assert(E.host.level);
    ck_assert_uint_eq(rd(RDTR), 100);
    ck_assert_uint_eq(rd(ICR) & E1000_ICR_RXT0, E1000_ICR_RXT0);
    /* RDTR 0: every frame interrupts at once. */
    wr(RDTR, 0);
    fake_wire_deliver(&E.wire, f, 100);
    run_for(&E.clock, US(5));
    ck_assert(E.host.level);
    env_close();
}
END_TEST

START_TEST(tidv_relative_timer)
{
    uint8_t f[100];
    env_up("e1000-82544", NULL, 16, 16);
    wr(IMS, E1000_ICR_TXDW);
    wr(IMC, ~E1000_ICR_TXDW);
    wr(TIDV, 50); /* 51.2 us */
    make_frame(f, 100, PEER, 1);
    tx_legacy(0, 16, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS | E1000_TXD_IDE);
    wr(TDT, 1);
    unsigned from = E.host.nirq;
    run_for(&E.clock, US(30));
    ck_assert_uint_eq(tx_status(0) & 1, 1);
    ck_assert(!E.host.level);
    uint64_t t1 = E.clock.now;
    tx_legacy(1, 16, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS | E1000_TXD_IDE);
    wr(TDT, 2);
    run_for(&E.clock, US(45));
    ck_assert(!E.host.level); /* restarted by the second descriptor */
    run_for(&E.clock, US(15));
    ck_assert(E.host.level);
    ck_assert_uint_ge(first_rise_from(from), t1 + US(51));
    ck_assert_uint_eq(rd(ICR) & E1000_ICR_TXDW, E1000_ICR_TXDW);
    /* RS without IDE: at once. */
    tx_legacy(2, 16, f, 100, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    wr(TDT, 3);
    run_for(&E.clock, US(3));
    ck_assert(E.host.level);
    env_close();
}
END_TEST

/* ---- per-word vs raw payload DMA ------------------------------------------------------ */

static void traffic(bool per_word, uint8_t *frames, uint32_t *lens, uint8_t *rx, uint64_t *words)
{
    static uint8_t f[3 * 3052];
    env_up("e1000-82544", NULL, 16, 16);
    nic_set_dma_per_word(E.n, per_word);
    wr(RCTL, rd(RCTL) | E1000_RCTL_LPE);
    uint64_t w0 = E.host.word_ops;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t len = 61 + 997 * i;
        make_frame(f, len, PEER, i);
        memcpy(fake_ptr(&E.host, TXBUF(2 * i) + 1 + i, len), f, len); /* odd alignments */
        tx_desc(i, TXBUF(2 * i) + 1 + i, len | E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS, 0);
        make_frame(f, 3 * len, MYMAC, 10 + i);
        fake_wire_deliver(&E.wire, f, 3 * len);
    }
    wr(TDT, 4);
    /* Per-word, the bus is busy ~0.9 ms (~25 KB in 4-byte words of 150 ns),
     * shared by the Tx and Rx engines. */
    run_for(&E.clock, US(1500));
    ck_assert_uint_eq(E.wire.nframes, 4);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 4);
    for (unsigned i = 0; i < 4; i++) {
        lens[i] = E.wire.lens[i];
        memcpy(frames + 9000 * i, E.wire.frames[i], lens[i]);
    }
    for (unsigned i = 0; i < 16; i++)
        memcpy(rx + 2048 * i, rx_buf(i), 2048);
    *words = E.host.word_ops - w0;
    env_close();
}

START_TEST(per_word_vs_raw_identical)
{
    static uint8_t fr[2][4 * 9000], rxb[2][16 * 2048];
    uint32_t lens[2][4];
    uint64_t words[2];
    traffic(false, fr[0], lens[0], rxb[0], &words[0]);
    traffic(true, fr[1], lens[1], rxb[1], &words[1]);
    ck_assert_mem_eq(lens[0], lens[1], sizeof lens[0]);
    ck_assert_mem_eq(fr[0], fr[1], sizeof fr[0]);
    ck_assert_mem_eq(rxb[0], rxb[1], sizeof rxb[0]);
    /* Same bytes; per-word moves each payload word as its own DMA. */
    ck_assert_uint_ge(words[1], words[0] + (61 * 4 + 997 * 6 + 3 * (61 * 4 + 997 * 6)) / 4);
}
END_TEST

/* ---- the built-in peers ----------------------------------------------------------------- */

START_TEST(gen_and_echo_peers)
{
    /* gen addresses the station (RAR0) once the link is up. */
    env_up("e1000-82544", "gen:size=1000,rate=100000,count=30,start=5ms", 8, 16);
    unsigned got = 0, next = 0;
    for (int spin = 0; spin < 500 && got < 30; spin++) {
        run_for(&E.clock, US(20));
        while (rx_w3(next) & E1000_RXD_DD) {
            ck_assert_uint_eq(rx_w2(next) & 0xffff, 1004);
            ck_assert_mem_eq(rx_buf(next), MYMAC, 6);
            rx_desc(next, win(RXBUF(next)));
            wr(RDT, next);
            next = (next + 1) % 16;
            got++;
        }
    }
    ck_assert_uint_eq(got, 30);
    ck_assert_uint_eq(E.n->port->stats.rx_frames, 30);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_FIFO], 0);
    env_close();
    /* echo answers an ARP request. */
    env_up("e1000-82543", "echo", 8, 8);
    uint8_t arp[FAKE_ARP_LEN];
    fake_arp_request(arp, MYMAC);
    tx_legacy(0, 8, arp, sizeof arp, E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS);
    wr(TDT, 1);
    run_for(&E.clock, US(200));
    ck_assert_uint_eq(E.n->cnt.tx_frames, 1);
    ck_assert_uint_eq(E.n->cnt.rx_frames, 1);
    const uint8_t *b = rx_buf(0);
    ck_assert_mem_eq(b, MYMAC, 6);
    ck_assert_uint_eq(b[21], 2); /* ARP reply */
    env_close();
}
END_TEST


int main(void)
{
    return check_main("e1000-offload", "offload", NULL, NULL, 0, tx_checksum_offload,
                      tso_segments_frame_by_frame, rx_checksum_status, rx_jumbo_multi_buffer,
                      rdtr_relative_timer, tidv_relative_timer, per_word_vs_raw_identical,
                      gen_and_echo_peers);
}
