/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the shared NIC parts: coalescer, MAC filter, link and MII
 * PHY, EEPROM and Microwire, ring walkers, FIFO, DMA helpers.  A Hamachi
 * instance serves as the carrier NIC (clock, events, PCI function). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "dev/nic/nic.h"
#include "dev/nic/nic_coalesce.h"
#include "dev/nic/nic_eeprom.h"
#include "dev/nic/nic_mac.h"
#include "dev/nic/nic_phy.h"
#include "dev/nic/nic_ring.h"
#include "nic_fake.h"
#include "../../check_run.h"

static nic_rig E; /* a Hamachi without a wire: the engine's parts */

static void setup(void)
{
    xerr err;
    nic_opts o = {.net = "none"};
    ck_assert_msg(nic_rig_open(&E, "hamachi", "nic0", &o, 1u << 20, false, &err), "%s", err.msg);
}

static void teardown(void) { nic_rig_close(&E); }

/* ---- coalescer ---------------------------------------------------------------- */

static unsigned fired;
static uint64_t fired_at;
static void on_fire(nic *n, int ring)
{
    (void)n;
    (void)ring;
    fired++;
    fired_at = E.clock.now;
}

START_TEST(coal_immediate_count_gap_latency)
{
    nic_coal c;
    fired = 0;
    nic_coal_init(&c, E.n, NIC_RING_RX, on_fire);
    nic_coal_config(&c, 0, 0, 0, 0);
    nic_coal_event(&c);
    ck_assert_uint_eq(fired, 1);
    ck_assert_uint_eq(c.fires[NIC_COAL_IMMEDIATE], 1);
    /* count 3 */
    nic_coal_config(&c, 3, 0, 0, 0);
    nic_coal_event(&c);
    nic_coal_event(&c);
    run_for(&E.clock, 10000);
    ck_assert_uint_eq(fired, 1);
    nic_coal_event(&c);
    ck_assert_uint_eq(fired, 2);
    /* gap 100 after the last completion */
    nic_coal_config(&c, 0, 100, 0, 0);
    nic_coal_event(&c);
    run_for(&E.clock, 60);
    nic_coal_event(&c);
    uint64_t last = E.clock.now;
    run_for(&E.clock, 60);
    ck_assert_uint_eq(fired, 2);
    run_for(&E.clock, 60);
    ck_assert_uint_eq(fired, 3);
    ck_assert_uint_eq(fired_at, last + 100);
    /* latency 150 after the first, however busy */
    nic_coal_config(&c, 0, 100, 150, 0);
    uint64_t first = E.clock.now;
    for (int k = 0; k < 5; k++) {
        nic_coal_event(&c);
        run_for(&E.clock, 50);
    }
    ck_assert_uint_eq(fired, 4);
    ck_assert_uint_eq(fired_at, first + 150);
    /* a parameter change re-evaluates pending work */
    run_for(&E.clock, 1000);
    unsigned before = fired;
    nic_coal_config(&c, 5, 0, 0, 0);
    nic_coal_event(&c);
    nic_coal_event(&c);
    ck_assert_uint_eq(fired, before);
    nic_coal_config(&c, 2, 0, 0, 0);
    ck_assert_uint_eq(fired, before + 1);
    nic_coal_flush(&c);
    ck_assert_uint_eq(fired, before + 1); /* nothing pending: no interrupt */
    nic_coal_event(&c);
    nic_coal_flush(&c);
    ck_assert_uint_eq(fired, before + 2);
    ck_assert_uint_eq(c.fires[NIC_COAL_FORCED], 1);
    nic_coal_fini(&c);
}
END_TEST

START_TEST(coal_min_interval_defers)
{
    nic_coal c;
    fired = 0;
    nic_coal_init(&c, E.n, NIC_RING_TX, on_fire);
    nic_coal_config(&c, 0, 0, 0, 100);
    uint64_t t0 = E.clock.now;
    nic_coal_event(&c);
    ck_assert_uint_eq(fired, 1);
    run_for(&E.clock, 10);
    nic_coal_event(&c);
    run_for(&E.clock, 10);
    nic_coal_event(&c);
    ck_assert_uint_eq(fired, 1);
    ck_assert_uint_eq(c.pending, 2);
    run_for(&E.clock, 200);
    ck_assert_uint_eq(fired, 2);
    ck_assert_uint_eq(fired_at, t0 + 100);
    ck_assert_uint_eq(c.pending, 0);
    /* reset forgets pending work and timers */
    nic_coal_config(&c, 5, 0, 500, 0);
    nic_coal_event(&c);
    ck_assert_uint_eq(c.pending, 1);
    nic_coal_reset(&c);
    run_for(&E.clock, 1000);
    ck_assert_uint_eq(fired, 2);
    nic_coal_fini(&c);
}
END_TEST

