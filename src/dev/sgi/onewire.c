/* SPDX-License-Identifier: GPL-2.0-or-later */
/* 1-wire bus, SGI MicroLAN master register, DS2505.  See onewire.h.
 *
 * DS2505 protocol (Maxim DS2505 data sheet; Linux w1 core, w1_ds250x.c;
 * OpenBSD owserial.c):
 *  ROM functions after a reset: READ ROM 0x33, MATCH ROM 0x55, SKIP ROM 0xCC,
 *  SEARCH ROM 0xF0 (per id bit: the bit, its complement, then the master's
 *  direction bit; a device whose bit differs drops out until the next reset).
 *  Memory functions, each followed by a 16-bit target address (low byte
 *  first):
 *   0xA5 extended read: redirection byte of the page, inverted CRC16 of
 *        command+address+redirection byte; data to the end of the page,
 *        inverted CRC16 of those data bytes; then for every following page
 *        its redirection byte + CRC16, data + CRC16.
 *   0xF0 read memory: data to the end of memory, then the inverted CRC16 of
 *        command, address and all data [INF: Linux does not use it].
 *   0xAA read status: status bytes to the end of each 8-byte block, each
 *        block followed by an inverted CRC16 (the first one also covers the
 *        command and address).
 *  Past the end of a stream the device sends 1s.  Programming commands need
 *  a 12 V pulse no SGI master provides: the device ignores them. */
#include "dev/sgi/onewire.h"

#include <stdio.h>

void ow_bus_init(ow_bus *b) { memset(b, 0, sizeof *b); }

void ow_bus_attach(ow_bus *b, ow_slave *s)
{
    ow_slave **pp = &b->slaves;
    while (*pp)
        pp = &(*pp)->next;
    s->next = NULL;
    *pp = s;
}

bool ow_reset(ow_bus *b)
{
    bool present = false;
    b->resets++;
    for (ow_slave *s = b->slaves; s; s = s->next)
        present |= s->ops->reset(s);
    return present;
}

int ow_touch_bit(ow_bus *b, int bit)
{
    int line = bit ? 1 : 0;
    b->slots++;
    if (bit)
        for (ow_slave *s = b->slaves; s; s = s->next)
            line &= s->ops->drive(s);
    else
        for (ow_slave *s = b->slaves; s; s = s->next)
            (void)s->ops->drive(s);
    for (ow_slave *s = b->slaves; s; s = s->next)
        s->ops->sample(s, line);
    return line;
}

uint8_t ow_touch_byte(ow_bus *b, uint8_t byte)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r |= (uint8_t)(ow_touch_bit(b, (byte >> i) & 1) << i);
    return r;
}

/* ---- SGI MicroLAN master ------------------------------------------------ */

void ow_mcr_init(ow_mcr *m, ow_bus *b, const sched *clock)
{
    memset(m, 0, sizeof *m);
    m->bus = b;
    m->clock = clock;
}

void ow_mcr_reset(ow_mcr *m)
{
    m->fields = 0;
    m->result = 0;
    m->done_at = 0;
}

/* The slot kind follows from the low-pulse width, with the 1-wire
 * standard-speed limits (reset >= 480 us, write-1/read 1..15 us, write-0
 * 60..120 us).  The fields count microseconds: IRIX's nic.c passes them as
 * such (pulse, sample, then a delay it spends with rtc_sleep) and programs
 * the HUB's divider so that they are; the Bridge's are [INF] the same.  The
 * sample is taken `sample` us after the pulse ends [INF]: for the reset
 * PACK(520, 65) that is 65 us after the release, inside the DS2505's
 * presence pulse (15-60 us after the release, 60-240 us long).  With
 * Linux's recovery delays a reset and presence takes 585 + 500 us, a read
 * slot 19 + 100 us and a write-0 slot 110 us: the 1 ms and 60-120 us of
 * the data sheet.  The devices see the slot when it starts; the driver sees
 * DONE when it ends. */
void ow_mcr_write(ow_mcr *m, uint32_t val)
{
    unsigned pulse = OW_MCR_PULSE(val);
    int line;
    if (pulse == 0)
        line = 1; /* no low pulse at all: the line stays released */
    else if (pulse >= 480)
        line = ow_reset(m->bus) ? 0 : 1; /* 0 = presence pulse seen */
    else if (pulse < 15)
        line = ow_touch_bit(m->bus, 1);
    else
        line = ow_touch_bit(m->bus, 0);
    m->fields = val & (OW_MCR_PACK(0x3ff, 0xff));
    m->result = OW_MCR_DONE | (line ? OW_MCR_RD_DATA : 0);
    m->done_at = m->clock->now + sched_ns_to_ticks(m->clock, 1000ull * ow_mcr_slot_us(val));
}

