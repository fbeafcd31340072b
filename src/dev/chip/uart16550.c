/* SPDX-License-Identifier: GPL-2.0-or-later */
/* 16550A UART: see uart16550.h. */
#include "dev/chip/uart16550.h"

#include <stdlib.h>

#include "core/log.h"

#define FIFO_SIZE 16

/* IER bits */
#define IER_ERBFI 0x01 /* received data available */
#define IER_ETBEI 0x02 /* THR empty */
#define IER_ELSI 0x04  /* receiver line status */
#define IER_EDSSI 0x08 /* modem status */
/* LSR bits */
#define LSR_DR 0x01
#define LSR_OE 0x02
#define LSR_BI 0x10
#define LSR_THRE 0x20
#define LSR_TEMT 0x40
/* MCR bits */
#define MCR_LOOP 0x10
/* LCR bits */
#define LCR_DLAB 0x80
/* IIR interrupt identification */
#define IIR_NONE 0x01
#define IIR_MSR 0x00
#define IIR_THRE 0x02
#define IIR_RDA 0x04
#define IIR_RLS 0x06
#define IIR_TIMEOUT 0x0c

enum { EV_TX, EV_RX, EV_IRQ };

struct uart16550 {
    device *dev;
    sched *clock;
    chardev *ch;
    uint32_t clock_hz;
    uart_irq_fn irq;
    void *irq_ctx;
    uint8_t ier, lcr, mcr, scr, dll, dlm, lsr_err, msr_delta;
    bool fifo_en;
    unsigned trigger;
    uint8_t rx[FIFO_SIZE];
    unsigned rx_head, rx_count;
    bool thre_ip;    /* THR-empty interrupt pending */
    bool timeout_ip; /* character timeout pending */
    bool rx_arrived; /* a byte arrived since the last tick */
    bool irq_level;
    timer rx_timer;
};

static const event_field char_fields[] = {{"char", EVF_HEX, NULL, NULL}};
static const event_field level_fields[] = {{"level", EVF_BOOL, NULL, NULL}};
static const event_decl uart_events[] = {
    {"tx", "the guest sent a byte", char_fields, 1},
    {"rx", "a byte entered the receiver (from the line or loopback)", char_fields, 1},
    {"irq", "the interrupt output changed", level_fields, 1},
};

static uart16550 *U(device *d) { return d->priv; }

static uint8_t msr_value(const uart16550 *u)
{
    uint8_t lines;
    if (u->mcr & MCR_LOOP) /* DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD */
        lines = (uint8_t)(((u->mcr & 1) << 5) | ((u->mcr & 2) << 3) | ((u->mcr & 4) << 4) |
                          ((u->mcr & 8) << 4));
    else
        lines = 0xb0; /* a terminal is attached: CTS, DSR, DCD */
    return (uint8_t)(lines | u->msr_delta);
}

static uint8_t lsr_value(const uart16550 *u)
{
    return (uint8_t)((u->rx_count ? LSR_DR : 0) | u->lsr_err | LSR_THRE | LSR_TEMT);
}

static bool rx_ready(const uart16550 *u)
{
    if (!u->rx_count)
        return false;
    return !u->fifo_en || u->rx_count >= u->trigger;
}

static uint8_t iir_value(const uart16550 *u)
{
    uint8_t fifo = u->fifo_en ? 0xc0 : 0;
    if ((u->ier & IER_ELSI) && (u->lsr_err & (LSR_OE | LSR_BI)))
        return fifo | IIR_RLS;
    if ((u->ier & IER_ERBFI) && rx_ready(u))
        return fifo | IIR_RDA;
    if ((u->ier & IER_ERBFI) && u->timeout_ip && u->rx_count)
        return fifo | IIR_TIMEOUT;
    if ((u->ier & IER_ETBEI) && u->thre_ip)
        return fifo | IIR_THRE;
    if ((u->ier & IER_EDSSI) && (u->msr_delta & 0x0f))
        return fifo | IIR_MSR;
    return fifo | IIR_NONE;
}

static void update_irq(uart16550 *u)
{
    bool level = (iir_value(u) & 1) == 0;
    if (level == u->irq_level)
        return;
    u->irq_level = level;
    EVENT_EMIT(dev_event(u->dev, EV_IRQ), -1, level);
    if (u->irq)
        u->irq(u->irq_ctx, level);
}

static void rx_push(uart16550 *u, uint8_t c)
{
    unsigned cap = u->fifo_en ? FIFO_SIZE : 1;
    EVENT_EMIT(dev_event(u->dev, EV_RX), -1, c);
    if (u->rx_count >= cap) {
        u->lsr_err |= LSR_OE; /* the byte is lost, as on the chip */
        return;
    }
    u->rx[(u->rx_head + u->rx_count) % FIFO_SIZE] = c;
    u->rx_count++;
    u->rx_arrived = true;
    u->timeout_ip = false;
}

