/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The few C library functions GCC torture tests call, for a freestanding
 * guest.  exit() and abort() end in __torture_exit / __torture_abort, which
 * torture_run replaces by host hooks.  No stdio: tests that print are
 * skipped (tests/torture/torture.sh says which and why).  Everything but
 * the two hooks is weak: a test may define its own (20021127-1: llabs). */
#include <stddef.h>

#pragma weak exit
#pragma weak _exit
#pragma weak abort
#pragma weak memcpy
#pragma weak memmove
#pragma weak memset
#pragma weak memcmp
#pragma weak memchr
#pragma weak strlen
#pragma weak strnlen
#pragma weak strcmp
#pragma weak strncmp
#pragma weak strcpy
#pragma weak strncpy
#pragma weak strcat
#pragma weak strchr
#pragma weak strrchr
#pragma weak stpcpy
#pragma weak abs
#pragma weak labs
#pragma weak llabs
#pragma weak malloc
#pragma weak calloc
#pragma weak realloc
#pragma weak free
#pragma weak ffs
#pragma weak qsort
#pragma weak __assert_fail
#pragma weak _flush_cache

void __torture_exit(long status) __attribute__((noipa, noreturn));
void __torture_abort(void) __attribute__((noipa, noreturn));
void __torture_exit(long status)
{
    (void)status;
    for (;;)
        __asm__ volatile("");
}
void __torture_abort(void)
{
    for (;;)
        __asm__ volatile("");
}

void exit(int status) __attribute__((noreturn));
void _exit(int status) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
void exit(int status) { __torture_exit(status); }
void _exit(int status) { __torture_exit(status); }
void abort(void) { __torture_abort(); }

void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *d, const char *s);
char *strncpy(char *d, const char *s, size_t n);
char *strcat(char *d, const char *s);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *stpcpy(char *d, const char *s);
int abs(int x);
long labs(long x);
long long llabs(long long x);
void *malloc(size_t n);
void *calloc(size_t n, size_t m);
void *realloc(void *p, size_t n);
void free(void *p);

/* Byte loops the compiler must not turn back into calls to themselves. */
#define NOLOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))

NOLOOP void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    while (n--)
        *dp++ = *sp++;
    return d;
}

NOLOOP void *memmove(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp < sp) {
        while (n--)
            *dp++ = *sp++;
    } else {
        while (n--)
            dp[n] = sp[n];
    }
    return d;
}

NOLOOP void *memset(void *d, int c, size_t n)
{
    unsigned char *dp = d;
    while (n--)
        *dp++ = (unsigned char)c;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (; n; n--, p++)
        if (*p == (unsigned char)c)
            return (void *)p;
    return NULL;
}

NOLOOP size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t strnlen(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i])
        i++;
    return i;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

NOLOOP char *strcpy(char *d, const char *s)
{
    char *r = d;
    while ((*d++ = *s++))
        ;
    return r;
}

NOLOOP char *stpcpy(char *d, const char *s)
{
    while ((*d = *s++))
        d++;
    return d;
}

NOLOOP char *strncpy(char *d, const char *s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    for (; i < n; i++)
        d[i] = 0;
    return d;
}

char *strcat(char *d, const char *s)
{
    strcpy(d + strlen(d), s);
    return d;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    const char *r = NULL;
    for (;; s++) {
        if (*s == (char)c)
            r = s;
        if (!*s)
            return (char *)r;
    }
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }

/* A bump allocator over the heap the linker script reserves; each block
 * keeps its size in front for realloc. */
extern char __heap_start[], __heap_end[];
static char *heap_next = __heap_start;

void *malloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if ((size_t)(__heap_end - heap_next) < n + 16)
        return NULL;
    size_t *p = (size_t *)heap_next;
    *p = n;
    heap_next += n + 16;
    return (char *)p + 16;
}

void *calloc(size_t n, size_t m)
{
    if (m && n > (size_t)-1 / m)
        return NULL;
    void *p = malloc(n * m);
    if (p)
        memset(p, 0, n * m);
    return p;
}

void *realloc(void *p, size_t n)
{
    void *q = malloc(n);
    if (p && q) {
        size_t old = *(size_t *)((char *)p - 16);
        memcpy(q, p, old < n ? old : n);
    }
    return q;
}

void free(void *p) { (void)p; }

/* Trampolines (nested functions) flush the caches through this on MIPS
 * Linux; xbow's CPU sees code writes without it. */
int _flush_cache(char *addr, int nbytes, int cache);
int _flush_cache(char *addr, int nbytes, int cache)
{
    (void)addr;
    (void)nbytes;
    (void)cache;
    return 0;
}

int ffs(int x);
int ffs(int x)
{
    for (int i = 0; i < 32; i++)
        if ((unsigned)x >> i & 1)
            return i + 1;
    return 0;
}

/* Insertion sort: the tests sort a handful of elements. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    unsigned char *b = base, tmp[256];
    if (size > sizeof tmp)
        abort();
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) {
            memcpy(tmp, b + j * size, size);
            memcpy(b + j * size, b + (j - 1) * size, size);
            memcpy(b + (j - 1) * size, tmp, size);
        }
}

void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
    __attribute__((noreturn));
void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
    (void)expr, (void)file, (void)line, (void)func;
    abort();
}