/* ---- MAC filter ------------------------------------------------------------------ */

START_TEST(mac_filter_and_crc)
{
    ck_assert_uint_eq(nic_crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
    nic_mac_filter f;
    memset(&f, 0, sizeof f);
    nic_mac_filter_reset(&f);
    static const uint8_t st[6] = {2, 0, 0, 0, 0, 1}, st2[6] = {2, 0, 0, 0, 0, 2};
    static const uint8_t mc[6] = {1, 0, 0x5e, 1, 2, 3},
                         bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    ck_assert_int_eq(nic_mac_match(&f, st), NIC_MATCH_NONE);
    memcpy(f.station[3], st2, 6);
    f.station_valid[3] = true;
    f.unicast = true;
    ck_assert_int_eq(nic_mac_match(&f, st2), NIC_MATCH_STATION);
    ck_assert_int_eq(nic_mac_match(&f, st), NIC_MATCH_NONE);
    ck_assert_int_eq(nic_mac_match(&f, bc), NIC_MATCH_NONE);
    f.broadcast = true;
    ck_assert_int_eq(nic_mac_match(&f, bc), NIC_MATCH_BROADCAST);
    /* 64-bit hash on the top CRC bits */
    f.hash = true;
    f.hash_bits = 64;
    ck_assert_int_eq(nic_mac_match(&f, mc), NIC_MATCH_NONE);
    unsigned bit = nic_crc32(mc, 6) >> 26;
    f.hash_table[bit / 32] |= 1u << (bit % 32);
    ck_assert_int_eq(nic_mac_match(&f, mc), NIC_MATCH_MULTICAST);
    f.hash = false;
    f.all_multi = true;
    ck_assert_int_eq(nic_mac_match(&f, mc), NIC_MATCH_MULTICAST);
    f.promisc = true;
    ck_assert_int_eq(nic_mac_match(&f, st), NIC_MATCH_PROMISC);
}
END_TEST

/* ---- link and MII ------------------------------------------------------------------ */

static unsigned link_changes;
static void on_link(nic *n)
{
    (void)n;
    link_changes++;
}

START_TEST(link_autoneg_and_mii)
{
    nic_link l;
    nic_mii m;
    link_changes = 0;
    nic_link_init(&l, E.n, 1000, on_link);
    nic_mii_init(&m, &l, 1, 0x01410c20);
    nic_link_reset(&l);
    ck_assert(!l.up);
    nic_link_set_carrier(&l, true);
    ck_assert(l.up);
    ck_assert_uint_eq(link_changes, 1);
    nic_mii_update(&m);
    ck_assert_uint_eq(nic_mii_read(&m, MII_PHYID1, false), 0x0141);
    ck_assert_uint_eq(nic_mii_read(&m, MII_PHYID2, false), 0x0c20);
    /* BMSR link status latched low: down once, then current. */
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMSR, false) & BMSR_LSTATUS, 0);
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMSR, false) & BMSR_LSTATUS, BMSR_LSTATUS);
    /* Restart negotiation through BMCR: down now, up with AN complete later. */
    nic_mii_write(&m, MII_BMCR, BMCR_ANENABLE | BMCR_ANRESTART);
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMCR, false) & BMCR_ANRESTART, 0);
    ck_assert(!l.up && l.an_busy);
    run_for(&E.clock, 999);
    ck_assert(!l.up);
    run_for(&E.clock, 2);
    ck_assert(l.up && l.an_done);
    nic_mii_update(&m);
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMSR, true) & BMSR_ANEGCOMPLETE, BMSR_ANEGCOMPLETE);
    ck_assert_uint_eq(nic_mii_read(&m, MII_ANLPAR, false), 0x01e1 | 0x4000);
    ck_assert_uint_eq(nic_mii_read(&m, MII_STAT1000, false) & 0x0c00, 0x0c00);
    ck_assert_uint_eq(link_changes, 3);
    /* Cable pulled. */
    nic_link_set_carrier(&l, false);
    nic_mii_update(&m);
    ck_assert(!l.up);
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMSR, false) & BMSR_LSTATUS, 0);
    ck_assert_uint_eq(nic_mii_read(&m, MII_ANLPAR, false), 0);
    /* BMCR reset restores the defaults and self-clears. */
    nic_mii_write(&m, MII_ANAR, 0x0001);
    nic_mii_write(&m, MII_BMCR, BMCR_RESET);
    ck_assert_uint_eq(nic_mii_read(&m, MII_ANAR, false), 0x01e1);
    ck_assert_uint_eq(nic_mii_read(&m, MII_BMCR, false) & BMCR_RESET, 0);
    nic_link_fini(&l);
    E.n->link = NULL;
}
END_TEST

