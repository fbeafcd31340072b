/* SPDX-License-Identifier: GPL-2.0-or-later */
/* M48T35 TIMEKEEPER RTC/NVRAM: see m48t35.h. */
#include "dev/chip/m48t35.h"

#include <stdlib.h>
#include <time.h>

#define REG_BASE 0x7ff8
#define CTL_W 0x80
#define CTL_R 0x40
#define SEC_ST 0x80
#define DAY_CEB 0x20
#define DAY_CB 0x10
#define DAY_FT 0x40

/* Register ids: the clock registers in address order from REG_BASE. */
enum { RTC_CONTROL, RTC_SEC, RTC_MIN, RTC_HOUR, RTC_DAY, RTC_DATE, RTC_MONTH, RTC_YEAR, RTC_NREGS };

struct m48t35 {
    device *dev;
    sched *clock;
    int64_t epoch;  /* Unix time at virtual time 0 */
    int64_t offset; /* seconds added by the guest setting the clock */
    int year_base;
    bool stopped; /* oscillator stopped (ST) */
    uint64_t stop_ticks;
    uint8_t control;
    uint8_t day_bits; /* FT, CEB, CB as last written */
    int cb_century;   /* century (relative to year_base) when CB was written */
    bool frozen;      /* READ or WRITE holds the latch */
    uint8_t latch[8];
    uint8_t nvram[M48T35_SIZE];
};

static uint8_t bcd(unsigned v) { return (uint8_t)(((v / 10) % 10) << 4 | (v % 10)); }
static unsigned unbcd(uint8_t v) { return (v >> 4) * 10u + (v & 15u); }

int64_t m48t35_time(const m48t35 *r)
{
    uint64_t ticks = r->stopped ? r->stop_ticks : r->clock->now;
    return r->epoch + r->offset + (int64_t)(ticks / r->clock->hz);
}

/* The eight clock registers as the chip shows them now. */
static void live_regs(const m48t35 *r, uint8_t out[8])
{
    time_t t = (time_t)m48t35_time(r);
    struct tm tm;
    gmtime_r(&t, &tm);
    int years = tm.tm_year + 1900 - r->year_base;
    uint8_t day = r->day_bits & (DAY_FT | DAY_CEB | DAY_CB);
    if ((day & DAY_CEB) && (((years / 100) - r->cb_century) & 1))
        day ^= DAY_CB; /* CB toggles at each turn of the century */
    out[RTC_CONTROL] = r->control;
    out[RTC_SEC] = (uint8_t)(bcd((unsigned)tm.tm_sec) | (r->stopped ? SEC_ST : 0));
    out[RTC_MIN] = bcd((unsigned)tm.tm_min);
    out[RTC_HOUR] = bcd((unsigned)tm.tm_hour);
    out[RTC_DAY] = (uint8_t)(day | (tm.tm_wday + 1));
    out[RTC_DATE] = bcd((unsigned)tm.tm_mday);
    out[RTC_MONTH] = bcd((unsigned)tm.tm_mon + 1);
    out[RTC_YEAR] = bcd((unsigned)((years % 100 + 100) % 100));
}

/* WRITE cleared: the latch becomes the time. */
static void load_latch(m48t35 *r)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_sec = (int)unbcd(r->latch[RTC_SEC] & 0x7f);
    tm.tm_min = (int)unbcd(r->latch[RTC_MIN] & 0x7f);
    tm.tm_hour = (int)unbcd(r->latch[RTC_HOUR] & 0x3f);
    tm.tm_mday = (int)unbcd(r->latch[RTC_DATE] & 0x3f);
    tm.tm_mon = (int)unbcd(r->latch[RTC_MONTH] & 0x1f) - 1;
    tm.tm_year = r->year_base + (int)unbcd(r->latch[RTC_YEAR]) - 1900;
    int64_t want = (int64_t)timegm(&tm);
    r->offset = 0;
    r->offset = want - m48t35_time(r);
}

static m48t35 *R(device *d) { return d->priv; }

