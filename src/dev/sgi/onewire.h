/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A 1-wire (MicroLAN) bus, the SGI master register that drives it, and the
 * DS2505 add-only memory SGI boards carry as their "NIC" (number in a can).
 * See docs/hardware.md, "NIC: 1-wire bus and DS2505".
 *
 * The bus works at time-slot level: the master starts a reset or a bit slot,
 * every slave says whether it pulls the line low, the line is the wired AND,
 * and every slave then samples it.  Bytes go least significant bit first.
 * The Bridge NIC register, the IOC3 MCR and the HUB MD_MLAN_CTL share the SGI
 * master register format (ow_mcr), whose slots take their real time. */
#ifndef XBOW_ONEWIRE_H
#define XBOW_ONEWIRE_H

#include "core/common.h"
#include "core/dev.h"
#include "core/sched.h"

typedef struct ow_slave ow_slave;

typedef struct ow_slave_ops {
    /* A reset pulse; return true to answer with a presence pulse. */
    bool (*reset)(ow_slave *s);
    /* Start of a bit slot: 0 = pull the line low, 1 = leave it released. */
    int (*drive)(ow_slave *s);
    /* End of the slot: the line level every device saw. */
    void (*sample)(ow_slave *s, int line);
} ow_slave_ops;

struct ow_slave {
    const ow_slave_ops *ops;
    ow_slave *next;
};

typedef struct ow_bus {
    ow_slave *slaves;
    uint64_t resets, slots; /* statistics */
} ow_bus;

void ow_bus_init(ow_bus *b);
void ow_bus_attach(ow_bus *b, ow_slave *s);
/* Reset pulse; true if some device answered with a presence pulse. */
bool ow_reset(ow_bus *b);
/* One slot: bit 1 = write 1 / read slot, bit 0 = write 0.  Returns the line. */
int ow_touch_bit(ow_bus *b, int bit);
uint8_t ow_touch_byte(ow_bus *b, uint8_t byte);
/* The state of an ow_bus, an ow_mcr and a ds2505, for the models that
 * embed them (STATE_PART). */
extern const state_table ow_bus_state, ow_mcr_state, ds2505_state;

/* SGI MicroLAN master register (the Bridge NIC register, the IOC3 MCR, the
 * HUB MD_MLAN_CTL; Linux sgi_w1.c, IRIX nic.c).  A write of
 * pulse<<10 | sample<<2 runs one slot: the master pulls the line low for
 * `pulse` microseconds, releases it, samples it `sample` microseconds later,
 * and only then shows DONE (bit 1) with the sampled line (bit 0).  Until
 * then reads show the timing fields with DONE and RD_DATA clear; drivers
 * poll for DONE.  Times run on the virtual clock. */
#define OW_MCR_RD_DATA 0x1u
#define OW_MCR_DONE 0x2u
#define OW_MCR_PACK(pulse, sample) ((uint32_t)(pulse) << 10 | (uint32_t)(sample) << 2)
#define OW_MCR_PULSE(v) (((v) >> 10) & 0x3ffu)
#define OW_MCR_SAMPLE(v) (((v) >> 2) & 0xffu)

typedef struct ow_mcr {
    ow_bus *bus;
    const sched *clock;
    uint32_t fields;  /* timing fields of the last slot */
    uint32_t result;  /* DONE and the sampled line, visible from done_at */
    uint64_t done_at; /* virtual time the last slot ends */
} ow_mcr;

void ow_mcr_init(ow_mcr *m, ow_bus *b, const sched *clock);
/* Chip reset: no slot in progress; the register reads 0. */
void ow_mcr_reset(ow_mcr *m);
/* Start a slot.  A write while a slot is still running starts the new one
 * at once; the unfinished slot's sample is lost [INF]. */
void ow_mcr_write(ow_mcr *m, uint32_t val);
/* The register as the driver reads it now (no side effects). */
uint32_t ow_mcr_read(const ow_mcr *m);
/* How long a slot takes, in microseconds: pulse + sample. */
static inline unsigned ow_mcr_slot_us(uint32_t val)
{
    return OW_MCR_PULSE(val) + OW_MCR_SAMPLE(val);
}

/* Dallas CRCs: CRC8 (x^8+x^5+x^4+1) of ROM ids, CRC16 (x^16+x^15+x^2+1,
 * reflected, Linux crc16()) of memory transfers.  A block followed by its
 * transmitted (inverted, little-endian) CRC16 checks to OW_CRC16_VALID. */
uint8_t ow_crc8(const uint8_t *p, size_t n);
uint8_t ow_crc8_add(uint8_t crc, uint8_t byte);
uint16_t ow_crc16(uint16_t crc, const uint8_t *p, size_t n);
#define OW_CRC16_VALID 0xb001