static void rx_clear(uart16550 *u)
{
    u->rx_head = u->rx_count = 0;
    u->timeout_ip = false;
}

uint64_t uart16550_char_ticks(const uart16550 *u)
{
    unsigned div = (unsigned)u->dll | (unsigned)u->dlm << 8;
    if (div == 0)
        div = 65536; /* the 16550 counts a divisor of 0 as 65536 */
    uint64_t clk = u->clock_hz ? u->clock_hz : 1843200;
    /* 10 bits per character, 16 clocks per bit. */
    uint64_t t = (uint64_t)((unsigned __int128)u->clock->hz * 160 * div / clk);
    return t ? t : 1;
}

static void rx_tick(void *opaque)
{
    uart16550 *u = opaque;
    if (u->rx_count && !u->rx_arrived && !rx_ready(u))
        u->timeout_ip = true;
    u->rx_arrived = false;
    if (u->ch && !(u->mcr & MCR_LOOP)) {
        int c = chardev_getc(u->ch);
        if (c >= 0)
            rx_push(u, (uint8_t)c);
    }
    update_irq(u);
    timer_mod(u->clock, &u->rx_timer, u->clock->now + uart16550_char_ticks(u));
}

/* The baud rate changed: the next input byte comes one new character
 * time from now. */
static void rx_rearm(uart16550 *u)
{
    if (u->ch)
        timer_mod(u->clock, &u->rx_timer, u->clock->now + uart16550_char_ticks(u));
}

/* ---- register hooks ----------------------------------------------------- */

static uint64_t rd_rbr(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    if (u->lcr & LCR_DLAB)
        return u->dll;
    if (!u->rx_count)
        return 0;
    uint8_t c = u->rx[u->rx_head];
    if (!a->peek) {
        u->rx_head = (u->rx_head + 1) % FIFO_SIZE;
        u->rx_count--;
        u->timeout_ip = false;
        update_irq(u);
    }
    return c;
}

static void transmit(uart16550 *u, uint8_t c)
{
    EVENT_EMIT(dev_event(u->dev, EV_TX), -1, c);
    if (u->mcr & MCR_LOOP)
        rx_push(u, c);
    else if (u->ch)
        chardev_write(u->ch, &c, 1);
    /* The byte left THR at once: THR is empty again. */
    u->thre_ip = true;
}

static void wr_thr(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    if (u->lcr & LCR_DLAB) {
        u->dll = (uint8_t)a->val;
        rx_rearm(u);
    } else
        transmit(u, (uint8_t)a->val);
    update_irq(u);
}

static uint64_t rd_ier(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    return (u->lcr & LCR_DLAB) ? u->dlm : u->ier;
}

static void wr_ier(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    if (u->lcr & LCR_DLAB) {
        u->dlm = (uint8_t)a->val;
        rx_rearm(u);
        return;
    }
    uint8_t was = u->ier;
    u->ier = (uint8_t)(a->val & 0x0f);
    /* Enabling the THRE interrupt with THR empty raises it at once. */
    if ((u->ier & IER_ETBEI) && !(was & IER_ETBEI))
        u->thre_ip = true;
    update_irq(u);
}

static uint64_t rd_iir(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    uint8_t v = iir_value(u);
    /* Reading IIR while it reports THRE clears that interrupt. */
    if (!a->peek && (v & 0x0f) == IIR_THRE) {
        u->thre_ip = false;
        update_irq(u);
    }
    return v;
}

static void wr_fcr(device *d, const reg_access *a)
{
    static const unsigned triggers[4] = {1, 4, 8, 14};
    uart16550 *u = U(d);
    bool en = a->val & 1;
    if (en != u->fifo_en)
        rx_clear(u); /* changing the FIFO mode empties the FIFOs */
    u->fifo_en = en;
    if (a->val & 2)
        rx_clear(u);
    /* bit 2 clears the transmit FIFO: it is always empty here */
    u->trigger = triggers[(a->val >> 6) & 3];
    update_irq(u);
}

static uint64_t rd_lcr(device *d, const reg_access *a) { return U(d)->lcr; }
static void wr_lcr(device *d, const reg_access *a) { U(d)->lcr = (uint8_t)a->val; }

static uint64_t rd_mcr(device *d, const reg_access *a) { return U(d)->mcr; }
static void wr_mcr(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    uint8_t before = msr_value(u) & 0xf0;
    u->mcr = (uint8_t)(a->val & 0x1f);
    uint8_t after = msr_value(u) & 0xf0;
    uint8_t ch = before ^ after;
    /* Delta bits: DCTS, DDSR, TERI (RI went low), DDCD. */
    u->msr_delta |= (uint8_t)(((ch >> 4) & 0x0b) | ((before & ~after & 0x40) ? 0x04 : 0));
    update_irq(u);
}