static uint64_t rd_reg(device *d, const reg_access *a)
{
    m48t35 *r = R(d);
    unsigned i = a->id;
    if (i == RTC_CONTROL)
        return r->control;
    if (r->frozen)
        return r->latch[i];
    uint8_t v[8];
    live_regs(r, v);
    return v[i];
}

static void wr_reg(device *d, const reg_access *a)
{
    m48t35 *r = R(d);
    unsigned i = a->id;
    uint8_t v = (uint8_t)a->val;
    if (i == RTC_CONTROL) {
        bool was = r->frozen, wbit = r->control & CTL_W;
        r->control = v;
        bool now = v & (CTL_W | CTL_R);
        if (now && !was)
            live_regs(r, r->latch); /* freeze what the clock shows */
        if (wbit && !(v & CTL_W))
            load_latch(r);
        r->frozen = now;
        return;
    }
    if (i == RTC_SEC) {
        /* STOP works without the WRITE bit. */
        bool st = v & SEC_ST;
        if (st && !r->stopped) {
            r->stop_ticks = r->clock->now;
            r->stopped = true;
        } else if (!st && r->stopped) {
            int64_t shown = m48t35_time(r);
            r->stopped = false;
            r->offset += shown - m48t35_time(r);
        }
    }
    if (i == RTC_DAY) {
        /* CEB, CB and FT are written directly (datasheet). */
        time_t t = (time_t)m48t35_time(r);
        struct tm tm;
        gmtime_r(&t, &tm);
        r->day_bits = v & (DAY_FT | DAY_CEB | DAY_CB);
        r->cb_century = (tm.tm_year + 1900 - r->year_base) / 100;
    }
    if (r->control & CTL_W)
        r->latch[i] = v;
}

static int nv_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    m48t35 *r = R(d);
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++)
        v = (v << 8) | (off + k < REG_BASE ? r->nvram[off + k] : 0);
    *val = v;
    return off + size <= M48T35_SIZE ? BUS_OK : BUS_ERROR;
}

static int nv_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    m48t35 *r = R(d);
    for (unsigned k = 0; k < size; k++)
        if (off + k < REG_BASE)
            r->nvram[off + k] = (uint8_t)(val >> (8 * (size - 1 - k)));
    return off + size <= M48T35_SIZE ? BUS_OK : BUS_ERROR;
}

static const reg_field ctl_fields[] = {
    {"CAL", 0, 5, NULL}, {"S", 5, 1, NULL}, {"R", 6, 1, NULL}, {"W", 7, 1, NULL}};
static const reg_field sec_fields[] = {{"SEC", 0, 7, NULL}, {"ST", 7, 1, NULL}};
static const reg_field day_fields[] = {
    {"DAY", 0, 3, NULL}, {"CB", 4, 1, NULL}, {"CEB", 5, 1, NULL}, {"FT", 6, 1, NULL}};

/* clang-format off */
static const reg_decl rtc_regs[] = {
    [RTC_CONTROL] = {.name = "CONTROL", .offset = 0x7ff8, .width = 1, .rules = R_NOSTORE,
                     REG_FIELDS(ctl_fields), .read = rd_reg, .write = wr_reg,
                     .desc = "W(rite) R(ead) S(ign) calibration"},
    [RTC_SEC] = {.name = "SECONDS", .offset = 0x7ff9, .width = 1, .rules = R_NOSTORE,
                 REG_FIELDS(sec_fields), .read = rd_reg, .write = wr_reg,
                 .desc = "BCD seconds, ST stops the clock"},
    [RTC_MIN] = {.name = "MINUTES", .offset = 0x7ffa, .width = 1, .rules = R_NOSTORE,
                 .read = rd_reg, .write = wr_reg, .desc = "BCD minutes"},
    [RTC_HOUR] = {.name = "HOURS", .offset = 0x7ffb, .width = 1, .rules = R_NOSTORE, .read = rd_reg,
                  .write = wr_reg, .desc = "BCD hours (24h)"},
    [RTC_DAY] = {.name = "DAY", .offset = 0x7ffc, .width = 1, .rules = R_NOSTORE,
                 REG_FIELDS(day_fields), .read = rd_reg, .write = wr_reg,
                 .desc = "day of week 1-7, century bits"},
    [RTC_DATE] = {.name = "DATE", .offset = 0x7ffd, .width = 1, .rules = R_NOSTORE, .read = rd_reg,
                  .write = wr_reg, .desc = "BCD day of month"},
    [RTC_MONTH] = {.name = "MONTH", .offset = 0x7ffe, .width = 1, .rules = R_NOSTORE,
                   .read = rd_reg, .write = wr_reg, .desc = "BCD month"},
    [RTC_YEAR] = {.name = "YEAR", .offset = 0x7fff, .width = 1, .rules = R_NOSTORE, .read = rd_reg,
                  .write = wr_reg, .desc = "BCD year (SGI: years since 1970)"},
};
/* clang-format on */
DEV_REGS_CHECK(rtc_regs, RTC_NREGS);

