/* SPDX-License-Identifier: GPL-2.0-or-later */
/* e1000: the M88E1000-style PHY (clause-22 registers plus the Marvell
 * specific control/status registers), how the MAC reaches it (MDIC on the
 * 82544, MDIO bit-banged on CTRL SWDPIN2/SWDPIN3 on the 82543), PHY reset
 * (CTRL.PHY_RST on the 82544, CTRL_EXT SDP4 low on the 82543), speed and
 * duplex on both sides, and the MAC's view of the link (STATUS.LU, ICR.LSC).
 * See docs/hardware.md, "8254x PHY and link". */
#include "dev/nic/e1000/e1000.h"

#define E1000_AN_NS 2000000 /* autonegotiation time, 2 ms [INF] (real PHYs: seconds) */
#define PHY_ADDR 1          /* the PHY's MDIO address (Linux uses 1) */
#define M88_PSCR 16         /* PHY specific control */
#define M88_PSSR 17         /* PHY specific status (computed) */
#define M88_EPSCR 20        /* extended PHY specific control */
#define M88_RXERR 21        /* receive error counter */
/* PHY identifiers [SRC LX-E1000 e1000_hw.h]; revision 0 [UNC]. */
#define M88E1000_E_PHY_ID 0x01410c50u /* what Linux expects behind an 82543 */
#define M88E1000_I_PHY_ID 0x01410c30u /* the 82544's integrated PHY */

enum { SPEED_10, SPEED_100, SPEED_1000 };

/* ---- speed and duplex ----------------------------------------------------------- */

static bool an_enabled(const e1000 *h) { return h->mii.regs[MII_BMCR] & BMCR_ANENABLE; }

/* The PHY's speed: negotiated (the partner mirrors our abilities [INF], so
 * the best one we advertise wins), or forced by BMCR bits 6 and 13. */
unsigned e1000_phy_speed(const e1000 *h)
{
    const uint16_t *r = h->mii.regs;
    if (an_enabled(h)) {
        if (r[MII_CTRL1000] & 0x0300)
            return SPEED_1000;
        if (r[MII_ANAR] & 0x0180)
            return SPEED_100;
        return SPEED_10;
    }
    uint16_t bmcr = r[MII_BMCR];
    if (bmcr & 0x0040)
        return SPEED_1000;
    return (bmcr & 0x2000) ? SPEED_100 : SPEED_10;
}

static bool phy_full_duplex(const e1000 *h)
{
    const uint16_t *r = h->mii.regs;
    if (!an_enabled(h))
        return r[MII_BMCR] & 0x0100;
    switch (e1000_phy_speed(h)) {
    case SPEED_1000: return r[MII_CTRL1000] & 0x0200;
    case SPEED_100: return r[MII_ANAR] & 0x0100;
    default: return r[MII_ANAR] & 0x0040;
    }
}

/* The MAC's speed.  The 82543 cannot detect the PHY's speed: the driver
 * forces CTRL.SPEED/FD to the PHY's (e1000_config_mac_to_phy) [SRC LX-E1000];
 * the model always takes CTRL there [INF].  The 82544 follows the PHY unless
 * CTRL.FRCSPD/FRCDPX force it (SDM 8.6.2.2). */
unsigned e1000_speed(const e1000 *h)
{
    uint32_t ctrl = (uint32_t)DEV_R(h->n.dev, ER_CTRL);
    if (!e1000_is_82544(h) || (ctrl & E1000_CTRL_FRCSPD)) {
        unsigned s = (ctrl >> E1000_CTRL_SPD_SHIFT) & 3;
        return s == 3 ? SPEED_1000 : s;
    }
    return e1000_phy_speed(h);
}

bool e1000_full_duplex(const e1000 *h)
{
    uint32_t ctrl = (uint32_t)DEV_R(h->n.dev, ER_CTRL);
    if (!e1000_is_82544(h) || (ctrl & E1000_CTRL_FRCDPX))
        return ctrl & E1000_CTRL_FD;
    return phy_full_duplex(h);
}

