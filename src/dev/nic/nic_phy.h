/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Link state and PHYs shared by the NIC models (docs/architecture.md, "NIC models").
 *
 * nic_link: is a partner attached (carrier = a backend), is autonegotiation
 * on, and is the link up.  With autonegotiation off the link follows the
 * carrier at once; turning it on or restarting it takes the link down and
 * brings it up `an_ticks` later (the autoneg-complete timer).  Every change
 * calls the model's hook (which raises its link-change cause) and publishes
 * <nic>.link.
 *
 * nic_mii: an IEEE 802.3 clause-22 register file (BMCR, BMSR, IDs, ANAR,
 * ANLPAR, 1000BASE-T control/status, extended status) wired to a nic_link:
 * BMCR reset and restart-AN self-clear, BMSR link status is latched low
 * until read, the partner's abilities appear when negotiation completes.
 *
 * nic_mdio: the clause-22 management frame decoder behind bit-banged MDC/MDIO
 * pins (8254x 82543: software-definable pins of CTRL), for the model's PHYs.
 */
#ifndef XBOW_NIC_PHY_H
#define XBOW_NIC_PHY_H

#include "dev/nic/nic.h"

typedef struct nic_link {
    nic *n;
    bool carrier;    /* a partner (backend) is attached */
    bool up;         /* the link is established */
    bool an_enable;  /* autonegotiation enabled */
    bool an_busy;    /* negotiating */
    bool an_done;    /* negotiation complete */
    bool admin_down; /* the model holds the link down (Tigon: until its
                         firmware enables the link); false by default */
    uint64_t an_ticks;
    timer an_timer;
    void (*changed)(nic *n); /* model hook, may be NULL */
    uint64_t changes;
} nic_link;

void nic_link_init(nic_link *l, nic *n, uint64_t an_ticks, void (*changed)(nic *n));
/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_link_state;
void nic_link_fini(nic_link *l);
/* Power-on state: autonegotiation off, link = carrier (and not admin_down);
 * no hook call.  admin_down is left as the model set it. */
void nic_link_reset(nic_link *l);
/* Let the link come up (negotiating first if autonegotiation is on), or
 * hold it down whatever the carrier. */
void nic_link_set_admin(nic_link *l, bool up);
void nic_link_set_carrier(nic_link *l, bool on);
/* Enable/disable autonegotiation; `restart` starts a new negotiation. */
void nic_link_autoneg(nic_link *l, bool enable, bool restart);

enum {
    MII_BMCR = 0,
    MII_BMSR = 1,
    MII_PHYID1 = 2,
    MII_PHYID2 = 3,
    MII_ANAR = 4,
    MII_ANLPAR = 5,
    MII_ANER = 6,
    MII_CTRL1000 = 9,
    MII_STAT1000 = 10,
    MII_ESTATUS = 15
};
#define BMCR_RESET 0x8000
#define BMCR_ANENABLE 0x1000
#define BMCR_ANRESTART 0x0200
#define BMSR_LSTATUS 0x0004
#define BMSR_ANEGCOMPLETE 0x0020

typedef struct nic_mii {
    nic_link *link;
    uint8_t addr; /* address on the MDIO bus */
    uint16_t regs[32];
    uint16_t rst[32];   /* reset values */
    uint16_t wmask[32]; /* writable bits */
    bool latched_down;  /* BMSR link status reads 0 until read once */
    /* BMCR reset keeps the configuration and applies the BMCR value written
     * with it (Marvell-style software reset); false = back to reset values. */
    bool reset_keeps_regs;
} nic_mii;

void nic_mii_init(nic_mii *m, nic_link *link, uint8_t addr, uint32_t phy_id);
/* Its state, for the models that embed one (STATE_PART; the reset values
 * and writable bits are configuration). */
extern const state_table nic_mii_state;
void nic_mii_reset(nic_mii *m);
/* Register access; a read with peek has no side effect. */
uint16_t nic_mii_read(nic_mii *m, unsigned reg, bool peek);
void nic_mii_write(nic_mii *m, unsigned reg, uint16_t v);
/* Reflect the link state into the registers (call from the link hook). */
void nic_mii_update(nic_mii *m);

/* A bit-banged clause-22 management interface.  The decoder shifts on
 * each rising edge of MDC: preamble (ones, optional), start 01, opcode (10
 * read, 01 write), PHY address, register address, turnaround, 16 data bits.
 * A read is answered when `read` finds a PHY at the address (otherwise the
 * line stays high, as with nothing on the bus).  After the rising edge that
 * completes the register address the PHY releases the line for the first
 * turnaround bit, drives 0 after the next edge, then one data bit after
 * each following edge (MSB first), and releases the line after the edge
 * that follows the last data bit.  A write is performed after its last
 * data bit. */
enum nic_mdio_state { MDIO_IDLE, MDIO_START, MDIO_CMD, MDIO_READ, MDIO_WRITE };
typedef struct nic_mdio {
    bool (*read)(void *ctx, unsigned phy, unsigned reg, uint16_t *val);
    void (*write)(void *ctx, unsigned phy, unsigned reg, uint16_t val);
    void *ctx;
    enum nic_mdio_state state;
    unsigned nbits; /* bits shifted in (command) or edges counted (data) */
    uint32_t shift;
    unsigned op, phy, reg;
    uint16_t data;
    bool mdc;     /* last MDC level */
    bool driving; /* the PHY drives MDIO */
    bool out;     /* the level it drives */
    uint64_t frames, bad_frames;
} nic_mdio;

/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_mdio_state;
void nic_mdio_init(nic_mdio *m, bool (*read)(void *, unsigned, unsigned, uint16_t *),
                   void (*write)(void *, unsigned, unsigned, uint16_t), void *ctx);
/* Idle, line released (a PHY reset or a chip reset). */
void nic_mdio_reset(nic_mdio *m);
/* The host's pins: MDC level, MDIO output level and whether the host
 * drives MDIO (its pin is an output). */
void nic_mdio_pins(nic_mdio *m, bool mdc, bool mdio, bool host_drives);
/* MDIO as the host reads it: its own level while it drives the pin, the
 * PHY's while the PHY drives, high (pulled up) when nobody does. */
static inline bool nic_mdio_level(const nic_mdio *m, bool mdio, bool host_drives)
{
    return host_drives ? mdio : m->driving ? m->out : true;
}

#endif
