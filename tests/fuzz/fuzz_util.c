/* Shared pieces of the fuzz targets (see fuzz_util.h). */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t fuzz_take(fuzz_reader *r, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t b = 0;
        if (r->left) {
            b = *r->p++;
            r->left--;
        }
        v |= b << (8 * i);
    }
    return v;
}

static unsigned formatted;
static void sink_event(void *ctx, const event *ev)
{
    strbuf *b = ctx;
    if (formatted++ > 256)
        return;
    sb_reset(b);
    event_format(ev, b);
}

void fuzz_format_events(event_bus *eb, const char *glob, strbuf *text)
{
    formatted = 0;
    event_subscribe_glob(eb, glob, sink_event, text);
}

void fuzz_fail(const char *what)
{
    fprintf(stderr, "%s: invariant broken: %s\n", fuzz_target, what);
    abort();
}
