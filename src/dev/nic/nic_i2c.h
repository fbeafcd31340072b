/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A two-wire (I2C) serial EEPROM for bit-banging drivers (docs/architecture.md,
 * "NIC models"): the Atmel AT24C32 on the Tigon boards (4 KiB, device select
 * 0xA0/0xA1, two address bytes, 32-byte write pages).
 *
 * The driver moves two lines: the clock (SCL, always driven by the host)
 * and the data line (SDA), which the host drives low or releases, and the
 * EEPROM pulls low to acknowledge or to send a 0 bit.  The model sees the
 * host's pin levels after every register write and answers with the level
 * of SDA:
 *   - START (SDA falls while SCL is high) and STOP (SDA rises while SCL is
 *     high) are recognised in any state;
 *   - bits are sampled on the rising edge of SCL; the EEPROM changes SDA
 *     only while SCL is low (after a falling edge);
 *   - after a byte addressed to it, the EEPROM acknowledges (pulls SDA low
 *     for the ninth clock); it sends read data MSB first and keeps sending
 *     (sequential read) while the host acknowledges each byte;
 *   - random read (dummy write of the address, repeated START, read),
 *     current-address read and byte/page write (committed at STOP,
 *     instantly: acknowledge polling always succeeds [INF]) are supported.
 * When one register write changes the clock and the data line together,
 * data changes before a rising clock edge and after a falling one (set-up
 * and hold, as a bus would see it). */
#ifndef XBOW_NIC_I2C_H
#define XBOW_NIC_I2C_H

#include "dev/nic/nic_eeprom.h"

enum nic_i2c_state { I2C_IDLE, I2C_RX, I2C_ACK_OUT, I2C_TX, I2C_ACK_IN };
typedef struct nic_i2c {
    nic_eeprom *e;
    uint8_t dev_addr;   /* 7-bit address << 1: 0xA0 for A2..A0 = 0 */
    uint32_t addr_mask; /* memory address bits (AT24C32: 0xFFF) */
    bool scl, sda_host; /* the host's levels (sda_host: 1 = released) */
    bool sda_dev;       /* the EEPROM's output (1 = released) */
    enum nic_i2c_state state;
    unsigned bits; /* bits of the current byte so far */
    uint8_t shift;
    unsigned nbytes;  /* bytes received since START (device select = 0) */
    bool read;        /* the transaction is a read */
    bool host_ack;    /* what the host answered for the last byte sent */
    uint32_t addr;    /* the internal address counter */
    uint8_t page[32]; /* write buffer */
    uint32_t page_addr;
    unsigned page_n;
    uint64_t starts, reads, writes;
} nic_i2c;

/* Its state declaration (a model's STATE_PART). */
extern const state_table nic_i2c_state_decl;

void nic_i2c_init(nic_i2c *c, nic_eeprom *e, uint8_t dev_addr, uint32_t addr_mask);
/* Back to idle, lines released (chip reset); the address counter stays. */
void nic_i2c_reset(nic_i2c *c);
/* The host's new pin levels: clock, and data (true = released/high). */
void nic_i2c_pins(nic_i2c *c, bool scl, bool sda);
/* The level of the data line (wired-AND of host and EEPROM). */
static inline bool nic_i2c_sda(const nic_i2c *c) { return c->sda_host && c->sda_dev; }

#endif