uint32_t ow_mcr_read(const ow_mcr *m)
{
    return m->fields | (m->clock->now >= m->done_at ? m->result : 0);
}

uint8_t ow_crc8_add(uint8_t crc, uint8_t b)
{
    crc ^= b;
    for (int k = 0; k < 8; k++)
        crc = (crc & 1) ? (uint8_t)((crc >> 1) ^ 0x8c) : (uint8_t)(crc >> 1);
    return crc;
}

uint8_t ow_crc8(const uint8_t *p, size_t n)
{
    uint8_t crc = 0;
    for (size_t i = 0; i < n; i++)
        crc = ow_crc8_add(crc, p[i]);
    return crc;
}

uint16_t ow_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xa001) : (uint16_t)(crc >> 1);
    }
    return crc;
}

/* ---- DS2505 ------------------------------------------------------------- */

static int rom_bit(const ds2505 *d, unsigned i) { return (d->rom[i / 8] >> (i % 8)) & 1; }

static void crc_add(ds2505 *d, uint8_t b)
{
    if (d->crc8)
        d->crc = ow_crc8_add((uint8_t)d->crc, b);
    else
        d->crc = ow_crc16(d->crc, &b, 1);
}

/* Queue the inverted CRC16 of what was sent so far; start a new one. */
static void queue_crc(ds2505 *d)
{
    if (d->crc8) { /* CRC8, not inverted */
        d->queue[0] = (uint8_t)d->crc;
        d->nqueue = 1;
    } else {
        uint16_t c = (uint16_t)~d->crc;
        d->queue[0] = (uint8_t)c;
        d->queue[1] = (uint8_t)(c >> 8);
        d->nqueue = 2;
    }
    d->qpos = 0;
    d->crc = 0;
}

/* The DS2502 class: READ MEMORY (0xf0) to the end with one CRC8, READ DATA
 * (0xc3) with a CRC8 after every page, READ STATUS (0xaa). */
static uint8_t next_byte_crc8(ds2505 *d)
{
    unsigned end = d->cmd == 0xaa ? 8 : d->mem_size;
    if (d->addr >= end) {
        if (d->cmd != 0xc3 || d->addr % DS2505_PAGE_SIZE)
            queue_crc(d); /* 0xc3 sent it at the page end already */
        d->ended = true;
        return d->qpos < d->nqueue ? d->queue[d->qpos++] : 0xff;
    }
    uint8_t b = d->cmd == 0xaa ? d->status[d->addr++] : d->mem[d->addr++];
    crc_add(d, b);
    if (d->cmd == 0xc3 && d->addr % DS2505_PAGE_SIZE == 0)
        queue_crc(d);
    return b;
}

static uint8_t next_byte(ds2505 *d)
{
    if (d->qpos < d->nqueue)
        return d->queue[d->qpos++];
    d->nqueue = d->qpos = 0;
    if (d->ended)
        return 0xff;
    if (d->crc8)
        return next_byte_crc8(d);
    uint8_t b;
    switch (d->cmd) {
    case 0xf0: /* read memory */
        if (d->addr >= d->mem_size) {
            queue_crc(d);
            d->ended = true;
            return next_byte(d);
        }
        b = d->mem[d->addr++];
        crc_add(d, b);
        return b;
    case 0xa5: /* extended read */
        if (d->addr >= d->mem_size) {
            d->ended = true;
            return 0xff;
        }
        if (d->redir_due) {
            b = d->status[0x100 + d->addr / DS2505_PAGE_SIZE];
            crc_add(d, b);
            queue_crc(d);
            d->redir_due = false;
            return b;
        }
        b = d->mem[d->addr++];
        crc_add(d, b);
        if (d->addr % DS2505_PAGE_SIZE == 0) {
            queue_crc(d);
            d->redir_due = true;
        }
        return b;
    default: /* 0xaa read status */
        if (d->addr >= DS2505_STATUS_SIZE) {
            d->ended = true;
            return 0xff;
        }
        b = d->status[d->addr++];
        crc_add(d, b);
        if (d->addr % 8 == 0)
            queue_crc(d);
        return b;
    }
}

static bool ds_reset(ow_slave *s)
{
    ds2505 *d = container_of(s, ds2505, slave);
    d->state = DS_ROM_CMD;
    d->bit = 0;
    d->rx = 0;
    return true;
}

