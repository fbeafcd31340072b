/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The 1-wire bus and the DS2505, driven the way Linux does: sgi_w1's three
 * timing words through the Bridge NIC register, the w1 core's search, and
 * w1_ds250x's extended read with its CRC rules. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_fixture.h"
#include "dev/sgi/onewire.h"
#include "../../check_run.h"

/* ---- a tiny master following sgi_w1.c ------------------------------------ */

/* The virtual clock moves on by POLL_TICKS (half a microsecond) between two
 * reads of the register. */
#define POLL_TICKS 90
#define US(n) ((uint64_t)(n)*180) /* ticks at 180 MHz */

static unsigned polls;
static uint64_t slot_ticks; /* write to DONE, of the last slot */

static int mcr_cycle(fixture *fx, uint32_t word)
{
    uint64_t t0 = fx->clock.now;
    fx_setreg(fx, B_NIC, word);
    uint32_t v;
    for (;;) {
        v = fx_reg(fx, B_NIC);
        polls++;
        if (v & OW_MCR_DONE)
            break;
        ck_assert_uint_eq(v & OW_MCR_RD_DATA, 0); /* no data before DONE */
        ck_assert_uint_eq(v, word & OW_MCR_PACK(0x3ff, 0xff));
        fx->clock.now += POLL_TICKS;
    }
    slot_ticks = fx->clock.now - t0;
    return v & OW_MCR_RD_DATA;
}

static int m_reset(fixture *fx) { return mcr_cycle(fx, OW_MCR_PACK(520, 65)); }
static int m_bit(fixture *fx, int bit)
{
    return bit ? mcr_cycle(fx, OW_MCR_PACK(6, 13)) : mcr_cycle(fx, OW_MCR_PACK(80, 30));
}
static void m_write(fixture *fx, uint8_t b)
{
    for (int i = 0; i < 8; i++)
        m_bit(fx, (b >> i) & 1);
}
static uint8_t m_read(fixture *fx)
{
    uint8_t b = 0;
    for (int i = 0; i < 8; i++)
        b |= (uint8_t)(m_bit(fx, 1) << i);
    return b;
}

/* w1_ds2505_read_page after SKIP ROM or MATCH ROM; returns 0 when both CRCs
 * check (Linux's rule), and the redirection byte. */
static int read_page(fixture *fx, const uint8_t *rom, int page, uint8_t *data, uint8_t *redir)
{
    if (m_reset(fx) != 0)
        return -1;
    if (rom) {
        m_write(fx, 0x55);
        for (int i = 0; i < 8; i++)
            m_write(fx, rom[i]);
    } else {
        m_write(fx, 0xcc);
    }
    uint8_t buf[6] = {0xa5, (uint8_t)(page * 32), (uint8_t)((page * 32) >> 8)};
    for (int i = 0; i < 3; i++)
        m_write(fx, buf[i]);
    for (int i = 3; i < 6; i++)
        buf[i] = m_read(fx);
    *redir = buf[3];
    if (ow_crc16(0, buf, 6) != OW_CRC16_VALID)
        return -2;
    uint8_t crc[2];
    for (int i = 0; i < 32; i++)
        data[i] = m_read(fx);
    crc[0] = m_read(fx);
    crc[1] = m_read(fx);
    if (ow_crc16(ow_crc16(0, data, 32), crc, 2) != OW_CRC16_VALID)
        return -3;
    return 0;
}

/* Linux's bridge_get_partnum(). */
static void linux_partnum(const uint8_t prom[64], char *partnum)
{
    int j = 0;
    for (int i = 0; i < 19; i++)
        if (prom[i + 11] != ' ')
            partnum[j++] = (char)prom[i + 11];
    for (int i = 0; i < 6; i++)
        if (prom[i + 32] != ' ')
            partnum[j++] = (char)prom[i + 32];
    partnum[j] = 0;
}