/* ---- DS2505: 16 Kbit add-only memory, family 0x0b ----------------------- */
/* The same model also plays the smaller add-only memories of the DS2502
 * class (ds2502_init): the DS1981U / DS2501 (family 0x91, 512 bits) that
 * carries an SGI board's Ethernet address, and the DS2502 (0x09/0x89, 1 Kbit).
 * They protect their streams with CRC8 instead of CRC16 and know READ
 * MEMORY 0xF0, READ DATA 0xC3 and READ STATUS 0xAA (see ds2502_init). */

#define DS2505_FAMILY 0x0b
#define DS2505_MEM_SIZE 2048
#define DS2505_PAGE_SIZE 32
#define DS2505_STATUS_SIZE 0x200

enum ds2505_state {
    DS_IDLE,      /* not selected: waits for a reset */
    DS_ROM_CMD,   /* receiving a ROM function command */
    DS_ROM_MATCH, /* receiving the 64-bit id of MATCH ROM */
    DS_ROM_SEND,  /* sending the id (READ ROM) */
    DS_SEARCH,    /* SEARCH ROM: bit, complement, direction */
    DS_MEM_CMD,   /* receiving a memory function command */
    DS_MEM_ADDR,  /* receiving the two target address bytes */
    DS_MEM_SEND,  /* sending a memory/status stream */
};

typedef struct ds2505 {
    ow_slave slave;
    /* Configuration (the constructor's): memory size in bytes and whether the
     * part speaks the DS2502 class's CRC8 protocol. */
    uint16_t mem_size;
    bool crc8;
    uint8_t rom[8];                     /* family, 48-bit serial (LSB first), CRC8 */
    uint8_t mem[DS2505_MEM_SIZE];       /* EPROM data (unprogrammed bytes are 0xff) */
    uint8_t status[DS2505_STATUS_SIZE]; /* status memory; 0x100+page = redirection byte */
    /* protocol state */
    enum ds2505_state state;
    unsigned bit;     /* bit position in the current byte or id */
    uint8_t rx;       /* byte being received */
    uint8_t cmd;      /* memory command */
    uint16_t addr;    /* current address of the stream */
    uint8_t tx;       /* byte being sent */
    int search_phase; /* SEARCH ROM: 0 = bit, 1 = complement, 2 = direction */
    uint16_t crc;     /* running CRC16 of the stream */
    uint8_t queue[2]; /* CRC bytes to send before the next data byte */
    unsigned nqueue, qpos;
    bool redir_due; /* extended read: a page's redirection byte comes next */
    bool ended;     /* past the end of the stream: send 1s */
} ds2505;

void ds2505_init(ds2505 *d, uint64_t serial48);
/* A DS2502-class part: `family` (0x91 DS1981U/DS2501, 0x09/0x89 DS2502),
 * `mem_size` bytes of memory (64 or 128), 8 bytes of status.  After the
 * command and its two address bytes the part sends the CRC8 of those three
 * bytes, then data: READ MEMORY (0xF0) to the end of memory followed by the
 * CRC8 of the data, READ DATA (0xC3) with the CRC8 of the data sent so far
 * after each 32-byte page, READ STATUS (0xAA) to the end of the status
 * followed by its CRC8 (Linux w1_ds250x.c reads page by page with 0xC3). */
void ds2502_init(ds2505 *d, uint8_t family, uint64_t serial48, unsigned mem_size);
/* The first 16 bytes of SGI's Ethernet-address NIC as Linux's ioc3-eth and
 * OpenBSD's owmac read it: byte 0 = 0x0A, bytes 1-4 zero [UNC], the address
 * at bytes 10..5 (byte 10 = the first octet on the wire), bytes 11-12 the
 * inverted CRC16 of bytes 0-10 (LSB first), the rest of the page 0xFF. */
void sgi_mac_nic_format(uint8_t mem[32], const uint8_t mac[6]);
#define SGI_MAC_NIC_FAMILY 0x91
#define SGI_MAC_NIC_SIZE \
    64 /* Fill the first 64 bytes of memory in the SGI NIC layout (two pages, each
 * ending with its inverted CRC16): 0x01, serial at 1.., part number with its
 * first characters right-aligned in bytes 11..29 and the rest in 32..37,
 * board name at 48..61.  Linux's bridge_get_partnum() reads the part number
 * back (spaces stripped); OpenBSD's owserial reads serial, part and name.
 * Returns -1 if the part number is longer than 25 characters. */
int sgi_nic_format(uint8_t mem[64], const char *serial, const char *partnum, const char *name);

#endif