/* ---- EEPROM ------------------------------------------------------------------------ */

static uint16_t uw_read_word(nic_uwire *u, unsigned addr)
{
    unsigned cmd = (1u << 8) | (2u << 6) | addr; /* start, opcode 10, 6-bit address */
    nic_uwire_pins(u, true, false, false);
    for (int b = 8; b >= 0; b--) {
        bool din = (cmd >> b) & 1;
        nic_uwire_pins(u, true, false, din);
        nic_uwire_pins(u, true, true, din);
        nic_uwire_pins(u, true, false, din);
    }
    ck_assert(!nic_uwire_dout(u)); /* the dummy zero */
    uint16_t v = 0;
    for (int b = 0; b < 16; b++) {
        nic_uwire_pins(u, true, true, false);
        v = (uint16_t)(v << 1 | nic_uwire_dout(u));
        nic_uwire_pins(u, true, false, false);
    }
    nic_uwire_pins(u, false, false, false);
    return v;
}

START_TEST(eeprom_engine_checksum_microwire)
{
    nic_eeprom e;
    nic_eeprom_init(&e, E.n, 100, 0xff, 50);
    ck_assert_uint_eq(e.size, 128);
    static const uint8_t mac[6] = {0x00, 0x02, 0xb3, 0x01, 0x02, 0x03};
    nic_eeprom_put_mac(&e, 0, mac);
    ck_assert_uint_eq(nic_eeprom_word(&e, 0), 0x0200);
    ck_assert_uint_eq(nic_eeprom_get(&e, 128 + 2), 0xb3); /* addresses wrap */
    nic_eeprom_start_read(&e, 5);
    ck_assert(e.busy);
    run_for(&E.clock, 49);
    ck_assert(e.busy);
    run_for(&E.clock, 1);
    ck_assert(!e.busy);
    ck_assert_uint_eq(e.result, 0x03);
    nic_eeprom_fix_checksum(&e, 0x3f, 0xbaba);
    uint16_t sum = 0;
    for (unsigned i = 0; i <= 0x3f; i++)
        sum = (uint16_t)(sum + nic_eeprom_word(&e, i));
    ck_assert_uint_eq(sum, 0xbaba);
    nic_uwire u;
    nic_uwire_init(&u, &e, 6);
    ck_assert_uint_eq(uw_read_word(&u, 0), 0x0200);
    ck_assert_uint_eq(uw_read_word(&u, 1), 0x01b3);
    ck_assert_uint_eq(uw_read_word(&u, 2), 0x0302);
    nic_eeprom_fini(&e);
}
END_TEST

/* ---- rings --------------------------------------------------------------------------- */

/* A 16-byte head/tail descriptor: addr (2 words), length, status (bit 0 done). */
static void ht_decode(nic_ring *r, nic_desc *d)
{
    (void)r;
    d->buf = d->w[0] | (uint64_t)d->w[1] << 32;
    d->len = d->w[2] & 0xffff;
    d->flags = d->w[3];
    d->owned = !(d->w[3] & 1);
    d->eop = true;
}
static const nic_bitname ht_flags[] = {{1, "DD"}, {0, NULL}};
static const nic_ring_ops ht_ops = {ht_decode, ht_flags, 3, NULL, NULL};

