/* SPDX-License-Identifier: GPL-2.0-or-later */
/* EEPROM / NVRAM helpers shared by the NIC models (docs/architecture.md):
 * the contents (non-volatile: kept across chip resets), a byte-wide read
 * engine with a busy time on the virtual clock (Hamachi EECmdStatus), 16-bit
 * word access with the 8254x checksum rule, and a Microwire (93Cxx) serial
 * interface for bit-banging drivers (8254x EECD). */
#ifndef XBOW_NIC_EEPROM_H
#define XBOW_NIC_EEPROM_H

#include "dev/nic/nic.h"

typedef struct nic_eeprom {
    nic *n;
    uint8_t *data;
    uint32_t size;     /* bytes, a power of two; addresses wrap */
    uint64_t op_ticks; /* how long one read keeps the engine busy */
    bool busy;
    uint32_t addr;  /* address of the read in progress / last read */
    uint8_t result; /* byte latched by the last completed read */
    uint64_t reads;
    timer t;
} nic_eeprom;

void nic_eeprom_init(nic_eeprom *e, nic *n, uint32_t size, uint8_t fill, uint64_t op_ticks);
/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_eeprom_state;
void nic_eeprom_fini(nic_eeprom *e);
/* The engine goes idle; the contents stay. */
void nic_eeprom_reset(nic_eeprom *e);
uint8_t nic_eeprom_get(const nic_eeprom *e, uint32_t addr);
void nic_eeprom_put(nic_eeprom *e, uint32_t addr, uint8_t v);
void nic_eeprom_put_mac(nic_eeprom *e, uint32_t addr, const uint8_t mac[6]);
/* Byte engine: start a read; busy for op_ticks, then result = byte. */
void nic_eeprom_start_read(nic_eeprom *e, uint32_t addr);
/* Little-endian 16-bit words. */
uint16_t nic_eeprom_word(const nic_eeprom *e, unsigned word);
void nic_eeprom_set_word(nic_eeprom *e, unsigned word, uint16_t v);
/* Set word `csum_word` so that words 0..csum_word sum to `target` (8254x: 0xBABA). */
void nic_eeprom_fix_checksum(nic_eeprom *e, unsigned csum_word, uint16_t target);

/* Microwire serial EEPROM (93C46: 6 address bits, 93C66: 8), read command
 * only; other commands are decoded and ignored ([INF]: drivers only read). */
enum nic_uwire_state { UW_IDLE, UW_CMD, UW_READ };
typedef struct nic_uwire {
    nic_eeprom *e;
    unsigned addr_bits;
    bool cs, sk, dout;
    enum nic_uwire_state state; /* idle, command, data out */
    uint32_t shift;
    unsigned nbits;
    uint16_t word;
    unsigned word_addr, out_bits;
} nic_uwire;

void nic_uwire_init(nic_uwire *u, nic_eeprom *e, unsigned addr_bits);
/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_uwire_state;
/* New pin levels from the driver (chip select, clock, data in); data moves
 * on the rising edge of the clock. */
void nic_uwire_pins(nic_uwire *u, bool cs, bool sk, bool din);
static inline bool nic_uwire_dout(const nic_uwire *u) { return u->dout; }

#endif