START_TEST(nic_presence_and_read_rom)
{
    fixture fx;
    fx_init(&fx);
    polls = 0;
    ck_assert_int_eq(m_reset(&fx), 0); /* presence pulse */
    /* DONE after the 520 us pulse and the sample 65 us later, seen by the
     * first poll at or after that time. */
    ck_assert_uint_ge(slot_ticks, US(585));
    ck_assert_uint_lt(slot_ticks, US(585) + POLL_TICKS);
    ck_assert_uint_eq(polls, (US(585) + POLL_TICKS - 1) / POLL_TICKS + 1);
    m_write(&fx, 0x33);
    uint8_t rom[8];
    for (int i = 0; i < 8; i++)
        rom[i] = m_read(&fx);
    ck_assert_uint_eq(rom[0], DS2505_FAMILY);
    ck_assert_uint_eq(ow_crc8(rom, 7), rom[7]);
    ck_assert_uint_eq(ow_crc8(rom, 8), 0);
    /* The register keeps the timing fields and shows DONE. */
    uint32_t v = fx_reg(&fx, B_NIC);
    ck_assert_uint_eq(v & ~3u, OW_MCR_PACK(6, 13));
    fx_free(&fx);
}
END_TEST

/* The w1 core's search (w1_search with touch_bit triplets): finds every id. */
static int search_all(ow_bus *b, uint64_t *ids, int max)
{
    uint64_t last = 0;
    int last_zero, last_device = 0, n = 0;
    int desc_bit = 64;
    while (!last_device && n < max) {
        last_zero = -1;
        if (!ow_reset(b))
            break;
        ow_touch_byte(b, 0xf0);
        uint64_t rn = 0;
        for (int i = 0; i < 64; i++) {
            int id = ow_touch_bit(b, 1), comp = ow_touch_bit(b, 1);
            if (id && comp)
                return -1; /* nobody answered */
            int dir;
            if (id != comp)
                dir = id;
            else if (i == desc_bit)
                dir = 1;
            else if (i > desc_bit)
                dir = 0;
            else
                dir = (int)((last >> i) & 1);
            if (id == 0 && comp == 0 && dir == 0)
                last_zero = i;
            ow_touch_bit(b, dir);
            rn |= (uint64_t)dir << i;
        }
        ids[n++] = rn;
        last = rn;
        desc_bit = last_zero;
        if (desc_bit == -1)
            last_device = 1;
    }
    return n;
}

START_TEST(search_rom_two_devices)
{
    ow_bus b;
    ow_bus_init(&b);
    ds2505 d1, d2;
    ds2505_init(&d1, 0x000000000001ull);
    ds2505_init(&d2, 0x800000000003ull);
    ow_bus_attach(&b, &d1.slave);
    ow_bus_attach(&b, &d2.slave);
    uint64_t ids[4];
    ck_assert_int_eq(search_all(&b, ids, 4), 2);
    /* ids as the master assembles them, first bit = bit 0 */
    uint64_t want1 = 0, want2 = 0;
    for (int i = 7; i >= 0; i--) {
        want1 = want1 << 8 | d1.rom[i];
        want2 = want2 << 8 | d2.rom[i];
    }
    ck_assert((ids[0] == want1 && ids[1] == want2) || (ids[0] == want2 && ids[1] == want1));
    /* An empty bus: no presence. */
    ow_bus e;
    ow_bus_init(&e);
    ck_assert(!ow_reset(&e));
    sched clock;
    sched_init(&clock, XBOW_CPU_HZ);
    ow_mcr m;
    ow_mcr_init(&m, &e, &clock);
    ow_mcr_write(&m, OW_MCR_PACK(520, 65));
    clock.now += US(585);
    ck_assert_uint_eq(ow_mcr_read(&m) & 3, OW_MCR_DONE | OW_MCR_RD_DATA);
    /* MATCH ROM selects exactly one of two. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0x55);
    for (int i = 0; i < 8; i++)
        ow_touch_byte(&b, d2.rom[i]);
    ck_assert_int_eq(d1.state, DS_IDLE);
    ck_assert_int_eq(d2.state, DS_MEM_CMD);
}
END_TEST

START_TEST(search_rom_through_bridge)
{
    fixture fx;
    fx_init(&fx);
    ck_assert_int_eq(m_reset(&fx), 0);
    m_write(&fx, 0xf0);
    uint8_t rom[8] = {0};
    for (int i = 0; i < 64; i++) {
        int id = m_bit(&fx, 1), comp = m_bit(&fx, 1);
        ck_assert_int_ne(id, comp); /* one device: never a discrepancy */
        m_bit(&fx, id);
        rom[i / 8] |= (uint8_t)(id << (i % 8));
    }
    ck_assert_uint_eq(rom[0], 0x0b);
    ck_assert_uint_eq(ow_crc8(rom, 8), 0);
    fx_free(&fx);
}
END_TEST

