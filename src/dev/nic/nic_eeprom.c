/* SPDX-License-Identifier: GPL-2.0-or-later */
/* EEPROM helpers.  See nic_eeprom.h. */
#include "dev/nic/nic_eeprom.h"

#include <stdlib.h>

static void read_done(void *opaque)
{
    nic_eeprom *e = opaque;
    e->result = nic_eeprom_get(e, e->addr);
    e->busy = false;
}

void nic_eeprom_init(nic_eeprom *e, nic *n, uint32_t size, uint8_t fill, uint64_t op_ticks)
{
    memset(e, 0, sizeof *e);
    uint32_t sz = 1;
    while (sz < size)
        sz <<= 1;
    e->data = xmalloc(sz);
    memset(e->data, fill, sz);
    e->size = sz;
    e->n = n;
    e->op_ticks = op_ticks;
    timer_init(&e->t, "nic-eeprom", read_done, e);
    if (nic_part(n, e))
        n->ee = e;
}

void nic_eeprom_fini(nic_eeprom *e)
{
    if (e->n)
        timer_del(e->n->clock, &e->t);
    free(e->data);
    e->data = NULL;
}

void nic_eeprom_reset(nic_eeprom *e)
{
    timer_del(e->n->clock, &e->t);
    e->busy = false;
    e->addr = 0;
    e->result = 0;
}

uint8_t nic_eeprom_get(const nic_eeprom *e, uint32_t addr) { return e->data[addr & (e->size - 1)]; }

void nic_eeprom_put(nic_eeprom *e, uint32_t addr, uint8_t v) { e->data[addr & (e->size - 1)] = v; }

void nic_eeprom_put_mac(nic_eeprom *e, uint32_t addr, const uint8_t mac[6])
{
    for (unsigned i = 0; i < 6; i++)
        nic_eeprom_put(e, addr + i, mac[i]);
}

void nic_eeprom_start_read(nic_eeprom *e, uint32_t addr)
{
    e->addr = addr & (e->size - 1);
    e->reads++;
    if (!e->op_ticks) {
        read_done(e);
        return;
    }
    e->busy = true;
    timer_mod(e->n->clock, &e->t, nic_now(e->n) + e->op_ticks);
}

uint16_t nic_eeprom_word(const nic_eeprom *e, unsigned word)
{
    return (uint16_t)(nic_eeprom_get(e, 2 * word) | nic_eeprom_get(e, 2 * word + 1) << 8);
}

void nic_eeprom_set_word(nic_eeprom *e, unsigned word, uint16_t v)
{
    nic_eeprom_put(e, 2 * word, (uint8_t)v);
    nic_eeprom_put(e, 2 * word + 1, (uint8_t)(v >> 8));
}

void nic_eeprom_fix_checksum(nic_eeprom *e, unsigned csum_word, uint16_t target)
{
    uint16_t sum = 0;
    for (unsigned i = 0; i < csum_word; i++)
        sum = (uint16_t)(sum + nic_eeprom_word(e, i));
    nic_eeprom_set_word(e, csum_word, (uint16_t)(target - sum));
}

/* ---- Microwire ------------------------------------------------------------ */

void nic_uwire_init(nic_uwire *u, nic_eeprom *e, unsigned addr_bits)
{
    memset(u, 0, sizeof *u);
    u->e = e;
    u->addr_bits = addr_bits;
    u->dout = true; /* ready */
}

static void uw_clock(nic_uwire *u, bool din)
{
    switch (u->state) {
    case UW_IDLE:
        if (din) { /* start bit */
            u->state = UW_CMD;
            u->shift = 0;
            u->nbits = 0;
        }
        break;
    case UW_CMD:
        u->shift = (u->shift << 1) | din;
        if (++u->nbits < 2 + u->addr_bits)
            break;
        if ((u->shift >> u->addr_bits) == 2) { /* opcode 10: read */
            u->word_addr = u->shift & ((1u << u->addr_bits) - 1);
            u->word = nic_eeprom_word(u->e, u->word_addr);
            u->out_bits = 0;
            u->dout = false; /* the dummy zero before the data */
            u->state = UW_READ;
        } else {
            u->state = UW_IDLE; /* write/erase/EWEN...: not supported, ignored */
        }
        break;
    case UW_READ:
        u->dout = (u->word >> (15 - u->out_bits)) & 1;
        if (++u->out_bits == 16) { /* sequential read: next word */
            u->word_addr = (u->word_addr + 1) & ((1u << u->addr_bits) - 1);
            u->word = nic_eeprom_word(u->e, u->word_addr);
            u->out_bits = 0;
        }
        break;
    }
}

void nic_uwire_pins(nic_uwire *u, bool cs, bool sk, bool din)
{
    if (!cs) {
        u->state = UW_IDLE;
        u->dout = true;
    } else if (sk && !u->sk) {
        uw_clock(u, din);
    }
    u->cs = cs;
    u->sk = sk;
}

static const state_decl nic_eeprom_decls[] = {
    STATE_WIRING(nic_eeprom, n, "the NIC: nic_eeprom_init"),
    STATE_BUFFER(nic_eeprom, data, size, "the contents"),
    STATE_BOOL(nic_eeprom, busy, "a read is in progress"),
    STATE_INT(nic_eeprom, addr, "address of the read in progress / last read"),
    STATE_INT(nic_eeprom, result, "byte latched by the last completed read"),
    STATE_INT(nic_eeprom, reads, "reads"),
    STATE_TIMER(nic_eeprom, t, "the read in progress completes"),
};
const state_table nic_eeprom_state = STATE_TABLE(nic_eeprom_decls, nic_eeprom);

static const state_decl nic_uwire_decls[] = {
    STATE_WIRING(nic_uwire, e, "the EEPROM: nic_uwire_init"),
    STATE_BOOL(nic_uwire, cs, "chip select"),
    STATE_BOOL(nic_uwire, sk, "clock"),
    STATE_BOOL(nic_uwire, dout, "data out"),
    STATE_INT(nic_uwire, state, "idle, command, data out (enum nic_uwire_state)"),
    STATE_INT(nic_uwire, shift, "shift register"),
    STATE_INT(nic_uwire, nbits, "bits shifted"),
    STATE_INT(nic_uwire, word, "word being sent"),
    STATE_INT(nic_uwire, word_addr, "its address"),
    STATE_INT(nic_uwire, out_bits, "bits sent"),
};
const state_table nic_uwire_state = STATE_TABLE(nic_uwire_decls, nic_uwire);