static int ds_drive(ow_slave *s)
{
    ds2505 *d = container_of(s, ds2505, slave);
    switch (d->state) {
    case DS_ROM_SEND: return rom_bit(d, d->bit);
    case DS_SEARCH:
        if (d->search_phase == 0)
            return rom_bit(d, d->bit);
        return d->search_phase == 1 ? !rom_bit(d, d->bit) : 1;
    case DS_MEM_SEND: return (d->tx >> d->bit) & 1;
    default: return 1;
    }
}

/* Receive one bit of a byte; true when the byte is complete (in d->rx). */
static bool rx_bit(ds2505 *d, int line)
{
    if (d->bit == 0)
        d->rx = 0;
    d->rx |= (uint8_t)(line << d->bit);
    if (++d->bit < 8)
        return false;
    d->bit = 0;
    return true;
}

static void start_stream(ds2505 *d)
{
    uint8_t a[2] = {(uint8_t)d->addr, (uint8_t)(d->addr >> 8)};
    d->nqueue = d->qpos = 0;
    d->ended = false;
    d->state = DS_MEM_SEND;
    d->bit = 0;
    if (d->crc8) { /* the CRC8 of command and address comes first */
        d->crc = ow_crc8_add(ow_crc8_add(ow_crc8_add(0, d->cmd), a[0]), a[1]);
        d->redir_due = false;
        queue_crc(d);
    } else {
        d->crc = ow_crc16(ow_crc16(0, &d->cmd, 1), a, 2);
        d->redir_due = d->cmd == 0xa5;
    }
    d->tx = next_byte(d);
}

static void ds_sample(ow_slave *s, int line)
{
    ds2505 *d = container_of(s, ds2505, slave);
    switch (d->state) {
    case DS_ROM_CMD:
        if (!rx_bit(d, line))
            break;
        switch (d->rx) {
        case 0x33: d->state = DS_ROM_SEND; break;
        case 0x55: d->state = DS_ROM_MATCH; break;
        case 0xcc: d->state = DS_MEM_CMD; break;
        case 0xf0:
            d->state = DS_SEARCH;
            d->search_phase = 0;
            break;
        default: d->state = DS_IDLE; break;
        }
        break;
    case DS_ROM_MATCH:
        if (line != rom_bit(d, d->bit))
            d->state = DS_IDLE;
        else if (++d->bit == 64)
            d->state = DS_MEM_CMD, d->bit = 0;
        break;
    case DS_ROM_SEND:
        if (++d->bit == 64)
            d->state = DS_MEM_CMD, d->bit = 0;
        break;
    case DS_SEARCH:
        if (d->search_phase < 2) {
            d->search_phase++;
            break;
        }
        d->search_phase = 0;
        if (line != rom_bit(d, d->bit))
            d->state = DS_IDLE;
        else if (++d->bit == 64)
            d->state = DS_MEM_CMD, d->bit = 0;
        break;
    case DS_MEM_CMD:
        if (!rx_bit(d, line))
            break;
        d->cmd = d->rx;
        if ((d->crc8 ? d->cmd == 0xc3 : d->cmd == 0xa5) || d->cmd == 0xf0 || d->cmd == 0xaa) {
            d->state = DS_MEM_ADDR;
            d->addr = 0;
        } else {
            d->state = DS_IDLE;
        }
        break;
    case DS_MEM_ADDR:
        d->addr |= (uint16_t)(line << d->bit);
        if (++d->bit == 16)
            start_stream(d);
        break;
    case DS_MEM_SEND:
        if (++d->bit == 8) {
            d->bit = 0;
            d->tx = next_byte(d);
        }
        break;
    default: break;
    }
}

static const ow_slave_ops ds2505_ops = {ds_reset, ds_drive, ds_sample};

/* ---- state ------------------------------------------------------------------ */

static const state_decl ow_bus_decls[] = {
    STATE_WIRING(ow_bus, slaves, "the devices on the bus: attached by the board"),
    STATE_INT(ow_bus, resets, "reset pulses so far"),
    STATE_INT(ow_bus, slots, "bit slots so far"),
};
const state_table ow_bus_state = STATE_TABLE(ow_bus_decls, ow_bus);

static const state_decl ow_mcr_decls[] = {
    STATE_WIRING(ow_mcr, bus, "its bus: ow_mcr_init by the owner"),
    STATE_WIRING(ow_mcr, clock, "the machine's clock: ow_mcr_init by the owner"),
    STATE_INT(ow_mcr, fields, "timing fields of the last slot"),
    STATE_INT(ow_mcr, result, "DONE and the sampled line, visible from done_at"),
    STATE_INT(ow_mcr, done_at, "virtual time the last slot ends"),
};
const state_table ow_mcr_state = STATE_TABLE(ow_mcr_decls, ow_mcr);