START_TEST(ds2505_extended_read_linux)
{
    fixture fx;
    fx_init(&fx);
    uint8_t prom[64], redir;
    ck_assert_int_eq(read_page(&fx, NULL, 0, prom, &redir), 0);
    ck_assert_uint_eq(redir, 0xff);
    ck_assert_int_eq(read_page(&fx, NULL, 1, prom + 32, &redir), 0);
    /* bridge_get_partnum's checks and assembly. */
    ck_assert_uint_eq(ow_crc16(0, prom, 32), OW_CRC16_VALID);
    ck_assert_uint_eq(ow_crc16(0, prom + 32, 32), OW_CRC16_VALID);
    char pn[32];
    linux_partnum(prom, pn);
    ck_assert_str_eq(pn, "030-1124-002");
    ck_assert_int_eq(strncmp(pn, "030-1124-", 9), 0); /* IP27 BaseIO */
    /* With MATCH ROM and the right id; a wrong id gets no answer. */
    uint8_t rom[8];
    m_reset(&fx);
    m_write(&fx, 0x33);
    for (int i = 0; i < 8; i++)
        rom[i] = m_read(&fx);
    uint8_t again[32];
    ck_assert_int_eq(read_page(&fx, rom, 0, again, &redir), 0);
    ck_assert_mem_eq(again, prom, 32);
    rom[3] ^= 1;
    ck_assert_int_eq(read_page(&fx, rom, 0, again, &redir), -2);
    /* Another board. */
    bridge_set_partnum(fx.br, "030-0734-001");
    ck_assert_int_eq(read_page(&fx, NULL, 0, prom, &redir), 0);
    ck_assert_int_eq(read_page(&fx, NULL, 1, prom + 32, &redir), 0);
    linux_partnum(prom, pn);
    ck_assert_str_eq(pn, "030-0734-001");
    fx_free(&fx);
}
END_TEST

/* Slot times on the virtual clock, as the DS2505 data sheet's standard
 * speed needs them: sgi_w1's three words, each with the recovery delay the
 * driver adds after DONE (udelay(500) after a reset, udelay(100) after a
 * write-1/read slot, none after a write-0). */
START_TEST(slot_timing)
{
    fixture fx;
    fx_init(&fx);
    static const struct {
        uint32_t word;
        unsigned done_us, recovery_us, min_us, max_us;
    } slots[] = {
        {OW_MCR_PACK(520, 65), 585, 500, 960, 1100}, /* reset + presence: about 1 ms */
        {OW_MCR_PACK(6, 13), 19, 100, 60, 120},      /* write 1 / read */
        {OW_MCR_PACK(80, 30), 110, 0, 60, 120},      /* write 0 */
    };
    for (unsigned i = 0; i < ARRAY_SIZE(slots); i++) {
        uint64_t t0 = fx.clock.now;
        fx_setreg(&fx, B_NIC, slots[i].word);
        /* One tick before the end: busy, no data, the fields as written. */
        fx.clock.now = t0 + US(slots[i].done_us) - 1;
        ck_assert_uint_eq(fx_reg(&fx, B_NIC), slots[i].word);
        /* The debugger's view agrees and changes nothing. */
        device *d = bridge_device(fx.br);
        unsigned id, idx;
        ck_assert_int_eq(dev_reg_lookup(d, "NIC", &id, &idx), 0);
        ck_assert_uint_eq(dev_peek(d, id, idx), slots[i].word);
        fx.clock.now = t0 + US(slots[i].done_us);
        ck_assert_uint_eq(fx_reg(&fx, B_NIC) & OW_MCR_DONE, OW_MCR_DONE);
        ck_assert_uint_eq(dev_peek(d, id, idx) & ~(uint64_t)OW_MCR_RD_DATA,
                          slots[i].word | OW_MCR_DONE);
        unsigned total = slots[i].done_us + slots[i].recovery_us;
        ck_assert_uint_ge(total, slots[i].min_us);
        ck_assert_uint_le(total, slots[i].max_us);
        fx.clock.now += US(slots[i].recovery_us);
    }
    /* A slot started while another runs: the new one counts from its own
     * write, and the first one's sample is never shown. */
    uint64_t t0 = fx.clock.now;
    fx_setreg(&fx, B_NIC, OW_MCR_PACK(520, 65));
    fx.clock.now = t0 + US(100);
    fx_setreg(&fx, B_NIC, OW_MCR_PACK(6, 13));
    fx.clock.now = t0 + US(100 + 19) - 1;
    ck_assert_uint_eq(fx_reg(&fx, B_NIC) & OW_MCR_DONE, 0);
    fx.clock.now++;
    ck_assert_uint_eq(fx_reg(&fx, B_NIC), OW_MCR_PACK(6, 13) | OW_MCR_DONE | OW_MCR_RD_DATA);
    /* No pulse and no sample: done at once, the line released. */
    fx_setreg(&fx, B_NIC, 0);
    ck_assert_uint_eq(fx_reg(&fx, B_NIC), OW_MCR_DONE | OW_MCR_RD_DATA);
    /* A Bridge reset ends any slot: the register reads 0. */
    fx_setreg(&fx, B_NIC, OW_MCR_PACK(520, 65));
    device_reset(bridge_device(fx.br));
    ck_assert_uint_eq(fx_reg(&fx, B_NIC), 0);
    fx_free(&fx);
}
END_TEST