static uint64_t rd_lsr(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    uint8_t v = lsr_value(u);
    if (!a->peek && u->lsr_err) {
        u->lsr_err = 0; /* error bits clear on read */
        update_irq(u);
    }
    return v;
}

static uint64_t rd_msr(device *d, const reg_access *a)
{
    uart16550 *u = U(d);
    uint8_t v = msr_value(u);
    if (!a->peek && u->msr_delta) {
        u->msr_delta = 0;
        update_irq(u);
    }
    return v;
}

static uint64_t rd_scr(device *d, const reg_access *a) { return U(d)->scr; }
static void wr_scr(device *d, const reg_access *a) { U(d)->scr = (uint8_t)a->val; }

static void wr_ignore(device *d, const reg_access *a) {}

static const reg_field ier_fields[] = {
    {"ERBFI", 0, 1, NULL}, {"ETBEI", 1, 1, NULL}, {"ELSI", 2, 1, NULL}, {"EDSSI", 3, 1, NULL}};
static const char *const iir_ids[] = {"msr", "none", "thre", "3",  "rda", "5",       "rls",
                                      "7",   "8",    "9",    "10", "11",  "timeout", NULL};
static const reg_field iir_fields[] = {{"ID", 0, 4, iir_ids}, {"FIFO", 6, 2, NULL}};
static const reg_field lcr_fields[] = {{"WLS", 0, 2, NULL},   {"STB", 2, 1, NULL},
                                       {"PEN", 3, 1, NULL},   {"EPS", 4, 1, NULL},
                                       {"BREAK", 6, 1, NULL}, {"DLAB", 7, 1, NULL}};
static const reg_field mcr_fields[] = {{"DTR", 0, 1, NULL},
                                       {"RTS", 1, 1, NULL},
                                       {"OUT1", 2, 1, NULL},
                                       {"OUT2", 3, 1, NULL},
                                       {"LOOP", 4, 1, NULL}};
static const reg_field lsr_fields[] = {
    {"DR", 0, 1, NULL}, {"OE", 1, 1, NULL},   {"PE", 2, 1, NULL},  {"FE", 3, 1, NULL},
    {"BI", 4, 1, NULL}, {"THRE", 5, 1, NULL}, {"TEMT", 6, 1, NULL}};
static const reg_field msr_fields[] = {
    {"DCTS", 0, 1, NULL}, {"DDSR", 1, 1, NULL}, {"TERI", 2, 1, NULL}, {"DDCD", 3, 1, NULL},
    {"CTS", 4, 1, NULL},  {"DSR", 5, 1, NULL},  {"RI", 6, 1, NULL},   {"DCD", 7, 1, NULL}};

/* clang-format off */
static const reg_decl uart_regs[] = {
    [UART_RBR] = {.name = "RBR_THR", .offset = UART_RBR, .width = 1, .rules = R_NOSTORE,
                  .read = rd_rbr, .write = wr_thr,
                  .desc = "receive buffer / transmit holding (DLL when DLAB)"},
    [UART_IER] = {.name = "IER", .offset = UART_IER, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(ier_fields), .read = rd_ier, .write = wr_ier,
                  .desc = "interrupt enable (DLM when DLAB)"},
    [UART_IIR] = {.name = "IIR_FCR", .offset = UART_IIR, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(iir_fields), .read = rd_iir, .write = wr_fcr,
                  .desc = "interrupt identification / FIFO control"},
    [UART_LCR] = {.name = "LCR", .offset = UART_LCR, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(lcr_fields), .read = rd_lcr, .write = wr_lcr, .desc = "line control"},
    [UART_MCR] = {.name = "MCR", .offset = UART_MCR, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(mcr_fields), .read = rd_mcr, .write = wr_mcr, .desc = "modem control"},
    [UART_LSR] = {.name = "LSR", .offset = UART_LSR, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(lsr_fields), .read = rd_lsr, .write = wr_ignore,
                  .desc = "line status (errors clear on read)"},
    [UART_MSR] = {.name = "MSR", .offset = UART_MSR, .width = 1, .rules = R_NOSTORE,
                  REG_FIELDS(msr_fields), .read = rd_msr, .write = wr_ignore,
                  .desc = "modem status (deltas clear on read)"},
    [UART_SCR] = {.name = "SCR", .offset = UART_SCR, .width = 1, .rules = R_NOSTORE, .read = rd_scr,
                  .write = wr_scr, .desc = "scratch"},
};
/* clang-format on */
DEV_REGS_CHECK(uart_regs, UART_NREGS);

