/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Link state and the clause-22 PHY register file.  See nic_phy.h. */
#include "dev/nic/nic_phy.h"

static void link_set(nic_link *l, bool up, bool notify)
{
    bool changed = l->up != up;
    l->up = up;
    if (!changed || !notify)
        return;
    l->changes++;
    EVENT_EMIT(nic_ev(l->n, NIC_EV_LINK), nic_initiator(l->n), up, l->an_done);
    if (l->changed)
        l->changed(l->n);
}

static void an_complete(void *opaque)
{
    nic_link *l = opaque;
    l->an_busy = false;
    if (!l->carrier || l->admin_down)
        return; /* nobody to negotiate with: stays down until a partner appears */
    l->an_done = true;
    link_set(l, true, true);
}

static void an_start(nic_link *l)
{
    l->an_busy = true;
    l->an_done = false;
    link_set(l, false, true);
    timer_mod(l->n->clock, &l->an_timer, nic_now(l->n) + l->an_ticks);
}

void nic_link_init(nic_link *l, nic *n, uint64_t an_ticks, void (*changed)(nic *n))
{
    memset(l, 0, sizeof *l);
    l->n = n;
    l->an_ticks = an_ticks;
    l->changed = changed;
    timer_init(&l->an_timer, "nic-autoneg", an_complete, l);
    n->link = l;
}

void nic_link_fini(nic_link *l)
{
    if (l->n)
        timer_del(l->n->clock, &l->an_timer);
}

void nic_link_reset(nic_link *l)
{
    timer_del(l->n->clock, &l->an_timer);
    l->an_enable = false;
    l->an_busy = false;
    l->an_done = false;
    l->up = l->carrier && !l->admin_down;
}

void nic_link_set_admin(nic_link *l, bool up)
{
    l->admin_down = !up;
    if (!up) {
        timer_del(l->n->clock, &l->an_timer);
        l->an_busy = false;
        l->an_done = false;
        link_set(l, false, true);
        return;
    }
    if (!l->carrier)
        return;
    if (l->an_enable)
        an_start(l);
    else
        link_set(l, true, true);
}

void nic_link_set_carrier(nic_link *l, bool on)
{
    l->carrier = on;
    if (!on || l->admin_down) {
        l->an_done = false;
        link_set(l, false, true);
        return;
    }
    if (l->an_enable)
        an_start(l);
    else
        link_set(l, true, true);
}

void nic_link_autoneg(nic_link *l, bool enable, bool restart)
{
    bool was = l->an_enable;
    l->an_enable = enable;
    if (!enable) {
        timer_del(l->n->clock, &l->an_timer);
        l->an_busy = false;
        l->an_done = false;
        link_set(l, l->carrier && !l->admin_down, true);
        return;
    }
    if (l->admin_down)
        return;
    if (!was || restart)
        an_start(l);
}

/* ---- clause-22 register file ---------------------------------------------- */

void nic_mii_init(nic_mii *m, nic_link *link, uint8_t addr, uint32_t phy_id)
{
    memset(m, 0, sizeof *m);
    m->link = link;
    m->addr = addr;
    m->rst[MII_BMCR] = BMCR_ANENABLE | 0x0100 | 0x0040; /* AN, full duplex, 1000 Mb/s */
    m->rst[MII_BMSR] = 0x7949; /* 10/100 abilities, ext status, AN ability, ext caps */
    m->rst[MII_PHYID1] = (uint16_t)(phy_id >> 16);
    m->rst[MII_PHYID2] = (uint16_t)phy_id;
    m->rst[MII_ANAR] = 0x01e1;     /* 10/100 half/full, selector 802.3 */
    m->rst[MII_CTRL1000] = 0x0300; /* advertise 1000 full/half */
    m->rst[MII_ESTATUS] = 0x3000;  /* 1000BASE-T full/half */
    m->wmask[MII_BMCR] = 0xffff;
    m->wmask[MII_ANAR] = 0x3fff;
    m->wmask[MII_CTRL1000] = 0xff00;
    for (unsigned r = 16; r < 32; r++)
        m->wmask[r] = 0xffff; /* vendor registers: plain storage */
    nic_mii_reset(m);
}