static const state_decl ds2505_decls[] = {
    STATE_WIRING(ds2505, slave, "bus membership: ds2505_init and ow_bus_attach"),
    STATE_BYTES(ds2505, rom, "family, serial, CRC8"),
    STATE_BYTES(ds2505, mem, "EPROM data"),
    STATE_BYTES(ds2505, status, "status memory (redirection bytes)"),
    STATE_INT(ds2505, state, "protocol state (enum ds2505_state)"),
    STATE_INT(ds2505, bit, "bit position in the current byte or id"),
    STATE_INT(ds2505, rx, "byte being received"),
    STATE_INT(ds2505, cmd, "memory command"),
    STATE_INT(ds2505, addr, "current address of the stream"),
    STATE_INT(ds2505, tx, "byte being sent"),
    STATE_INT(ds2505, search_phase, "SEARCH ROM: bit, complement, direction"),
    STATE_INT(ds2505, crc, "running CRC16 of the stream"),
    STATE_BYTES(ds2505, queue, "CRC bytes to send before the next data byte"),
    STATE_INT(ds2505, nqueue, "bytes queued"),
    STATE_INT(ds2505, qpos, "next queued byte"),
    STATE_BOOL(ds2505, redir_due, "a page's redirection byte comes next"),
    STATE_BOOL(ds2505, ended, "past the end of the stream"),
};
const state_table ds2505_state = STATE_TABLE(ds2505_decls, ds2505);

void ds2505_init(ds2505 *d, uint64_t serial48)
{
    memset(d, 0, sizeof *d);
    d->slave.ops = &ds2505_ops;
    d->rom[0] = DS2505_FAMILY;
    d->mem_size = DS2505_MEM_SIZE;
    for (int i = 0; i < 6; i++)
        d->rom[1 + i] = (uint8_t)(serial48 >> (8 * i));
    d->rom[7] = ow_crc8(d->rom, 7);
    memset(d->mem, 0xff, sizeof d->mem);
    memset(d->status, 0xff, sizeof d->status);
    d->state = DS_IDLE;
}

void ds2502_init(ds2505 *d, uint8_t family, uint64_t serial48, unsigned mem_size)
{
    ds2505_init(d, serial48);
    d->rom[0] = family;
    d->rom[7] = ow_crc8(d->rom, 7);
    d->mem_size = (uint16_t)(mem_size && mem_size <= DS2505_MEM_SIZE ? mem_size : 64);
    d->crc8 = true;
}

void sgi_mac_nic_format(uint8_t mem[32], const uint8_t mac[6])
{
    memset(mem, 0xff, 32);
    memset(mem, 0, 11);
    mem[0] = 0x0a;
    for (int i = 0; i < 6; i++)
        mem[10 - i] = mac[i];
    uint16_t c = (uint16_t)~ow_crc16(0, mem, 11);
    mem[11] = (uint8_t)c;
    mem[12] = (uint8_t)(c >> 8);
}

/* Copy s right-aligned into the field [at, at+width), space padded. */
static void put_right(uint8_t *p, unsigned at, unsigned width, const char *s, size_t n)
{
    memset(p + at, ' ', width);
    memcpy(p + at + width - n, s, n);
}

static void page_crc(uint8_t *page)
{
    uint16_t c = (uint16_t)~ow_crc16(0, page, DS2505_PAGE_SIZE - 2);
    page[30] = (uint8_t)c;
    page[31] = (uint8_t)(c >> 8);
}

int sgi_nic_format(uint8_t mem[64], const char *serial, const char *partnum, const char *name)
{
    size_t len = strlen(partnum), head, tail;
    if (len > 25)
        return -1;
    if (len <= 9)
        head = len;
    else if (len <= 12)
        head = 9;
    else
        head = len - 6;
    tail = len - head;
    memset(mem, ' ', 64);
    mem[0] = 0x01;
    size_t sn = strlen(serial);
    memcpy(mem + 1, serial, sn > 10 ? 10 : sn); /* 11..20 must stay blank for Linux */
    put_right(mem, 11, 19, partnum, head);
    put_right(mem, 32, 6, partnum + head, tail);
    memset(mem + 42, 0xff, 6);
    size_t nn = strlen(name);
    memcpy(mem + 48, name, nn > 14 ? 14 : nn);
    page_crc(mem);
    page_crc(mem + 32);
    return 0;
}