static void uart_reset(device *d)
{
    uart16550 *u = U(d);
    u->ier = u->lcr = u->mcr = u->scr = u->lsr_err = u->msr_delta = 0;
    u->dll = u->dlm = 0;
    u->fifo_en = false;
    u->trigger = 1;
    rx_clear(u);
    u->thre_ip = false;
    u->rx_arrived = false;
    update_irq(u);
    timer_del(u->clock, &u->rx_timer);
    rx_rearm(u);
}

static void show_state(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    uart16550 *u = U(d);
    unsigned div = (unsigned)u->dll | (unsigned)u->dlm << 8;
    sb_printf(out,
              "%s: divisor %u (%llu baud), FIFO %s (trigger %u), %u byte%s received, "
              "irq %s, line %s\n",
              d->name, div, (unsigned long long)(div ? u->clock_hz / 16 / div : 0),
              u->fifo_en ? "on" : "off", u->trigger, u->rx_count, u->rx_count == 1 ? "" : "s",
              u->irq_level ? "high" : "low", u->ch ? chardev_describe(u->ch) : "none");
}

static const dev_view uart_views[] = {{"state", "baud rate, FIFO and interrupt state", show_state}};

static const state_decl uart_state[] = {
    STATE_WIRING(uart16550, dev, "the register block: uart16550_new"),
    STATE_WIRING(uart16550, clock, "the machine's clock"),
    STATE_WIRING(uart16550, ch,
                 "the line (a chardev): the machine's configuration; "
                 "bytes it has not delivered are input, not UART state"),
    STATE_WIRING(uart16550, irq, "the interrupt output's receiver: uart16550_config"),
    STATE_WIRING(uart16550, irq_ctx, "the interrupt output's receiver: uart16550_config"),
    STATE_INT(uart16550, ier, "interrupt enable"),
    STATE_INT(uart16550, lcr, "line control"),
    STATE_INT(uart16550, mcr, "modem control"),
    STATE_INT(uart16550, scr, "scratch"),
    STATE_INT(uart16550, dll, "divisor latch, low"),
    STATE_INT(uart16550, dlm, "divisor latch, high"),
    STATE_INT(uart16550, lsr_err, "line status error bits until read"),
    STATE_INT(uart16550, msr_delta, "modem status deltas until read"),
    STATE_BOOL(uart16550, fifo_en, "FIFOs enabled"),
    STATE_INT(uart16550, trigger, "receive FIFO trigger level"),
    STATE_BYTES(uart16550, rx, "receive FIFO storage"),
    STATE_INT(uart16550, rx_head, "receive FIFO: oldest byte"),
    STATE_INT(uart16550, rx_count, "receive FIFO: bytes held"),
    STATE_BOOL(uart16550, thre_ip, "THR-empty interrupt pending"),
    STATE_BOOL(uart16550, timeout_ip, "character timeout pending"),
    STATE_BOOL(uart16550, rx_arrived, "a byte arrived since the last tick"),
    STATE_LINE(uart16550, irq_level, "the interrupt output"),
    STATE_TIMER(uart16550, rx_timer, "the receiver's character clock"),
};

static const device_class uart_class = {
    .name = "uart16550",
    .desc = "16550A UART",
    DEV_REGS(uart_regs),
    .reg_space = 8,
    DEV_EVENTS(uart_events),
    DEV_VIEWS(uart_views),
    DEV_STATE(uart_state, uart16550),
    .reset = uart_reset,
};

uart16550 *uart16550_new(const uart16550_config *cfg, event_bus *eb, sched *clock)
{
    uart16550 *u = xcalloc(1, sizeof *u);
    u->clock = clock;
    u->ch = cfg->ch;
    u->clock_hz = cfg->clock_hz;
    u->irq = cfg->irq;
    u->irq_ctx = cfg->irq_ctx;
    timer_init(&u->rx_timer, "uart-rx", rx_tick, u);
    u->dev = device_new(&uart_class, cfg->name, u, eb, clock);
    device_reset(u->dev);
    return u;
}

void uart16550_free(uart16550 *u)
{
    if (!u)
        return;
    timer_del(u->clock, &u->rx_timer);
    free(u);
}

device *uart16550_device(uart16550 *u) { return u->dev; }

uint8_t uart16550_read(uart16550 *u, unsigned reg)
{
    uint64_t v = 0;
    dev_read(u->dev, NULL, reg & 7, 1, &v);
    return (uint8_t)v;
}

void uart16550_write(uart16550 *u, unsigned reg, uint8_t val)
{
    dev_write(u->dev, NULL, reg & 7, 1, val);
}

bool uart16550_irq_level(const uart16550 *u) { return u->irq_level; }