void nic_mii_update(nic_mii *m)
{
    nic_link *l = m->link;
    uint16_t bmsr = m->regs[MII_BMSR] & ~(BMSR_LSTATUS | BMSR_ANEGCOMPLETE);
    if (l && l->up)
        bmsr |= BMSR_LSTATUS;
    else
        m->latched_down = true;
    if (l && l->an_done)
        bmsr |= BMSR_ANEGCOMPLETE;
    m->regs[MII_BMSR] = bmsr;
    bool partner = l && l->an_done;
    /* [INF] the partner mirrors our abilities and acknowledges (bit 14). */
    m->regs[MII_ANLPAR] = partner ? (uint16_t)(m->regs[MII_ANAR] | 0x4000) : 0;
    m->regs[MII_ANER] = partner ? 0x0001 : 0;
    m->regs[MII_STAT1000] =
        partner ? (uint16_t)(0x3000 | ((m->regs[MII_CTRL1000] & 0x0300) << 2)) : 0;
}

void nic_mii_reset(nic_mii *m)
{
    memcpy(m->regs, m->rst, sizeof m->regs);
    m->latched_down = false;
    nic_mii_update(m);
}

uint16_t nic_mii_read(nic_mii *m, unsigned reg, bool peek)
{
    reg &= 31;
    uint16_t v = m->regs[reg];
    if (reg == MII_BMSR && m->latched_down) {
        v &= ~BMSR_LSTATUS; /* latched low: the next read shows the current state */
        if (!peek)
            m->latched_down = false;
    }
    return v;
}

void nic_mii_write(nic_mii *m, unsigned reg, uint16_t v)
{
    reg &= 31;
    if (reg == MII_BMCR && (v & BMCR_RESET)) {
        if (m->reset_keeps_regs) {
            uint16_t bmcr =
                (uint16_t)((m->regs[MII_BMCR] & ~m->wmask[MII_BMCR]) | (v & m->wmask[MII_BMCR]));
            m->regs[MII_BMCR] = bmcr & (uint16_t) ~(BMCR_RESET | BMCR_ANRESTART);
            m->latched_down = false;
            if (m->link)
                nic_link_autoneg(m->link, (bmcr & BMCR_ANENABLE) != 0, true);
            nic_mii_update(m);
            return;
        }
        nic_mii_reset(m);
        if (m->link)
            nic_link_autoneg(m->link, true, true);
        return;
    }
    m->regs[reg] = (uint16_t)((m->regs[reg] & ~m->wmask[reg]) | (v & m->wmask[reg]));
    if (reg == MII_BMCR) {
        m->regs[MII_BMCR] &= ~BMCR_ANRESTART; /* self-clearing */
        if (m->link)
            nic_link_autoneg(m->link, (v & BMCR_ANENABLE) != 0, (v & BMCR_ANRESTART) != 0);
    }
    nic_mii_update(m);
}

/* ---- bit-banged management interface ---------------------------------------- */

void nic_mdio_init(nic_mdio *m, bool (*read)(void *, unsigned, unsigned, uint16_t *),
                   void (*write)(void *, unsigned, unsigned, uint16_t), void *ctx)
{
    memset(m, 0, sizeof *m);
    m->read = read;
    m->write = write;
    m->ctx = ctx;
    nic_mdio_reset(m);
}

void nic_mdio_reset(nic_mdio *m)
{
    m->state = MDIO_IDLE;
    m->driving = false;
    m->out = true;
    m->nbits = 0;
    m->shift = 0;
}