bool e1000_speed_ok(const e1000 *h) { return e1000_speed(h) == e1000_phy_speed(h); }

/* ---- the MAC's view of the link ------------------------------------------------ */

/* STATUS.LU: the PHY has link and software set CTRL.SLU ("Software MUST set
 * CTRL.SLU before the Ethernet controller recognizes the link", SDM 8.6.2.1).
 * A change raises LSC. */
void e1000_link_update(e1000 *h)
{
    bool slu = DEV_R(h->n.dev, ER_CTRL) & E1000_CTRL_SLU;
    bool lu = slu && h->link.up && !h->phy_in_reset;
    if (lu == h->lu)
        return;
    h->lu = lu;
    nic_irq_assert(&h->n, E1000_ICR_LSC);
    e1000_tx_kick(h);
    e1000_rx_kick(h);
}

static void link_changed(nic *n)
{
    e1000 *h = (e1000 *)n;
    nic_mii_update(&h->mii);
    e1000_link_update(h);
}

/* ---- PHY registers ------------------------------------------------------------- */

static uint16_t pssr(const e1000 *h)
{
    bool up = h->link.up && !h->phy_in_reset;
    uint16_t v = (uint16_t)(e1000_phy_speed(h) << 14);
    if (phy_full_duplex(h))
        v |= 0x2000;
    if (up)
        v |= 0x0c00; /* speed and duplex resolved, real-time link */
    return v;
}

/* Register read as the PHY answers it; false when nothing answers (the
 * PHY is held in reset or `phy` is not its address). */
static bool phy_read(e1000 *h, unsigned phy, unsigned reg, uint16_t *val, bool peek)
{
    *val = 0xffff;
    if (phy != PHY_ADDR || h->phy_in_reset)
        return false;
    reg &= 31;
    if (reg == M88_PSSR)
        *val = pssr(h);
    else if (reg == M88_RXERR)
        *val = 0; /* no receive errors on a virtual cable */
    else
        *val = nic_mii_read(&h->mii, reg, peek);
    return true;
}

static void phy_write(e1000 *h, unsigned phy, unsigned reg, uint16_t v)
{
    if (phy != PHY_ADDR || h->phy_in_reset)
        return;
    reg &= 31;
    if (reg == M88_PSSR || reg == M88_RXERR)
        return; /* read-only */
    nic_mii_write(&h->mii, reg, v);
    e1000_link_update(h);
}

static void mdio_event(e1000 *h, int via, bool write, unsigned phy, unsigned reg, uint16_t v,
                       bool error)
{
    EVENT_EMIT(nic_ev(&h->n, E1000_EV_MDIO), nic_initiator(&h->n), (uint64_t)via, write, phy, reg,
               v, error);
}

/* The bit-bang decoder's view of the bus. */
static bool bb_read(void *ctx, unsigned phy, unsigned reg, uint16_t *val)
{
    e1000 *h = ctx;
    bool ok = phy_read(h, phy, reg, val, false);
    mdio_event(h, 1, false, phy, reg, *val, !ok);
    return ok;
}

static void bb_write(void *ctx, unsigned phy, unsigned reg, uint16_t val)
{
    e1000 *h = ctx;
    mdio_event(h, 1, true, phy, reg, val, phy != PHY_ADDR || h->phy_in_reset);
    phy_write(h, phy, reg, val);
}

/* Power-on values of the Marvell registers [SRC Q-E1000 phy_reg_init]. */
static void m88_defaults(e1000 *h)
{
    nic_mii *m = &h->mii;
    m->rst[M88_PSCR] = 0x0360;
    m->rst[M88_EPSCR] = 0x0d60;
    m->regs[M88_PSCR] = m->rst[M88_PSCR];
    m->regs[M88_EPSCR] = m->rst[M88_EPSCR];
}

