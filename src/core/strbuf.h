/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable text buffer: views and decoders write into one, front ends
 * decide where the text goes. */
#ifndef XBOW_STRBUF_H
#define XBOW_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_reset(strbuf *b);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
/* n bytes, which may include NULs (binary images): the length is b->len. */
void sb_append(strbuf *b, const void *p, size_t n);
/* Take ownership of the text (caller frees); the buffer is left empty. */
char *sb_take(strbuf *b);

#endif