/* What Linux's w1 core and w1_ds250x cost on the wire when bridge_probe
 * reads the part number: the search that finds the DS2505, then two pages
 * read with MATCH ROM, each slot followed by sgi_w1's recovery delay.  The
 * total is the virtual time the Bridge probe waits for its EEPROM. */
START_TEST(linux_read_takes_real_time)
{
    fixture fx;
    fx_init(&fx);
    uint64_t busy = 0;
    unsigned nslots = 0;
#define SLOT(word, rec)                  \
    ({                                   \
        int r_ = mcr_cycle(&fx, (word)); \
        busy += slot_ticks + US(rec);    \
        fx.clock.now += US(rec);         \
        nslots++;                        \
        r_;                              \
    })
    ck_assert_int_eq(SLOT(OW_MCR_PACK(520, 65), 500), 0);
    for (int i = 0; i < 8; i++)
        SLOT((0xf0 >> i) & 1 ? OW_MCR_PACK(6, 13) : OW_MCR_PACK(80, 30), (0xf0 >> i) & 1 ? 100 : 0);
    uint8_t rom[8] = {0};
    for (int i = 0; i < 64; i++) {
        int id = SLOT(OW_MCR_PACK(6, 13), 100);
        SLOT(OW_MCR_PACK(6, 13), 100);
        SLOT(id ? OW_MCR_PACK(6, 13) : OW_MCR_PACK(80, 30), id ? 100 : 0);
        rom[i / 8] |= (uint8_t)(id << (i % 8));
    }
#undef SLOT
    ck_assert_uint_eq(ow_crc8(rom, 8), 0);
    /* 1 reset and 200 bit slots: between 60 and 120 us each. */
    ck_assert_uint_eq(nslots, 201);
    ck_assert_uint_ge(busy, US(1000) + 200 * US(60));
    ck_assert_uint_le(busy, US(1100) + 200 * (US(120) + POLL_TICKS));
    /* Two pages: reset, MATCH ROM (9 bytes), 0xA5 + address (3 bytes), 3
     * bytes back, 34 bytes of data and CRC, each page. */
    uint64_t t0 = fx.clock.now;
    uint8_t prom[64], redir;
    ck_assert_int_eq(read_page(&fx, rom, 0, prom, &redir), 0);
    ck_assert_int_eq(read_page(&fx, rom, 1, prom + 32, &redir), 0);
    uint64_t t = fx.clock.now - t0; /* without the recovery delays */
    unsigned bits = 2 * 8 * (9 + 3 + 3 + 34);
    ck_assert_uint_ge(t, 2 * US(585) + bits * US(19));
    ck_assert_uint_le(t, 2 * US(585) + bits * US(110) + (bits + 2) * POLL_TICKS);
    fx_free(&fx);
}
END_TEST

