/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the 16550 UART (src/dev/chip/uart16550.c) and the M48T35
 * RTC/NVRAM (src/dev/chip/m48t35.c). */
#include <check.h>
#include <stdlib.h>
#include <time.h>

#include "core/chardev.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/chip/m48t35.h"
#include "dev/chip/uart16550.h"
#include "../../check_run.h"

#define IOC3_UART_CLOCK 7333333 /* 22 MHz / 3 (8250_ioc3.c) */

typedef struct urig {
    sched clock;
    event_bus eb;
    chardev *ch;
    uart16550 *u;
    char out[256];
    unsigned nout;
    bool irq;
    unsigned irq_changes;
} urig;

static void tap(void *ctx, const uint8_t *buf, size_t n)
{
    urig *r = ctx;
    for (size_t i = 0; i < n && r->nout + 1 < sizeof r->out; i++)
        r->out[r->nout++] = (char)buf[i];
    r->out[r->nout] = 0;
}

static void on_irq(void *ctx, bool level)
{
    urig *r = ctx;
    r->irq = level;
    r->irq_changes++;
}

static void urig_init(urig *r)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->clock, XBOW_CPU_HZ);
    event_bus_init(&r->eb, &r->clock.now);
    xerr err;
    r->ch = chardev_open("null", &err);
    ck_assert_ptr_nonnull(r->ch);
    chardev_add_tap(r->ch, tap, r);
    uart16550_config c = {"uart", IOC3_UART_CLOCK, r->ch, on_irq, r};
    r->u = uart16550_new(&c, &r->eb, &r->clock);
    ck_assert_ptr_nonnull(r->u);
}

static void urig_free(urig *r)
{
    device_free(uart16550_device(r->u));
    uart16550_free(r->u);
    chardev_close(r->ch);
    event_bus_free(&r->eb);
}

START_TEST(uart_transmit_and_divisor)
{
    urig r;
    urig_init(&r);
    /* 9600 baud on the IOC3's 7.33 MHz clock: divisor 48. */
    uart16550_write(r.u, UART_LCR, 0x83);
    uart16550_write(r.u, UART_DLL, 48);
    uart16550_write(r.u, UART_DLM, 0);
    ck_assert_uint_eq(uart16550_read(r.u, UART_DLL), 48);
    ck_assert_uint_eq(uart16550_read(r.u, UART_DLM), 0);
    uart16550_write(r.u, UART_LCR, 0x03);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IER), 0); /* IER again, not DLM */
    /* 10 bits * 16 * 48 / 7333333 Hz at 180 MHz = 188509 ticks. */
    ck_assert_uint_eq(uart16550_char_ticks(r.u), 188509);
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 0x60, 0x60);
    const char *msg = "hello";
    for (const char *p = msg; *p; p++)
        uart16550_write(r.u, UART_THR, (uint8_t)*p);
    ck_assert_str_eq(r.out, "hello");
    uart16550_write(r.u, UART_SCR, 0x5a);
    ck_assert_uint_eq(uart16550_read(r.u, UART_SCR), 0x5a);
    urig_free(&r);
}
END_TEST

START_TEST(uart_thre_interrupt)
{
    urig r;
    urig_init(&r);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR) & 0x0f, 0x01); /* none */
    /* Enabling ETBEI with THR empty raises THRE at once. */
    uart16550_write(r.u, UART_IER, 0x02);
    ck_assert(r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR) & 0x0f, 0x02);
    /* Reading IIR while it shows THRE clears it. */
    ck_assert(!r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR) & 0x0f, 0x01);
    /* Each byte sent empties THR again: THRE comes back. */
    uart16550_write(r.u, UART_THR, 'x');
    ck_assert(r.irq);
    uart16550_write(r.u, UART_IER, 0);
    ck_assert(!r.irq);
    urig_free(&r);
}
END_TEST

START_TEST(uart_loopback_fifo_and_overrun)
{
    urig r;
    urig_init(&r);
    uart16550_write(r.u, UART_MCR, 0x10 | 0x03); /* loop, DTR, RTS */
    /* MSR mirrors MCR in loopback: RTS->CTS, DTR->DSR. */
    ck_assert_uint_eq(uart16550_read(r.u, UART_MSR) & 0xf0, 0x30);
    /* FIFO on, trigger 4, RX interrupt enabled. */
    uart16550_write(r.u, UART_FCR, 0x41);
    uart16550_write(r.u, UART_IER, 0x01);
    uart16550_write(r.u, UART_THR, 'a');
    uart16550_write(r.u, UART_THR, 'b');
    uart16550_write(r.u, UART_THR, 'c');
    ck_assert_str_eq(r.out, ""); /* nothing reached the line */
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 1, 1);
    ck_assert(!r.irq); /* below the trigger level */
    uart16550_write(r.u, UART_THR, 'd');
    ck_assert(r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR), 0xc4);
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'a');
    ck_assert(!r.irq);
    /* Below the trigger, an idle character time gives the timeout. */
    uint64_t ct = uart16550_char_ticks(r.u);
    sched_run_until(&r.clock, r.clock.now + 2 * ct + 1);
    ck_assert(r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR), 0xcc);
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'b');
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'c');
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'd');
    ck_assert(!r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 1, 0);
    /* 17 bytes into a 16-byte FIFO: overrun, reported once by LSR. */
    for (int i = 0; i < 17; i++)
        uart16550_write(r.u, UART_THR, (uint8_t)('A' + i));
    uart16550_write(r.u, UART_IER, 0x05);
    ck_assert_uint_eq(uart16550_read(r.u, UART_IIR) & 0x0f, 0x06); /* line status first */
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 0x03, 0x03);
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 0x03, 0x01);
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'A');
    /* FCR bit 1 empties the receive FIFO. */
    uart16550_write(r.u, UART_FCR, 0x03);
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 1, 0);
    urig_free(&r);
}
END_TEST

