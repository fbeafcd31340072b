/* Shared pieces of the fuzz targets: the reader that takes the arguments
 * of an operation from the input, the event sink that exercises the
 * formatters, and the abort on a broken invariant. */
#ifndef XBOW_FUZZ_UTIL_H
#define XBOW_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/strbuf.h"

/* The target's name for messages; each target defines it. */
extern const char fuzz_target[];

typedef struct fuzz_reader {
    const uint8_t *p;
    size_t left;
} fuzz_reader;

/* The next n bytes, little-endian; missing bytes read as 0. */
uint64_t fuzz_take(fuzz_reader *r, unsigned n);

/* Subscribe to the events matching glob and format the first ones of each
 * run into text (the formatters are fuzzed too; all of them would make the
 * run slow). */
void fuzz_format_events(event_bus *eb, const char *glob, strbuf *text);

/* Report a broken invariant and abort, as libFuzzer expects. */
_Noreturn void fuzz_fail(const char *what);

#endif