/* One rising edge of MDC with `bit` on the line. */
static void mdio_clock(nic_mdio *m, bool bit)
{
    switch (m->state) {
    case MDIO_IDLE:
        if (!bit) /* first bit of the start pattern 01 (preamble is ones) */
            m->state = MDIO_START;
        break;
    case MDIO_START:
        if (bit) {
            m->state = MDIO_CMD;
            m->shift = 0;
            m->nbits = 0;
        } else {
            m->bad_frames++; /* 00: not a frame; wait for the next start */
            m->state = MDIO_IDLE;
        }
        break;
    case MDIO_CMD:
        m->shift = (m->shift << 1) | bit;
        if (++m->nbits < 12)
            break;
        m->op = (m->shift >> 10) & 3;
        m->phy = (m->shift >> 5) & 31;
        m->reg = m->shift & 31;
        m->nbits = 0;
        m->data = 0;
        if (m->op == 2) { /* read: the PHY answers from the next bit time */
            uint16_t v = 0xffff;
            bool present = m->read && m->read(m->ctx, m->phy, m->reg, &v);
            m->data = v;
            m->driving = present;
            m->out = true; /* first turnaround bit: released */
            m->state = MDIO_READ;
            m->frames++;
        } else if (m->op == 1) {
            m->state = MDIO_WRITE;
        } else {
            m->bad_frames++; /* opcodes 00/11 (clause 45 frames): ignored */
            m->state = MDIO_IDLE;
        }
        break;
    case MDIO_READ:
        m->nbits++;
        if (m->nbits == 1) {
            m->out = false; /* second turnaround bit */
        } else if (m->nbits <= 17) {
            m->out = (m->data >> (17 - m->nbits)) & 1;
        } else {
            m->driving = false;
            m->out = true;
            m->state = MDIO_IDLE;
        }
        break;
    case MDIO_WRITE:
        m->nbits++;
        if (m->nbits <= 2)
            break; /* turnaround 10, not checked */
        m->data = (uint16_t)((m->data << 1) | bit);
        if (m->nbits == 18) {
            m->frames++;
            if (m->write)
                m->write(m->ctx, m->phy, m->reg, m->data);
            m->state = MDIO_IDLE;
        }
        break;
    }
}

void nic_mdio_pins(nic_mdio *m, bool mdc, bool mdio, bool host_drives)
{
    if (mdc && !m->mdc)
        mdio_clock(m, nic_mdio_level(m, mdio, host_drives));
    m->mdc = mdc;
}

static const state_decl nic_link_decls[] = {
    STATE_WIRING(nic_link, n, "the NIC: nic_link_init"),
    STATE_BOOL(nic_link, carrier, "a partner (backend) is attached"),
    STATE_BOOL(nic_link, up, "the link is established"),
    STATE_BOOL(nic_link, an_enable, "autonegotiation enabled"),
    STATE_BOOL(nic_link, an_busy, "negotiating"),
    STATE_BOOL(nic_link, an_done, "negotiation complete"),
    STATE_BOOL(nic_link, admin_down, "the model holds the link down"),
    STATE_TIMER(nic_link, an_timer, "negotiation completes"),
    STATE_WIRING(nic_link, changed, "the model's hook: nic_link_init"),
    STATE_INT(nic_link, changes, "link changes"),
};
const state_table nic_link_state = STATE_TABLE(nic_link_decls, nic_link);

static const state_decl nic_mii_decls[] = {
    STATE_WIRING(nic_mii, link, "the link: nic_mii_init"),
    STATE_INTS(nic_mii, regs, "the PHY registers"),
    STATE_BOOL(nic_mii, latched_down, "BMSR link status reads 0 until read once"),
};
const state_table nic_mii_state = STATE_TABLE(nic_mii_decls, nic_mii);

static const state_decl nic_mdio_decls[] = {
    STATE_WIRING(nic_mdio, read, "the PHY's side: nic_mdio_init"),
    STATE_WIRING(nic_mdio, write, "the PHY's side: nic_mdio_init"),
    STATE_WIRING(nic_mdio, ctx, "the PHY's side: nic_mdio_init"),
    STATE_INT(nic_mdio, state, "frame state (enum nic_mdio_state)"),
    STATE_INT(nic_mdio, nbits, "bits shifted in or edges counted"),
    STATE_INT(nic_mdio, shift, "shift register"),
    STATE_INT(nic_mdio, op, "operation"),
    STATE_INT(nic_mdio, phy, "PHY address"),
    STATE_INT(nic_mdio, reg, "register"),
    STATE_INT(nic_mdio, data, "data"),
    STATE_BOOL(nic_mdio, mdc, "last MDC level"),
    STATE_BOOL(nic_mdio, driving, "the PHY drives MDIO"),
    STATE_BOOL(nic_mdio, out, "the level it drives"),
    STATE_INT(nic_mdio, frames, "frames"),
    STATE_INT(nic_mdio, bad_frames, "bad frames"),
};
const state_table nic_mdio_state = STATE_TABLE(nic_mdio_decls, nic_mdio);