START_TEST(ring_headtail_writeback_order_and_stall)
{
    nic_ring r;
    nic_ring_init(&r, E.n, NIC_RING_RX_RETURN, NIC_RING_HEADTAIL, false, 16, &ht_ops, NULL);
    nic_ring_set_base(&r, FAKE_LO + 0x1000);
    nic_ring_set_size(&r, 8);
    ck_assert_uint_eq(nic_ring_addr(&r, 9), FAKE_LO + 0x1010);
    r.host = 5;
    ck_assert_uint_eq(nic_ring_pending(&r), 5);
    ring_state s;
    nic_ring_stall(&r, &s);
    ck_assert(s.posted && s.idle && ring_stalled(&s));
    nic_desc d;
    fake_w32(&E.host, FAKE_LO + 0x1000, 0x1234);
    fake_w32(&E.host, FAKE_LO + 0x1008, 64);
    ck_assert_int_eq(nic_ring_fetch(&r, &d), 0);
    ck_assert_uint_eq(d.buf, 0x1234);
    ck_assert_uint_eq(d.len, 64);
    ck_assert(d.owned);
    E.host.nwlog = 0;
    d.w[2] = 60;
    d.w[3] = 1;
    ck_assert_int_eq(nic_ring_writeback(&r, &d, 0xf), 0);
    ck_assert_uint_eq(E.host.nwlog, 4);
    ck_assert_uint_eq(E.host.wlog[3], FAKE_LO + 0x1000 + 12); /* status word last */
    ck_assert_uint_eq(E.host.wlog[0], FAKE_LO + 0x1000);
    nic_ring_advance(&r, false);
    ck_assert_uint_eq(nic_ring_pending(&r), 4);
    nic_ring_stall(&r, &s);
    ck_assert_uint_eq(s.unreclaimed, 1);
    for (int k = 0; k < 7; k++)
        nic_ring_advance(&r, false);
    ck_assert_uint_eq(r.index, 0);
    ck_assert_uint_eq(r.wraps, 1);
    nic_ring_set_running(&r, true);
    nic_ring_stall(&r, &s);
    ck_assert(!ring_stalled(&s));
    strbuf b;
    sb_init(&b);
    nic_ring_show(&r, 0, NULL, &b);
    ck_assert(strstr(b.s, "8 entries, host index 5") != NULL);
    ck_assert(strstr(b.s, "DD") != NULL);
    sb_free(&b);
    /* An unreadable ring: the fetch reports the abort. */
    nic_ring_set_base(&r, 0x10);
    ck_assert_int_eq(nic_ring_fetch(&r, &d), PCI_DMA_ABORT);
}
END_TEST

/* The line of entry i in a ring view, or NULL. */
static const char *entry_line(const char *text, unsigned i)
{
    char key[32];
    snprintf(key, sizeof key, "%4u 0x", i);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strlen(l) > 3 && !strncmp(l + 3, key, strlen(key)))
            return l;
    return NULL;
}

/* A window of a long ring follows the device's position (a few entries
 * before it) or starts where the viewer put it, within the ring; the marks
 * compare with the whole ring as the viewer last kept it, whichever part
 * it listed then; another viewer's memo is its own. */
START_TEST(ring_view_window_and_marks)
{
    nic_ring r;
    nic_ring_init(&r, E.n, NIC_RING_RX_RETURN, NIC_RING_HEADTAIL, false, 16, &ht_ops, NULL);
    nic_ring_set_base(&r, FAKE_LO + 0x2000);
    nic_ring_set_size(&r, 64);
    r.index = 40;
    r.cur = nic_ring_addr(&r, 40);
    r.host = 44;
    strbuf b;
    sb_init(&b);
    view_ctx w = {.rows = 8, .follow = true};
    nic_ring_show(&r, 0, &w, &b);
    ck_assert_uint_eq(w.total, 64);
    ck_assert_int_eq(w.first, 38);
    ck_assert_ptr_null(entry_line(b.s, 37));
    ck_assert_ptr_nonnull(entry_line(b.s, 38));
    ck_assert(!strncmp(entry_line(b.s, 40), " > ", 3));
    ck_assert(!strncmp(entry_line(b.s, 44), "  T", 3));
    ck_assert_ptr_nonnull(entry_line(b.s, 45));
    ck_assert_ptr_null(entry_line(b.s, 46));
    /* Near the end the window stops at the last entry. */
    r.index = 62;
    r.cur = nic_ring_addr(&r, 62);
    sb_reset(&b);
    nic_ring_show(&r, 0, &w, &b);
    ck_assert_int_eq(w.first, 56);
    ck_assert(!strncmp(entry_line(b.s, 62), " > ", 3));
    ck_assert_ptr_nonnull(entry_line(b.s, 63));
    /* Put by the viewer: from there, kept within the ring. */
    view_ctx at = {.rows = 4, .first = 10};
    sb_reset(&b);
    nic_ring_show(&r, 0, &at, &b);
    ck_assert_int_eq(at.first, 10);
    ck_assert_ptr_nonnull(entry_line(b.s, 13));
    ck_assert_ptr_null(entry_line(b.s, 14));
    at.first = 1000;
    sb_reset(&b);
    nic_ring_show(&r, 0, &at, &b);
    ck_assert_int_eq(at.first, 60);

    /* Marks: a first look at 2 entries keeps the whole ring. */
    view_memo cmd = {0}, pane = {0};
    view_ctx c = {.memo = &cmd};
    sb_reset(&b);
    nic_ring_show(&r, 2, &c, &b);
    ck_assert_ptr_null(entry_line(b.s, 2));
    ck_assert_ptr_null(strstr(b.s, "\n*"));
    view_ctx pv = {.memo = &pane, .rows = 4, .first = 48};
    sb_reset(&b);
    nic_ring_show(&r, 0, &pv, &b);
    fake_w32(&E.host, nic_ring_addr(&r, 50) + 8, 1514);
    fake_w32(&E.host, nic_ring_addr(&r, 1) + 8, 60);
    /* Entry 50, never listed to this viewer, changed: marked. */
    sb_reset(&b);
    nic_ring_show(&r, 0, &c, &b);
    ck_assert(entry_line(b.s, 50)[0] == '*');
    ck_assert(entry_line(b.s, 1)[0] == '*');
    ck_assert(entry_line(b.s, 49)[0] == ' ');
    /* Looking again changes nothing: the reference stays. */
    sb_reset(&b);
    nic_ring_show(&r, 0, &c, &b);
    ck_assert(entry_line(b.s, 50)[0] == '*');
    /* The other viewer's marks are its own, and still there. */
    sb_reset(&b);
    nic_ring_show(&r, 0, &pv, &b);
    ck_assert(entry_line(b.s, 50)[0] == '*');
    ck_assert_ptr_null(entry_line(b.s, 1));
    /* The guest resumes: the memos take the state of now. */
    c.update = true;
    sb_reset(&b);
    nic_ring_show(&r, 1, &c, &b);
    c.update = false;
    sb_reset(&b);
    nic_ring_show(&r, 0, &c, &b);
    ck_assert_ptr_null(strstr(b.s, "\n*"));
    /* A new base is a new ring: nothing to compare with. */
    nic_ring_set_base(&r, FAKE_LO + 0x4000);
    fake_w32(&E.host, FAKE_LO + 0x4000 + 8, 99);
    sb_reset(&b);
    nic_ring_show(&r, 0, &pv, &b);
    ck_assert_ptr_null(strstr(b.s, "\n*"));
    view_memo_free(&cmd);
    view_memo_free(&pane);
    sb_free(&b);
}
END_TEST

