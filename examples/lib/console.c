/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The console: IOC3 UART A as the PROM left it (9600 8N1, FIFOs on),
 * polled.  UART register i is at CPU address UARTA + i (the Bridge's lane
 * model and the IOC3's wiring cancel out: docs/hardware.md, "Byte lanes"). */
#include "xbow.h"

#define LSR_DR 0x01
#define LSR_THRE 0x20

static spinlock_t console_lock;

static void raw_putc(int c)
{
    while (!(uart_read(UART_LSR) & LSR_THRE))
        ;
    uart_write(UART_THR, (u8)c);
}

void putchar(int c) { raw_putc(c); }

void puts(const char *s)
{
    while (*s)
        raw_putc(*s++);
}

int getchar_nowait(void)
{
    if (!(uart_read(UART_LSR) & LSR_DR))
        return -1;
    return uart_read(UART_RBR);
}

/* ---- a small printf: %[0][width][l|ll](d i u x X p s c %) ---------------- */

typedef struct out {
    char buf[256];
    unsigned n;
} out;

static void emit(out *o, char c)
{
    if (o->n == sizeof o->buf) {
        for (unsigned i = 0; i < o->n; i++)
            raw_putc(o->buf[i]);
        o->n = 0;
    }
    o->buf[o->n++] = c;
}

static void number(out *o, u64 v, unsigned base, int neg, int width, char pad, int upper)
{
    char tmp[24];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    if (neg)
        tmp[n++] = '-';
    for (int i = n; i < width; i++)
        emit(o, pad);
    while (n)
        emit(o, tmp[--n]);
}

int printf(const char *fmt, ...)
{
    out o;
    o.n = 0;
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            emit(&o, *p);
            continue;
        }
        p++;
        char pad = ' ';
        int width = 0, longs = 0;
        if (*p == '0') {
            pad = '0';
            p++;
        }
        while (*p >= '0' && *p <= '9')
            width = width * 10 + (*p++ - '0');
        while (*p == 'l') {
            longs++;
            p++;
        }
        switch (*p) {
        case 'd':
        case 'i': {
            s64 v = longs ? __builtin_va_arg(ap, s64) : __builtin_va_arg(ap, int);
            number(&o, v < 0 ? (u64)-v : (u64)v, 10, v < 0, width, pad, 0);
            break;
        }
        case 'u':
            number(&o, longs ? __builtin_va_arg(ap, u64) : __builtin_va_arg(ap, unsigned), 10,
                   0, width, pad, 0);
            break;
        case 'x':
        case 'X':
            number(&o, longs ? __builtin_va_arg(ap, u64) : __builtin_va_arg(ap, unsigned), 16,
                   0, width, pad, *p == 'X');
            break;
        case 'p':
            emit(&o, '0');
            emit(&o, 'x');
            number(&o, (u64)__builtin_va_arg(ap, void *), 16, 0, 16, '0', 0);
            break;
        case 's': {
            const char *s = __builtin_va_arg(ap, const char *);
            int len = 0;
            for (const char *q = s ? s : "(null)"; *q; q++)
                len++;
            for (int i = len; i < width; i++)
                emit(&o, ' ');
            for (const char *q = s ? s : "(null)"; *q; q++)
                emit(&o, *q);
            break;
        }
        case 'c':
            emit(&o, (char)__builtin_va_arg(ap, int));
            break;
        case '%':
            emit(&o, '%');
            break;
        default:
            emit(&o, '%');
            if (*p)
                emit(&o, *p);
            else
                p--;
        }
    }
    __builtin_va_end(ap);
    /* One CPU's line at a time on the shared UART. */
    spin_lock(&console_lock);
    for (unsigned i = 0; i < o.n; i++)
        raw_putc(o.buf[i]);
    spin_unlock(&console_lock);
    return (int)o.n;
}
