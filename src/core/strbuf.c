/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

void sb_init(strbuf *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
}

void sb_free(strbuf *b)
{
    free(b->s);
    sb_init(b);
}

void sb_reset(strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
}

static void sb_grow(strbuf *b, size_t need)
{
    if (b->len + need + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 128;
    while (cap < b->len + need + 1)
        cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    sb_grow(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_puts(strbuf *b, const char *s)
{
    size_t n = strlen(s);
    sb_grow(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void sb_putc(strbuf *b, char c)
{
    sb_grow(b, 1);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

void sb_append(strbuf *b, const void *p, size_t n)
{
    sb_grow(b, n);
    if (n)
        memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

char *sb_take(strbuf *b)
{
    char *s = b->s;
    if (!s)
        s = xcalloc(1, 1);
    sb_init(b);
    return s;
}