/* ---- DMA helpers, FIFO, frame engine --------------------------------------------------- */

START_TEST(payload_modes_and_alignment)
{
    uint8_t src[11] = "abcdefghij", dst[11];
    nic_set_dma_per_word(E.n, true);
    uint64_t w0 = E.host.word_ops;
    ck_assert_int_eq(nic_dma_payload_write(E.n, FAKE_LO + 0x101, src, 11), 0);
    ck_assert_uint_eq(E.host.word_ops - w0, 4); /* 1 + 2 + 4 + 4 bytes */
    ck_assert_mem_eq(fake_ptr(&E.host, FAKE_LO + 0x101, 11), src, 11);
    ck_assert_int_eq(nic_dma_payload_read(E.n, FAKE_LO + 0x101, dst, 11), 0);
    ck_assert_mem_eq(dst, src, 11);
    ck_assert_uint_eq(E.host.bulk_ops, 0);
    nic_set_dma_per_word(E.n, false);
    ck_assert_int_eq(nic_dma_payload_read(E.n, FAKE_LO + 0x101, dst, 11), 0);
    ck_assert_uint_eq(E.host.bulk_ops, 1);
    ck_assert_uint_eq(E.n->cnt.dma_bulk_bytes, 11);
    /* Status bytes at an odd address: byte words, then a 32-bit word. */
    w0 = E.host.word_ops;
    ck_assert_int_eq(nic_dma_write_status(E.n, FAKE_LO + 0x203, src, 5), 0);
    ck_assert_uint_eq(E.host.word_ops - w0, 2);
    ck_assert_mem_eq(fake_ptr(&E.host, FAKE_LO + 0x203, 5), src, 5);
    ck_assert_int_eq(nic_dma_payload_read(E.n, 0x10, dst, 4), PCI_DMA_ABORT);
    ck_assert_uint_eq(E.n->cnt.dma_errors, 1);
}
END_TEST

START_TEST(fifo_capacity_and_flush)
{
    static uint8_t f[1500];
    unsigned in = 0;
    while (nic_fifo_push(E.n, f, sizeof f, 7))
        in++;
    ck_assert_uint_eq(in, NIC_DEFAULT_FIFO / 1500);
    uint32_t len;
    int tag;
    ck_assert(nic_fifo_head(E.n, &len, &tag) != NULL);
    ck_assert_uint_eq(len, 1500);
    ck_assert_int_eq(tag, 7);
    nic_fifo_pop(E.n);
    ck_assert(nic_fifo_push(E.n, f, sizeof f, 0));
    nic_fifo_flush(E.n, NIC_DROP_RESET);
    ck_assert_uint_eq(E.n->cnt.rx_drops[NIC_DROP_RESET], in);
    ck_assert(nic_fifo_head(E.n, &len, NULL) == NULL);
}
END_TEST