START_TEST(uart_receive_from_line)
{
    urig r;
    urig_init(&r);
    uart16550_write(r.u, UART_LCR, 0x83);
    uart16550_write(r.u, UART_DLL, 48);
    uart16550_write(r.u, UART_LCR, 0x03);
    uart16550_write(r.u, UART_IER, 0x01);
    chardev_push_input(r.ch, (const uint8_t *)"ok", 2);
    uint64_t ct = uart16550_char_ticks(r.u);
    /* Bytes arrive one per character time, no faster. */
    sched_run_until(&r.clock, r.clock.now + ct + 1);
    ck_assert(r.irq); /* FIFO off: every byte is "data available" */
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'o');
    ck_assert(!r.irq);
    ck_assert_uint_eq(uart16550_read(r.u, UART_LSR) & 1, 0);
    sched_run_until(&r.clock, r.clock.now + ct + 1);
    ck_assert_uint_eq(uart16550_read(r.u, UART_RBR), 'k');
    urig_free(&r);
}
END_TEST

/* ---- M48T35 ------------------------------------------------------------ */

#define EPOCH_2024 1704067200 /* 2024-01-01 00:00:00 UTC, a Monday */

START_TEST(rtc_reads_virtual_time)
{
    sched s;
    sched_init(&s, XBOW_CPU_HZ);
    m48t35 *r = m48t35_new("rtc", NULL, &s, EPOCH_2024, 1970);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(m48t35_read(r, 0x7fff), 0x54); /* 2024 - 1970 */
    ck_assert_uint_eq(m48t35_read(r, 0x7ffe), 0x01);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffd), 0x01);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffc) & 7, 2); /* Monday = 2 (Sunday = 1) */
    s.now = (uint64_t)3661 * XBOW_CPU_HZ;
    ck_assert_uint_eq(m48t35_read(r, 0x7ffb), 0x01);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffa), 0x01);
    ck_assert_uint_eq(m48t35_read(r, 0x7ff9), 0x01);
    /* READ freezes the registers while time goes on. */
    m48t35_write(r, 0x7ff8, 0x40);
    s.now += (uint64_t)60 * XBOW_CPU_HZ;
    ck_assert_uint_eq(m48t35_read(r, 0x7ffa), 0x01);
    m48t35_write(r, 0x7ff8, 0x00);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffa), 0x02);
    device_free(m48t35_device(r));
    m48t35_free(r);
}
END_TEST

START_TEST(rtc_set_stop_and_nvram)
{
    sched s;
    sched_init(&s, XBOW_CPU_HZ);
    m48t35 *r = m48t35_new("rtc", NULL, &s, EPOCH_2024, 1970);
    /* Set 2026-07-04 12:34:56 the way rtc-m48t35 does. */
    m48t35_write(r, 0x7ff8, 0x80);
    m48t35_write(r, 0x7fff, 0x56);
    m48t35_write(r, 0x7ffe, 0x07);
    m48t35_write(r, 0x7ffd, 0x04);
    m48t35_write(r, 0x7ffb, 0x12);
    m48t35_write(r, 0x7ffa, 0x34);
    m48t35_write(r, 0x7ff9, 0x56);
    /* While WRITE is set the registers show what was written. */
    ck_assert_uint_eq(m48t35_read(r, 0x7ffa), 0x34);
    m48t35_write(r, 0x7ff8, 0x00);
    struct tm tm = {
        .tm_year = 126, .tm_mon = 6, .tm_mday = 4, .tm_hour = 12, .tm_min = 34, .tm_sec = 56};
    ck_assert_int_eq(m48t35_time(r), (int64_t)timegm(&tm));
    s.now += (uint64_t)4 * XBOW_CPU_HZ;
    ck_assert_uint_eq(m48t35_read(r, 0x7ff9), 0x00); /* 56 + 4 = 60: next minute */
    ck_assert_uint_eq(m48t35_read(r, 0x7ffa), 0x35);
    /* STOP (ST) holds the clock, clearing it resumes from where it stood. */
    m48t35_write(r, 0x7ff9, 0x80);
    s.now += (uint64_t)100 * XBOW_CPU_HZ;
    ck_assert_uint_eq(m48t35_read(r, 0x7ff9), 0x80);
    m48t35_write(r, 0x7ff9, 0x00);
    s.now += (uint64_t)2 * XBOW_CPU_HZ;
    ck_assert_uint_eq(m48t35_read(r, 0x7ff9), 0x02);
    /* NVRAM below the clock registers is plain memory. */
    m48t35_write(r, 0x0000, 0xa5);
    m48t35_write(r, 0x7ff7, 0x5a);
    ck_assert_uint_eq(m48t35_read(r, 0x0000), 0xa5);
    ck_assert_uint_eq(m48t35_read(r, 0x7ff7), 0x5a);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffe), 0x07);
    /* A machine reset keeps the battery-backed contents. */
    device_reset(m48t35_device(r));
    ck_assert_uint_eq(m48t35_read(r, 0x0000), 0xa5);
    ck_assert_uint_eq(m48t35_read(r, 0x7ffe), 0x07);
    device_free(m48t35_device(r));
    m48t35_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("uart-rtc");
    check_add_tests(check_case(s, "uart16550", NULL, NULL, 0), uart_transmit_and_divisor,
                    uart_thre_interrupt, uart_loopback_fifo_and_overrun, uart_receive_from_line);
    check_add_tests(check_case(s, "m48t35", NULL, NULL, 0), rtc_reads_virtual_time,
                    rtc_set_stop_and_nvram);
    return s;
}

int main(void) { return check_run(suite()) ? EXIT_FAILURE : EXIT_SUCCESS; }