static void rtc_reset(device *d)
{
    /* Battery-backed: the clock and the NVRAM survive a machine reset; the
     * bus interface drops a pending READ/WRITE. */
    m48t35 *r = R(d);
    r->control &= (uint8_t) ~(CTL_W | CTL_R);
    r->frozen = false;
}

static void show_time(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    time_t t = (time_t)m48t35_time(R(d));
    struct tm tm;
    char buf[64];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    sb_printf(out, "%s: %s%s\n", d->name, buf, R(d)->stopped ? " (stopped)" : "");
}

static const dev_view rtc_views[] = {{"time", "the date and time the clock shows", show_time}};

static const state_decl rtc_state[] = {
    STATE_WIRING(m48t35, dev, "the register block: m48t35_new"),
    STATE_WIRING(m48t35, clock, "the machine's clock"),
    STATE_INT(m48t35, epoch,
              "Unix time at virtual time 0 (the host's time at start "
              "unless fixed): kept, so a restored clock shows the same time"),
    STATE_INT(m48t35, offset, "seconds added by the guest setting the clock"),
    STATE_BOOL(m48t35, stopped, "oscillator stopped (ST)"),
    STATE_INT(m48t35, stop_ticks, "virtual time the oscillator stopped"),
    STATE_INT(m48t35, control, "control register"),
    STATE_INT(m48t35, day_bits, "FT, CEB, CB as last written"),
    STATE_INT(m48t35, cb_century, "century when CB was written"),
    STATE_BOOL(m48t35, frozen, "READ or WRITE holds the latch"),
    STATE_BYTES(m48t35, latch, "the clock registers as latched"),
    STATE_BYTES(m48t35, nvram, "battery-backed SRAM"),
};

static const device_class rtc_class = {
    .name = "m48t35",
    .desc = "ST M48T35 TIMEKEEPER RTC + 32 KB NVRAM",
    DEV_REGS(rtc_regs),
    .reg_space = M48T35_SIZE,
    DEV_VIEWS(rtc_views),
    DEV_STATE(rtc_state, m48t35),
    .reset = rtc_reset,
    .other_read = nv_read,
    .other_write = nv_write,
};

m48t35 *m48t35_new(const char *name, event_bus *eb, sched *clock, int64_t epoch, int year_base)
{
    m48t35 *r = xcalloc(1, sizeof *r);
    r->clock = clock;
    r->epoch = epoch;
    r->year_base = year_base;
    r->dev = device_new(&rtc_class, name, r, eb, clock);
    return r;
}

void m48t35_free(m48t35 *r) { free(r); }

device *m48t35_device(m48t35 *r) { return r->dev; }

uint8_t m48t35_read(m48t35 *r, unsigned addr)
{
    uint64_t v = 0;
    if (addr < M48T35_SIZE)
        dev_read(r->dev, NULL, addr, 1, &v);
    return (uint8_t)v;
}

void m48t35_write(m48t35 *r, unsigned addr, uint8_t v)
{
    if (addr < M48T35_SIZE)
        dev_write(r->dev, NULL, addr, 1, v);
}