/* The shell's custom state rows: the FIFO (frames of varying length, with
 * their tags), the Tx frame being gathered and dma_next/dma_last are saved
 * from one NIC and loaded into another as copies, pointers mapped. */
START_TEST(shell_state_round_trip)
{
    xerr err;
    nic_opts o = {.net = "none"};
    pci_func *f2 = nic_create("hamachi", "nic0", &o, &E.clock, &E.eb, &err);
    ck_assert_msg(f2 != NULL, "%s", err.msg);
    fake_host_plug(&E.host, f2); /* the slot and initiator, as the first */
    nic *b = nic_from_pci(f2);
    nic *a = E.n;
    ck_assert(nic_fifo_push(a, (const uint8_t *)"dropped", 7, 1));
    ck_assert(nic_fifo_push(a, (const uint8_t *)"FIRST-FRAME", 11, 2));
    ck_assert(nic_fifo_push(a, (const uint8_t *)"2nd", 3, 3));
    nic_fifo_pop(a); /* the head is no longer slot 0 */
    ck_assert(nic_fifo_push(b, (const uint8_t *)"stale", 5, 9));
    nic_tx_put(a, "gathered", 8, NIC_RING_TX, 0);
    a->dma_next = &a->rx_eng.t;
    a->dma_last = &a->tx_eng.t;
    strbuf img, why;
    sb_init(&img);
    sb_init(&why);
    dev_state_save(a->dev, &img);
    ck_assert_int_eq(dev_state_load(b->dev, img.s, img.len, &err), 0);
    uint32_t len;
    int tag;
    const uint8_t *h = nic_fifo_head(b, &len, &tag);
    ck_assert(h && len == 11 && tag == 2 && memcmp(h, "FIRST-FRAME", 11) == 0);
    ck_assert_ptr_ne(h, nic_fifo_head(a, &len, NULL));
    ck_assert_uint_eq(b->fifo.count, 2);
    ck_assert_uint_eq(b->fifo.bytes, 14);
    ck_assert_uint_eq(b->txlen, 8);
    ck_assert(memcmp(b->txbuf, "gathered", 8) == 0);
    ck_assert_ptr_eq(b->dma_next, &b->rx_eng.t);
    ck_assert_ptr_eq(b->dma_last, &b->tx_eng.t);
    ck_assert_uint_eq(dev_state_hash(a->dev), dev_state_hash(b->dev));
    ck_assert_msg(dev_state_diff(a->dev, b->dev, &why) == 0, "%s", why.s);
    nic_fifo_pop(b);
    ck_assert_int_eq(dev_state_diff(a->dev, b->dev, &why), -1);
    ck_assert_msg(strstr(why.s, "n.fifo"), "%s", why.s);
    /* A FIFO image with too many frames is refused, b left as it was. */
    uint64_t before = dev_state_hash(b->dev);
    uint8_t *bad = xmalloc(img.len);
    memcpy(bad, img.s, img.len);
    uint8_t *first = memmem(bad, img.len, "FIRST-FRAME", 11);
    ck_assert(first);
    uint8_t *count = first - 8 - 4; /* u32 count, then {u32 len, u32 tag, bytes} */
    ck_assert_uint_eq(load_le(count, 4), 2);
    store_le(count, 4, NIC_FIFO_FRAMES + 1);
    ck_assert_int_eq(dev_state_load(b->dev, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "n.fifo") && strstr(err.msg, "at most"), "%s", err.msg);
    /* A frame longer than its image. */
    store_le(count, 4, 2);
    store_le(first - 8, 4, 5000);
    ck_assert_int_eq(dev_state_load(b->dev, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "too long or truncated"), "%s", err.msg);
    ck_assert_uint_eq(dev_state_hash(b->dev), before);
    free(bad);
    sb_free(&img);
    sb_free(&why);
    nic_destroy(f2);
}
END_TEST

