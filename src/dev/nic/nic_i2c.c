/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The two-wire serial EEPROM (AT24C32).  See nic_i2c.h. */
#include "dev/nic/nic_i2c.h"

void nic_i2c_init(nic_i2c *c, nic_eeprom *e, uint8_t dev_addr, uint32_t addr_mask)
{
    memset(c, 0, sizeof *c);
    c->e = e;
    c->dev_addr = dev_addr & 0xfe;
    c->addr_mask = addr_mask;
    nic_i2c_reset(c);
}

void nic_i2c_reset(nic_i2c *c)
{
    c->scl = true;
    c->sda_host = true;
    c->sda_dev = true;
    c->state = I2C_IDLE;
    c->bits = 0;
    c->nbytes = 0;
    c->page_n = 0;
}

static void load_byte(nic_i2c *c)
{
    c->shift = nic_eeprom_get(c->e, c->addr);
    c->addr = (c->addr + 1) & c->addr_mask;
    c->reads++;
    c->bits = 0;
    c->state = I2C_TX;
    c->sda_dev = (c->shift >> 7) & 1;
}

static void commit(nic_i2c *c)
{
    /* Bytes past the end of the page wrap to its start (AT24C32 page write). */
    uint32_t base = c->page_addr & ~31u & c->addr_mask;
    for (unsigned i = 0; i < c->page_n && i < 32; i++)
        nic_eeprom_put(c->e, base | ((c->page_addr + i) & 31u), c->page[i]);
    if (c->page_n)
        c->addr = (base | ((c->page_addr + c->page_n) & 31u)) & c->addr_mask;
    c->writes += c->page_n;
    c->page_n = 0;
}

/* A whole byte arrived from the host; returns true to acknowledge it. */
static bool got_byte(nic_i2c *c, uint8_t b)
{
    unsigned k = c->nbytes++;
    if (k == 0) {
        if ((b & 0xfe) != c->dev_addr)
            return false; /* not us: stay off the bus until the next START */
        c->read = b & 1;
        c->page_n = 0;
        return true;
    }
    if (c->read)
        return false; /* cannot happen: reads send, they do not receive */
    if (k == 1) {
        c->addr = ((uint32_t)b << 8) & c->addr_mask;
    } else if (k == 2) {
        c->addr = (c->addr | b) & c->addr_mask;
        c->page_addr = c->addr;
    } else {
        if (c->page_n == 32) { /* the 33rd byte overwrites the first: keep the last 32 */
            memmove(c->page, c->page + 1, 31);
            c->page_n = 31;
            c->page_addr++;
        }
        c->page[c->page_n++] = b;
    }
    return true;
}

static void rising(nic_i2c *c)
{
    bool sda = nic_i2c_sda(c);
    switch (c->state) {
    case I2C_RX:
        if (c->bits < 8) {
            c->shift = (uint8_t)(c->shift << 1 | sda);
            c->bits++;
        }
        break;
    case I2C_ACK_IN: c->host_ack = !sda; break;
    default: break; /* the host samples what we drive */
    }
}

static void falling(nic_i2c *c)
{
    switch (c->state) {
    case I2C_RX:
        if (c->bits == 8) {
            if (got_byte(c, c->shift)) {
                c->sda_dev = false; /* acknowledge during the ninth clock */
                c->state = I2C_ACK_OUT;
            } else {
                c->state = I2C_IDLE;
            }
        }
        break;
    case I2C_ACK_OUT:
        c->sda_dev = true;
        if (c->read) {
            load_byte(c);
        } else {
            c->state = I2C_RX;
            c->bits = 0;
        }
        break;
    case I2C_TX:
        if (++c->bits < 8) {
            c->sda_dev = (c->shift >> (7 - c->bits)) & 1;
        } else {
            c->sda_dev = true; /* the host's acknowledge slot */
            c->host_ack = false;
            c->state = I2C_ACK_IN;
        }
        break;
    case I2C_ACK_IN:
        if (c->host_ack)
            load_byte(c); /* sequential read */
        else
            c->state = I2C_IDLE;
        break;
    default: break;
    }
}

void nic_i2c_pins(nic_i2c *c, bool scl, bool sda)
{
    if (scl && !c->scl) { /* data set up before the rising edge */
        c->sda_host = sda;
        c->scl = true;
        rising(c);
    } else if (!scl && c->scl) { /* data held until after the falling edge */
        c->scl = false;
        falling(c);
        c->sda_host = sda;
    } else {
        bool before = nic_i2c_sda(c);
        c->sda_host = sda;
        bool after = nic_i2c_sda(c);
        if (!c->scl || before == after)
            return;
        if (!after) { /* START (or repeated START) */
            c->state = I2C_RX;
            c->bits = 0;
            c->nbytes = 0;
            c->page_n = 0;
            c->sda_dev = true;
            c->starts++;
        } else { /* STOP */
            if (!c->read && c->page_n)
                commit(c);
            c->page_n = 0;
            c->state = I2C_IDLE;
            c->sda_dev = true;
        }
    }
}

static const state_decl nic_i2c_decls[] = {
    STATE_WIRING(nic_i2c, e, "the EEPROM behind it, declared by the model"),
    STATE_BOOL(nic_i2c, scl, "the host's clock level"),
    STATE_BOOL(nic_i2c, sda_host, "the host's data level"),
    STATE_BOOL(nic_i2c, sda_dev, "the EEPROM's data output"),
    STATE_INT(nic_i2c, state, "protocol state (enum nic_i2c_state)"),
    STATE_INT(nic_i2c, bits, "bits of the current byte"),
    STATE_INT(nic_i2c, shift, "the byte being shifted"),
    STATE_INT(nic_i2c, nbytes, "bytes since START"),
    STATE_BOOL(nic_i2c, read, "the transaction is a read"),
    STATE_BOOL(nic_i2c, host_ack, "the host's answer to the last byte"),
    STATE_INT(nic_i2c, addr, "the address counter"),
    STATE_BYTES(nic_i2c, page, "the page write buffer"),
    STATE_INT(nic_i2c, page_addr, "the page's address"),
    STATE_INT(nic_i2c, page_n, "bytes in the page buffer"),
    STATE_INT(nic_i2c, starts, "START conditions"),
    STATE_INT(nic_i2c, reads, "bytes read"),
    STATE_INT(nic_i2c, writes, "bytes written"),
};
const state_table nic_i2c_state_decl = STATE_TABLE(nic_i2c_decls, nic_i2c);