static void mdic_done(void *opaque);

void e1000_phy_init(e1000 *h)
{
    nic *n = &h->n;
    nic_link_init(&h->link, n, sched_ns_to_ticks(n->clock, E1000_AN_NS), link_changed);
    nic_mii_init(&h->mii, &h->link, PHY_ADDR,
                 e1000_is_82544(h) ? M88E1000_I_PHY_ID : M88E1000_E_PHY_ID);
    h->mii.reset_keeps_regs = true; /* M88 software reset keeps the configuration */
    m88_defaults(h);
    nic_mdio_init(&h->mdio, bb_read, bb_write, h);
    timer_init(&h->mdic_timer, "e1000-mdic", mdic_done, h);
}

/* Hardware reset of the PHY: registers to power-on values, negotiation
 * restarts (it completes an_ticks later if a partner is attached). */
void e1000_phy_reset(e1000 *h)
{
    timer_del(h->n.clock, &h->mdic_timer);
    h->phy_in_reset = false;
    nic_mii_reset(&h->mii);
    m88_defaults(h);
    nic_mdio_reset(&h->mdio);
    nic_link_autoneg(&h->link, true, true);
    nic_mii_update(&h->mii);
}

static void phy_reset_line(e1000 *h, bool asserted)
{
    if (asserted == h->phy_in_reset)
        return;
    if (asserted) {
        h->phy_in_reset = true;
        nic_mdio_reset(&h->mdio);
    } else {
        e1000_phy_reset(h); /* leaving reset: power-on state */
    }
    e1000_link_update(h);
}

/* ---- CTRL, CTRL_EXT -------------------------------------------------------------- */

void e1000_ctrl_written(e1000 *h, uint32_t v, uint32_t old)
{
    if (e1000_is_82544(h)) {
        phy_reset_line(h, v & E1000_CTRL_PHY_RST);
    } else {
        /* 82543: MDC on SWDPIN3 (moves only while SWDPIO3 makes it an
         * output), MDIO on SWDPIN2 driven while SWDPIO2 is set. */
        bool mdc = (v & E1000_CTRL_SWDPIO3) ? (v & E1000_CTRL_SWDPIN3) != 0 : h->mdio.mdc;
        if (!h->phy_in_reset)
            nic_mdio_pins(&h->mdio, mdc, v & E1000_CTRL_SWDPIN2, v & E1000_CTRL_SWDPIO2);
    }
    e1000_link_update(h);
}

/* CTRL as read: on the 82543 an input SWDPIN2 shows the MDIO line. */
uint32_t e1000_ctrl_pins(const e1000 *h, uint32_t v)
{
    if (e1000_is_82544(h) || (v & E1000_CTRL_SWDPIO2))
        return v;
    bool level = nic_mdio_level(&h->mdio, false, false);
    return level ? v | E1000_CTRL_SWDPIN2 : v & ~E1000_CTRL_SWDPIN2;
}

void e1000_ctrl_ext_written(e1000 *h, uint32_t v, uint32_t old)
{
    if (!e1000_is_82544(h)) /* 82543: SDP4 driven low holds the PHY in reset */
        phy_reset_line(h, (v & E1000_CTRL_EXT_SDP4_DIR) && !(v & E1000_CTRL_EXT_SDP4_DATA));
}

/* ---- MDIC (82544) ---------------------------------------------------------------- */

/* The MDIO frame completes mdic_ticks after the write: READY, the data of
 * a read, ERROR when no PHY answers, MDAC if INT_EN. */
