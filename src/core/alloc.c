/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The allocation and error helpers common.h declares. */
#include "core/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "xbow: out of memory (allocating %zu bytes)\n", size);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory(size);
    return q;
}

void *xaligned_alloc(size_t align, size_t size)
{
    size_t n = size ? (size + align - 1) / align * align : align;
    void *p = aligned_alloc(align, n);
    if (!p)
        out_of_memory(n);
    return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = xmalloc(len + 1);
    memcpy(d, s, len);
    d[len] = 0;
    return d;
}

void xerr_vset(xerr *err, const char *fmt, va_list ap)
{
    if (err)
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

void xerr_set(xerr *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xerr_vset(err, fmt, ap);
    va_end(ap);
}

int xerr_fail(xerr *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xerr_vset(err, fmt, ap);
    va_end(ap);
    return -1;
}