START_TEST(sgi_nic_layout)
{
    uint8_t m[64];
    ck_assert_int_eq(sgi_nic_format(m, "MPS1234", "030-1124-002", "BASEIO"), 0);
    /* OpenBSD owserial's view. */
    ck_assert_uint_eq(m[0], 0x01);
    ck_assert_int_eq(memcmp(m + 1, "MPS1234", 7), 0);
    ck_assert_int_eq(memcmp(m + 21, "030-1124-", 9), 0);
    ck_assert_int_eq(memcmp(m + 35, "002", 3), 0);
    for (int i = 42; i < 48; i++)
        ck_assert_uint_eq(m[i], 0xff);
    ck_assert_int_eq(memcmp(m + 48, "BASEIO        ", 14), 0);
    ck_assert_uint_eq(ow_crc16(0, m, 32), OW_CRC16_VALID);
    ck_assert_uint_eq(ow_crc16(0, m + 32, 32), OW_CRC16_VALID);
    /* Long and short part numbers survive Linux's assembly. */
    char pn[32];
    ck_assert_int_eq(sgi_nic_format(m, "S", "030-1234-567-ABCDE", "X"), 0);
    linux_partnum(m, pn);
    ck_assert_str_eq(pn, "030-1234-567-ABCDE");
    ck_assert_int_eq(sgi_nic_format(m, "S", "12345", "X"), 0);
    linux_partnum(m, pn);
    ck_assert_str_eq(pn, "12345");
    ck_assert_int_eq(sgi_nic_format(m, "S", "01234567890123456789012345", "X"), -1);
    /* A serial longer than 10 characters is cut so it cannot leak into
     * Linux's part number. */
    ck_assert_int_eq(sgi_nic_format(m, "ABCDEFGHIJKLMNOP", "030-1124-002", "X"), 0);
    linux_partnum(m, pn);
    ck_assert_str_eq(pn, "030-1124-002");
}
END_TEST

