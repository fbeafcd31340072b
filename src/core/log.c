/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/log.h"

#include <stdio.h>

static void stderr_sink(void *ctx, int level, const char *who, const char *msg)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    fprintf(stderr, "xbow: %s: %s%s%s\n", names[level], who ? who : "", who ? ": " : "", msg);
}

static log_sink_fn sink = stderr_sink;
static void *sink_ctx;
static int max_level = LOG_WARN;

void log_set_sink(log_sink_fn fn, void *ctx)
{
    sink = fn ? fn : stderr_sink;
    sink_ctx = ctx;
}

void log_set_level(int level) { max_level = level; }
int log_get_level(void) { return max_level; }

void xlogv(int level, const char *who, const char *fmt, va_list ap)
{
    if (level > max_level)
        return;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    sink(sink_ctx, level, who, buf);
}

void xlog(int level, const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xlogv(level, who, fmt, ap);
    va_end(ap);
}
