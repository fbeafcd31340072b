/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test environment for the e1000 models: a NIC on the fake PCI host with a
 * fake wire, register access, the Linux driver's bit-bang sequences (EEPROM,
 * MDIO), MDIC, ring set-up, frame builders and checksum helpers. */
#ifndef XBOW_TEST_E1000_ENV_H
#define XBOW_TEST_E1000_ENV_H

#include <check.h>

#include "dev/nic/e1000/e1000.h"
#include "../nic_fake.h"

/* Register offsets (the SDM, Linux e1000_hw.h). */
/* clang-format off */
enum {
    CTRL = 0x0000, STATUS = 0x0008, EECD = 0x0010, EERD = 0x0014, CTRL_EXT = 0x0018,
    MDIC = 0x0020, VET = 0x0038, ICR = 0x00c0, ICS = 0x00c8, IMS = 0x00d0, IMC = 0x00d8,
    RCTL = 0x0100, TCTL = 0x0400, TIPG = 0x0410, PBA = 0x1000, RDBAL = 0x2800, RDBAH = 0x2804,
    RDLEN = 0x2808, RDH = 0x2810, RDT = 0x2818, RDTR = 0x2820, RADV = 0x282c, TDBAL = 0x3800,
    TDBAH = 0x3804, TDLEN = 0x3808, TDH = 0x3810, TDT = 0x3818, TIDV = 0x3820, TADV = 0x382c,
    ITR = 0x00c4, RXCSUM = 0x5000, MTA = 0x5200, RAL0 = 0x5400, RAH0 = 0x5404, VFTA = 0x5600,
    MPC = 0x4010, GPRC = 0x4074, BPRC = 0x4078, MPRC = 0x407c, GPTC = 0x4080, GORCL = 0x4088,
    GORCH = 0x408c, GOTCL = 0x4090, GOTCH = 0x4094, RNBC = 0x40a0, ROC = 0x40ac, TPR = 0x40d0,
    TPT = 0x40d4, PTC64 = 0x40d8, PRC64 = 0x405c, PRC1522 = 0x4070, TSCTC = 0x40f8,
    TSCTFC = 0x40fc
};
/* clang-format on */

#define US(x) ((uint64_t)(x)*180)
#define TXRING (FAKE_LO + 0x1000)
#define RXRING (FAKE_LO + 0x3000)
#define TXBUF(i) (FAKE_LO + 0x10000 + (uint64_t)(i)*0x800)
#define RXBUF(i) (FAKE_LO + 0x80000 + (uint64_t)(i)*0x4000)
#define RXBUF_SIZE 0x4000

typedef struct e1000_env {
    NIC_RIG;
    e1000 *h;
    bool hi; /* buffers and rings in the 64-bit window */
} e1000_env;

extern e1000_env E;
extern const uint8_t MYMAC[6];
extern const uint8_t PEER[6];
extern const uint8_t BCAST[6];

/* A NIC of `model` on the fake host; spec NULL = the fake wire, otherwise
 * a real backend opened by the factory. */
void env_open(const char *model, const char *spec);
void env_close(void);
void wr(unsigned off, uint32_t v);
uint32_t rd(unsigned off);
uint64_t win(uint64_t lo_addr);
/* Register access through the 82544's I/O window (IOADDR/IODATA). */
void io_wr(unsigned off, uint32_t v);
uint32_t io_rd(unsigned off);

/* Linux's bit-banged Microwire read of one EEPROM word. */
uint16_t ee_read(unsigned word);
/* PHY registers through MDIC (82544): polls READY like Linux; returns the
 * MDIC value (ERROR bit included). */
uint32_t mdic_rd(unsigned phy, unsigned reg);
uint32_t mdic_wr(unsigned phy, unsigned reg, uint16_t v);
/* PHY registers through the bit-banged pins (82543), Linux's sequence. */
uint16_t bb_rd(unsigned phy, unsigned reg);
void bb_wr(unsigned phy, unsigned reg, uint16_t v);
uint16_t phy_rd(unsigned reg); /* either way, PHY address 1 */
void phy_wr(unsigned reg, uint16_t v);

/* Bring the link up the way Linux does (SLU, autonegotiation restart,
 * 82543: MAC forced to the PHY's speed), wait for it. */
void link_up(void);
/* Rings: ntx Tx descriptors, nrx Rx descriptors (all posted except one),
 * RCTL/TCTL enabled with the given extra bits, interrupts enabled. */
void open_rings(unsigned ntx, unsigned nrx, uint32_t rctl_extra);
/* The part as a driver leaves it: env_open, link_up, open_rings(ntx, nrx, 0). */
void env_up(const char *model, const char *spec, unsigned ntx, unsigned nrx);
/* Post Tx descriptor i: legacy when dext is false. */
void tx_desc(unsigned i, uint64_t buf, uint32_t w2, uint32_t w3);
void tx_legacy(unsigned i, unsigned ntx, const uint8_t *f, uint32_t len, uint32_t cmd);
uint32_t tx_status(unsigned i);
void rx_desc(unsigned i, uint64_t buf);
uint32_t rx_w2(unsigned i);
uint32_t rx_w3(unsigned i);
uint8_t *rx_buf(unsigned i);

void make_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k);
/* Ethernet + IPv4 + UDP or TCP frame with a payload of plen bytes;
 * returns the frame length. */
uint32_t make_ip(uint8_t *f, bool tcp, uint32_t plen, uint16_t ip_id, uint32_t seq);
bool ip_csum_ok(const uint8_t *f);
bool l4_csum_ok(const uint8_t *f, uint32_t len);

#endif