START_TEST(ds2505_redirection_and_other_reads)
{
    ow_bus b;
    ow_bus_init(&b);
    ds2505 d;
    ds2505_init(&d, 0x123456);
    ow_bus_attach(&b, &d.slave);
    for (int i = 0; i < DS2505_MEM_SIZE; i++)
        d.mem[i] = (uint8_t)(i * 7);
    d.status[0x100 + 0] = (uint8_t)~5; /* page 0 redirected to page 5 */
    /* Extended read of page 0: redirection byte 0xfa with a good CRC. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    uint8_t buf[6] = {0xa5, 0, 0};
    for (int i = 0; i < 3; i++)
        ow_touch_byte(&b, buf[i]);
    for (int i = 3; i < 6; i++)
        buf[i] = ow_touch_byte(&b, 0xff);
    ck_assert_uint_eq(buf[3], 0xfa);
    ck_assert_uint_eq(ow_crc16(0, buf, 6), OW_CRC16_VALID);
    /* The stream continues: page 0 data + CRC, then page 1's redirection
     * byte and its CRC (over the redirection byte only). */
    uint8_t data[34];
    for (int i = 0; i < 34; i++)
        data[i] = ow_touch_byte(&b, 0xff);
    ck_assert_mem_eq(data, d.mem, 32);
    ck_assert_uint_eq(ow_crc16(0, data, 34), OW_CRC16_VALID);
    uint8_t r[3];
    for (int i = 0; i < 3; i++)
        r[i] = ow_touch_byte(&b, 0xff);
    ck_assert_uint_eq(r[0], 0xff);
    ck_assert_uint_eq(ow_crc16(0, r, 3), OW_CRC16_VALID);
    /* Read memory (0xF0) from the last 4 bytes: data, then the CRC over
     * command, address and data; then 1s. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    uint8_t s[9] = {0xf0, 0xfc, 0x07};
    for (int i = 0; i < 3; i++)
        ow_touch_byte(&b, s[i]);
    for (int i = 3; i < 9; i++)
        s[i] = ow_touch_byte(&b, 0xff);
    ck_assert_mem_eq(s + 3, d.mem + 0x7fc, 4);
    ck_assert_uint_eq(ow_crc16(0, s, 9), OW_CRC16_VALID);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), 0xff);
    /* Read status (0xAA) at 0x100: 8 bytes, CRC over command+address+data. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    uint8_t st[13] = {0xaa, 0x00, 0x01};
    for (int i = 0; i < 3; i++)
        ow_touch_byte(&b, st[i]);
    for (int i = 3; i < 13; i++)
        st[i] = ow_touch_byte(&b, 0xff);
    ck_assert_uint_eq(st[3], 0xfa);
    ck_assert_uint_eq(ow_crc16(0, st, 13), OW_CRC16_VALID);
    /* An unknown memory command: the device goes quiet until reset. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    ow_touch_byte(&b, 0x0f);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), 0xff);
    ck_assert_int_eq(d.state, DS_IDLE);
}
END_TEST

/* The DS1981U with SGI's Ethernet address, read as Linux reads a family
 * 0x91 (w1_ds250x.c: READ DATA 0xC3 page by page, CRC8s) and checked as
 * ioc3-eth checks it; READ MEMORY and READ STATUS as OpenBSD's owmac. */
START_TEST(mac_nic_ds1981)
{
    static const uint8_t mac[6] = {0x08, 0x00, 0x69, 0x0e, 0xc3, 0x01};
    ow_bus b;
    ow_bus_init(&b);
    ds2505 d;
    ds2502_init(&d, SGI_MAC_NIC_FAMILY, 0x5e7000000001ull, SGI_MAC_NIC_SIZE);
    sgi_mac_nic_format(d.mem, mac);
    ow_bus_attach(&b, &d.slave);
    ck_assert_uint_eq(d.rom[0], 0x91);
    ck_assert_uint_eq(ow_crc8(d.rom, 7), d.rom[7]);
    uint8_t page[2][32];
    for (int p = 0; p < 2; p++) {
        ck_assert(ow_reset(&b));
        ow_touch_byte(&b, 0xcc);
        uint8_t cmd[3] = {0xc3, (uint8_t)(32 * p), 0};
        for (int i = 0; i < 3; i++)
            ow_touch_byte(&b, cmd[i]);
        ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(cmd, 3));
        for (int i = 0; i < 32; i++)
            page[p][i] = ow_touch_byte(&b, 0xff);
        ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(page[p], 32));
    }
    /* ioc3eth_get_mac_addr: byte 0 = 0x0a, CRC16 of 0..12 valid, bytes 10..5. */
    ck_assert_uint_eq(page[0][0], 0x0a);
    ck_assert_uint_eq(ow_crc16(0, page[0], 13), OW_CRC16_VALID);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(page[0][10 - i], mac[i]);
    /* After the last page's CRC8 the part sends ones. */
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), 0xff);
    /* READ MEMORY from 60: CRC8 of the command, 4 bytes, CRC8 of them. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    uint8_t rm[3] = {0xf0, 60, 0};
    for (int i = 0; i < 3; i++)
        ow_touch_byte(&b, rm[i]);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(rm, 3));
    uint8_t tail[4];
    for (int i = 0; i < 4; i++)
        tail[i] = ow_touch_byte(&b, 0xff);
    ck_assert_mem_eq(tail, page[1] + 28, 4);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(tail, 4));
    /* READ STATUS: 8 bytes (unprogrammed: 0xff), then their CRC8. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    uint8_t rs[3] = {0xaa, 0, 0}, st[8];
    for (int i = 0; i < 3; i++)
        ow_touch_byte(&b, rs[i]);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(rs, 3));
    for (int i = 0; i < 8; i++)
        st[i] = ow_touch_byte(&b, 0xff);
    ck_assert_uint_eq(st[0], 0xff);
    ck_assert_uint_eq(ow_touch_byte(&b, 0xff), ow_crc8(st, 8));
    /* 0xA5 is a DS2505 command, not this part's. */
    ck_assert(ow_reset(&b));
    ow_touch_byte(&b, 0xcc);
    ow_touch_byte(&b, 0xa5);
    ck_assert_int_eq(d.state, DS_IDLE);
}
END_TEST


int main(void)
{
    return check_main("onewire", "ds2505", NULL, NULL, 0, nic_presence_and_read_rom,
                      search_rom_two_devices, search_rom_through_bridge, ds2505_extended_read_linux,
                      slot_timing, linux_read_takes_real_time, sgi_nic_layout,
                      ds2505_redirection_and_other_reads, mac_nic_ds1981);
}