START_TEST(tx_no_link_and_padding)
{
    static const uint8_t frame[20] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 8, 6};
    memcpy(fake_ptr(&E.host, FAKE_LO, 20), frame, 20);
    /* No cable: the frame is counted as dropped for lack of a link. */
    ck_assert_int_eq(nic_tx_gather(E.n, FAKE_LO, 20, NIC_RING_TX, 0), 0);
    ck_assert(!nic_tx_finish(E.n, NIC_RING_TX, 0));
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_NO_LINK], 1);
    fake_wire w;
    fake_wire_attach(&w, E.n, &E.clock);
    ck_assert_int_eq(nic_tx_gather(E.n, FAKE_LO, 8, NIC_RING_TX, 0), 0);
    ck_assert_int_eq(nic_tx_gather(E.n, FAKE_LO + 8, 12, NIC_RING_TX, 1), 0);
    ck_assert(nic_tx_finish(E.n, NIC_RING_TX, 1));
    ck_assert_uint_eq(w.nframes, 1);
    ck_assert_uint_eq(w.lens[0], 60);
    ck_assert_mem_eq(w.frames[0], frame, 20);
    ck_assert_uint_eq(w.frames[0][59], 0);
    /* Longer than any backend carries: consumed, then dropped as too long. */
    for (int k = 0; k < 20; k++)
        ck_assert_int_eq(nic_tx_gather(E.n, FAKE_LO, 1000, NIC_RING_TX, k), 0);
    ck_assert(!nic_tx_finish(E.n, NIC_RING_TX, 19));
    ck_assert_uint_eq(E.n->cnt.tx_drops[NIC_DROP_TOO_LONG], 1);
    nic_attach_port(E.n, NULL);
    fake_wire_free(&w);
}
END_TEST

START_TEST(factory_and_names)
{
    ck_assert(nic_model_find("hamachi") == &hamachi_models[0]);
    ck_assert(nic_model_find("tulip") == NULL);
    ck_assert(strstr(nic_model_list(), "hamachi") != NULL);
    ck_assert(nic_model_find("hamach") == NULL);
    xerr err;
    nic_opts o = {.net = "none", .pcap = "x.pcap"};
    ck_assert(nic_create("hamachi", "h9", &o, &E.clock, &E.eb, &err) == NULL);
    ck_assert(strstr(err.msg, "--pcap") != NULL);
    /* Default MACs differ per slot and are what nic_default_mac() says. */
    nic_opts a = {.net = "none", .slot = 3}, b = {.net = "none", .slot = 4};
    pci_func *fa = nic_create("hamachi", "ha", &a, &E.clock, &E.eb, &err);
    pci_func *fb = nic_create("hamachi", "hb", &b, &E.clock, &E.eb, &err);
    ck_assert(fa && fb);
    ck_assert(memcmp(nic_from_pci(fa)->mac, nic_from_pci(fb)->mac, 6) != 0);
    ck_assert_uint_eq(nic_from_pci(fa)->mac[0] & 3, 2); /* locally administered unicast */
    ck_assert(!nic_from_pci(fa)->mac_given);
    uint8_t want[6];
    nic_default_mac("hamachi", 3, "none", NULL, want);
    ck_assert_mem_eq(nic_from_pci(fa)->mac, want, 6);
    nic_destroy(fa);
    nic_destroy(fb);
    /* A given address is used as it is; a multicast one is refused. */
    static const uint8_t given[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
    static const uint8_t mcast[6] = {0x03, 0x11, 0x22, 0x33, 0x44, 0x55};
    nic_opts g = {.net = "none", .mac = given, .slot = 3};
    pci_func *fg = nic_create("e1000", "eg", &g, &E.clock, &E.eb, &err);
    ck_assert(fg);
    ck_assert_mem_eq(nic_from_pci(fg)->mac, given, 6);
    ck_assert(nic_from_pci(fg)->mac_given);
    nic_destroy(fg);
    g.mac = mcast;
    ck_assert(nic_create("tigon2", "tg", &g, &E.clock, &E.eb, &err) == NULL);
    ck_assert_msg(strstr(err.msg, "03:11:22:33:44:55 is a multicast address") != NULL, "%s",
                  err.msg);
    ck_assert(nic_of_device(NULL) == NULL);
}
END_TEST

START_TEST(default_mac_and_station_checks)
{
    uint8_t m1[6], m2[6];
    /* Reproducible: the same configuration, the same address. */
    nic_default_mac("e1000-82544", 3, "vde:/tmp/sw", "xbow.ip=10.0.2.10/24", m1);
    nic_default_mac("e1000-82544", 3, "vde:/tmp/sw", "xbow.ip=10.0.2.10/24", m2);
    ck_assert_mem_eq(m1, m2, 6);
    ck_assert_uint_eq(m1[0], 0x02);
    ck_assert_uint_eq(m1[1], 0x58);
    ck_assert_uint_eq(m1[2], 0x42);
    ck_assert(nic_station_problem(m1) == NULL);
    /* Any difference in model, slot, backend or command line changes it. */
    nic_default_mac("e1000-82544", 3, "vde:/tmp/sw", "xbow.ip=10.0.2.20/24", m2);
    ck_assert(memcmp(m1, m2, 6) != 0);
    nic_default_mac("e1000-82544", 4, "vde:/tmp/sw", "xbow.ip=10.0.2.10/24", m2);
    ck_assert(memcmp(m1, m2, 6) != 0);
    nic_default_mac("e1000-82544", 3, "vde:/tmp/sw2", "xbow.ip=10.0.2.10/24", m2);
    ck_assert(memcmp(m1, m2, 6) != 0);
    nic_default_mac("hamachi", 3, "vde:/tmp/sw", "xbow.ip=10.0.2.10/24", m2);
    ck_assert(memcmp(m1, m2, 6) != 0);
    /* Field boundaries count: ("ab", "c") is not ("a", "bc"). */
    nic_default_mac("hamachi", 3, "ab", "c", m1);
    nic_default_mac("hamachi", 3, "a", "bc", m2);
    ck_assert(memcmp(m1, m2, 6) != 0);
    /* No spec is the default backend, sink; no seed is an empty one. */
    nic_default_mac("hamachi", 5, NULL, NULL, m1);
    nic_default_mac("hamachi", 5, "sink", "", m2);
    ck_assert_mem_eq(m1, m2, 6);
    /* 100 slots x specs: all distinct (24 bits of hash: a collision here
     * would be a broken hash, not bad luck). */
    static uint8_t seen[100][6];
    for (unsigned i = 0; i < 100; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "socket:udp:%u:127.0.0.1:%u", 5000 + i, 6000 + i);
        nic_default_mac("e1000-82544", 3, spec, NULL, seen[i]);
        for (unsigned j = 0; j < i; j++)
            ck_assert(memcmp(seen[i], seen[j], 6) != 0);
    }
    static const uint8_t zero[6], bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
                                  mcast[6] = {0x01, 0x00, 0x5e, 0x01, 0x02, 0x03},
                                  universal[6] = {0x00, 0x60, 0xcf, 0x20, 0x12, 0x34};
    ck_assert_str_eq(nic_station_problem(zero), "the all-zero address");
    ck_assert_str_eq(nic_station_problem(bcast), "the broadcast address");
    ck_assert(strstr(nic_station_problem(mcast), "multicast") != NULL);
    ck_assert(nic_station_problem(universal) == NULL); /* a real card's address is fine */
}
END_TEST