static void mdic_done(void *opaque)
{
    e1000 *h = opaque;
    device *d = h->n.dev;
    uint32_t v = (uint32_t)DEV_R(d, ER_MDIC);
    unsigned phy = (v >> 21) & 31, reg = (v >> 16) & 31;
    bool error = false;
    if (v & E1000_MDIC_OP_READ) {
        uint16_t data;
        error = !phy_read(h, phy, reg, &data, false);
        v = (v & ~0xffffu) | (error ? 0 : data);
        mdio_event(h, 0, false, phy, reg, data, error);
    } else {
        mdio_event(h, 0, true, phy, reg, (uint16_t)v, phy != PHY_ADDR || h->phy_in_reset);
        phy_write(h, phy, reg, (uint16_t)v);
    }
    h->mdic_ops++;
    DEV_R(d, ER_MDIC) = v | E1000_MDIC_READY | (error ? E1000_MDIC_ERROR : 0);
    if (v & E1000_MDIC_INT_EN)
        nic_irq_assert(&h->n, E1000_ICR_MDAC);
}

void e1000_mdic_written(e1000 *h, uint32_t v)
{
    device *d = h->n.dev;
    uint32_t op = v & (E1000_MDIC_OP_READ | E1000_MDIC_OP_WRITE);
    if (op != E1000_MDIC_OP_READ && op != E1000_MDIC_OP_WRITE) {
        /* No operation (opcode 00 or 11): nothing starts [INF]. */
        DEV_R(d, ER_MDIC) = (v & ~(E1000_MDIC_ERROR)) | E1000_MDIC_READY;
        return;
    }
    DEV_R(d, ER_MDIC) = v & ~(E1000_MDIC_READY | E1000_MDIC_ERROR);
    timer_mod(h->n.clock, &h->mdic_timer, nic_now(&h->n) + h->mdic_ticks);
}

/* ---- the "phy" view ---------------------------------------------------------------- */

void e1000_view_phy(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    e1000 *h = E1000(d);
    static const char *const sp[] = {"10", "100", "1000"};
    sb_printf(out, "%s PHY %08x at MDIO address %d via %s%s\n", d->name,
              e1000_is_82544(h) ? M88E1000_I_PHY_ID : M88E1000_E_PHY_ID, PHY_ADDR,
              e1000_is_82544(h) ? "MDIC" : "bit-banged MDIO (CTRL SWDPIN2/3)",
              h->phy_in_reset ? ", HELD IN RESET" : "");
    sb_printf(out,
              "  link: cable %s, PHY %s, autonegotiation %s%s; MAC STATUS.LU=%d (CTRL.SLU=%d)\n",
              h->link.carrier ? "attached" : "absent", h->link.up ? "up" : "down",
              an_enabled(h) ? "on" : "off (forced)",
              h->link.an_busy   ? " (negotiating)"
              : h->link.an_done ? " (complete)"
                                : "",
              h->lu, (int)(DEV_R(d, ER_CTRL) & E1000_CTRL_SLU ? 1 : 0));
    sb_printf(out, "  PHY %s Mb/s %s duplex; MAC %s Mb/s %s duplex%s\n", sp[e1000_phy_speed(h)],
              phy_full_duplex(h) ? "full" : "half", sp[e1000_speed(h)],
              e1000_full_duplex(h) ? "full" : "half",
              e1000_speed_ok(h) ? "" : "  SPEED MISMATCH: frames do not pass");
    for (unsigned r = 0; r < 22; r++) {
        uint16_t v;
        if (r == 7 || r == 8 || (r > 10 && r < 15) || r == 18 || r == 19)
            continue;
        phy_read(h, PHY_ADDR, r, &v, true);
        sb_printf(out, "  reg %2u = 0x%04x%s", r, v, (r % 4 == 3) ? "\n" : "");
    }
    sb_printf(out,
              "\n  MDIO frames %llu (malformed %llu), MDIC operations %llu, frames dropped "
              "for a speed mismatch %llu\n",
              (unsigned long long)h->mdio.frames, (unsigned long long)h->mdio.bad_frames,
              (unsigned long long)h->mdic_ops, (unsigned long long)h->speed_mismatch);
}