/* nic_destroy takes every timer the model's state declares off the clock
 * (dev_state_stop_timers), with no timer_del of the model's own: a model
 * freed with a timer armed leaves nothing on the clock behind.  The reset
 * arms timers only the declaration reaches (Hamachi's PCIClkMeas, the
 * Tigon's boot ROM). */
START_TEST(destroy_stops_declared_timers)
{
    static const char *const models[] = {"hamachi", "e1000-82543", "e1000-82544", "tigon2",
                                         "ioc3-eth"};
    for (unsigned i = 0; i < ARRAY_SIZE(models); i++) {
        sched s;
        sched_init(&s, 0);
        xerr err;
        nic_opts o = {.net = "none"};
        pci_func *f = nic_create(models[i], "t0", &o, &s, &E.eb, &err);
        ck_assert_msg(f, "%s: %s", models[i], err.msg);
        nic *n = nic_from_pci(f);
        /* A cable: the link negotiates (a declared timer of the link part);
         * then arm the Tx engine's step, a timer of the shell. */
        nic_link_set_carrier(n->link, true);
        nic_engine_kick(&n->tx_eng, 1000);
        ck_assert_msg(s.head != NULL, "%s: no timer armed", models[i]);
        nic_destroy(f);
        ck_assert_msg(s.head == NULL, "%s: %s left on the clock", models[i], s.head->name);
    }
}
END_TEST

int main(void)
{
    return check_main("nic", "nic", setup, teardown, 0, coal_immediate_count_gap_latency,
                      coal_min_interval_defers, mac_filter_and_crc, default_mac_and_station_checks,
                      link_autoneg_and_mii, eeprom_engine_checksum_microwire,
                      ring_headtail_writeback_order_and_stall, ring_view_window_and_marks,
                      payload_modes_and_alignment, fifo_capacity_and_flush, shell_state_round_trip,
                      tx_no_link_and_padding, factory_and_names, destroy_stops_declared_timers);
}
